package audio_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	goaudio "github.com/go-audio/audio"
	"github.com/go-audio/wav"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/audio"
	"github.com/tableref/tableref/audio/internal/mixdown"
)

// ---------------------------------------------------------------------------
// Round trips through github.com/go-audio/wav's encoder.

// wtSignal is the test signal of channel c at frame i, in [-0.9, 0.9]: a
// 440 Hz sine on channel 0; on each further channel the same sine at its own
// level plus a little of its own (a sawtooth ramp on channel 1, a different
// sine on the others), so that every channel decodes to a different value
// but all of them are one sound, as microphones of one table are (the mix
// leaves out channels unrelated to the loudest).
func wtSignal(c, i, rate int) float64 {
	t := float64(i) / float64(rate)
	base := math.Sin(2 * math.Pi * 440 * t)
	switch c {
	case 0:
		return 0.8 * base
	case 1:
		return 0.7*base + 0.1*(-1+2*float64(i%1000)/999)
	default:
		return (0.8-0.1*float64(c))*base + 0.1*math.Sin(2*math.Pi*float64(97*(c+1))*t+float64(c))
	}
}

// wtQuantize is x as a signed integer sample of the given width.
func wtQuantize(x float64, bits int) int {
	return int(math.Round(x * float64(int64(1)<<(bits-1)-1)))
}

// wtMakeSignal returns the interleaved stored samples (8-bit ones offset to
// unsigned, as WAV stores them), the exact mono mix of the quantised samples
// and the mono mix of the unquantised signal.
func wtMakeSignal(rate, bits, channels, frames int) (stored []int, exact, ideal []float64) {
	stored = make([]int, 0, frames*channels)
	exact = make([]float64, frames)
	ideal = make([]float64, frames)
	full := float64(int64(1) << (bits - 1))
	for i := range frames {
		sum, isum := 0.0, 0
		for c := range channels {
			x := wtSignal(c, i, rate)
			q := wtQuantize(x, bits)
			sum += x
			isum += q
			if bits == 8 {
				q += 128
			}
			stored = append(stored, q)
		}
		exact[i] = float64(isum) / full / float64(channels)
		ideal[i] = sum / float64(channels)
	}
	return stored, exact, ideal
}

// wtEncode writes interleaved samples as a PCM WAV file with go-audio's
// encoder.
func wtEncode(t testing.TB, path string, rate, bits, channels int, stored []int) {
	t.Helper()
	f, err := os.Create(path)
	require.NoError(t, err)
	enc := wav.NewEncoder(f, rate, bits, channels, 1)
	buf := &goaudio.IntBuffer{
		Format:         &goaudio.Format{NumChannels: channels, SampleRate: rate},
		Data:           stored,
		SourceBitDepth: bits,
	}
	require.NoError(t, enc.Write(buf))
	require.NoError(t, enc.Close())
	require.NoError(t, f.Close())
}

// wtReadAll reads src to its end in blocks of the given size and returns
// the samples and the error that ended the stream (io.EOF at a clean end).
func wtReadAll(t testing.TB, src *audio.WAV, block int) ([]float64, error) {
	t.Helper()
	var out []float64
	buf := make([]float64, block)
	empty := 0
	for {
		n, err := src.Read(buf)
		out = append(out, buf[:n]...)
		if err != nil {
			return out, err
		}
		if n == 0 {
			empty++
			if empty > 100 {
				t.Fatalf("Read returned 0 samples and no error %d times in a row", empty)
			}
		} else {
			empty = 0
		}
		if n != block {
			t.Fatalf("Read returned %d of %d samples without an error", n, block)
		}
	}
}

// wtOpenRead opens path and reads it all in blocks of block samples; the
// stream must end cleanly.
func wtOpenRead(t testing.TB, path string, block int) (audio.WAVInfo, []float64) {
	t.Helper()
	w, err := audio.OpenWAV(path)
	require.NoError(t, err)
	defer func() { require.NoError(t, w.Close()) }()
	got, err := wtReadAll(t, w, block)
	require.ErrorIs(t, err, io.EOF)
	// The end is sticky.
	n, err := w.Read(make([]float64, 8))
	assert.Equal(t, 0, n)
	assert.ErrorIs(t, err, io.EOF)
	return w.Info(), got
}

func TestWAVRoundTrip(t *testing.T) {
	rates := []int{8000, 11025, 16000, 22050, 44100, 48000, 96000}
	for _, bits := range []int{8, 16, 24, 32} {
		for _, channels := range []int{1, 2, 6} {
			for _, rate := range rates {
				t.Run(fmt.Sprintf("%dbit_%dch_%dHz", bits, channels, rate), func(t *testing.T) {
					// More frames than the reader decodes at once (2048), and an
					// odd count, so that blocks and refills straddle frames.
					frames := 4999 + rate/1000
					stored, exact, ideal := wtMakeSignal(rate, bits, channels, frames)
					path := filepath.Join(t.TempDir(), "x.wav")
					wtEncode(t, path, rate, bits, channels, stored)

					info, got := wtOpenRead(t, path, 4096)
					assert.Equal(t, audio.WAVInfo{SampleRate: rate, Channels: channels, Bits: bits, Frames: int64(frames)}, info)
					assert.InDelta(t, float64(frames)/float64(rate), info.Seconds(), 1e-12)
					require.Equal(t, frames, len(got))

					// Exactly the mix of the stored integers, and within
					// quantisation error of the signal that was written.
					lsb := 1 / float64(int64(1)<<(bits-1))
					for i := range frames {
						if math.Abs(got[i]-exact[i]) > 1e-12 || math.Abs(got[i]-ideal[i]) > 2*lsb {
							t.Fatalf("frame %d: got %.9f, want %.9f (signal %.9f)", i, got[i], exact[i], ideal[i])
						}
						if got[i] < -1 || got[i] > 1 {
							t.Fatalf("frame %d: %v is outside [-1, 1]", i, got[i])
						}
					}

					// The block size must not change anything.
					for _, block := range []int{1, 7} {
						_, again := wtOpenRead(t, path, block)
						require.Equal(t, got, again, "block size %d", block)
					}
				})
			}
		}
	}
}

// TestWAVFullScale checks the extremes of each width: the most negative
// sample is -1 and the largest positive one is just under 1.
func TestWAVFullScale(t *testing.T) {
	for _, bits := range []int{8, 16, 24, 32} {
		t.Run(fmt.Sprint(bits), func(t *testing.T) {
			full := int(int64(1) << (bits - 1))
			stored := []int{-full, full - 1, 0, -full, full - 1, 0} // L, R per frame
			if bits == 8 {
				for i := range stored {
					stored[i] += 128
				}
			}
			path := filepath.Join(t.TempDir(), "x.wav")
			wtEncode(t, path, 8000, bits, 1, stored)
			_, got := wtOpenRead(t, path, 5)
			top := float64(full-1) / float64(full)
			assert.Equal(t, []float64{-1, top, 0, -1, top, 0}, got)

			// In stereo, the channels run against each other: one is
			// turned over, and full scale stays in [-1, 1].
			wtEncode(t, path, 8000, bits, 2, stored)
			_, got = wtOpenRead(t, path, 5)
			assert.Equal(t, wtMix(2, 8000, -1, top, 0, -1, top, 0), got)
			assert.Equal(t, []float64{(-1 - top) / 2, (0 + 1) / 2.0, (top - 0) / 2}, got)
		})
	}
}

// TestWAVStreams checks that the reader pulls the file through block by
// block instead of loading it: a three-hour WAV that exists only as a
// function of the offset opens at once, and reading its first second touches
// only its first few hundred kilobytes.
func TestWAVStreams(t *testing.T) {
	for _, withReaderAt := range []bool{true, false} {
		t.Run(fmt.Sprintf("ReaderAt=%v", withReaderAt), func(t *testing.T) {
			v := newWTVirtual(0x7FFF0000) // about 3 h 6 min of 16-bit stereo 48 kHz
			var r io.ReadSeeker = v
			if !withReaderAt {
				r = wtNoReaderAt{v}
			}
			w, err := audio.NewWAV(r)
			require.NoError(t, err)
			assert.Equal(t, int64(0x7FFF0000/4), w.Info().Frames)
			assert.Greater(t, w.Info().Seconds(), 3*3600.0)

			buf := make([]float64, 1000)
			var frames []float64 // what was stored, interleaved
			for i := range int64(48*len(buf) + 48000) {
				l, r := v.frame(i)
				frames = append(frames, float64(l)/32768, float64(r)/32768)
			}
			want := mixdown.Mix(mixdown.New(2, 48000), nil, frames)
			for k := range 48 {
				n, err := w.Read(buf)
				require.NoError(t, err)
				require.Equal(t, len(buf), n)
				for j, got := range buf {
					if i := k*len(buf) + j; got != want[i] {
						t.Fatalf("frame %d: got %v, want %v", i, got, want[i])
					}
				}
			}
			assert.Less(t, v.maxOff, int64(1<<20), "reading 1 s (192 kB) pulled %d bytes from the file", v.maxOff)
			require.NoError(t, w.Close())
		})
	}
}

// wtVirtual is a 16-bit stereo 48 kHz WAV of the given data size that is
// computed from the offset instead of stored. It remembers the furthest
// offset read.
type wtVirtual struct {
	head   []byte
	size   int64
	off    int64
	maxOff int64
}

func newWTVirtual(data uint32) *wtVirtual {
	head := wtRIFF(wtChunk{id: "fmt ", body: wtFmt(1, 2, 48000, 16)}, wtChunk{id: "data", size: int64(data)})
	return &wtVirtual{head: head, size: int64(len(head)) + int64(data)}
}

// frame is the stored left and right sample of frame i.
func (v *wtVirtual) frame(i int64) (int16, int16) { return int16(i * 7), int16(-i * 13) }

func (v *wtVirtual) byteAt(off int64) byte {
	if off < int64(len(v.head)) {
		return v.head[off]
	}
	d := off - int64(len(v.head))
	l, r := v.frame(d / 4)
	var b [4]byte
	binary.LittleEndian.PutUint16(b[0:], uint16(l))
	binary.LittleEndian.PutUint16(b[2:], uint16(r))
	return b[d%4]
}

func (v *wtVirtual) ReadAt(p []byte, off int64) (int, error) {
	if off >= v.size {
		return 0, io.EOF
	}
	n := int(min(int64(len(p)), v.size-off))
	for i := range n {
		p[i] = v.byteAt(off + int64(i))
	}
	v.maxOff = max(v.maxOff, off+int64(n))
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

func (v *wtVirtual) Read(p []byte) (int, error) {
	n, err := v.ReadAt(p, v.off)
	v.off += int64(n)
	if n > 0 && err == io.EOF {
		err = nil
	}
	return n, err
}

func (v *wtVirtual) Seek(off int64, whence int) (int64, error) {
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		off += v.off
	case io.SeekEnd:
		off += v.size
	}
	if off < 0 {
		return v.off, errors.New("negative offset")
	}
	v.off = off
	return off, nil
}

// wtNoReaderAt hides ReadAt, so NewWAV has to seek and read.
type wtNoReaderAt struct{ v *wtVirtual }

func (n wtNoReaderAt) Read(p []byte) (int, error)                { return n.v.Read(p) }
func (n wtNoReaderAt) Seek(off int64, whence int) (int64, error) { return n.v.Seek(off, whence) }

// TestWAVShrunkAfterOpen: a file cut short after it was opened (the header
// was checked against its old length) must end in ErrTruncated, and every
// sample returned before that must be a real one from the file.
func TestWAVShrunkAfterOpen(t *testing.T) {
	for _, bits := range []int{8, 16, 24} {
		for _, viaOpen := range []bool{true, false} {
			t.Run(fmt.Sprintf("%d-bit/OpenWAV=%v", bits, viaOpen), func(t *testing.T) {
				wtShrunkAfterOpen(t, bits, viaOpen)
			})
		}
	}
}

func wtShrunkAfterOpen(t *testing.T, bits int, viaOpen bool) {
	const frames = 20000
	stored, exact, _ := wtMakeSignal(16000, bits, 2, frames)
	path := filepath.Join(t.TempDir(), "x.wav")
	wtEncode(t, path, 16000, bits, 2, stored)
	var w *audio.WAV
	var err error
	if viaOpen {
		w, err = audio.OpenWAV(path)
	} else {
		// Without ReadAt, NewWAV seeks and reads.
		f, ferr := os.Open(path)
		require.NoError(t, ferr)
		defer f.Close()
		w, err = audio.NewWAV(struct{ io.ReadSeeker }{f})
	}
	require.NoError(t, err)
	defer w.Close()
	first := make([]float64, 100)
	n, err := w.Read(first)
	require.NoError(t, err)
	require.Equal(t, 100, n)

	// Keep the header, 10001 frames and half of the next (for 16
	// and 24 bits, one sample and a byte of another).
	align := 2 * bits / 8
	keep := int64(44 + 10001*align + align/2)
	if bits > 8 {
		keep++
	}
	require.NoError(t, os.Truncate(path, keep))
	rest, err := wtReadAll(t, w, 333)
	require.ErrorIs(t, err, audio.ErrTruncated)
	got := append(first, rest...)
	assert.LessOrEqual(t, len(got), 10001)
	assert.Equal(t, exact[:len(got)], got)
}

// TestWAVReadErrorAfterOpen: an I/O error while streaming comes back from
// Read (not as a panic, not as a clean end), and stays.
func TestWAVReadErrorAfterOpen(t *testing.T) {
	stored, _, _ := wtMakeSignal(8000, 16, 1, 10000)
	path := filepath.Join(t.TempDir(), "x.wav")
	wtEncode(t, path, 8000, 16, 1, stored)
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	boom := errors.New("disk on fire")
	w, err := audio.NewWAV(&wtFailingReader{ReadSeeker: bytes.NewReader(b), after: 44 + 5000, err: boom})
	require.NoError(t, err)
	got, err := wtReadAll(t, w, 100)
	require.ErrorIs(t, err, boom)
	assert.Less(t, len(got), 10000)
	_, err = w.Read(make([]float64, 10))
	assert.ErrorIs(t, err, boom)
}

// wtFailingReader fails every read past an offset.
type wtFailingReader struct {
	io.ReadSeeker
	after int64
	err   error
}

func (f *wtFailingReader) Read(p []byte) (int, error) {
	off, _ := f.Seek(0, io.SeekCurrent)
	if off+int64(len(p)) > f.after {
		return 0, f.err
	}
	return f.ReadSeeker.Read(p)
}

// ---------------------------------------------------------------------------
// Hand-built headers.

// wtChunk is one RIFF chunk. size is the declared size; 0 means len(body).
// A body of odd length gets its pad byte.
type wtChunk struct {
	id   string
	body []byte
	size int64 // the size written; 0: the body's
	zero bool  // write a size of 0 whatever the body
}

// wtRIFF builds a RIFF/WAVE file of the given chunks.
func wtRIFF(chunks ...wtChunk) []byte {
	var b []byte
	for _, c := range chunks {
		size := c.size
		if size == 0 && !c.zero {
			size = int64(len(c.body))
		}
		b = append(b, c.id...)
		b = binary.LittleEndian.AppendUint32(b, uint32(size))
		b = append(b, c.body...)
		if len(c.body)%2 == 1 {
			b = append(b, 0)
		}
	}
	head := append([]byte("RIFF"), binary.LittleEndian.AppendUint32(nil, uint32(4+len(b)))...)
	return append(append(head, "WAVE"...), b...)
}

// wtFmt is a 16-byte fmt chunk body with a consistent block align.
func wtFmt(tag, channels, rate, bits int) []byte {
	return wtFmtAlign(tag, channels, rate, bits, channels*((bits+7)/8))
}

func wtFmtAlign(tag, channels, rate, bits, align int) []byte {
	b := binary.LittleEndian.AppendUint16(nil, uint16(tag))
	b = binary.LittleEndian.AppendUint16(b, uint16(channels))
	b = binary.LittleEndian.AppendUint32(b, uint32(rate))
	b = binary.LittleEndian.AppendUint32(b, uint32(rate*align))
	b = binary.LittleEndian.AppendUint16(b, uint16(align))
	return binary.LittleEndian.AppendUint16(b, uint16(bits))
}

// wtFmtExt is a 40-byte WAVE_FORMAT_EXTENSIBLE fmt chunk body whose
// sub-format GUID starts with the format code sub.
func wtFmtExt(sub, channels, rate, bits, validBits int) []byte {
	b := wtFmt(0xFFFE, channels, rate, bits)
	b = binary.LittleEndian.AppendUint16(b, 22)
	b = binary.LittleEndian.AppendUint16(b, uint16(validBits))
	b = binary.LittleEndian.AppendUint32(b, 3) // front left, front right
	b = binary.LittleEndian.AppendUint16(b, uint16(sub))
	return append(b, 0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71)
}

// wtPCM16 is little-endian 16-bit samples.
func wtPCM16(s ...int16) []byte {
	var b []byte
	for _, v := range s {
		b = binary.LittleEndian.AppendUint16(b, uint16(v))
	}
	return b
}

// wtMix is what the mixer makes of interleaved samples: the WAV tests check
// decoding, audio/internal/mixdown checks the mixing.
func wtMix(channels, rate int, interleaved ...float64) []float64 {
	m := mixdown.New(channels, rate)
	return m.Flush(mixdown.Mix(m, nil, interleaved))
}

// wtFloat32 is little-endian 32-bit float samples.
func wtFloat32(s ...float32) []byte {
	var b []byte
	for _, v := range s {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(v))
	}
	return b
}

// wtFloat64 is little-endian 64-bit float samples.
func wtFloat64(s ...float64) []byte {
	var b []byte
	for _, v := range s {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
	}
	return b
}

// wtSamples16 are the mono samples wtPCM16(wtMono16...) decodes to.
var (
	wtMono16    = []int16{0, 16384, -16384, 32767, -32768, 1}
	wtMono16Out = []float64{0, 0.5, -0.5, 32767.0 / 32768, -1, 1.0 / 32768}
)

// wtCase is a hand-built file and what opening and reading it must give.
type wtCase struct {
	name string
	data []byte
	err  error          // the sentinel the open error wraps; nil: it opens
	info *audio.WAVInfo // when it opens
	want []float64      // when it opens (nil: not checked beyond the count)
}

func wtCases() []wtCase {
	fmt16 := wtChunk{id: "fmt ", body: wtFmt(1, 1, 16000, 16)}
	data16 := wtChunk{id: "data", body: wtPCM16(wtMono16...)}
	info16 := &audio.WAVInfo{SampleRate: 16000, Channels: 1, Bits: 16, Frames: 6}
	unsized16 := *info16
	unsized16.Unsized = true
	list := wtChunk{id: "LIST", body: append([]byte("INFOISFT"), binary.LittleEndian.AppendUint32(nil, 8)...)}
	list.body = append(list.body, "tableref"...)

	// Stereo 16-bit: mixed down by the mixer (here, whose channels run
	// against each other, with one turned over).
	stereo := wtPCM16(16384, 0, -32768, 32767, 100, 300)
	stereoOut := wtMix(2, 44100, 0.5, 0, -1, 32767.0/32768, 100.0/32768, 300.0/32768)

	streaming := wtRIFF(fmt16, wtChunk{id: "data", size: 0xFFFFFFFF})
	streaming = append(streaming, wtPCM16(wtMono16...)...)
	streaming = append(streaming, 0x7F) // half a frame: not a sample
	binary.LittleEndian.PutUint32(streaming[4:], 0xFFFFFFFF)

	cases := []wtCase{
		{name: "plain 16-bit mono", data: wtRIFF(fmt16, data16), info: info16, want: wtMono16Out},
		{name: "fmt of 18 bytes", data: wtRIFF(wtChunk{id: "fmt ", body: append(wtFmt(1, 1, 16000, 16), 0, 0)}, data16), info: info16, want: wtMono16Out},
		{
			name: "extensible PCM 16-bit stereo",
			data: wtRIFF(wtChunk{id: "fmt ", body: wtFmtExt(1, 2, 44100, 16, 16)}, wtChunk{id: "fact", body: []byte{3, 0, 0, 0}}, wtChunk{id: "data", body: stereo}),
			info: &audio.WAVInfo{SampleRate: 44100, Channels: 2, Bits: 16, Frames: 3},
			want: stereoOut,
		},
		{
			name: "extensible PCM 24-bit container, 20 valid bits",
			data: wtRIFF(wtChunk{id: "fmt ", body: wtFmtExt(1, 1, 48000, 24, 20)}, wtChunk{id: "data", body: []byte{0, 0, 0x40, 0, 0, 0xC0, 0x10, 0, 0}}),
			info: &audio.WAVInfo{SampleRate: 48000, Channels: 1, Bits: 24, Frames: 3},
			want: []float64{0.5, -0.5, 16.0 / (1 << 23)},
		},
		{
			name: "extensible float 32-bit",
			data: wtRIFF(wtChunk{id: "fmt ", body: wtFmtExt(3, 1, 48000, 32, 32)}, wtChunk{id: "data", body: wtFloat32(0.25, -0.5)}),
			info: &audio.WAVInfo{SampleRate: 48000, Channels: 1, Bits: 32, Float: true, Frames: 2},
			want: []float64{0.25, -0.5},
		},
		{name: "extensible mu-law", data: wtRIFF(wtChunk{id: "fmt ", body: wtFmtExt(7, 1, 8000, 8, 8)}, wtChunk{id: "data", body: make([]byte, 8)}), err: audio.ErrUnsupported},
		{name: "extensible fmt too short", data: wtRIFF(wtChunk{id: "fmt ", body: append(wtFmt(0xFFFE, 1, 48000, 16), 0, 0)}, data16), err: audio.ErrNotWAV},
		{
			// out of range values are clipped; NaN is silence, infinities clip
			name: "float 32, clipped and NaN",
			data: wtRIFF(wtChunk{id: "fmt ", body: wtFmt(3, 1, 48000, 32)}, wtChunk{id: "data", body: wtFloat32(0.125, 2, -3, float32(math.NaN()), float32(math.Inf(1)), -0.75)}),
			info: &audio.WAVInfo{SampleRate: 48000, Channels: 1, Bits: 32, Float: true, Frames: 6},
			want: []float64{0.125, 1, -1, 0, 1, -0.75},
		},
		{
			name: "float 64 stereo",
			data: wtRIFF(wtChunk{id: "fmt ", body: wtFmt(3, 2, 48000, 64)}, wtChunk{id: "data", body: wtFloat64(0.5, 0.25, -1, 1, 0.1, 0.3)}),
			info: &audio.WAVInfo{SampleRate: 48000, Channels: 2, Bits: 64, Float: true, Frames: 3},
			want: wtMix(2, 48000, 0.5, 0.25, -1, 1, 0.1, 0.3),
		},
		{name: "float 16", data: wtRIFF(wtChunk{id: "fmt ", body: wtFmt(3, 1, 48000, 16)}, wtChunk{id: "data", body: make([]byte, 8)}), err: audio.ErrUnsupported},
		{name: "float 24", data: wtRIFF(wtChunk{id: "fmt ", body: wtFmt(3, 1, 48000, 24)}, wtChunk{id: "data", body: make([]byte, 9)}), err: audio.ErrUnsupported},
		{name: "A-law", data: wtRIFF(wtChunk{id: "fmt ", body: wtFmt(6, 1, 8000, 8)}, wtChunk{id: "data", body: make([]byte, 8)}), err: audio.ErrUnsupported},
		{name: "mu-law", data: wtRIFF(wtChunk{id: "fmt ", body: wtFmt(7, 1, 8000, 8)}, wtChunk{id: "data", body: make([]byte, 8)}), err: audio.ErrUnsupported},
		{name: "ADPCM", data: wtRIFF(wtChunk{id: "fmt ", body: wtFmt(2, 1, 8000, 4)}, wtChunk{id: "data", body: make([]byte, 8)}), err: audio.ErrUnsupported},
		{name: "12-bit", data: wtRIFF(wtChunk{id: "fmt ", body: wtFmt(1, 1, 16000, 12)}, data16), err: audio.ErrUnsupported},
		{name: "0-bit", data: wtRIFF(wtChunk{id: "fmt ", body: wtFmtAlign(1, 1, 16000, 0, 2)}, data16), err: audio.ErrUnsupported},
		{name: "rate 4000", data: wtRIFF(wtChunk{id: "fmt ", body: wtFmt(1, 1, 4000, 16)}, data16), err: audio.ErrUnsupported},
		{name: "rate 0", data: wtRIFF(wtChunk{id: "fmt ", body: wtFmt(1, 1, 0, 16)}, data16), err: audio.ErrUnsupported},
		{name: "rate 384000", data: wtRIFF(wtChunk{id: "fmt ", body: wtFmt(1, 1, 384000, 16)}, data16), err: audio.ErrUnsupported},
		{name: "rate 8000", data: wtRIFF(wtChunk{id: "fmt ", body: wtFmt(1, 1, 8000, 16)}, data16), info: &audio.WAVInfo{SampleRate: 8000, Channels: 1, Bits: 16, Frames: 6}, want: wtMono16Out},
		{name: "rate 192000", data: wtRIFF(wtChunk{id: "fmt ", body: wtFmt(1, 1, 192000, 16)}, data16), info: &audio.WAVInfo{SampleRate: 192000, Channels: 1, Bits: 16, Frames: 6}, want: wtMono16Out},
		{name: "0 channels", data: wtRIFF(wtChunk{id: "fmt ", body: wtFmtAlign(1, 0, 16000, 16, 0)}, data16), err: audio.ErrNotWAV},
		{name: "65 channels", data: wtRIFF(wtChunk{id: "fmt ", body: wtFmt(1, 65, 16000, 16)}, wtChunk{id: "data", body: make([]byte, 130)}), err: audio.ErrUnsupported},
		{name: "block align mismatch", data: wtRIFF(wtChunk{id: "fmt ", body: wtFmtAlign(1, 2, 16000, 16, 2)}, data16), err: audio.ErrNotWAV},
		{name: "block align 0", data: wtRIFF(wtChunk{id: "fmt ", body: wtFmtAlign(1, 1, 16000, 16, 0)}, data16), err: audio.ErrNotWAV},
		{name: "fmt of 8 bytes", data: wtRIFF(wtChunk{id: "fmt ", body: wtFmt(1, 1, 16000, 16)[:8]}, data16), err: audio.ErrNotWAV},
		{name: "fmt of 0 bytes", data: wtRIFF(wtChunk{id: "fmt "}, data16), err: audio.ErrNotWAV},
		{name: "fmt of 4 GB", data: wtRIFF(wtChunk{id: "fmt ", body: wtFmt(1, 1, 16000, 16), size: 0xFFFFFFF0}, data16), err: audio.ErrNotWAV},
		{name: "fmt of 2 kB", data: wtRIFF(wtChunk{id: "fmt ", body: wtFmt(1, 1, 16000, 16), size: 2048}, data16), err: audio.ErrNotWAV},
		{name: "fmt longer than the file", data: wtRIFF(wtChunk{id: "fmt ", body: wtFmt(1, 1, 16000, 16), size: 1000}), err: audio.ErrTruncated},
		{name: "file ends inside fmt", data: wtRIFF(wtChunk{id: "fmt ", body: wtFmt(1, 1, 16000, 16)[:10], size: 16}), err: audio.ErrTruncated},
		{name: "data before fmt", data: wtRIFF(data16, fmt16), err: audio.ErrNotWAV},
		{name: "no fmt", data: wtRIFF(data16), err: audio.ErrNotWAV},
		{name: "no chunks", data: wtRIFF(), err: audio.ErrTruncated},
		{name: "no data chunk", data: wtRIFF(fmt16, list), err: audio.ErrTruncated},
		{name: "RIFX", data: append([]byte("RIFX"), wtRIFF(fmt16, data16)[4:]...), err: audio.ErrUnsupported},
		{name: "RF64", data: append([]byte("RF64"), wtRIFF(fmt16, data16)[4:]...), err: audio.ErrUnsupported},
		{name: "RIFF but AVI", data: append(append([]byte{}, wtRIFF(fmt16, data16)[:8]...), append([]byte("AVI "), wtRIFF(fmt16, data16)[12:]...)...), err: audio.ErrNotWAV},
		{name: "Ogg", data: append([]byte("OggS\x00\x02"), make([]byte, 100)...), err: audio.ErrNotWAV},
		{name: "text", data: []byte("this is not a WAV file, just some text\n"), err: audio.ErrNotWAV},
		{name: "empty", data: []byte{}, err: audio.ErrNotWAV},
		{name: "5 bytes", data: []byte("RIFF\x00"), err: audio.ErrNotWAV},
		{name: "11 bytes", data: []byte("RIFF\x04\x00\x00\x00WAV"), err: audio.ErrNotWAV},
		{name: "data larger than the file", data: wtRIFF(fmt16, wtChunk{id: "data", body: wtPCM16(wtMono16...), size: 16000}), err: audio.ErrTruncated},
		{name: "data of 0xFFFFFFFE (a placeholder)", data: wtRIFF(fmt16, wtChunk{id: "data", body: wtPCM16(wtMono16...), size: 0xFFFFFFFE}), info: &unsized16, want: wtMono16Out},
		{name: "data size 0xFFFFFFFF (streaming writer)", data: streaming, info: &unsized16, want: wtMono16Out},
		{name: "data size 0x7FFFFFFF (a recorder writing to a pipe)", data: wtRIFF(fmt16, wtChunk{id: "data", body: wtPCM16(wtMono16...), size: 0x7FFFFFFF}), info: &unsized16, want: wtMono16Out},
		{name: "data size 0 with samples after (a recorder killed before closing)", data: wtRIFF(fmt16, wtChunk{id: "data", body: wtPCM16(wtMono16...), zero: true}), info: &unsized16, want: wtMono16Out},
		{name: "empty data, then a LIST chunk", data: wtRIFF(fmt16, wtChunk{id: "data"}, list), info: &audio.WAVInfo{SampleRate: 16000, Channels: 1, Bits: 16, Frames: 0}, want: []float64{}},
		{name: "data of 0x7FFFFEFF past the end (cut short)", data: wtRIFF(fmt16, wtChunk{id: "data", body: wtPCM16(wtMono16...), size: 0x7FFFFEFF}), err: audio.ErrTruncated},
		{name: "empty data", data: wtRIFF(fmt16, wtChunk{id: "data"}), info: &audio.WAVInfo{SampleRate: 16000, Channels: 1, Bits: 16, Frames: 0}, want: []float64{}},
		{name: "half a frame of data", data: wtRIFF(wtChunk{id: "fmt ", body: wtFmt(1, 2, 16000, 16)}, wtChunk{id: "data", body: []byte{1, 2, 3}}), info: &audio.WAVInfo{SampleRate: 16000, Channels: 2, Bits: 16, Frames: 0}, want: []float64{}},
		{name: "trailing partial frame", data: wtRIFF(fmt16, wtChunk{id: "data", body: append(wtPCM16(wtMono16...), 0x55)}), info: info16, want: wtMono16Out},
		{name: "LIST before fmt", data: wtRIFF(list, fmt16, data16), info: info16, want: wtMono16Out},
		{name: "chunks before data", data: wtRIFF(fmt16, wtChunk{id: "fact", body: []byte{6, 0, 0, 0}}, list, wtChunk{id: "JUNK", body: make([]byte, 28)}, wtChunk{id: "bext", body: make([]byte, 602)}, data16), info: info16, want: wtMono16Out},
		{name: "chunks after data", data: wtRIFF(fmt16, data16, list, wtChunk{id: "id3 ", body: []byte("ID3")}), info: info16, want: wtMono16Out},
		{name: "odd chunk with pad byte", data: wtRIFF(wtChunk{id: "junk", body: []byte{1, 2, 3}}, fmt16, wtChunk{id: "odd!", body: []byte{9}}, data16), info: info16, want: wtMono16Out},
		{
			name: "odd 8-bit data with pad byte, then LIST",
			data: wtRIFF(wtChunk{id: "fmt ", body: wtFmt(1, 1, 11025, 8)}, wtChunk{id: "data", body: []byte{128, 255, 0}}, list),
			info: &audio.WAVInfo{SampleRate: 11025, Channels: 1, Bits: 8, Frames: 3},
			want: []float64{0, 127.0 / 128, -1},
		},
		{
			name: "32-bit stereo",
			data: wtRIFF(wtChunk{id: "fmt ", body: wtFmt(1, 2, 96000, 32)}, wtChunk{id: "data", body: binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, 1<<30), uint32(0x80000000))}),
			info: &audio.WAVInfo{SampleRate: 96000, Channels: 2, Bits: 32, Frames: 1},
			want: wtMix(2, 96000, 0.5, -1),
		},
	}
	return cases
}

func TestWAVHeaders(t *testing.T) {
	for _, c := range wtCases() {
		t.Run(c.name, func(t *testing.T) {
			for _, block := range []int{1, 7, 4096} {
				w, err := audio.NewWAV(bytes.NewReader(c.data))
				if c.err != nil {
					require.Error(t, err)
					assert.Nil(t, w)
					assert.ErrorIs(t, err, c.err, "got %v", err)
					wtAssertOneKind(t, err)
					return
				}
				require.NoError(t, err)
				assert.Equal(t, *c.info, w.Info())
				got, err := wtReadAll(t, w, block)
				require.ErrorIs(t, err, io.EOF)
				assert.Equal(t, int(c.info.Frames), len(got))
				if len(c.want) > 0 {
					assert.InDeltaSlice(t, c.want, got, 1e-12, "block %d", block)
				}
				require.NoError(t, w.Close())
			}
		})
	}
}

// wtAssertOneKind checks that err wraps exactly one of the three WAV
// sentinels and is worded on one line.
func wtAssertOneKind(t *testing.T, err error) {
	t.Helper()
	kinds := 0
	for _, s := range []error{audio.ErrNotWAV, audio.ErrTruncated, audio.ErrUnsupported} {
		if errors.Is(err, s) {
			kinds++
		}
	}
	assert.Equal(t, 1, kinds, "%v wraps %d of ErrNotWAV, ErrTruncated, ErrUnsupported", err, kinds)
	assert.NotContains(t, err.Error(), "\n")
}

// TestWAVHugeFmtNotAllocated: a fmt chunk declaring 4 GB is refused from
// its header, without allocating (or reading) it.
func TestWAVHugeFmtNotAllocated(t *testing.T) {
	data := wtRIFF(wtChunk{id: "fmt ", body: wtFmt(1, 1, 16000, 16), size: 0xFFFFFFF0}, wtChunk{id: "data", body: make([]byte, 64)})
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := audio.NewWAV(bytes.NewReader(data))
	runtime.ReadMemStats(&after)
	require.ErrorIs(t, err, audio.ErrNotWAV)
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(1<<20), "allocated %d bytes", after.TotalAlloc-before.TotalAlloc)
}

// TestOpenWAVFiles covers what only a real path has: a missing file, a
// directory, and truncation measured against the file's size.
func TestOpenWAVFiles(t *testing.T) {
	dir := t.TempDir()

	t.Run("missing", func(t *testing.T) {
		w, err := audio.OpenWAV(filepath.Join(dir, "no-such.wav"))
		require.Error(t, err)
		assert.Nil(t, w)
		assert.ErrorIs(t, err, os.ErrNotExist)
		assert.Contains(t, err.Error(), "no-such.wav")
	})

	t.Run("directory", func(t *testing.T) {
		w, err := audio.OpenWAV(dir)
		require.Error(t, err)
		assert.Nil(t, w)
		assert.ErrorIs(t, err, audio.ErrNotWAV)
		assert.Contains(t, err.Error(), "directory")
	})

	t.Run("every hand-built header", func(t *testing.T) {
		for i, c := range wtCases() {
			path := filepath.Join(dir, fmt.Sprintf("case%d.wav", i))
			require.NoError(t, os.WriteFile(path, c.data, 0o644))
			w, err := audio.OpenWAV(path)
			if c.err != nil {
				assert.ErrorIs(t, err, c.err, c.name)
				continue
			}
			if assert.NoError(t, err, c.name) {
				assert.Equal(t, *c.info, w.Info(), c.name)
				assert.NoError(t, w.Close())
			}
		}
	})

	t.Run("cut short", func(t *testing.T) {
		// A valid 1 s file cut at every interesting length fails at open
		// with ErrTruncated, or ErrNotWAV when not even the RIFF header is
		// left; never at the first Read.
		stored, _, _ := wtMakeSignal(16000, 16, 1, 16000)
		path := filepath.Join(dir, "full.wav")
		wtEncode(t, path, 16000, 16, 1, stored)
		full, err := os.ReadFile(path)
		require.NoError(t, err)
		for _, n := range []int{0, 4, 11, 12, 19, 20, 35, 36, 43, 44, 45, 1000, len(full) - 1} {
			cut := filepath.Join(dir, "cut.wav")
			require.NoError(t, os.WriteFile(cut, full[:n], 0o644))
			w, err := audio.OpenWAV(cut)
			require.Error(t, err, "cut at %d bytes", n)
			assert.Nil(t, w)
			if n < 12 {
				assert.ErrorIs(t, err, audio.ErrNotWAV, "cut at %d bytes", n)
			} else {
				assert.ErrorIs(t, err, audio.ErrTruncated, "cut at %d bytes", n)
			}
		}
		cut := filepath.Join(dir, "cut.wav")
		require.NoError(t, os.WriteFile(cut, full[:1000], 0o644))
		_, err = audio.OpenWAV(cut)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "declares 1.00 s", "the message says how much audio the header promised")
	})
}

// ---------------------------------------------------------------------------
// Committed fixtures (see testdata/README.md).

// wtPeak is the index and value of the largest magnitude in x.
func wtPeak(x []float64) (int, float64) {
	at, peak := 0, 0.0
	for i, v := range x {
		if math.Abs(v) > peak {
			at, peak = i, math.Abs(v)
		}
	}
	return at, peak
}

func wtMaxAbs(x []float64) float64 { _, p := wtPeak(x); return p }

func TestWAVFixtures(t *testing.T) {
	t.Run("clap16_mono_16k", func(t *testing.T) {
		info, x := wtOpenRead(t, "testdata/clap16_mono_16k.wav", 4096)
		assert.Equal(t, audio.WAVInfo{SampleRate: 16000, Channels: 1, Bits: 16, Frames: 8000}, info)
		require.Equal(t, 8000, len(x))
		// Silence, a 12 ms burst from 0.2 s peaking at -3 dBFS, silence.
		at, peak := wtPeak(x)
		assert.InDelta(t, 0.708, peak, 0.005)
		assert.GreaterOrEqual(t, at, 3200)
		assert.Less(t, at, 3200+192)
		assert.Zero(t, wtMaxAbs(x[:3200]), "before the burst")
		assert.Less(t, wtMaxAbs(x[3200+200:]), 0.01, "after the burst")
	})

	t.Run("tone24_stereo_44k_ext", func(t *testing.T) {
		raw, err := os.ReadFile("testdata/tone24_stereo_44k_ext.wav")
		require.NoError(t, err)
		require.Equal(t, []byte{0xFE, 0xFF}, raw[20:22], "the fixture is WAVE_FORMAT_EXTENSIBLE")
		info, x := wtOpenRead(t, "testdata/tone24_stereo_44k_ext.wav", 1000)
		assert.Equal(t, audio.WAVInfo{SampleRate: 44100, Channels: 2, Bits: 24, Frames: 2647}, info)
		require.Equal(t, 2647, len(x))
		// Left: 10 ms of 2 kHz from 10 ms; right: 10 ms of 3 kHz from 35 ms;
		// each at -1 dBFS. While the right channel is silent it is left out
		// (a dead channel does not halve the sound); once it has sounded too
		// the two are averaged. The right channel is heard from its first
		// sample (at the left's level until the mixer sees it live).
		ms := func(m float64) int { return int(m * 44.1) }
		half := math.Pow(10, -1.0/20) / 2
		assert.InDelta(t, 2*half, wtMaxAbs(x[ms(10):ms(20)]), 0.004)
		assert.GreaterOrEqual(t, wtMaxAbs(x[ms(35):ms(45)]), half-0.002, "the right channel is heard when it wakes")
		assert.Less(t, wtMaxAbs(x[:ms(9.9)]), 1e-6)
		assert.Less(t, wtMaxAbs(x[ms(20.1):ms(34.9)]), 1e-6)
		assert.Less(t, wtMaxAbs(x[ms(45.1):]), 1e-6)
	})

	t.Run("tone8_mono_8k", func(t *testing.T) {
		info, x := wtOpenRead(t, "testdata/tone8_mono_8k.wav", 7)
		assert.Equal(t, audio.WAVInfo{SampleRate: 8000, Channels: 1, Bits: 8, Frames: 2000}, info)
		require.Equal(t, 2000, len(x))
		// A 440 Hz sine at half scale: centred on zero (8-bit is unsigned
		// on disk), peaking at 0.5, crossing zero 220 times in 0.25 s.
		_, peak := wtPeak(x)
		assert.InDelta(t, 0.5, peak, 2.0/128)
		mean, crossings := 0.0, 0
		for i, v := range x {
			mean += v / float64(len(x))
			if i > 0 && (x[i-1] < 0) != (v < 0) {
				crossings++
			}
		}
		assert.InDelta(t, 0, mean, 0.01)
		assert.InDelta(t, 220, crossings, 4)
	})
}

// Integer samples are decoded to the same floats, bit for bit, as
// go-audio's PCMBuffer decodes them, which the hearing's events were
// measured with: every width, its extremes and random values, mono (so the
// mixdown passes the samples through as they are).
func TestWAVIntegersAsGoAudioDecodesThem(t *testing.T) {
	for _, bits := range []int{8, 16, 24, 32} {
		lo, hi := -(1 << (bits - 1)), 1<<(bits-1)-1
		if bits == 8 {
			lo, hi = 0, 255
		}
		stored := []int{lo, hi, lo + 1, hi - 1, 0, 1, -1}
		if bits == 8 {
			stored = []int{0, 255, 1, 254, 128, 127, 129}
		}
		state := uint64(bits)
		for range 5000 {
			state = state*6364136223846793005 + 1442695040888963407
			stored = append(stored, lo+int(state>>33)%(hi-lo+1))
		}
		path := filepath.Join(t.TempDir(), fmt.Sprintf("%d.wav", bits))
		wtEncode(t, path, 16000, bits, 1, stored)

		f, err := os.Open(path)
		require.NoError(t, err)
		buf := &goaudio.IntBuffer{Data: make([]int, len(stored)+10)}
		n, err := wav.NewDecoder(f).PCMBuffer(buf)
		require.NoError(t, err)
		require.NoError(t, f.Close())
		require.Equal(t, len(stored), n)
		offset := 0
		if bits == 8 {
			offset = 128
		}
		scale := 1 / float64(int64(1)<<(bits-1))

		_, got := wtOpenRead(t, path, 4096)
		require.Len(t, got, n)
		for i, v := range buf.Data[:n] {
			if want := float64(v-offset) * scale; math.Float64bits(got[i]) != math.Float64bits(want) {
				t.Fatalf("%d bits, sample %d (stored %d): %v, go-audio's %v", bits, i, stored[i], got[i], want)
			}
		}
	}
}
