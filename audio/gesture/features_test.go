package gesture

import (
	"math"
	"math/rand"
	"testing"

	"github.com/stretchr/testify/assert"
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

func TestGentleSoundsSkipTheSpectrum(t *testing.T) {
	x := make([]float64, int(0.06*rate))
	for i := range x {
		x[i] = 0.01 * math.Sin(2*math.Pi*440*float64(i)/rate)
	}
	var a Analyzer
	f := a.Measure(x, len(x)/2, rate)
	assert.Less(t, f.Sudden, SpectralMinSudden)
	assert.Zero(t, f.Centroid)
	assert.Equal(t, Other, Classify(f))
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
