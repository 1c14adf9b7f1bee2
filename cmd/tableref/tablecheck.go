package main

import (
	"errors"
	"time"

	"github.com/tableref/tableref/audio"
	"github.com/tableref/tableref/audio/gesture"
	"github.com/tableref/tableref/referee/hearing"
)

// The microphone check the host runs from the table screen before a game:
// the same two claps and two bangs as `tableref listen --check`, heard by
// the microphone `serve` listens with, its progress and verdict shown on
// the room's screens (live news, "hearing" → "check"). While it runs, what
// the microphone hears is the check's, never a move.
//
// The check also learns the table (learnTable): what it learns is kept for
// the rest of the server's life and saved under --data, so that a restart
// the same night keeps it. When a game that hears gestures is under way
// and nothing has been learned yet, the table screen offers the check
// ("hearing" → "offer"), which the host may run or skip; a game never
// waits for it.

// tableCheck is a microphone check under way or done, as the screens see it.
type tableCheck struct {
	State    string             `json:"state"` // "listening" or "done"
	Heard    string             `json:"heard"` // C a clap, B a bang, in order
	Want     string             `json:"want"`
	OK       bool               `json:"ok"`
	Say      string             `json:"say"`      // the instruction while listening, the verdict when done
	Left     float64            `json:"left"`     // seconds left to make the gestures (while listening)
	Problems []audio.MicProblem `json:"problems"` // what was wrong with the input when it ended
	// Learned says whether it learned the table, and Learn what it
	// learned or why nothing (when done).
	Learned  bool   `json:"learned"`
	Learn    string `json:"learn,omitempty"`
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

// checkHeardLocked adds a gesture the ears heard to the check, or takes one
// back (kind "retract": it was the start of a word).
func (p *party) checkHeardLocked(ev hearing.Event) {
	c := p.check
	if ev.Kind == "retract" {
		c.gestures.retract(ev.T)
		c.Heard = c.gestures.String()
		return
	}
	c.gestures.add(gesture.Kind(ev.Kind).Letter(), ev.T, ev.Features, ev.Band)
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
	cal, learn := learnTable(&c.gestures, now)
	c.Learned, c.Learn = cal != nil, learn
	say := c.Say
	p.mu.Unlock()
	p.log("%s: microphone check: %s %s\n", room, say, learn)
	if cal != nil {
		p.keepCalibration(cal)
	}
	p.publish(room)
}

// teachAsk is the table screen's offer of the check.
const teachAsk = "Teach me this table: clap twice, then bang twice."

// keepCalibration makes c what the microphone knows of the table for the
// rest of the server's life, and saves it under --data.
func (p *party) keepCalibration(c *gesture.Calibration) {
	p.mu.Lock()
	p.cal = c
	teach, path := p.teach, p.calPath
	p.mu.Unlock()
	if teach != nil {
		teach(c)
	}
	if path == "" {
		return
	}
	if err := writeCalibration(path, c); err != nil {
		p.log("microphone check: %v; it holds until the server stops\n", err)
		return
	}
	p.log("microphone check: what it learned is kept in %s for the night\n", path)
}

// skipCheck is the host's answer to the offer of the check: no, thanks.
// The offer is not made again while the server runs.
func (p *party) skipCheck(room string) error {
	p.mu.Lock()
	p.skipped = true
	p.mu.Unlock()
	p.log("%s: microphone check skipped; the table is heard as the network hears it\n", room)
	p.publish(room)
	return nil
}

// offerLocked reports whether the table screen of room offers the check:
// a game that hears gestures is under way there, the microphone listens to
// it, nothing has been learned of the table and the host has not said no,
// and no check listens now.
func (p *party) offerLocked(room string) bool {
	if p.cal != nil || p.skipped || !p.mic.Listening || room == "" || room != p.room {
		return false
	}
	if c := p.check; c != nil && c.room == room && c.State == "listening" {
		return false
	}
	info, _ := p.srv.InfoOf(room)
	return info.Hears.Gestures && p.srv.Playing(room)
}
