package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	goaudio "github.com/go-audio/audio"
	"github.com/go-audio/wav"
)

// Format is how samples are stored in a WAV file we write.
type Format struct {
	Bits  int  // 16, 24 or 32 for integers; 32 or 64 for floats
	Float bool // IEEE float (format tag 3) rather than integer PCM (tag 1)
}

// Int16 is the format of every condition that is not about the format.
var Int16 = Format{Bits: 16}

func (f Format) String() string {
	if f.Float {
		return fmt.Sprintf("float%d", f.Bits)
	}
	return fmt.Sprintf("int%d", f.Bits)
}

func (f Format) valid() bool {
	if f.Float {
		return f.Bits == 32 || f.Bits == 64
	}
	return f.Bits == 16 || f.Bits == 24 || f.Bits == 32
}

// readWAV decodes an integer PCM WAV file (8, 16, 24 or 32 bits, any number
// of channels) into one slice of samples in [-1, 1) per channel. The chunk
// parsing and sample decoding are go-audio's; the de-interleaving and scaling
// are ours. The project's audio package only gives a mono mixdown, and the
// conditions need the channels.
func readWAV(path string) (rate int, chans [][]float64, bits int, err error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return 0, nil, 0, err
	}
	d := wav.NewDecoder(bytes.NewReader(raw))
	if !d.IsValidFile() {
		if e := d.Err(); e != nil {
			return 0, nil, 0, fmt.Errorf("not a readable WAV file: %v", e)
		}
		return 0, nil, 0, errors.New("not a readable WAV file")
	}
	switch d.WavAudioFormat {
	case 1, 0xFFFE:
	case 3:
		return 0, nil, 0, errors.New("IEEE float WAV input is not supported (the corpus is integer PCM)")
	default:
		return 0, nil, 0, fmt.Errorf("WAV format code 0x%04X is not supported (integer PCM only)", d.WavAudioFormat)
	}
	nch := int(d.NumChans)
	bits = int(d.BitDepth)
	rate = int(d.SampleRate)
	if bits != 8 && bits != 16 && bits != 24 && bits != 32 {
		return 0, nil, 0, fmt.Errorf("%d-bit samples are not supported", bits)
	}
	if rate <= 0 || nch <= 0 {
		return 0, nil, 0, errors.New("WAV header has no rate or no channels")
	}
	if err := d.FwdToPCM(); err != nil {
		return 0, nil, 0, fmt.Errorf("no data chunk: %v", err)
	}
	frames := d.PCMSize / (nch * bits / 8)
	chans = make([][]float64, nch)
	for c := range chans {
		chans[c] = make([]float64, 0, frames)
	}
	scale := 1 / float64(int64(1)<<(bits-1))
	offset := 0
	if bits == 8 {
		offset = 128 // 8-bit WAV is unsigned
	}
	buf := &goaudio.IntBuffer{Data: make([]int, 8192*nch)}
	c := 0 // channel of the next sample: a read need not end on a frame
	for {
		n, err := d.PCMBuffer(buf)
		for _, v := range buf.Data[:max(n, 0)] {
			chans[c] = append(chans[c], float64(v-offset)*scale)
			c++
			if c == nch {
				c = 0
			}
		}
		if err != nil {
			return 0, nil, 0, fmt.Errorf("reading samples: %v", err)
		}
		if n <= 0 {
			break
		}
	}
	// a trailing partial frame is dropped
	short := len(chans[nch-1])
	for i := range chans {
		chans[i] = chans[i][:short]
	}
	if short == 0 {
		return 0, nil, 0, errors.New("the WAV file holds no samples")
	}
	return rate, chans, bits, nil
}

// writeWAV writes the channels (all of one length) as a WAV file in format f.
// Samples are clipped to [-1, 1]; integers are rounded to the nearest step
// (so an exact zero stays an exact zero).
func writeWAV(path string, rate int, chans [][]float64, f Format) error {
	fh, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(fh, 1<<16)
	err = encodeWAV(bw, rate, chans, f)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := fh.Close(); err == nil {
		err = cerr
	}
	return err
}

// encodeWAV writes a canonical RIFF/WAVE stream: a fmt chunk (16 bytes for
// PCM, 18 with cbSize 0 for float) and a data chunk.
func encodeWAV(w io.Writer, rate int, chans [][]float64, f Format) error {
	if !f.valid() {
		return fmt.Errorf("cannot write %s samples", f)
	}
	nch := len(chans)
	if nch == 0 || nch > 0xFFFF {
		return fmt.Errorf("cannot write %d channels", nch)
	}
	frames := len(chans[0])
	for _, c := range chans {
		if len(c) != frames {
			return errors.New("channels of different lengths")
		}
	}
	bps := f.Bits / 8
	block := nch * bps
	data := int64(frames) * int64(block)
	fmtLen := 16
	tag := uint16(1)
	if f.Float {
		fmtLen, tag = 18, 3
	}
	if 4+8+int64(fmtLen)+8+data+data&1 > math.MaxUint32 {
		return errors.New("too much audio for a WAV file")
	}
	h := make([]byte, 0, 46)
	h = append(h, "RIFF"...)
	h = binary.LittleEndian.AppendUint32(h, uint32(4+8+int64(fmtLen)+8+data+data&1))
	h = append(h, "WAVEfmt "...)
	h = binary.LittleEndian.AppendUint32(h, uint32(fmtLen))
	h = binary.LittleEndian.AppendUint16(h, tag)
	h = binary.LittleEndian.AppendUint16(h, uint16(nch))
	h = binary.LittleEndian.AppendUint32(h, uint32(rate))
	h = binary.LittleEndian.AppendUint32(h, uint32(rate*block))
	h = binary.LittleEndian.AppendUint16(h, uint16(block))
	h = binary.LittleEndian.AppendUint16(h, uint16(f.Bits))
	if f.Float {
		h = binary.LittleEndian.AppendUint16(h, 0) // cbSize
	}
	h = append(h, "data"...)
	h = binary.LittleEndian.AppendUint32(h, uint32(data))
	if _, err := w.Write(h); err != nil {
		return err
	}
	const chunkFrames = 4096
	out := make([]byte, 0, chunkFrames*block)
	for start := 0; start < frames; start += chunkFrames {
		end := min(start+chunkFrames, frames)
		out = out[:0]
		for i := start; i < end; i++ {
			for _, c := range chans {
				out = appendSample(out, c[i], f)
			}
		}
		if _, err := w.Write(out); err != nil {
			return err
		}
	}
	if data&1 == 1 {
		if _, err := w.Write([]byte{0}); err != nil {
			return err
		}
	}
	return nil
}

func appendSample(b []byte, v float64, f Format) []byte {
	switch {
	case v != v: // NaN
		v = 0
	case v > 1:
		v = 1
	case v < -1:
		v = -1
	}
	if f.Float {
		if f.Bits == 32 {
			return binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(v)))
		}
		return binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
	}
	full := float64(int64(1) << (f.Bits - 1))
	q := math.Round(v * full)
	if q > full-1 {
		q = full - 1
	}
	iv := int64(q)
	switch f.Bits {
	case 16:
		return binary.LittleEndian.AppendUint16(b, uint16(int16(iv)))
	case 24:
		u := uint32(int32(iv))
		return append(b, byte(u), byte(u>>8), byte(u>>16))
	default:
		return binary.LittleEndian.AppendUint32(b, uint32(int32(iv)))
	}
}

// mixdown averages the channels into one.
func mixdown(chans [][]float64) []float64 {
	if len(chans) == 1 {
		return append([]float64(nil), chans[0]...)
	}
	out := make([]float64, len(chans[0]))
	for _, c := range chans {
		for i, v := range c {
			out[i] += v
		}
	}
	k := 1 / float64(len(chans))
	for i := range out {
		out[i] *= k
	}
	return out
}
