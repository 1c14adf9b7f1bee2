// Package loadtest puts a web remote server under the load of many phones:
// rooms of seats (and table viewers) on websockets, each room playing legal
// moves one after the other, and measures how long each move takes to reach
// every other socket of its room.
//
// Each room is driven by one goroutine that repeats: pick a seat that may
// act (from the "legal" list of that seat's latest state frame), send one of
// its legal moves with the current seq (over the websocket or as an HTTP
// POST), wait for the ack, then wait for every other socket of the room to
// receive the state frame carrying the new seq. The broadcast latency of a
// (move, receiver) pair is the time from just before the move was written to
// the moment the receiver's reader returned the frame. Because a room has one
// move in flight at a time and nothing else changes its state, no refusal is
// a benign race: every refused move is counted as an error, as are failed
// dials, sockets the server closes, and receivers that never see a seq
// within Config.Timeout. A finished game is restarted by the host (not
// counted as a move).
//
// The rooms run concurrently; Config.Interval paces each room, and no seat
// sends more than one move per MinGap, under the server's limit of 20
// requests a second per token.
package loadtest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fasthttp/websocket"

	"github.com/tableref/tableref/rules/catalog"
	"github.com/tableref/tableref/webremote"
)

// Config says what load to make.
type Config struct {
	// URL is the server, such as http://127.0.0.1:8080. Empty starts a
	// webremote server in this process on 127.0.0.1:0, without its rate
	// limit (all the phones share one address). Against another server,
	// set-up calls and dials refused with 429 are retried after a pause,
	// and the moves keep under the limit per token (MinGap).
	URL string
	// Rooms is the number of rooms (0: 20).
	Rooms int
	// Clients is the number of websockets, spread evenly over the rooms
	// (0: 200). A room takes as many seats as the game allows; the rest of
	// its sockets are table viewers connected with the host token.
	Clients int
	// Moves is the number of moves per room (0: 100).
	Moves int
	// Game is the game id (""; woodlouse).
	Game string
	// Via is how moves are sent: "ws" (the default), "http" (POST
	// /api/rooms/{room}/moves) or "mixed" (alternating).
	Via string
	// Interval is the least time between the starts of two moves of one
	// room (0: 50 ms; negative: no pause, as fast as the broadcasts come).
	Interval time.Duration
	// MinGap is the least time between two moves of one seat (0: 55 ms,
	// under 20 a second per token).
	MinGap time.Duration
	// Timeout is how long a receiver may take to see a move before it
	// counts as a missing broadcast (0: 5 s).
	Timeout time.Duration
	// Seed seeds the choice of moves and, in process, the server's deals
	// (0: 1), so that a run can be repeated.
	Seed uint64
	// Log receives the in-process server's log (nil: discarded).
	Log io.Writer
	// CPUProfile, when set, receives a CPU profile (pprof format) of the
	// moves, set-up and dialling excluded: of the server and the load tool
	// both when the server runs in this process.
	CPUProfile io.Writer
}

// Report is what a run measured.
type Report struct {
	Clients  int `json:"clients"` // websockets opened
	Rooms    int `json:"rooms"`
	Seats    int `json:"seats"`    // of the clients, those on a seat (the others watch the table)
	Moves    int `json:"moves"`    // accepted moves, all rooms
	Restarts int `json:"restarts"` // finished games restarted by the host
	// Broadcasts is the number of (move, receiver) pairs delivered: each
	// move's state frame reaching each other socket of its room.
	Broadcasts int `json:"broadcasts"`
	// Expected is the number of (move, receiver) pairs there should have
	// been; Expected - Broadcasts of them are missing (and are errors).
	Expected   int           `json:"expected"`
	LatencyP50 time.Duration `json:"latency_p50_ns"`
	LatencyP99 time.Duration `json:"latency_p99_ns"`
	LatencyMax time.Duration `json:"latency_max_ns"`
	// AckP50 and AckP99 are the movers' round trips: send to ack (or HTTP
	// answer).
	AckP50 time.Duration `json:"ack_p50_ns"`
	AckP99 time.Duration `json:"ack_p99_ns"`
	// Errors counts failed dials, unexpected closes, refused moves and
	// missing broadcasts; ErrorSamples holds the first few, in words.
	Errors       int      `json:"errors"`
	ErrorSamples []string `json:"error_samples,omitempty"`
	// ServerBytesPerConn is the server's memory (live heap and goroutine
	// stacks) per open websocket, measured in process only (0 otherwise):
	// see measureMemory for the method. ClientBytesPerConn is the load
	// tool's own share that was taken out of it.
	ServerBytesPerConn float64 `json:"server_bytes_per_conn"`
	ClientBytesPerConn float64 `json:"client_bytes_per_conn"`
	InProcess          bool    `json:"in_process"`
	// MovesPerSecond is Moves over Duration.
	MovesPerSecond float64 `json:"moves_per_second"`
	// LoadAverage is the machine's load average (1, 5 and 15 minutes) as
	// the moves began, from /proc/loadavg (nil where there is none): a
	// busy machine's figures are not an idle one's.
	LoadAverage []float64 `json:"load_average,omitempty"`
	// Duration is the time the moves took (set-up and dialling excluded).
	Duration time.Duration `json:"duration_ns"`
}

func (c *Config) defaults() error {
	if c.Rooms == 0 {
		c.Rooms = 20
	}
	if c.Clients == 0 {
		c.Clients = 200
	}
	if c.Moves == 0 {
		c.Moves = 100
	}
	if c.Game == "" {
		c.Game = "woodlouse"
	}
	if c.Via == "" {
		c.Via = "ws"
	}
	if c.Interval == 0 {
		c.Interval = 50 * time.Millisecond
	}
	if c.Interval < 0 {
		c.Interval = 0
	}
	if c.MinGap == 0 {
		c.MinGap = 55 * time.Millisecond
	}
	if c.Timeout == 0 {
		c.Timeout = 5 * time.Second
	}
	if c.Seed == 0 {
		c.Seed = 1
	}
	switch {
	case c.Rooms < 1:
		return fmt.Errorf("rooms must be at least 1, not %d", c.Rooms)
	case c.Moves < 1:
		return fmt.Errorf("moves must be at least 1, not %d", c.Moves)
	case c.Via != "ws" && c.Via != "http" && c.Via != "mixed":
		return fmt.Errorf("moves go via ws, http or mixed, not %q", c.Via)
	}
	g, err := catalog.Get(c.Game)
	if err != nil {
		return err
	}
	in := g.Info()
	c.Game = in.ID
	if c.Clients < c.Rooms*in.MinPlayers {
		return fmt.Errorf("%d clients cannot fill %d rooms of %s (%d to %d players): use at least %d clients",
			c.Clients, c.Rooms, in.Name, in.MinPlayers, in.MaxPlayers, c.Rooms*in.MinPlayers)
	}
	return nil
}

// errorLog counts errors and keeps the first few.
type errorLog struct {
	mu      sync.Mutex
	n       int
	samples []string
}

func (e *errorLog) add(format string, a ...any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.n++
	if len(e.samples) < 10 {
		e.samples = append(e.samples, strings.Join(strings.Fields(fmt.Sprintf(format, a...)), " "))
	}
}

// room is one room under test.
type room struct {
	i        int
	code     string
	host     string
	seats    []*client // by seat
	watchers []*client
	all      []*client
	rng      *rand.Rand
	lastSent []time.Time // by seat
	seq      int

	lat, ack   []time.Duration
	moves      int
	restarts   int
	broadcasts int
	expected   int
}

// Run makes the load and reports what it measured. The error is for a run
// that could not be made at all (a bad Config, a server that cannot be
// reached or refuses to set up rooms); problems during the run are counted
// in Report.Errors.
func Run(ctx context.Context, cfg Config) (Report, error) {
	if err := cfg.defaults(); err != nil {
		return Report{}, err
	}
	g, _ := catalog.Get(cfg.Game)
	info := g.Info()
	rep := Report{Rooms: cfg.Rooms, InProcess: cfg.URL == ""}
	errs := &errorLog{}

	base := cfg.URL
	if base == "" {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return rep, err
		}
		base = "http://" + ln.Addr().String()
		logw := cfg.Log
		if logw == nil {
			logw = io.Discard
		}
		var seed atomic.Uint64
		seed.Store(cfg.Seed * 1_000_003)
		srv := webremote.New(webremote.Config{
			PublicURL: base,
			Seed:      func() uint64 { return seed.Add(1) },
			Log:       logw,
			RateLimit: -1, // no limit: every phone shares 127.0.0.1
		})
		served := make(chan error, 1)
		go func() { served <- srv.Serve(ln) }()
		defer func() {
			sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			srv.Shutdown(sctx)
			select {
			case <-served:
			case <-sctx.Done():
			}
		}()
	} else {
		u, err := url.Parse(base)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return rep, fmt.Errorf("the URL %q is not http://HOST:PORT", cfg.URL)
		}
	}
	a := newAPI(base)
	defer a.hc.CloseIdleConnections()

	// Set up the rooms: create, take the seats.
	rooms := make([]*room, cfg.Rooms)
	for i := range rooms {
		n := cfg.Clients / cfg.Rooms
		if i < cfg.Clients%cfg.Rooms {
			n++
		}
		seats := min(n, info.MaxPlayers)
		r := &room{i: i, rng: rand.New(rand.NewPCG(cfg.Seed, uint64(i)))}
		r.seats = make([]*client, seats)
		r.watchers = make([]*client, n-seats)
		r.lastSent = make([]time.Time, seats)
		rooms[i] = r
		rep.Seats += seats
	}
	if err := parallel(ctx, rooms, 8, func(r *room) error { return r.setUp(ctx, a, cfg.Game) }); err != nil {
		return rep, err
	}
	defer func() {
		// End the rooms so that a shared server forgets them.
		ectx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		parallel(ectx, rooms, 8, func(r *room) error {
			for _, c := range r.all {
				c.shut()
			}
			if r.code != "" {
				a.call(ectx, "POST", "/api/rooms/"+r.code+"/end", r.host, nil, nil, true)
			}
			return nil
		})
	}()

	// Open the websockets, measuring the server's memory around it.
	var mem memSnapshot
	if rep.InProcess {
		mem = snapshotMemory()
		defer mem.restore()
	}
	dialer := &websocket.Dialer{HandshakeTimeout: 10 * time.Second, ReadBufferSize: 4096, WriteBufferSize: 1024}
	wsBase := "ws" + strings.TrimPrefix(base, "http")
	parallel(ctx, rooms, 4, func(r *room) error {
		for _, c := range r.all {
			if err := c.dial(ctx, dialer, wsBase); err != nil {
				errs.add("%s: dial: %v", c.name, err)
			}
		}
		return nil
	})
	for _, r := range rooms {
		for _, c := range r.all {
			if c.conn == nil {
				continue
			}
			rep.Clients++
			if !c.wait(time.Now().Add(cfg.Timeout), func() bool { return c.frames > 0 }) {
				errs.add("%s: no state frame on connecting", c.name)
			}
		}
	}
	if ctx.Err() != nil {
		return rep, ctx.Err()
	}
	if rep.InProcess && rep.Clients > 0 {
		sleep(ctx, 200*time.Millisecond) // let the presence broadcasts settle
		server, client := mem.growth()
		rep.ServerBytesPerConn = server / float64(rep.Clients)
		rep.ClientBytesPerConn = client / float64(rep.Clients)
	}

	// Start the games and play.
	if cfg.CPUProfile != nil {
		if err := pprof.StartCPUProfile(cfg.CPUProfile); err != nil {
			return rep, fmt.Errorf("cpu profile: %w", err)
		}
	}
	rep.LoadAverage = loadAverage()
	start := time.Now()
	parallel(ctx, rooms, len(rooms), func(r *room) error {
		r.play(ctx, a, cfg, errs)
		return nil
	})
	rep.Duration = time.Since(start)
	if cfg.CPUProfile != nil {
		pprof.StopCPUProfile()
	}

	var lat, ack []time.Duration
	for _, r := range rooms {
		lat = append(lat, r.lat...)
		ack = append(ack, r.ack...)
		rep.Moves += r.moves
		rep.Restarts += r.restarts
		rep.Broadcasts += r.broadcasts
		rep.Expected += r.expected
		for _, c := range r.all {
			if err := c.closeErr(); err != nil {
				errs.add("%s: the connection closed: %v", c.name, err)
			}
			if c.odd != "" {
				errs.add("%s: %s", c.name, c.odd)
			}
		}
	}
	slices.Sort(lat)
	slices.Sort(ack)
	rep.LatencyP50, rep.LatencyP99 = percentile(lat, 50), percentile(lat, 99)
	if len(lat) > 0 {
		rep.LatencyMax = lat[len(lat)-1]
	}
	rep.AckP50, rep.AckP99 = percentile(ack, 50), percentile(ack, 99)
	rep.Errors, rep.ErrorSamples = errs.n, errs.samples
	if rep.Duration > 0 {
		rep.MovesPerSecond = float64(rep.Moves) / rep.Duration.Seconds()
	}
	return rep, ctx.Err()
}

// loadAverage reads the 1, 5 and 15 minute load averages (nil when the
// system does not say).
func loadAverage() []float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return nil
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return nil
	}
	out := make([]float64, 3)
	for i := range out {
		if out[i], err = strconv.ParseFloat(f[i], 64); err != nil {
			return nil
		}
	}
	return out
}

// percentile is the nearest-rank percentile of sorted durations.
func percentile(d []time.Duration, p int) time.Duration {
	if len(d) == 0 {
		return 0
	}
	k := (len(d)*p + 99) / 100
	return d[max(k, 1)-1]
}

// parallel runs f on every room, at most n at once, and returns the first
// error.
func parallel(ctx context.Context, rooms []*room, n int, f func(*room) error) error {
	var wg sync.WaitGroup
	var once sync.Once
	var first error
	sem := make(chan struct{}, n)
	for _, r := range rooms {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			if err := f(r); err != nil {
				once.Do(func() { first = err })
			}
		}()
	}
	wg.Wait()
	return first
}

// setUp creates the room and takes its seats.
func (r *room) setUp(ctx context.Context, a *api, gameID string) error {
	var created struct {
		Room      string `json:"room"`
		HostToken string `json:"host_token"`
	}
	body := map[string]any{"game": gameID, "players": len(r.seats)}
	if err := a.call(ctx, "POST", "/api/rooms", "", body, &created, true); err != nil {
		return fmt.Errorf("creating room %d: %w", r.i+1, err)
	}
	if created.Room == "" || created.HostToken == "" {
		return fmt.Errorf("creating room %d: the answer has no room or no host_token", r.i+1)
	}
	r.code, r.host = created.Room, created.HostToken
	for i := range r.seats {
		var joined struct {
			Seat  *int   `json:"seat"`
			Token string `json:"token"`
		}
		body := map[string]string{"name": fmt.Sprintf("P%d-%d", r.i+1, i+1)}
		if err := a.call(ctx, "POST", "/api/rooms/"+r.code+"/join", "", body, &joined, true); err != nil {
			return fmt.Errorf("joining room %s: %w", r.code, err)
		}
		if joined.Seat == nil || *joined.Seat < 0 || *joined.Seat >= len(r.seats) || r.seats[*joined.Seat] != nil || joined.Token == "" {
			return fmt.Errorf("joining room %s: the answer's seat or token is wrong (seat %v)", r.code, joined.Seat)
		}
		s := *joined.Seat
		r.seats[s] = newClient(r, fmt.Sprintf("room %s seat %d", r.code, s), s, joined.Token)
	}
	for i := range r.watchers {
		r.watchers[i] = newClient(r, fmt.Sprintf("room %s watcher %d", r.code, i+1), -1, r.host)
	}
	r.all = append(slices.Clone(r.seats), r.watchers...)
	return nil
}

// dial opens the client's websocket and starts its reader. A 429 (a
// server limiting upgrades by address) is retried.
func (c *client) dial(ctx context.Context, d *websocket.Dialer, wsBase string) error {
	u := wsBase + "/ws/" + c.room.code + "?token=" + url.QueryEscape(c.token)
	for attempt := 0; ; attempt++ {
		conn, resp, err := d.DialContext(ctx, u, nil)
		if err == nil {
			c.conn = conn
			go c.read()
			return nil
		}
		if resp != nil && resp.StatusCode == http.StatusTooManyRequests && attempt < 40 {
			if err := sleep(ctx, backoff(resp.Header.Get("Retry-After"), attempt)); err != nil {
				return err
			}
			continue
		}
		if resp != nil && errors.Is(err, websocket.ErrBadHandshake) {
			var e struct {
				Error string `json:"error"`
			}
			if resp.Body != nil {
				b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
				_ = json.Unmarshal(b, &e)
			}
			return fmt.Errorf("%w: HTTP %d %s", err, resp.StatusCode, e.Error)
		}
		return err
	}
}

// live lists the room's sockets still open.
func (r *room) live() []*client {
	var out []*client
	for _, c := range r.all {
		if c.conn != nil && c.alive() {
			out = append(out, c)
		}
	}
	return out
}

// settle waits until every open socket of the room has received a state
// frame after marks (frames counted before) that satisfies ok, then until
// they all show the same seq, which becomes the room's.
func (r *room) settle(marks map[*client]int, timeout time.Duration, ok func(f *frame) bool) error {
	deadline := time.Now().Add(timeout)
	for _, c := range r.live() {
		if !c.wait(deadline, func() bool { return c.frames > marks[c] && ok(&c.last) }) {
			if !c.alive() {
				continue // counted as a close
			}
			c.mu.Lock()
			f := c.last
			c.mu.Unlock()
			return fmt.Errorf("%s: no state frame showing the game under way within %v (last: seq %d, status %s)", c.name, timeout, f.Seq, status(&f))
		}
	}
	top := 0
	for _, c := range r.live() {
		c.mu.Lock()
		top = max(top, c.last.Seq)
		c.mu.Unlock()
	}
	for _, c := range r.live() {
		if !c.wait(deadline, func() bool { return c.last.Seq == top }) && c.alive() {
			return fmt.Errorf("%s: stays behind at seq %d", c.name, top)
		}
	}
	r.seq = top
	return nil
}

func status(f *frame) string {
	if f.Room == nil {
		return "?"
	}
	return f.Room.Status
}

func playing(f *frame) bool { return status(f) == "playing" && !f.Over }

// marks notes how many state frames each socket has received, and forgets
// the seqs seen (a new game may count from 0 again).
func (r *room) marks() map[*client]int {
	m := map[*client]int{}
	for _, c := range r.all {
		c.mu.Lock()
		m[c] = c.frames
		clear(c.seen)
		c.mu.Unlock()
	}
	return m
}

// play starts the room's game and makes its moves.
func (r *room) play(ctx context.Context, a *api, cfg Config, errs *errorLog) {
	marks := r.marks()
	if err := a.call(ctx, "POST", "/api/rooms/"+r.code+"/start", r.host, nil, nil, true); err != nil {
		errs.add("room %s: start: %v", r.code, err)
		return
	}
	if err := r.settle(marks, cfg.Timeout, playing); err != nil {
		errs.add("room %s: after start: %v", r.code, err)
		return
	}
	next := time.Now()
	refusals := 0
	for r.moves < cfg.Moves && ctx.Err() == nil {
		live := r.live()
		if len(live) == 0 {
			return
		}
		live[0].mu.Lock()
		over := live[0].last.Over || status(&live[0].last) == "over"
		live[0].mu.Unlock()
		if over {
			marks := r.marks()
			if err := a.call(ctx, "POST", "/api/rooms/"+r.code+"/restart", r.host, nil, nil, true); err != nil {
				errs.add("room %s: restart: %v", r.code, err)
				return
			}
			if err := r.settle(marks, cfg.Timeout, playing); err != nil {
				errs.add("room %s: after restart: %v", r.code, err)
				return
			}
			r.restarts++
			continue
		}
		mover, mv := r.choose(cfg.MinGap)
		if mover == nil {
			errs.add("room %s: no seat has a legal move at seq %d though the game is not over", r.code, r.seq)
			return
		}
		at := next
		if g := r.lastSent[mover.seat].Add(cfg.MinGap); g.After(at) {
			at = g
		}
		if sleep(ctx, time.Until(at)) != nil {
			return
		}
		via := cfg.Via
		if via == "mixed" {
			via = [2]string{"ws", "http"}[r.moves%2]
		}
		t0 := time.Now()
		next = t0.Add(cfg.Interval)
		r.lastSent[mover.seat] = t0
		newSeq, err := r.send(ctx, a, via, mover, mv, t0.Add(cfg.Timeout))
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			errs.add("%s: move %q at seq %d via %s: %v", mover.name, moveText(mv), r.seq, via, err)
			if refusals++; refusals >= 5 {
				errs.add("room %s: five refused moves; the room stops", r.code)
				return
			}
			continue
		}
		refusals = 0
		r.ack = append(r.ack, time.Since(t0))
		if newSeq <= r.seq {
			errs.add("%s: move %q at seq %d: the answer's seq is %d", mover.name, moveText(mv), r.seq, newSeq)
		}
		r.moves++
		deadline := t0.Add(cfg.Timeout)
		for _, c := range r.all {
			if c.conn == nil || !c.alive() {
				continue
			}
			if c != mover {
				r.expected++
			}
			var got time.Time
			ok := c.wait(deadline, func() bool {
				got = c.seenAt(newSeq)
				return !got.IsZero()
			})
			switch {
			case ok && c != mover:
				r.broadcasts++
				r.lat = append(r.lat, got.Sub(t0))
			case !ok && c.alive():
				errs.add("%s never received seq %d (move %q) within %v", c.name, newSeq, moveText(mv), cfg.Timeout)
			}
		}
		r.seq = newSeq
	}
}

// seenAt is when the socket first received a state frame with seq s or a
// later one (zero if it has not); older seqs are forgotten. Call with c.mu
// held.
func (c *client) seenAt(s int) time.Time {
	var first time.Time
	for q, at := range c.seen {
		switch {
		case q < s:
			delete(c.seen, q)
		case first.IsZero() || at.Before(first):
			first = at
		}
	}
	return first
}

// choose picks a seat with legal moves at the room's seq, preferring one
// that may send now under the per-seat gap, and one of its legal moves.
func (r *room) choose(gap time.Duration) (*client, wireMove) {
	var ready, waiting []*client
	now := time.Now()
	for _, c := range r.seats {
		if c == nil || c.conn == nil || !c.alive() {
			continue
		}
		c.mu.Lock()
		ok := c.last.Seq == r.seq && c.last.hasLegal()
		c.mu.Unlock()
		switch {
		case !ok:
		case !r.lastSent[c.seat].Add(gap).After(now):
			ready = append(ready, c)
		default:
			waiting = append(waiting, c)
		}
	}
	var c *client
	switch {
	case len(ready) > 0:
		c = ready[r.rng.IntN(len(ready))]
	case len(waiting) > 0:
		c = waiting[0]
		for _, w := range waiting[1:] {
			if r.lastSent[w.seat].Before(r.lastSent[c.seat]) {
				c = w
			}
		}
	default:
		return nil, wireMove{}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	legal, err := c.last.legal()
	if err != nil || len(legal) == 0 {
		if c.odd == "" {
			c.odd = fmt.Sprintf("a state frame whose legal moves do not decode: %v", err)
		}
		return nil, wireMove{}
	}
	return c, legal[r.rng.IntN(len(legal))]
}

func moveText(m wireMove) string {
	return strings.Join(append([]string{m.Action}, m.Args...), " ")
}

// moveBody is a move as sent: the seat is the token's.
type moveBody struct {
	Action string   `json:"action"`
	Args   []string `json:"args,omitempty"`
}

var moveIDs atomic.Int64

// send makes one move and returns the new seq from the ack or answer.
func (r *room) send(ctx context.Context, a *api, via string, c *client, mv wireMove, deadline time.Time) (int, error) {
	id := fmt.Sprintf("lt%d", moveIDs.Add(1))
	body := moveBody{Action: mv.Action, Args: mv.Args}
	if via == "http" {
		var ans struct {
			OK  bool `json:"ok"`
			Seq int  `json:"seq"`
		}
		err := a.call(ctx, "POST", "/api/rooms/"+r.code+"/moves", c.token,
			map[string]any{"move": body, "seq": r.seq, "id": id}, &ans, false)
		if err != nil {
			return 0, err
		}
		if !ans.OK {
			return 0, errors.New(`the answer lacks "ok":true`)
		}
		return ans.Seq, nil
	}
	if err := c.send(map[string]any{"type": "move", "move": body, "seq": r.seq, "id": id}); err != nil {
		return 0, err
	}
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	for {
		select {
		case f := <-c.acks:
			if f.ID != id {
				continue
			}
			if f.Type == "error" {
				return 0, &statusError{Status: f.Status, Msg: f.Error}
			}
			return f.Seq, nil
		case <-c.done:
			return 0, errors.New("the socket closed before the ack")
		case <-t.C:
			return 0, errors.New("no ack in time")
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	}
}
