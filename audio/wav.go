package audio

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/go-audio/wav"
)

// WAVInfo describes a WAV file's stored format.
type WAVInfo struct {
	SampleRate int
	Channels   int
	Bits       int   // bits per stored sample: 8, 16, 24 or 32 (integer), 32 or 64 (float)
	Float      bool  // samples are IEEE floats rather than integers
	Frames     int64 // samples per channel
	// Unsized: the header gave no length for the audio (a placeholder, as
	// a recorder writing to a pipe or killed before it closed the file
	// leaves): Frames are what the file holds.
	Unsized bool
}

// Seconds is the duration of the audio.
func (i WAVInfo) Seconds() float64 {
	if i.SampleRate == 0 {
		return 0
	}
	return float64(i.Frames) / float64(i.SampleRate)
}

// WAV streams a PCM WAV file as mono samples, mixing channels down so that
// no channel can cancel or dilute the others (see audio/internal/mixdown). It reads the file block by block, so memory does not grow with
// the file's length.
//
// The file's chunk layout is checked first (so that a malformed or truncated
// file fails at once with a clear error). github.com/go-audio/wav reads the
// header of integer samples, and its data reader gives their bytes, which
// readInts decodes as its PCMBuffer does (but without a call and a reader
// per sample, nor a new buffer per read); IEEE float samples (32 or 64
// bits), which it does not decode, are read here with encoding/binary.
type WAV struct {
	info    WAVInfo
	closer  io.Closer
	ints    io.Reader // integer samples: go-audio's reader of the data chunk
	floats  io.Reader // float samples: the data chunk
	raw     []byte    // samples as read
	buf     []float64 // interleaved samples decoded but not yet used
	off     int       // next unused sample in buf
	have    int       // decoded samples in buf
	left    int64     // frames not yet returned
	scale   float64
	mix     *Mixdown
	monoBuf []float64 // mixed samples
	mono    []float64 // the part of monoBuf not yet returned
	flushed bool      // the mixer has given up what it held
	err     error     // sticky error
}

// MinSampleRate and MaxSampleRate bound the rates tableref accepts.
const (
	MinSampleRate = 8000
	MaxSampleRate = 192000
)

// OpenWAV opens a WAV file for streaming. Errors wrap ErrNotWAV,
// ErrTruncated, ErrUnsupported or the os error for a missing file.
func OpenWAV(path string) (*WAV, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err == nil && st.IsDir() {
		f.Close()
		return nil, fmt.Errorf("%w: it is a directory", ErrNotWAV)
	}
	w, err := NewWAV(f)
	if err != nil {
		f.Close()
		return nil, err
	}
	w.closer = f
	return w, nil
}

// NewWAV reads a WAV stream from r. The caller keeps ownership of r.
func NewWAV(r io.ReadSeeker) (*WAV, error) {
	lay, err := scanRIFF(r)
	if err != nil {
		return nil, err
	}
	// go-audio decodes from a canonical header we build from the checked
	// fields, followed by exactly the data chunk. It therefore never sees
	// the file's own (possibly hostile) chunk sizes.
	var ra io.ReaderAt = readerAt{r}
	if f, ok := r.(io.ReaderAt); ok {
		ra = f
	}
	data := io.NewSectionReader(ra, lay.dataOff, lay.frames*int64(lay.blockAlign))
	w := &WAV{
		info: WAVInfo{SampleRate: lay.rate, Channels: lay.channels, Bits: lay.bits, Float: lay.float, Frames: lay.frames, Unsized: lay.unsized},
		left: lay.frames,
		buf:  make([]float64, 2048*lay.channels),
		mix:  NewMixdown(lay.channels, lay.rate),
	}
	if lay.float {
		w.floats = data
		w.raw = make([]byte, len(w.buf)*lay.bits/8)
		return w, nil
	}
	dec := wav.NewDecoder(&prefixed{head: lay.canonicalHeader(), rest: data})
	if err := dec.FwdToPCM(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNotWAV, err)
	}
	if dec.PCMChunk == nil {
		return nil, fmt.Errorf("%w: %v", ErrNotWAV, wav.ErrPCMChunkNotFound)
	}
	w.ints = dec.PCMChunk.R
	w.scale = 1 / float64(int64(1)<<(lay.bits-1))
	w.raw = make([]byte, len(w.buf)*lay.bits/8)
	return w, nil
}

// Channels reports what mixing the file's channels down found about each,
// as of the last Read (nil for a mono file), for Config.Channels. It may be
// called from another goroutine than Read (the file may be read ahead).
func (w *WAV) Channels() []ChannelState { return w.mix.Channels() }

// Info returns the stored format.
func (w *WAV) Info() WAVInfo { return w.info }

// SampleRate implements Source.
func (w *WAV) SampleRate() int { return w.info.SampleRate }

// Close releases the file, if OpenWAV opened it.
func (w *WAV) Close() error {
	if w.closer != nil {
		return w.closer.Close()
	}
	return nil
}

// Read implements Source.
func (w *WAV) Read(dst []float64) (int, error) {
	ch := w.info.Channels
	n := 0
	for n < len(dst) {
		if len(w.mono) > 0 {
			c := copy(dst[n:], w.mono)
			w.mono = w.mono[c:]
			n += c
			continue
		}
		if w.left == 0 {
			if !w.flushed {
				w.flushed = true
				w.mono = w.mix.Flush(w.monoBuf[:0])
				continue
			}
			return n, io.EOF
		}
		if w.err != nil {
			return n, w.err
		}
		if w.have-w.off < ch {
			w.refill()
			continue
		}
		// The mixer may hold the first frame of a sound back to its end,
		// so mono samples do not come out one for one: they queue in mono.
		k := min(int64((w.have-w.off)/ch), int64(len(dst)-n), w.left)
		w.monoBuf = Mix(w.mix, w.monoBuf[:0], w.buf[w.off:w.off+int(k)*ch])
		w.mono = w.monoBuf
		w.off += int(k) * ch
		w.left -= k
	}
	return n, nil
}

// refill decodes the next samples after any leftover partial frame.
func (w *WAV) refill() {
	w.have = copy(w.buf, w.buf[w.off:w.have])
	w.off = 0
	var k int
	var err error
	if w.floats != nil {
		k, err = w.readFloats(w.buf[w.have:])
	} else {
		k, err = w.readInts(w.buf[w.have:])
	}
	w.have += k
	switch {
	case err != nil:
		w.err = fmt.Errorf("reading WAV samples: %w", err)
	case k == 0:
		w.err = fmt.Errorf("%w: the data ends %d samples early", ErrTruncated, w.left)
	}
}

// readInts decodes integer samples into dst, scaled to [-1, 1). It reads as
// go-audio's PCMBuffer did: one Read of up to len(dst) samples' bytes,
// whose whole samples are decoded (a partial one at the end is dropped),
// and an end of the data is no error but no samples (prefixed holds back an
// error that came with bytes).
func (w *WAV) readInts(dst []float64) (int, error) {
	size := w.info.Bits / 8
	m, err := w.ints.Read(w.raw[:len(dst)*size])
	if err == io.EOF {
		return 0, nil
	}
	if err != nil || m == 0 {
		return 0, err
	}
	n := m / size
	raw := w.raw[:n*size]
	switch size {
	case 1: // 8-bit WAV is unsigned
		for i, b := range raw {
			dst[i] = float64(int(b)-128) * w.scale
		}
	case 2:
		for i := range n {
			dst[i] = float64(int(int16(binary.LittleEndian.Uint16(raw[2*i:])))) * w.scale
		}
	case 3:
		for i := range n {
			b := raw[3*i : 3*i+3 : 3*i+3]
			v := int32(b[0]) | int32(b[1])<<8 | int32(b[2])<<16
			if v&0x800000 != 0 {
				v |= ^0xffffff
			}
			dst[i] = float64(int(v)) * w.scale
		}
	default:
		for i := range n {
			dst[i] = float64(int(int32(binary.LittleEndian.Uint32(raw[4*i:])))) * w.scale
		}
	}
	return n, nil
}

// readFloats reads whole float samples into dst. Values outside [-1, 1]
// are clipped, as a sound card would, and NaNs are read as silence, so a
// damaged or hostile file cannot poison the analysis.
func (w *WAV) readFloats(dst []float64) (int, error) {
	size := w.info.Bits / 8
	raw := w.raw[:len(dst)*size]
	k, err := io.ReadFull(w.floats, raw)
	if err == io.ErrUnexpectedEOF || (err == io.EOF && k == 0) {
		err = nil // fewer samples than asked for: the caller sees k
	}
	n := k / size
	for i := range n {
		b := raw[i*size:]
		var v float64
		if size == 4 {
			v = float64(math.Float32frombits(binary.LittleEndian.Uint32(b)))
		} else {
			v = math.Float64frombits(binary.LittleEndian.Uint64(b))
		}
		switch {
		case math.IsNaN(v):
			v = 0
		case v > 1:
			v = 1
		case v < -1:
			v = -1
		}
		dst[i] = v
	}
	if n > 0 {
		err = nil // a read error will come back on the next call
	}
	return n, err
}

// riffLayout is what scanRIFF learns from the chunk headers.
type riffLayout struct {
	rate, channels, bits, blockAlign int
	float                            bool
	unsized                          bool // the data chunk's size was a placeholder
	dataOff, frames                  int64
}

const (
	formatPCM        = 0x0001
	formatFloat      = 0x0003
	formatALaw       = 0x0006
	formatMuLaw      = 0x0007
	formatExtensible = 0xFFFE
	maxFmtChunk      = 1 << 10
	maxChannels      = 64
)

// scanRIFF walks the top-level chunks with seeks, checking every size against
// the file's real length, and validates the fmt chunk.
func scanRIFF(r io.ReadSeeker) (riffLayout, error) {
	var lay riffLayout
	size, err := r.Seek(0, io.SeekEnd)
	if err != nil {
		return lay, err
	}
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return lay, err
	}
	var head [12]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return lay, fmt.Errorf("%w: too short for a RIFF header (%d bytes)", ErrNotWAV, size)
	}
	if string(head[0:4]) != "RIFF" || string(head[8:12]) != "WAVE" {
		if string(head[0:4]) == "RIFX" || string(head[0:4]) == "RF64" {
			return lay, fmt.Errorf("%w: %s container", ErrUnsupported, head[0:4])
		}
		return lay, fmt.Errorf("%w: no RIFF/WAVE header", ErrNotWAV)
	}
	pos := int64(12)
	haveFmt := false
	for {
		var ch [8]byte
		if pos+8 > size {
			if !haveFmt {
				return lay, fmt.Errorf("%w: the file ends before its fmt chunk", ErrTruncated)
			}
			return lay, fmt.Errorf("%w: the file ends before its data chunk", ErrTruncated)
		}
		if _, err := r.Seek(pos, io.SeekStart); err != nil {
			return lay, err
		}
		if _, err := io.ReadFull(r, ch[:]); err != nil {
			return lay, fmt.Errorf("%w: %v", ErrTruncated, err)
		}
		id := string(ch[0:4])
		n := int64(binary.LittleEndian.Uint32(ch[4:8]))
		body := pos + 8
		switch id {
		case "fmt ":
			if n < 16 || n > maxFmtChunk {
				return lay, fmt.Errorf("%w: fmt chunk of %d bytes", ErrNotWAV, n)
			}
			if body+n > size {
				return lay, fmt.Errorf("%w: the file ends inside its fmt chunk", ErrTruncated)
			}
			buf := make([]byte, n)
			if _, err := io.ReadFull(r, buf); err != nil {
				return lay, fmt.Errorf("%w: %v", ErrTruncated, err)
			}
			if err := lay.parseFmt(buf); err != nil {
				return lay, err
			}
			haveFmt = true
		case "data":
			if !haveFmt {
				return lay, fmt.Errorf("%w: data chunk before fmt chunk", ErrNotWAV)
			}
			if unsized(n, body, size, r) {
				// A recorder that streams its output (to a pipe, or killed
				// before it could go back and write the length) leaves a
				// placeholder: the data runs to the end of the file.
				n, lay.unsized = size-body, true
			}
			if body+n > size {
				return lay, fmt.Errorf("%w: header declares %.2f s of audio, the file holds %.2f s",
					ErrTruncated, lay.seconds(n), lay.seconds(size-body))
			}
			lay.dataOff = body
			lay.frames = n / int64(lay.blockAlign)
			return lay, nil
		}
		pos = body + n + n&1
	}
}

// unsized reports whether a data chunk's size n, for a chunk whose body
// starts at body in a file of size bytes, is a recorder's placeholder
// rather than a length: 0 with audio after it (not another chunk), or
// 0x7FFFFF00 or more (0xFFFFFFFF, 0x7FFFFFFF and the like) running past
// the end of the file. A size between those that runs past the end is a
// file cut short.
func unsized(n, body, size int64, r io.ReadSeeker) bool {
	switch {
	case n >= 0x7FFFFF00:
		return body+n > size
	case n != 0 || size-body < 8:
		return false
	}
	var next [4]byte
	if _, err := r.Seek(body, io.SeekStart); err != nil {
		return false
	}
	if _, err := io.ReadFull(r, next[:]); err != nil {
		return false
	}
	for _, c := range next {
		if c < ' ' || c > '~' {
			return true // samples, not a chunk's name
		}
	}
	return false
}

func (l *riffLayout) seconds(bytes int64) float64 {
	return float64(bytes/int64(l.blockAlign)) / float64(l.rate)
}

func (l *riffLayout) parseFmt(b []byte) error {
	tag := binary.LittleEndian.Uint16(b[0:2])
	l.channels = int(binary.LittleEndian.Uint16(b[2:4]))
	l.rate = int(binary.LittleEndian.Uint32(b[4:8]))
	l.blockAlign = int(binary.LittleEndian.Uint16(b[12:14]))
	l.bits = int(binary.LittleEndian.Uint16(b[14:16]))
	if tag == formatExtensible {
		if len(b) < 40 {
			return fmt.Errorf("%w: extensible fmt chunk of %d bytes", ErrNotWAV, len(b))
		}
		tag = binary.LittleEndian.Uint16(b[24:26]) // first bytes of the sub-format GUID
	}
	switch tag {
	case formatPCM:
	case formatFloat:
		l.float = true
	case formatALaw, formatMuLaw:
		return fmt.Errorf("%w: A-law/mu-law samples (convert to 16-bit PCM)", ErrUnsupported)
	default:
		return fmt.Errorf("%w: WAV format code 0x%04X (integer PCM and IEEE float are read)", ErrUnsupported, tag)
	}
	switch {
	case l.float && l.bits != 32 && l.bits != 64:
		return fmt.Errorf("%w: %d-bit float samples (32 or 64 are read)", ErrUnsupported, l.bits)
	case !l.float && l.bits != 8 && l.bits != 16 && l.bits != 24 && l.bits != 32:
		return fmt.Errorf("%w: %d-bit samples (8, 16, 24 or 32 are read)", ErrUnsupported, l.bits)
	}
	if l.channels == 0 {
		return fmt.Errorf("%w: 0 channels", ErrNotWAV)
	}
	if l.channels > maxChannels {
		return fmt.Errorf("%w: %d channels", ErrUnsupported, l.channels)
	}
	if l.rate < MinSampleRate || l.rate > MaxSampleRate {
		return fmt.Errorf("%w: sample rate %d Hz (%d to %d Hz are read)", ErrUnsupported, l.rate, MinSampleRate, MaxSampleRate)
	}
	if want := l.channels * l.bits / 8; l.blockAlign != want {
		return fmt.Errorf("%w: block align %d, expected %d for %d channels of %d bits", ErrNotWAV, l.blockAlign, want, l.channels, l.bits)
	}
	return nil
}

// canonicalHeader is a 44-byte PCM WAV header for the checked layout.
func (l *riffLayout) canonicalHeader() []byte {
	data := uint32(l.frames * int64(l.blockAlign))
	h := make([]byte, 44)
	copy(h[0:], "RIFF")
	binary.LittleEndian.PutUint32(h[4:], 36+data)
	copy(h[8:], "WAVEfmt ")
	binary.LittleEndian.PutUint32(h[16:], 16)
	binary.LittleEndian.PutUint16(h[20:], formatPCM)
	binary.LittleEndian.PutUint16(h[22:], uint16(l.channels))
	binary.LittleEndian.PutUint32(h[24:], uint32(l.rate))
	binary.LittleEndian.PutUint32(h[28:], uint32(l.rate*l.blockAlign))
	binary.LittleEndian.PutUint16(h[32:], uint16(l.blockAlign))
	binary.LittleEndian.PutUint16(h[34:], uint16(l.bits))
	copy(h[36:], "data")
	binary.LittleEndian.PutUint32(h[40:], data)
	return h
}

// prefixed reads head, then rest. go-audio needs an io.ReadSeeker but never
// seeks a canonical header, so Seek only reports where it is.
//
// A read of rest that returns bytes together with an error (a short read at
// an end the file no longer has, because it shrank after it was opened)
// is split in two: the bytes now, the error on the next call. go-audio's
// PCMBuffer returns the byte count of such a read as its sample count
// without decoding the bytes.
type prefixed struct {
	head []byte
	rest io.Reader
	n    int64
	err  error // held back from a read that also returned bytes
}

func (p *prefixed) Read(b []byte) (int, error) {
	if len(p.head) > 0 {
		k := copy(b, p.head)
		p.head = p.head[k:]
		p.n += int64(k)
		return k, nil
	}
	if p.err != nil {
		return 0, p.err
	}
	k, err := p.rest.Read(b)
	p.n += int64(k)
	if k > 0 && err != nil {
		p.err, err = err, nil
	}
	return k, err
}

func (p *prefixed) Seek(off int64, whence int) (int64, error) {
	if off == 0 && whence == io.SeekCurrent {
		return p.n, nil
	}
	return p.n, errors.New("seek not supported")
}

// readerAt adapts an io.ReadSeeker for io.SectionReader. Only the section
// reader touches r after scanRIFF, and it reads sequentially.
type readerAt struct{ r io.ReadSeeker }

func (a readerAt) ReadAt(p []byte, off int64) (int, error) {
	if _, err := a.r.Seek(off, io.SeekStart); err != nil {
		return 0, err
	}
	n, err := io.ReadFull(a.r, p)
	if err == io.ErrUnexpectedEOF {
		err = io.EOF // as io.ReaderAt reports a short read at the end
	}
	return n, err
}
