package audio

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/tableref/tableref/audio/gesture"
)

// hit is a gesture's sound as a microphone hears it, TailTo seconds long:
// a burst of noise at amp ringing down in about 20 ms, and, when rt60 > 0,
// a room's reverberation (noise decaying by 60 dB in rt60 seconds) carrying
// twice the burst's energy, over room noise at -60 dBFS.
func hit(rng *rand.Rand, rate int, amp, rt60 float64) []float64 {
	n := int(TailTo * float64(rate))
	x := make([]float64, n)
	var burst, tail float64
	b := make([]float64, n)
	r := make([]float64, n)
	for i := range x {
		t := float64(i) / float64(rate)
		b[i] = rng.NormFloat64() * math.Exp(-t/0.01)
		burst += b[i] * b[i]
		if rt60 > 0 {
			r[i] = rng.NormFloat64() * math.Pow(10, -3*t/rt60) * math.Min(1, t/0.005)
			tail += r[i] * r[i]
		}
	}
	for i := range x {
		x[i] = amp*b[i] + 0.001*rng.NormFloat64()
		if tail > 0 {
			x[i] += amp * r[i] * math.Sqrt(2*burst/tail)
		}
	}
	return x
}

// hear lets r measure n hits of amplitude 0.3 in a room of rt60 seconds
// (0: dry) at 16 kHz.
func hear(r *reverbWatch, rng *rand.Rand, n int, rt60 float64) {
	for range n {
		r.measure(hit(rng, 16000, 0.3, rt60), 16000, -60)
	}
}

func TestADryRoomKeepsTheFullMargin(t *testing.T) {
	r := newReverbWatch()
	hear(&r, rand.New(rand.NewPCG(1, 2)), 5, 0)
	assert.InDelta(t, gesture.Margin, r.margin(), 1e-9)
}

func TestAReverberantRoomLowersTheMargin(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	r := newReverbWatch()
	hear(&r, rng, 1, 1.0)
	assert.Less(t, r.margin(), gesture.Margin/2, "one hit in a hard-walled hall (RT60 1 s) tells it: drops %v", r.drops)
	hear(&r, rng, 3, 1.0)
	assert.InDelta(t, WetMargin, r.margin(), 1e-9, "drops %v", r.drops)
	assert.Negative(t, r.margin(), "a hit is named even when other is a little likelier")

	// the room is the median of the last hits: one dry-sounding hit does
	// not undo it, a run of them does
	hear(&r, rng, 1, 0)
	assert.InDelta(t, WetMargin, r.margin(), 1e-9)
	hear(&r, rng, ReverbGestures, 0)
	assert.InDelta(t, gesture.Margin, r.margin(), 1e-9)
}

func TestATailInTheNoiseIsDry(t *testing.T) {
	// A soft hit in a noisy room: its sound falls into the room's noise
	// long before TailFrom, so its drop is small, but the room is not
	// reverberant.
	const rate = 16000
	rng := rand.New(rand.NewPCG(5, 6))
	r := newReverbWatch()
	for range 3 {
		x := hit(rng, rate, 0.01, 0)
		for i := range x {
			x[i] += 0.003 * rng.NormFloat64() // the room, about -50 dBFS
		}
		r.measure(x, rate, level50(x))
	}
	assert.InDelta(t, gesture.Margin, r.margin(), 1e-9, "drops %v", r.drops)
}

// level50 is the level of the last half of x, dBFS: the room's floor there.
func level50(x []float64) float64 {
	var s float64
	for _, v := range x[len(x)/2:] {
		s += v * v
	}
	return 10 * math.Log10(s/float64(len(x)-len(x)/2))
}
