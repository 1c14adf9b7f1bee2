package webremote

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	fws "github.com/fasthttp/websocket"
	"github.com/gofiber/fiber/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/referee/timer"
)

// peerHeader lets a test say which address a request comes from: "local"
// for this machine, any other value for a stranger's address.
const peerHeader = "X-Test-Peer"

// limitedServer is a server under the limits by address whose requests
// come from the address in peerHeader (from 0.0.0.0 without one).
func limitedServer(t *testing.T, cfg Config) *Server {
	t.Helper()
	s := New(cfg)
	usePeerHeader(s)
	return s
}

func usePeerHeader(s *Server) {
	s.testPeer = func(c *fiber.Ctx) (peer, bool) {
		switch h := c.Get(peerHeader); h {
		case "":
			return peer{}, false
		case "local":
			return peer{key: "local", local: true}, true
		default:
			return peer{key: "a:" + h}, true
		}
	}
}

// callFrom is call from an address.
func callFrom(t *testing.T, s *Server, from, method, path, token string, body any) resp {
	t.Helper()
	req, err := http.NewRequest(method, "http://tableref.test"+path, jsonBody(t, body))
	require.NoError(t, err)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	req.Header.Set(peerHeader, from)
	return do(t, s, req)
}

// jsonBody is a request's body: nil, a string as is, or a value as JSON.
func jsonBody(t *testing.T, body any) io.Reader {
	t.Helper()
	switch b := body.(type) {
	case nil:
		return nil
	case string:
		return strings.NewReader(b)
	default:
		j, err := json.Marshal(b)
		require.NoError(t, err)
		return bytes.NewReader(j)
	}
}

// do sends a request through App().Test.
func do(t *testing.T, s *Server, req *http.Request) resp {
	t.Helper()
	res, err := s.App().Test(req, -1)
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return resp{status: res.StatusCode, body: b, header: res.Header}
}

func createFrom(t *testing.T, s *Server, from string) (code, host string, r resp) {
	t.Helper()
	r = callFrom(t, s, from, "POST", "/api/rooms", "", map[string]any{"game": "troll"})
	if r.status != 201 {
		return "", "", r
	}
	m := r.json(t)
	return m["room"].(string), m["host_token"].(string), r
}

// Tokens never enlarge an address's budget: the probe made 200
// requests to a room's table with 10 host tokens of its own and was never
// slowed down.
func TestATokenDoesNotEnlargeItsAddresssRate(t *testing.T) {
	s := limitedServer(t, Config{RateLimit: 5})
	freezeLimiter(t, s)
	var hosts []string
	code := ""
	for range 3 {
		c, h, r := createFrom(t, s, "10.0.0.9")
		require.Equal(t, 201, r.status, "%s", r.body)
		code, hosts = c, append(hosts, h)
	}
	ok := 0
	for i := range 30 {
		tok := hosts[i%len(hosts)]
		if i%2 == 0 {
			tok = ""
		}
		r := callFrom(t, s, "10.0.0.9", "GET", "/api/rooms/"+code+"/table", tok, nil)
		if r.status == 200 {
			ok++
		} else {
			require.Equal(t, 429, r.status, "%s", r.body)
			assert.Contains(t, r.errorText(t), "at most 5 a second from one address")
		}
	}
	assert.Equal(t, 2, ok, "5 requests in all from the address, 3 of them the rooms'")
	r := callFrom(t, s, "10.0.0.9", "GET", "/api/rooms/"+code+"/view", hosts[0], nil)
	assert.Equal(t, 429, r.status, "a live token's own requests too: %s", r.body)
	r = callFrom(t, s, "10.0.0.10", "GET", "/api/rooms/"+code+"/table", "", nil)
	assert.Equal(t, 200, r.status, "another address has its own budget: %s", r.body)
}

// The websocket's handshake counts against the address, whatever token it
// carries.
func TestWebsocketHandshakesCountAgainstTheAddress(t *testing.T) {
	l := startLive(t, Config{RateLimit: 3})
	usePeerHeader(l.Server)
	freezeLimiter(t, l.Server)
	code, _, r := createFrom(t, l.Server, "10.0.0.9")
	require.Equal(t, 201, r.status)
	h := http.Header{peerHeader: {"10.0.0.9"}}
	statuses := []int{}
	for range 3 {
		_, res, err := dialWith(t, l, "/ws/"+code+"?watch=1", h)
		if err == nil {
			statuses = append(statuses, 101)
		} else {
			require.NotNil(t, res, "%v", err)
			statuses = append(statuses, res.StatusCode)
		}
	}
	assert.Equal(t, []int{101, 101, 429}, statuses, "3 requests a second: the room and two sockets")
}

// One address cannot fill the server: it may hold maxRoomsPerAddr live
// rooms; a new one then replaces its oldest empty lobby, and is refused
// when each has players. Other addresses are not hindered.
func TestOneAddressCannotFillTheServer(t *testing.T) {
	s := limitedServer(t, Config{RateLimit: 1000})
	codes := roomsToTheCap(t, s, "10.0.0.9")
	sixth, _, r := createFrom(t, s, "10.0.0.9")
	require.Equal(t, 201, r.status, "the empty lobby makes way: %s", r.body)
	assert.Equal(t, 404, callFrom(t, s, "10.0.0.9", "GET", "/api/rooms/"+codes[0]+"/table", "", nil).status, "the empty lobby was retired")
	require.Equal(t, 201, callFrom(t, s, "10.0.0.11", "POST", "/api/rooms/"+sixth+"/join", "", map[string]string{"name": "Ann"}).status)
	_, _, r = createFrom(t, s, "10.0.0.9")
	require.Equal(t, 429, r.status, "%s", r.body)
	assert.Contains(t, r.errorText(t), fmt.Sprintf("at most %d open", maxRoomsPerAddr))
	for _, code := range codes[1:] {
		assert.Equal(t, 200, callFrom(t, s, "10.0.0.9", "GET", "/api/rooms/"+code+"/table", "", nil).status, "rooms with players are kept")
	}
	_, _, r = createFrom(t, s, "10.0.0.12")
	assert.Equal(t, 201, r.status, "another address may: %s", r.body)
}

// roomsToTheCap creates from address from all the rooms it may, oldest
// first: the first an empty lobby, each other with a player.
func roomsToTheCap(t *testing.T, s *Server, from string) []string {
	t.Helper()
	var codes []string
	for i := range maxRoomsPerAddr {
		code, _, r := createFrom(t, s, from)
		require.Equal(t, 201, r.status, "%s", r.body)
		if i > 0 { // the first stays an empty lobby
			require.Equal(t, 201, callFrom(t, s, "10.0.0.11", "POST", "/api/rooms/"+code+"/join", "", map[string]string{"name": "Ann"}).status)
		}
		codes = append(codes, code)
	}
	return codes
}

// The host on the server's machine is never locked out by strangers who
// filled the server: it has places of its own.
func TestTheServersMachineIsNeverLockedOut(t *testing.T) {
	s := limitedServer(t, Config{RateLimit: 1000})
	fillTheServer(t, s)
	_, _, r := createFrom(t, s, "10.0.0.9")
	require.Equal(t, 409, r.status, "%s", r.body)
	assert.Contains(t, r.errorText(t), "too many rooms")
	_, _, r = createFrom(t, s, "local")
	assert.Equal(t, 201, r.status, "%s", r.body)
}

// fillTheServer fills s with maxRooms rooms in play (of nobody's).
func fillTheServer(t *testing.T, s *Server) {
	t.Helper()
	code, _, r := createFrom(t, s, "local")
	require.Equal(t, 201, r.status)
	tmpl := s.room(code)
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := 0; len(s.rooms) < maxRooms; i++ {
		c := fmt.Sprintf("F%03d", i)
		s.rooms[c] = &room{s: s, code: c, g: tmpl.g, info: tmpl.info, status: statusPlaying, active: time.Now(), clients: map[*client]struct{}{}}
	}
}

// An empty lobby (nobody joined, no screen open) is retired within
// minutes, not hours; a lobby with a player or with its table's screen
// open is not.
func TestEmptyLobbiesAreRetiredInMinutes(t *testing.T) {
	clock := &timer.Fake{}
	l := startLive(t, Config{Clock: clock, RateLimit: 1000})
	s := l.Server
	empty, emptyHost := createRoom(t, s, map[string]any{"game": "troll"})
	joined, joinedHost := createRoom(t, s, map[string]any{"game": "troll"})
	joinRoom(t, s, joined, "Ann")
	watched, watchedHost := createRoom(t, s, map[string]any{"game": "troll"})
	ws := l.mustDial(t, watched, watchedHost, -1)
	ws.readState()

	clock.Advance(emptyLobbyIdle - time.Minute)
	assert.True(t, alive(t, s, empty, emptyHost))
	clock.Advance(sweepEvery + time.Minute)
	assert.False(t, alive(t, s, empty, emptyHost), "an empty lobby goes in minutes")
	assert.True(t, alive(t, s, joined, joinedHost), "a lobby with a player waits for its host")
	assert.True(t, alive(t, s, watched, watchedHost), "a lobby whose table is on a screen waits")
}

// A saved empty lobby is not resumed by a server that starts after it
// would have been retired.
func TestEmptyLobbiesAreNotResumed(t *testing.T) {
	clock := &timer.Fake{}
	dir := t.TempDir()
	s := New(Config{Clock: clock, Data: dir, RateLimit: 1000})
	empty, emptyHost := createRoom(t, s, map[string]any{"game": "troll"})
	joined, joinedHost := createRoom(t, s, map[string]any{"game": "troll"})
	joinRoom(t, s, joined, "Ann")
	s.stopSweeping() // the server stops: the rooms are as it left them

	clock.Advance(emptyLobbyIdle + time.Minute)
	s2 := New(Config{Clock: clock, Data: dir, RateLimit: 1000})
	assert.False(t, alive(t, s2, empty, emptyHost), "the empty lobby was not resumed")
	assert.True(t, alive(t, s2, joined, joinedHost))
}

// dialWith opens a websocket with headers.
func dialWith(t *testing.T, l *live, path string, h http.Header) (*wsClient, *http.Response, error) {
	t.Helper()
	conn, res, err := fws.DefaultDialer.Dial("ws"+strings.TrimPrefix(l.base, "http")+path, h)
	if err != nil {
		return nil, res, err
	}
	t.Cleanup(func() { _ = conn.Close() })
	return &wsClient{t: t, conn: conn, room: &testRoom{}}, res, nil
}

// One address may keep maxSocketsPerAddr websockets open, not thousands.
func TestOneAddressHasFewWebsockets(t *testing.T) {
	l := startLive(t, Config{RateLimit: 1000})
	usePeerHeader(l.Server)
	code, _ := createRoom(t, l.Server, map[string]any{"game": "troll"})
	from := http.Header{peerHeader: {"10.0.0.9"}}
	var first *wsClient
	for i := range maxSocketsPerAddr {
		c, _, err := dialWith(t, l, "/ws/"+code+"?watch=1", from)
		require.NoError(t, err, "socket %d", i+1)
		c.readState()
		if first == nil {
			first = c
		}
	}
	_, res, err := dialWith(t, l, "/ws/"+code+"?watch=1", from)
	require.Error(t, err)
	require.NotNil(t, res)
	assert.Equal(t, 429, res.StatusCode)
	_, _, err = dialWith(t, l, "/ws/"+code+"?watch=1", http.Header{peerHeader: {"10.0.0.10"}})
	assert.NoError(t, err, "another address may")
	_, _, err = dialWith(t, l, "/ws/"+code+"?watch=1", http.Header{peerHeader: {"local"}})
	assert.NoError(t, err, "the server's machine may")

	require.NoError(t, first.conn.Close())
	require.Eventually(t, func() bool {
		c, _, err := dialWith(t, l, "/ws/"+code+"?watch=1", from)
		if err == nil {
			_ = c.conn.Close()
		}
		return err == nil
	}, testWait, 20*time.Millisecond, "a closed socket makes room for another")
}

// A token has at most maxSocketsPerToken websockets: one more closes its
// oldest, so a phone that reconnects while its old sockets are not yet
// known dead is never locked out.
func TestATokensSocketsPastTheCapCloseTheOldest(t *testing.T) {
	l := startLive(t, Config{})
	code, _ := createRoom(t, l.Server, map[string]any{"game": "troll"})
	_, tok := joinRoom(t, l.Server, code, "Ann")
	var socks []*wsClient
	for range maxSocketsPerToken + 1 {
		c := l.mustDial(t, code, tok, -1)
		c.readState()
		socks = append(socks, c)
	}
	assert.Equal(t, fws.ClosePolicyViolation, socks[0].closeCode(), "the oldest is closed")
	for _, c := range socks[1:] {
		c.send(map[string]string{"type": "ping"})
		for {
			m, _ := c.read()
			if m["type"] == "pong" {
				break
			}
		}
	}
}

// A phone that wakes while its dead socket still holds one of its
// address's places is not locked out: a token's new socket replaces its
// own old one even when the address has all the sockets it may, and takes
// its place at once (not when the old one is found dead). A token with no
// socket there gets no place of anybody's.
func TestATokensNewSocketReplacesItsOwnAtTheAddresssCap(t *testing.T) {
	l := startLive(t, Config{RateLimit: 1000})
	usePeerHeader(l.Server)
	code, _ := createRoom(t, l.Server, map[string]any{"game": "celestial", "players": 2})
	_, ann := joinRoom(t, l.Server, code, "Ann")
	_, bob := joinRoom(t, l.Server, code, "Bob")
	from := http.Header{peerHeader: {"10.0.0.9"}}
	dialTok := func(tok string) (*wsClient, *http.Response, error) {
		return dialWith(t, l, "/ws/"+code+"?"+url.Values{"token": {tok}}.Encode(), from)
	}
	old, _, err := dialTok(ann)
	require.NoError(t, err)
	old.readState()
	for i := range maxSocketsPerAddr - 1 {
		c, _, err := dialWith(t, l, "/ws/"+code+"?watch=1", from)
		require.NoError(t, err, "socket %d", i+2)
		c.readState()
	}
	_, res, err := dialTok(bob)
	require.Error(t, err, "Bob has no socket of his own to replace")
	require.NotNil(t, res)
	assert.Equal(t, 429, res.StatusCode)

	for round := range 3 { // again and again: each new socket takes the last one's place
		c, res, err := dialTok(ann)
		require.NoError(t, err, "round %d: Ann's new socket is locked out", round)
		require.Equal(t, 101, res.StatusCode)
		c.readState()
		assert.Equal(t, fws.ClosePolicyViolation, old.closeCode(), "round %d: Ann's old socket is closed", round)
		old = c
	}
	l.limMu.Lock()
	n := len(l.sockets["a:10.0.0.9"])
	l.limMu.Unlock()
	assert.LessOrEqual(t, n, maxSocketsPerAddr, "the address holds no more places than it may")
	_, res, err = dialTok(bob)
	require.Error(t, err, "and still none for Bob")
	assert.Equal(t, 429, res.StatusCode)
}

// A frame that is JSON but not a frame (a field of the wrong type) is
// answered 400, as HTTP would, and the socket stays open; a negative seq is
// 400, not a stale 409, on both.
func TestMalformedFramesAndNegativeSeqsAre400(t *testing.T) {
	l := startLive(t, Config{})
	code, _ := createRoom(t, l.Server, map[string]any{"game": "troll"})
	_, tok := joinRoom(t, l.Server, code, "Ann")
	c := l.mustDial(t, code, tok, -1)
	c.readState()

	errorOf := func(id string) map[string]any {
		for {
			m, _ := c.read()
			if m["type"] == "error" && m["id"] == id {
				return m
			}
			require.NotEqual(t, "ack", m["type"], "%v", m)
		}
	}
	c.send(map[string]any{"type": "move", "move": "pass", "seq": "twelve", "id": "a1"})
	m := errorOf("a1")
	assert.Equal(t, float64(400), m["status"], "%v", m)
	assert.Contains(t, m["error"], "malformed")
	c.send(map[string]any{"type": "move", "move": "pass", "seq": -5, "id": "a2"})
	m = errorOf("a2")
	assert.Equal(t, float64(400), m["status"], "%v", m)
	assert.Contains(t, m["error"], "seq -5")
	c.send(map[string]string{"type": "ping"})
	for {
		m, _ := c.read()
		if m["type"] == "pong" {
			break
		}
	}

	r := call(t, l.Server, "POST", "/api/rooms/"+code+"/moves", tok, map[string]any{"move": "pass", "seq": -5})
	assert.Equal(t, 400, r.status, "%s", r.body)
	assert.Contains(t, r.errorText(t), "seq -5")
}

// The table's QR code, like the join code, is drawn once per room.
func TestTheTablesQRCodeIsDrawnOnce(t *testing.T) {
	s := newTestServer(t, Config{})
	code, _ := createRoom(t, s, map[string]any{"game": "troll"})
	first := call(t, s, "GET", "/api/rooms/"+code+"/qr.png?for=table", "", nil)
	require.Equal(t, 200, first.status)
	addr := s.room(code).tableURL()
	s.mu.RLock()
	cached := s.qrs[addr]
	s.mu.RUnlock()
	require.NotNil(t, cached, "kept after the first request")
	assert.Equal(t, cached, first.body)
	again := call(t, s, "GET", "/api/rooms/"+code+"/qr.png?for=table", "", nil)
	assert.Equal(t, first.body, again.body)
	join := call(t, s, "GET", "/api/rooms/"+code+"/qr.png", "", nil)
	assert.NotEqual(t, first.body, join.body, "per kind")
}

// Past its rooms, an address's finished game makes way when it has no
// empty lobby: a host going from game to game is not stuck.
func TestAFinishedGameMakesWayForTheNextRoom(t *testing.T) {
	s := limitedServer(t, Config{RateLimit: 1000})
	over, overHost, overTok := soloRoom(t, s)
	require.Equal(t, 200, call(t, s, "POST", "/api/rooms/"+over+"/moves", overTok, map[string]any{"move": "end"}).status)
	require.Equal(t, "over", viewOf(t, s, over, overHost).Room.Status)
	var codes []string
	for range maxRoomsPerAddr - 1 {
		code, _ := createRoom(t, s, map[string]any{"game": "troll"})
		joinRoom(t, s, code, "Ann")
		codes = append(codes, code)
	}
	next, _ := createRoom(t, s, map[string]any{"game": "troll"})
	assert.False(t, alive(t, s, over, overHost), "the finished game made way")
	joinRoom(t, s, next, "Ann")
	r := call(t, s, "POST", "/api/rooms", "", map[string]any{"game": "troll"})
	assert.Equal(t, 429, r.status, "%s", r.body)
	for _, code := range codes {
		assert.Equal(t, 200, call(t, s, "GET", "/api/rooms/"+code+"/table", "", nil).status)
	}
}
