package webremote

import (
	"bytes"
	"encoding/json"
	"slices"
	"sort"
	"strconv"
	"sync"

	"github.com/tableref/tableref/referee"
	"github.com/tableref/tableref/rules/game"
)

// What a room sends: the state each seat, the host and the table see,
// built once per broadcast and spliced with each seat's own view.

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
	Seats    int          `json:"seats"`     // in a game under way that takes latecomers, the most it may have
	LateJoin bool         `json:"late_join"` // the game takes new players while it is played (game.Info.SeatAction)
	FreePlay bool         `json:"free_play"` // the game has no turns: every seat acts when it likes (game.Info.FreePlay)
	// Seal is the game's commitment to its seed (referee.Seal), shown from
	// its start; Seed is the seed itself (as a string: it is 64 bits),
	// shown once the game is over, so that anyone can check the draws
	// (tableref verify).
	Seal     string `json:"seal,omitempty"`
	Seed     string `json:"seed,omitempty"`
	Min      int    `json:"min_players"` // the game's fewest: the start waits for them
	You      int    `json:"you"`
	Host     bool   `json:"host"`
	JoinURL  string `json:"join_url"`  // what the room's QR code says: the address phones join at
	TableURL string `json:"table_url"` // the public table, to open on a TV: no token, no powers
	// Hears is what the game listens for at the table, as it declares it:
	// the pages show the microphone's news for it, and without a
	// microphone say what the game loses.
	Hears game.Hearing `json:"hears"`
}

type state struct {
	Type string `json:"type,omitempty"` // "state" on the websocket
	// Room is always set over HTTP; a websocket state leaves it out when
	// that socket's last state had the same (see broadcastLocked).
	Room   *roomInfo       `json:"room,omitempty"`
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
	in := roomInfo{Code: r.code, Game: r.info.ID, Name: r.info.Name, Status: r.status, Locked: r.locked, Hears: r.info.Hears,
		Players: make([]playerInfo, 0, len(r.seats)), Seats: len(r.seats), Min: r.info.MinPlayers, JoinURL: r.joinURL, TableURL: r.tableURL(),
		LateJoin: r.info.LateJoin(), FreePlay: r.info.FreePlay}
	if in.LateJoin && (r.status == statusPlaying || r.status == statusPaused) {
		in.Seats = max(in.Seats, r.seatLimitLocked())
	}
	if r.match != nil {
		seed := r.match.Config().Seed
		in.Seal = referee.Seal(r.code, seed)
		if r.status == statusOver || r.status == statusEnded || r.match.Over() {
			in.Seed = strconv.FormatUint(seed, 10)
		}
	}
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
	info := c.info
	info.You, info.Host = w.seat, w.host
	st = state{Room: &info, Turn: []int{}, Legal: []game.Move{}, Events: []roomEvent{}, Timers: c.timers, Now: c.now}
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
	if r.status == statusPlaying && len(snap.Legal) > 0 {
		// The phones are not offered the referee's own moves. The snapshot's
		// list is this state's alone, so it is filtered in place.
		st.Legal = slices.DeleteFunc(snap.Legal, func(mv game.Move) bool {
			return slices.Contains(r.info.RefereeActions, mv.Action)
		})
	}
	return st
}

// broadcastLocked pushes the state to every websocket client of the room
// but except, each built from its own seat's snapshot. It never writes to a
// socket: a client whose queue is full is dropped.
//
// A state is built and encoded once per kind of receiver (seat, host, what
// it saw last) and the bytes are shared by every socket of that kind. The
// room's part (its players, status, addresses: most of a state's bytes) is
// left out for a socket whose last state had the same: the page keeps the
// one it has.
func (r *room) broadcastLocked(except *client) {
	type key struct {
		seat, since, note int
		host, room        bool
	}
	cache := make(map[key][]byte, 8)
	var com common
	var roomKey string
	built := false
	seq := 0
	if r.match != nil {
		seq = r.match.Seq()
	}
	for c := range r.clients {
		if c == except {
			continue
		}
		if !built {
			com, built = r.commonLocked(), true
			roomKey = com.roomKey()
		}
		sent := c.roomSent == roomKey && c.roomWho == c.who
		k := key{c.who.seat, c.lastSeq, c.lastNote, c.who.host, !sent}
		b, ok := cache[k]
		if !ok {
			st := r.buildLocked(com, c.who, c.lastSeq, c.lastNote)
			st.Type = "state"
			if sent {
				st.Room = nil
			}
			b = marshalState(st)
			cache[k] = b
		}
		if c.enqueue(b) {
			c.lastSeq, c.lastNote = seq, r.noteN
			c.roomSent, c.roomWho = roomKey, c.who
		} else {
			r.dropLocked(c)
		}
	}
}

// roomKey is the room's part of a state, the same for every token (You and
// Host are the token's): what a socket was last sent of it.
func (c common) roomKey() string {
	b, _ := json.Marshal(c.info)
	return string(b)
}

// marshalState encodes a state. The view is the game's JSON already
// (marshalled by the match): it is spliced in rather than passed through
// encoding/json, which would scan and compact it again. The state is
// encoded into a pooled buffer and copied once into the frame, which every
// socket of its key shares.
func marshalState(st state) []byte {
	view := st.View
	st.View = nil
	buf := encodeBufs.Get().(*bytes.Buffer)
	defer encodeBufs.Put(buf)
	buf.Reset()
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(true) // as json.Marshal
	if enc.Encode(st) != nil {
		return nil // as json.Marshal: a state is plain data, so this is a bug
	}
	b := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	// "view":null occurs once as a key; inside a string its quotes would be
	// escaped.
	i := bytes.Index(b, viewNull)
	if len(view) == 0 || i < 0 {
		return bytes.Clone(b)
	}
	out := make([]byte, 0, len(b)-len("null")+len(view))
	out = append(out, b[:i+len(`"view":`)]...)
	out = append(out, view...)
	return append(out, b[i+len(viewNull):]...)
}

// encodeBufs holds the buffers marshalState encodes into.
var encodeBufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

var viewNull = []byte(`"view":null`)
