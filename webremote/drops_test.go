package webremote

import (
	"errors"
	"strings"
	"testing"
	"time"

	fws "github.com/fasthttp/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/referee"
	"github.com/tableref/tableref/rules/game"
)

// A phone that sends a burst of frames without reading the answers fills
// its queue: it is closed with a frame that says why (1008, too many
// messages), not cut off.
func TestABurstOfFramesIsClosedWithAReason(t *testing.T) {
	s := newTestServer(t, Config{})
	hold := make(chan struct{})
	s.holdWriters = hold // the writer answers nothing until the burst is in
	l := serveLive(t, s)
	code, _, toks := woodlouseRoom(t, s)
	ws := l.mustDial(t, code, toks[0], -1)

	r := s.room(code)
	var c *client // the phone's socket, once the server has attached it
	require.Eventually(t, func() bool {
		r.mu.Lock()
		defer r.mu.Unlock()
		for x := range r.clients {
			c = x
		}
		return c != nil
	}, testWait, time.Millisecond, "the phone's socket is attached")

	// The first state is queued, then an answer to each ping: the
	// sendQueue-th ping finds the queue full.
	for range sendQueue {
		ws.send(map[string]string{"type": "ping"})
	}
	select {
	case <-c.done:
	case <-time.After(testWait):
		t.Fatalf("the burst did not close the socket within %v", testWait)
	}
	r.mu.Lock()
	_, still := r.clients[c]
	r.mu.Unlock()
	assert.False(t, still, "the phone that sent the burst is let go")
	close(hold)

	frames, pongs := 0, 0
	require.NoError(t, ws.conn.SetReadDeadline(time.Now().Add(testWait)))
	for {
		_, b, err := ws.conn.ReadMessage()
		if err != nil {
			var ce *fws.CloseError
			require.True(t, errors.As(err, &ce), "the socket failed without a close frame after %d frames: %v", frames, err)
			assert.Equal(t, fws.ClosePolicyViolation, ce.Code)
			assert.Contains(t, ce.Text, "too many messages")
			break
		}
		frames++
		if strings.Contains(string(b), `"pong"`) {
			pongs++
		}
	}
	assert.Equal(t, sendQueue-1, pongs, "the answers queued before the queue was full reach the phone first")
}

// A reply that finds a client's queue full closes it with 1008 and says
// why; it is no longer among the room's clients.
func TestAReplyToAFullQueueClosesWithTooManyMessages(t *testing.T) {
	s := newTestServer(t, Config{})
	code, _ := createRoom(t, s, map[string]any{"game": "troll"})
	_, tok := joinRoom(t, s, code, "Ann")
	r := s.room(code)
	c := newClient(nil, tok)
	r.mu.Lock()
	c.who = who{seat: 0}
	r.clients[c] = struct{}{}
	r.mu.Unlock()
	for range sendQueue {
		s.reply(r, c, map[string]string{"type": "pong"})
	}
	assert.False(t, c.closed(), "a full queue is not yet a burst")
	s.reply(r, c, map[string]string{"type": "pong"})
	require.True(t, c.closed())
	assert.Equal(t, fws.ClosePolicyViolation, c.code)
	assert.Contains(t, c.text, "too many messages")
	assert.LessOrEqual(t, len(c.text), 123, "a close frame's reason fits in 123 bytes")
	r.mu.Lock()
	_, still := r.clients[c]
	r.mu.Unlock()
	assert.False(t, still)
}

// Batches of events past what the listener's queue holds are counted and
// logged, not dropped without a trace.
func TestEventsTheListenerCannotTakeAreCountedAndLogged(t *testing.T) {
	var log syncBuffer
	s := newTestServer(t, Config{Log: &log})
	inside, release := make(chan struct{}), make(chan struct{})
	s.OnEvents(func(string, []referee.Logged) {
		select {
		case inside <- struct{}{}:
			<-release // the listener is stuck on the first batch
		default:
		}
	})
	defer close(release)
	batch := func(seq int) []referee.Logged {
		return []referee.Logged{{Seq: seq, Event: game.Event{Type: "step", Text: "a step"}}}
	}
	s.notify("ABCD", batch(1))
	<-inside
	for i := range eventsQueued { // the queue, full
		s.notify("ABCD", batch(2+i))
	}
	assert.Zero(t, s.dropped.Load())
	assert.NotContains(t, log.String(), "not announced")
	s.notify("ABCD", batch(eventsQueued+2))
	s.notify("ABCD", batch(eventsQueued+3))
	assert.Equal(t, int64(2), s.dropped.Load())
	assert.Contains(t, log.String(), "room ABCD: the events of move 258 are not announced: the referee's listener is 256 batches behind (1 dropped since the start)")
	assert.Contains(t, log.String(), "(2 dropped since the start)")
}
