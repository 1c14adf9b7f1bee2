package sound

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pitch estimates the main frequency of x by counting upward zero crossings.
func pitch(x []float32, rate int) float64 {
	n := 0
	for i := 1; i < len(x); i++ {
		if x[i-1] < 0 && x[i] >= 0 {
			n++
		}
	}
	return float64(n) / (float64(len(x)) / float64(rate))
}

func rms(x []float32) float64 {
	var s float64
	for _, v := range x {
		s += float64(v) * float64(v)
	}
	return math.Sqrt(s / float64(len(x)))
}

func TestEverySoundIsAudibleBoundedAndStartsAndEndsQuietly(t *testing.T) {
	for _, rate := range []int{8000, 44100, 48000} {
		for _, n := range Names() {
			x := Synth(n, rate)
			require.NotEmpty(t, x, "%s at %d", n, rate)
			assert.Greater(t, rms(x), 0.01, "%s is audible", n)
			for _, v := range x {
				require.True(t, v >= -1 && v <= 1, "%s stays in range", n)
			}
			assert.Less(t, math.Abs(float64(x[0])), 0.01, "%s fades in", n)
			assert.Less(t, math.Abs(float64(x[len(x)-1])), 0.01, "%s fades out", n)
		}
	}
}

func TestTheSoundsCanBeToldApart(t *testing.T) {
	const rate = 48000
	d := func(n Name) float64 { return float64(len(Synth(n, rate))) / rate }
	assert.InDelta(t, 0.006, d(Tick), 0.001, "a tick is a click")
	assert.InDelta(t, 0.6, d(Buzzer), 0.01)
	assert.Greater(t, d(Alarm), 2.0, "an alarm rings for a while")
	assert.InDelta(t, 150, pitch(Synth(Buzzer, rate), rate), 40, "the buzzer is low")
	assert.Greater(t, pitch(Synth(Alarm, rate)[:int(0.07*rate)], rate), 2000.0, "the alarm is shrill")
	chime := Synth(Chime, rate)
	first, second := chime[:int(0.25*rate)], chime[int(0.25*rate):]
	assert.Less(t, pitch(first, rate), pitch(second, rate), "the chime rises")
}

func TestNamesParseAndUnknownOnesSayWhatExists(t *testing.T) {
	n, err := Parse("Chime")
	require.NoError(t, err)
	assert.Equal(t, Chime, n)
	_, err = Parse("gong")
	require.Error(t, err)
	assert.Equal(t, `no sound "gong" (the sounds are alarm, buzzer, chime, tick)`, err.Error())
}

func TestARecorderKeepsWhatItWasAskedToPlay(t *testing.T) {
	var r Recorder
	var p Player = &r
	require.NoError(t, p.Play(Chime))
	require.NoError(t, p.Say("Cart, sit down!"))
	assert.Equal(t, []string{"sound:chime", "say:Cart, sit down!"}, r.Played)
	assert.NoError(t, Silent{}.Play(Alarm))
}

func TestOnAirKnowsWhenTheRefereesOwnSoundIsHeard(t *testing.T) {
	t0 := time.Date(2026, 11, 24, 21, 0, 0, 0, time.UTC)
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	var a OnAir
	assert.False(t, a.During(at(0), at(100)), "nothing played yet")
	end := a.Begin(at(10))
	assert.True(t, a.During(at(11), at(11)), "a sound still playing")
	assert.True(t, a.During(at(500), at(500)), "until it is said to end")
	assert.False(t, a.During(at(9), at(9.9)), "before it began")
	end(at(12))
	assert.True(t, a.During(at(12.2), at(12.2)), "its echo")
	assert.False(t, a.During(at(12.4), at(13)), "after the echo")
	assert.True(t, a.During(at(9), at(10.5)), "a span that overlaps it")
	a.Mark(at(20), at(20.5))
	assert.True(t, a.During(at(20.6), at(20.6)))
	assert.False(t, a.During(at(15), at(19.9)))

	var nilAir *OnAir
	assert.False(t, nilAir.During(at(0), at(1)), "no speaker, nothing in the air")
	quiet := OnAir{Echo: time.Second}
	quiet.Mark(at(0), at(1))
	assert.True(t, quiet.During(at(1.9), at(1.9)), "a longer echo for a ringing room")

	// Old sounds are forgotten.
	a.Mark(at(1000), at(1001))
	assert.Len(t, a.spans, 1)
}
