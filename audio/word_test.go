package audio_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/audio"
	"github.com/tableref/tableref/audio/gesture"
)

// vowel adds a voice at pitch hz with a formant near 700 Hz to x from a to b
// seconds, at amplitude amp.
func vowel(x []float64, rate int, a, b, hz, amp float64) {
	for i := int(a * float64(rate)); i < int(b*float64(rate)) && i < len(x); i++ {
		tt := float64(i) / float64(rate)
		var v float64
		for h := 1; h*int(hz) < rate/2; h++ {
			f := hz * float64(h)
			v += (1/float64(h) + math.Exp(-math.Pow((f-700)/200, 2))) * math.Sin(2*math.Pi*f*tt)
		}
		// 10 ms fades, so the voice itself starts no onset of its own
		fade := math.Min(1, math.Min(tt-a, b-tt)/0.01)
		x[i] += amp * fade * v
	}
}

// burst adds a sharp noise burst at t seconds, decaying in about 5 ms.
func burst(x []float64, rate int, rng *rand.Rand, t, amp float64) {
	for i := int(t * float64(rate)); i < int((t+0.03)*float64(rate)); i++ {
		x[i] += amp * rng.NormFloat64() * math.Exp(-(float64(i)/float64(rate)-t)/0.005)
	}
}

// wordRun runs x through a Listener that takes the sounds starting within
// 10 ms of the times bangs for bangs (the test is of what follows a gesture,
// not of the network) and returns the gestures, the retractions and the
// codes.
func wordRun(t *testing.T, x []float64, rate int, bangs ...float64) (gest []*audio.Onset, back []*audio.Retract, codes []*audio.Code) {
	t.Helper()
	judge := func(at int64, _ gesture.Features) gesture.Kind {
		for _, b := range bangs {
			if math.Abs(float64(at)/float64(rate)-b) < 0.01 {
				return gesture.Bang
			}
		}
		return gesture.Other
	}
	// KeepAlone: these tests space their sounds seconds apart, and are
	// about words only.
	l := audio.NewListener(rate, audio.Config{Judge: judge, KeepAlone: true}, func(e audio.Event) {
		switch v := e.(type) {
		case *audio.Onset:
			if v.Kind.IsGesture() {
				gest = append(gest, v)
			}
		case *audio.Retract:
			back = append(back, v)
		case *audio.Code:
			codes = append(codes, v)
		}
	})
	for i := 0; i < len(x); i += 512 {
		l.Write(x[i:min(i+512, len(x))])
	}
	l.Close()
	return gest, back, codes
}

// TestAWordsFirstBurstIsTakenBack: a bang-like burst that runs at once into
// a voice louder than itself is a shouted word's first consonant. It is
// reported as a gesture first (within the usual latency), then taken back,
// and the code counts only the real bangs before it.
func TestAWordsFirstBurstIsTakenBack(t *testing.T) {
	const rate = 16000
	rng := rand.New(rand.NewPCG(5, 6))
	x := roomNoise(rng, 5*rate, 0.001)
	burst(x, rate, rng, 0.5, 0.4) // two real bangs
	burst(x, rate, rng, 1.0, 0.4)
	burst(x, rate, rng, 1.8, 0.05) // a word: its burst, then its voice at once
	vowel(x, rate, 1.83, 2.4, 150, 0.02)
	gest, back, codes := wordRun(t, x, rate, 0.5, 1.0, 1.8)
	require.Len(t, gest, 3, "the word's burst is heard as a gesture first")
	require.Len(t, back, 1)
	assert.InDelta(t, 1.8, back[0].Time, 0.01)
	assert.Equal(t, gest[2].Sample, back[0].Sample)
	assert.Equal(t, gesture.Bang, back[0].Kind)
	assert.Less(t, back[0].Emitted-back[0].Sample, int64(0.5*rate), "taken back within half a second")
	require.Len(t, codes, 1)
	assert.Equal(t, 2, codes[0].Bangs)
	assert.InDelta(t, 1.0, codes[0].End, 0.01)
}

// TestAHandsSoundIsNotAWord: a thump that rings with a pitch but dies away,
// a bang with a word shouted after it has died away, and a bang struck
// while a quiet voice goes on are all kept.
func TestAHandsSoundIsNotAWord(t *testing.T) {
	const rate = 16000
	rng := rand.New(rand.NewPCG(7, 8))
	x := roomNoise(rng, 8*rate, 0.001)
	// a ringing thump: a burst, then a 180 Hz ring with harmonics dying away
	burst(x, rate, rng, 0.5, 0.4)
	for i := int(0.5 * rate); i < int(1.0*rate); i++ {
		tt := float64(i)/rate - 0.5
		x[i] += 0.2 * math.Exp(-tt/0.08) * (math.Sin(2*math.Pi*180*tt) + 0.3*math.Sin(2*math.Pi*1260*tt))
	}
	// a soft bang, then a louder word once it has died away
	burst(x, rate, rng, 3.0, 0.1)
	vowel(x, rate, 3.2, 3.9, 150, 0.08)
	// a bang over a quiet voice
	vowel(x, rate, 5.5, 6.8, 130, 0.004)
	burst(x, rate, rng, 6.0, 0.3)
	gest, back, _ := wordRun(t, x, rate, 0.5, 3.0, 6.0)
	require.Len(t, gest, 3)
	for _, b := range back {
		t.Logf("taken back: %.3f", b.Time)
	}
	assert.Empty(t, back, "no hand's sound is taken back")
}

// TestTheRoomsChatterNeitherEndsNorTakesACode: a code banged while the room
// chats far under the bangs is heard whole; the same code with a player
// talking as loud as the bangs in its middle is cut there: the talk ends the
// code, and a soft knock heard in the talk counts for no code.
func TestTheRoomsChatterNeitherEndsNorTakesACode(t *testing.T) {
	const rate = 16000
	bangs := []float64{0.5, 0.9, 1.7, 2.1}
	run := func(voiceAmp float64) []*audio.Code {
		rng := rand.New(rand.NewPCG(9, 10))
		x := roomNoise(rng, 5*rate, 0.001)
		for _, b := range bangs {
			amp := 0.4
			if b == 1.7 {
				amp = 0.1 // the soft one, during the voices
			}
			burst(x, rate, rng, b, amp)
		}
		vowel(x, rate, 1.2, 1.9, 140, voiceAmp) // voices for 0.7 s
		_, _, codes := wordRun(t, x, rate, bangs...)
		for _, c := range codes {
			t.Logf("voices at %g: code %.2f-%.2f %s", voiceAmp, c.Start, c.End, c.Order)
		}
		return codes
	}
	chatter := run(0.003) // about 35 dB under the bangs' peaks
	require.Len(t, chatter, 1, "the room's chatter does not split the code")
	assert.Equal(t, 4, chatter[0].Bangs, "nor does it take a bang")

	talk := run(0.2) // as loud as the bangs
	require.Len(t, talk, 2)
	assert.Equal(t, "BB", talk[0].Order, "talk as loud as the bangs ends the code")
	assert.InDelta(t, 0.9, talk[0].End, 0.01)
	assert.Equal(t, "B", talk[1].Order, "the knock heard in the talk counts for no code")
	assert.InDelta(t, 2.1, talk[1].Start, 0.01)
}

// TestFinalReportsOnlyWhatStands: with Config.Final (a file), a word's first
// burst and a gesture left alone are never reported and nothing is
// retracted; every other event is reported as live, in the same order, with
// the same content.
func TestFinalReportsOnlyWhatStands(t *testing.T) {
	const rate = 16000
	rng := rand.New(rand.NewPCG(11, 12))
	x := roomNoise(rng, 7*rate, 0.001)
	burst(x, rate, rng, 0.5, 0.4)
	burst(x, rate, rng, 1.0, 0.4)
	burst(x, rate, rng, 1.8, 0.05) // a word's burst, then its voice
	vowel(x, rate, 1.83, 2.4, 150, 0.02)
	burst(x, rate, rng, 4.0, 0.4) // a second code: a bang, then a word's burst at once
	burst(x, rate, rng, 4.3, 0.05)
	vowel(x, rate, 4.33, 4.9, 150, 0.02)
	bangs := []float64{0.5, 1.0, 1.8, 4.0, 4.3}
	judge := func(at int64, _ gesture.Features) gesture.Kind {
		for _, b := range bangs {
			if math.Abs(float64(at)/float64(rate)-b) < 0.01 {
				return gesture.Bang
			}
		}
		return gesture.Other
	}
	run := func(final bool) []audio.Event {
		var evs []audio.Event
		l := audio.NewListener(rate, audio.Config{Judge: judge, Final: final}, func(e audio.Event) { evs = append(evs, e) })
		for i := 0; i < len(x); i += 512 {
			l.Write(x[i:min(i+512, len(x))])
		}
		l.Close()
		return evs
	}
	live, final := run(false), run(true)

	taken := map[int64]bool{}
	var why []string
	for _, e := range live {
		if r, ok := e.(*audio.Retract); ok {
			taken[r.Sample] = true
			why = append(why, fmt.Sprintf("%.2f alone=%v", r.Time, r.Alone))
		}
	}
	require.Equal(t, []string{"1.80 alone=false", "4.30 alone=false", "4.00 alone=true"}, why,
		"live, both words' bursts are heard, then taken back, and so is the bang left alone by the second")
	var want []audio.Event
	for _, e := range live {
		switch v := e.(type) {
		case *audio.Retract:
			continue
		case *audio.Onset:
			if v.Kind.IsGesture() && taken[v.Sample] {
				continue
			}
		}
		want = append(want, e)
	}
	require.Equal(t, want, final, "final: the live events less the retracted gestures and their retractions")

	var gest []float64
	var codes []string
	for _, e := range final {
		switch v := e.(type) {
		case *audio.Onset:
			if v.Kind.IsGesture() {
				gest = append(gest, math.Round(v.Time*100)/100)
			}
		case *audio.Code:
			codes = append(codes, v.Order)
		}
	}
	assert.Equal(t, []float64{0.5, 1.0}, gest)
	assert.Equal(t, []string{"BB"}, codes)
}

// TestAShortLouderWordIsTakenBack: a word cut short (a noise gate closing,
// a one-syllable shout) is voiced for less than WordVoicedFrames, but its
// voice begins at once and grows WordLouder dB or more over its burst: it is
// taken back too. The same short voice no louder than the burst leaves the
// gesture standing.
func TestAShortLouderWordIsTakenBack(t *testing.T) {
	const rate = 16000
	run := func(voiceAmp float64) []*audio.Retract {
		rng := rand.New(rand.NewPCG(13, 14))
		x := roomNoise(rng, 4*rate, 0.001)
		burst(x, rate, rng, 0.5, 0.4) // a real bang
		burst(x, rate, rng, 1.8, 0.05)
		vowel(x, rate, 1.845, 1.945, 150, voiceAmp) // 100 ms of voice, then nothing
		_, back, _ := wordRun(t, x, rate, 0.5, 1.8)
		return back
	}
	back := run(0.05)
	require.Len(t, back, 1, "a short voice, far louder than the burst: a word")
	assert.InDelta(t, 1.8, back[0].Time, 0.01)
	assert.Empty(t, run(0.004), "a short voice no louder than the burst: the gesture stands")
}
