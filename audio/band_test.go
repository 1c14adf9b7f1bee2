package audio_test

import (
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/audio"
	"github.com/tableref/tableref/audio/internal/decimate"
)

// telephone passes x (sampled at rate) through what a Bluetooth headset's
// calling mode leaves of it: nothing above 3.6 kHz (a steep windowed-sinc
// low-pass), at the same rate, as a sound server hands it on after
// resampling the headset's 8 kHz stream up.
func telephone(x []float64, rate int) []float64 {
	const taps = 401
	fc := 3600.0 / float64(rate)
	h := make([]float64, taps)
	var sum float64
	for i := range h {
		m := float64(i - taps/2)
		s := 2 * fc
		if m != 0 {
			s = math.Sin(2*math.Pi*fc*m) / (math.Pi * m)
		}
		w := 0.42 - 0.5*math.Cos(2*math.Pi*float64(i)/(taps-1)) + 0.08*math.Cos(4*math.Pi*float64(i)/(taps-1))
		h[i] = s * w
		sum += h[i]
	}
	y := make([]float64, len(x))
	for n := range y {
		var acc float64
		for k, c := range h {
			if j := n - k + taps/2; j >= 0 && j < len(x) {
				acc += c * x[j]
			}
		}
		y[n] = math.Round(acc/sum*32767) / 32767 // 16-bit, as the server sends it
	}
	return y
}

// clapRoom is seconds of a room's hiss at -55 dBFS at rate Hz, with a
// bright burst (a clap) every 0.7 s.
func clapRoom(seed uint64, rate int, seconds float64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 2))
	x := make([]float64, int(seconds*float64(rate)))
	period, at := rate*7/10, rate/3
	tau := float64(rate) / 270 // a clap dies away in a few ms
	for i := range x {
		x[i] = 0.0018 * rng.NormFloat64()
		if k := i % period; k > at && k < at+int(10*tau) {
			x[i] += 0.3 * rng.NormFloat64() * math.Exp(-float64(k-at)/tau)
		}
	}
	return x
}

// narrowReported runs x through a Listener at rate and returns whether the
// microphone was ever said to be a telephone line, and whether it was at
// the end.
func narrowReported(x []float64, rate int) (ever, last bool) {
	l := audio.NewListener(rate, audio.Config{}, func(ev audio.Event) {
		m, ok := ev.(*audio.Mic)
		if !ok {
			return
		}
		last = false
		for _, p := range m.Problems {
			if p.Kind == audio.MicNarrow {
				ever, last = true, true
			}
		}
	})
	for len(x) > 0 {
		n := min(len(x), 1024)
		l.Write(x[:n])
		x = x[n:]
	}
	l.Close()
	return ever, last
}

// TestATelephoneLineIsToldFromAMicrophone: a stream sampled at 8 kHz, or
// one that carries nothing above 4 kHz though sampled at 48 kHz (a headset
// resampled up), is heard as a telephone line and the user is told; a
// microphone heard in full never is, even when its first seconds are dull;
// and a line that opens up again is a microphone again.
func TestATelephoneLineIsToldFromAMicrophone(t *testing.T) {
	const rate = 48000
	full := clapRoom(1, rate, 8)
	ever, _ := narrowReported(full, rate)
	assert.False(t, ever, "a microphone heard in full")

	line := telephone(full, rate)
	_, last := narrowReported(line, rate)
	assert.True(t, last, "a telephone line resampled to 48 kHz")

	_, last = narrowReported(append(append([]float64{}, line...), clapRoom(3, rate, 8)...), rate)
	assert.False(t, last, "a telephone line, then a microphone heard in full")

	_, last = narrowReported(clapRoom(4, 8000, 3), 8000)
	assert.True(t, last, "a stream sampled at 8 kHz")

	// a room's first sounds are dull thumps (nothing above a few kHz) before
	// the claps come: that is no telephone line, the room's hiss says so
	dull := telephone(clapRoom(5, rate, 1.4), rate)
	for i, v := range hiss(7, rate, 1.4, -55) {
		dull[i] = 3*dull[i] + v
	}
	ever, _ = narrowReported(append(dull, clapRoom(6, rate, 6)...), rate)
	assert.False(t, ever, "a microphone heard in full whose first sounds are dull")
}

// hiss is seconds of white noise at rate Hz, db dBFS RMS.
func hiss(seed uint64, rate int, seconds, db float64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 3))
	x := make([]float64, int(seconds*float64(rate)))
	k := math.Pow(10, db/20)
	for i := range x {
		x[i] = k * rng.NormFloat64()
	}
	return x
}

// TestATelephoneLineIsToldByItsRoomBeforeAnySound: a headset's line
// resampled up carries nothing above 4 kHz in its hiss either, so it is
// told before the first clap (which the network for microphones heard in
// full would take for a bang); a microphone's hiss, and a room too quiet to
// stand over a file's rounding noise, tell no such thing.
func TestATelephoneLineIsToldByItsRoomBeforeAnySound(t *testing.T) {
	const rate = 48000
	_, last := narrowReported(telephone(hiss(1, rate, 1.5, -60), rate), rate)
	assert.True(t, last, "a telephone line's hiss, resampled to 48 kHz")

	ever, _ := narrowReported(hiss(2, rate, 3, -60), rate)
	assert.False(t, ever, "a microphone's hiss")

	ever, _ = narrowReported(telephone(hiss(3, rate, 1.5, -95), rate), rate)
	assert.False(t, ever, "a line's hiss under the rounding noise of 16 bits")

	// the room decides only until the sounds do: bright claps over a dull
	// room are a microphone heard in full
	x := telephone(hiss(4, rate, 8, -60), rate)
	for i, v := range clapRoom(5, rate, 8) {
		x[i] += v
	}
	_, last = narrowReported(x, rate)
	assert.False(t, last, "claps heard in full over a dull room")
}

// TestATelephoneLineStillHearsTheCodes: the corpus recordings made at 16
// and 48 kHz, brought down to a telephone line's 8 kHz (the network for
// such lines judges them), and the same passed through a telephone band at
// their own rate (a headset resampled up by the sound server: the stream's
// sound must say it is a telephone line), decode as the plain recordings
// do in most files.
func TestATelephoneLineStillHearsTheCodes(t *testing.T) {
	same := tally{}
	defer same.check(t)
	n := 0
	for _, f := range latCorpus(t) {
		x, rate := latReadWAV(t, f)
		if rate != 16000 && rate != 48000 {
			continue
		}
		if n++; raceOn && n%3 != 1 {
			continue // a third of them under the race detector
		}
		_, want := latListen(x, rate, 4096, audio.Config{})
		d := decimate.New(rate/8000, 0.9)
		_, got := latListen(d.Process(x, nil), 8000, 512, audio.Config{})
		same.add(t, "8 kHz", filepath.Base(f), orders(want), orders(got))
		_, got = latListen(telephone(x, rate), rate, 512, audio.Config{})
		same.add(t, "telephone band", filepath.Base(f), orders(want), orders(got))
	}
	require.NotZero(t, n, "corpus files at 16 or 48 kHz")
}
