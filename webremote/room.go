package webremote

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gofiber/contrib/websocket"
	"github.com/gofiber/fiber/v2"

	"github.com/tableref/tableref/referee"
	"github.com/tableref/tableref/referee/journal"
	"github.com/tableref/tableref/rules/game"
)

// Room statuses, as the state shows them.
const (
	statusLobby   = "lobby"
	statusPlaying = "playing"
	statusPaused  = "paused"
	statusOver    = "over"
	statusEnded   = "ended"
)

// Limits on what a phone may send.
const (
	maxName = 24 // letters (grapheme clusters) in a player's name, and in a timer's
	// maxNameBytes and maxLetterBytes bound a name's bytes, and one
	// letter's: 24 families of four (25 bytes each) or flags of a region
	// (28) fit, a letter under a pile of accents does not.
	maxNameBytes   = 800
	maxLetterBytes = 32
	maxMoveID      = 64  // bytes in a move id
	maxIDs         = 512 // move ids remembered per seat
	lastEvents     = 50  // events in a state when no since was given
	maxRooms       = 1000
	closeRevoke    = 4001 // websocket close code for a token that stopped working
)

// player is one taken seat.
type player struct {
	name  string
	token string // hashToken of the seat's token; "" once kicked during play: the seat may be joined again
	ids   map[string]answer
	order []string // ids, oldest first, to forget the oldest
	// away is when the seat's last websocket went (zero while one is open,
	// or when none ever was): a phone back after backAfter is announced.
	// It lives in memory only.
	away time.Time
}

// backAfter is how long a seat's phone must have been gone for its return
// during a game to be announced ("Bob is back"): phones sleep and wake,
// and a moment's absence is not news.
const backAfter = 10 * time.Second

// answer is an accepted move's answer, kept by id so that a resent move is
// answered again rather than applied twice.
type answer struct {
	seq    int
	events []referee.Logged
}

// remember keeps an accepted move's answer under its id, forgetting the
// oldest past maxIDs.
func (p *player) remember(id string, a answer) {
	if p.ids == nil {
		p.ids = map[string]answer{}
	}
	p.ids[id] = a
	p.order = append(p.order, id)
	if len(p.order) > maxIDs {
		delete(p.ids, p.order[0])
		p.order = slices.Delete(p.order, 0, 1)
	}
}

// forget drops the answer of the newest id (its move could not be saved).
func (p *player) forget(id string) {
	delete(p.ids, id)
	if n := len(p.order); n > 0 && p.order[n-1] == id {
		p.order = p.order[:n-1]
	}
}

// who is the holder of a token: a seat, or the host (seat game.Table); or
// a screen that watches the public table without a token (watch).
type who struct {
	seat  int
	host  bool
	watch bool
}

// watcher is a screen that shows the public table: a TV, with no token and
// no powers. What it sees is the table's view, public by construction.
var watcher = who{seat: game.Table, watch: true}

// room is one room. Everything in it is guarded by mu.
//
// Lock order: a room's mu, then the Server's mu (a join adds its token to
// the server's list under the room's lock), then a match's own lock. Nothing
// takes a room's mu while holding the Server's.
//
// The leaf locks come after any of those and take no other lock while held:
// the Server's logMu (logf), limMu (the sockets by address), lifeMu
// (Shutdown's stopped), the limiter's mu, a room's journal's, a client's
// once, and the clock's own (a Fake's: AfterFunc is called under a room's
// mu, and a Fake calls what falls due with its lock released). sweepMu is
// held only to schedule the next sweep on the clock (sweepMu, then the
// clock's); the sweep itself runs without it. A referee using the server
// (tableref serve's party) takes its own lock before any of the server's,
// never the other way round: the server calls its listeners (OnEvents,
// OnTimer, OnMicCheck) with none of its locks held. The files: room.go (the room,
// its seats and connections), wire.go (what it sends), moves.go (players'
// moves), host.go (the host's controls), timers.go, persist.go (its
// journal), live.go (the referee's hand in it).
type room struct {
	s       *Server
	code    string
	g       game.Game
	info    game.Info
	want    int // players asked for; 0 = up to the game's maximum
	variant string
	options map[string]string
	joinURL string
	host    string // hashToken of the host token

	qrOnce sync.Once
	qr     []byte

	mu      sync.Mutex
	status  string
	locked  bool
	seats   []*player      // nil = free (lobby only)
	byToken map[string]int // seats by hashToken
	match   *referee.Match
	clients map[*client]struct{}
	journal *journal.Journal // nil: not saved (Config.Data unset)
	round   int              // games started: 1 at the start, +1 at each restart
	timers  []*roomTimer
	notes   []roomEvent                // the room's own recent events (a timer ran out), public
	noteN   int                        // the number of the room's last event
	active  time.Time                  // the last change (retire.go)
	live    map[string]json.RawMessage // what the referee hears, public (SetLive)
	liveDue bool                       // a coalesced broadcast of live is scheduled
	// liveStop calls off the coalesced broadcast scheduled (nil: none).
	liveStop func() bool
	// stopped: the server is stopping (Shutdown): nothing more is
	// scheduled, no websocket is attached.
	stopped bool

	// replaced: a new room of its creator's is taking its place (api.go's
	// claimSpareLocked). Guarded by the Server's mu, not the room's.
	replaced bool
}

// tableURL is the address of the room's public table (the join address's
// server, /t/CODE).
func (r *room) tableURL() string {
	return strings.TrimSuffix(r.joinURL, "/j/"+r.code) + "/t/" + r.code
}

// whoLocked finds a token's holder: 401 for a missing or unknown token, 404
// once the room has ended.
func (r *room) whoLocked(tok string) (who, *apiError) {
	if r.status == statusEnded {
		return who{}, fail(fiber.StatusNotFound, "room "+r.code+" has ended")
	}
	if tok == "" {
		return who{}, fail(fiber.StatusUnauthorized, "no token: send Authorization: Bearer TOKEN (from creating or joining the room)")
	}
	key := hashToken(tok)
	if key == r.host {
		return who{seat: game.Table, host: true}, nil
	}
	if seat, ok := r.byToken[key]; ok {
		return who{seat: seat}, nil
	}
	return who{}, fail(fiber.StatusUnauthorized, "unknown token for room "+r.code+" (removed from the room? join again)")
}

// hostLocked checks that tok is the host's: 403 for a seat's token.
func (r *room) hostLocked(tok string) *apiError {
	w, err := r.whoLocked(tok)
	if err != nil {
		return err
	}
	if !w.host {
		return fail(fiber.StatusForbidden, "only the host may do that")
	}
	return nil
}

// dropLocked disconnects a client that cannot keep up.
func (r *room) dropLocked(c *client) {
	delete(r.clients, c)
	c.kill()
	r.goneLocked(c)
}

// seatOnlineLocked reports whether a websocket of seat is open.
func (r *room) seatOnlineLocked(seat int) bool {
	for c := range r.clients {
		if c.who.seat == seat && !c.who.host && !c.who.watch {
			return true
		}
	}
	return false
}

// goneLocked notes, for a seat's websocket c that went, when its seat was
// left with none.
func (r *room) goneLocked(c *client) {
	seat := c.who.seat
	if seat < 0 || seat >= len(r.seats) || c.who.host || c.who.watch {
		return
	}
	p := r.seats[seat]
	if p == nil || p.token != c.key || r.seatOnlineLocked(seat) {
		return
	}
	if p.away.IsZero() {
		p.away = r.s.clock().Now()
	}
}

// backLocked announces a seat's phone back during a game after backAfter
// or more without a websocket ("Bob is back"), as a note of the room (no
// journal record of its own: the next one keeps it). The caller is
// attaching a websocket of seat w.seat, not yet among the clients.
func (r *room) backLocked(w who) {
	if w.seat < 0 || w.seat >= len(r.seats) || w.host || w.watch {
		return
	}
	p := r.seats[w.seat]
	if p == nil {
		return
	}
	away := p.away
	p.away = time.Time{}
	if away.IsZero() || r.seatOnlineLocked(w.seat) || (r.status != statusPlaying && r.status != statusPaused) {
		return
	}
	if r.s.clock().Now().Sub(away) >= backAfter {
		r.addNoteLocked("back", p.name+" is back")
	}
}

// seatLimitLocked is the most seats the room has: the players asked for
// when it was made, or the game's most.
func (r *room) seatLimitLocked() int {
	if r.want > 0 {
		return r.want
	}
	return r.info.MaxPlayers
}

// addNote adds a note of the room (public) to rec, a change about to be
// saved, on a copy of its notes: the room's own are left as they are until
// the change is.
func (rec *roomRec) addNote(typ, text string) {
	seq := 0
	if rec.match != nil {
		seq = rec.match.Seq()
	}
	rec.noteN++
	notes := append(slices.Clone(rec.notes), roomEvent{Logged: referee.Logged{Seq: seq, Event: game.Event{Type: typ, Text: text}}, N: rec.noteN})
	if extra := len(notes) - maxNotes; extra > 0 {
		notes = notes[extra:]
	}
	rec.notes = notes
}

// closeTokenLocked closes the websockets of a token (by its hash) that
// stopped working.
func (r *room) closeTokenLocked(key, why string) {
	for c := range r.clients {
		if c.key == key {
			delete(r.clients, c)
			c.close(closeRevoke, why)
		}
	}
}

// stop ends the room's life in this server as it stops (Shutdown): its
// websockets close (1001), its timers and its coalesced broadcast are
// called off, nothing more is scheduled or attached, and (closeJournal)
// its journal closes. The room stays as its journal has it, to be resumed.
func (r *room) stop(closeJournal bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stopped = true
	for c := range r.clients {
		delete(r.clients, c)
		c.close(websocket.CloseGoingAway, "the server is stopping")
	}
	for _, t := range r.timers {
		if t.stop != nil {
			t.stop()
			t.stop = nil
		}
	}
	if r.liveStop != nil {
		r.liveStop()
		r.liveStop, r.liveDue = nil, false
	}
	if closeJournal && r.journal != nil {
		if err := r.journal.Close(); err != nil {
			r.s.logf("room %s: closing its journal: %v", r.code, err)
		}
	}
}

// attach adds a websocket client and queues its first state: a token's
// holder, or (watch) a screen of the public table.
func (r *room) attach(c *client, since int, watch bool) *apiError {
	r.mu.Lock()
	defer r.mu.Unlock()
	w, err := watcher, (*apiError)(nil)
	if r.status == statusEnded {
		return fail(fiber.StatusNotFound, "room "+r.code+" has ended")
	}
	if r.stopped {
		return errStopping()
	}
	if !watch {
		w, err = r.whoLocked(c.token)
	}
	if err != nil {
		return err
	}
	c.who = w
	r.backLocked(w)
	r.clients[c] = struct{}{}
	com := r.commonLocked()
	st := r.buildLocked(com, w, since, -1)
	st.Type = "state"
	b := marshalState(st)
	c.lastSeq, c.lastNote = st.Seq, r.noteN
	c.roomSent, c.roomWho = com.roomKey(), w
	if !c.enqueue(b) {
		r.dropLocked(c)
		return nil
	}
	r.broadcastLocked(c) // the others see the player connected
	return nil
}

// detach removes a websocket client that went away.
func (r *room) detach(c *client) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.clients[c]; !ok {
		return
	}
	delete(r.clients, c)
	r.goneLocked(c)
	if r.status != statusEnded {
		r.broadcastLocked(nil) // the others see the player disconnected
	}
}

// watch is GET …/table: the public table, for any screen.
func (r *room) watch(since int) (state, *apiError) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.status == statusEnded {
		return state{}, fail(fiber.StatusNotFound, "room "+r.code+" has ended")
	}
	return r.stateLocked(watcher, since, -1), nil
}

// view is GET …/view.
func (r *room) view(tok string, since int) (state, *apiError) {
	r.mu.Lock()
	defer r.mu.Unlock()
	w, err := r.whoLocked(tok)
	if err != nil {
		return state{}, err
	}
	return r.stateLocked(w, since, -1), nil
}

// join takes the first free seat (or, once started, the first vacant one;
// or, in a game that takes latecomers, a new one).
func (r *room) join(name string) (int, string, *apiError) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.status == statusEnded {
		return 0, "", fail(fiber.StatusNotFound, "room "+r.code+" has ended")
	}
	if r.locked {
		return 0, "", fail(fiber.StatusConflict, "room "+r.code+" is locked: ask the host to unlock it")
	}
	if p := lookalikeTaken(r.seats, name); p != nil {
		return 0, "", nameTaken(name, p.name, r.code)
	}
	seat := -1
	for i, p := range r.seats {
		if (r.status == statusLobby && p == nil) || (r.status != statusLobby && p != nil && p.token == "") {
			seat = i
			break
		}
	}
	if seat < 0 {
		switch {
		case r.status == statusLobby:
			return 0, "", fail(fiber.StatusConflict, fmt.Sprintf("room %s is full (%d seats)", r.code, len(r.seats)))
		case r.status == statusOver || r.match == nil || r.match.Over():
			return 0, "", fail(fiber.StatusConflict, "the game is over: ask the host for a new game")
		case !r.info.LateJoin():
			return 0, "", fail(fiber.StatusConflict, r.info.Name+" has started and cannot take a new player mid-game: ask the host to start a new game")
		case len(r.seats) >= r.seatLimitLocked():
			return 0, "", fail(fiber.StatusConflict, fmt.Sprintf("room %s is full: the game has started and all %d seats are taken", r.code, len(r.seats)))
		}
	}
	tok, terr := newToken()
	if terr != nil {
		return 0, "", fail(fiber.StatusInternalServerError, "no randomness for a token: "+terr.Error())
	}
	if seat < 0 {
		seat, err := r.sitLocked(name, hashToken(tok))
		if err != nil {
			return 0, "", err
		}
		return seat, tok, nil
	}
	next := r.recLocked()
	next.seats = slices.Clone(r.seats)
	next.seats[seat] = &player{name: name, token: hashToken(tok)}
	switch old := r.seats[seat]; {
	case old == nil:
		next.addNote("joined", name+" joined the room")
	case strings.EqualFold(old.name, name):
		next.addNote("joined", name+" takes their seat again")
	default:
		next.addNote("joined", name+" takes "+old.name+"'s seat")
	}
	if err := r.saveLocked("join", next); err != nil {
		return 0, "", err
	}
	if r.match != nil {
		_ = r.match.Rename(seat, name) // seat is in range: it is one of the match's
	}
	r.byToken[r.seats[seat].token] = seat
	r.s.addToken(r.seats[seat].token, r)
	r.s.logf("room %s: %s joined seat %d", r.code, name, seat)
	r.broadcastLocked(nil)
	return seat, tok, nil
}

// sitLocked seats a latecomer (its token's hash key) at a new seat of a
// game in progress that takes one (game.Info.SeatAction): the game's seat
// move, made on a copy of the match, is journalled as a move record that
// carries the new seat, and only then are the copy and the longer list of
// seats the room's. Its events (the game's "… sits down") are the
// announcement.
func (r *room) sitLocked(name, key string) (int, *apiError) {
	m := r.match.Clone()
	seat, seq, evs, err := m.Sit(name)
	switch {
	case errors.Is(err, game.ErrOver):
		return 0, fail(fiber.StatusConflict, "the game is over: ask the host for a new game")
	case err != nil:
		return 0, fail(fiber.StatusConflict, fmt.Sprintf("room %s cannot seat %s: %v", r.code, name, err))
	case seat != len(r.seats): // cannot happen: the match's seats are the room's
		return 0, fail(fiber.StatusInternalServerError, fmt.Sprintf("the game has %d seats but the room %d", seat, len(r.seats)))
	}
	p := &player{name: name, token: key}
	next := r.recLocked()
	next.seats = append(slices.Clone(r.seats), p)
	next.match = m
	if err := r.persistSitLocked(m.Moves()[seq-1], seq, p); err != nil {
		return 0, err
	}
	r.adoptLocked(next)
	r.byToken[key] = seat
	r.s.addToken(key, r)
	r.s.logf("room %s: %s sat down at new seat %d", r.code, name, seat)
	r.broadcastLocked(nil)
	r.s.notify(r.code, evs)
	return seat, nil
}
