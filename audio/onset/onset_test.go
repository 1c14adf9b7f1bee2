package onset

import (
	"math"
	"math/rand"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFrameSizesKeepTheSameDurationAtEveryRate(t *testing.T) {
	for _, rate := range []int{8000, 11025, 16000, 22050, 24000, 32000, 44100, 48000, 96000, 192000} {
		n, hop := FrameSizes(rate)
		d := float64(n) / float64(rate)
		assert.InDelta(t, FrameSeconds, d, 0.15*FrameSeconds, "rate %d: frame %d", rate, n)
		assert.Equal(t, n/4, hop, "rate %d", rate)
		assert.True(t, smooth(n/4), "rate %d: frame %d must be 4 times a 2,3,5-smooth number", rate, n)
	}
}

func TestSTFTFindsASineInItsBin(t *testing.T) {
	const n, hop, k = 512, 128, 40
	s := NewSTFT(n, hop)
	x := make([]float64, 4*n)
	for i := range x {
		x[i] = math.Sin(2 * math.Pi * k * float64(i) / n)
	}
	frames := 0
	s.Push(x, func(f int64, p []float64) {
		frames++
		best := 0
		for i := range p {
			if p[i] > p[best] {
				best = i
			}
		}
		assert.Equal(t, k, best)
	})
	assert.Equal(t, 1+(len(x)-n)/hop, frames)
}

func TestSTFTDoesNotDependOnHowSamplesArrive(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	x := make([]float64, 3000)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	collect := func(chunk int) [][]float64 {
		s := NewSTFT(256, 64)
		var out [][]float64
		for i := 0; i < len(x); i += chunk {
			s.Push(x[i:min(i+chunk, len(x))], func(_ int64, p []float64) {
				out = append(out, append([]float64(nil), p...))
			})
		}
		return out
	}
	whole := collect(len(x))
	require.NotEmpty(t, whole)
	for _, chunk := range []int{1, 7, 64, 1000} {
		assert.Equal(t, whole, collect(chunk), "chunk %d", chunk)
	}
}

// flux runs x through an STFT and BandFlux and returns the descriptor per frame.
func flux(rate int, x []float64) []float64 {
	n, hop := FrameSizes(rate)
	s, b := NewSTFT(n, hop), NewBandFlux(rate, n, hop)
	var out []float64
	s.Push(x, func(_ int64, p []float64) { out = append(out, b.Next(p)) })
	return out
}

func maxOf(v []float64) float64 {
	m := math.Inf(-1)
	for _, x := range v {
		m = math.Max(m, x)
	}
	return m
}

func TestBandFluxIsQuietForSilenceAndSteadyNoise(t *testing.T) {
	const rate = 22050
	assert.Zero(t, maxOf(flux(rate, make([]float64, rate))))
	rng := rand.New(rand.NewSource(2))
	noise := make([]float64, 3*rate)
	for i := range noise {
		noise[i] = 0.01 * rng.NormFloat64()
	}
	f := flux(rate, noise)
	settled := f[len(f)/3:]
	assert.Less(t, maxOf(settled), 1.0, "steady noise must not look like onsets")
}

func TestBandFluxRisesForABurstAndForALowThump(t *testing.T) {
	const rate = 22050
	rng := rand.New(rand.NewSource(3))
	burst := make([]float64, rate)
	thump := make([]float64, rate)
	for i := rate / 2; i < rate/2+rate/50; i++ {
		burst[i] = 0.5 * rng.NormFloat64()
	}
	for i := rate / 2; i < rate; i++ { // a 110 Hz thump, as a laptop hears a table
		dt := float64(i-rate/2) / rate
		thump[i] = 0.5 * math.Sin(2*math.Pi*110*dt) * math.Exp(-dt/0.08)
	}
	assert.Greater(t, maxOf(flux(rate, burst)), 20.0)
	// a thump fills few bands but must still clear the default threshold
	assert.Greater(t, maxOf(flux(rate, thump)), 1.0)
}

func TestPickerMarksPeaksOneFrameLate(t *testing.T) {
	p := Picker{Threshold: 1}
	odf := []float64{0, 0, 0.5, 3, 1, 0, 0, 0.8, 0.9, 0.1, 0, 5, 5, 2, 0}
	var peaks []int
	for i, v := range odf {
		if ok, val := p.Next(v); ok {
			peaks = append(peaks, i-1)
			assert.Equal(t, odf[i-1], val)
		}
	}
	// 0.9 is below the threshold; of the plateau 5,5 only the first counts
	assert.Equal(t, []int{3, 11}, peaks)
}

func TestPickerRefractoryAndAdaptiveThreshold(t *testing.T) {
	p := Picker{Threshold: 1, Refractory: 3}
	var peaks []int
	for i, v := range []float64{0, 4, 0, 4, 0, 0, 0, 4, 0} {
		if ok, _ := p.Next(v); ok {
			peaks = append(peaks, i-1)
		}
	}
	assert.Equal(t, []int{1, 7}, peaks, "the peak at 3 falls in the refractory period")

	q := Picker{Threshold: 0.1, Ratio: 2, Window: 8}
	var got []int
	for i, v := range []float64{3, 2, 3, 2, 3, 2, 3, 2, 5, 2, 9, 0} {
		if ok, _ := q.Next(v); ok {
			got = append(got, i-1)
		}
	}
	assert.Equal(t, []int{10}, got, "only a peak well above the running median counts")
}
