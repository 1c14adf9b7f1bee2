package talk

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// table synthesises a table of talking voices: each voice a harmonic tone
// at its own pitch, its loudness rising and falling like syllables, over a
// quiet background hiss. gain(v, t) scales voice v at time t (0 silences it).
func table(rate int, seconds float64, voices int, gain func(v int, t float64) float64, seed uint64) []float64 {
	r := rand.New(rand.NewPCG(seed, 1))
	n := int(seconds * float64(rate))
	x := make([]float64, n)
	for i := range x {
		x[i] = 0.0005 * r.NormFloat64() // about -66 dB
	}
	for v := 0; v < voices; v++ {
		pitch := 100 + 180*r.Float64()
		syll := 3 + 3*r.Float64() // syllables a second
		phase := r.Float64() * 2 * math.Pi
		for i := range x {
			t := float64(i) / float64(rate)
			g := gain(v, t)
			if g == 0 {
				continue
			}
			env := 0.55 + 0.45*math.Sin(2*math.Pi*syll*t+phase)
			var s float64
			for h := 1; h <= 6; h++ {
				s += math.Sin(2*math.Pi*pitch*float64(h)*t) / float64(h)
			}
			x[i] += 0.02 * g * env * s
		}
	}
	return x
}

func watch(x []float64, rate int, cfg Config) []Event {
	var out []Event
	w := New(rate, cfg, func(e Event) {
		if e.Kind != Level {
			out = append(out, e)
		}
	})
	for i := 0; i < len(x); i += 1000 {
		w.Write(x[i:min(i+1000, len(x))])
	}
	w.Close()
	return out
}

func only(evs []Event, k Kind) []Event {
	var out []Event
	for _, e := range evs {
		if e.Kind == k {
			out = append(out, e)
		}
	}
	return out
}

func secs(s int64, rate int) float64 { return float64(s) / float64(rate) }

// silentBetween makes every voice stop from a to b seconds.
func silentBetween(a, b float64) func(int, float64) float64 {
	return func(_ int, t float64) float64 {
		if t >= a && t < b {
			return 0
		}
		return 1
	}
}

func TestTheWholeTableFallingSilentIsAPause(t *testing.T) {
	const rate = 16000
	x := table(rate, 14, 4, silentBetween(8, 9.5), 1)
	ps := only(watch(x, rate, Config{}), Pause)
	require.Len(t, ps, 1)
	assert.InDelta(t, 8.0, secs(ps[0].Start, rate), 0.15)
	assert.InDelta(t, 9.5, secs(ps[0].End, rate), 0.15)
}

func TestAPauseIsAnnouncedAsSoonAsItIsLongEnough(t *testing.T) {
	const rate = 16000
	x := table(rate, 14, 4, silentBetween(8, 10), 2)
	starts := only(watch(x, rate, Config{}), PauseStart)
	require.Len(t, starts, 1)
	assert.InDelta(t, 8.0, secs(starts[0].Start, rate), 0.15)
	assert.InDelta(t, 9.0, secs(starts[0].End, rate), 0.15, "announced a second into the silence")
}

func TestAGapShorterThanThePauseLengthIsNotAPause(t *testing.T) {
	const rate = 16000
	x := table(rate, 14, 4, silentBetween(8, 8.6), 3)
	evs := watch(x, rate, Config{})
	assert.Empty(t, only(evs, Pause))
	assert.Empty(t, only(evs, PauseStart))
}

func TestThePauseLengthIsASetting(t *testing.T) {
	const rate = 16000
	x := table(rate, 14, 4, silentBetween(8, 9.5), 4)
	assert.Empty(t, only(watch(x, rate, Config{MinPause: 2}), Pause))
	assert.Len(t, only(watch(x, rate, Config{MinPause: 1.2}), Pause), 1)
}

func TestOneVoiceFarLouderThanTheRestIsAShout(t *testing.T) {
	const rate = 16000
	gain := func(v int, t float64) float64 {
		if v == 2 && t >= 9 && t < 11.5 {
			return 4 // 12 dB
		}
		return 1
	}
	sh := only(watch(table(rate, 16, 5, gain, 5), rate, Config{}), Shout)
	require.Len(t, sh, 1)
	assert.Less(t, secs(sh[0].Start, rate), 11.5)
	assert.Greater(t, secs(sh[0].End, rate), 9.0)
	assert.Greater(t, sh[0].DB, DefaultShoutDB)
}

func TestSteadyTalkHasNoShoutsAndNoPauses(t *testing.T) {
	const rate = 16000
	for seed := uint64(10); seed < 14; seed++ {
		evs := watch(table(rate, 20, 3+int(seed%4), func(int, float64) float64 { return 1 }, seed), rate, Config{})
		assert.Empty(t, only(evs, Shout), "seed %d", seed)
		assert.Empty(t, only(evs, Pause), "seed %d", seed)
	}
}

func TestAPauseStillOpenAtTheEndIsReported(t *testing.T) {
	const rate = 16000
	x := table(rate, 10, 4, silentBetween(8, 99), 6)
	ps := only(watch(x, rate, Config{}), Pause)
	require.Len(t, ps, 1)
	assert.InDelta(t, 8.0, secs(ps[0].Start, rate), 0.15)
	assert.InDelta(t, 10.0, secs(ps[0].End, rate), 0.05)
}

func TestEveryRateHearsTheSame(t *testing.T) {
	for _, rate := range []int{8000, 22050, 44100, 48000} {
		x := table(rate, 14, 4, silentBetween(8, 9.5), 7)
		ps := only(watch(x, rate, Config{}), Pause)
		require.Len(t, ps, 1, "rate %d", rate)
		assert.InDelta(t, 8.0, secs(ps[0].Start, rate), 0.15, "rate %d", rate)
	}
}

func TestDigitalSilenceIsAPauseNotAnError(t *testing.T) {
	const rate = 8000
	x := make([]float64, 3*rate)
	ps := only(watch(x, rate, Config{}), Pause)
	require.Len(t, ps, 1)
	assert.Equal(t, int64(0), ps[0].Start)
}

func TestTheRoomLevelQuantile(t *testing.T) {
	var q quantile
	q.init(100)
	for i := 0; i < 300; i++ { // only the last 100 count
		v := -80.0
		if i >= 200 {
			v = -60 + float64(i-200)*0.1 // -60 .. -50.1
		}
		q.add(v)
	}
	assert.InDelta(t, -57, q.at(0.3), 0.3)
}

func TestALongQuietStartDoesNotBlindTheWatcher(t *testing.T) {
	const rate = 16000
	// Nobody talks for the first 10 s (only the room's hiss), then a
	// table talks, pauses at 18 s and one voice shouts at 22 s.
	gain := func(v int, t float64) float64 {
		switch {
		case t < 10, t >= 18 && t < 19.5:
			return 0
		case v == 1 && t >= 22 && t < 24:
			return 4
		}
		return 1
	}
	evs := watch(table(rate, 27, 4, gain, 8), rate, Config{})
	ps := only(evs, Pause)
	require.NotEmpty(t, ps)
	last := ps[len(ps)-1]
	assert.InDelta(t, 18.0, secs(last.Start, rate), 0.15)
	sh := only(evs, Shout)
	require.Len(t, sh, 1)
	assert.Greater(t, secs(sh[0].End, rate), 22.0)
	assert.Less(t, secs(sh[0].Start, rate), 24.0)
}

// TestTheRefereesOwnSoundIsSkipped plays a loud buzz over a talking table:
// written, it is a shout; skipped (the referee knows it played it), it is
// nothing, and time still runs through it.
func TestTheRefereesOwnSoundIsSkipped(t *testing.T) {
	const rate = 16000
	x := table(rate, 20, 4, func(v int, t float64) float64 {
		if t >= 14 && t < 16 {
			return 0 // a pause after the buzz
		}
		return 1
	}, 3)
	buzz := func(i int) bool { t := float64(i) / rate; return t >= 8 && t < 9.2 }
	for i := range x {
		if buzz(i) {
			x[i] += 0.3 * math.Sin(2*math.Pi*150*float64(i)/rate)
		}
	}
	run := func(skip bool) []Event {
		var out []Event
		w := New(rate, Config{}, func(e Event) {
			if e.Kind != Level {
				out = append(out, e)
			}
		})
		for i := 0; i < len(x); i += 320 {
			blk := x[i:min(i+320, len(x))]
			if skip && buzz(i) {
				w.Skip(blk)
			} else {
				w.Write(blk)
			}
		}
		w.Close()
		return out
	}
	heard := run(false)
	require.NotEmpty(t, only(heard, Shout), "the buzz, written, passes for a shout")
	skipped := run(true)
	assert.Empty(t, only(skipped, Shout), "skipped, it is no shout: %+v", skipped)
	pauses := only(skipped, Pause)
	require.Len(t, pauses, 1)
	assert.InDelta(t, 14.0, float64(pauses[0].Start)/rate, 0.3, "time ran on through the skipped samples")
}

// staggered starts each voice a little after the recording, as at a real
// table, with gain on top.
func staggered(gain func(v int, t float64) float64) func(int, float64) float64 {
	return func(v int, t float64) float64 {
		if t < 0.2+0.15*float64(v) {
			return 0
		}
		return gain(v, t)
	}
}

// TestAShoutAtTheVeryStartIsFoundAndTheStartIsNoShout: the voices join one
// by one in the first second, and one of them shouts from 0.6 s, before
// any room level could be known. The shout is found (late, with its own
// times) and the voices joining are not taken for one.
func TestAShoutAtTheVeryStartIsFoundAndTheStartIsNoShout(t *testing.T) {
	const rate = 16000
	for _, voices := range []int{3, 4, 6} {
		shouting := staggered(func(v int, t float64) float64 {
			if v == 1 && t >= 0.6 && t < 2.6 {
				return 4 // 12 dB
			}
			return 1
		})
		for seed := uint64(20); seed < 23; seed++ {
			sh := only(watch(table(rate, 20, voices, shouting, seed), rate, Config{}), Shout)
			require.Len(t, sh, 1, "%d voices, seed %d: %+v", voices, seed, sh)
			assert.Less(t, secs(sh[0].Start, rate), 2.6)
			assert.Greater(t, secs(sh[0].End, rate), 0.6)

			calm := only(watch(table(rate, 20, voices, staggered(func(int, float64) float64 { return 1 }), seed), rate, Config{}), Shout)
			assert.Empty(t, calm, "%d voices joining one by one, seed %d", voices, seed)
		}
	}
}

// TestAShoutAmongSixVoicesIsFound: one voice 12 dB up lifts six voices'
// mix by only about 5 dB.
func TestAShoutAmongSixVoicesIsFound(t *testing.T) {
	const rate = 16000
	for seed := uint64(30); seed < 34; seed++ {
		gain := func(v int, t float64) float64 {
			if v == int(seed%6) && t >= 12 && t < 13.5 {
				return 4
			}
			return 1
		}
		sh := only(watch(table(rate, 20, 6, gain, seed), rate, Config{}), Shout)
		require.Len(t, sh, 1, "seed %d", seed)
		assert.Less(t, secs(sh[0].Start, rate), 13.5)
		assert.Greater(t, secs(sh[0].End, rate), 12.0)
	}
}

// TestAFanDoesNotHideShoutsOrPauses mixes a steady brown noise (a fan's
// rumble) 10 dB below the talk: pauses and shouts are heard as without it.
func TestAFanDoesNotHideShoutsOrPauses(t *testing.T) {
	const rate = 16000
	gain := func(v int, t float64) float64 {
		switch {
		case t >= 8 && t < 9.5:
			return 0
		case v == 2 && t >= 14 && t < 16:
			return 4
		}
		return 1
	}
	for seed := uint64(40); seed < 43; seed++ {
		x := table(rate, 22, 5, gain, seed)
		talkRMS := 0.0
		for _, v := range x[:8*rate] {
			talkRMS += v * v
		}
		talkRMS = math.Sqrt(talkRMS / float64(8*rate))
		r := rand.New(rand.NewPCG(seed, 9))
		var brown, sum float64
		fan := make([]float64, len(x))
		for i := range fan {
			brown = 0.998*brown + r.NormFloat64()
			fan[i] = brown
			sum += brown * brown
		}
		g := talkRMS * math.Pow(10, -10.0/20) / math.Sqrt(sum/float64(len(fan)))
		for i := range x {
			x[i] += g * fan[i]
		}
		evs := watch(x, rate, Config{})
		ps := only(evs, Pause)
		require.Len(t, ps, 1, "seed %d: %+v", seed, ps)
		assert.InDelta(t, 8.0, secs(ps[0].Start, rate), 0.3)
		sh := only(evs, Shout)
		require.Len(t, sh, 1, "seed %d: %+v", seed, sh)
		assert.Less(t, secs(sh[0].Start, rate), 16.0)
		assert.Greater(t, secs(sh[0].End, rate), 14.0)
	}
}
