package webremote

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/tableref/tableref/rules/game"
)

// BenchmarkBroadcast measures the server's own work for one broadcast in a
// room of 6 seats and 4 table screens (the load test's rooms): building
// each distinct state and queueing it for every socket. The sockets are
// drained, not written.
func BenchmarkBroadcast(b *testing.B) {
	s := newTestServer(b, Config{})
	r, _, _, clients := benchRoom(b, s)
	b.ReportAllocs()
	for b.Loop() {
		r.mu.Lock()
		r.broadcastLocked(nil)
		r.mu.Unlock()
		for _, c := range clients {
			<-c.send
		}
	}
}

// benchRoom is a started Woodlouse room of 6 seats with a socket for each
// and 4 table screens (the load test's rooms), their sockets drained by
// the benchmark, never written.
func benchRoom(b *testing.B, s *Server) (r *room, host string, toks []string, clients []*client) {
	code, host := createRoomB(b, s)
	r = s.room(code)
	for _, n := range []string{"Ann", "Bob", "Cy", "Di", "Eve", "Flo"} {
		_, tok, err := r.join(n)
		if err != nil {
			b.Fatal(err.msg)
		}
		toks = append(toks, tok)
	}
	if err := r.start(host); err != nil {
		b.Fatal(err.msg)
	}
	r.mu.Lock()
	for i, tok := range append(slices.Clone(toks), host, host, host, host) {
		c := newClient(nil, tok)
		c.who = who{seat: i}
		if i >= len(toks) {
			c.who = who{seat: -1, host: true}
		}
		r.clients[c] = struct{}{}
		clients = append(clients, c)
	}
	r.mu.Unlock()
	return r, host, toks, clients
}

func createRoomB(b *testing.B, s *Server) (string, string) {
	code, host, _, err := s.CreateRoom("woodlouse", 6, "", nil)
	if err != nil {
		b.Fatal(err)
	}
	return code, host
}

// BenchmarkMove measures the server's whole work for one move in a room of
// 6 seats and 4 table screens, journalled to a temporary directory: judging
// and applying it, writing it, and building and queueing the state for
// every socket (drained, not written). Woodlouse guesses are made by the
// guessers in turn; a finished game is restarted outside the timer.
func BenchmarkMove(b *testing.B) {
	s := newTestServer(b, Config{Data: b.TempDir(), RateLimit: -1})
	r, host, toks, clients := benchRoom(b, s)
	drain := func() {
		for _, c := range clients {
			for len(c.send) > 0 {
				<-c.send
			}
		}
	}
	n := 0
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer() // choosing the move is the phones' work, not the server's
		var mv game.Move
		var tok string
		r.mu.Lock()
		for i, t := range toks {
			if l := r.match.Snapshot(i, 0).Legal; len(l) > 0 && (tok == "" || i%2 == n%2) {
				mv, tok = l[n%len(l)], t
			}
		}
		over := r.match.Over()
		r.mu.Unlock()
		if over || tok == "" {
			if err := r.restart(host); err != nil {
				b.Fatal(err.msg)
			}
			drain()
			b.StartTimer()
			continue
		}
		raw, _ := json.Marshal(map[string]any{"action": mv.Action, "args": mv.Args})
		b.StartTimer()
		if _, err := r.move(tok, moveRequest{Move: raw}); err != nil {
			b.Fatal(err.msg)
		}
		drain()
		n++
	}
}
