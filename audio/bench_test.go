package audio_test

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/tableref/tableref/audio"
)

// benchCorpusFile is the recording the benchmarks use when the corpus is
// checked out beside the repository (22.05 kHz, stereo, 24-bit, 19 s).
const benchCorpusFile = "../../shared/corpus/gestures/dev-001.wav"

// benchBlock is how many samples each Write gets, as tableref listen does.
const benchBlock = 4096

// benchInput is the file the pipeline benchmarks read: the corpus recording,
// or, without the corpus, 20 s of synthetic noise with bursts written as a
// 16-bit mono 44.1 kHz WAV.
func benchInput(b *testing.B) string {
	b.Helper()
	if _, err := os.Stat(benchCorpusFile); err == nil {
		return benchCorpusFile
	}
	path := filepath.Join(b.TempDir(), "synthetic.wav")
	if err := benchWriteWAV(path, benchSignal(44100, 20), 44100); err != nil {
		b.Fatal(err)
	}
	b.Logf("%s not found; using 20 s of synthetic noise with bursts", benchCorpusFile)
	return path
}

// benchLoad decodes the whole of path, returning its mono samples, its rate
// and the bytes of PCM data it holds.
func benchLoad(b *testing.B, path string) (x []float64, rate int, pcmBytes int64) {
	b.Helper()
	w, err := audio.OpenWAV(path)
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	inf := w.Info()
	x = make([]float64, 0, inf.Frames)
	err = audio.Drain(w, benchBlock, func(blk []float64) error { x = append(x, blk...); return nil })
	if err != nil {
		b.Fatalf("%s: %v", path, err)
	}
	if int64(len(x)) != inf.Frames {
		b.Fatalf("%s: read %d of %d samples", path, len(x), inf.Frames)
	}
	return x, inf.SampleRate, inf.Frames * int64(inf.Channels*inf.Bits/8)
}

// benchListen runs x through a fresh Listener the way tableref listen does.
func benchListen(x []float64, rate int) (events int) {
	l := audio.NewListener(rate, audio.Config{}, func(audio.Event) { events++ })
	for i := 0; i < len(x); i += benchBlock {
		l.Write(x[i:min(i+benchBlock, len(x))])
	}
	l.Close()
	return events
}

// benchReport adds the throughput metrics: samples/s, and how many times
// faster than real time.
func benchReport(b *testing.B, iters, samples, rate int) {
	sec := b.Elapsed().Seconds()
	if sec <= 0 || iters == 0 {
		return
	}
	perSec := float64(iters) * float64(samples) / sec
	b.ReportMetric(perSec, "samples/s")
	b.ReportMetric(perSec/float64(rate), "x-realtime")
}

// BenchmarkListener measures the whole analysis (NewListener, Write in
// 4096-sample blocks, Close) on a recording already decoded to memory.
// MB/s counts the PCM bytes of the file the samples came from, so it
// compares directly with BenchmarkWAVDecode.
func BenchmarkListener(b *testing.B) {
	x, rate, pcm := benchLoad(b, benchInput(b))
	b.SetBytes(pcm)
	b.ReportAllocs()
	iters := 0
	for b.Loop() {
		benchListen(x, rate)
		iters++
	}
	benchReport(b, iters, len(x), rate)
}

// BenchmarkListenerLive measures the Listener as a live microphone feeds
// it: gestures reported at once (Config.Final false), in blocks of 256
// samples (a microphone's buffer), over the same recording. core-% is the
// share of one core it takes to keep up with the audio as it comes (the
// analysis alone: the microphone's own thread, mixing its channels down and
// printing the events come on top; scripts/livecpu measures the whole
// process on a live stream).
func BenchmarkListenerLive(b *testing.B) {
	x, rate, pcm := benchLoad(b, benchInput(b))
	b.SetBytes(pcm)
	b.ReportAllocs()
	iters := 0
	for b.Loop() {
		l := audio.NewListener(rate, audio.Config{}, func(audio.Event) {})
		for i := 0; i < len(x); i += 256 {
			l.Write(x[i:min(i+256, len(x))])
		}
		l.Close()
		iters++
	}
	benchReport(b, iters, len(x), rate)
	if sec := b.Elapsed().Seconds(); iters > 0 && sec > 0 {
		b.ReportMetric(100*sec/float64(iters)/(float64(len(x))/float64(rate)), "core-%")
	}
}

// BenchmarkWAVDecode measures OpenWAV and reading the file to its end as mono
// samples, 4096 at a time.
func BenchmarkWAVDecode(b *testing.B) {
	path := benchInput(b)
	_, rate, pcm := benchLoad(b, path)
	b.SetBytes(pcm)
	b.ReportAllocs()
	buf := make([]float64, benchBlock)
	iters, samples := 0, 0
	for b.Loop() {
		w, err := audio.OpenWAV(path)
		if err != nil {
			b.Fatal(err)
		}
		samples = 0
		for {
			n, err := w.Read(buf)
			samples += n
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
		}
		w.Close()
		iters++
	}
	benchReport(b, iters, samples, rate)
}

// BenchmarkListenerRate runs the Listener on 20 s of synthetic noise with
// bursts at 8, 16 and 48 kHz, to show how the work scales with the rate
// (48 kHz input is decimated by 2 before onset analysis; see AnalysisRate).
// MB/s counts the samples as 16-bit mono PCM.
func BenchmarkListenerRate(b *testing.B) {
	for _, rate := range []int{8000, 16000, 48000} {
		b.Run(fmt.Sprintf("%dkHz", rate/1000), func(b *testing.B) {
			x := benchSignal(rate, 20)
			b.SetBytes(int64(2 * len(x)))
			b.ReportAllocs()
			iters := 0
			for b.Loop() {
				benchListen(x, rate)
				iters++
			}
			benchReport(b, iters, len(x), rate)
		})
	}
}

// benchSignal is sec seconds of low noise (about -50 dBFS) with a clap-like
// burst (15 ms of decaying loud noise) every 0.4 to 1.2 s, and now and then a
// pause longer than the code gap, so onsets are judged and codes completed.
func benchSignal(rate int, sec float64) []float64 {
	rng := rand.New(rand.NewPCG(1, uint64(rate)))
	x := make([]float64, int(sec*float64(rate)))
	for i := range x {
		x[i] = 0.003 * rng.NormFloat64()
	}
	burst := int(0.015 * float64(rate))
	for t := 0.5; ; {
		at := int(t * float64(rate))
		if at+burst > len(x) {
			break
		}
		amp := 0.3 + 0.4*rng.Float64()
		for i := range burst {
			x[at+i] += amp * math.Exp(-5*float64(i)/float64(burst)) * (2*rng.Float64() - 1)
		}
		t += 0.4 + 0.8*rng.Float64()
		if rng.IntN(5) == 0 {
			t += 2 // end the code
		}
	}
	for i, v := range x {
		x[i] = max(-1, min(1, v))
	}
	return x
}

// benchWriteWAV writes x as a 16-bit mono PCM WAV.
func benchWriteWAV(path string, x []float64, rate int) error {
	data := 2 * len(x)
	b := make([]byte, 44+data)
	copy(b[0:], "RIFF")
	binary.LittleEndian.PutUint32(b[4:], uint32(36+data))
	copy(b[8:], "WAVEfmt ")
	binary.LittleEndian.PutUint32(b[16:], 16)
	binary.LittleEndian.PutUint16(b[20:], 1) // PCM
	binary.LittleEndian.PutUint16(b[22:], 1) // mono
	binary.LittleEndian.PutUint32(b[24:], uint32(rate))
	binary.LittleEndian.PutUint32(b[28:], uint32(2*rate))
	binary.LittleEndian.PutUint16(b[32:], 2)
	binary.LittleEndian.PutUint16(b[34:], 16)
	copy(b[36:], "data")
	binary.LittleEndian.PutUint32(b[40:], uint32(data))
	for i, v := range x {
		binary.LittleEndian.PutUint16(b[44+2*i:], uint16(int16(math.Round(v*32767))))
	}
	return os.WriteFile(path, b, 0o644)
}
