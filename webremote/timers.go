package webremote

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/tableref/tableref/referee"
	"github.com/tableref/tableref/referee/timer"
	"github.com/tableref/tableref/rules/game"
)

// Timers live in the room, on the server: authoritative, journalled with
// the room, paused with it, and unaffected by phones coming and going. The
// state carries each timer's length, what is left and, while it runs, when
// it is due, so pages count down on their own between pushes.

const maxTimers = 8

// timerInfo is a timer as the state shows it.
type timerInfo struct {
	Name     string `json:"name"`
	LengthMS int64  `json:"length_ms"`
	LeftMS   int64  `json:"left_ms"`
	Running  bool   `json:"running"`
	DueAt    int64  `json:"due_at,omitempty"` // unix milliseconds, while running
}

// roomTimer is a timer and the room's bookkeeping for it.
type roomTimer struct {
	timer.Timer
	Held bool `json:"held,omitempty"` // stopped by the room's pause; runs again on resume
	stop func() bool
}

func (s *Server) clock() timer.Clock {
	if s.cfg.Clock != nil {
		return s.cfg.Clock
	}
	return timer.Real{}
}

func (r *room) timerInfosLocked() []timerInfo {
	now := r.s.clock().Now()
	out := make([]timerInfo, 0, len(r.timers))
	for _, t := range r.timers {
		ti := timerInfo{Name: t.Name, LengthMS: t.Length.Milliseconds(), LeftMS: t.Remaining(now).Milliseconds(), Running: t.Running()}
		if due, ok := t.DueAt(); ok {
			ti.DueAt = due.UnixMilli()
		}
		out = append(out, ti)
	}
	return out
}

func (r *room) findTimer(name string) *roomTimer { return findTimer(r.timers, name) }

// findTimer finds the timer called name in ts, whatever the case.
func findTimer(ts []*roomTimer, name string) *roomTimer {
	for _, t := range ts {
		if strings.EqualFold(t.Name, name) {
			return t
		}
	}
	return nil
}

// scheduleLocked arranges for a running timer to ring when it is due.
func (r *room) scheduleLocked(t *roomTimer) {
	if t.stop != nil {
		t.stop()
		t.stop = nil
	}
	due, ok := t.DueAt()
	if !ok || r.stopped {
		return
	}
	clock := r.s.clock()
	t.stop = clock.AfterFunc(due.Sub(clock.Now()), func() { r.ring(t) })
}

// ring is called when a timer is due. The timer's end and, for a game's
// clock (game.Info.Clocks), the referee's move it drives are made under one
// hold of the room's lock, so nothing comes between them; should the server
// stop between their two journal records, resuming makes the missing move
// (catchUpLocked).
func (r *room) ring(t *roomTimer) {
	if !r.s.begin() {
		return // Shutdown called it off
	}
	defer r.s.finish()
	r.mu.Lock()
	now := r.s.clock().Now()
	if r.status == statusEnded || r.stopped || !slices.Contains(r.timers, t) || !t.Running() || !t.Expired(now) {
		r.mu.Unlock()
		return
	}
	t.Pause(now) // stopped at 0:00
	t.stop = nil
	name := t.Name
	r.addNoteLocked("timer-done", fmt.Sprintf("The %s timer has run out.", name))
	_ = r.persistLocked("timer-done") // already logged; the timer has run out all the same
	var evs []referee.Logged
	if c, ok := r.clockLocked(name); ok {
		if mv, ok := r.clockMoveLocked(c); ok {
			var err error
			if _, evs, err = r.refereeMoveLocked(mv); err != nil {
				r.s.logf("room %s: the %s clock has run out, but: %v", r.code, name, err)
			}
		}
	}
	r.broadcastLocked(nil)
	code := r.code
	r.mu.Unlock()
	r.s.mu.Lock()
	on, kept := r.s.onTimer, true
	if on == nil {
		if kept = len(r.s.earlyTimers) < eventsQueued; kept {
			r.s.earlyTimers = append(r.s.earlyTimers, [2]string{code, name}) // for OnTimer
		}
	}
	r.s.mu.Unlock()
	r.s.logf("room %s: the %s timer has run out", code, name)
	if !kept {
		n := r.s.dropped.Add(1)
		r.s.logf("room %s: the %s timer's alarm is not rung: %d alarms already wait for the referee (%d dropped since the start)", code, name, eventsQueued, n)
	}
	r.s.notify(code, evs)
	if on != nil {
		on(code, name)
	}
}

// clockLocked is the game's clock behind the timer called name, if it is
// one (game.Info.Clocks).
func (r *room) clockLocked(name string) (game.Clock, bool) {
	for _, c := range r.info.Clocks {
		if strings.EqualFold(c.Name, name) {
			return c, true
		}
	}
	return game.Clock{}, false
}

// clockMoveLocked is the referee's move clock c drives, when the game is
// owed one now: a game in play whose rules accept it, in the name of a seat
// on turn that may make it (Purse Snatcher's "time").
func (r *room) clockMoveLocked(c game.Clock) (game.Move, bool) {
	if r.match == nil || r.status != statusPlaying || c.Action == "" || !slices.Contains(r.info.RefereeActions, c.Action) {
		return game.Move{}, false
	}
	for _, seat := range r.match.Snapshot(game.Table, 0).Turn {
		for _, mv := range r.match.Snapshot(seat, 0).Legal {
			if mv.Action == c.Action {
				return mv, true
			}
		}
	}
	return game.Move{}, false
}

// catchUpLocked makes, on resume, the referee's move a game's clock owed
// the game when the server stopped between the clock's end and the move:
// the clock stands at 0:00 but the game has not been told (Purse Snatcher:
// that the meeting's time is up). Its events wait for the OnEvents
// listener, so the speakers announce it.
func (r *room) catchUpLocked() {
	for _, c := range r.info.Clocks {
		t := r.findTimer(c.Name)
		if t == nil || t.Running() || t.Held || !t.Expired(r.s.clock().Now()) {
			continue
		}
		mv, ok := r.clockMoveLocked(c)
		if !ok {
			continue
		}
		_, evs, err := r.refereeMoveLocked(mv)
		if err != nil {
			r.s.logf("room %s: the %s clock had run out before the restart, but: %v", r.code, c.Name, err)
			continue
		}
		r.s.logf("room %s: the %s clock had run out before the restart; the referee's %s move is made now", r.code, c.Name, c.Action)
		r.s.notify(r.code, evs) // kept for the OnEvents listener, which comes after New
	}
}

// OnTimer registers f, called when a room's timer runs out (the referee
// rings the alarm). The first f registered is called at once, before
// OnTimer returns, for the timers that ran out before it (a resumed room's
// timer that fell due while the server was down).
func (s *Server) OnTimer(f func(room, name string)) {
	s.mu.Lock()
	s.onTimer = f
	early := s.earlyTimers
	s.earlyTimers = nil
	s.mu.Unlock()
	for _, t := range early {
		f(t[0], t[1])
	}
}

// timerAction is the host's timer control: create, start, pause, flip,
// reset or delete.
func (r *room) timerAction(tok, name, action string, seconds int) *apiError {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.hostLocked(tok); err != nil {
		return err
	}
	name = strings.TrimSpace(name)
	if name == "" || !fitsLetters(name, maxName) {
		return fail(fiber.StatusBadRequest, `name the timer (1 to 24 letters): {"name":"sand","action":"start"}`)
	}
	now := r.s.clock().Now()
	// The change is made on copies; the room's timers, and what is
	// scheduled for them, are replaced only once the change is saved.
	next := r.copyTimers()
	t := findTimer(next, name)
	if action != "create" && t == nil {
		return fail(fiber.StatusNotFound, fmt.Sprintf("no timer %q in room %s", name, r.code))
	}
	switch action {
	case "create":
		if t != nil {
			return fail(fiber.StatusConflict, fmt.Sprintf("there is already a timer %q", name))
		}
		if seconds < 1 || seconds > 7200 {
			return fail(fiber.StatusBadRequest, "a timer runs 1 to 7200 seconds")
		}
		if len(next) >= maxTimers {
			return fail(fiber.StatusConflict, fmt.Sprintf("a room has at most %d timers", maxTimers))
		}
		next = append(next, &roomTimer{Timer: timer.New(name, time.Duration(seconds)*time.Second)})
	case "start":
		if r.status == statusPaused {
			t.Held = true // it runs when the room resumes
		} else {
			t.Start(now)
		}
	case "pause":
		t.Pause(now)
		t.Held = false
	case "flip":
		t.Flip(now)
	case "reset":
		t.Reset()
		t.Held = false
	case "delete":
		next = slices.DeleteFunc(next, func(x *roomTimer) bool { return x == t })
	default:
		return fail(fiber.StatusBadRequest, fmt.Sprintf("%q is not a timer action: create, start, pause, flip, reset or delete", excerpt(action)))
	}
	prev, rec := r.timers, r.recLocked()
	rec.timers = next
	if err := r.saveLocked("timers", rec); err != nil {
		return err
	}
	r.adoptTimersLocked(prev)
	r.broadcastLocked(nil)
	return nil
}

// copyTimers copies the room's timers, with nothing scheduled for the
// copies: a change is made on them, then they replace the room's.
func (r *room) copyTimers() []*roomTimer {
	out := make([]*roomTimer, len(r.timers))
	for i, t := range r.timers {
		c := *t
		c.stop = nil
		out[i] = &c
	}
	return out
}

// heldTimers stops the running timers of ts when the room pauses, and runs
// them again when it resumes. ts are copies (copyTimers): nothing is
// scheduled until adoptTimersLocked.
func heldTimers(ts []*roomTimer, paused bool, now time.Time) []*roomTimer {
	for _, t := range ts {
		switch {
		case paused && t.Running():
			t.Pause(now)
			t.Held = true
		case !paused && t.Held:
			t.Held = false
			t.Start(now)
		}
	}
	return ts
}

// gameTimersLocked gives a game the clocks its rules run on
// (game.Info.Clocks), among copies ts of the room's timers: each replaces a
// timer of its name, of the length its option sets, running from now.
func (r *room) gameTimersLocked(ts []*roomTimer) []*roomTimer {
	for _, c := range r.info.Clocks {
		length, ok := c.Length(r.info, r.options)
		if !ok {
			r.s.logf("room %s: the %s clock has no length (option %s): not started", r.code, c.Name, c.Option)
			continue
		}
		ts = slices.DeleteFunc(ts, func(t *roomTimer) bool { return strings.EqualFold(t.Name, c.Name) })
		t := &roomTimer{Timer: timer.New(c.Name, length)}
		t.Start(r.s.clock().Now())
		ts = append(ts, t)
	}
	return ts
}

// adoptTimersLocked follows a saved change that replaced the room's timers
// prev with new ones (r.timers): what was scheduled for prev is called off
// and the new timers are scheduled. A change that could not be saved puts
// prev back instead, untouched and still scheduled.
func (r *room) adoptTimersLocked(prev []*roomTimer) {
	for _, t := range prev {
		if t.stop != nil {
			t.stop()
			t.stop = nil
		}
	}
	r.scheduleAllLocked()
}

// scheduleAllLocked (re)schedules every timer of the room.
func (r *room) scheduleAllLocked() {
	for _, t := range r.timers {
		r.scheduleLocked(t)
	}
}

// roomEvent is an event in a state: the game's, or the room's own (a note:
// a timer ran out), which carries the game's seq when it happened and its
// own number N, 1, 2, … in the room, never reused.
type roomEvent struct {
	referee.Logged
	N int `json:"n,omitempty"`
}

// maxNotes is how many of its own events a room keeps.
const maxNotes = 20

// addNoteLocked adds an event of the room itself (public).
func (r *room) addNoteLocked(typ, text string) {
	seq := 0
	if r.match != nil {
		seq = r.match.Seq()
	}
	r.noteN++
	r.notes = append(r.notes, roomEvent{Logged: referee.Logged{Seq: seq, Event: game.Event{Type: typ, Text: text}}, N: r.noteN})
	if extra := len(r.notes) - maxNotes; extra > 0 {
		r.notes = slices.Delete(r.notes, 0, extra)
	}
}
