package webremote

import (
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
	"time"

	fws "github.com/fasthttp/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// liveRoom is a started woodlouse room for three on a live server.
func liveRoom(t *testing.T, l *live) (code, host string, seats []string) {
	t.Helper()
	code, host = createRoom(t, l.Server, map[string]any{"game": "woodlouse", "players": 3})
	for _, name := range []string{"Ann", "Bob", "Cy"} {
		_, tok := joinRoom(t, l.Server, code, name)
		seats = append(seats, tok)
	}
	r := call(t, l.Server, "POST", "/api/rooms/"+code+"/start", host, nil)
	require.Equal(t, 200, r.status, "%s", r.body)
	return code, host, seats
}

// playRandom makes one random legal move through the HTTP API; false when
// nobody may move.
func playRandom(t *testing.T, s *Server, code string, seats []string, rng *rand.Rand) bool {
	t.Helper()
	type option struct {
		seat int
		mv   map[string]any
	}
	var opts []option
	for i, tok := range seats {
		for _, l := range viewOf(t, s, code, tok).Legal {
			opts = append(opts, option{i, map[string]any{"action": l.Action, "args": l.Args}})
		}
	}
	if len(opts) == 0 {
		return false
	}
	o := opts[rng.IntN(len(opts))]
	r := call(t, s, "POST", "/api/rooms/"+code+"/moves", seats[o.seat], map[string]any{"move": o.mv})
	require.Equal(t, 200, r.status, "seat %d %v: %s", o.seat, o.mv, r.body)
	return true
}

func TestWebsocketSendsTheStateAtOnceAndAfterEveryChange(t *testing.T) {
	l := startLive(t, Config{})
	code, host := createRoom(t, l.Server, map[string]any{"game": "woodlouse", "players": 3})
	table := l.mustDial(t, code, host, -1)
	st, _ := table.readState()
	assert.Equal(t, "lobby", st.Room.Status)
	assert.True(t, st.Room.Host)
	assert.Empty(t, st.Room.Players)

	_, ann := joinRoom(t, l.Server, code, "Ann")
	st, _ = table.readState()
	require.Len(t, st.Room.Players, 1)
	assert.Equal(t, "Ann", st.Room.Players[0].Name)
	assert.False(t, st.Room.Players[0].Connected)

	phone := l.mustDial(t, code, ann, -1)
	mine, _ := phone.readState()
	assert.Equal(t, 0, mine.Room.You)
	st = table.readUntil(func(s testState) bool { return len(s.Room.Players) == 1 && s.Room.Players[0].Connected })
	assert.Equal(t, "Ann", st.Room.Players[0].Name)

	r := call(t, l.Server, "POST", "/api/rooms/"+code+"/lock", host, map[string]bool{"locked": true})
	require.Equal(t, 200, r.status)
	assert.True(t, table.readUntil(func(s testState) bool { return s.Room.Locked }).Room.Locked)
	assert.True(t, phone.readUntil(func(s testState) bool { return s.Room.Locked }).Room.Locked)

	require.NoError(t, phone.conn.Close())
	st = table.readUntil(func(s testState) bool { return !s.Room.Players[0].Connected })
	assert.False(t, st.Room.Players[0].Connected, "a phone that goes away is marked disconnected")
}

func TestWebsocketPingsMovesAcksAndErrors(t *testing.T) {
	l := startLive(t, Config{})
	code, host, seats := liveRoom(t, l)
	mover, waiting := -1, -1
	var legal map[string]any
	for i, tok := range seats {
		if st := viewOf(t, l.Server, code, tok); len(st.Legal) > 0 && mover < 0 {
			mover, legal = i, map[string]any{"action": st.Legal[0].Action, "args": st.Legal[0].Args}
		} else {
			waiting = i
		}
	}
	require.GreaterOrEqual(t, mover, 0)
	c := l.mustDial(t, code, seats[mover], -1)
	st, _ := c.readState()
	assert.Equal(t, mover, st.Room.You)

	c.send(map[string]string{"type": "ping"})
	m, _ := c.read()
	assert.Equal(t, map[string]any{"type": "pong"}, m)

	c.send(map[string]any{"type": "move", "move": "fly to-the-moon", "id": "x1"})
	m, _ = c.read()
	assert.Equal(t, "error", m["type"])
	assert.Equal(t, "x1", m["id"])
	assert.EqualValues(t, 409, m["status"])
	assert.NotEmpty(t, m["error"])

	c.send(map[string]any{"type": "move", "move": legal, "seq": 0, "id": "m1"})
	var sawState, sawAck bool
	for !sawState || !sawAck {
		m, b := c.read()
		switch m["type"] {
		case "state":
			var st testState
			require.NoError(t, json.Unmarshal(b, &st))
			assert.Equal(t, 1, st.Seq)
			sawState = true
		case "ack":
			assert.Equal(t, "m1", m["id"])
			assert.EqualValues(t, 1, m["seq"])
			sawAck = true
		default:
			t.Fatalf("unexpected frame %s", b)
		}
	}
	// Sent again with the same id: the same ack, nothing applied.
	c.send(map[string]any{"type": "move", "move": legal, "seq": 0, "id": "m1"})
	m, _ = c.read()
	assert.Equal(t, map[string]any{"type": "ack", "id": "m1", "seq": float64(1)}, m)
	assert.Equal(t, 1, viewOf(t, l.Server, code, host).Seq)

	c.send(map[string]any{"type": "dance"})
	m, _ = c.read()
	assert.Equal(t, "error", m["type"])
	assert.EqualValues(t, 400, m["status"])

	// Another seat's move, the host's move.
	w := l.mustDial(t, code, seats[waiting], -1)
	w.readState()
	w.send(map[string]any{"type": "move", "move": map[string]any{"seat": mover, "action": "code", "args": []string{"3", "1"}}, "id": "s"})
	m, _ = w.read()
	assert.Equal(t, "error", m["type"])
	assert.EqualValues(t, 403, m["status"])
	h := l.mustDial(t, code, host, -1)
	h.readState()
	h.send(map[string]any{"type": "move", "move": "code 3 1"})
	m, _ = h.read()
	assert.EqualValues(t, 403, m["status"])
	assert.Equal(t, 1, viewOf(t, l.Server, code, host).Seq)
}

func TestWebsocketHandshakeRefusesBadTokensAndRooms(t *testing.T) {
	l := startLive(t, Config{})
	code, _, seats := liveRoom(t, l)
	random, err := newToken()
	require.NoError(t, err)
	for _, tc := range []struct {
		code, token string
		since       int
		status      int
	}{
		{code, random, -1, 401}, {code, "", -1, 401}, {"ZZZZ", seats[0], -1, 404},
	} {
		_, res, err := l.dial(t, tc.code, tc.token, tc.since)
		require.Error(t, err)
		require.NotNil(t, res)
		assert.Equal(t, tc.status, res.StatusCode)
	}
	u := "ws" + strings.TrimPrefix(l.base, "http") + "/ws/" + code + "?token=" + seats[0] + "&since=-3"
	_, res, err := fws.DefaultDialer.Dial(u, nil)
	require.Error(t, err)
	assert.Equal(t, 400, res.StatusCode)
	r := l.httpCall(t, "GET", "/ws/"+code+"?token="+seats[0], "", nil)
	assert.Equal(t, http.StatusUpgradeRequired, r.status)
	r.errorText(t)
}

func TestWebsocketOversizedFrameCloses1009(t *testing.T) {
	l := startLive(t, Config{})
	code, host, seats := liveRoom(t, l)
	c := l.mustDial(t, code, seats[0], -1)
	c.readState()
	big := `{"type":"move","move":"` + strings.Repeat("x", BodyLimit) + `"}`
	require.NoError(t, c.conn.WriteMessage(fws.TextMessage, []byte(big)))
	assert.Equal(t, fws.CloseMessageTooBig, c.closeCode())
	// The server carries on, and the seat shows as gone.
	st := viewOf(t, l.Server, code, host)
	assert.Eventually(t, func() bool { return !viewOf(t, l.Server, code, host).Room.Players[0].Connected }, testWait, 20*time.Millisecond)
	assert.Equal(t, 0, st.Seq)
	c2 := l.mustDial(t, code, seats[0], -1)
	c2.readState()
}

func TestWebsocketNonJSONFramesClose1003(t *testing.T) {
	l := startLive(t, Config{})
	code, _, seats := liveRoom(t, l)
	for _, f := range []struct {
		kind int
		data string
	}{{fws.TextMessage, "hello"}, {fws.TextMessage, `{"type":`}, {fws.BinaryMessage, `{"type":"ping"}`}} {
		c := l.mustDial(t, code, seats[1], -1)
		c.readState()
		require.NoError(t, c.conn.WriteMessage(f.kind, []byte(f.data)))
		assert.Equal(t, fws.CloseUnsupportedData, c.closeCode(), "%q", f.data)
	}
}

func TestWebsocketTokensThatStopWorkingClose4001(t *testing.T) {
	l := startLive(t, Config{})
	code, host, seats := liveRoom(t, l)
	kicked := l.mustDial(t, code, seats[2], -1)
	kicked.readState()
	other := l.mustDial(t, code, seats[0], -1)
	other.readState()
	r := call(t, l.Server, "POST", "/api/rooms/"+code+"/kick", host, map[string]int{"seat": 2})
	require.Equal(t, 200, r.status, "%s", r.body)
	assert.Equal(t, 4001, kicked.closeCode())
	st := other.readUntil(func(s testState) bool { return s.Room.Players[2].Vacant })
	assert.False(t, st.Room.Players[2].Connected)

	table := l.mustDial(t, code, host, -1)
	table.readState()
	r = call(t, l.Server, "POST", "/api/rooms/"+code+"/end", host, nil)
	require.Equal(t, 200, r.status, "%s", r.body)
	st = other.readUntil(func(s testState) bool { return s.Room.Status == "ended" })
	assert.Equal(t, "ended", st.Room.Status)
	assert.Equal(t, 4001, other.closeCode())
	assert.Equal(t, 4001, table.closeCode())
	_, res, err := l.dial(t, code, seats[0], -1)
	require.Error(t, err)
	assert.Equal(t, 404, res.StatusCode)
}

func TestShutdownClosesWebsockets1001(t *testing.T) {
	l := startLive(t, Config{})
	code, _, seats := liveRoom(t, l)
	c := l.mustDial(t, code, seats[0], -1)
	c.readState()
	done := make(chan int, 1)
	go func() {
		_ = c.conn.SetReadDeadline(time.Now().Add(testWait))
		for {
			if _, _, err := c.conn.ReadMessage(); err != nil {
				code := 0
				if ce, ok := err.(*fws.CloseError); ok {
					code = ce.Code
				}
				done <- code
				return
			}
		}
	}()
	go func() { _ = l.Shutdown(t.Context()) }()
	select {
	case code := <-done:
		assert.Equal(t, fws.CloseGoingAway, code)
	case <-time.After(testWait):
		t.Fatal("no close frame at shutdown")
	}
}

// TestWebsocketResumeGetsExactlyWhatWasMissed: a phone drops, moves happen,
// and it reconnects with since: its first state holds exactly the events a
// phone that never dropped (a second tab of the same seat) received after
// that seq, and the current state.
func TestWebsocketResumeGetsExactlyWhatWasMissed(t *testing.T) {
	l := startLive(t, Config{})
	code, _, seats := liveRoom(t, l)
	steady := l.mustDial(t, code, seats[0], 0)
	first, _ := steady.readState()
	type ev struct {
		Seq        int
		Type, Text string
	}
	var seen []ev
	add := func(st testState) {
		for _, e := range st.Events {
			seen = append(seen, ev{e.Seq, e.Type, e.Text})
		}
	}
	add(first)

	phone := l.mustDial(t, code, seats[0], -1)
	st, _ := phone.readState()
	since := st.Seq
	rng := rand.New(rand.NewPCG(1, 2))
	for range 3 {
		require.True(t, playRandom(t, l.Server, code, seats, rng))
	}
	st = phone.readUntil(func(s testState) bool { return s.Seq == 3 })
	since = st.Seq
	require.NoError(t, phone.conn.Close())

	for range 12 {
		if !playRandom(t, l.Server, code, seats, rng) {
			break
		}
	}
	final := viewOf(t, l.Server, code, seats[0])
	require.Greater(t, final.Seq, since)
	for {
		st, _ := steady.readState()
		add(st)
		if st.Seq == final.Seq {
			break
		}
	}
	var missed []ev
	for _, e := range seen {
		if e.Seq > since {
			missed = append(missed, e)
		}
	}
	require.NotEmpty(t, missed)

	back := l.mustDial(t, code, seats[0], since)
	st, _ = back.readState()
	assert.Equal(t, final.Seq, st.Seq, "the current state")
	assert.JSONEq(t, string(final.View), string(st.View))
	var got []ev
	for _, e := range st.Events {
		got = append(got, ev{e.Seq, e.Type, e.Text})
	}
	assert.Equal(t, missed, got, "exactly the events missed, in order")

	// since=0 gives every event; no since, the last 50 at most.
	all := l.mustDial(t, code, seats[0], 0)
	st, _ = all.readState()
	assert.Len(t, st.Events, len(seen))

	// A move resent after a reconnect, with the id of its first sending, is
	// answered again and not applied twice.
	var mv map[string]any
	mover := -1
	for i, tok := range seats {
		if v := viewOf(t, l.Server, code, tok); len(v.Legal) > 0 {
			mover, mv = i, map[string]any{"action": v.Legal[0].Action, "args": v.Legal[0].Args}
			break
		}
	}
	if mover < 0 {
		return // the game ended; the rest is covered elsewhere
	}
	p1 := l.mustDial(t, code, seats[mover], final.Seq)
	p1.readState()
	p1.send(map[string]any{"type": "move", "move": mv, "id": "again"})
	var ack map[string]any
	for ack == nil {
		if m, _ := p1.read(); m["type"] == "ack" {
			ack = m
		}
	}
	require.NoError(t, p1.conn.Close())
	p2 := l.mustDial(t, code, seats[mover], final.Seq)
	st, _ = p2.readState()
	assert.Equal(t, final.Seq+1, st.Seq)
	p2.send(map[string]any{"type": "move", "move": mv, "id": "again"})
	for {
		if m, _ := p2.read(); m["type"] == "ack" {
			assert.Equal(t, ack, m)
			break
		}
	}
	assert.Equal(t, final.Seq+1, viewOf(t, l.Server, code, seats[0]).Seq, "applied once")
}

func TestWebsocketFramesCountAgainstTheTokensRate(t *testing.T) {
	l := startLive(t, Config{RateLimit: 3})
	freezeLimiter(t, l.Server)
	code, host := createRoom(t, l.Server, map[string]any{"game": "troll"})
	c := l.mustDial(t, code, host, -1) // the handshake is one request of the token's
	c.readState()
	statuses := []any{}
	for range 4 {
		c.send(map[string]string{"type": "ping"})
		m, _ := c.read()
		if m["type"] == "error" {
			statuses = append(statuses, m["status"])
		} else {
			statuses = append(statuses, m["type"])
		}
	}
	assert.Equal(t, []any{"pong", "pong", float64(429), float64(429)}, statuses)
}

// TestAStateLeavesOutTheRoomWhenUnchanged: a socket's first state has the
// room's part; a later state leaves it out when it is what that socket had
// last (most moves), and has it again as soon as it changes (a phone
// connects, the host locks the room), for every socket.
func TestAStateLeavesOutTheRoomWhenUnchanged(t *testing.T) {
	l := startLive(t, Config{})
	code, host, seats := liveRoom(t, l)
	has := func(b []byte) bool {
		var m map[string]json.RawMessage
		require.NoError(t, json.Unmarshal(b, &m))
		_, ok := m["room"]
		return ok
	}
	ann := l.mustDial(t, code, seats[0], -1)
	st, b := ann.readState()
	require.True(t, has(b), "the first state has the room: %s", b)
	assert.Equal(t, 0, st.Room.You)
	tv := l.mustDialWatch(t, code)
	_, b = tv.readState()
	require.True(t, has(b), "every socket's first state has it")
	// The TV's arrival is pushed to Ann too, but it changes nothing of the
	// room (a watcher is no player), so that state leaves it out.
	st, b = ann.readState()
	assert.False(t, has(b), "%s", b)
	assert.Equal(t, "woodlouse", st.Room.Game, "the room kept from before")
	rng := rand.New(rand.NewPCG(3, 4))
	without := 0
	for range 5 {
		require.True(t, playRandom(t, l.Server, code, seats, rng))
		for _, c := range []*wsClient{ann, tv} {
			st, b := c.readState()
			if !has(b) {
				without++
			}
			assert.Equal(t, "playing", st.Room.Status, "the room kept from before")
			assert.Len(t, st.Room.Players, 3)
		}
	}
	assert.Equal(t, 10, without, "moves change nothing of the room: no state repeats it")

	// Bob's phone connects: Ann's and the TV's next states have the room,
	// with Bob connected.
	l.mustDial(t, code, seats[1], -1)
	for _, c := range []*wsClient{ann, tv} {
		st, b := c.readState()
		require.True(t, has(b), "a changed room is sent: %s", b)
		assert.True(t, st.Room.Players[1].Connected)
	}
	r := call(t, l.Server, "POST", "/api/rooms/"+code+"/lock", host, map[string]bool{"locked": true})
	require.Equal(t, 200, r.status)
	st, b = ann.readState()
	assert.True(t, has(b) && st.Room.Locked, "the lock is sent: %s", b)
	assert.Equal(t, 0, st.Room.You, "with Ann's own seat")
	// The HTTP view always has it.
	assert.Equal(t, "woodlouse", viewOf(t, l.Server, code, seats[0]).Room.Game)
}
