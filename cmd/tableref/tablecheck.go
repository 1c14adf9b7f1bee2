package main

import (
	"errors"
	"time"

	"github.com/tableref/tableref/audio"
	"github.com/tableref/tableref/audio/gesture"
)

// The microphone check the host runs from the table screen before a game:
// the same two claps and two bangs as `tableref listen --check`, heard by
// the microphone `serve` listens with, its progress and verdict shown on
// the room's screens (live news, "hearing" → "check"). While it runs, what
// the microphone hears is the check's, never a move.

// tableCheck is a microphone check under way or done, as the screens see it.
type tableCheck struct {
	State    string             `json:"state"` // "listening" or "done"
	Heard    string             `json:"heard"` // C a clap, B a bang, in order
	Want     string             `json:"want"`
	OK       bool               `json:"ok"`
	Say      string             `json:"say"`      // the instruction while listening, the verdict when done
	Left     float64            `json:"left"`     // seconds left to make the gestures (while listening)
	Problems []audio.MicProblem `json:"problems"` // what was wrong with the input when it ended
	room     string
	ends     time.Time     // when it gives up waiting
	last     time.Time     // when the last gesture was heard
	gestures checkGestures // what Heard spells, with each gesture's input time
	// The code the check's gestures make is heard DefaultGap seconds after
	// the last of them, when the check may be over: it is nobody's move.
	swallow time.Time // codes heard before this are the check's
}

const micCheckAsk = "Clap twice, then bang the table twice with a flat hand, about half a second apart."

// micCheck starts the check for room: the microphone serves room from now.
func (p *party) micCheck(room string) error {
	p.mu.Lock()
	listening, why := p.mic.Listening, p.mic.Message
	if c := p.check; c != nil && c.State == "listening" && c.room != room && p.clock().Before(c.ends) {
		p.mu.Unlock()
		return errors.New("the microphone is checking another room; try again in a few seconds")
	}
	p.mu.Unlock()
	if !listening {
		if why == "" {
			why = "it is not listening"
		}
		return errors.New("the microphone cannot be checked: " + why)
	}
	p.listenFor(room)
	now := p.clock()
	p.mu.Lock()
	p.check = &tableCheck{State: "listening", Want: micCheckWant, Say: micCheckAsk, Left: micCheckSeconds, Problems: []audio.MicProblem{},
		room: room, ends: now.Add(time.Duration(micCheckSeconds * float64(time.Second)))}
	p.gestures = nil
	p.mu.Unlock()
	p.log("%s: microphone check: %s\n", room, micCheckAsk)
	p.publish(room)
	return nil
}

// checkingLocked reports whether the microphone's gestures are the check's.
func (p *party) checkingLocked() bool {
	return p.check != nil && p.check.State == "listening" && p.check.room == p.room
}

// checkHeardLocked adds a gesture heard at input time t to the check, or
// takes one back (kind "retract": it was the start of a word).
func (p *party) checkHeardLocked(kind string, t float64) {
	c := p.check
	if kind == "retract" {
		c.gestures.retract(t)
		c.Heard = c.gestures.String()
		return
	}
	c.gestures.add(gesture.Kind(kind).Letter(), t)
	c.Heard = c.gestures.String()
	c.last = p.clock()
	c.swallow = c.last.Add(time.Duration((audio.DefaultGap + 1) * float64(time.Second)))
}

// checkCodeLocked reports whether a code heard now is the check's.
func (p *party) checkCodeLocked() bool {
	c := p.check
	return c != nil && c.room == p.room && (c.State == "listening" || p.clock().Before(c.swallow))
}

// checkStep ends the check once it has what it needs (four gestures and a
// moment after them, or its time is up), and counts its time down.
func (p *party) checkStep(now time.Time) {
	p.mu.Lock()
	c := p.check
	if c == nil || c.State != "listening" {
		p.mu.Unlock()
		return
	}
	room := c.room
	settled := micCheckHeard(len(c.Heard), now.Sub(c.last).Seconds())
	if !settled && now.Before(c.ends) {
		left := float64(int(c.ends.Sub(now).Seconds() + 0.999))
		changed := left != c.Left
		c.Left = left
		p.mu.Unlock()
		if changed {
			p.publish(room)
		}
		return
	}
	c.State, c.Left = "done", 0
	c.OK, c.Say = micVerdict(c.Heard)
	c.Problems = append([]audio.MicProblem{}, p.mic.Problems...)
	say := c.Say
	p.mu.Unlock()
	p.log("%s: microphone check: %s\n", room, say)
	p.publish(room)
}
