package webremote

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"sort"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/tableref/tableref/referee"
	"github.com/tableref/tableref/referee/timer"
	"github.com/tableref/tableref/rules/game"
)

// The referee's own hand in the rooms: the hooks tableref serve uses to
// join the microphone and the speakers to the games.

// ErrNoRoom is returned for a room code that names no room.
var ErrNoRoom = errors.New("no such room")

// liveEvery is the least time between broadcasts of live news alone.
const liveEvery = 100 * time.Millisecond

type batch struct {
	room string
	evs  []referee.Logged
}

// OnEvents registers f, called with every accepted move's events, room by
// room in the order they happened, from one goroutine and outside every
// lock. A listener that falls far behind loses batches rather than slowing
// the game. The events of the referee's own moves made before any listener
// was registered (New resuming a room: a Purse Snatcher meeting whose clock
// ran out while the server was down) wait for the first one, and reach it
// first.
func (s *Server) OnEvents(f func(room string, evs []referee.Logged)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.onEvents = f
	if s.events != nil || s.eventsClosed || !s.begin() {
		return // the goroutine runs already, or the server is stopping
	}
	ch := make(chan batch, eventsQueued)
	s.events = ch
	for _, b := range s.early {
		ch <- b // never blocks: early holds at most eventsQueued
	}
	s.early = nil
	go func() {
		defer s.finish()
		for b := range ch { // until Shutdown closes it
			s.mu.RLock()
			fn := s.onEvents
			s.mu.RUnlock()
			fn(b.room, b.evs)
		}
	}()
}

// eventsQueued is how many batches of events wait for the OnEvents
// listener, before it is registered and while it runs behind.
const eventsQueued = 256

// notify hands a move's events to the OnEvents listener, or keeps them
// for it until it is registered. A batch that finds the queue full (the
// listener far behind) or the server stopped is dropped, counted and
// logged: the game goes on, the speakers miss it.
func (s *Server) notify(room string, evs []referee.Logged) {
	if len(evs) == 0 {
		return
	}
	why := ""
	s.mu.Lock()
	switch {
	case s.eventsClosed:
		why = "the server is stopping"
	case s.events == nil:
		if len(s.early) < eventsQueued {
			s.early = append(s.early, batch{room, evs})
		} else {
			why = fmt.Sprintf("%d batches already wait for the referee's listener", eventsQueued)
		}
	default:
		select {
		case s.events <- batch{room, evs}: // never blocks: the lock is held
		default:
			why = fmt.Sprintf("the referee's listener is %d batches behind", eventsQueued)
		}
	}
	s.mu.Unlock()
	if why != "" {
		n := s.dropped.Add(1)
		s.logf("room %s: the events of move %d are not announced: %s (%d dropped since the start)", room, evs[len(evs)-1].Seq, why, n)
	}
}

// InfoOf is the catalogue entry of a room's game: what the game declares it
// needs from the referee (its hearing, its announcements); false when there
// is no such room.
func (s *Server) InfoOf(code string) (game.Info, bool) {
	r := s.room(code)
	if r == nil {
		return game.Info{}, false
	}
	return r.info, true
}

// GameOf is the game id of a room ("" when there is none).
func (s *Server) GameOf(code string) string {
	r := s.room(code)
	if r == nil {
		return ""
	}
	return r.info.ID
}

// Playing reports whether room code has a game in play: started, and not
// paused or over.
func (s *Server) Playing(code string) bool {
	r := s.room(code)
	if r == nil {
		return false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.status == statusPlaying && r.match != nil
}

// The reasons CodeFor gives no move.
var (
	ErrNotPlaying = errors.New("no game under way")
	ErrNoCodeNow  = errors.New("not a time for a code")
)

// MisfitError is CodeFor's answer for a code that fits nothing on the table
// (Woodlouse Chaos: no card): more likely misheard than miscounted.
type MisfitError struct{ Err error }

func (e *MisfitError) Error() string { return e.Err.Error() }
func (e *MisfitError) Unwrap() error { return e.Err }

// CodeFor is the move a code of bangs and claps heard at the table makes in
// room code's game, as the game declares it (game.Hearing.CodeAction), once
// checked against the table (game.CodeChecker). Apply makes it. The error
// wraps ErrNoRoom or ErrNotPlaying, is ErrNoCodeNow when no seat may give a
// code now (or the game takes none), or is a *MisfitError.
func (s *Server) CodeFor(code string, bangs, claps int) (game.Move, error) {
	r := s.room(code)
	if r == nil {
		return game.Move{}, fmt.Errorf("room %s: %w", code, ErrNoRoom)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.status != statusPlaying || r.match == nil {
		return game.Move{}, fmt.Errorf("room %s: %w", code, ErrNotPlaying)
	}
	mv, ok := r.match.CodeMove(bangs, claps)
	if !ok {
		return game.Move{}, ErrNoCodeNow
	}
	if err := r.match.CodeFits(bangs, claps); err != nil {
		return game.Move{}, &MisfitError{err}
	}
	return mv, nil
}

// Apply makes a move for the referee itself (a code the microphone heard,
// the clock's "time"): judged, broadcast and announced like a phone's.
func (s *Server) Apply(code string, mv game.Move) (int, error) {
	r := s.room(code)
	if r == nil {
		return 0, fmt.Errorf("room %s: %w", code, ErrNoRoom)
	}
	r.mu.Lock()
	seq, evs, err := r.refereeMoveLocked(mv)
	if err == nil {
		r.broadcastLocked(nil)
	}
	r.mu.Unlock()
	if err != nil {
		return seq, err
	}
	s.notify(code, evs)
	return seq, nil
}

// refereeMoveLocked judges and journals a move of the referee itself; the
// caller broadcasts and notifies.
func (r *room) refereeMoveLocked(mv game.Move) (int, []referee.Logged, error) {
	if r.status != statusPlaying || r.match == nil {
		return 0, nil, fmt.Errorf("room %s is %s", r.code, r.status)
	}
	seq, evs, err := r.match.Apply(mv)
	if err != nil {
		return seq, nil, err
	}
	if aerr := r.persistMoveLocked(mv, "", seq); aerr != nil {
		r.undoLastMoveLocked()
		return seq - 1, nil, errors.New(aerr.msg)
	}
	if r.match.Over() {
		r.status = statusOver
	}
	return seq, evs, nil
}

// SetLive puts public news from the referee (what the microphone hears)
// into every state of the room under key, and broadcasts it, at most ten
// times a second. v must hold nothing secret: every seat sees it.
func (s *Server) SetLive(code, key string, v any) error {
	r := s.room(code)
	if r == nil {
		return fmt.Errorf("room %s: %w", code, ErrNoRoom)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("live %s: %w", key, err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stopped {
		return fmt.Errorf("room %s: %s", code, errStopping().msg)
	}
	live := maps.Clone(r.live) // states already built keep the old map
	if live == nil {
		live = map[string]json.RawMessage{}
	}
	live[key] = b
	r.live = live
	if !r.liveDue {
		r.liveDue = true
		r.liveStop = s.clock().AfterFunc(liveEvery, r.liveBroadcast)
	}
	return nil
}

// liveBroadcast is the coalesced broadcast SetLive schedules.
func (r *room) liveBroadcast() {
	if !r.s.begin() {
		return // Shutdown called it off
	}
	defer r.s.finish()
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.liveDue || r.stopped {
		return
	}
	r.liveDue, r.liveStop = false, nil
	if r.status != statusEnded {
		r.broadcastLocked(nil)
	}
}

// RoomSummary is one room as Rooms lists it.
type RoomSummary struct {
	Code   string // the room's code, "QXBT"
	Game   string // the game's id, "woodlouse"
	Status string // lobby, playing, paused or over
	Seq    int    // the game's moves so far (0 before the start)
	// JoinURL is where phones join (the QR code's address) and TableURL
	// the public table's page, from the server's address now (a resumed
	// room's too).
	JoinURL, TableURL string
}

// Rooms lists the live rooms, by code.
func (s *Server) Rooms() []RoomSummary {
	s.mu.RLock()
	rooms := make([]*room, 0, len(s.rooms))
	for _, r := range s.rooms {
		rooms = append(rooms, r)
	}
	s.mu.RUnlock()
	out := make([]RoomSummary, 0, len(rooms))
	for _, r := range rooms {
		r.mu.Lock()
		sum := RoomSummary{Code: r.code, Game: r.info.ID, Status: r.status, JoinURL: r.joinURL, TableURL: r.tableURL()}
		if r.match != nil {
			sum.Seq = r.match.Seq()
		}
		r.mu.Unlock()
		if sum.Status != statusEnded {
			out = append(out, sum)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Code < out[j].Code })
	return out
}

// Timers are a room's timers as they stand (copies, for the referee to
// tick their last seconds); nil for an unknown or ended room.
func (s *Server) Timers(code string) []timer.Timer {
	r := s.room(code)
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.status == statusEnded {
		return nil
	}
	out := make([]timer.Timer, len(r.timers))
	for i, t := range r.timers {
		out[i] = t.Timer
	}
	return out
}

// OnMicCheck registers f, which starts the referee's microphone check for
// a room when its host asks for one (POST /api/rooms/{room}/miccheck): it
// asks the table for two claps and two bangs and tells, in the room's live
// news, what it heard. Its error is the host's answer (409). Without f (a
// server with no microphone) the host is told there is none.
func (s *Server) OnMicCheck(f func(room string) error) {
	s.mu.Lock()
	s.micCheck = f
	s.mu.Unlock()
}

// OnMicCheckSkip registers f, which the host calls to skip the microphone
// check the referee offers (POST /api/rooms/{room}/miccheck with
// {"skip":true}): the referee offers it in the room's live news when it
// would learn the table from it, and f says it need not. Its error is the
// host's answer (409).
func (s *Server) OnMicCheckSkip(f func(room string) error) {
	s.mu.Lock()
	s.micSkip = f
	s.mu.Unlock()
}

// checkMic starts the microphone check for r, or skips it (body
// {"skip":true}).
func (s *Server) checkMic(r *room, body []byte) *apiError {
	var req struct {
		Skip bool `json:"skip"`
	}
	if len(body) > 0 {
		if err := json.Unmarshal(body, &req); err != nil {
			return fail(fiber.StatusBadRequest, `the body is {"skip":true} to skip the check, or nothing to start it`)
		}
	}
	s.mu.RLock()
	f := s.micCheck
	if req.Skip {
		f = s.micSkip
	}
	s.mu.RUnlock()
	r.mu.Lock()
	ended := r.status == statusEnded
	r.mu.Unlock()
	switch {
	case ended:
		return fail(fiber.StatusNotFound, "room "+r.code+" has ended")
	case f == nil:
		return fail(fiber.StatusConflict, "this server has no microphone to check")
	}
	if err := f(r.code); err != nil {
		return fail(fiber.StatusConflict, err.Error())
	}
	return nil
}
