package audio_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/audio"
	"github.com/tableref/tableref/audio/gesture"
)

// ha adds one syllable of a laugh at t seconds: a breathy "h" (noise that
// swells for 15 ms, most of it above 1 kHz) running into a vowel at pitch
// hz, gliding down, held for hold seconds and then stopped within 15 ms as
// the breath runs out.
func ha(x []float64, rate int, rng *rand.Rand, t, hz, hold, amp float64) {
	const breath = 0.015
	prev := 0.0
	for i := int(t * float64(rate)); i < int((t+breath+hold+0.015)*float64(rate)) && i < len(x); i++ {
		tt := float64(i)/float64(rate) - t
		// the "h": white noise, with its lows taken off, that swells
		n := rng.NormFloat64()
		h := n - prev
		prev = n
		if tt < breath+0.01 {
			x[i] += 0.3 * amp * math.Min(tt/breath, 1) * math.Max(0, 1-(tt-breath)/0.01) * h
		}
		if tt < breath {
			continue
		}
		// the vowel: up in 8 ms, held, down in 15 ms
		v := tt - breath
		env := math.Min(v/0.008, 1) * math.Min(1, math.Max(0, (hold+0.015-v)/0.015))
		f0 := hz * (1 - 0.6*v) // the pitch glides down
		var s float64
		for k := 1; float64(k)*f0 < float64(rate)/2 && k <= 30; k++ {
			f := f0 * float64(k)
			s += (1/float64(k) + math.Exp(-math.Pow((f-700)/200, 2))) * math.Sin(2*math.Pi*f*v)
		}
		x[i] += amp * env * s
	}
}

// syllablesAreBangs names every onset heard at the start of a syllable (up
// to 30 ms into it: its breath or its vowel) a bang: the tests below are of
// what the Listener makes of what it is told is a gesture, as a network
// that took a breath for a hand would.
func syllablesAreBangs(rate int, starts []float64) func(int64, gesture.Features) gesture.Kind {
	return func(at int64, _ gesture.Features) gesture.Kind {
		s := float64(at) / float64(rate)
		for _, st := range starts {
			if s >= st-0.005 && s <= st+0.03 {
				return gesture.Bang
			}
		}
		return gesture.Other
	}
}

// standing runs x through a Listener with judge and returns the gestures that
// stand at the end (reported and not taken back) and the codes.
func standing(x []float64, rate int, judge func(int64, gesture.Features) gesture.Kind) (stand []float64, codes []*audio.Code) {
	on := map[int64]float64{}
	l := audio.NewListener(rate, audio.Config{Judge: judge, KeepAlone: true}, func(e audio.Event) {
		switch v := e.(type) {
		case *audio.Onset:
			if v.Kind.IsGesture() {
				on[v.Sample] = v.Time
			}
		case *audio.Retract:
			delete(on, v.Sample)
		case *audio.Code:
			codes = append(codes, v)
		}
	})
	for i := 0; i < len(x); i += 512 {
		l.Write(x[i:min(i+512, len(x))])
	}
	l.Close()
	for _, t := range on {
		stand = append(stand, t)
	}
	return stand, codes
}

// TestALaughIsNoGesture: "ha-ha-ha-ha-ha", five syllables a second, loud
// and quiet, low and high voices. Each "ha" that the onsets stage hears
// start (and that the judge here names a bang) is taken back: its onset is
// a voice, held, that then stops, which no hand's sound does.
func TestALaughIsNoGesture(t *testing.T) {
	const rate = 16000
	for _, c := range []struct {
		name    string
		hz, amp float64
	}{
		{"low and loud", 120, 0.05},
		{"high and loud", 260, 0.05},
		{"low and quiet", 110, 0.008},
		{"high and quiet", 300, 0.008},
	} {
		t.Run(c.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(11, uint64(c.hz)))
			x := roomNoise(rng, 4*rate, 0.001)
			var starts []float64
			for k := range 6 {
				at := 1.0 + 0.2*float64(k)
				starts = append(starts, at)
				ha(x, rate, rng, at, c.hz*(1-0.03*float64(k)), 0.06+0.01*float64(k%3), c.amp*(1-0.08*float64(k)))
			}
			stand, codes := standing(x, rate, syllablesAreBangs(rate, starts))
			assert.Empty(t, stand, "no syllable of the laugh stands as a gesture")
			assert.Empty(t, codes, "and it makes no code")
		})
	}
}

// TestAClapWithTalkRightAfterItStands: claps with a voice starting 30 or
// 60 ms after them, quieter than the clap or as loud, talking on or
// laughing, are all kept (the talk is not named a gesture here).
func TestAClapWithTalkRightAfterItStands(t *testing.T) {
	const rate = 16000
	for _, after := range []float64{0.03, 0.06} {
		for _, amp := range []float64{0.01, 0.04} {
			rng := rand.New(rand.NewPCG(13, 14))
			x := roomNoise(rng, 8*rate, 0.001)
			burst(x, rate, rng, 0.5, 0.4) // a clap, and talk going on after it
			vowel(x, rate, 0.5+after, 1.4, 140, amp)
			burst(x, rate, rng, 3.0, 0.4) // a clap, and a laugh right after it
			for k := range 4 {
				ha(x, rate, rng, 3.0+after+0.2*float64(k), 220, 0.07, 2*amp)
			}
			judge := func(at int64, _ gesture.Features) gesture.Kind {
				for _, c := range []float64{0.5, 3.0} {
					if math.Abs(float64(at)/rate-c) < 0.01 {
						return gesture.Clap
					}
				}
				return gesture.Other
			}
			stand, _ := standing(x, rate, judge)
			require.Len(t, stand, 2, "talk %.0f ms after, voice at %.2f: %v", after*1000, amp, stand)
		}
	}
}

// TestADrumsRingIsNoSyllable: a bang that rings at a low pitch, with two
// modes beating, slowly or fast dying away, is periodic at its onset like a
// voice, but its ring never stops faster than it began to fall: it stands.
func TestADrumsRingIsNoSyllable(t *testing.T) {
	const rate = 16000
	for _, tau := range []float64{0.04, 0.1, 0.3} {
		rng := rand.New(rand.NewPCG(15, 16))
		x := roomNoise(rng, 3*rate, 0.001)
		burst(x, rate, rng, 0.5, 0.3)
		for i := int(0.5 * rate); i < int(1.5*rate); i++ {
			tt := float64(i)/rate - 0.5
			x[i] += 0.2 * math.Exp(-tt/tau) * (math.Sin(2*math.Pi*110*tt) + 0.8*math.Sin(2*math.Pi*116*tt) + 0.3*math.Sin(2*math.Pi*330*tt))
		}
		judge := func(at int64, _ gesture.Features) gesture.Kind {
			if math.Abs(float64(at)/rate-0.5) < 0.01 {
				return gesture.Bang
			}
			return gesture.Other
		}
		stand, _ := standing(x, rate, judge)
		require.Len(t, stand, 1, "a ring dying away in %.0f ms", tau*1000)
	}
}
