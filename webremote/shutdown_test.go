package webremote

import (
	"context"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	fws "github.com/fasthttp/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/referee"
	"github.com/tableref/tableref/referee/timer"
)

// countingClock is a fake clock that counts what is scheduled on it.
type countingClock struct {
	timer.Fake
	scheduled atomic.Int64
}

func (c *countingClock) AfterFunc(d time.Duration, f func()) func() bool {
	c.scheduled.Add(1)
	return c.Fake.AfterFunc(d, f)
}

// The coalesced broadcast of live news is timed by the server's clock, as
// its timers are: it goes out when the clock has moved on liveEvery.
func TestLiveNewsIsTimedByTheServersClock(t *testing.T) {
	clock := &countingClock{}
	s := newTestServer(t, Config{Clock: clock})
	code, host, _ := woodlouseRoom(t, s)
	r := s.room(code)
	screen := newClient(nil, host)
	r.mu.Lock()
	screen.who = who{seat: -1, host: true}
	r.clients[screen] = struct{}{}
	r.mu.Unlock()

	before := clock.scheduled.Load()
	require.NoError(t, s.SetLive(code, "hearing", map[string]any{"n": 1}))
	require.NoError(t, s.SetLive(code, "hearing", map[string]any{"n": 2}))
	assert.Equal(t, before+1, clock.scheduled.Load(), "one broadcast is scheduled, on the server's clock")
	assert.Empty(t, screen.send, "nothing is pushed before the clock moves")
	clock.Advance(liveEvery)
	require.Len(t, screen.send, 1, "one push once the clock has moved on")
	assert.Contains(t, string(<-screen.send), `"hearing":{"n":2}`)
}

// Once Shutdown has returned, no room's timer rings, no journal record is
// written (each room's journal is closed) and the live news is refused.
func TestNothingRingsOrIsWrittenAfterShutdown(t *testing.T) {
	clock := &timer.Fake{}
	s := newTestServer(t, Config{Clock: clock, Data: t.TempDir()})
	var rung atomic.Int64
	s.OnTimer(func(string, string) { rung.Add(1) })
	code, host, _ := woodlouseRoom(t, s)
	require.Equal(t, 200, timerCall(t, s, code, host, map[string]any{"name": "sand", "action": "create", "seconds": 60}).status)
	require.Equal(t, 200, timerCall(t, s, code, host, map[string]any{"name": "sand", "action": "start"}).status)
	require.NoError(t, s.SetLive(code, "hearing", map[string]any{"n": 1})) // a broadcast is due
	r := s.room(code)
	path := r.journal.Path()
	before, err := os.ReadFile(path)
	require.NoError(t, err)

	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	require.NoError(t, s.Shutdown(ctx))
	clock.Advance(2 * time.Minute) // the sand timer's end, and the broadcast's, pass

	assert.Zero(t, rung.Load(), "no timer rings after Shutdown")
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, string(before), string(after), "no journal record is written after Shutdown")
	r.mu.Lock()
	err = r.journal.Append(map[string]string{"t": "probe"})
	r.mu.Unlock()
	assert.ErrorContains(t, err, "closed", "the room's journal is closed")
	assert.ErrorContains(t, s.SetLive(code, "hearing", map[string]any{"n": 2}), "stopping")
}

// aloneEnv runs a test alone in a process of its own (see runAlone).
const aloneEnv = "WEBREMOTE_TEST_ALONE"

// runAlone runs the calling test again in a process of its own, where no
// other test's servers run, and reports whether this is that process
// (false: the test is done, the other process ran it).
func runAlone(t *testing.T) bool {
	t.Helper()
	if os.Getenv(aloneEnv) == t.Name() {
		return true
	}
	cmd := exec.Command(os.Args[0], "-test.run=^"+t.Name()+"$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), aloneEnv+"="+t.Name())
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "the test alone:\n%s", out)
	require.Contains(t, string(out), "--- PASS: "+t.Name(), "the test alone:\n%s", out)
	return false
}

// serverGoroutines are the stacks of the goroutines other than the caller
// that run, or were started by, this package's code (its tests' aside),
// but for Serve's: the caller runs it, and it returns on its own.
func serverGoroutines(t *testing.T) []string {
	t.Helper()
	_, here, _, ok := runtime.Caller(0)
	require.True(t, ok)
	pkg := filepath.Dir(here)
	buf := make([]byte, 1<<16)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	var out []string
	for i, g := range strings.Split(string(buf), "\n\n") {
		if i == 0 || strings.Contains(g, ".(*Server).Serve(") {
			continue // the caller's own, and Serve
		}
		for line := range strings.SplitSeq(g, "\n") {
			file, _, _ := strings.Cut(strings.TrimSpace(line), ":")
			if filepath.Dir(file) == pkg && !strings.HasSuffix(file, "_test.go") {
				out = append(out, g)
				break
			}
		}
	}
	return out
}

// No goroutine the server started (a websocket's, a timer's, a coalesced
// broadcast's, the events listener's) outlives Shutdown. It runs in a
// process of its own, where no other test's server runs.
func TestNoGoroutineOfTheServerOutlivesShutdown(t *testing.T) {
	if !runAlone(t) {
		return
	}
	require.Empty(t, serverGoroutines(t), "before the server")
	s := newTestServer(t, Config{Data: t.TempDir()}) // the wall clock
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	served := make(chan error, 1)
	go func() { served <- s.Serve(ln) }()
	l := &live{Server: s, base: "http://" + ln.Addr().String()}

	heard := make(chan int, 1)
	s.OnEvents(func(string, []referee.Logged) {})
	code, host, toks := woodlouseRoom(t, s)
	require.Equal(t, 200, timerCall(t, s, code, host, map[string]any{"name": "sand", "action": "create", "seconds": 600}).status)
	require.Equal(t, 200, timerCall(t, s, code, host, map[string]any{"name": "sand", "action": "start"}).status)
	ws := l.mustDial(t, code, toks[0], -1)
	ws.readState()
	go func() { // a phone that answers the server's close
		for {
			if _, _, err := ws.conn.ReadMessage(); err != nil {
				var ce *fws.CloseError
				if errors.As(err, &ce) {
					heard <- ce.Code
				} else {
					heard <- 0
				}
				return
			}
		}
	}()
	require.NoError(t, s.SetLive(code, "hearing", map[string]any{"n": 1})) // a broadcast is due
	require.NotEmpty(t, serverGoroutines(t), "the test's premise: the server has goroutines at work")

	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	require.NoError(t, s.Shutdown(ctx))
	assert.Empty(t, serverGoroutines(t), "goroutines of the server that outlive Shutdown")
	select {
	case err := <-served:
		assert.NoError(t, err)
	case <-time.After(testWait):
		t.Fatalf("Serve did not return within %v of Shutdown", testWait)
	}
	select {
	case c := <-heard:
		assert.Equal(t, fws.CloseGoingAway, c, "the phone is told the server is going away")
	case <-time.After(testWait):
		t.Fatalf("the phone's socket was not closed within %v", testWait)
	}
}
