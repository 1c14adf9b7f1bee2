package audio

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/audio/gesture"
)

// sounds are the features of a few made-up sounds at 16 kHz, heard over a
// room at -60 dBFS: bursts of noise (claps, more or less) and low thumps
// (bangs, more or less) at several levels.
func sounds(t *testing.T) []gesture.Features {
	const rate = 16000
	s := newFeatureStage(rate)
	var out []gesture.Features
	for i, amp := range []float64{0.03, 0.1, 0.3, 0.6} {
		x, at := soundAt(uint64(10+i), rate, amp, false)
		out = append(out, s.measure(s.hear(x, at, 0, noBehind), featureContext{Floor: -60}, 0))
		for _, hz := range []float64{70, 120, 200} {
			y := append([]float64(nil), x[:at]...)
			rng := rand.New(rand.NewPCG(uint64(i), uint64(hz)))
			for k := range int(0.2 * rate) {
				dt := float64(k) / rate
				y = append(y, amp*math.Sin(2*math.Pi*hz*dt)*math.Min(1, dt/0.002)*math.Exp(-dt/0.05)+0.001*rng.NormFloat64())
			}
			out = append(out, s.measure(s.hear(y, at, 0, noBehind), featureContext{Floor: -60}, 0))
		}
	}
	for _, f := range out {
		require.True(t, f.Considered(), "every sound rose enough to be judged")
	}
	return out
}

// gestureness is how much likelier a clap or bang is than "other" by
// network m: a sound is a gesture under a margin at most this.
func gestureness(m gesture.Ensemble, f gesture.Features) float64 {
	p := m.Probs(f.Vector())
	if p[0] >= p[1] {
		return p[0] - p[2]
	}
	return p[1] - p[2]
}

func context0() judgeContext {
	return judgeContext{Band: gesture.Wide, Margin: gesture.Margin, Last: lastGesture{on: -1}}
}

// Config.Judge names every onset from its first sample and features alone:
// no hall, no run of bangs; every gesture it names over the room counts
// for the loud room.
func TestAJudgeFromConfigIsToldTheSampleAndTheFeatures(t *testing.T) {
	var on []int64
	var seen []gesture.Features
	j := funcJudge(func(s int64, f gesture.Features) gesture.Kind {
		on, seen = append(on, s), append(seen, f)
		return gesture.Clap
	})
	f := sounds(t)[0]
	c := context0()
	c.On, c.Wet, c.Margin = 4321, 1, -1
	c.Last, c.Since = lastGesture{on: 1000, kind: gesture.Bang, level: f.Level}, 0.3
	c.Remeasure = func(float64) gesture.Features { t.Fatal("measured again"); return f }
	got := j.judge(f, c)
	assert.Equal(t, judgement{Kind: gesture.Clap, Features: f}, got)
	assert.Equal(t, []int64{4321}, on)
	assert.Equal(t, []gesture.Features{f}, seen)
	assert.True(t, j.sure(f, c))
	c.Holed = true
	assert.False(t, j.sure(f, c), "not after digital silence")
}

// The shipped judge names a sound with the band's network under the
// context's margin, and in a loud room with the loud room's networks
// beside it (a microphone heard in full only).
func TestTheShippedJudgeNamesByTheBandsNetworkUnderTheMargin(t *testing.T) {
	gestures := 0
	for _, f := range sounds(t) {
		for _, band := range []gesture.Band{gesture.Wide, gesture.Narrow} {
			for _, noisy := range []bool{false, true} {
				m := gesture.Model(band)
				if noisy && band == gesture.Wide {
					m = gesture.LoudRoomModel()
				}
				for _, margin := range []float64{-1, -0.3, 0, 0.2, 0.6, 1.01} {
					c := context0()
					c.Band, c.Noisy, c.Margin = band, noisy, margin
					j := (&shippedJudge{}).judge(f, c)
					require.Equal(t, m.ClassifyWith(f, margin), j.Kind, "band %v, noisy %v, margin %v", band, noisy, margin)
					assert.Equal(t, f, j.Features)
					assert.False(t, j.Hall)
					if margin == -1 {
						assert.True(t, j.Kind.IsGesture(), "a margin of -1 makes every sound that rose enough a gesture")
					}
					if margin > 1 {
						assert.Equal(t, gesture.Other, j.Kind, "over 1, none")
					}
					if j.Kind.IsGesture() {
						gestures++
					}
				}
			}
		}
	}
	assert.Positive(t, gestures)
	var quiet gesture.Features // rose by nothing
	c := context0()
	c.Margin = -1
	assert.Equal(t, gesture.Other, (&shippedJudge{}).judge(quiet, c).Kind, "a sound that did not rise is no gesture")
}

// In a hall (the reverb watch at its wettest), a late peak and a hold are
// the room's: the sound is named as it would be with neither. One named a
// gesture only so is said to be (Hall). Not after digital silence.
func TestTheShippedJudgeTakesAHallsLatePeakForTheRoom(t *testing.T) {
	m := gesture.Model(gesture.Wide)
	found := false
	for _, f := range sounds(t) {
		late, dry := f, f
		late.AttackMs, late.Decay = 22, 3
		dry.AttackMs, dry.Decay = HallAttackMs, HallDecayDB
		gl, gd := gestureness(m, late), gestureness(m, dry)
		if gd < gl+0.02 {
			continue
		}
		found = true
		c := context0()
		c.Margin = (gl + gd) / 2 // a gesture as a dry room gives it, not as a hall does
		dryRoom := (&shippedJudge{}).judge(late, c)
		assert.Equal(t, gesture.Other, dryRoom.Kind, "a dry room: the late peak counts")
		c.Wet = 1
		hall := (&shippedJudge{}).judge(late, c)
		assert.True(t, hall.Kind.IsGesture(), "a hall: named as the dry sound")
		assert.Equal(t, (&shippedJudge{}).judge(dry, c).Kind, hall.Kind)
		assert.True(t, hall.Hall, "a gesture only as heard in a hall")
		assert.Equal(t, late, hall.Features, "the features themselves are not changed")
		c.Holed = true
		assert.Equal(t, dryRoom, (&shippedJudge{}).judge(late, c), "not after digital silence")
		c.Holed, c.Wet = false, 0.99
		assert.Equal(t, dryRoom, (&shippedJudge{}).judge(late, c), "nor in a room not yet found a hall")
	}
	require.True(t, found, "the test's premise: a late peak and a hold make some sound less of a gesture")
}

// An onset the network names "other" is another bang of a run when the
// last gesture was a bang, 0.15-1 s before, about as loud, and the network
// gives it a fair chance of being a bang (gesture.Repeats); measured in
// full first when it rose too little to be. Never after digital silence.
func TestTheShippedJudgeHearsABangOfARun(t *testing.T) {
	m := gesture.Model(gesture.Wide)
	var f gesture.Features
	found := false
	for _, g := range sounds(t) {
		if p := m.Probs(g.Vector()); p[1] >= 0.3 && p[1] > p[0] {
			f, found = g, true
			break
		}
	}
	require.True(t, found, "the test's premise: a low thump may be a bang")
	c := context0()
	c.Margin = 1.01 // the network names it "other"
	c.Last, c.Since = lastGesture{on: 0, kind: gesture.Bang, level: f.Level}, 0.4
	j := (&shippedJudge{}).judge(f, c)
	assert.Equal(t, judgement{Kind: gesture.Bang, Features: f, Repeat: true}, j)

	for name, change := range map[string]func(*judgeContext){
		"after digital silence": func(c *judgeContext) { c.Holed = true },
		"after a clap":          func(c *judgeContext) { c.Last.kind = gesture.Clap },
		"no gesture before":     func(c *judgeContext) { c.Last.on = -1 },
		"too soon: a bounce":    func(c *judgeContext) { c.Since = 0.1 },
		"too late":              func(c *judgeContext) { c.Since = 1.5 },
		"far weaker":            func(c *judgeContext) { c.Last.level = f.Level + 10 },
	} {
		d := c
		change(&d)
		assert.Equal(t, judgement{Kind: gesture.Other, Features: f}, (&shippedJudge{}).judge(f, d), name)
	}

	// Risen too little to be measured in full: it is measured again.
	weak := gesture.Features{Level: f.Level, Sudden: gesture.RepeatRise + 0.5}
	var rises []float64
	c.Remeasure = func(rise float64) gesture.Features { rises = append(rises, rise); return f }
	j = (&shippedJudge{}).judge(weak, c)
	assert.Equal(t, []float64{gesture.RepeatRise}, rises)
	assert.Equal(t, judgement{Kind: gesture.Bang, Features: f, Repeat: true}, j, "judged on the features measured in full")
	rises = nil
	c.Since = 1.5
	assert.Equal(t, judgement{Kind: gesture.Other, Features: weak}, (&shippedJudge{}).judge(weak, c))
	assert.Empty(t, rises, "not measured again when too late anyway")
}

// Only a gesture the band's own network names with the full margin, over
// the room itself, is sure enough to tell the loud room how loud it is.
func TestTheShippedJudgeIsSureOnlyUnderTheFullMargin(t *testing.T) {
	sure, unsure := 0, 0
	var all []gesture.Features
	for _, f := range sounds(t) {
		late := f
		late.AttackMs, late.Decay = 22, 3 // less of a gesture to the network
		all = append(all, f, late)
	}
	const rate = 16000
	st := newFeatureStage(rate)
	for i, hz := range []float64{440, 1500, 2500} { // a glass ringing, a voice's vowel: "other"
		x, at := soundAt(uint64(20+i), rate, 0, false)
		for k := at; k < len(x); k++ {
			dt := float64(k-at) / rate
			for h := 1.0; h <= 4; h++ {
				x[k] += 0.1 / h * math.Sin(2*math.Pi*hz*h*dt) * math.Min(1, dt/0.005)
			}
		}
		all = append(all, st.measure(st.hear(x, at, 0, noBehind), featureContext{Floor: -60}, 0))
	}
	for _, f := range all {
		c := context0()
		c.Margin, c.Noisy = -1, true
		want := gesture.Model(gesture.Wide).ClassifyWith(f, gesture.Margin).IsGesture()
		assert.Equal(t, want, (&shippedJudge{}).sure(f, c))
		if want {
			sure++
		} else {
			unsure++
		}
		c.Holed = true
		assert.False(t, (&shippedJudge{}).sure(f, c), "never after digital silence")
	}
	t.Logf("%d sure, %d not", sure, unsure)
	assert.Positive(t, sure)
	assert.Positive(t, unsure, "the test's premise: some are gestures only under a lower margin")
}

// The context the Listener gives the judge follows the room as heard: the
// margin falls in a loud room and rises for a faint sound; the loud room's
// networks are asked once the hands stand less than NoisyAboveDB over it.
func TestTheJudgesContextFollowsTheRoom(t *testing.T) {
	l := NewListener(16000, Config{}, func(Event) {})
	f := gesture.Features{Level: -10, Above: 50}
	c := l.context(8000, f, false)
	assert.Equal(t, judgeContext{On: 8000, Band: gesture.Wide, Margin: gesture.Margin, Last: lastGesture{on: -1}, Since: 8001.0 / 16000}, c)
	for range 2 {
		l.loud.heard(20, -10, true)
	}
	c = l.context(8000, f, false)
	assert.True(t, c.Noisy, "hands 20 dB over the room")
	assert.Equal(t, LoudMargin, c.Margin)
	f.Level = -10 - FaintFullDB
	assert.InDelta(t, LoudMargin+FaintMargin, l.context(8000, f, false).Margin, 1e-9, "a faint sound among them")
	l.last = lastGesture{on: 4000, kind: gesture.Bang, level: -10}
	c = l.context(8000, f, true)
	assert.Equal(t, l.last, c.Last)
	assert.Equal(t, 0.25, c.Since)
	assert.True(t, c.Holed)
}

// A calibration (what the microphone check taught about this table) names
// the shipped networks' claps and bangs as the table's own gestures sound,
// in the band it was taught in only; it makes no gesture of a sound the
// networks named "other".
func TestTheShippedJudgeNamesAsTheCalibrationTaught(t *testing.T) {
	var claps, bangs []gesture.Features
	c := context0()
	c.Band = gesture.Narrow // where the network names the made-up bursts claps
	c.Margin = -1           // every sound that rose is a clap or a bang
	for _, f := range sounds(t) {
		switch (&shippedJudge{}).judge(f, c).Kind {
		case gesture.Clap:
			claps = append(claps, f)
		case gesture.Bang:
			bangs = append(bangs, f)
		}
	}
	require.GreaterOrEqual(t, len(claps), 2)
	require.GreaterOrEqual(t, len(bangs), 2)
	claps, bangs = claps[:2], bangs[:2]
	// taught the other way round: the check's claps were the network's bangs
	backwards, err := gesture.Learn(gesture.Narrow, bangs, claps)
	require.NoError(t, err)
	require.True(t, backwards.Teaches())
	j := &shippedJudge{cal: backwards}
	for _, f := range claps {
		assert.Equal(t, gesture.Bang, j.judge(f, c).Kind, "a clap the check taught as a bang")
	}
	for _, f := range bangs {
		assert.Equal(t, gesture.Clap, j.judge(f, c).Kind, "a bang the check taught as a clap")
	}
	wide := c
	wide.Band = gesture.Wide
	for _, f := range append(claps, bangs...) {
		assert.Equal(t, (&shippedJudge{}).judge(f, wide), j.judge(f, wide), "not in another band")
	}
	strict := c
	strict.Margin = 1.01 // no sound is a gesture
	for _, f := range append(claps, bangs...) {
		assert.Equal(t, gesture.Other, j.judge(f, strict).Kind, "no gesture made of a sound named other")
	}
}
