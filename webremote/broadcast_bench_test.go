package webremote

import (
	"testing"
)

// BenchmarkBroadcast measures the server's own work for one broadcast in a
// room of 6 seats and 4 table screens (the load test's rooms): building
// each distinct state and queueing it for every socket. The sockets are
// drained, not written.
func BenchmarkBroadcast(b *testing.B) {
	s := newTestServer(b, Config{})
	code, host := createRoomB(b, s)
	r := s.room(code)
	var toks []string
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
	var clients []*client
	r.mu.Lock()
	for i, tok := range append(toks, host, host, host, host) {
		c := newClient(nil, tok)
		c.who = who{seat: i}
		if i >= len(toks) {
			c.who = who{seat: -1, host: true}
		}
		r.clients[c] = struct{}{}
		clients = append(clients, c)
	}
	r.mu.Unlock()
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

func createRoomB(b *testing.B, s *Server) (string, string) {
	code, host, _, err := s.CreateRoom("woodlouse", 6, "", nil)
	if err != nil {
		b.Fatal(err)
	}
	return code, host
}
