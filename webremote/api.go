package webremote

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"mime"
	"path"
	"strconv"
	"strings"

	"github.com/gofiber/contrib/websocket"
	"github.com/gofiber/fiber/v2"
	"github.com/gofiber/fiber/v2/middleware/recover"
	qrcode "github.com/skip2/go-qrcode"

	"github.com/tableref/tableref/rules/game"
	"github.com/tableref/tableref/webremote/web"
)

func (s *Server) routes() {
	a := s.app
	a.Use(recover.New()) // a bug answers 500 {"error":…} rather than stopping the server
	a.Use(s.guard)       // security headers, the Host, cross-site requests (server.go)
	a.Get("/", s.page("index.html"))
	a.Get("/t/:room", s.page("table.html"))
	a.Get("/j/:room", s.page("phone.html"))
	a.Get("/static/games/:file", s.gamePage)
	a.Get("/static/*", s.static)

	api := a.Group("/api", s.limit, noStore)
	api.Get("/games", s.games)
	api.Post("/rooms", s.createRoom)
	api.Post("/rooms/:room/join", s.join)
	api.Get("/rooms/:room/view", s.view)
	api.Get("/rooms/:room/table", s.table)
	api.Post("/rooms/:room/moves", s.moves)
	api.Get("/rooms/:room/qr.png", s.qr)
	api.Post("/rooms/:room/start", s.hostAction(func(r *room, tok string, _ []byte) *apiError { return r.start(tok) }))
	api.Post("/rooms/:room/restart", s.hostAction(func(r *room, tok string, _ []byte) *apiError { return r.restart(tok) }))
	api.Post("/rooms/:room/end", s.hostAction(func(r *room, tok string, _ []byte) *apiError { return r.end(tok) }))
	api.Post("/rooms/:room/lock", s.hostAction(func(r *room, tok string, body []byte) *apiError {
		var b struct {
			Locked *bool `json:"locked"`
		}
		if err := decode(body, &b); err != nil {
			return err
		}
		return r.lock(tok, b.Locked)
	}))
	api.Post("/rooms/:room/pause", s.hostAction(func(r *room, tok string, body []byte) *apiError {
		var b struct {
			Paused *bool `json:"paused"`
		}
		if err := decode(body, &b); err != nil {
			return err
		}
		return r.pause(tok, b.Paused)
	}))
	api.Post("/rooms/:room/seat", s.hostAction(func(r *room, tok string, body []byte) *apiError {
		var b struct {
			Seat *int `json:"seat"`
			To   *int `json:"to"`
		}
		if err := decode(body, &b); err != nil {
			return err
		}
		return r.swap(tok, b.Seat, b.To)
	}))
	api.Post("/rooms/:room/kick", s.hostAction(func(r *room, tok string, body []byte) *apiError {
		var b struct {
			Seat *int `json:"seat"`
		}
		if err := decode(body, &b); err != nil {
			return err
		}
		return r.kick(tok, b.Seat)
	}))
	api.Post("/rooms/:room/miccheck", s.hostAction(func(r *room, _ string, body []byte) *apiError { return s.checkMic(r, body) }))
	api.Post("/rooms/:room/timers", s.hostAction(func(r *room, tok string, body []byte) *apiError {
		var b struct {
			Name    string `json:"name"`
			Action  string `json:"action"`
			Seconds int    `json:"seconds"`
		}
		if err := decode(body, &b); err != nil {
			return err
		}
		return r.timerAction(tok, b.Name, b.Action, b.Seconds)
	}))
	a.Get("/ws/:room", s.limit, s.wsCheck, websocket.New(s.wsServe, websocket.Config{ReadBufferSize: 4096, WriteBufferSize: 4096}))
}

// noStore keeps answers (tokens, views) out of caches.
func noStore(c *fiber.Ctx) error {
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.Next()
}

// decode reads a JSON object body; an empty body is an empty object.
func decode(body []byte, v any) *apiError {
	if len(strings.TrimSpace(string(body))) == 0 {
		body = []byte("{}")
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fail(fiber.StatusBadRequest, "malformed JSON: "+err.Error())
	}
	return nil
}

// roomOf finds the URL's room: 404 when there is none (or it ended).
func (s *Server) roomOf(c *fiber.Ctx) (*room, *apiError) {
	code := c.Params("room")
	r := s.room(code)
	if r == nil {
		return nil, fail(fiber.StatusNotFound, fmt.Sprintf("no room %q (ended, or a typo? codes are 4 letters)", excerpt(code)))
	}
	return r, nil
}

// gameEntry is a game of GET /api/games; Tool marks a helper for any game
// (the dealer, "deck") rather than a game of its own, and LateJoin a game
// that takes new players while it is played (it declares a seat_action).
type gameEntry struct {
	game.Info
	Tool     bool `json:"tool,omitempty"`
	LateJoin bool `json:"late_join,omitempty"`
}

func (s *Server) games(c *fiber.Ctx) error {
	infos := []gameEntry{}
	for _, g := range s.gameList() {
		in := g.Info()
		infos = append(infos, gameEntry{Info: in, Tool: isTool(g), LateJoin: in.LateJoin()})
	}
	return c.JSON(infos)
}

func (s *Server) createRoom(c *fiber.Ctx) error {
	var req struct {
		Game    string                     `json:"game"`
		Players int                        `json:"players"`
		Variant string                     `json:"variant"`
		Options map[string]json.RawMessage `json:"options"`
	}
	if err := decode(c.Body(), &req); err != nil {
		return err
	}
	opts := map[string]string{}
	for k, raw := range req.Options {
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			return fail(fiber.StatusBadRequest, "malformed JSON: "+err.Error())
		}
		switch v := v.(type) {
		case string:
			opts[k] = v
		case float64:
			opts[k] = strconv.FormatFloat(v, 'f', -1, 64)
		case bool:
			opts[k] = map[bool]string{true: "yes", false: "no"}[v]
		default:
			return fail(fiber.StatusBadRequest, fmt.Sprintf("option %q: give a word or a number", excerpt(k)))
		}
	}
	base := s.cfg.PublicURL
	if base == "" {
		base = c.BaseURL()
	}
	p := s.peerOf(c)
	code, host, joinURL, aerr := s.newRoom(&p, base, req.Game, req.Players, req.Variant, opts)
	if aerr != nil {
		return aerr
	}
	return c.Status(fiber.StatusCreated).JSON(fiber.Map{"room": code, "host_token": host, "join_url": joinURL})
}

// CreateRoom makes a room as POST /api/rooms does (for tableref serve
// --game): its code, the host token and the join address.
func (s *Server) CreateRoom(game string, players int, variant string, options map[string]string) (code, host, joinURL string, err error) {
	base := s.cfg.PublicURL
	if base == "" {
		base = "http://localhost"
	}
	code, host, joinURL, aerr := s.newRoom(nil, base, game, players, variant, options)
	if aerr != nil {
		return "", "", "", aerr
	}
	return code, host, joinURL, nil
}

// newRoom checks a room's game, players, variant and options and makes it,
// for p (nil: the server itself, as tableref serve --game).
func (s *Server) newRoom(p *peer, base, gameID string, wantPlayers int, variant string, opts map[string]string) (string, string, string, *apiError) {
	if strings.TrimSpace(gameID) == "" {
		return "", "", "", fail(fiber.StatusBadRequest, `name a game: {"game":"woodlouse"} (the games are `+strings.Join(s.gameIDs(), ", ")+")")
	}
	g, err := s.game(excerpt(gameID)) // no game's id is that long: its refusal quotes it short
	if err != nil {
		return "", "", "", fail(fiber.StatusBadRequest, err.Error())
	}
	info := g.Info()
	if wantPlayers != 0 {
		if err := info.CheckPlayers(wantPlayers); err != nil {
			return "", "", "", fail(fiber.StatusBadRequest, err.Error())
		}
	}
	players := wantPlayers
	if players == 0 {
		players = info.MinPlayers
	}
	variant, _, err = info.Resolve(game.Config{Players: players, Variant: variant, Options: opts})
	if err != nil {
		return "", "", "", fail(fiber.StatusBadRequest, err.Error())
	}
	if len(opts) == 0 {
		opts = nil
	}
	host, err := newToken()
	if err != nil {
		return "", "", "", fail(fiber.StatusInternalServerError, "no randomness for a token: "+err.Error())
	}
	seats := wantPlayers
	if seats == 0 {
		seats = info.MaxPlayers
	}
	r := &room{s: s, g: g, info: info, want: wantPlayers, variant: variant, options: opts, host: hashToken(host),
		status: statusLobby, seats: make([]*player, seats), byToken: map[string]int{}, clients: map[*client]struct{}{}}

	// The global cap is not for this machine's host under the limits: it
	// has a cap of its own (maxRoomsLocal), so that strangers filling the
	// server never lock the host out of their party.
	ownCap := p != nil && s.limited()
	globalCap := !ownCap || !p.local
	// At its cap, p's new room takes the place of a spare room of p's
	// (makeWayFor), which ends only once the new room holds its place: a
	// refused create ends nothing.
	var spares []*room
	if ownCap {
		var aerr *apiError
		if spares, aerr = s.makeWayFor(*p); aerr != nil {
			return "", "", "", aerr
		}
	}
	s.mu.RLock()
	full := globalCap && len(s.rooms) >= maxRooms && len(spares) == 0
	s.mu.RUnlock()
	if full {
		s.sweep() // rooms idle for long make way
	}
	// The room is locked before anyone can find it by its code, and stays
	// locked until its journal is attached and its first record written:
	// a join in between waits, and is saved like any other (the lock
	// order is a room's lock, then the server's).
	r.mu.Lock()
	s.mu.Lock()
	if s.stopping() { // checked under s.mu: Shutdown lists the rooms under it after it set stopped
		s.mu.Unlock()
		r.mu.Unlock()
		return "", "", "", errStopping()
	}
	spare := s.claimSpareLocked(spares)
	refuse := func(aerr *apiError) (string, string, string, *apiError) {
		if spare != nil {
			spare.replaced = false
		}
		s.mu.Unlock()
		r.mu.Unlock()
		return "", "", "", aerr
	}
	reused := 0 // the spare's place, which the new room takes
	if spare != nil {
		reused = 1
	}
	if globalCap && len(s.rooms)-reused >= maxRooms {
		return refuse(fail(fiber.StatusConflict, fmt.Sprintf("too many rooms (%d): end some", maxRooms)))
	}
	if ownCap && len(s.ownRoomsLocked(p.key))-reused >= roomCap(*p) {
		return refuse(tooManyRooms(*p))
	}
	code, err := s.newCodeLocked()
	if err != nil {
		return refuse(fail(fiber.StatusConflict, err.Error()))
	}
	r.code = code
	r.joinURL = base + "/j/" + code
	s.rooms[code] = r
	s.tokens[r.host] = r
	if p != nil {
		s.ownerN++
		s.owners[r] = owner{key: p.key, n: s.ownerN}
	}
	onRoom, published := s.onRoom, s.published
	s.mu.Unlock()
	if published != nil {
		published(code)
	}

	j, jerr := s.openJournal(code)
	var perr *apiError
	if jerr == nil {
		r.journal = j
		perr = r.persistLocked("created")
	}
	if jerr != nil || perr != nil {
		r.status = statusEnded // whoever found it meanwhile finds it gone
		r.mu.Unlock()
		s.mu.Lock()
		delete(s.rooms, code)
		delete(s.tokens, r.host)
		if spare != nil {
			spare.replaced = false
		}
		s.mu.Unlock()
		if perr != nil {
			return "", "", "", perr
		}
		return "", "", "", fail(fiber.StatusInternalServerError, "the server cannot save rooms in its data directory: "+jerr.Error())
	}
	r.mu.Unlock()
	if spare != nil {
		s.retireSpare(spare)
	}

	s.logf("room %s: created for %s (%d seats)", code, info.ID, seats)
	if onRoom != nil {
		onRoom(code, r.joinURL)
	}
	return code, host, r.joinURL, nil
}

// makeWayFor lists, when p has all the live rooms it may create, the rooms
// of p's that a new one may replace: its lobbies that nobody joined, oldest
// first, then its finished games (a host going from game to game is never
// stuck); 429 when every room of p's is in use. It ends none of them.
func (s *Server) makeWayFor(p peer) ([]*room, *apiError) {
	s.mu.Lock()
	own := s.ownRoomsLocked(p.key)
	s.mu.Unlock()
	if len(own) < roomCap(p) {
		return nil, nil
	}
	var spares []*room
	for _, spare := range []func(r *room) bool{
		func(r *room) bool { return r.status == statusLobby && r.emptyLocked() },
		func(r *room) bool { return r.status == statusOver },
	} {
		for _, r := range own {
			r.mu.Lock()
			if spare(r) {
				spares = append(spares, r)
			}
			r.mu.Unlock()
		}
	}
	if len(spares) == 0 {
		return nil, tooManyRooms(p)
	}
	return spares, nil
}

// claimSpareLocked takes the first of spares that is still live and that
// no other new room is replacing, and marks it replaced; nil for none.
// The caller holds s.mu.
func (s *Server) claimSpareLocked(spares []*room) *room {
	for _, r := range spares {
		if s.rooms[r.code] == r && !r.replaced {
			r.replaced = true
			return r
		}
	}
	return nil
}

// retireSpare ends a spare room whose place a new room took. One that
// stopped being spare meanwhile (a player joined it) is kept: its creator
// then holds a room over its cap until one ends.
func (s *Server) retireSpare(r *room) {
	r.mu.Lock()
	retired := ((r.status == statusLobby && r.emptyLocked()) || r.status == statusOver) &&
		r.endLocked("retired", "the room was replaced by a newer one from the same address") == nil
	r.mu.Unlock()
	if retired {
		s.logf("room %s: replaced by a newer room of its creator's", r.code)
	}
	s.mu.Lock()
	r.replaced = false
	s.mu.Unlock()
}

func tooManyRooms(p peer) *apiError {
	return fail(fiber.StatusTooManyRequests, fmt.Sprintf("too many rooms from one address: at most %d open, none of them an empty lobby or a finished game; end one", roomCap(p)))
}

func (s *Server) join(c *fiber.Ctx) error {
	r, err := s.roomOf(c)
	if err != nil {
		return err
	}
	var req struct {
		Name string `json:"name"`
	}
	if err := decode(c.Body(), &req); err != nil {
		return err
	}
	name, err := cleanName(req.Name)
	if err != nil {
		return err
	}
	seat, tok, err := r.join(name)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(fiber.Map{"seat": seat, "token": tok})
}

// sinceParam reads ?since=N; -1 when absent.
func sinceParam(c *fiber.Ctx) (int, *apiError) {
	v := c.Query("since")
	if v == "" {
		return -1, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, fail(fiber.StatusBadRequest, fmt.Sprintf("since=%q: give the last sequence number seen, a whole number from 0", excerpt(v)))
	}
	return n, nil
}

func (s *Server) view(c *fiber.Ctx) error {
	r, err := s.roomOf(c)
	if err != nil {
		return err
	}
	since, err := sinceParam(c)
	if err != nil {
		return err
	}
	st, err := r.view(bearer(c), since)
	if err != nil {
		return err
	}
	return c.JSON(st)
}

// table is the public table, without a token: what a TV shows.
func (s *Server) table(c *fiber.Ctx) error {
	r, err := s.roomOf(c)
	if err != nil {
		return err
	}
	since, err := sinceParam(c)
	if err != nil {
		return err
	}
	st, err := r.watch(since)
	if err != nil {
		return err
	}
	return c.JSON(st)
}

func (s *Server) moves(c *fiber.Ctx) error {
	r, err := s.roomOf(c)
	if err != nil {
		return err
	}
	tok := bearer(c)
	r.mu.Lock()
	_, err = r.whoLocked(tok)
	r.mu.Unlock()
	if err != nil {
		return err
	}
	var req moveRequest
	if err := decode(c.Body(), &req); err != nil {
		return err
	}
	if err := checkSeq(req.Seq); err != nil {
		return err
	}
	a, err := r.move(tok, req)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"ok": true, "seq": a.seq, "events": a.events})
}

// checkSeq refuses a move's seq below 0 (400; a stale one is 409).
func checkSeq(seq *int) *apiError {
	if seq != nil && *seq < 0 {
		return fail(fiber.StatusBadRequest, fmt.Sprintf("seq %d: give the sequence number of the view the move was made on, a whole number from 0", *seq))
	}
	return nil
}

// hostAction runs a host control and answers {"ok":true}. The token is
// checked before the body so that a seat learns 403, not a parse error.
func (s *Server) hostAction(do func(r *room, tok string, body []byte) *apiError) fiber.Handler {
	return func(c *fiber.Ctx) error {
		r, err := s.roomOf(c)
		if err != nil {
			return err
		}
		tok := bearer(c)
		r.mu.Lock()
		err = r.hostLocked(tok)
		r.mu.Unlock()
		if err != nil {
			return err
		}
		if err := do(r, tok, c.Body()); err != nil {
			return err
		}
		return c.JSON(fiber.Map{"ok": true})
	}
}

func (s *Server) qr(c *fiber.Ctx) error {
	r, err := s.roomOf(c)
	if err != nil {
		return err
	}
	var png []byte
	switch c.Query("for") {
	case "", "join":
		r.qrOnce.Do(func() { r.qr, _ = qrcode.Encode(r.joinURL, qrcode.Medium, 320) })
		png = r.qr
	case "table": // the public table, for a TV
		png = s.qrOf(r.tableURL())
	default:
		return fail(fiber.StatusBadRequest, "for=join (the default) or for=table")
	}
	if png == nil {
		return fail(fiber.StatusInternalServerError, "could not draw the QR code")
	}
	c.Set(fiber.HeaderContentType, "image/png")
	return c.Send(png)
}

// qrOf draws the QR code of an address once (the drawing takes tens of
// milliseconds); the cache is emptied when it holds more codes than there
// may be rooms.
func (s *Server) qrOf(addr string) []byte {
	s.mu.RLock()
	png := s.qrs[addr]
	s.mu.RUnlock()
	if png != nil {
		return png
	}
	png, _ = qrcode.Encode(addr, qrcode.Medium, 320)
	if png != nil {
		s.mu.Lock()
		if len(s.qrs) >= 2*maxRooms {
			clear(s.qrs)
		}
		s.qrs[addr] = png
		s.mu.Unlock()
	}
	return png
}

// page serves one of the pages of web.FS.
func (s *Server) page(name string) fiber.Handler {
	return func(c *fiber.Ctx) error { return sendStatic(c, name) }
}

func (s *Server) static(c *fiber.Ctx) error { return sendStatic(c, c.Params("*")) }

// gamePage serves a game's page module, /static/games/ID.js, as the game
// declares it (game.Info.Page): 404 for a game without one.
func (s *Server) gamePage(c *fiber.Ctx) error {
	id, ok := strings.CutSuffix(c.Params("file"), ".js")
	g, err := s.game(id)
	if !ok || err != nil || g.Info().Page == "" {
		return fail(fiber.StatusNotFound, "not found: /static/games/"+excerpt(c.Params("file")))
	}
	c.Set(fiber.HeaderContentType, staticTypes[".js"])
	c.Set(fiber.HeaderCacheControl, "no-cache")
	c.Set("X-Content-Type-Options", "nosniff")
	return c.SendString(g.Info().Page)
}

// sendStatic serves static/NAME from web.FS with its content type.
func sendStatic(c *fiber.Ctx, name string) error {
	clean := path.Clean("/" + name)[1:]
	if clean == "" || strings.Contains(clean, "..") {
		return fail(fiber.StatusNotFound, "not found: /static/"+excerpt(name))
	}
	b, err := fs.ReadFile(web.FS, "static/"+clean)
	if err != nil {
		return fail(fiber.StatusNotFound, "not found: /static/"+excerpt(clean))
	}
	ct := staticTypes[path.Ext(clean)]
	if ct == "" {
		ct = mime.TypeByExtension(path.Ext(clean))
	}
	if ct == "" {
		ct = "application/octet-stream"
	}
	c.Set(fiber.HeaderContentType, ct)
	c.Set(fiber.HeaderCacheControl, "no-cache")
	c.Set("X-Content-Type-Options", "nosniff")
	c.Set(fiber.HeaderAcceptRanges, "bytes")
	if rg := c.Get(fiber.HeaderRange); rg != "" {
		// Safari plays a video only from a server that answers byte
		// ranges (it asks for bytes=0-1 first).
		from, to, ok := byteRange(rg, len(b))
		if !ok {
			c.Set(fiber.HeaderContentRange, fmt.Sprintf("bytes */%d", len(b)))
			return c.Status(fiber.StatusRequestedRangeNotSatisfiable).Send(nil)
		}
		c.Set(fiber.HeaderContentRange, fmt.Sprintf("bytes %d-%d/%d", from, to, len(b)))
		return c.Status(fiber.StatusPartialContent).Send(b[from : to+1])
	}
	return c.Send(b)
}

// staticTypes are the content types the system's table may lack.
var staticTypes = map[string]string{
	".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8", ".html": "text/html; charset=utf-8",
	".mp4": "video/mp4", ".webm": "video/webm", ".png": "image/png", ".svg": "image/svg+xml",
}

// byteRange reads a Range header of one range, "bytes=FROM-TO", "bytes=FROM-"
// or "bytes=-LAST", over size bytes: the first and last byte, inclusive.
func byteRange(h string, size int) (from, to int, ok bool) {
	spec, found := strings.CutPrefix(strings.TrimSpace(h), "bytes=")
	if !found || strings.Contains(spec, ",") || size == 0 {
		return 0, 0, false
	}
	a, b, found := strings.Cut(spec, "-")
	if !found {
		return 0, 0, false
	}
	switch {
	case a == "":
		n, err := strconv.Atoi(b)
		if err != nil || n <= 0 {
			return 0, 0, false
		}
		return max(size-n, 0), size - 1, true
	default:
		f, err := strconv.Atoi(a)
		if err != nil || f < 0 || f >= size {
			return 0, 0, false
		}
		t := size - 1
		if b != "" {
			if t, err = strconv.Atoi(b); err != nil || t < f {
				return 0, 0, false
			}
			t = min(t, size-1)
		}
		return f, t, true
	}
}
