package gesture

import (
	"math"
	"math/rand"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const rate = 44100

// sound returns 60 ms of a quiet room with a sound starting at 30 ms.
func sound(gen func(t float64, rng *rand.Rand) float64) ([]float64, int) {
	rng := rand.New(rand.NewSource(7))
	x := make([]float64, int(0.06*rate))
	on := int(0.03 * rate)
	for i := range x {
		x[i] = 0.0005 * rng.NormFloat64()
		if i >= on {
			x[i] += gen(float64(i-on)/rate, rng)
		}
	}
	return x, on
}

// clap: a burst of air noise, resonant near 1.5 kHz, gone in about 10 ms.
func clap(t float64, rng *rand.Rand) float64 {
	return 0.4 * rng.NormFloat64() * math.Exp(-t/0.006) * (0.6 + 0.4*math.Sin(2*math.Pi*1500*t))
}

// bang: a short contact click and the table's low mode.
func bang(t float64, rng *rand.Rand) float64 {
	return 0.5*math.Sin(2*math.Pi*140*t)*math.Exp(-t/0.05) + 0.2*rng.NormFloat64()*math.Exp(-t/0.001)
}

// glass: a few inharmonic high partials ringing on.
func glass(t float64, _ *rand.Rand) float64 {
	return 0.2 * math.Exp(-t/0.4) * (math.Sin(2*math.Pi*2350*t) + 0.7*math.Sin(2*math.Pi*3710*t) + 0.5*math.Sin(2*math.Pi*5160*t))
}

// voice: a 160 Hz harmonic series with formants, swelling in.
func voice(t float64, _ *rand.Rand) float64 {
	var v float64
	for h := 1; h <= 25; h++ {
		f := 160 * float64(h)
		g := 1/float64(h) + 2*math.Exp(-math.Pow((f-800)/150, 2)) + math.Exp(-math.Pow((f-1900)/250, 2))
		v += g * math.Sin(2*math.Pi*f*t)
	}
	return 0.05 * v * math.Min(1, t/0.015)
}

func measure(gen func(float64, *rand.Rand) float64) Features {
	x, on := sound(gen)
	var a Analyzer
	return a.Measure(x, on, rate)
}

func TestHitsStartSuddenlyAndVoicesSwell(t *testing.T) {
	c, b, v := measure(clap), measure(bang), measure(voice)
	assert.Greater(t, c.Jump, 30.0, "a clap is at full strength in 3 ms")
	assert.Greater(t, b.Jump, 30.0)
	assert.Greater(t, c.Jump-c.Sudden, -10.0)
	assert.Greater(t, c.Jump, v.Jump+5, "a voice swells")
	assert.Less(t, c.Decay, 0.0, "a clap dies within 25 ms")
	assert.Less(t, c.AttackMs, 3.0)
	assert.Greater(t, v.AttackMs, 10.0)
}

func TestClapsAreBrightAndNoisyBangsAreDark(t *testing.T) {
	c, b := measure(clap), measure(bang)
	assert.Greater(t, c.Centroid, 800.0)
	assert.Less(t, b.Centroid, 500.0)
	assert.Greater(t, c.Flatness, b.Flatness)
	assert.Greater(t, b.Low, 0.5)
	assert.Less(t, c.Low, 0.2)
	assert.Less(t, c.Pitch, 0.5, "noise has no pitch")
	assert.Greater(t, b.Pitch, c.Pitch, "a table mode rings with one")
}

func TestGlassRingsInAFewPeaks(t *testing.T) {
	g, c := measure(glass), measure(clap)
	// a partial's main lobe in a 25 ms window is wider than the 3 bins
	// counted, so even pure partials give about 0.6
	assert.Greater(t, g.Tonal, 0.5)
	assert.Less(t, c.Tonal, 0.35)
	assert.Greater(t, g.Tonal, c.Tonal+0.25)
	assert.Greater(t, g.High, 0.3)
}

func TestAVoiceHasHarmonicsAndFormants(t *testing.T) {
	v, b := measure(voice), measure(bang)
	assert.Greater(t, v.Harmonic, 0.5, "partials at multiples of the pitch")
	assert.Less(t, b.Harmonic, v.Harmonic)
	assert.Greater(t, v.Formant, b.Formant+10, "a voice has power in the formant band")
}

func TestAboveIsLeftToTheCaller(t *testing.T) {
	f := measure(clap)
	assert.Zero(t, f.Above)
	assert.Greater(t, f.Level, -30.0)
}

func TestGentleSoundsAreNeverGestures(t *testing.T) {
	x := make([]float64, int(0.06*rate))
	for i := range x {
		x[i] = 0.01 * math.Sin(2*math.Pi*440*float64(i)/rate)
	}
	var a Analyzer
	f := a.Measure(x, len(x)/2, rate)
	assert.Less(t, f.Sudden, MinRise)
	assert.False(t, f.Considered())
	assert.Zero(t, f.Surprise, "the rest of the features are not worked out")
	assert.Equal(t, Other, Classify(f))
}

func TestAClapOnALoudRingingDrumIsConsidered(t *testing.T) {
	c := over(func(t float64, rng *rand.Rand) float64 { return 0.1 * clap(t, rng) })
	assert.Less(t, c.Sudden, MinRise, "the whole level hardly moves")
	assert.True(t, c.Considered(), "but the highs rise: %+v", c)
}

func TestMeasureSurvivesShortAndEmptyInput(t *testing.T) {
	var a Analyzer
	assert.NotPanics(t, func() {
		a.Measure(nil, 0, rate)
		a.Measure(make([]float64, 10), 5, rate)
		a.Measure(make([]float64, 3000), 2999, rate)
		a.Measure(make([]float64, 3000), -1, rate)
	})
}

// ringing: the low mode of a drum struck 200 ms before, still ringing loud.
func ringing(t float64) float64 {
	return 0.15 * math.Sin(2*math.Pi*110*(t+0.2)) * math.Exp(-(t+0.2)/0.4)
}

// over measures a sound starting at 30 ms over a drum that rings throughout.
func over(gen func(float64, *rand.Rand) float64) Features {
	var a Analyzer
	return overWith(&a, gen)
}

// overWith is over with the Analyzer a.
func overWith(a *Analyzer, gen func(float64, *rand.Rand) float64) Features {
	rng := rand.New(rand.NewSource(7))
	x := make([]float64, int(0.06*rate))
	on := int(0.03 * rate)
	for i := range x {
		t := float64(i-on) / rate
		x[i] = 0.0005*rng.NormFloat64() + ringing(t)
		if gen != nil && i >= on {
			x[i] += gen(t, rng)
		}
	}
	f := a.Measure(x, on, rate)
	if gen == nil {
		// The ringing alone never passes the gate: ask the predictor
		// directly what it makes of it.
		f.Surprise, _ = a.surprise(x, 0, on, int(predictMs*rate/1000), rate/1000, predictOrder)
	}
	return f
}

func TestAClapOverARingingDrumIsMeasuredWithoutTheRinging(t *testing.T) {
	c := over(clap)
	alone := measure(clap)
	assert.Greater(t, c.Centroid, 800.0, "what the onset brought is bright, though the mix is dark")
	assert.Less(t, c.Low, 0.2)
	assert.InDelta(t, alone.Centroid, c.Centroid, 0.3*alone.Centroid)
	assert.Greater(t, c.RiseHigh, 20.0, "the highs jump")
	assert.Less(t, c.RiseLow, 10.0, "the lows were already ringing")
	assert.Less(t, c.Fresh, alone.Fresh)
	assert.InDelta(t, 1.0, alone.Fresh, 0.05, "after a quiet room, all of it is new")
}

func TestAHitOnARingingDrumIsASurpriseAndTheRingingIsNot(t *testing.T) {
	hit := over(func(t float64, rng *rand.Rand) float64 { return 0.3 * bang(t, rng) })
	ring := over(nil)
	assert.Greater(t, hit.Surprise, 15.0, "the new hit cannot be foreseen from the ringing")
	assert.Greater(t, hit.SurpriseLow, 10.0)
	assert.Less(t, ring.Surprise, 6.0, "the ringing goes on as foreseen")
	alone := measure(bang)
	assert.Greater(t, alone.Surprise, 30.0, "a hit in a quiet room")
}

// A bang of a run landing on the ringing of the one before may lift the
// level by less than MinRise: with Rise set, such an onset is measured in
// full (for Repeats); without, it is left at its levels.
func TestAnAnalyzerWithRiseMeasuresAGentleHitInFull(t *testing.T) {
	var found bool
	for k := 0.02; k < 0.3; k *= 1.1 {
		hit := func(t float64, rng *rand.Rand) float64 { return k * bang(t, rng) }
		var plain Analyzer
		f := overWith(&plain, hit)
		if f.Considered() || f.Sudden < RepeatRise {
			continue
		}
		found = true
		assert.Zero(t, f.Surprise, "k=%.3f: not Considered, not measured in full", k)
		full := Analyzer{Rise: RepeatRise}
		g := overWith(&full, hit)
		assert.Equal(t, f.Sudden, g.Sudden, "k=%.3f: the levels are the same", k)
		assert.Greater(t, g.Centroid, 0.0, "k=%.3f: measured in full", k)
		assert.NotZero(t, g.Surprise, "k=%.3f: measured in full", k)
		assert.False(t, g.Considered(), "k=%.3f: still not a gesture for Classify", k)
		assert.Equal(t, Other, Classify(g))
	}
	require.True(t, found, "some hit over the ringing rises by RepeatRise to MinRise")
}

func TestLowBandKeepsTheLowsAndDropsTheHighs(t *testing.T) {
	x := make([]float64, rate/10)
	for i := range x {
		tt := float64(i) / rate
		x[i] = math.Sin(2*math.Pi*150*tt) + math.Sin(2*math.Pi*4000*tt)
	}
	var a Analyzer
	low, k := a.lowBand(x, rate)
	assert.Equal(t, rate/lowRate, k)
	// after the filter settles, only the 150 Hz tone (power 0.5) is left
	var p float64
	tail := low[len(low)/2:]
	for _, v := range tail {
		p += v * v
	}
	assert.InDelta(t, 0.5, p/float64(len(tail)), 0.05)
}
