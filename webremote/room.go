package webremote

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

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
	maxName = 24 // letters (grapheme clusters) in a player's name
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
}

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
// takes a room's mu while holding the Server's. The files: room.go (the room,
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

// closeAll closes every websocket of the room.
func (r *room) closeAll(code int, why string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for c := range r.clients {
		delete(r.clients, c)
		c.close(code, why)
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
	if !watch {
		w, err = r.whoLocked(c.token)
	}
	if err != nil {
		return err
	}
	c.who = w
	r.clients[c] = struct{}{}
	st := r.stateLocked(w, since, -1)
	st.Type = "state"
	b := marshalState(st)
	c.lastSeq, c.lastNote = st.Seq, r.noteN
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

// join takes the first free seat (or, once started, the first vacant one).
func (r *room) join(name string) (int, string, *apiError) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.status == statusEnded {
		return 0, "", fail(fiber.StatusNotFound, "room "+r.code+" has ended")
	}
	if r.locked {
		return 0, "", fail(fiber.StatusConflict, "room "+r.code+" is locked: ask the host to unlock it")
	}
	for _, p := range r.seats {
		if p != nil && p.token != "" && strings.EqualFold(p.name, name) {
			return 0, "", fail(fiber.StatusConflict, fmt.Sprintf("the name %q is taken in room %s: choose another", name, r.code))
		}
	}
	seat := -1
	for i, p := range r.seats {
		if (r.status == statusLobby && p == nil) || (r.status != statusLobby && p != nil && p.token == "") {
			seat = i
			break
		}
	}
	if seat < 0 {
		if r.status == statusLobby {
			return 0, "", fail(fiber.StatusConflict, fmt.Sprintf("room %s is full (%d seats)", r.code, len(r.seats)))
		}
		return 0, "", fail(fiber.StatusConflict, "the game in room "+r.code+" has started and no seat is free")
	}
	tok, terr := newToken()
	if terr != nil {
		return 0, "", fail(fiber.StatusInternalServerError, "no randomness for a token: "+terr.Error())
	}
	next := r.recLocked()
	next.seats = slices.Clone(r.seats)
	next.seats[seat] = &player{name: name, token: hashToken(tok)}
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
