package audio_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/tableref/tableref/audio"
	"github.com/tableref/tableref/audio/gesture"
)

// aloneRun feeds x to a Listener whose judge names a bang every burst at
// the given times, and returns its events.
func aloneRun(x []float64, rate int, cfg audio.Config, bangs ...float64) []audio.Event {
	cfg.Judge = func(at int64, _ gesture.Features) gesture.Kind {
		for _, b := range bangs {
			if math.Abs(float64(at)/float64(rate)-b) < 0.01 {
				return gesture.Bang
			}
		}
		return gesture.Other
	}
	var evs []audio.Event
	l := audio.NewListener(rate, cfg, func(e audio.Event) { evs = append(evs, e) })
	for i := 0; i < len(x); i += 512 {
		l.Write(x[i:min(i+512, len(x))])
	}
	l.Close()
	return evs
}

// summary spells the events that matter here: "B0.50" a bang heard at
// 0.50 s, "-B0.50 alone" (or "word") one taken back, "code BB".
func summary(evs []audio.Event) []string {
	var s []string
	for _, e := range evs {
		switch v := e.(type) {
		case *audio.Onset:
			if v.Kind.IsGesture() {
				s = append(s, fmt.Sprintf("%c%.2f", v.Kind.Letter(), v.Time))
			}
		case *audio.Retract:
			why := "word"
			if v.Alone {
				why = "alone"
			}
			s = append(s, fmt.Sprintf("-%c%.2f %s", v.Kind.Letter(), v.Time, why))
		case *audio.Code:
			s = append(s, "code "+v.Order)
		}
	}
	return s
}

// TestAGestureAloneIsTakenBack: a code is two gestures or more, so a bang
// with no other within the gap before or after it is taken back once the
// gap has passed (live) or never reported (from a file), and is in no code.
// Two bangs just under the gap apart keep each other; just over it, neither
// stays. With KeepAlone every bang stays, each its own code.
func TestAGestureAloneIsTakenBack(t *testing.T) {
	const rate = 16000
	rng := rand.New(rand.NewPCG(21, 22))
	x := roomNoise(rng, 14*rate, 0.001)
	bangs := []float64{0.5, 3.0, 4.4, 7.0, 8.6, 12.8} // gap 1.5: 3.0 and 4.4 together; 7.0 and 8.6 not
	for _, b := range bangs {
		burst(x, rate, rng, b, 0.4)
	}

	live := aloneRun(x, rate, audio.Config{}, bangs...)
	assert.Equal(t, []string{
		"B0.50", "-B0.50 alone",
		"B3.00", "B4.40", "code BB",
		"B7.00", "-B7.00 alone", "B8.60", "-B8.60 alone",
		"B12.80", "-B12.80 alone", // the input ends: nothing more can come
	}, summary(live))
	for _, e := range live {
		if r, ok := e.(*audio.Retract); ok && r.Time < 12 {
			late := float64(r.Emitted-r.Sample) / rate
			assert.InDelta(t, audio.DefaultGap, late, 0.1, "the bang at %.2f is taken back once the gap has passed", r.Time)
		}
	}

	final := aloneRun(x, rate, audio.Config{Final: true}, bangs...)
	assert.Equal(t, []string{"B3.00", "B4.40", "code BB"}, summary(final))

	keep := aloneRun(x, rate, audio.Config{KeepAlone: true, Final: true}, bangs...)
	assert.Equal(t, []string{"B0.50", "code B", "B3.00", "B4.40", "code BB", "B7.00", "code B", "B8.60", "code B", "B12.80", "code B"}, summary(keep))
}

// TestAWordKeepsNoGestureCompany: a bang followed within the gap only by a
// word's first burst (taken back) is alone.
func TestAWordKeepsNoGestureCompany(t *testing.T) {
	const rate = 16000
	rng := rand.New(rand.NewPCG(23, 24))
	x := roomNoise(rng, 5*rate, 0.001)
	burst(x, rate, rng, 0.5, 0.4)
	burst(x, rate, rng, 1.3, 0.05) // a word: its burst, then its voice at once
	vowel(x, rate, 1.33, 1.9, 150, 0.02)
	assert.Equal(t, []string{"B0.50", "B1.30", "-B1.30 word", "-B0.50 alone"},
		summary(aloneRun(x, rate, audio.Config{}, 0.5, 1.3)))
	assert.Empty(t, summary(aloneRun(x, rate, audio.Config{Final: true}, 0.5, 1.3)))
}

// TestAGestureJudgedLateStillKeepsCompany: a sound that starts within the
// gap of a gesture alone but is judged after the gap has passed (the
// stream's last sound, judged when the input ends) still keeps it company.
func TestAGestureJudgedLateStillKeepsCompany(t *testing.T) {
	const rate = 16000
	rng := rand.New(rand.NewPCG(25, 26))
	x := roomNoise(rng, 4*rate, 0.001)
	burst(x, rate, rng, 0.5, 0.4)
	burst(x, rate, rng, 1.9, 0.4)
	x = x[:int(2.05*rate)] // the second is still being heard when the input ends
	assert.Equal(t, []string{"B0.50", "B1.90", "code BB"}, summary(aloneRun(x, rate, audio.Config{}, 0.5, 1.9)))
}

// TestGesturesTooCloseKeepNoCompany: two gestures under CompanyFrom apart
// are one sound heard twice, and both are taken back; a third at a
// gesture's pace after them keeps both.
func TestGesturesTooCloseKeepNoCompany(t *testing.T) {
	const rate = 16000
	rng := rand.New(rand.NewPCG(27, 28))
	x := roomNoise(rng, 7*rate, 0.001)
	bangs := []float64{0.5, 0.58, 3.0, 3.08, 3.5}
	for _, b := range bangs {
		burst(x, rate, rng, b, 0.4)
	}
	assert.Equal(t, []string{"B3.00", "B3.08", "B3.50", "code BBB"},
		summary(aloneRun(x, rate, audio.Config{Final: true}, bangs...)))
	assert.Equal(t, []string{"B0.50", "B0.58", "-B0.50 alone", "-B0.58 alone", "B3.00", "B3.08", "B3.50", "code BBB"},
		summary(aloneRun(x, rate, audio.Config{}, bangs...)))
}
