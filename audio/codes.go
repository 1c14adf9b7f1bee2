package audio

import (
	"math"
	"slices"
)

// grouper gathers gestures into codes.
//
// A code is a run of gestures with no silence of gap samples between them.
// Voices end a code too: once the table has been talking for minTalk samples
// (less is a table ringing, not a voice), that stretch of talk, from
// cutBefore samples before the voices began (the burst of a shouted word's
// first consonant comes before its voice) to where they stopped, belongs to
// no code. Gestures heard in it are not counted, and a code never spans it.
//
// Only talk near the gestures' own loudness counts: voices more than quietBy
// dB under a gesture (its peak against the talk's loudest voiced frame) are
// the room's chatter, not the trainer or a player shouting a guess, and
// neither end its code nor take it. quietBy 0 lets all talk count.
//
// Talk is only known some time after it starts and stops, so membership is
// settled when a code is emitted: once its gap has passed, or at once when
// confirmed talk follows it.
type grouper struct {
	gap       int64
	minTalk   int64
	cutBefore int64
	quietBy   float64

	gestures []gest      // heard, not yet emitted, in time order
	talks    []span      // confirmed talk that may touch pending gestures
	talking  bool        // voices are active now
	start    int64       // where the current voices began
	current  int         // index in talks of the current voices once confirmed, else -1
	loud     float64     // the current voices' loudest voiced frame so far, dBFS
	frames   []loudFrame // the latest voiced frames, for the start of the next voices
	run      []gest      // firstRun's result, kept for its array: it is asked every hop
}

type gest struct {
	at     int64
	letter byte
	level  float64 // peak, dBFS
}

// span is a stretch of talk; end is -1 while it goes on. loud is its
// loudest voiced frame so far, dBFS.
type span struct {
	start, end int64
	loud       float64
}

// loudFrame is a voiced frame that ended at sample end.
type loudFrame struct {
	end   int64
	level float64
}

// add records a gesture heard at sample at, with peak level dBFS.
func (g *grouper) add(at int64, letter byte, level float64) {
	g.gestures = append(g.gestures, gest{at, letter, level})
}

// voiced records a voiced frame ending at sample end with level dBFS: the
// voices' loudness, including the frames that started them.
func (g *grouper) voiced(end int64, level float64) {
	if n := len(g.frames); n > 0 && g.frames[0].end < end-2*g.minTalk {
		i := 0
		for i < n && g.frames[i].end < end-g.minTalk {
			i++
		}
		g.frames = append(g.frames[:0], g.frames[i:]...)
	}
	g.frames = append(g.frames, loudFrame{end, level})
	if g.talking && end > g.start {
		g.louder(level)
	}
}

// louder raises the current voices' loudness to level if it is louder.
func (g *grouper) louder(level float64) {
	g.loud = max(g.loud, level)
	if g.current >= 0 {
		g.talks[g.current].loud = g.loud
	}
}

// counts reports whether talk t is loud enough to matter to gesture x.
func (g *grouper) counts(t span, x gest) bool {
	return g.quietBy <= 0 || t.loud >= x.level-g.quietBy
}

// remove forgets the gesture heard at sample at, if it is still pending.
func (g *grouper) remove(at int64) {
	if i := slices.IndexFunc(g.gestures, func(x gest) bool { return x.at == at }); i >= 0 {
		g.gestures = slices.Delete(g.gestures, i, i+1)
	}
}

// talk records a change in the voices: they began or stopped at sample at.
func (g *grouper) talk(active bool, at int64) {
	if active {
		g.talking, g.start, g.current, g.loud = true, at, -1, math.Inf(-1)
		for _, f := range g.frames {
			if f.end > at {
				g.louder(f.level)
			}
		}
		return
	}
	switch {
	case g.current >= 0:
		g.talks[g.current].end = at
	case g.talking && at-g.start >= g.minTalk:
		g.talks = append(g.talks, span{g.start, at, g.loud})
	}
	g.talking, g.current = false, -1
}

// tick confirms the current voices once they have been heard for long
// enough: lastVoiced is the end of the latest voiced frame.
func (g *grouper) tick(lastVoiced int64) {
	if g.talking && g.current < 0 && lastVoiced-g.start >= g.minTalk {
		g.talks = append(g.talks, span{g.start, -1, g.loud})
		g.current = len(g.talks) - 1
	}
}

// inTalk reports whether gesture x lies in confirmed talk that counts for
// it, and whether that is final (the talk has ended after it).
func (g *grouper) inTalk(x gest) (in, final bool) {
	for _, t := range g.talks {
		if at := x.at; at >= t.start-g.cutBefore && (t.end < 0 || at <= t.end) && g.counts(t, x) {
			return true, t.end >= 0
		}
	}
	return false, false
}

// talkBetween reports whether confirmed talk that counts for gesture a
// begins after it and by sample b.
func (g *grouper) talkBetween(a gest, b int64) bool {
	for _, t := range g.talks {
		if s := t.start - g.cutBefore; s > a.at && s <= b && g.counts(t, a) {
			return true
		}
	}
	return false
}

// due returns the next code if it is complete at sample now. hold is the
// onset of a sound still being judged (or -1): it may yet extend the code.
func (g *grouper) due(now, hold int64, rate int) *Code {
	run, rest := g.firstRun()
	if len(run) == 0 {
		return nil
	}
	lastG := run[len(run)-1]
	last := lastG.at
	closedByTalk := g.talkBetween(lastG, now)
	if !closedByTalk {
		if now < last+g.gap || (hold >= 0 && hold < last+g.gap) {
			return nil
		}
		// voices that began just after the code might still turn out to
		// be talk that takes its last gestures
		if g.talking && g.current < 0 && g.start-g.cutBefore <= last {
			return nil
		}
	}
	g.gestures = rest
	g.prune()
	return makeCode(run, rate)
}

// flush returns the next code with what has been heard (the input ended),
// or nil. Call it until it returns nil. Voices too short to confirm by the
// end do not count as talk.
func (g *grouper) flush(rate int) *Code {
	run, rest := g.firstRun()
	g.gestures = rest
	if len(run) == 0 {
		return nil
	}
	return makeCode(run, rate)
}

// firstRun splits the pending gestures into the first code's gestures and
// the ones after it, leaving out gestures in talk. Gestures finally known to
// be in talk are forgotten. run is valid until the next call (its array is
// the grouper's: it is asked every hop, and mostly no code is due).
func (g *grouper) firstRun() (run, rest []gest) {
	for len(g.gestures) > 0 {
		if in, final := g.inTalk(g.gestures[0]); !in || !final {
			break
		}
		g.gestures = g.gestures[1:] // heard while the table talked: no code's
	}
	i := 0
	for i < len(g.gestures) {
		if in, _ := g.inTalk(g.gestures[i]); !in {
			break
		}
		i++ // in talk that goes on: it may yet end before them
	}
	if i == len(g.gestures) {
		return nil, g.gestures
	}
	run = append(g.run[:0], g.gestures[i])
	for j := i + 1; j < len(g.gestures); j++ {
		x := g.gestures[j]
		if in, _ := g.inTalk(x); in {
			continue
		}
		prev := run[len(run)-1]
		if x.at-prev.at >= g.gap || g.talkBetween(prev, x.at) {
			g.run = run
			return run, g.gestures[j:]
		}
		run = append(run, x)
	}
	g.run = run
	return run, nil
}

// prune forgets talk that ended before every pending gesture.
func (g *grouper) prune() {
	keep := g.talks[:0]
	for i, t := range g.talks {
		if i == g.current || (len(g.gestures) > 0 && (t.end < 0 || t.end >= g.gestures[0].at)) {
			if i == g.current {
				g.current = len(keep)
			}
			keep = append(keep, t)
		}
	}
	g.talks = keep
}

func makeCode(run []gest, rate int) *Code {
	c := &Code{
		Start: float64(run[0].at) / float64(rate),
		End:   float64(run[len(run)-1].at) / float64(rate),
	}
	order := make([]byte, len(run))
	for i, x := range run {
		order[i] = x.letter
		switch x.letter {
		case 'B':
			c.Bangs++
		case 'C':
			c.Claps++
		}
	}
	c.Order = string(order)
	return c
}
