package learn

import (
	"bytes"
	"math/rand"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/audio/gesture"
	"github.com/tableref/tableref/audio/gesture/internal/table"
)

// toy makes examples of three kinds with the physics the real ones have:
// claps bright and noisy, bangs dark with a ring, others swelling slowly.
func toy(n int, seed int64) []table.Example {
	rng := rand.New(rand.NewSource(seed))
	var ex []table.Example
	for i := range n {
		var f gesture.Features
		y := i % 3
		j := func(v, s float64) float64 { return v + s*rng.NormFloat64() }
		switch y {
		case 0:
			f = gesture.Features{Jump: j(35, 5), Sudden: j(40, 5), Above: j(40, 5), AttackMs: j(2, 1), Decay: j(-8, 3),
				Centroid: j(1600, 300), Flatness: j(0.2, 0.05), Low: 0.02, High: 0.1, Pitch: j(0.2, 0.05), Tonal: 0.15, Formant: -2, Harmonic: 0.3}
		case 1:
			f = gesture.Features{Jump: j(30, 5), Sudden: j(40, 5), Above: j(40, 5), AttackMs: j(6, 3), Decay: j(-4, 2),
				Centroid: j(250, 80), Flatness: j(0.04, 0.02), Low: 0.8, High: 0.01, Pitch: j(0.5, 0.1), Tonal: 0.3, Formant: -20, Harmonic: 0.25}
		default:
			f = gesture.Features{Jump: j(10, 3), Sudden: j(18, 3), Above: j(25, 5), AttackMs: j(20, 3), Decay: j(4, 2),
				Centroid: j(500, 150), Flatness: j(0.02, 0.01), Low: 0.5, High: 0.02, Pitch: j(0.85, 0.05), Tonal: 0.4, Formant: -9, Harmonic: 0.6}
		}
		ex = append(ex, table.Example{F: f, X: f.Vector(), Y: y, Label: []string{"clap", "bang", "speech"}[y]})
	}
	return ex
}

var small = Settings{Members: 2, Hidden: 8, Epochs: 20, Batch: 32, L2: 1e-4, Rate: 0.01, Noise: 0.1, Seed: 3}

func TestFitIsDeterministic(t *testing.T) {
	ex := toy(300, 1)
	var a, b bytes.Buffer
	e1, err := Fit(ex, small)
	require.NoError(t, err)
	e2, err := Fit(ex, small)
	require.NoError(t, err)
	WriteGo(&a, "model", e1, []string{"toy"})
	WriteGo(&b, "model", e2, []string{"toy"})
	require.Greater(t, a.Len(), 1000)
	assert.Equal(t, a.String(), b.String(), "the same data and settings give the same weights")
	assert.Contains(t, a.String(), "DO NOT EDIT")
	assert.Contains(t, a.String(), "var model = Ensemble{")
}

func TestFitLearnsThePhysics(t *testing.T) {
	ens, err := Fit(toy(600, 2), small)
	require.NoError(t, err)
	require.Len(t, ens, small.Members)
	right := 0
	test := toy(300, 99)
	for _, e := range test {
		if ens.Classify(e.F) == table.Kind(e.Label) {
			right++
		}
	}
	assert.Greater(t, float64(right)/float64(len(test)), 0.95)
}

func TestGentleSoundsAreNotTrainedOn(t *testing.T) {
	ex := toy(30, 3)
	for i := range ex {
		ex[i].F.Sudden = gesture.MinRise - 1
		ex[i].F.RiseLow, ex[i].F.RiseHigh = gesture.MinRise-1, gesture.MinRise-2
	}
	_, err := Fit(ex, small)
	assert.ErrorContains(t, err, "have 0, 0 and 0")
}

// TestIgnoredInputsTurnNoVerdict: a network trained blind to the spectral
// balance gives the same probabilities whatever the centroid and the low
// and high shares say, and one trained seeing them does not.
func TestIgnoredInputsTurnNoVerdict(t *testing.T) {
	blind := small
	for _, n := range []string{"centroid", "low", "high"} {
		i := gesture.Input(n)
		require.GreaterOrEqual(t, i, 0, n)
		blind.Ignore = append(blind.Ignore, i)
	}
	ex := toy(300, 5)
	seeing, err := Fit(ex, small)
	require.NoError(t, err)
	blinded, err := Fit(ex, blind)
	require.NoError(t, err)
	moved := 0
	for _, e := range ex[:30] {
		f := e.F
		f.Centroid, f.Low, f.High = f.Centroid*8, 1-f.Low, 0.5-f.High
		assert.Equal(t, blinded.Probs(e.F.Vector()), blinded.Probs(f.Vector()), "a colour change turned the blind network")
		if seeing.Probs(e.F.Vector()) != seeing.Probs(f.Vector()) {
			moved++
		}
	}
	assert.Equal(t, 30, moved, "the seeing network reads the balance")
	for _, n := range blinded {
		for _, i := range blind.Ignore {
			for j := range n.W1 {
				require.Zero(t, n.W1[j][i], "an ignored input's weight")
			}
		}
	}
	_, err = Fit(ex, Settings{Members: 1, Hidden: 2, Epochs: 1, Batch: 8, Ignore: []int{gesture.Inputs}})
	assert.ErrorContains(t, err, "no input 20 to ignore")
}
