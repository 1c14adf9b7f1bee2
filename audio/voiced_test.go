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

// TestAnOnsetKnowsWhetherSomeoneWasTalking checks Features.Voiced: a burst
// in the middle of a sentence comes after voiced frames, a burst after a
// quiet moment does not.
func TestAnOnsetKnowsWhetherSomeoneWasTalking(t *testing.T) {
	const rate = 16000
	rng := rand.New(rand.NewPCG(3, 4))
	x := roomNoise(rng, 3*rate, 0.001)
	// A voice at 140 Hz with formants from 0.3 s to 1.2 s.
	for i := int(0.3 * rate); i < int(1.2*rate); i++ {
		tt := float64(i) / rate
		var v float64
		for h := 1; h <= 20; h++ {
			f := 140 * float64(h)
			v += (1/float64(h) + math.Exp(-math.Pow((f-700)/200, 2))) * math.Sin(2*math.Pi*f*tt)
		}
		x[i] += 0.03 * v
	}
	burst := func(at float64) {
		for i := int(at * rate); i < int((at+0.03)*rate); i++ {
			x[i] += 0.5 * rng.NormFloat64() * math.Exp(-(float64(i)/rate-at)/0.005)
		}
	}
	burst(1.0) // while the voice talks
	burst(2.2) // in a quiet room
	var got []*audio.Onset
	// Any sudden loud sound is a clap here: the test is of the features.
	judge := func(_ int64, f gesture.Features) gesture.Kind {
		if f.Sudden > 20 {
			return gesture.Clap
		}
		return gesture.Other
	}
	l := audio.NewListener(rate, audio.Config{Judge: judge}, func(e audio.Event) {
		if o, ok := e.(*audio.Onset); ok {
			got = append(got, o)
		}
	})
	l.Write(x)
	l.Close()
	near := func(at float64) *audio.Onset {
		for _, o := range got {
			if math.Abs(o.Time-at) < 0.02 {
				return o
			}
		}
		return nil
	}
	during, quiet := near(1.0), near(2.2)
	require.NotNil(t, during, "the burst during the voice is heard: %v", times(got))
	require.NotNil(t, quiet, "the burst in the quiet room is heard: %v", times(got))
	assert.Greater(t, during.Features.Voiced, 0.6, "most of the 300 ms before it were voiced")
	assert.Zero(t, quiet.Features.Voiced, "nobody talked for a second before it")
}

func times(os []*audio.Onset) []float64 {
	var t []float64
	for _, o := range os {
		t = append(t, math.Round(o.Time*1000)/1000)
	}
	return t
}
