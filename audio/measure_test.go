package audio

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/audio/gesture"
	"github.com/tableref/tableref/audio/internal/level"
)

// soundAt is a hit (see hit) at rate Hz with gesture.Before of room at
// -60 dBFS before it, or of digital silence when holed; it returns the
// samples and the onset's index.
func soundAt(seed uint64, rate int, amp float64, holed bool) ([]float64, int) {
	rng := rand.New(rand.NewPCG(seed, 3))
	at := int(gesture.Before * float64(rate))
	x := make([]float64, at)
	if !holed {
		for i := range x {
			x[i] = 0.001 * rng.NormFloat64()
		}
	}
	return append(x, hit(rng, rate, amp, 0)...), at
}

func noBehind(int64) (float64, bool) { return 0, false }

// A sound over the room is measured as it is, against the room's floor.
func TestTheFeatureStageMeasuresASoundOverTheRoom(t *testing.T) {
	const rate = 16000
	s := newFeatureStage(rate)
	x, at := soundAt(1, rate, 0.3, false)
	orig := append([]float64(nil), x...)
	snd := s.hear(x, at, 1000, func(int64) (float64, bool) { t.Fatal("no room is asked for"); return 0, false })
	assert.False(t, snd.holed)
	f := s.measure(snd, featureContext{Floor: -62, Voiced: 0.4}, 0)
	var an gesture.Analyzer
	want := an.Measure(orig, at, rate)
	assert.Equal(t, want.Level, f.Level, "the Analyzer's features")
	assert.Equal(t, want.Centroid, f.Centroid)
	assert.Equal(t, f.Level+62, f.Above, "Above the floor it was told")
	assert.Equal(t, 0.4, f.Voiced, "the voiced share it was told")
	assert.Equal(t, orig, x, "the samples are not changed")
}

// After digital silence, a sound is measured against the room as last
// heard (or RoomUnknownDB): the silence is filled with noise at that level,
// for measuring only.
func TestTheFeatureStageFillsDigitalSilenceWithTheRoom(t *testing.T) {
	const rate = 16000
	for _, room := range []float64{-50, RoomUnknownDB} {
		s := newFeatureStage(rate)
		x, at := soundAt(2, rate, 0.3, true)
		orig := append([]float64(nil), x...)
		var asked []int64
		behind := func(from int64) (float64, bool) {
			asked = append(asked, from)
			return room, room != RoomUnknownDB
		}
		snd := s.hear(x, at, 1234, behind)
		require.True(t, snd.holed)
		assert.Equal(t, []int64{1234}, asked, "the room behind the silence from the sound's first sample")
		assert.Equal(t, room, snd.roomDB)
		assert.InDelta(t, room, level.DB(level.MeanSquare(snd.x[:at])), 1, "the silence filled at the room's level")
		assert.Equal(t, orig[at:], snd.x[at:], "the sound itself is as it was")
		assert.Equal(t, orig, x, "the stream's samples are not changed")
		f := s.measure(snd, featureContext{Floor: -90}, 0)
		assert.Equal(t, f.Level-room, f.Above, "Above the room it was measured against, not the floor")
		assert.Less(t, f.Sudden, f.Level-room+10, "risen from the room, not from nothing")
	}
}

// A telephone line the sound server resampled up is measured as the line
// itself sounds, at about 8 kHz: a burst of white noise is dark there.
func TestTheFeatureStageMeasuresATelephoneLineAtItsOwnRate(t *testing.T) {
	const rate = 48000
	s := newFeatureStage(rate)
	x, at := soundAt(3, rate, 0.3, false)
	wide := s.measure(s.hear(x, at, 0, noBehind), featureContext{}, 0)
	narrow := s.measure(s.hear(x, at, 0, noBehind), featureContext{Narrow: true}, 0)
	assert.Greater(t, wide.Centroid, 3000.0, "white noise heard in full")
	assert.Less(t, narrow.Centroid, 2000.0, "the same through the line's 4 kHz")
	assert.InDelta(t, wide.Level-10*math.Log10(24.0/3.6), narrow.Level, 2, "the line carries the sixth of white noise's power under 3.6 kHz")
}

// A sound that rose too little to be a gesture is not measured in full (no
// predictor, no pitch), unless the rise asked for is that little: the
// repeat rule measures a bang landing on the ringing of the last so.
func TestTheFeatureStageMeasuresInFullFromTheRiseAskedFor(t *testing.T) {
	const rate = 16000
	rng := rand.New(rand.NewPCG(4, 5))
	at := int(gesture.Before * rate)
	x := make([]float64, at+int(gesture.After*rate)+rate/100)
	for i := range x {
		g := 0.01
		if i >= at {
			g = 0.01 * math.Pow(10, 5.0/20) // 5 dB up: its loudest millisecond about 7 dB, under MinRise and over RepeatRise
		}
		x[i] = g * rng.NormFloat64()
	}
	s := newFeatureStage(rate)
	snd := s.hear(x, at, 0, noBehind)
	plain := s.measure(snd, featureContext{}, 0)
	require.False(t, plain.Considered())
	require.GreaterOrEqual(t, plain.Sudden, gesture.RepeatRise)
	assert.Zero(t, plain.Surprise, "not measured in full")
	assert.Zero(t, plain.Pitch)
	full := s.measure(snd, featureContext{}, gesture.RepeatRise)
	assert.NotZero(t, full.Surprise, "measured in full")
	assert.NotZero(t, full.Pitch)
	assert.Equal(t, plain.Level, full.Level)
	again := s.measure(snd, featureContext{}, 0)
	assert.Equal(t, plain, again, "the rise asked for holds for that measure only")
}
