package webremote

import (
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gofiber/contrib/websocket"
	"github.com/gofiber/fiber/v2"
)

// Websocket timing: a client that sends nothing (not even a pong to the
// server's pings) for readWait is taken as gone.
const (
	sendQueue = 32 // states and answers waiting for a slow socket
	writeWait = 5 * time.Second
	pingEvery = 25 * time.Second
	readWait  = 60 * time.Second
	closeWait = 2 * time.Second // for the peer to answer a close frame
)

// client is one websocket. The room's lock guards who and lastSeq; the
// socket is written by the writer goroutine alone (and by the library's
// own close and pong control frames, which may be concurrent).
type client struct {
	ws       *websocket.Conn
	token    string
	key      string // hashToken(token), as the room knows it
	who      who
	n        uint64 // the order of connection, for the oldest of a token's (limit.go)
	lastSeq  int    // the seq of the last state queued
	lastNote int    // the number of the last room event queued
	// roomSent is the room's part of the last state queued (common.roomKey)
	// and roomWho whom it was for: a state that would repeat both leaves
	// the room out.
	roomSent string
	roomWho  who

	send chan []byte
	done chan struct{}
	once sync.Once
	// hold, set by tests, keeps the writer from its first write until it
	// is closed.
	hold <-chan struct{}
	code int // close code to send, 0 for none; set before done closes
	text string
}

// clientN numbers the clients in the order they connect.
var clientN atomic.Uint64

func newClient(ws *websocket.Conn, tok string) *client {
	return &client{ws: ws, token: tok, key: hashToken(tok), n: clientN.Add(1), send: make(chan []byte, sendQueue), done: make(chan struct{})}
}

// enqueue queues a frame without blocking; false when the queue is full or
// the client is closing.
func (c *client) enqueue(b []byte) bool {
	select {
	case <-c.done:
		return false
	default:
	}
	select {
	case c.send <- b:
		return true
	default:
		return false
	}
}

// close asks the writer to flush, send a close frame with code (0: none)
// and stop.
func (c *client) close(code int, text string) {
	c.once.Do(func() {
		c.code, c.text = code, text
		close(c.done)
	})
}

// kill drops a client that cannot keep up: its connection closes at once
// (a write in progress fails) and it reconnects with since. The caller
// holds the room's lock with c still attached, so the connection is live.
func (c *client) kill() {
	c.close(0, "")
	if c.ws != nil { // nil only in unit tests
		_ = c.ws.NetConn().Close()
	}
}

func (c *client) closed() bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

// writer writes queued frames and pings until the client closes; then it
// sends the close frame and waits (briefly) for the reader to finish.
func (c *client) writer(readerDone <-chan struct{}, finished chan<- struct{}) {
	defer close(finished)
	if c.hold != nil {
		<-c.hold
	}
	ping := time.NewTicker(pingEvery)
	defer ping.Stop()
	write := func(b []byte) bool {
		_ = c.ws.SetWriteDeadline(time.Now().Add(writeWait))
		return c.ws.WriteMessage(websocket.TextMessage, b) == nil
	}
	for {
		select {
		case b := <-c.send:
			if !write(b) {
				_ = c.ws.NetConn().Close()
				return
			}
		case <-ping.C:
			if c.ws.WriteControl(websocket.PingMessage, nil, time.Now().Add(writeWait)) != nil {
				_ = c.ws.NetConn().Close()
				return
			}
		case <-c.done:
			ok := true
		flush:
			for ok {
				select {
				case b := <-c.send:
					ok = write(b)
				default:
					break flush
				}
			}
			if ok && c.code != 0 {
				_ = c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(c.code, c.text), time.Now().Add(writeWait))
			}
			select {
			case <-readerDone:
			case <-time.After(closeWait):
				_ = c.ws.NetConn().Close()
			}
			return
		}
	}
}

// frame is what a client sends.
type frame struct {
	Type string          `json:"type"`
	Move json.RawMessage `json:"move"`
	Seq  *int            `json:"seq"`
	ID   string          `json:"id"`
}

type ackFrame struct {
	Type string `json:"type"`
	ID   string `json:"id,omitempty"`
	Seq  int    `json:"seq"`
}

type errorFrame struct {
	Type   string `json:"type"`
	ID     string `json:"id,omitempty"`
	Status int    `json:"status"`
	Error  string `json:"error"`
}

// wsCheck runs before the upgrade: the room, the token and since, answered
// as HTTP errors when wrong.
func (s *Server) wsCheck(c *fiber.Ctx) error {
	if !websocket.IsWebSocketUpgrade(c) {
		return fail(fiber.StatusUpgradeRequired, "this is a websocket: connect with ws://…/ws/ROOM?token=TOKEN")
	}
	p := s.peerOf(c)
	r := s.room(c.Params("room"))
	owner := ""
	if r != nil {
		owner = slotOwner(r.code, c.Query("token"))
	}
	if s.socketsFull(p, owner) {
		return fail(fiber.StatusTooManyRequests, tooManySockets(p))
	}
	if r == nil {
		return fail(fiber.StatusNotFound, "no room "+excerpt(c.Params("room")))
	}
	since, err := sinceParam(c)
	if err != nil {
		return err
	}
	tok := c.Query("token")
	watch := tok == "" && c.Query("watch") == "1"
	r.mu.Lock()
	var aerr *apiError
	if watch {
		if r.status == statusEnded {
			aerr = fail(fiber.StatusNotFound, "room "+r.code+" has ended")
		}
	} else {
		_, aerr = r.whoLocked(tok)
	}
	r.mu.Unlock()
	if aerr != nil {
		return aerr
	}
	c.Locals("room", r)
	c.Locals("token", tok)
	c.Locals("since", since)
	c.Locals("watch", watch)
	c.Locals("peer", p)
	return c.Next()
}

// wsServe is one websocket's life.
func (s *Server) wsServe(conn *websocket.Conn) {
	r, _ := conn.Locals("room").(*room)
	tok, _ := conn.Locals("token").(string)
	since, _ := conn.Locals("since").(int)
	watch, _ := conn.Locals("watch").(bool)
	p, _ := conn.Locals("peer").(peer)
	if r == nil {
		return
	}
	if !s.begin() {
		_ = conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseGoingAway, "the server is stopping"), time.Now().Add(writeWait))
		return
	}
	defer s.finish()
	c := newClient(conn, tok)
	c.hold = s.holdWriters
	owner := ""
	if !watch {
		owner = slotOwner(r.code, tok)
	}
	sl, old := s.openSocket(p, owner, c), (*client)(nil)
	if sl == nil { // the address is full: the token's own oldest socket there makes way
		sl, old = s.replaceOwnSocket(p, owner, c)
	}
	if sl == nil { // the check before the upgrade raced with another socket
		_ = conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.ClosePolicyViolation, tooManySockets(p)), time.Now().Add(writeWait))
		return
	}
	defer s.closeSocket(sl)
	conn.SetReadLimit(BodyLimit)
	if err := r.attach(c, since, watch); err != nil {
		// The token stopped working between the check and the upgrade,
		// or the server is stopping.
		code := closeRevoke
		if err.status == fiber.StatusServiceUnavailable {
			code = websocket.CloseGoingAway
		}
		_ = conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, err.msg), time.Now().Add(writeWait))
		if old != nil {
			r.replace(old)
		}
		return
	}
	if old != nil {
		r.replace(old)
	}
	if !watch {
		r.closeOldestOfToken(c)
	}
	readerDone := make(chan struct{})
	finished := make(chan struct{})
	go c.writer(readerDone, finished)
	defer func() {
		r.detach(c)
		c.close(0, "")
		close(readerDone)
		<-finished
	}()

	_ = conn.SetReadDeadline(time.Now().Add(readWait))
	conn.SetPongHandler(func(string) error { return conn.SetReadDeadline(time.Now().Add(readWait)) })
	for {
		mt, data, err := conn.ReadMessage()
		if err != nil || c.closed() {
			return // the library answered an oversized frame with 1009 itself
		}
		_ = conn.SetReadDeadline(time.Now().Add(readWait))
		if mt != websocket.TextMessage || !json.Valid(data) {
			c.close(websocket.CloseUnsupportedData, "frames must be JSON text")
			return
		}
		var f frame
		ferr := json.Unmarshal(data, &f)
		if ferr != nil {
			// JSON, but not a frame: its id, if it has one, for the answer.
			var id struct {
				ID string `json:"id"`
			}
			_ = json.Unmarshal(data, &id)
			f = frame{ID: id.ID}
		}
		if !s.allowPeer(p, tok) {
			s.reply(r, c, errorFrame{Type: "error", ID: f.ID, Status: fiber.StatusTooManyRequests, Error: s.tooMany(p)})
			continue
		}
		if ferr != nil { // answered like HTTP's 400; the socket stays open
			s.reply(r, c, errorFrame{Type: "error", ID: f.ID, Status: fiber.StatusBadRequest, Error: oneLine("malformed frame: " + ferr.Error())})
			continue
		}
		switch f.Type {
		case "ping":
			s.reply(r, c, map[string]string{"type": "pong"})
		case "move":
			if watch {
				s.reply(r, c, errorFrame{Type: "error", ID: f.ID, Status: fiber.StatusForbidden, Error: "this screen only watches the table: moves come from the players' phones"})
				continue
			}
			if aerr := checkSeq(f.Seq); aerr != nil {
				s.reply(r, c, errorFrame{Type: "error", ID: f.ID, Status: aerr.status, Error: aerr.msg})
				continue
			}
			a, aerr := r.move(tok, moveRequest{Move: f.Move, Seq: f.Seq, ID: f.ID})
			if aerr != nil {
				if aerr.status == fiber.StatusUnauthorized || aerr.status == fiber.StatusNotFound {
					c.close(closeRevoke, aerr.msg)
					return
				}
				s.reply(r, c, errorFrame{Type: "error", ID: f.ID, Status: aerr.status, Error: oneLine(aerr.msg)})
				continue
			}
			s.reply(r, c, ackFrame{Type: "ack", ID: f.ID, Seq: a.seq})
		default:
			s.reply(r, c, errorFrame{Type: "error", ID: f.ID, Status: fiber.StatusBadRequest, Error: `unknown frame type: send "move" or "ping"`})
		}
	}
}

// reply queues an answer to one client. A client whose queue of answers is
// full sends faster than it reads them (a burst of sendQueue frames or
// more): it is told so, after the answers queued, with a close frame
// (1008, tooManyMessages), and reconnects.
func (s *Server) reply(r *room, c *client, v any) {
	b, _ := json.Marshal(v)
	if c.enqueue(b) {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.clients[c]; ok {
		delete(r.clients, c) // a broadcast would find its queue closed and cut it off
		r.goneLocked(c)
		if r.status != statusEnded {
			r.broadcastLocked(nil) // the others see the player disconnected
		}
	}
	c.close(websocket.ClosePolicyViolation, tooManyMessages)
}

// tooManyMessages is the close frame's reason for a burst of frames.
var tooManyMessages = fmt.Sprintf("too many messages: more than %d sent without reading the answers", sendQueue)

// closeOldestOfToken closes the oldest websockets of c's token past
// maxSocketsPerToken: a phone that reconnects while its old sockets are not
// yet known to be dead is never locked out.
func (r *room) closeOldestOfToken(c *client) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for {
		var same []*client
		for o := range r.clients {
			if o.key == c.key && !o.who.watch {
				same = append(same, o)
			}
		}
		if len(same) <= maxSocketsPerToken {
			return
		}
		oldest := same[0]
		for _, o := range same[1:] {
			if o.n < oldest.n {
				oldest = o
			}
		}
		r.replaceLocked(oldest, fmt.Sprintf("replaced by a newer connection of the same token (at most %d at once)", maxSocketsPerToken))
	}
}

// replace closes old, a socket whose place at its address's cap a newer
// socket of the same token took (replaceOwnSocket).
func (r *room) replace(old *client) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.replaceLocked(old, "replaced by a newer connection of the same token from the same address")
}

// replaceLocked closes a socket that a newer one of its token replaces.
func (r *room) replaceLocked(old *client, why string) {
	if _, ok := r.clients[old]; ok {
		delete(r.clients, old)
		r.goneLocked(old)
	}
	old.close(websocket.ClosePolicyViolation, why)
}
