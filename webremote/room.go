package webremote

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
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
	maxName     = 24  // runes in a player's name
	maxMoveID   = 64  // bytes in a move id
	maxIDs      = 512 // move ids remembered per seat
	lastEvents  = 50  // events in a state when no since was given
	maxRooms    = 1000
	closeRevoke = 4001 // websocket close code for a token that stopped working
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

// Wire shapes of docs/api.md.

type playerInfo struct {
	Seat      int    `json:"seat"`
	Name      string `json:"name"`
	Connected bool   `json:"connected"`
	Vacant    bool   `json:"vacant,omitempty"` // kicked during play: the seat may be joined again
}

type roomInfo struct {
	Code     string       `json:"code"`
	Game     string       `json:"game"`
	Name     string       `json:"name"`
	Status   string       `json:"status"`
	Locked   bool         `json:"locked"`
	Players  []playerInfo `json:"players"`
	Seats    int          `json:"seats"`
	Min      int          `json:"min_players"` // the game's fewest: the start waits for them
	You      int          `json:"you"`
	Host     bool         `json:"host"`
	JoinURL  string       `json:"join_url"`  // what the room's QR code says: the address phones join at
	TableURL string       `json:"table_url"` // the public table, to open on a TV: no token, no powers
}

type state struct {
	Type   string          `json:"type,omitempty"` // "state" on the websocket
	Room   roomInfo        `json:"room"`
	Seq    int             `json:"seq"`
	Names  []string        `json:"names"`
	View   json.RawMessage `json:"view"`
	Turn   []int           `json:"turn"`
	Legal  []game.Move     `json:"legal"`
	Over   bool            `json:"over"`
	Result *game.Result    `json:"result"`
	Events []roomEvent     `json:"events"`
	Timers []timerInfo     `json:"timers"`
	// Now is the server's clock (Unix ms) when the state was built: pages
	// count timers down against it, not against the phone's own clock.
	Now int64 `json:"now"`
	// Live is public news from the referee itself (what the microphone
	// hears), the same for every seat and the table.
	Live map[string]json.RawMessage `json:"live,omitempty"`
}

// infoLocked is the room part of the state for w.
func (r *room) infoLocked(w who) roomInfo {
	in := r.commonLocked().info
	in.You, in.Host = w.seat, w.host
	return in
}

// common is the part of a state that is the same for every token: built
// once per broadcast.
type common struct {
	info   roomInfo // You and Host are the token's
	timers []timerInfo
	now    int64
}

func (r *room) commonLocked() common {
	in := roomInfo{Code: r.code, Game: r.info.ID, Name: r.info.Name, Status: r.status, Locked: r.locked,
		Players: make([]playerInfo, 0, len(r.seats)), Seats: len(r.seats), Min: r.info.MinPlayers, JoinURL: r.joinURL, TableURL: r.tableURL()}
	conns := make([]bool, len(r.seats))
	for c := range r.clients {
		if s := c.who.seat; s >= 0 && s < len(conns) {
			conns[s] = true
		}
	}
	for i, p := range r.seats {
		if p == nil {
			continue
		}
		in.Players = append(in.Players, playerInfo{Seat: i, Name: p.name, Connected: conns[i] && p.token != "", Vacant: p.token == ""})
	}
	return common{info: in, timers: r.timerInfosLocked(), now: r.s.clock().Now().UnixMilli()}
}

// stateLocked is what w may know now, with the events after since (the
// last 50 when since is negative; all kept when since is beyond the game,
// as after a restart). The room's own events (notes) are those numbered
// above afterNote, or when afterNote is negative those since the game
// stood at since.
func (r *room) stateLocked(w who, since, afterNote int) state {
	return r.buildLocked(r.commonLocked(), w, since, afterNote)
}

// buildLocked is stateLocked with the common part built already.
func (r *room) buildLocked(c common, w who, since, afterNote int) (st state) {
	st = state{Room: c.info, Turn: []int{}, Legal: []game.Move{}, Events: []roomEvent{}, Timers: c.timers, Now: c.now}
	st.Room.You, st.Room.Host = w.seat, w.host
	if len(r.live) > 0 {
		st.Live = r.live
	}
	seq := 0
	if r.match != nil {
		seq = r.match.Seq()
	}
	from := since
	if since < 0 || since > seq {
		from = 0
	}
	defer func() {
		for _, n := range r.notes {
			if (afterNote >= 0 && n.N > afterNote) || (afterNote < 0 && n.Seq >= from) {
				st.Events = append(st.Events, n)
			}
		}
		// A note comes after the game's events of its seq.
		sort.SliceStable(st.Events, func(i, j int) bool { return st.Events[i].Seq < st.Events[j].Seq })
		if since < 0 && len(st.Events) > lastEvents {
			st.Events = st.Events[len(st.Events)-lastEvents:]
		}
	}()
	if r.match == nil {
		st.Names = make([]string, len(r.seats))
		for i, p := range r.seats {
			if p != nil {
				st.Names[i] = p.name
			}
		}
		return st
	}
	snap := r.match.Snapshot(w.seat, from)
	st.Seq, st.Names, st.View, st.Turn, st.Over, st.Result = snap.Seq, snap.Names, snap.View, snap.Turn, snap.Over, snap.Result
	for _, e := range snap.Events {
		st.Events = append(st.Events, roomEvent{Logged: e})
	}
	if st.Turn == nil {
		st.Turn = []int{}
	}
	if r.status == statusPlaying && snap.Legal != nil {
		for _, mv := range snap.Legal {
			if !slices.Contains(r.info.RefereeActions, mv.Action) {
				st.Legal = append(st.Legal, mv)
			}
		}
	}
	return st
}

// broadcastLocked pushes the state to every websocket client of the room
// but except, each built from its own seat's snapshot. It never writes to a
// socket: a client whose queue is full is dropped.
func (r *room) broadcastLocked(except *client) {
	type key struct {
		seat, since, note int
		host              bool
	}
	cache := make(map[key][]byte, 8)
	var com common
	built := false
	seq := 0
	if r.match != nil {
		seq = r.match.Seq()
	}
	for c := range r.clients {
		if c == except {
			continue
		}
		k := key{c.who.seat, c.lastSeq, c.lastNote, c.who.host}
		b, ok := cache[k]
		if !ok {
			if !built {
				com, built = r.commonLocked(), true
			}
			st := r.buildLocked(com, c.who, c.lastSeq, c.lastNote)
			st.Type = "state"
			b = marshalState(st)
			cache[k] = b
		}
		if c.enqueue(b) {
			c.lastSeq, c.lastNote = seq, r.noteN
		} else {
			r.dropLocked(c)
		}
	}
}

// marshalState encodes a state. The view is the game's JSON already
// (marshalled by the match): it is spliced in rather than passed through
// encoding/json, which would scan and compact it again.
func marshalState(st state) []byte {
	view := st.View
	st.View = nil
	b, err := json.Marshal(st)
	if err != nil || len(view) == 0 {
		return b
	}
	// "view":null occurs once as a key; inside a string its quotes would be
	// escaped.
	i := bytes.Index(b, viewNull)
	if i < 0 {
		return b
	}
	out := make([]byte, 0, len(b)+len(view))
	out = append(out, b[:i+len(`"view":`)]...)
	out = append(out, view...)
	return append(out, b[i+len(viewNull):]...)
}

var viewNull = []byte(`"view":null`)

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
	if r.match != nil {
		_ = r.match.Rename(seat, name) // seat is in range: it is one of the match's
	}
	before := r.seats[seat]
	r.seats[seat] = &player{name: name, token: hashToken(tok)}
	if err := r.persistLocked("join"); err != nil {
		r.seats[seat] = before
		if r.match != nil && before != nil {
			_ = r.match.Rename(seat, before.name)
		}
		return 0, "", err
	}
	r.byToken[r.seats[seat].token] = seat
	r.s.addToken(r.seats[seat].token, r)
	r.s.logf("room %s: %s joined seat %d", r.code, name, seat)
	r.broadcastLocked(nil)
	return seat, tok, nil
}

// moveRequest is the body of a move (HTTP) or a move frame (websocket).
type moveRequest struct {
	Move json.RawMessage `json:"move"`
	Seq  *int            `json:"seq"`
	ID   string          `json:"id"`
}

// parseMove reads a move for seat: text "ACTION ARG..." (a leading seat
// number is allowed and must be the token's) or {"action","args","seat"}.
func parseMove(raw json.RawMessage, seat int) (game.Move, *apiError) {
	raw = json.RawMessage(strings.TrimSpace(string(raw)))
	if len(raw) == 0 || string(raw) == "null" {
		return game.Move{}, fail(fiber.StatusBadRequest, `no move: send {"move":"ACTION ARG..."}`)
	}
	var mv game.Move
	claimed, named := 0, false
	switch raw[0] {
	case '"':
		var text string
		if err := json.Unmarshal(raw, &text); err != nil {
			return game.Move{}, fail(fiber.StatusBadRequest, "malformed move: "+err.Error())
		}
		f := strings.Fields(text)
		if len(f) > 0 {
			if n, ok := seatNumber(f[0]); ok {
				claimed, named, f = n, true, f[1:]
			}
		}
		if len(f) == 0 {
			return game.Move{}, fail(fiber.StatusBadRequest, fmt.Sprintf("move %q: want an action and its arguments, like \"play broom\"", text))
		}
		mv = game.Move{Action: f[0], Args: f[1:]}
	case '{':
		var obj struct {
			Seat   *int     `json:"seat"`
			Action string   `json:"action"`
			Args   []string `json:"args"`
		}
		if err := json.Unmarshal(raw, &obj); err != nil {
			return game.Move{}, fail(fiber.StatusBadRequest, "malformed move: "+err.Error())
		}
		if obj.Seat != nil {
			claimed, named = *obj.Seat, true
		}
		action := strings.TrimSpace(obj.Action)
		if action == "" || strings.ContainsFunc(action, isSpace) {
			return game.Move{}, fail(fiber.StatusBadRequest, `move: "action" must be one word, like "play"`)
		}
		for _, a := range obj.Args {
			if a == "" || strings.ContainsFunc(a, isSpace) {
				return game.Move{}, fail(fiber.StatusBadRequest, fmt.Sprintf("move: argument %q must be one word", a))
			}
		}
		mv = game.Move{Action: action, Args: obj.Args}
	default:
		return game.Move{}, fail(fiber.StatusBadRequest, `malformed move: "move" must be text or {"action":…,"args":[…]}`)
	}
	if len(mv.Args) == 0 {
		mv.Args = nil
	}
	if named && claimed != seat {
		return game.Move{}, fail(fiber.StatusForbidden, fmt.Sprintf("not your seat: the move names seat %d, you are seat %d", claimed, seat))
	}
	mv.Seat = seat
	return mv, nil
}

func seatNumber(s string) (int, bool) {
	n := 0
	if s == "" || len(s) > 3 {
		return 0, false
	}
	for _, ch := range s {
		if ch < '0' || ch > '9' {
			return 0, false
		}
		n = n*10 + int(ch-'0')
	}
	return n, true
}

func isSpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\v' || r == '\f'
}

// move judges a move from tok. The answer's events are those its seat may
// see.
func (r *room) move(tok string, req moveRequest) (answer, *apiError) {
	if len(req.ID) > maxMoveID {
		return answer{}, fail(fiber.StatusBadRequest, fmt.Sprintf("move id over %d bytes", maxMoveID))
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	w, err := r.whoLocked(tok)
	if err != nil {
		return answer{}, err
	}
	if w.host {
		return answer{}, fail(fiber.StatusForbidden, "the host cannot move: moves come from the players' phones")
	}
	mv, err := parseMove(req.Move, w.seat)
	if err != nil {
		return answer{}, err
	}
	p := r.seats[w.seat]
	if req.ID != "" {
		if a, ok := p.ids[req.ID]; ok {
			return a, nil
		}
	}
	if slices.Contains(r.info.RefereeActions, mv.Action) {
		return answer{}, fail(fiber.StatusForbidden, fmt.Sprintf("%q is the referee's move (its clock makes it), not a player's", mv.Action))
	}
	switch r.status {
	case statusLobby:
		return answer{}, fail(fiber.StatusConflict, "the game has not started: wait for the host")
	case statusPaused:
		return answer{}, fail(fiber.StatusConflict, "the game is paused: wait for the host")
	case statusOver:
		return answer{}, fail(fiber.StatusConflict, "the game is over")
	}
	stale := false
	if cur := r.match.Seq(); req.Seq != nil && *req.Seq != cur {
		if why := r.staleLocked(w.seat, *req.Seq, cur); why != "" {
			return answer{}, fail(fiber.StatusConflict, why)
		}
		stale = true
	}
	seq, evs, aerr := r.match.Apply(mv)
	if aerr != nil {
		var refused *game.RefusedError
		switch {
		case stale:
			// Legal when the phone looked, but the game has moved on.
			return answer{}, fail(fiber.StatusConflict, fmt.Sprintf("stale: the game moved on since seq %d (it is at %d) and this move no longer stands: %s", *req.Seq, r.match.Seq(), aerr.Error()))
		case errors.Is(aerr, referee.ErrNotYourTurn):
			return answer{}, fail(fiber.StatusForbidden, aerr.Error())
		case errors.Is(aerr, referee.ErrNoSeat):
			return answer{}, fail(fiber.StatusForbidden, aerr.Error())
		case errors.As(aerr, &refused), errors.Is(aerr, game.ErrOver):
			return answer{}, fail(fiber.StatusConflict, aerr.Error())
		default:
			return answer{}, fail(fiber.StatusConflict, aerr.Error())
		}
	}
	a := answer{seq: seq, events: []referee.Logged{}}
	for _, e := range evs {
		if e.For(w.seat) {
			a.events = append(a.events, e)
		}
	}
	if err := r.persistMoveLocked(mv, req.ID, seq); err != nil {
		r.undoLastMoveLocked()
		return answer{}, err
	}
	if req.ID != "" {
		p.remember(req.ID, a)
	}
	if r.match.Over() {
		r.status = statusOver
	}
	if r.status == statusOver {
		r.s.logf("room %s: the game is over", r.code)
	}
	r.broadcastLocked(nil)
	r.s.notify(r.code, evs)
	return a, nil
}

// staleLocked judges a move sent at seq since while the game is at cur
// (since != cur): "" when it may still be tried, else why it is refused.
//
// The seq a phone sends is the one it last saw. Where several seats may act
// at once (Woodlouse guesses, Celestial's secret picks, the dealer), moves of
// other seats land between a phone's look and its move; such a move counts
// in the order it arrives, provided its seat has not moved since it looked
// (so the phone did not act twice on one view) and the rules still accept it
// now (Apply judges it). A seq from the future (a phone of a previous game,
// after a restart) or from before the seat's own last move is refused.
func (r *room) staleLocked(seat, since, cur int) string {
	if since < 0 || since > cur {
		return fmt.Sprintf("stale: the game is at seq %d, not %d; look again and resend", cur, since)
	}
	moves := r.match.Moves()
	for i := len(moves) - 1; i >= since; i-- {
		if moves[i].Seat == seat {
			return fmt.Sprintf("stale: a move of your seat (seq %d) landed after the view this one was made on (seq %d); look again and resend", i+1, since)
		}
	}
	return ""
}

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

// undoLastMoveLocked takes back the last accepted move (it could not be
// saved): the match is replayed without it.
func (r *room) undoLastMoveLocked() {
	moves := r.match.Moves()
	m, err := referee.Replay(r.g, r.match.Config(), r.match.Names(), moves[:len(moves)-1])
	if err != nil { // cannot happen: those moves were all accepted
		r.s.logf("room %s: cannot take back a move: %v", r.code, err)
		return
	}
	r.match = m
	if r.status == statusOver {
		r.status = statusPlaying
	}
}
