package realcorpus

import (
	"bytes"
	"crypto/md5"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/mewkiz/flac"

	"github.com/tableref/tableref/audio"
)

// PCM is a decoded recording: integer samples, frame after frame, each
// frame holding one sample per channel.
type PCM struct {
	Rate     int
	Channels int
	Bits     int     // bits per sample as stored in the FLAC file (4 to 32)
	Samples  []int32 // interleaved
}

// Frames is the number of samples per channel.
func (p *PCM) Frames() int {
	if p.Channels == 0 {
		return 0
	}
	return len(p.Samples) / p.Channels
}

// Seconds is the duration.
func (p *PCM) Seconds() float64 {
	if p.Rate == 0 {
		return 0
	}
	return float64(p.Frames()) / float64(p.Rate)
}

// ReadFLAC decodes a FLAC file.
func ReadFLAC(path string) (*PCM, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	p, err := DecodeFLAC(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return p, nil
}

// DecodeFLAC decodes a FLAC stream and checks it against the MD5 sum of the
// audio that its header carries (when it carries one), so that a damaged
// file is an error rather than a quietly wrong score.
func DecodeFLAC(r io.Reader) (*PCM, error) {
	s, err := flac.New(r)
	if err != nil {
		return nil, fmt.Errorf("not a FLAC stream: %w", err)
	}
	defer s.Close()
	p := &PCM{Rate: int(s.Info.SampleRate), Channels: int(s.Info.NChannels), Bits: int(s.Info.BitsPerSample)}
	if p.Channels == 0 || p.Rate == 0 {
		return nil, errors.New("FLAC header gives no channels or no sample rate")
	}
	p.Samples = make([]int32, 0, int(s.Info.NSamples)*p.Channels)
	sum := md5.New()
	for {
		f, err := s.ParseNext()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("decoding FLAC frame: %w", err)
		}
		if len(f.Subframes) != p.Channels {
			return nil, fmt.Errorf("FLAC frame with %d channels in a %d-channel stream", len(f.Subframes), p.Channels)
		}
		f.Hash(sum)
		n := len(f.Subframes[0].Samples)
		for i := range n {
			for _, sf := range f.Subframes {
				p.Samples = append(p.Samples, sf.Samples[i])
			}
		}
	}
	if want := s.Info.MD5sum; want != [md5.Size]byte{} && !bytes.Equal(sum.Sum(nil), want[:]) {
		return nil, errors.New("the decoded audio does not match the MD5 sum in the FLAC header")
	}
	return p, nil
}

// WAV is the recording as an integer PCM WAV file, as `sox FILE.flac
// FILE.wav` writes it for score-real: the same rate, channels and samples,
// 16 bits a sample for 16-bit FLAC (all of the corpus) and wider only for
// wider FLAC, so that no sample is ever rounded. (Narrower FLAC is shifted
// up to 16 bits, which is exact too; 8-bit WAV would be unsigned.)
func (p *PCM) WAV() []byte {
	bits := 16
	switch {
	case p.Bits > 24:
		bits = 32
	case p.Bits > 16:
		bits = 24
	}
	shift := uint(bits - p.Bits)
	bytesPer := bits / 8
	out := wavHeader(len(p.Samples)*bytesPer, p.Rate, p.Channels, bits)
	var b [4]byte
	for _, s := range p.Samples {
		binary.LittleEndian.PutUint32(b[:], uint32(s)<<shift)
		out = append(out, b[:bytesPer]...)
	}
	return out
}

// monoWAV is mono samples (full scale ±1) as a 16-bit PCM WAV file,
// rounded to the nearest step and clipped at full scale.
func monoWAV(x []float64, rate int) []byte {
	out := wavHeader(2*len(x), rate, 1, 16)
	for _, v := range x {
		s := math.Round(v * 32768)
		s = max(-32768, min(32767, s))
		out = binary.LittleEndian.AppendUint16(out, uint16(int16(s)))
	}
	return out
}

// wavHeader is a canonical 44-byte PCM WAV header for data bytes of
// samples, with room after it for the data.
func wavHeader(data, rate, channels, bits int) []byte {
	h := make([]byte, 44, 44+data)
	align := channels * bits / 8
	copy(h[0:], "RIFF")
	binary.LittleEndian.PutUint32(h[4:], uint32(36+data))
	copy(h[8:], "WAVEfmt ")
	binary.LittleEndian.PutUint32(h[16:], 16)
	binary.LittleEndian.PutUint16(h[20:], 1) // integer PCM
	binary.LittleEndian.PutUint16(h[22:], uint16(channels))
	binary.LittleEndian.PutUint32(h[24:], uint32(rate))
	binary.LittleEndian.PutUint32(h[28:], uint32(rate*align))
	binary.LittleEndian.PutUint16(h[32:], uint16(align))
	binary.LittleEndian.PutUint16(h[34:], uint16(bits))
	copy(h[36:], "data")
	binary.LittleEndian.PutUint32(h[40:], uint32(data))
	return h
}

// Mono is the one stream tableref hears from the recording: its channels
// mixed down by audio.NewWAV exactly as `tableref listen --wav` mixes them
// (see audio/internal/mixdown), full scale ±1. Hits cut from it for the
// code test therefore sound to the listener as they did in the recording.
func (p *PCM) Mono() ([]float64, error) {
	w, err := audio.NewWAV(bytes.NewReader(p.WAV()))
	if err != nil {
		return nil, err
	}
	out := make([]float64, 0, p.Frames())
	err = audio.Drain(w, 4096, func(x []float64) error {
		out = append(out, x...)
		return nil
	})
	return out, err
}

// averageMono mixes the channels down by averaging them, as sox does with
// `-c 1` (which score-real uses to string single clips into one stream).
func (p *PCM) averageMono() []float64 {
	n, ch := p.Frames(), p.Channels
	scale := 1 / (float64(int64(1)<<(p.Bits-1)) * float64(ch))
	out := make([]float64, n)
	for i := range n {
		var s int64
		for _, v := range p.Samples[i*ch : (i+1)*ch] {
			s += int64(v)
		}
		out[i] = float64(s) * scale
	}
	return out
}
