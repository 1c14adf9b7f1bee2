// Package webremote serves the web remote of tableref: the rooms API, the
// pages and the websocket of docs/api.md, on one port. Phones join a room
// with a name and get a seat token; the table (the host) gets a host token.
// Whatever goes to a browser is built from the snapshot of the seat it
// belongs to (referee.Match.Snapshot), so no seat ever receives another
// seat's secrets.
//
// Rooms live in memory and, with Config.Data, in a journal per room that
// every change reaches before it is acknowledged (persist.go), so a restart
// resumes them. Each room has its own lock; the server's only shared
// state is the map of rooms and the map of tokens. Websocket clients each
// have a writer goroutine fed by a small buffered channel: a broadcast never
// writes to a socket itself, and a client too slow to keep up is dropped (it
// reconnects with since and misses nothing).
package webremote

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/url"
	"os"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/tableref/tableref/referee"
	"github.com/tableref/tableref/referee/timer"
	"github.com/tableref/tableref/rules/catalog"
	"github.com/tableref/tableref/rules/game"
)

// BodyLimit is the largest request body and websocket frame accepted.
const BodyLimit = 16 * 1024

// Config sets up a Server.
type Config struct {
	PublicURL string        // base of join_url, e.g. "http://192.168.1.20:8080"; "" = from the request's Host
	Seed      func() uint64 // seeds for new games; nil = crypto/rand
	Log       io.Writer     // one line per room event (created, joined, started, ended); nil = discard. Never tokens or views.
	RateLimit int           // requests per second per address (and per live token); 0 = 20; negative = no limits by address (limit.go)
	Data      string        // a directory for the rooms' journals; "" = rooms in memory only
	Clock     timer.Clock   // the rooms' timers' clock (and the idle rooms'); nil = the wall clock
	// Rooms nobody changes are retired (retire.go): lobbies and finished
	// games after IdleDone (0 = 6 h), any room after IdleAny (0 = 72 h). A
	// negative limit never retires.
	IdleDone time.Duration
	IdleAny  time.Duration
	// Hosts are more names the server answers to (the Host header),
	// besides its addresses, PublicURL's host and local names
	// (hostAllowed).
	Hosts []string
	// Games are the games rooms are made for, by id; nil is the
	// catalogue's (rules/catalog) and its tools (the dealer). Whatever a
	// game needs from the server it declares in its Info.
	Games []game.Game
}

// gameList is the games rooms are made for (Config.Games).
func (s *Server) gameList() []game.Game {
	if s.cfg.Games != nil {
		return s.cfg.Games
	}
	return append(catalog.All(), catalog.Tools()...)
}

// game finds a game by id, whatever the case.
func (s *Server) game(id string) (game.Game, error) {
	if s.cfg.Games == nil {
		return catalog.Get(id)
	}
	var ids []string
	for _, g := range s.cfg.Games {
		if strings.EqualFold(g.Info().ID, strings.TrimSpace(id)) {
			return g, nil
		}
		ids = append(ids, g.Info().ID)
	}
	return nil, fmt.Errorf("no game %q (the games are %s)", id, strings.Join(ids, ", "))
}

// gameIDs lists the ids of the games rooms are made for, tools left out.
func (s *Server) gameIDs() []string {
	var ids []string
	for _, g := range s.gameList() {
		if !isTool(g) {
			ids = append(ids, g.Info().ID)
		}
	}
	return ids
}

// isTool reports whether g is a helper for any game (the dealer) rather
// than a game of its own.
func isTool(g game.Game) bool {
	for _, t := range catalog.Tools() {
		if t.Info().ID == g.Info().ID {
			return true
		}
	}
	return false
}

// Server is the web remote: rooms, the API, the pages and the websockets.
type Server struct {
	cfg     Config
	app     *fiber.App
	limiter *limiter

	mu     sync.RWMutex
	rooms  map[string]*room  // by code
	tokens map[string]*room  // every live token's hash (host and seats), for the limiter
	owners map[*room]owner   // who created each room (limit.go); entries of ended rooms are dropped lazily
	ownerN int               // rooms created, for owners' order
	qrs    map[string][]byte // QR codes by address (for=table), drawn once
	onRoom func(code, joinURL string)
	// published, set by tests, is called when a new room can first be
	// found by its code, before its journal is attached.
	published func(code string)

	events chan batch // to the OnEvents listener
	// eventsClosed: Shutdown closed events (or there was none to close):
	// nothing more is queued.
	eventsClosed bool
	onEvents     func(room string, evs []referee.Logged)
	onTimer      func(room, name string)
	micCheck     func(room string) error
	micSkip      func(room string) error
	// What happened before OnEvents and OnTimer were registered (while New
	// resumed the rooms), for them.
	early       []batch
	earlyTimers [][2]string // room and timer

	logMu sync.Mutex

	names map[string]bool // the names the server answers to (hostAllowed)

	limMu   sync.Mutex
	sockets map[string][]*socketSlot // the places open websockets hold, by address key, oldest first (limit.go)
	// testPeer, set by tests, says where a request comes from (ok false:
	// from its connection).
	testPeer func(c *fiber.Ctx) (peer, bool)
	// holdWriters, set by tests, keeps every websocket's writer from its
	// first write until it is closed.
	holdWriters chan struct{}

	sweepMu      sync.Mutex
	sweepStop    func() bool
	sweepStopped bool

	// lifeMu guards stopped: Shutdown has begun, and no more of the
	// server's own work begins. busy counts that work under way (a
	// websocket's life, a timer ringing, a coalesced broadcast, the
	// OnEvents listener's goroutine), which Shutdown waits for.
	lifeMu  sync.Mutex
	stopped bool
	busy    sync.WaitGroup

	// dropped counts what the referee never got: batches of events past
	// eventsQueued (a listener far behind, or the server stopped) and
	// timers' alarms past eventsQueued before OnTimer. Each is logged.
	dropped atomic.Int64
}

// New makes a Server; nothing listens until Serve.
func New(cfg Config) *Server {
	cfg.PublicURL = strings.TrimRight(cfg.PublicURL, "/")
	if cfg.Seed == nil {
		cfg.Seed = randomSeed
	}
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	rate := cfg.RateLimit
	if rate == 0 {
		rate = 20
	}
	s := &Server{cfg: cfg, rooms: map[string]*room{}, tokens: map[string]*room{}, owners: map[*room]owner{},
		qrs: map[string][]byte{}, sockets: map[string][]*socketSlot{}}
	if rate > 0 {
		s.limiter = newLimiter(rate, time.Now)
	}
	s.app = fiber.New(fiber.Config{
		AppName:               "tableref",
		BodyLimit:             BodyLimit,
		DisableStartupMessage: true,
		ErrorHandler:          errorHandler,
		ReadTimeout:           30 * time.Second,
		IdleTimeout:           2 * time.Minute,
		// Behind nothing: the address is the peer's.
		EnableTrustedProxyCheck: false,
	})
	s.names = hostNames(cfg)
	s.routes()
	if cfg.Data != "" {
		s.resume()
	}
	s.startSweeping()
	return s
}

// App is the Fiber application, for app.Test in unit tests.
func (s *Server) App() *fiber.App { return s.app }

// Serve answers on ln until Shutdown; it blocks.
func (s *Server) Serve(ln net.Listener) error {
	return s.app.Listener(ln)
}

// Shutdown stops the server: it closes every websocket (close 1001),
// calls off every room's timers and coalesced broadcast, stops the HTTP
// server, waiting for requests in progress, closes every room's journal,
// ends the OnEvents listener's goroutine, and waits for the server's own
// work under way (a websocket answering its close, a timer ringing) until
// ctx is done. Once it returns, no timer of the server rings, no journal
// record is written and no goroutine it started runs.
func (s *Server) Shutdown(ctx context.Context) error {
	s.lifeMu.Lock()
	s.stopped = true // no websocket, timer or listener starts its work from now
	s.lifeMu.Unlock()
	s.stopSweeping()
	for _, r := range s.roomList() {
		r.stop(false)
	}
	err := s.app.ShutdownWithContext(ctx)
	// The requests that were in progress may have saved changes, or made
	// a room: now every journal closes.
	for _, r := range s.roomList() {
		r.stop(true)
	}
	s.mu.Lock()
	if s.events != nil && !s.eventsClosed {
		close(s.events)
	}
	s.eventsClosed = true
	s.mu.Unlock()
	idle := make(chan struct{})
	go func() {
		s.busy.Wait()
		close(idle)
	}()
	select {
	case <-idle:
	case <-ctx.Done():
		err = errors.Join(err, fmt.Errorf("the server's websockets, timers and listener were still at work: %w", ctx.Err()))
	}
	return err
}

// roomList is the live rooms, in no order.
func (s *Server) roomList() []*room {
	s.mu.RLock()
	defer s.mu.RUnlock()
	rooms := make([]*room, 0, len(s.rooms))
	for _, r := range s.rooms {
		rooms = append(rooms, r)
	}
	return rooms
}

// begin counts a piece of the server's own work that Shutdown waits for
// (a websocket's life, a timer ringing, a coalesced broadcast, the
// listener's goroutine); false once Shutdown has begun: the work is not to
// be done. Each begin that returns true is followed by one finish.
func (s *Server) begin() bool {
	s.lifeMu.Lock()
	defer s.lifeMu.Unlock()
	if s.stopped {
		return false
	}
	s.busy.Add(1)
	return true
}

// finish ends a piece of work counted by begin.
func (s *Server) finish() { s.busy.Done() }

// stopping reports whether Shutdown has begun.
func (s *Server) stopping() bool {
	s.lifeMu.Lock()
	defer s.lifeMu.Unlock()
	return s.stopped
}

// OnRoom sets a function called (outside any lock) when a room is created.
func (s *Server) OnRoom(f func(code, joinURL string)) {
	s.mu.Lock()
	s.onRoom = f
	s.mu.Unlock()
}

// logf writes one line to the log. Callers never pass tokens or views.
func (s *Server) logf(format string, a ...any) {
	s.logMu.Lock()
	defer s.logMu.Unlock()
	fmt.Fprintf(s.cfg.Log, format+"\n", a...)
}

// room finds a live room by code (any case).
func (s *Server) room(code string) *room {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.rooms[strings.ToUpper(code)]
}

// owner is who created a room: its address's key, and the room's number
// among those created.
type owner struct {
	key string
	n   int
}

// knownToken reports whether tok belongs to a live room (for the limiter).
func (s *Server) knownToken(tok string) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	_, ok := s.tokens[hashToken(tok)]
	return ok
}

func (s *Server) addToken(tok string, r *room) {
	s.mu.Lock()
	s.tokens[tok] = r
	s.mu.Unlock()
}

func (s *Server) dropTokens(toks ...string) {
	s.mu.Lock()
	for _, t := range toks {
		delete(s.tokens, t)
	}
	s.mu.Unlock()
}

// codeLetters are the letters of room codes: capitals without I and O.
const codeLetters = "ABCDEFGHJKLMNPQRSTUVWXYZ"

// newCode picks an unused room code; the caller holds s.mu.
func (s *Server) newCodeLocked() (string, error) {
	for range 1000 {
		var b [4]byte
		if _, err := rand.Read(b[:]); err != nil {
			return "", err
		}
		for i := range b {
			b[i] = codeLetters[int(b[i])%len(codeLetters)]
		}
		if _, taken := s.rooms[string(b[:])]; !taken {
			return string(b[:]), nil
		}
	}
	return "", errors.New("no free room code (too many rooms)")
}

func randomSeed() uint64 {
	var b [8]byte
	_, _ = rand.Read(b[:]) // never fails on supported systems
	return binary.LittleEndian.Uint64(b[:]) >> 16
}

// Cross-site defences (docs/api.md, "Limits and cross-site requests"):
// every answer carries the security headers; a request for another name
// than the server's is refused (DNS rebinding); a request a browser sends
// from another site's page is refused (its Origin), and so is a body that
// is not declared JSON (a form's).

// localSuffixes are the ends of names that no public DNS hands out, so
// that no stranger's page can point one at this server.
var localSuffixes = []string{".localhost", ".local", ".lan", ".home.arpa", ".internal", ".test"}

// hostNames are the names the server answers to besides its addresses.
func hostNames(cfg Config) map[string]bool {
	// The names reserved for examples (RFC 2606) are no stranger's either;
	// net/http/httptest's requests are for example.com.
	names := map[string]bool{"localhost": true, "example.com": true, "example.net": true, "example.org": true}
	add := func(h string) {
		if h = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(h)), "."); h != "" {
			names[h] = true
		}
	}
	if u, err := url.Parse(cfg.PublicURL); err == nil && cfg.PublicURL != "" {
		add(u.Hostname())
	}
	for _, h := range cfg.Hosts {
		add(h)
	}
	if h, err := os.Hostname(); err == nil && h != "" {
		add(h)
		short, _, _ := strings.Cut(h, ".")
		add(short)
		add(short + ".local")
	}
	return names
}

// splitHost is a Host header's name (or address) without its port.
func splitHost(h string) string {
	if name, _, err := net.SplitHostPort(h); err == nil {
		return name
	}
	return strings.TrimSuffix(strings.TrimPrefix(h, "["), "]")
}

// hostAllowed reports whether the server answers to the Host header h: an
// address (a page cannot rebind an address: its origin is the address
// itself), one of the server's names (PublicURL's, the machine's,
// localhost, Config.Hosts), a name of one label, or a name under a suffix
// no public DNS serves (.local, .lan, …).
func (s *Server) hostAllowed(h string) bool {
	name := strings.TrimSuffix(strings.ToLower(splitHost(h)), ".")
	if name == "" || net.ParseIP(name) != nil || s.names[name] || !strings.Contains(name, ".") {
		return true
	}
	for _, suf := range localSuffixes {
		if strings.HasSuffix(name, suf) {
			return true
		}
	}
	return false
}

// plainHost matches a Host header safe to repeat in a header.
var plainHost = regexp.MustCompile(`^[A-Za-z0-9.\-]+(:[0-9]+)?$|^\[[0-9A-Fa-f:.]+\](:[0-9]+)?$`)

// contentSecurityPolicy is the pages' policy for the host h: scripts,
// styles, images and media from the server only; no frames, no plugins;
// connections to the server and its websocket. Inline style attributes are
// allowed because the pages set custom properties (a seat's colour, the
// troll bridge's columns) with setAttribute("style"); no inline script is.
func contentSecurityPolicy(h string) string {
	connect := "'self' ws: wss:"
	if plainHost.MatchString(h) {
		connect = "'self' ws://" + h + " wss://" + h
	}
	return "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
		"media-src 'self'; connect-src " + connect + "; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'"
}

// guard sets the security headers and refuses foreign hosts, cross-site
// requests and bodies not declared JSON.
func (s *Server) guard(c *fiber.Ctx) error {
	host := string(c.Request().Host())
	c.Set(fiber.HeaderContentSecurityPolicy, contentSecurityPolicy(host))
	c.Set(fiber.HeaderXFrameOptions, "DENY")
	c.Set(fiber.HeaderXContentTypeOptions, "nosniff")
	c.Set(fiber.HeaderReferrerPolicy, "no-referrer")
	if !s.hostAllowed(host) {
		msg := fmt.Sprintf("this server does not answer to the name %q", excerpt(splitHost(host)))
		if s.cfg.PublicURL != "" {
			msg += ": open " + s.cfg.PublicURL
		}
		return fail(fiber.StatusMisdirectedRequest, msg)
	}
	origin := c.Get(fiber.HeaderOrigin)
	unsafe := c.Method() != fiber.MethodGet && c.Method() != fiber.MethodHead && c.Method() != fiber.MethodOptions
	if origin != "" && (unsafe || strings.EqualFold(c.Get(fiber.HeaderUpgrade), "websocket")) && !sameOrigin(origin, host) {
		return fail(fiber.StatusForbidden, fmt.Sprintf("cross-site request refused: a page of %s may not use this server (%s)", oneLine(origin), oneLine(host)))
	}
	if unsafe && len(c.Body()) > 0 {
		ct := c.Get(fiber.HeaderContentType)
		mt, _, err := mime.ParseMediaType(ct)
		switch {
		case ct == "" && origin == "":
			// A script (curl, Go) that says nothing: taken as JSON. A
			// browser always sends an Origin with a POST.
		case ct == "" || err != nil || mt != fiber.MIMEApplicationJSON:
			if ct == "" {
				ct = "none"
			}
			return fail(fiber.StatusUnsupportedMediaType, fmt.Sprintf("send the body as JSON with Content-Type: application/json (not %s)", oneLine(ct)))
		}
	}
	return c.Next()
}

// sameOrigin reports whether a browser's Origin is the server at host.
func sameOrigin(origin, host string) bool {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return false
	}
	return strings.EqualFold(u.Host, host)
}
