package webremote

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/referee"
	"github.com/tableref/tableref/rules/catalog"
	"github.com/tableref/tableref/rules/game"
)

// The privacy test plays every game of the catalogue through the HTTP API
// with random legal moves, and checks every payload a seat (or the table)
// receives, over HTTP and over its websocket, two ways:
//
//  1. Exactly: the payload's view is the game's View for that seat at that
//     seq, replayed independently on a reference referee.Match (same seed,
//     same moves); its legal moves are that seat's; its events are among
//     those the reference shows that seat. So a seat is sent its own view
//     and nothing built from another's.
//
//  2. By value: for every other seat S, the secrets of S are the JSON
//     objects and arrays (8 bytes or more when encoded) of S's view that
//     appear neither in the table's view nor anywhere in the receiving
//     seat's own reference snapshot (so that a card both happen to hold, or
//     werewolves who know each other, do not count). No object or array of
//     the payload may equal one of them. This catches a leak the exact
//     check could miss: another seat's hand or view smuggled into the room
//     info, the events or an extra field. Comparing decoded JSON values
//     (not text) makes the check independent of key order; leaving out
//     short values and scalars keeps it from flagging "[0]" or "spider".
func TestNoSeatEverReceivesAnotherSeatsSecrets(t *testing.T) {
	for _, g := range append(catalog.All(), catalog.Tools()...) { // the dealer ("deck") too
		t.Run(g.Info().ID, func(t *testing.T) { playAndCheckPrivacy(t, g, 100) })
	}
}

// canon is a decoded JSON value's canonical encoding.
func canon(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// subtrees adds the canonical encodings of every object and array in v.
func subtrees(v any, out map[string]bool) {
	switch x := v.(type) {
	case map[string]any:
		for _, c := range x {
			subtrees(c, out)
		}
		out[canon(x)] = true
	case []any:
		for _, c := range x {
			subtrees(c, out)
		}
		out[canon(x)] = true
	}
}

func subtreesOf(t *testing.T, b []byte) map[string]bool {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal(b, &v))
	out := map[string]bool{}
	subtrees(v, out)
	return out
}

// reference is the independent replay of a room's game.
type reference struct {
	m     *referee.Match
	seats int
	views map[int]map[string]bool // seat (and game.Table) → subtrees of its view
	allow map[int]map[string]bool // seat (and game.Table) → subtrees of its whole snapshot
}

func (r *reference) refresh(t *testing.T) {
	r.views, r.allow = map[int]map[string]bool{}, map[int]map[string]bool{}
	for s := game.Table; s < r.seats; s++ {
		snap := r.m.Snapshot(s, 0)
		r.views[s] = subtreesOf(t, snap.View)
		b, err := json.Marshal(snap)
		require.NoError(t, err)
		r.allow[s] = subtreesOf(t, b)
	}
}

// check judges one payload received by seat (game.Table for the host).
// last is the room part of the socket's last state (a state may leave it
// out when unchanged).
func (r *reference) check(t *testing.T, seat int, payload []byte, last *testRoom, where string) {
	t.Helper()
	st := decodeState(t, payload, last)
	snap := r.m.Snapshot(seat, 0)
	require.Equal(t, snap.Seq, st.Seq, "%s: payload at the wrong seq", where)
	assert.Equal(t, seat, st.Room.You, where)
	assert.Equal(t, seat == game.Table, st.Room.Host, where)
	assert.JSONEq(t, string(snap.View), string(st.View), "%s: the view is not the seat's own", where)
	for _, l := range st.Legal {
		assert.Equal(t, seat, l.Seat, "%s: another seat's legal move", where)
	}
	if st.Room.Status == "playing" {
		offered := 0 // phones are not offered the referee's own moves
		for _, mv := range snap.Legal {
			if !slices.Contains(r.m.Game().Info().RefereeActions, mv.Action) {
				offered++
			}
		}
		assert.Len(t, st.Legal, offered, where)
	}
	known := map[string]bool{}
	for _, e := range snap.Events {
		known[canon(e)] = true
	}
	for _, e := range st.Events {
		assert.True(t, e.To == nil || containsInt(e.To, seat), "%s: an event for seats %v", where, e.To)
		var ev referee.Logged
		b, _ := json.Marshal(e)
		require.NoError(t, json.Unmarshal(b, &ev))
		assert.True(t, known[canon(ev)], "%s: an event the seat may not see: %s", where, b)
	}
	got := subtreesOf(t, payload)
	for s := 0; s < r.seats; s++ {
		if s == seat {
			continue
		}
		for v := range r.views[s] {
			if len(v) < 8 || r.views[game.Table][v] || r.allow[seat][v] {
				continue
			}
			if got[v] {
				t.Errorf("%s: seat %d's secret %s reached seat %d", where, s, v, seat)
			}
		}
	}
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// frames collects a websocket's frames on a channel.
func frames(t *testing.T, c *wsClient) <-chan []byte {
	ch := make(chan []byte, 4096)
	go func() {
		defer close(ch)
		for {
			_, b, err := c.conn.ReadMessage()
			if err != nil {
				return
			}
			ch <- b
		}
	}()
	return ch
}

func playAndCheckPrivacy(t *testing.T, g game.Game, moves int) {
	var seedMu sync.Mutex
	var seeds []uint64
	next := testSeeds()
	l := startLive(t, Config{Seed: func() uint64 {
		seedMu.Lock()
		defer seedMu.Unlock()
		s := next()
		seeds = append(seeds, s)
		return s
	}})
	lastSeed := func() uint64 {
		seedMu.Lock()
		defer seedMu.Unlock()
		return seeds[len(seeds)-1]
	}
	in := g.Info()
	n := min(max(in.MinPlayers, 3), in.MaxPlayers) // the dealer deals to one player at least: three, to have secrets to keep
	code, host := createRoom(t, l.Server, map[string]any{"game": in.ID, "players": n})
	names := make([]string, n)
	toks := make([]string, n)
	for i := range n {
		names[i] = fmt.Sprintf("P%d", i)
		_, toks[i] = joinRoom(t, l.Server, code, names[i])
	}
	// Every seat and the table listen from before the start.
	who := append([]int{game.Table}, seq(n)...)
	chans := map[int]<-chan []byte{}
	rooms := map[int]*testRoom{} // each socket's last room part
	for _, s := range who {
		tok := host
		if s >= 0 {
			tok = toks[s]
		}
		c := l.mustDial(t, code, tok, 0)
		chans[s] = frames(t, c)
		// Its first state comes after the others were told it connected,
		// so no lobby state can arrive after the start.
		rooms[s] = &testRoom{}
		select {
		case b := <-chans[s]:
			require.Contains(t, string(b), `"status":"lobby"`)
			decodeState(t, b, rooms[s])
		case <-time.After(testWait):
			t.Fatal("no first state")
		}
	}
	r := call(t, l.Server, "POST", "/api/rooms/"+code+"/start", host, nil)
	require.Equal(t, 200, r.status, "%s", r.body)

	ref := &reference{seats: n}
	newRef := func() {
		m, err := referee.New(g, game.Config{Seed: lastSeed()}, names)
		require.NoError(t, err)
		ref.m = m
		ref.refresh(t)
	}
	newRef()

	// drain reads each listener's frames up to the state at the current
	// seq and status, checking every frame from the start on.
	drain := func(status string) {
		for _, s := range who {
			for {
				var b []byte
				select {
				case b = <-chans[s]:
				case <-time.After(testWait):
					t.Fatalf("seat %d: no state for seq %d", s, ref.m.Seq())
				}
				require.NotNil(t, b, "seat %d: the socket closed", s)
				st := decodeState(t, b, rooms[s])
				require.Equal(t, "state", st.Type)
				if st.Room.Status == "lobby" {
					assert.Equal(t, "null", string(st.View))
					continue
				}
				ref.check(t, s, b, rooms[s], fmt.Sprintf("websocket of seat %d at seq %d", s, st.Seq))
				if st.Seq == ref.m.Seq() && st.Room.Status == status {
					break
				}
			}
		}
	}
	drain("playing")

	rng := rand.New(rand.NewPCG(uint64(len(in.ID)), 7))
	played, restarts := 0, 0
	for played < moves {
		// Every seat's HTTP view, checked; the legal moves to pick from.
		type option struct {
			seat int
			mv   game.Move
		}
		var opts []option
		for _, s := range who {
			tok := host
			if s >= 0 {
				tok = toks[s]
			}
			res := call(t, l.Server, "GET", "/api/rooms/"+code+"/view", tok, nil)
			require.Equal(t, 200, res.status, "%s", res.body)
			ref.check(t, s, res.body, &testRoom{}, fmt.Sprintf("HTTP view of seat %d at seq %d", s, ref.m.Seq()))
			var st testState
			require.NoError(t, json.Unmarshal(res.body, &st))
			for _, lg := range st.Legal {
				opts = append(opts, option{s, game.Move{Seat: s, Action: lg.Action, Args: lg.Args}})
			}
		}
		if ref.m.Over() || len(opts) == 0 {
			if restarts >= 50 {
				break
			}
			res := call(t, l.Server, "POST", "/api/rooms/"+code+"/restart", host, nil)
			require.Equal(t, 200, res.status, "%s", res.body)
			restarts++
			newRef()
			drain("playing")
			continue
		}
		o := opts[rng.IntN(len(opts))]
		res := call(t, l.Server, "POST", "/api/rooms/"+code+"/moves", toks[o.seat],
			map[string]any{"move": map[string]any{"action": o.mv.Action, "args": o.mv.Args}, "seq": ref.m.Seq()})
		require.Equal(t, 200, res.status, "%s: seat %d %v: %s", in.ID, o.seat, o.mv, res.body)
		_, _, err := ref.m.Apply(o.mv)
		require.NoError(t, err, "the reference refused what the server accepted")
		ref.refresh(t)
		// The move's answer holds only events the mover may see.
		var a struct {
			Events []referee.Logged `json:"events"`
		}
		require.NoError(t, json.Unmarshal(res.body, &a))
		for _, e := range a.Events {
			assert.True(t, e.For(o.seat), "the answer holds an event for seats %v", e.To)
		}
		played++
		status := "playing"
		if ref.m.Over() {
			status = "over"
		}
		drain(status)
	}
	assert.GreaterOrEqual(t, played, min(moves, 20), "%s: too few moves were played to judge", in.ID)
	t.Logf("%s: %d moves, %d restarts", in.ID, played, restarts)
}

func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}
