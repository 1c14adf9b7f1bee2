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
	"net"
	"strings"
	"sync"
	"time"

	"github.com/gofiber/contrib/websocket"
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
	RateLimit int           // requests per second per token/address; 0 = 20; negative = no limit
	Data      string        // a directory for the rooms' journals; "" = rooms in memory only
	Clock     timer.Clock   // the rooms' timers' clock (and the idle rooms'); nil = the wall clock
	// Rooms nobody changes are retired (retire.go): lobbies and finished
	// games after IdleDone (0 = 6 h), any room after IdleAny (0 = 72 h). A
	// negative limit never retires.
	IdleDone time.Duration
	IdleAny  time.Duration
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
	rooms  map[string]*room // by code
	tokens map[string]*room // every live token's hash (host and seats), for the limiter
	onRoom func(code, joinURL string)
	// published, set by tests, is called when a new room can first be
	// found by its code, before its journal is attached.
	published func(code string)

	events   chan batch // to the OnEvents listener
	onEvents func(room string, evs []referee.Logged)
	onTimer  func(room, name string)
	micCheck func(room string) error
	// What happened before OnEvents and OnTimer were registered (while New
	// resumed the rooms), for them.
	early       []batch
	earlyTimers [][2]string // room and timer

	logMu sync.Mutex

	sweepMu      sync.Mutex
	sweepStop    func() bool
	sweepStopped bool
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
	s := &Server{cfg: cfg, rooms: map[string]*room{}, tokens: map[string]*room{}}
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

// Shutdown closes every websocket (close 1001) and stops the server,
// waiting for requests in progress until ctx is done.
func (s *Server) Shutdown(ctx context.Context) error {
	s.stopSweeping()
	s.mu.RLock()
	rooms := make([]*room, 0, len(s.rooms))
	for _, r := range s.rooms {
		rooms = append(rooms, r)
	}
	s.mu.RUnlock()
	for _, r := range rooms {
		r.closeAll(websocket.CloseGoingAway, "the server is stopping")
	}
	return s.app.ShutdownWithContext(ctx)
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
