package audio

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bursts is seconds of room noise at -60 dBFS at rate Hz with a burst of
// noise at amp, dying away in about 10 ms, starting at each of at (seconds).
func bursts(seed uint64, rate int, seconds, amp float64, at ...float64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 1))
	x := make([]float64, int(seconds*float64(rate)))
	for i := range x {
		x[i] = 0.001 * rng.NormFloat64()
	}
	for _, a := range at {
		s := int(a * float64(rate))
		for i := s; i < min(len(x), s+rate/10); i++ {
			x[i] += amp * rng.NormFloat64() * math.Exp(-float64(i-s)/(0.01*float64(rate)))
		}
	}
	return x
}

// sightings runs x through a new onset stage a hop at a time, as the
// Listener does, and returns what it saw and how many analysis frames it
// handed on.
func sightings(x []float64, rate int) (seen []sighting, frames int) {
	s := newOnsetStage(rate, DefaultThreshold)
	h := history{keep: rate / 4}
	for len(x) > 0 {
		k := min(s.hop(), len(x))
		h.append(x[:k])
		s.push(x[:k], &h, func([]float64) { frames++ }, func(g sighting) { seen = append(seen, g) })
		x = x[k:]
	}
	return seen, frames
}

// The onset stage sees each sound start, placed in the waveform to a
// couple of milliseconds, at any rate (faster input is decimated first);
// the steady room between them is no strong sound starting.
func TestTheOnsetStageSeesEachSoundStart(t *testing.T) {
	at := []float64{0.5, 1.1, 1.45, 2.3}
	for _, rate := range []int{8000, 16000, 44100, 48000} {
		x := bursts(1, rate, 3, 0.3, at...)
		seen, frames := sightings(x, rate)
		arate, n, hop := newOnsetStage(rate, DefaultThreshold).analysis()
		assert.InDelta(t, (len(x)*arate/rate-n)/hop+1, frames, 2, "rate %d: a frame every hop", rate)
		for _, a := range at {
			strongest := 0.0
			for _, s := range seen {
				if d := float64(s.on)/float64(rate) - a; d > -0.002 && d < 0.002 {
					strongest = math.Max(strongest, s.strength)
				}
			}
			assert.Greater(t, strongest, 5.0, "rate %d: the burst at %.2f s is seen starting, strongly (seen %v)", rate, a, seen)
		}
		for _, s := range seen {
			if s.strength < 2 {
				continue // a blip of the room's noise, which measuring sets aside (MinRise)
			}
			d := math.Inf(1)
			for _, a := range at {
				d = math.Min(d, math.Abs(float64(s.on)/float64(rate)-a))
			}
			assert.Less(t, d, 0.1, "rate %d: nothing starts in the room between the bursts (%v)", rate, s)
		}
	}
}

// A low thump's millisecond level dips at each zero crossing of its
// waveform; its start is found where it starts, not at its loudest
// millisecond nor at the last dip before it.
func TestTheOnsetStagePlacesALowThumpAtItsStart(t *testing.T) {
	const rate = 16000
	x := bursts(2, rate, 1, 0)
	start := rate / 2
	for i := start; i < len(x); i++ {
		dt := float64(i-start) / rate
		x[i] += 0.5 * math.Sin(2*math.Pi*90*dt) * math.Min(1, dt/0.004) * math.Exp(-dt/0.08)
	}
	seen, _ := sightings(x, rate)
	require.NotEmpty(t, seen)
	assert.InDelta(t, start, seen[0].on, 0.002*rate, "placed at the thump's start")
}

// judgedOf runs sightings through q as the Listener does, up to sample
// end, and returns the candidates judged, in order: every one judged a
// gesture when gesture is set, and a first sound found at level dBFS when
// it is looked at.
func judgedOf(q *candidates, gesture bool, end int64, level float64, seen ...sighting) []candidate {
	var out []candidate
	take := func(p *candidate) {
		if p != nil {
			out = append(out, *p)
			q.judged(gesture)
		}
	}
	stays := func(*candidate) bool { return true }
	lvl := func(*candidate) float64 { return level }
	for _, s := range seen {
		for pos := q.next(); pos >= 0 && pos <= s.on; pos = q.next() {
			take(q.due(pos, lvl))
		}
		take(q.sight(s, stays))
	}
	for pos := q.next(); pos >= 0 && pos <= end; pos = q.next() {
		take(q.due(pos, lvl))
	}
	return out
}

func ons(cs []candidate) []int64 {
	var on []int64
	for _, c := range cs {
		on = append(on, c.on)
	}
	return on
}

// One sound seen twice is judged once, at its stronger sighting; a sound is
// judged once gesture.After of it has been heard, or as soon as another
// starts.
func TestCandidatesJudgeEachSoundOnce(t *testing.T) {
	const rate = 16000
	q := newCandidates(rate)
	q.first = 0
	after := int64(0.025 * rate)
	spacing := int64(MinSpacing * rate)
	got := judgedOf(&q, true, 4*rate, -20,
		sighting{on: 8000, strength: 3},
		sighting{on: 8000 + spacing/4, strength: 9}, // the same sound, seen stronger
		sighting{on: 16000, strength: 5},
		sighting{on: 16000 + after/2, strength: 2}, // the same, weaker: forgotten
		sighting{on: 20000, strength: 5},
	)
	assert.Equal(t, []int64{8000 + spacing/4, 16000, 20000}, ons(got))
	for _, c := range got {
		assert.Equal(t, after, c.wait, "judged after gesture.After")
	}

	q = newCandidates(rate)
	q.first = 0
	p := q.sight(sighting{on: 8000, strength: 3}, nil)
	assert.Nil(t, p)
	assert.Equal(t, int64(8000)+after, q.next(), "due once After of it is heard")
	assert.Nil(t, q.due(8000+after-1, nil), "not yet")
	p = q.sight(sighting{on: 8000 + spacing, strength: 1}, nil)
	require.NotNil(t, p, "another sound starts: the first is judged at once")
	assert.Equal(t, int64(8000), p.on)
	assert.Equal(t, int64(8000+spacing), q.waiting())
}

// After a gesture, nothing within MinSpacing of it is a new sound; after a
// mere blip, a stronger sound is.
func TestCandidatesAfterAGestureIgnoreItsEchoes(t *testing.T) {
	const rate = 16000
	spacing := int64(MinSpacing * rate)
	for _, gest := range []bool{true, false} {
		q := newCandidates(rate)
		q.first = 0
		got := judgedOf(&q, gest, 4*rate, -20,
			sighting{on: 8000, strength: 3},
			sighting{on: 8000 + spacing*3/4, strength: 9}, // after the first was judged, within the spacing
		)
		if gest {
			assert.Equal(t, []int64{8000}, ons(got), "after a gesture")
		} else {
			assert.Equal(t, []int64{8000, 8000 + spacing*3/4}, ons(got), "after a blip")
		}
	}
}

// The stream's first sound is heard out for FirstWait before it is judged,
// unless it is far louder than any room's hiss; a sound later on is judged
// after gesture.After.
func TestCandidatesHearTheStreamsFirstSoundOut(t *testing.T) {
	const rate = 16000
	after, wait := int64(0.025*rate), int64(FirstWait*rate)
	q := newCandidates(rate)
	q.heard(make([]float64, 100), 0)
	q.heard(append(make([]float64, 10), 0.1), 100)
	require.Equal(t, int64(110), q.first, "the first sample that is not zero")

	quiet := judgedOf(&q, true, rate, -50, sighting{on: 200, strength: 3})
	require.Len(t, quiet, 1)
	assert.True(t, quiet[0].first)
	assert.Equal(t, wait, quiet[0].wait, "a quiet first sound is heard out")

	q = newCandidates(rate)
	q.first = 110
	loud := judgedOf(&q, true, rate, FirstLoudDB+1, sighting{on: 200, strength: 3})
	require.Len(t, loud, 1)
	assert.Equal(t, after, loud[0].wait, "a loud one is judged as any other")

	q = newCandidates(rate)
	q.first = 110
	later := judgedOf(&q, true, rate, -50, sighting{on: 110 + int64(FirstSpan*rate), strength: 3})
	require.Len(t, later, 1)
	assert.False(t, later[0].first, "a sound after FirstSpan is not the first")
	assert.Equal(t, after, later[0].wait)
}
