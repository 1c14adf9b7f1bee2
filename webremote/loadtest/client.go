package loadtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fasthttp/websocket"
	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// wireMove is a move as the API lists it in "legal" and takes in a move.
type wireMove struct {
	Seat   int      `json:"seat,omitempty"`
	Action string   `json:"action"`
	Args   []string `json:"args,omitempty"`
}

// frame is the part of a websocket frame the load tool reads: a state, an
// ack, an error or a pong. Everything else (the view, the events) is
// skipped by the decoder.
type frame struct {
	Type   string `json:"type"`
	ID     string `json:"id"`
	Seq    int    `json:"seq"`
	Status int    `json:"status"` // HTTP-like status of an error frame
	Error  string `json:"error"`
	Room   *struct {
		Status string `json:"status"`
		You    int    `json:"you"`
	} `json:"room"`
	Turn []int `json:"turn"`
	// Legal is kept as it came, and decoded (legal) only for the seat
	// that moves: a guesser's list is most of its frame, and most lists
	// are never picked from.
	Legal jsontext.Value `json:"legal"`
	Over  bool           `json:"over"`
}

// hasLegal tells whether the frame lists a legal move.
func (f *frame) hasLegal() bool {
	v := bytes.TrimSpace(f.Legal)
	return len(v) > 2 && v[0] == '[' && len(bytes.TrimSpace(v[1:len(v)-1])) > 0
}

// legal decodes the legal moves.
func (f *frame) legal() ([]wireMove, error) {
	var l []wireMove
	err := jsonv2.Unmarshal(f.Legal, &l)
	return l, err
}

// client is one open websocket: a seat's phone or a table viewer (the host
// token). A reader goroutine records every state frame; the room's driver,
// the only other user, waits on notify.
type client struct {
	room  *room
	name  string // for messages: "room ABCD seat 2", "room ABCD watcher 1"
	seat  int    // -1 for a watcher
	token string
	conn  *websocket.Conn

	wmu sync.Mutex // serialises writes

	mu       sync.Mutex
	frames   int               // state frames received
	last     frame             // the latest state frame
	seen     map[int]time.Time // seq -> when a state frame carrying it first arrived
	dead     error             // why the socket closed, when it did
	deadSeen bool              // the driver has already counted the close
	odd      string            // the first frame that did not decode as the contract says

	notify  chan struct{} // a state frame arrived or the socket closed (capacity 1)
	acks    chan frame    // acks and error frames, for the driver
	closing atomic.Bool   // we are closing it: a close is expected
	done    chan struct{} // the reader has returned
}

func newClient(r *room, name string, seat int, token string) *client {
	return &client{
		room: r, name: name, seat: seat, token: token,
		seen:   map[int]time.Time{},
		notify: make(chan struct{}, 1),
		acks:   make(chan frame, 8),
		done:   make(chan struct{}),
	}
}

// read runs until the socket closes.
func (c *client) read() {
	defer close(c.done)
	var buf bytes.Buffer // reused: a frame is decoded before the next is read
	for {
		data, err := c.next(&buf)
		at := time.Now()
		if err != nil {
			c.mu.Lock()
			if c.closing.Load() {
				err = errClosedByUs
			}
			c.dead = err
			c.mu.Unlock()
			c.wake()
			return
		}
		var f frame
		// The fast decoder first (about twice as fast as encoding/json, and
		// this runs for every frame of every socket, in the same process
		// as the server under test); a frame it refuses is decoded again by
		// encoding/json, whose partial results and errors say what was
		// wrong.
		if jsonv2.Unmarshal(data, &f) == nil {
			goto decoded
		}
		f = frame{}
		if err := json.Unmarshal(data, &f); err != nil {
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) {
				// A field of another type than the contract's: the rest
				// is decoded; say so once and go on.
				c.mu.Lock()
				if c.odd == "" {
					c.odd = fmt.Sprintf("a %s frame whose %s is a JSON %s", f.Type, te.Field, te.Value)
				}
				c.mu.Unlock()
				goto decoded
			}
			c.mu.Lock()
			c.dead = fmt.Errorf("a frame that is not JSON: %v", err)
			c.mu.Unlock()
			c.conn.Close()
			c.wake()
			return
		}
	decoded:
		switch f.Type {
		case "state":
			c.mu.Lock()
			c.frames++
			if f.Room == nil { // unchanged since this socket's last state
				f.Room = c.last.Room
			}
			c.last = f
			if _, ok := c.seen[f.Seq]; !ok {
				c.seen[f.Seq] = at
			}
			c.mu.Unlock()
			c.wake()
		case "ack", "error":
			select {
			case c.acks <- f:
			default: // nobody is waiting for this one any more
			}
		}
	}
}

// next reads the next message into buf, replacing what it held.
func (c *client) next(buf *bytes.Buffer) ([]byte, error) {
	_, r, err := c.conn.NextReader()
	if err != nil {
		return nil, err
	}
	buf.Reset()
	_, err = buf.ReadFrom(r)
	return buf.Bytes(), err
}

var errClosedByUs = errors.New("closed by the load tool")

func (c *client) wake() {
	select {
	case c.notify <- struct{}{}:
	default:
	}
}

// send writes one JSON frame.
func (c *client) send(v any) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.conn.SetWriteDeadline(time.Now().Add(10 * time.Second))
	return c.conn.WriteJSON(v)
}

// wait blocks until cond (called under c.mu) holds, the socket closes or
// the deadline passes. It reports whether cond held.
func (c *client) wait(deadline time.Time, cond func() bool) bool {
	var timer *time.Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	for {
		c.mu.Lock()
		ok, dead := cond(), c.dead != nil
		c.mu.Unlock()
		if ok {
			return true
		}
		if dead {
			return false
		}
		d := time.Until(deadline)
		if d <= 0 {
			return false
		}
		if timer == nil {
			timer = time.NewTimer(d)
		}
		select {
		case <-c.notify:
		case <-timer.C:
			// one last look
			c.mu.Lock()
			ok := cond()
			c.mu.Unlock()
			return ok
		}
	}
}

// closeErr returns the socket's unexpected close, once: later calls (and
// a close the load tool asked for) return nil.
func (c *client) closeErr() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.dead == nil || c.deadSeen || errors.Is(c.dead, errClosedByUs) {
		return nil
	}
	c.deadSeen = true
	return c.dead
}

func (c *client) alive() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.dead == nil
}

// shut closes the socket politely and waits for the reader.
func (c *client) shut() {
	if c.conn == nil {
		return
	}
	c.closing.Store(true)
	c.wmu.Lock()
	c.conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
	c.wmu.Unlock()
	select {
	case <-c.done:
	case <-time.After(2 * time.Second):
	}
	c.conn.Close()
	<-c.done
}
