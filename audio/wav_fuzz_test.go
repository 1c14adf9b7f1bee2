package audio_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/tableref/tableref/audio"
)

// FuzzWAV feeds arbitrary bytes to NewWAV. Whatever the bytes, opening must
// either fail with one of the WAV errors or give a sane format, and reading
// must end (io.EOF, or ErrTruncated) after exactly Info().Frames samples,
// all in [-1, 1], never more samples than there are bytes, and the same
// samples whatever the block size and whether the reader has ReadAt.
//
//	go test -run xxx -fuzz FuzzWAV -fuzztime 2m ./audio
//
// Seeds: the hand-built headers of wav_test.go, the committed fixtures, a
// few small go-audio encodings, and testdata/fuzz/FuzzWAV.
func FuzzWAV(f *testing.F) {
	for _, c := range wtCases() {
		f.Add(c.data)
	}
	fixtures, err := filepath.Glob("testdata/*.wav")
	if err != nil || len(fixtures) == 0 {
		f.Fatalf("no fixtures in testdata: %v", err)
	}
	for _, path := range fixtures {
		b, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	dir := f.TempDir()
	for i, s := range []struct{ rate, bits, channels, frames int }{
		{8000, 8, 2, 37}, {22050, 24, 6, 11}, {96000, 32, 1, 20}, {11025, 16, 3, 5},
	} {
		stored, _, _ := wtMakeSignal(s.rate, s.bits, s.channels, s.frames)
		path := filepath.Join(dir, fmt.Sprintf("seed%d.wav", i))
		wtEncode(f, path, s.rate, s.bits, s.channels, stored)
		b, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}

	// float samples, 32 and 64 bits, with values a damaged file might hold
	f.Add(wtRIFF(wtChunk{id: "fmt ", body: wtFmt(3, 2, 44100, 32)}, wtChunk{id: "data", body: wtFloat32(0.5, -0.25, 3, float32(math.NaN()), 1e-30, -1)}))
	f.Add(wtRIFF(wtChunk{id: "fmt ", body: wtFmt(3, 1, 8000, 64)}, wtChunk{id: "data", body: wtFloat64(0.5, math.Inf(-1), 0.1)}))

	f.Fuzz(func(t *testing.T, data []byte) {
		w, err := audio.NewWAV(bytes.NewReader(data))
		if err != nil {
			if w != nil {
				t.Fatalf("NewWAV returned a WAV with the error %v", err)
			}
			if !errors.Is(err, audio.ErrNotWAV) && !errors.Is(err, audio.ErrTruncated) && !errors.Is(err, audio.ErrUnsupported) {
				t.Fatalf("open error wraps none of the WAV errors: %v", err)
			}
			return
		}
		info := w.Info()
		if info.SampleRate < audio.MinSampleRate || info.SampleRate > audio.MaxSampleRate {
			t.Fatalf("opened with rate %d", info.SampleRate)
		}
		if info.Channels < 1 || info.Channels > 64 {
			t.Fatalf("opened with %d channels", info.Channels)
		}
		if b := info.Bits; info.Float && b != 32 && b != 64 || !info.Float && b != 8 && b != 16 && b != 24 && b != 32 {
			t.Fatalf("opened with %d bits (float %v)", b, info.Float)
		}
		if info.Frames < 0 || info.Frames*int64(info.Channels*info.Bits/8) > int64(len(data)) {
			t.Fatalf("%d frames of %d×%d bits claimed from %d bytes", info.Frames, info.Channels, info.Bits, len(data))
		}

		small, endSmall := wtFuzzRead(t, w, []int{1, 3, 7, 64, 2, 509}, len(data))
		if !errors.Is(endSmall, audio.ErrTruncated) && int64(len(small)) != info.Frames {
			t.Fatalf("Info says %d frames, Read gave %d (%v)", info.Frames, len(small), endSmall)
		}

		// Once more in big blocks, through a reader without ReadAt (so
		// NewWAV seeks and reads): the same samples and the same end.
		w2, err := audio.NewWAV(struct{ io.ReadSeeker }{bytes.NewReader(data)})
		if err != nil {
			t.Fatalf("opened once, not twice: %v", err)
		}
		big, endBig := wtFuzzRead(t, w2, []int{4096}, len(data))
		if len(big) != len(small) {
			t.Fatalf("%d samples in small blocks, %d in blocks of 4096", len(small), len(big))
		}
		for i := range big {
			if big[i] != small[i] {
				t.Fatalf("sample %d: %v in small blocks, %v in blocks of 4096", i, small[i], big[i])
			}
		}
		if (endSmall == io.EOF) != (endBig == io.EOF) {
			t.Fatalf("the stream ends with %v in small blocks, %v in big ones", endSmall, endBig)
		}
	})
}

// wtFuzzRead reads w to its end in blocks cycling through the given sizes
// and checks each Read. It returns the samples and the error that ended the
// stream, which must be io.EOF or wrap ErrTruncated.
func wtFuzzRead(t *testing.T, w *audio.WAV, blocks []int, size int) ([]float64, error) {
	t.Helper()
	var out []float64
	buf := make([]float64, 4096)
	for i := 0; ; i++ {
		b := blocks[i%len(blocks)]
		n, err := w.Read(buf[:b])
		if n < 0 || n > b {
			t.Fatalf("Read of %d returned %d", b, n)
		}
		for _, v := range buf[:n] {
			if !(v >= -1 && v <= 1) {
				t.Fatalf("sample %v outside [-1, 1]", v)
			}
		}
		out = append(out, buf[:n]...)
		if len(out) > size {
			t.Fatalf("read %d samples from %d bytes", len(out), size)
		}
		switch {
		case err == io.EOF:
			return out, err
		case err != nil:
			if !errors.Is(err, audio.ErrTruncated) {
				t.Fatalf("Read failed on an in-memory file: %v", err)
			}
			return out, err
		case n == 0:
			t.Fatalf("Read of %d returned 0 samples and no error", b)
		}
		if i > size+2 {
			t.Fatalf("still reading after %d calls", i)
		}
	}
}
