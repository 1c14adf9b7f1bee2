package webremote

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	fws "github.com/fasthttp/websocket"

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
		mv, tok, over := benchPick(r, toks, n)
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

// BenchmarkMoveOverSockets measures the CPU a move costs with real
// websockets on loopback, for a Woodlouse room of 6 seats and 0, 4 or 16
// table screens: judging and applying the move, building and encoding the
// states, and writing a frame to every socket (the server has no journal
// here: BenchmarkMove has the fsync). The sockets' readers only count
// frames, decoding nothing. Reported: cpu-µs/move, the process's CPU time
// (user and system, every goroutine, the garbage collector's too) from the
// move to the last socket's frame; the difference between two sizes over
// the difference in screens is what one more screen costs.
func BenchmarkMoveOverSockets(b *testing.B) {
	for _, watchers := range []int{0, 4, 16} {
		b.Run(fmt.Sprintf("screens=%d", watchers), func(b *testing.B) {
			l := startLive(b, Config{RateLimit: -1})
			r, host, toks, _ := benchRoom(b, l.Server)
			r.mu.Lock()
			clear(r.clients) // benchRoom's drained clients: the real sockets replace them
			r.mu.Unlock()
			var got atomic.Int64
			frame := make(chan struct{}, 1024)
			dial := func(path string) {
				conn, _, err := fws.DefaultDialer.Dial("ws"+strings.TrimPrefix(l.base, "http")+path, nil)
				if err != nil {
					b.Fatal(err)
				}
				b.Cleanup(func() { conn.Close() })
				go func() {
					for {
						if _, _, err := conn.NextReader(); err != nil {
							return
						}
						got.Add(1)
						frame <- struct{}{}
					}
				}()
			}
			for _, tok := range toks {
				dial("/ws/" + r.code + "?token=" + tok)
			}
			for range watchers {
				dial("/ws/" + r.code + "?watch=1")
			}
			sockets := int64(len(toks) + watchers)
			// wait until every socket has had n frames in all.
			wait := func(n int64) {
				for got.Load() < n {
					select {
					case <-frame:
					case <-time.After(testWait):
						b.Fatalf("%d frames of %d", got.Load(), n)
					}
				}
			}
			time.Sleep(100 * time.Millisecond) // the connection states settle
			for len(frame) > 0 {
				<-frame
			}
			var cpu time.Duration
			n := 0
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				mv, tok, over := benchPick(r, toks, n)
				if over || tok == "" {
					before := got.Load()
					if err := r.restart(host); err != nil {
						b.Fatal(err.msg)
					}
					wait(before + sockets)
					b.StartTimer()
					continue
				}
				raw, _ := json.Marshal(map[string]any{"action": mv.Action, "args": mv.Args})
				before, start := got.Load(), cpuTime()
				b.StartTimer()
				if _, err := r.move(tok, moveRequest{Move: raw}); err != nil {
					b.Fatal(err.msg)
				}
				wait(before + sockets)
				cpu += cpuTime() - start
				n++
			}
			if n > 0 {
				b.ReportMetric(float64(cpu.Microseconds())/float64(n), "cpu-µs/move")
			}
		})
	}
}

// benchPick is the benchmarks' n-th move: a legal move of a seat that may
// move (Woodlouse guessers take turns), and that seat's token; or the game
// is over.
func benchPick(r *room, toks []string, n int) (mv game.Move, tok string, over bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i, t := range toks {
		if l := r.match.Snapshot(i, 0).Legal; len(l) > 0 && (tok == "" || i%2 == n%2) {
			mv, tok = l[n%len(l)], t
		}
	}
	return mv, tok, r.match.Over()
}

// cpuTime is the process's CPU time so far, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
