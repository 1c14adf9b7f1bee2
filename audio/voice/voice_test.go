package voice

import (
	"math"
	"math/rand"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const rate = 16000

// vowel is a voice-like sound: a 150 Hz harmonic series shaped by two
// formants, with a little pitch wobble, from start for dur seconds.
func vowel(x []float64, start, dur float64) {
	phase := 0.0
	for i := int(start * rate); i < int((start+dur)*rate) && i < len(x); i++ {
		t := float64(i)/rate - start
		f0 := 150 * (1 + 0.03*math.Sin(2*math.Pi*4*t))
		phase += 2 * math.Pi * f0 / rate
		var v float64
		for h := 1; h <= 20; h++ {
			f := float64(h) * f0
			g := 1/float64(h) + 2*math.Exp(-math.Pow((f-700)/150, 2)) + 1.5*math.Exp(-math.Pow((f-1800)/250, 2))
			v += g * math.Sin(float64(h)*phase)
		}
		x[i] += 0.05 * v * math.Min(1, t/0.02)
	}
}

// ring is a struck drum: a 120 Hz mode dying away, struck every 0.5 s.
func ring(x []float64) {
	for i := range x {
		t := math.Mod(float64(i)/rate, 0.5)
		x[i] += 0.5 * math.Sin(2*math.Pi*120*t) * math.Exp(-t/0.15)
	}
}

func changes(x []float64) ([]Change, *Detector) {
	d := NewDetector(rate)
	var out []Change
	for i := 0; i < len(x); i += 256 {
		d.Push(x[i:min(i+256, len(x))], nil, func(c Change) { out = append(out, c) })
	}
	return out, d
}

func noise(n int, amp float64, seed int64) []float64 {
	rng := rand.New(rand.NewSource(seed))
	x := make([]float64, n)
	for i := range x {
		x[i] = amp * rng.NormFloat64()
	}
	return x
}

func TestAVoiceStartsAndStopsTalk(t *testing.T) {
	x := noise(4*rate, 0.001, 1)
	vowel(x, 1.0, 1.5)
	cs, _ := changes(x)
	require.Len(t, cs, 2, "%v", cs)
	assert.True(t, cs[0].Active)
	assert.InDelta(t, 1.0, float64(cs[0].At)/rate, 0.08, "talk starts where the voice does")
	assert.False(t, cs[1].Active)
	assert.InDelta(t, 2.5, float64(cs[1].At)/rate, 0.08, "and stops where it ends")
}

func TestPitchOfAVoice(t *testing.T) {
	x := noise(2*rate, 0.001, 2)
	vowel(x, 0.2, 1.5)
	d := NewDetector(rate)
	var pitches []float64
	d.Push(x, func(f Frame, voiced bool) {
		if voiced {
			pitches = append(pitches, f.PitchHz)
		}
	}, nil)
	require.NotEmpty(t, pitches)
	for _, p := range pitches {
		assert.InDelta(t, 150, p, 12)
	}
}

func TestARingingDrumIsNotAVoice(t *testing.T) {
	x := noise(4*rate, 0.001, 3)
	ring(x)
	cs, _ := changes(x)
	assert.Empty(t, cs, "a drum rings with a pitch but dies away, without formants")
}

func TestNoiseIsNotAVoice(t *testing.T) {
	cs, _ := changes(noise(4*rate, 0.1, 4))
	assert.Empty(t, cs)
}

func TestAVoiceOverARingingDrum(t *testing.T) {
	x := noise(5*rate, 0.001, 5)
	ring(x)
	vowel(x, 2.0, 1.5)
	cs, _ := changes(x)
	require.NotEmpty(t, cs)
	assert.InDelta(t, 2.0, float64(cs[0].At)/rate, 0.1)
}

func TestEveryRateAgrees(t *testing.T) {
	for _, r := range []int{8000, 22050, 44100, 48000, 96000} {
		x := make([]float64, 3*r)
		// the same vowel, rendered at rate r
		phase := 0.0
		for i := r; i < 2*r; i++ {
			phase += 2 * math.Pi * 150 / float64(r)
			for h := 1; h <= 12; h++ {
				x[i] += 0.05 / float64(h) * math.Sin(float64(h)*phase) * (1 + 2*math.Exp(-math.Pow((float64(h)*150-1500)/300, 2)))
			}
		}
		d := NewDetector(r)
		var cs []Change
		d.Push(x, nil, func(c Change) { cs = append(cs, c) })
		require.NotEmpty(t, cs, "rate %d", r)
		assert.InDelta(t, 1.0, float64(cs[0].At)/float64(r), 0.08, "rate %d", r)
	}
}
