package audio_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/audio"
)

const docRate = 16000

// docRoom is seconds of room noise at -55 dBFS with a clap-like burst every
// 0.7 s.
func docRoom(seed uint64, seconds float64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 1))
	x := make([]float64, int(seconds*docRate))
	for i := range x {
		x[i] = 0.0018 * rng.NormFloat64()
		if k := i % (docRate * 7 / 10); k > docRate/3 && k < docRate/3+400 {
			x[i] += 0.3 * rng.NormFloat64() * math.Exp(-float64(k-docRate/3)/60)
		}
	}
	return x
}

// problems runs x through a Listener and returns every Mic report, and the
// kinds reported last.
func problems(t *testing.T, x []float64, cfg audio.Config) (reports []audio.Mic, last map[string]bool) {
	l := audio.NewListener(docRate, cfg, func(ev audio.Event) {
		if m, ok := ev.(*audio.Mic); ok {
			reports = append(reports, *m)
		}
	})
	for len(x) > 0 {
		n := min(len(x), 1000)
		l.Write(x[:n])
		x = x[n:]
	}
	l.Close()
	last = map[string]bool{}
	if len(reports) > 0 {
		for _, p := range reports[len(reports)-1].Problems {
			last[p.Kind] = true
			require.NotEmpty(t, p.Say)
		}
	}
	return reports, last
}

func TestAGoodMicrophoneIsNotCriticised(t *testing.T) {
	reports, _ := problems(t, docRoom(1, 25), audio.Config{})
	assert.Empty(t, reports)
}

func TestTheMicrophonesProblemsAreNamed(t *testing.T) {
	for _, c := range []struct {
		kind string
		make func() []float64
	}{
		{audio.MicSilent, func() []float64 {
			return append(docRoom(2, 2), make([]float64, 3*docRate)...)
		}},
		{audio.MicGated, func() []float64 {
			x := docRoom(3, 6)
			for i := range x { // everything but the bursts gated to zeros
				if k := i % (docRate * 7 / 10); k < docRate/3 || k > docRate/3+1200 {
					x[i] = 0
				}
			}
			return x
		}},
		{audio.MicClipped, func() []float64 {
			x := docRoom(4, 3)
			for i := range x {
				x[i] = max(-1, min(1, 8*x[i]))
			}
			return x
		}},
		{audio.MicQuiet, func() []float64 {
			x := docRoom(5, 22)
			for i := range x {
				x[i] *= 0.003
			}
			return x
		}},
		{audio.MicDC, func() []float64 {
			x := docRoom(6, 3)
			for i := range x {
				x[i] += 0.01
			}
			return x
		}},
		{audio.MicHum, func() []float64 {
			x := docRoom(7, 4)
			for i := range x {
				x[i] += 0.03 * math.Sin(2*math.Pi*60*float64(i)/docRate)
			}
			return x
		}},
	} {
		reports, last := problems(t, c.make(), audio.Config{})
		assert.True(t, last[c.kind], "%s: %+v", c.kind, reports)
	}
}

func TestAProblemThatGoesAwayIsSaidToBeGone(t *testing.T) {
	x := append(docRoom(8, 2), make([]float64, 2*docRate)...)
	x = append(x, docRoom(9, 3)...)
	reports, last := problems(t, x, audio.Config{})
	require.GreaterOrEqual(t, len(reports), 2, "%+v", reports)
	assert.Equal(t, audio.MicSilent, reports[0].Problems[0].Kind)
	assert.Empty(t, last, "fine again once sound comes back")
	assert.Empty(t, reports[len(reports)-1].Problems)
}

func TestChannelProblemsComeFromTheSource(t *testing.T) {
	for _, c := range []struct {
		kind string
		ch   []audio.ChannelState
	}{
		{audio.MicDead, []audio.ChannelState{{Level: -40}, {Level: -120, Dead: true}}},
		{audio.MicInverted, []audio.ChannelState{{Level: -40}, {Level: -41, Inverted: true}}},
		{audio.MicApart, []audio.ChannelState{{Level: -40, Apart: true}, {Level: -38}}},
	} {
		ch := c.ch
		reports, last := problems(t, docRoom(10, 4), audio.Config{Channels: func() []audio.ChannelState { return ch }})
		assert.True(t, last[c.kind], "%s: %+v", c.kind, reports)
	}
}

// TestAChannelIsNamedAgainstTheOneItWasJudgedBy: a copy of a channel has
// the same level, and either may be a fraction of a decibel the louder at
// a given moment; the message names the channel the mixer judged the other
// by, never a channel against itself.
func TestAChannelIsNamedAgainstTheOneItWasJudgedBy(t *testing.T) {
	ch := []audio.ChannelState{{Level: -40.2, Reference: true}, {Level: -40, Inverted: true}}
	reports, last := problems(t, docRoom(11, 4), audio.Config{Channels: func() []audio.ChannelState { return ch }})
	require.True(t, last[audio.MicInverted], "%+v", reports)
	for _, p := range reports[len(reports)-1].Problems {
		if p.Kind == audio.MicInverted {
			assert.Contains(t, p.Say, "Channel 2 is wired back to front against channel 1")
		}
	}
}
