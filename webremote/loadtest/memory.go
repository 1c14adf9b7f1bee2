package loadtest

import (
	"runtime"
	"strings"
)

// The server's memory per connection, in process.
//
// The load tool and the server share the process, so the growth of the heap
// and of the goroutine stacks while the websockets open is both sides'. It is
// split between them like this:
//
//   - Before dialling (rooms created and seats joined), the runtime collects
//     garbage three times (so that the heap profile is current), reads
//     runtime.MemStats, takes the heap profile (runtime.MemProfile) and
//     counts the goroutines by their stacks; then it records every
//     allocation in the heap profile (runtime.MemProfileRate = 1).
//   - Once every socket has its first state frame, and the presence
//     broadcasts have settled, the same is done again.
//   - Heap: the growth of HeapAlloc is split by the profile. Each allocation
//     site whose call stack goes through this package, the websocket Dialer
//     or the net/http client is the load tool's; every other one the
//     server's (its fasthttp/fiber connections, websocket handlers, rooms'
//     subscriber lists, buffers).
//   - Stacks: the growth of StackInuse is split in proportion to the new
//     goroutines of each side (classified by their stacks the same way);
//     this assumes the two sides' goroutines have stacks of the same size
//     on average.
//
// The server's share divided by the number of sockets is
// Report.ServerBytesPerConn: what an idle phone that has received its state
// costs the server. It is not measured against a server in another process.

// memSnapshot is the memory before the sockets open.
type memSnapshot struct {
	ms       runtime.MemStats
	heap     map[[32]uintptr]int64
	gServer  int
	gClient  int
	prevRate int
}

func snapshotMemory() memSnapshot {
	var s memSnapshot
	settleGC()
	runtime.ReadMemStats(&s.ms)
	s.heap = heapProfile()
	s.gServer, s.gClient = goroutines()
	s.prevRate = runtime.MemProfileRate
	runtime.MemProfileRate = 1
	return s
}

// restore puts back the heap profile's sampling rate.
func (s memSnapshot) restore() {
	if s.prevRate != 0 {
		runtime.MemProfileRate = s.prevRate
	}
}

// growth returns the server's and the load tool's growth in bytes since s.
func (s memSnapshot) growth() (server, client float64) {
	settleGC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	heap := heapProfile()
	gServer, gClient := goroutines()
	s.restore()

	var profServer, profClient float64
	stacks := map[[32]uintptr]bool{}
	for k := range heap {
		stacks[k] = true
	}
	for k := range s.heap {
		stacks[k] = true
	}
	for k := range stacks {
		d := float64(heap[k] - s.heap[k])
		if isClient(k[:]) {
			profClient += d
		} else {
			profServer += d
		}
	}
	heapGrowth := float64(int64(ms.HeapAlloc) - int64(s.ms.HeapAlloc))
	if profServer < 0 {
		profServer = 0
	}
	if profClient < 0 {
		profClient = 0
	}
	if t := profServer + profClient; t > 0 {
		server = heapGrowth * profServer / t
		client = heapGrowth * profClient / t
	} else {
		server = heapGrowth
	}

	stackGrowth := float64(int64(ms.StackInuse) - int64(s.ms.StackInuse))
	dS, dC := float64(max(gServer-s.gServer, 0)), float64(max(gClient-s.gClient, 0))
	if dS+dC > 0 {
		server += stackGrowth * dS / (dS + dC)
		client += stackGrowth * dC / (dS + dC)
	} else {
		server += stackGrowth
	}
	return server, client
}

func settleGC() {
	for range 3 {
		runtime.GC()
	}
}

// heapProfile is the bytes in use per allocation site.
func heapProfile() map[[32]uintptr]int64 {
	var recs []runtime.MemProfileRecord
	n, _ := runtime.MemProfile(nil, true)
	for {
		recs = make([]runtime.MemProfileRecord, n+64)
		var ok bool
		if n, ok = runtime.MemProfile(recs, true); ok {
			recs = recs[:n]
			break
		}
	}
	out := make(map[[32]uintptr]int64, len(recs))
	for _, r := range recs {
		out[r.Stack0] += r.InUseBytes()
	}
	return out
}

// goroutines counts the goroutines of the server and of the load tool.
func goroutines() (server, client int) {
	var recs []runtime.StackRecord
	n, _ := runtime.GoroutineProfile(nil)
	for {
		recs = make([]runtime.StackRecord, n+64)
		var ok bool
		if n, ok = runtime.GoroutineProfile(recs); ok {
			recs = recs[:n]
			break
		}
	}
	for _, r := range recs {
		if isClient(r.Stack()) {
			client++
		} else {
			server++
		}
	}
	return server, client
}

// isClient reports whether a call stack is the load tool's: whether,
// from the innermost frame out, a frame of the load tool (this package,
// the websocket Dialer, the net/http client) comes before one of the
// server (webremote, fasthttp, fiber). The in-process server's accept loop
// runs on a goroutine this package started, hence the order.
func isClient(stk []uintptr) bool {
	for len(stk) > 0 && stk[len(stk)-1] == 0 {
		stk = stk[:len(stk)-1]
	}
	if len(stk) == 0 {
		return false
	}
	frames := runtime.CallersFrames(stk)
	for {
		f, more := frames.Next()
		fn := f.Function
		switch {
		case strings.HasPrefix(fn, "github.com/tableref/tableref/webremote/loadtest."),
			strings.HasPrefix(fn, "net/http.(*persistConn)"),
			strings.HasPrefix(fn, "net/http.(*Transport)"),
			strings.HasPrefix(fn, "net/http.(*Client)"),
			strings.HasPrefix(fn, "github.com/fasthttp/websocket.(*Dialer)"),
			strings.HasPrefix(fn, "github.com/fasthttp/websocket.NewClient"):
			return true
		case strings.HasPrefix(fn, "github.com/tableref/tableref/webremote."),
			strings.HasPrefix(fn, "github.com/valyala/fasthttp"),
			strings.HasPrefix(fn, "github.com/gofiber/"):
			return false
		}
		if !more {
			return false
		}
	}
}
