package webremote

import (
	"fmt"
	"slices"

	"github.com/gofiber/fiber/v2"

	"github.com/tableref/tableref/referee"
	"github.com/tableref/tableref/referee/journal"
	"github.com/tableref/tableref/rules/game"
)

// The host's controls: start, restart, kick, swap, lock, pause and end.

// start deals and begins: the taken seats become seats 0..n-1.
func (r *room) start(tok string) *apiError {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.hostLocked(tok); err != nil {
		return err
	}
	if r.status != statusLobby {
		return fail(fiber.StatusConflict, "the game has already started (restart for a new one)")
	}
	var players []*player
	for _, p := range r.seats {
		if p != nil {
			players = append(players, p)
		}
	}
	// The game is for those who joined: players (the room's seats) is the
	// most, not a number to wait for.
	if len(players) < r.info.MinPlayers {
		return fail(fiber.StatusConflict, fmt.Sprintf("waiting for players: %d joined, %s needs at least %d", len(players), r.info.Name, r.info.MinPlayers))
	}
	names := make([]string, len(players))
	for i, p := range players {
		names[i] = p.name
	}
	m, err := referee.New(r.g, game.Config{Variant: r.variant, Options: r.options, Seed: r.s.cfg.Seed()}, names)
	if err != nil {
		return fail(fiber.StatusConflict, err.Error())
	}
	next, timersBefore := r.recLocked(), r.timers
	next.seats, next.match, next.status, next.round, next.notes = players, m, statusPlaying, r.round+1, nil
	next.timers = r.gameTimersLocked(r.copyTimers())
	if err := r.saveLocked("start", next); err != nil {
		return err
	}
	r.adoptTimersLocked(timersBefore)
	for i, p := range players {
		r.byToken[p.token] = i
	}
	for c := range r.clients {
		if c.who.seat >= 0 {
			c.who.seat = r.byToken[c.key]
		}
	}
	r.s.logf("room %s: started %s with %d players", r.code, r.info.ID, len(players))
	r.broadcastLocked(nil)
	r.s.notify(r.code, m.Opening())
	return nil
}

// restart begins a new game with the same players and options.
func (r *room) restart(tok string) *apiError {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.hostLocked(tok); err != nil {
		return err
	}
	if r.status == statusLobby {
		return fail(fiber.StatusConflict, "the game has not started yet (start it)")
	}
	m, err := referee.New(r.g, game.Config{Variant: r.variant, Options: r.options, Seed: r.s.cfg.Seed()}, r.match.Names())
	if err != nil {
		return fail(fiber.StatusConflict, err.Error())
	}
	next, timersBefore := r.recLocked(), r.timers
	next.match, next.status, next.round, next.notes = m, statusPlaying, r.round+1, nil
	next.timers = r.gameTimersLocked(r.copyTimers())
	if err := r.saveLocked("restart", next); err != nil {
		return err
	}
	r.adoptTimersLocked(timersBefore)
	for _, p := range r.seats {
		p.ids, p.order = nil, nil
	}
	for c := range r.clients {
		c.lastSeq, c.lastNote = 0, r.noteN
	}
	r.s.logf("room %s: restarted", r.code)
	r.broadcastLocked(nil)
	r.s.notify(r.code, m.Opening())
	return nil
}

// kick removes the player at seat.
func (r *room) kick(tok string, seat *int) *apiError {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.hostLocked(tok); err != nil {
		return err
	}
	if seat == nil {
		return fail(fiber.StatusBadRequest, `name the seat: {"seat":2}`)
	}
	n := *seat
	if n < 0 || n >= len(r.seats) {
		return fail(fiber.StatusBadRequest, fmt.Sprintf("no seat %d (seats 0 to %d)", n, len(r.seats)-1))
	}
	p := r.seats[n]
	if p == nil || p.token == "" {
		return fail(fiber.StatusConflict, fmt.Sprintf("seat %d is empty", n))
	}
	old := p.token
	next := r.recLocked()
	next.seats = slices.Clone(r.seats)
	if r.status == statusLobby {
		next.seats[n] = nil
	} else {
		next.seats[n] = &player{name: p.name} // vacant: the seat keeps its name for the game
	}
	next.addNote("removed", p.name+" was removed by the host")
	if err := r.saveLocked("kick", next); err != nil {
		return err
	}
	delete(r.byToken, old)
	r.s.dropTokens(old)
	r.closeTokenLocked(old, "you were removed from the room")
	r.s.logf("room %s: %s removed from seat %d", r.code, p.name, n)
	r.broadcastLocked(nil)
	return nil
}

// swap exchanges the places of seats a and b in the lobby (the host sets
// the order of play: at the start the taken seats become 0, 1, … in order).
func (r *room) swap(tok string, a, b *int) *apiError {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.hostLocked(tok); err != nil {
		return err
	}
	if a == nil || b == nil {
		return fail(fiber.StatusBadRequest, `name the two seats: {"seat":2,"to":0}`)
	}
	for _, n := range []int{*a, *b} {
		if n < 0 || n >= len(r.seats) {
			return fail(fiber.StatusBadRequest, fmt.Sprintf("no seat %d (seats 0 to %d)", n, len(r.seats)-1))
		}
	}
	if r.status != statusLobby {
		return fail(fiber.StatusConflict, "the game has started: the seats are set until a new room")
	}
	if r.seats[*a] == nil {
		return fail(fiber.StatusConflict, fmt.Sprintf("seat %d is empty", *a))
	}
	if *a == *b {
		return nil
	}
	next := r.recLocked()
	next.seats = slices.Clone(r.seats)
	next.seats[*a], next.seats[*b] = next.seats[*b], next.seats[*a]
	if other := r.seats[*b]; other != nil {
		next.addNote("swapped", fmt.Sprintf("%s and %s swap places", r.seats[*a].name, other.name))
	} else {
		next.addNote("swapped", fmt.Sprintf("%s moves to seat %d", r.seats[*a].name, *b+1))
	}
	if err := r.saveLocked("seats", next); err != nil {
		return err
	}
	for i, p := range r.seats {
		if p != nil {
			r.byToken[p.token] = i
		}
	}
	for c := range r.clients {
		if c.who.seat >= 0 {
			c.who.seat = r.byToken[c.key]
		}
	}
	r.broadcastLocked(nil)
	return nil
}

// lock sets whether new players may join.
func (r *room) lock(tok string, locked *bool) *apiError {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.hostLocked(tok); err != nil {
		return err
	}
	if locked == nil {
		return fail(fiber.StatusBadRequest, `say {"locked":true} or {"locked":false}`)
	}
	next := r.recLocked()
	next.locked = *locked
	if err := r.saveLocked("lock", next); err != nil {
		return err
	}
	r.broadcastLocked(nil)
	return nil
}

// pause stops or resumes moves.
func (r *room) pause(tok string, paused *bool) *apiError {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.hostLocked(tok); err != nil {
		return err
	}
	if paused == nil {
		return fail(fiber.StatusBadRequest, `say {"paused":true} or {"paused":false}`)
	}
	if r.status != statusPlaying && r.status != statusPaused {
		return fail(fiber.StatusConflict, "there is no game in play to pause or resume (the room is "+r.status+")")
	}
	next, timersBefore := r.recLocked(), r.timers
	next.status = statusPlaying
	if *paused {
		next.status = statusPaused
	}
	next.timers = heldTimers(r.copyTimers(), *paused, r.s.clock().Now())
	if err := r.saveLocked("pause", next); err != nil {
		return err
	}
	r.adoptTimersLocked(timersBefore)
	r.broadcastLocked(nil)
	return nil
}

// end closes the room: every token stops working.
func (r *room) end(tok string) *apiError {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.hostLocked(tok); err != nil {
		return err
	}
	return r.endLocked("end", "the room has ended")
}

// endLocked closes the room (why: the journal's reason; text: what the
// websockets' close says).
func (r *room) endLocked(why, text string) *apiError {
	next := r.recLocked()
	next.status = statusEnded
	if err := r.saveLocked(why, next); err != nil {
		return err
	}
	for _, t := range r.timers {
		if t.stop != nil {
			t.stop()
		}
	}
	if r.journal != nil {
		r.journal.Close()
		_ = journal.Dir(r.s.cfg.Data).Retire(r.code)
		r.journal = nil
	}
	toks := []string{r.host}
	for t := range r.byToken {
		toks = append(toks, t)
	}
	r.s.dropTokens(toks...)
	r.s.mu.Lock()
	if r.s.rooms[r.code] == r {
		delete(r.s.rooms, r.code)
	}
	r.s.mu.Unlock()
	r.broadcastLocked(nil) // the last state says "ended"
	for c := range r.clients {
		delete(r.clients, c)
		c.close(closeRevoke, text)
	}
	r.s.logf("room %s: ended", r.code)
	return nil
}
