package webremote

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/referee/timer"
)

// Latecomers (issue 13, item 7): a game that takes a new player while it is
// played (the dealer) seats one who joins after the start at a new seat;
// one that does not says why. And the room announces joins, seat swaps,
// removals and a phone back after a while away.

// dealerRoom is a started dealer room made for players seats (0: the
// game's most) with Ann, Bob and Cy: its code, the host's token and the
// seats' tokens.
func dealerRoom(t *testing.T, s *Server, players int) (code, host string, toks []string) {
	t.Helper()
	body := map[string]any{"game": "deck", "options": map[string]any{"cards": 5}}
	if players > 0 {
		body["players"] = players
	}
	code, host = createRoom(t, s, body)
	for _, n := range []string{"Ann", "Bob", "Cy"} {
		_, tok := joinRoom(t, s, code, n)
		toks = append(toks, tok)
	}
	require.Equal(t, 200, call(t, s, "POST", "/api/rooms/"+code+"/start", host, nil).status)
	return code, host, toks
}

// dealerView is the part of a dealer view the tests read.
type dealerView struct {
	Hand  []string `json:"hand"`
	Hands []int    `json:"hands"`
}

func handOf(t *testing.T, s *Server, code, tok string) dealerView {
	t.Helper()
	var v dealerView
	require.NoError(t, json.Unmarshal(viewOf(t, s, code, tok).View, &v))
	return v
}

// roomSeats is what a state's room says of its seats.
type roomSeats struct {
	Room struct {
		Status   string `json:"status"`
		Seats    int    `json:"seats"`
		LateJoin *bool  `json:"late_join"`
		Players  []struct {
			Seat int    `json:"seat"`
			Name string `json:"name"`
		} `json:"players"`
	} `json:"room"`
}

func seatsOf(t *testing.T, r resp) roomSeats {
	t.Helper()
	require.Equal(t, 200, r.status, "%s", r.body)
	var rs roomSeats
	require.NoError(t, json.Unmarshal(r.body, &rs))
	require.NotNil(t, rs.Room.LateJoin, "late_join is always sent: %s", r.body)
	return rs
}

func move(t *testing.T, s *Server, code, tok string, mv any) resp {
	t.Helper()
	return call(t, s, "POST", "/api/rooms/"+code+"/moves", tok, map[string]any{"move": mv})
}

func hasEvent(st testState, typ, text string) bool {
	for _, e := range st.Events {
		if e.Type == typ && e.Text == text {
			return true
		}
	}
	return false
}

func TestALatecomerSitsDownAtADealerTableStartedWithFewer(t *testing.T) {
	s := newTestServer(t, Config{})
	code, host, toks := dealerRoom(t, s, 10)

	for _, tok := range []string{"", host, toks[0]} {
		path := "/api/rooms/" + code + "/table"
		if tok != "" {
			path = "/api/rooms/" + code + "/view"
		}
		rs := seatsOf(t, call(t, s, "GET", path, tok, nil))
		assert.Equal(t, "playing", rs.Room.Status)
		assert.Equal(t, 10, rs.Room.Seats, "the room's seats, not the three taken")
		assert.True(t, *rs.Room.LateJoin)
		assert.Len(t, rs.Room.Players, 3)
	}

	seat, dan := joinRoom(t, s, code, "Dan")
	assert.Equal(t, 3, seat, "a new seat, after the others")
	st := viewOf(t, s, code, dan)
	assert.Equal(t, 3, st.Room.You)
	assert.Equal(t, []string{"Ann", "Bob", "Cy", "Dan"}, st.Names)
	assert.Equal(t, 1, st.Seq, "the sit is the game's move")
	assert.True(t, hasEvent(st, "sat", "Dan sits down at the table."), "%+v", st.Events)
	assert.True(t, hasEvent(viewOf(t, s, code, toks[0]), "sat", "Dan sits down at the table."), "everyone hears it")
	assert.NotEmpty(t, st.Legal, "the newcomer may act")
	for _, l := range st.Legal {
		assert.NotEqual(t, "sit", l.Action, "the referee's move is never offered")
	}
	assert.Empty(t, handOf(t, s, code, dan).Hand)
	assert.Equal(t, []int{5, 5, 5, 0}, handOf(t, s, code, host).Hands)
	rs := seatsOf(t, call(t, s, "GET", "/api/rooms/"+code+"/table", "", nil))
	assert.Equal(t, 10, rs.Room.Seats)
	assert.Len(t, rs.Room.Players, 4)

	// Dealt in at the next deal, passed a card, and playing.
	require.Equal(t, 200, move(t, s, code, toks[0], "deal 6").status)
	assert.Len(t, handOf(t, s, code, dan).Hand, 6)
	card := handOf(t, s, code, toks[1]).Hand[0]
	require.Equal(t, 200, move(t, s, code, toks[1], "pass "+card+" 3").status)
	assert.Contains(t, handOf(t, s, code, dan).Hand, card)
	require.Equal(t, 200, move(t, s, code, dan, "discard "+card).status)
	assert.Len(t, handOf(t, s, code, dan).Hand, 6)

	// A phone may not make the referee's move, for itself or anyone.
	r := move(t, s, code, dan, "sit")
	assert.Equal(t, 403, r.status, "%s", r.body)
	r = move(t, s, code, toks[0], map[string]any{"action": "sit", "seat": 0})
	assert.Equal(t, 403, r.status, "%s", r.body)

	// Up to the room's ten seats, and no more.
	for i, n := range []string{"Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"} {
		seat, _ := joinRoom(t, s, code, n)
		assert.Equal(t, 4+i, seat)
	}
	r = call(t, s, "POST", "/api/rooms/"+code+"/join", "", map[string]string{"name": "Kim"})
	assert.Equal(t, 409, r.status)
	assert.Equal(t, "room "+code+" is full: the game has started and all 10 seats are taken", r.errorText(t))
	assert.Len(t, viewOf(t, s, code, host).Names, 10)

	// A restart keeps everyone who sat down.
	require.Equal(t, 200, call(t, s, "POST", "/api/rooms/"+code+"/restart", host, nil).status)
	st = viewOf(t, s, code, dan)
	assert.Equal(t, 3, st.Room.You)
	assert.Len(t, st.Names, 10)
	assert.Len(t, handOf(t, s, code, dan).Hand, 5, "dealt in from the start of the new game")
}

// The room's limit is the players it was made for, when given.
func TestALatecomerFillsTheRoomsOwnNumberOfSeats(t *testing.T) {
	s := newTestServer(t, Config{})
	code, host, _ := dealerRoom(t, s, 4)
	assert.Equal(t, 4, seatsOf(t, call(t, s, "GET", "/api/rooms/"+code+"/table", "", nil)).Room.Seats)
	seat, _ := joinRoom(t, s, code, "Dan")
	assert.Equal(t, 3, seat)
	r := call(t, s, "POST", "/api/rooms/"+code+"/join", "", map[string]string{"name": "Eve"})
	assert.Equal(t, 409, r.status)
	assert.Contains(t, r.errorText(t), "all 4 seats are taken")
	// Paused, a latecomer still sits down (the seat waits with the game).
	code, host, _ = dealerRoom(t, s, 0)
	require.Equal(t, 200, call(t, s, "POST", "/api/rooms/"+code+"/pause", host, map[string]any{"paused": true}).status)
	assert.Equal(t, 10, seatsOf(t, call(t, s, "GET", "/api/rooms/"+code+"/table", "", nil)).Room.Seats)
	seat, dan := joinRoom(t, s, code, "Dan")
	assert.Equal(t, 3, seat)
	assert.Empty(t, viewOf(t, s, code, dan).Legal, "nothing to do while paused")
	// Locked, nobody.
	require.Equal(t, 200, call(t, s, "POST", "/api/rooms/"+code+"/lock", host, map[string]any{"locked": true}).status)
	r = call(t, s, "POST", "/api/rooms/"+code+"/join", "", map[string]string{"name": "Eve"})
	assert.Equal(t, 409, r.status)
	assert.Contains(t, r.errorText(t), "is locked")
}

func TestAGameWithoutLatecomersSaysWhyItTakesNobody(t *testing.T) {
	s := newTestServer(t, Config{})
	code, host, _ := woodlouseRoom(t, s)
	rs := seatsOf(t, call(t, s, "GET", "/api/rooms/"+code+"/table", "", nil))
	assert.False(t, *rs.Room.LateJoin)
	assert.Equal(t, 3, rs.Room.Seats)
	r := call(t, s, "POST", "/api/rooms/"+code+"/join", "", map[string]string{"name": "Dan"})
	assert.Equal(t, 409, r.status)
	assert.Equal(t, "Woodlouse Chaos has started and cannot take a new player mid-game: ask the host to start a new game", r.errorText(t))
	assert.Len(t, viewOf(t, s, code, host).Names, 3)

	// A game that is over takes nobody either, latecomers or not.
	code, _, toks := dealerRoom(t, s, 0)
	require.Equal(t, 200, move(t, s, code, toks[2], "end").status)
	rs = seatsOf(t, call(t, s, "GET", "/api/rooms/"+code+"/table", "", nil))
	assert.Equal(t, "over", rs.Room.Status)
	assert.Equal(t, 3, rs.Room.Seats, "no seat to offer once over")
	r = call(t, s, "POST", "/api/rooms/"+code+"/join", "", map[string]string{"name": "Dan"})
	assert.Equal(t, 409, r.status)
	assert.Equal(t, "the game is over: ask the host for a new game", r.errorText(t))

	// The lobby shows the game's seats and whether it will take more.
	code, _ = createRoom(t, s, map[string]any{"game": "deck", "players": 6})
	rs = seatsOf(t, call(t, s, "GET", "/api/rooms/"+code+"/table", "", nil))
	assert.Equal(t, 6, rs.Room.Seats)
	assert.True(t, *rs.Room.LateJoin)

	// And the catalogue says which games take latecomers.
	var games []struct {
		ID         string `json:"id"`
		SeatAction string `json:"seat_action"`
		LateJoin   bool   `json:"late_join"`
	}
	res := call(t, s, "GET", "/api/games", "", nil)
	require.NoError(t, json.Unmarshal(res.body, &games))
	found := 0
	for _, g := range games {
		switch g.ID {
		case "deck":
			assert.True(t, g.LateJoin)
			assert.Equal(t, "sit", g.SeatAction)
			found++
		case "woodlouse":
			assert.False(t, g.LateJoin)
			assert.Empty(t, g.SeatAction)
			found++
		}
	}
	assert.Equal(t, 2, found)
}

func TestARestartedServerKeepsTheLatecomer(t *testing.T) {
	dir := t.TempDir()
	s := newTestServer(t, Config{Data: dir})
	code, host, toks := dealerRoom(t, s, 0)
	require.Equal(t, 200, move(t, s, code, toks[0], "draw").status)
	_, dan := joinRoom(t, s, code, "Dan")
	r := call(t, s, "POST", "/api/rooms/"+code+"/moves", dan, map[string]any{"move": "draw", "id": "d1"})
	require.Equal(t, 200, r.status, "%s", r.body)
	all := append([]string{host, dan}, toks...)
	before, seq := views(t, s, code, all)
	assert.Equal(t, 3, seq)

	// The disk holds the new seat in the sit's move record, with its
	// token's hash and never the token.
	b, err := os.ReadFile(filepath.Join(dir, code+".journal"))
	require.NoError(t, err)
	assert.Contains(t, string(b), `"sit":{"name":"Dan","token":"`+hashToken(dan)+`"}`)
	assert.NotContains(t, string(b), dan)
	assert.Equal(t, 1, strings.Count(string(b), `"sit":`))

	s2 := newTestServer(t, Config{Data: dir})
	after, seq2 := views(t, s2, code, all)
	assert.Equal(t, seq, seq2)
	assert.Equal(t, before, after, "every view as it was, the latecomer's too")
	st := viewOf(t, s2, code, dan)
	assert.Equal(t, 3, st.Room.You)
	assert.Equal(t, []string{"Ann", "Bob", "Cy", "Dan"}, st.Names)
	// The latecomer's token still works, and a move resent with its id
	// is answered again, not made twice.
	r = call(t, s2, "POST", "/api/rooms/"+code+"/moves", dan, map[string]any{"move": "draw", "id": "d1"})
	require.Equal(t, 200, r.status, "%s", r.body)
	assert.Equal(t, float64(3), r.json(t)["seq"])
	require.Equal(t, 200, move(t, s2, code, dan, "roll 2d6").status)
	assert.Len(t, handOf(t, s2, code, dan).Hand, 1)

	// A room record after the sit (a pause) and another latecomer: a
	// second restart has both, whichever record holds each.
	require.Equal(t, 200, call(t, s2, "POST", "/api/rooms/"+code+"/pause", host, map[string]any{"paused": true}).status)
	require.Equal(t, 200, call(t, s2, "POST", "/api/rooms/"+code+"/pause", host, map[string]any{"paused": false}).status)
	r = call(t, s2, "POST", "/api/rooms/"+code+"/moves", dan, map[string]any{"move": "draw", "id": "d2"})
	require.Equal(t, 200, r.status, "%s", r.body)
	seat, eve := joinRoom(t, s2, code, "Eve")
	assert.Equal(t, 4, seat)
	all = append(all, eve)
	before, seq = views(t, s2, code, all)
	s3 := newTestServer(t, Config{Data: dir})
	after, seq3 := views(t, s3, code, all)
	assert.Equal(t, seq, seq3)
	assert.Equal(t, before, after)
	assert.Equal(t, []string{"Ann", "Bob", "Cy", "Dan", "Eve"}, viewOf(t, s3, code, eve).Names)
	r = call(t, s3, "POST", "/api/rooms/"+code+"/moves", dan, map[string]any{"move": "draw", "id": "d1"})
	require.Equal(t, 200, r.status, "%s", r.body)
	assert.Equal(t, float64(3), r.json(t)["seq"], "the id of a move before a later room record is remembered too")
	r = call(t, s3, "POST", "/api/rooms/"+code+"/moves", dan, map[string]any{"move": "draw", "id": "d2"})
	require.Equal(t, 200, r.status, "%s", r.body)
	assert.Equal(t, float64(seq-1), r.json(t)["seq"])
	require.Equal(t, 200, move(t, s3, code, eve, "draw").status)
}

func TestALatecomerTheDiskRefusesIsNotSeated(t *testing.T) {
	dir := t.TempDir()
	s := newTestServer(t, Config{Data: dir})
	code, host, toks := dealerRoom(t, s, 0)
	before, seq := views(t, s, code, append([]string{host}, toks...))
	rm := s.room(code)
	rm.mu.Lock()
	rm.journal.Close() // the disk goes away
	rm.mu.Unlock()
	r := call(t, s, "POST", "/api/rooms/"+code+"/join", "", map[string]string{"name": "Dan"})
	assert.Equal(t, 500, r.status, "%s", r.body)
	assert.Contains(t, r.errorText(t), "could not save")
	after, seq2 := views(t, s, code, append([]string{host}, toks...))
	assert.Equal(t, seq, seq2)
	assert.Equal(t, before, after, "no seat, no move")
	assert.Len(t, viewOf(t, s, code, host).Names, 3)
	rm.mu.Lock()
	assert.Len(t, rm.seats, 3)
	assert.Len(t, rm.byToken, 3)
	assert.Equal(t, 0, rm.match.Seq())
	rm.mu.Unlock()
}

// notes are the room's own events in a state (those with a number).
func notes(st testState) []string {
	var out []string
	for _, e := range st.Events {
		if e.N > 0 {
			out = append(out, e.Type+": "+e.Text)
		}
	}
	return out
}

func TestTheRoomAnnouncesJoinsSwapsAndRemovals(t *testing.T) {
	s := newTestServer(t, Config{})
	code, host := createRoom(t, s, map[string]any{"game": "woodlouse", "players": 4})
	var toks []string
	for _, n := range []string{"Ann", "Bob", "Cy", "Di"} {
		_, tok := joinRoom(t, s, code, n)
		toks = append(toks, tok)
	}
	seat := func(a, b int) {
		require.Equal(t, 200, call(t, s, "POST", "/api/rooms/"+code+"/seat", host, map[string]any{"seat": a, "to": b}).status)
	}
	kick := func(n int) {
		require.Equal(t, 200, call(t, s, "POST", "/api/rooms/"+code+"/kick", host, map[string]any{"seat": n}).status)
	}
	seat(0, 1)
	kick(3)
	seat(0, 3) // Bob, now at seat 0, to the seat Di left
	assert.Equal(t, []string{
		"joined: Ann joined the room", "joined: Bob joined the room", "joined: Cy joined the room", "joined: Di joined the room",
		"swapped: Ann and Bob swap places", "removed: Di was removed by the host", "swapped: Bob moves to seat 4",
	}, notes(viewOf(t, s, code, toks[0])))
	seat(1, 1) // a seat onto itself changes nothing, and says nothing
	assert.Len(t, notes(viewOf(t, s, code, toks[0])), 7)

	require.Equal(t, 200, call(t, s, "POST", "/api/rooms/"+code+"/start", host, nil).status)
	assert.Empty(t, notes(viewOf(t, s, code, host)), "a start forgets the lobby's")
	st := viewOf(t, s, code, toks[2])
	cy := st.Room.You
	kick(cy)
	_, eve := joinRoom(t, s, code, "Eve")
	kick(cy)
	_, eveAgain := joinRoom(t, s, code, "Eve")
	want := []string{"removed: Cy was removed by the host", "joined: Eve takes Cy's seat", "removed: Eve was removed by the host", "joined: Eve takes their seat again"}
	for _, tok := range []string{host, toks[0], eveAgain} {
		assert.Equal(t, want, notes(viewOf(t, s, code, tok)))
	}
	assert.Equal(t, 401, call(t, s, "GET", "/api/rooms/"+code+"/view", eve, nil).status)
}

func TestAPhoneBackAfterTenSecondsAwayIsAnnounced(t *testing.T) {
	clock := &timer.Fake{}
	l := startLive(t, Config{Clock: clock})
	code, host, toks := liveRoom(t, l)
	ann := l.mustDial(t, code, toks[0], -1)
	ann.readState()
	connected := func(seat int, want bool) {
		t.Helper()
		deadline := time.Now().Add(testWait)
		for {
			st := viewOf(t, l.Server, code, host)
			for _, p := range st.Room.Players {
				if p.Seat == seat && p.Connected == want {
					return
				}
			}
			require.True(t, time.Now().Before(deadline), "seat %d never became connected=%v", seat, want)
			time.Sleep(5 * time.Millisecond)
		}
	}
	bobSeat := viewOf(t, l.Server, code, toks[1]).Room.You
	isBack := func(st testState) bool { return hasEvent(st, "back", "Bob is back") }

	// The first connection is no return; a short absence is no news.
	bob := l.mustDial(t, code, toks[1], -1)
	connected(bobSeat, true)
	require.NoError(t, bob.conn.Close())
	connected(bobSeat, false)
	clock.Advance(9 * time.Second)
	bob = l.mustDial(t, code, toks[1], -1)
	st, _ := bob.readState()
	assert.False(t, isBack(st))
	connected(bobSeat, true)

	// Two phones of one seat: one going is no absence.
	bob2 := l.mustDial(t, code, toks[1], -1)
	connected(bobSeat, true)
	require.NoError(t, bob2.conn.Close())
	clock.Advance(30 * time.Second)
	bob3 := l.mustDial(t, code, toks[1], -1)
	st, _ = bob3.readState()
	assert.False(t, isBack(st), "the seat never went")
	require.NoError(t, bob3.conn.Close())

	// Gone for ten seconds and more: back is news, for everyone.
	require.NoError(t, bob.conn.Close())
	connected(bobSeat, false)
	clock.Advance(10 * time.Second)
	bob = l.mustDial(t, code, toks[1], -1)
	st, _ = bob.readState()
	assert.True(t, isBack(st), "%+v", st.Events)
	st = ann.readUntil(isBack)
	assert.Equal(t, []string{"back: Bob is back"}, notes(st))
	assert.True(t, isBack(viewOf(t, l.Server, code, host)))
}
