package webremote

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	fws "github.com/fasthttp/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/webremote/web"
)

// testWait is how long a test waits for something that must happen (a
// frame, a listener's call, a shutdown) before it fails. It only bounds a
// hang: under -race on a busy CI machine things take many times longer than
// on a quiet one, and a test waiting for an event returns as soon as it
// comes.
const testWait = 30 * time.Second

// testSeeds gives 1000, 1001, … so that a test can replay a match.
func testSeeds() func() uint64 {
	var n atomic.Uint64
	return func() uint64 { return 1000 + n.Add(1) - 1 }
}

// syncBuffer is a log that tests may read while the server writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// newTestServer is a server without a rate limit and with counted seeds.
func newTestServer(t testing.TB, cfg Config) *Server {
	t.Helper()
	if cfg.Seed == nil {
		cfg.Seed = testSeeds()
	}
	if cfg.RateLimit == 0 {
		cfg.RateLimit = -1
	}
	return New(cfg)
}

// resp is an answer: its status and body.
type resp struct {
	status int
	body   []byte
	header http.Header
}

func (r resp) json(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(r.body, &m), "body %s", r.body)
	return m
}

// errorText checks that the answer is {"error": "one line"} and returns it.
func (r resp) errorText(t *testing.T) string {
	t.Helper()
	assert.Equal(t, "application/json", strings.Split(r.header.Get("Content-Type"), ";")[0], "errors are JSON: %s", r.body)
	m := r.json(t)
	assert.Len(t, m, 1, "an error is {\"error\":…}: %s", r.body)
	msg, ok := m["error"].(string)
	require.True(t, ok, "an error is {\"error\":…}: %s", r.body)
	assert.NotEmpty(t, msg)
	assert.NotContains(t, msg, "\n")
	return msg
}

// call sends a request through App().Test. body may be nil, a string (sent
// as is) or a value (marshalled).
func call(t *testing.T, s *Server, method, path, token string, body any) resp {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		j, err := json.Marshal(b)
		require.NoError(t, err)
		rd = bytes.NewReader(j)
	}
	req, err := http.NewRequest(method, "http://tableref.test"+path, rd)
	require.NoError(t, err)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return do(t, s, req)
}

// createRoom makes a room and returns its code and host token.
func createRoom(t *testing.T, s *Server, body any) (string, string) {
	t.Helper()
	r := call(t, s, "POST", "/api/rooms", "", body)
	require.Equal(t, 201, r.status, "%s", r.body)
	m := r.json(t)
	return m["room"].(string), m["host_token"].(string)
}

// joinRoom joins a room and returns the seat and token.
func joinRoom(t *testing.T, s *Server, code, name string) (int, string) {
	t.Helper()
	r := call(t, s, "POST", "/api/rooms/"+code+"/join", "", map[string]string{"name": name})
	require.Equal(t, 201, r.status, "%s", r.body)
	m := r.json(t)
	return int(m["seat"].(float64)), m["token"].(string)
}

// testRoom is the room part of a state as a client reads it.
type testRoom struct {
	Code    string `json:"code"`
	Game    string `json:"game"`
	Status  string `json:"status"`
	Locked  bool   `json:"locked"`
	Players []struct {
		Seat      int    `json:"seat"`
		Name      string `json:"name"`
		Connected bool   `json:"connected"`
		Vacant    bool   `json:"vacant"`
	} `json:"players"`
	Seats int  `json:"seats"`
	You   int  `json:"you"`
	Host  bool `json:"host"`
}

// testState is the state as a client reads it.
type testState struct {
	Type  string          `json:"type"`
	Room  testRoom        `json:"room"`
	Seq   int             `json:"seq"`
	Names []string        `json:"names"`
	View  json.RawMessage `json:"view"`
	Turn  []int           `json:"turn"`
	Legal []struct {
		Seat   int      `json:"seat"`
		Action string   `json:"action"`
		Args   []string `json:"args"`
	} `json:"legal"`
	Over   bool `json:"over"`
	Events []struct {
		Seq  int    `json:"seq"`
		Type string `json:"type"`
		Text string `json:"text"`
		To   []int  `json:"to"`
		N    int    `json:"n"` // the room's own events only
		Say  string `json:"say,omitempty"`
		Tone string `json:"tone,omitempty"`
	} `json:"events"`
}

func viewOf(t *testing.T, s *Server, code, token string) testState {
	t.Helper()
	r := call(t, s, "GET", "/api/rooms/"+code+"/view", token, nil)
	require.Equal(t, 200, r.status, "%s", r.body)
	var st testState
	require.NoError(t, json.Unmarshal(r.body, &st))
	return st
}

// live is a server on a real listener, for websockets.
type live struct {
	*Server
	base string // http://127.0.0.1:PORT
}

func startLive(t testing.TB, cfg Config) *live {
	t.Helper()
	return serveLive(t, newTestServer(t, cfg))
}

// serveLive serves s on a real listener until the test ends.
func serveLive(t testing.TB, s *Server) *live {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	done := make(chan error, 1)
	go func() { done <- s.Serve(ln) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), testWait)
		defer cancel()
		assert.NoError(t, s.Shutdown(ctx))
		select {
		case err := <-done:
			assert.NoError(t, err)
		case <-time.After(testWait):
			t.Errorf("Serve did not return within %v of Shutdown", testWait)
		}
	})
	return &live{Server: s, base: "http://" + ln.Addr().String()}
}

// httpCall is call over the network.
func (l *live) httpCall(t *testing.T, method, path, token string, body any) resp {
	t.Helper()
	var rd io.Reader
	if body != nil {
		j, err := json.Marshal(body)
		require.NoError(t, err)
		rd = bytes.NewReader(j)
	}
	req, err := http.NewRequest(method, l.base+path, rd)
	require.NoError(t, err)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return resp{status: res.StatusCode, body: b, header: res.Header}
}

// wsClient is a websocket that records every frame it reads.
type wsClient struct {
	t    *testing.T
	conn *fws.Conn
	// room is the room part of the last state that had one: a state the
	// server sends without it (unchanged) stands for this one, as the
	// pages do.
	room *testRoom
}

func (l *live) dial(t *testing.T, code, token string, since int) (*wsClient, *http.Response, error) {
	t.Helper()
	q := url.Values{"token": {token}}
	if since >= 0 {
		q.Set("since", itoa(since))
	}
	return l.dialURL(t, "/ws/"+code+"?"+q.Encode())
}

// dialURL opens a websocket to path (and query).
func (l *live) dialURL(t *testing.T, path string) (*wsClient, *http.Response, error) {
	t.Helper()
	conn, res, err := fws.DefaultDialer.Dial("ws"+strings.TrimPrefix(l.base, "http")+path, nil)
	if err != nil {
		return nil, res, err
	}
	c := &wsClient{t: t, conn: conn, room: &testRoom{}}
	t.Cleanup(func() { _ = conn.Close() })
	return c, res, nil
}

func (l *live) mustDial(t *testing.T, code, token string, since int) *wsClient {
	t.Helper()
	c, _, err := l.dial(t, code, token, since)
	require.NoError(t, err)
	return c
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// read reads one frame (failing the test after testWait).
func (c *wsClient) read() (map[string]any, []byte) {
	c.t.Helper()
	require.NoError(c.t, c.conn.SetReadDeadline(time.Now().Add(testWait)))
	_, b, err := c.conn.ReadMessage()
	require.NoError(c.t, err)
	var m map[string]any
	require.NoError(c.t, json.Unmarshal(b, &m), "frame %s", b)
	return m, b
}

// readState reads frames until a state comes (acks and pongs are skipped).
func (c *wsClient) readState() (testState, []byte) {
	c.t.Helper()
	for {
		m, b := c.read()
		if m["type"] == "state" {
			return decodeState(c.t, b, c.room), b
		}
	}
}

// decodeState decodes a state frame of a socket whose last room part is
// *last: a frame that leaves the room out (unchanged) gets *last, and one
// that has it replaces *last. HTTP states always have it (last: new).
func decodeState(t *testing.T, b []byte, last *testRoom) testState {
	t.Helper()
	var st testState
	require.NoError(t, json.Unmarshal(b, &st), "%s", b)
	var has struct {
		Room json.RawMessage `json:"room"`
	}
	require.NoError(t, json.Unmarshal(b, &has))
	if len(has.Room) > 0 {
		*last = st.Room
	} else {
		require.NotEmpty(t, last.Code, "a state without the room, and none before it: %s", b)
		st.Room = *last
	}
	return st
}

// readUntil reads states until pred holds.
func (c *wsClient) readUntil(pred func(testState) bool) testState {
	c.t.Helper()
	for {
		st, _ := c.readState()
		if pred(st) {
			return st
		}
	}
}

// closeCode reads until the socket closes and returns the close code.
func (c *wsClient) closeCode() int {
	c.t.Helper()
	require.NoError(c.t, c.conn.SetReadDeadline(time.Now().Add(testWait)))
	for {
		_, _, err := c.conn.ReadMessage()
		if err == nil {
			continue
		}
		var ce *fws.CloseError
		if errors.As(err, &ce) {
			return ce.Code
		}
		c.t.Fatalf("the socket failed without a close frame: %v", err)
		return 0
	}
}

func (c *wsClient) send(v any) {
	c.t.Helper()
	require.NoError(c.t, c.conn.WriteJSON(v))
}

// testClock is a clock a test moves by hand.
type testClock struct{ t time.Time }

func (c *testClock) now() time.Time { return c.t }

func (c *testClock) add(seconds float64) {
	c.t = c.t.Add(time.Duration(seconds * float64(time.Second)))
}

// staticFile is a page as embedded.
func staticFile(name string) ([]byte, error) { return fs.ReadFile(web.FS, "static/"+name) }

// freezeLimiter stops the clock of s's rate limiter at the present, so that
// no bucket refills during the test: how many requests a test makes "in a
// second" then does not depend on how fast a busy machine makes them.
// (TestLimiterRefillsAtTheRate checks the refilling, on a clock of its own.)
func freezeLimiter(t *testing.T, s *Server) {
	t.Helper()
	require.NotNil(t, s.limiter, "the server has no rate limit")
	s.limiter.mu.Lock()
	defer s.limiter.mu.Unlock()
	frozen := s.limiter.now()
	s.limiter.now = func() time.Time { return frozen }
}
