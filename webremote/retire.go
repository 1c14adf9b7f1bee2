package webremote

import (
	"fmt"
	"time"

	"github.com/tableref/tableref/referee/journal"
)

// Rooms do not live for ever: a room nobody has changed for a while is
// retired, as if its host had ended it (its tokens stop working, its
// websockets close with 4001 and its journal moves to done/). A lobby
// nobody joined and a finished game go after Config.IdleDone (6 hours by
// default); any other room, a game left half-played, after Config.IdleAny
// (3 days). A change is a join, a move, a host control or a timer's end; a
// phone or a screen merely connected is not. The server looks every
// sweepEvery, when a new room would find the server full, and when it
// resumes the saved rooms (a room already too old is retired, not
// resumed). Under the limits by address (limit.go: Config.RateLimit not
// negative), an empty lobby (nobody joined) with no screen connected goes
// after emptyLobbyIdle (or IdleDone, if shorter): rooms made and left empty
// do not hold the server's places for hours, and since no screen is
// connected when the server starts, a saved one that old is not resumed.

// Default idle limits and how often the rooms are looked at.
const (
	defaultIdleDone = 6 * time.Hour
	defaultIdleAny  = 72 * time.Hour
	sweepEvery      = 10 * time.Minute
	emptyLobbyIdle  = 10 * time.Minute
)

// idleLimits are the configured limits (0: never).
func (s *Server) idleLimits() (idleDone, idleAny time.Duration) {
	idleDone, idleAny = s.cfg.IdleDone, s.cfg.IdleAny
	if idleDone == 0 {
		idleDone = defaultIdleDone
	}
	if idleAny == 0 {
		idleAny = defaultIdleAny
	}
	return max(idleDone, 0), max(idleAny, 0)
}

// idleTooLongLocked says why the room should be retired at now ("" when it
// should not).
func (r *room) idleTooLongLocked(now time.Time) string {
	if r.status == statusEnded {
		return ""
	}
	idleDone, idleAny := r.s.idleLimits()
	idle := now.Sub(r.active)
	switch {
	case r.s.limited() && idleDone > 0 && r.status == statusLobby && r.emptyLocked() && len(r.clients) == 0 && idle >= min(emptyLobbyIdle, idleDone):
		return fmt.Sprintf("closed after %s without a change (nobody joined)", roundHours(idle))
	case idleDone > 0 && (r.status == statusLobby || r.status == statusOver) && idle >= idleDone:
		what := "the game was over"
		if r.status == statusLobby {
			what = "it was never started"
		}
		return fmt.Sprintf("closed after %s without a change (%s)", roundHours(idle), what)
	case idleAny > 0 && idle >= idleAny:
		return fmt.Sprintf("closed after %s without a change", roundHours(idle))
	}
	return ""
}

func roundHours(d time.Duration) string {
	count := func(n int, unit string) string {
		if n == 1 {
			return "1 " + unit
		}
		return fmt.Sprintf("%d %ss", n, unit)
	}
	switch h := int(d.Hours()); {
	case d < time.Minute: // limits this short come from tableref serve --idle-done and --idle-any
		return count(int(d.Seconds()), "second")
	case d < time.Hour:
		return count(int(d.Minutes()), "minute")
	case h < 48:
		return count(h, "hour")
	default:
		return count(h/24, "day")
	}
}

// emptyLocked reports whether no seat of the room is taken.
func (r *room) emptyLocked() bool {
	for _, p := range r.seats {
		if p != nil {
			return false
		}
	}
	return true
}

// touchLocked notes a change to the room.
func (r *room) touchLocked() { r.active = r.s.clock().Now() }

// sweep retires the rooms idle for too long.
func (s *Server) sweep() {
	s.mu.RLock()
	rooms := make([]*room, 0, len(s.rooms))
	for _, r := range s.rooms {
		rooms = append(rooms, r)
	}
	s.mu.RUnlock()
	now := s.clock().Now()
	for _, r := range rooms {
		r.mu.Lock()
		if why := r.idleTooLongLocked(now); why != "" {
			_ = r.endLocked("retired", "the room was "+why)
			s.logf("room %s: %s", r.code, why)
		}
		r.mu.Unlock()
	}
}

// startSweeping looks at the rooms every sweepEvery until Shutdown.
func (s *Server) startSweeping() {
	if idleDone, idleAny := s.idleLimits(); idleDone == 0 && idleAny == 0 {
		return
	}
	var next func()
	next = func() {
		s.sweepMu.Lock()
		defer s.sweepMu.Unlock()
		if s.sweepStopped {
			return
		}
		s.sweepStop = s.clock().AfterFunc(sweepEvery, func() {
			s.sweep()
			next()
		})
	}
	next()
}

// stopSweeping stops the sweeps (Shutdown).
func (s *Server) stopSweeping() {
	s.sweepMu.Lock()
	defer s.sweepMu.Unlock()
	s.sweepStopped = true
	if s.sweepStop != nil {
		s.sweepStop()
	}
}

// lastChange is when a resumed room last changed: its newest record's
// time, or for records without one (the first formats) the journal file's.
func lastChange(dir journal.Dir, name string, at int64) time.Time {
	if at > 0 {
		return time.UnixMilli(at)
	}
	return dir.Modified(name)
}
