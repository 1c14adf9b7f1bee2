package realcorpus

import (
	"bytes"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/mewkiz/flac"
	"github.com/mewkiz/flac/frame"
	"github.com/mewkiz/flac/meta"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/audio"
)

// writeFLAC encodes interleaved samples as a FLAC file with mewkiz/flac's
// encoder, so the tests need no sox.
func writeFLAC(t testing.TB, path string, rate, channels, bits int, samples []int32) {
	t.Helper()
	f, err := os.Create(path)
	require.NoError(t, err)
	const block = 4096
	info := &meta.StreamInfo{BlockSizeMin: 16, BlockSizeMax: block, SampleRate: uint32(rate), NChannels: uint8(channels), BitsPerSample: uint8(bits)}
	enc, err := flac.NewEncoder(f, info)
	require.NoError(t, err)
	chans := map[int]frame.Channels{1: frame.ChannelsMono, 2: frame.ChannelsLR, 3: frame.ChannelsLRC}
	frames := len(samples) / channels
	for at := 0; at < frames; at += block {
		n := min(block, frames-at)
		fr := &frame.Frame{Header: frame.Header{HasFixedBlockSize: true, BlockSize: uint16(n), SampleRate: uint32(rate), Channels: chans[channels], BitsPerSample: uint8(bits)}}
		for c := range channels {
			sub := &frame.Subframe{SubHeader: frame.SubHeader{Pred: frame.PredVerbatim}, NSamples: n, Samples: make([]int32, n)}
			for i := range n {
				sub.Samples[i] = samples[(at+i)*channels+c]
			}
			fr.Subframes = append(fr.Subframes, sub)
		}
		require.NoError(t, enc.WriteFrame(fr))
	}
	require.NoError(t, enc.Close())
}

// testSignal is a tone with noise, different in each channel, at bits.
func testSignal(rate, channels, bits, frames int, seed uint64) []int32 {
	rng := rand.New(rand.NewPCG(seed, 1))
	full := float64(int64(1)<<(bits-1)) - 1
	out := make([]int32, frames*channels)
	for i := range frames {
		for c := range channels {
			v := 0.5*math.Sin(2*math.Pi*float64(440*(c+1))*float64(i)/float64(rate)) + 0.1*(2*rng.Float64()-1)
			out[i*channels+c] = int32(math.Round(v * full))
		}
	}
	return out
}

func TestFLACRoundTrip(t *testing.T) {
	for _, tc := range []struct{ rate, channels, bits, wavBits int }{
		{48000, 2, 16, 16}, // as the phones' recordings
		{44100, 1, 16, 16},
		{22050, 3, 24, 24}, // wider: kept wide, so nothing is rounded
		{16000, 1, 12, 16}, // narrower: shifted up, exactly
	} {
		dir := t.TempDir()
		path := filepath.Join(dir, "x.flac")
		in := testSignal(tc.rate, tc.channels, tc.bits, 10000, 7)
		writeFLAC(t, path, tc.rate, tc.channels, tc.bits, in)

		p, err := ReadFLAC(path)
		require.NoError(t, err)
		require.Equal(t, tc.rate, p.Rate)
		require.Equal(t, tc.channels, p.Channels)
		require.Equal(t, tc.bits, p.Bits)
		require.Equal(t, 10000, p.Frames())
		require.Equal(t, in, p.Samples, "the samples come back exactly")

		// The WAV made of it is what audio.NewWAV reads, the same format
		// and the same samples.
		w, err := audio.NewWAV(bytes.NewReader(p.WAV()))
		require.NoError(t, err)
		inf := w.Info()
		require.Equal(t, audio.WAVInfo{SampleRate: tc.rate, Channels: tc.channels, Bits: tc.wavBits, Frames: 10000}, inf)
		if tc.channels == 1 {
			var got []float64
			require.NoError(t, audio.Drain(w, 1000, func(x []float64) error { got = append(got, x...); return nil }))
			require.Len(t, got, 10000)
			for i, s := range in {
				require.Equal(t, float64(s)/float64(int64(1)<<(tc.bits-1)), got[i], "sample %d", i)
			}
		}
		// Mono is the mixdown that reading the WAV gives: one sample a frame.
		m, err := p.Mono()
		require.NoError(t, err)
		require.Len(t, m, 10000)
	}
}

func TestFLACErrors(t *testing.T) {
	dir := t.TempDir()
	_, err := ReadFLAC(filepath.Join(dir, "missing.flac"))
	require.ErrorIs(t, err, os.ErrNotExist)

	notFLAC := filepath.Join(dir, "x.flac")
	require.NoError(t, os.WriteFile(notFLAC, []byte("RIFF....WAVEfmt "), 0o644))
	_, err = ReadFLAC(notFLAC)
	require.ErrorContains(t, err, "not a FLAC stream")

	// A sample changed in the stored audio is caught, by the frame's CRC
	// or by the MD5 sum of the audio in the header.
	good := filepath.Join(dir, "good.flac")
	writeFLAC(t, good, 44100, 1, 16, testSignal(44100, 1, 16, 5000, 3))
	b, err := os.ReadFile(good)
	require.NoError(t, err)
	b[len(b)-3000] ^= 0x10
	bad := filepath.Join(dir, "bad.flac")
	require.NoError(t, os.WriteFile(bad, b, 0o644))
	_, err = ReadFLAC(bad)
	require.Error(t, err)
}

func TestMonoWAVRoundsAndClips(t *testing.T) {
	w, err := audio.NewWAV(bytes.NewReader(monoWAV([]float64{0, 0.5, -0.5, 1.5, -1.5, 1.0 / 32768, 0.4 / 32768}, 8000)))
	require.NoError(t, err)
	require.Equal(t, audio.WAVInfo{SampleRate: 8000, Channels: 1, Bits: 16, Frames: 7}, w.Info())
	var got []float64
	require.NoError(t, audio.Drain(w, 16, func(x []float64) error { got = append(got, x...); return nil }))
	require.Equal(t, []float64{0, 0.5, -0.5, 32767.0 / 32768, -1, 1.0 / 32768, 0}, got)
}

func TestAverageMono(t *testing.T) {
	p := &PCM{Rate: 8000, Channels: 2, Bits: 16, Samples: []int32{100, 300, -32768, -32768, 16384, -16384}}
	require.Equal(t, []float64{200.0 / 32768, -1, 0}, p.averageMono())
}
