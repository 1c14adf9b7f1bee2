package webremote

import (
	"fmt"

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
	seatsBefore, timersBefore, notesBefore := r.seats, r.timers, r.notes
	r.seats, r.match, r.status, r.round, r.notes = players, m, statusPlaying, r.round+1, nil
	r.timers = r.gameTimersLocked(r.copyTimers())
	if err := r.persistLocked("start"); err != nil {
		r.seats, r.match, r.status, r.round, r.notes, r.timers = seatsBefore, nil, statusLobby, r.round-1, notesBefore, timersBefore
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
	matchBefore, statusBefore, timersBefore, notesBefore := r.match, r.status, r.timers, r.notes
	r.match, r.status, r.round, r.notes = m, statusPlaying, r.round+1, nil
	r.timers = r.gameTimersLocked(r.copyTimers())
	if err := r.persistLocked("restart"); err != nil {
		r.match, r.status, r.round, r.notes, r.timers = matchBefore, statusBefore, r.round-1, notesBefore, timersBefore
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
	old, before := p.token, *p
	if r.status == statusLobby {
		r.seats[n] = nil
	} else {
		p.token, p.ids, p.order = "", nil, nil
	}
	if err := r.persistLocked("kick"); err != nil {
		*p = before
		r.seats[n] = p
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
	r.seats[*a], r.seats[*b] = r.seats[*b], r.seats[*a]
	if err := r.persistLocked("seats"); err != nil {
		r.seats[*a], r.seats[*b] = r.seats[*b], r.seats[*a]
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
	was := r.locked
	r.locked = *locked
	if err := r.persistLocked("lock"); err != nil {
		r.locked = was
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
	was, timersBefore := r.status, r.timers
	if *paused {
		r.status = statusPaused
	} else {
		r.status = statusPlaying
	}
	r.timers = heldTimers(r.copyTimers(), *paused, r.s.clock().Now())
	if err := r.persistLocked("pause"); err != nil {
		r.status, r.timers = was, timersBefore
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
	was := r.status
	r.status = statusEnded
	if err := r.persistLocked(why); err != nil {
		r.status = was
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
