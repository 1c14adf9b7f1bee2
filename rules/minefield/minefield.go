package minefield

import (
	"fmt"
	"strings"

	"github.com/tableref/tableref/rules/game"
)

// Game is Jerks in a Minefield in the catalogue.
var Game game.Game = gameImpl{}

// gameImpl is the game. Its flags exist only for the package's own tests,
// which switch them on to prove that the secrecy check notices a leak.
type gameImpl struct {
	leakLayout bool // every view shows every face-down tile as if looked at
	leakLooks  bool // every view shows what every seat has looked at
	leakShared bool // every view shows the tiles two or more seats have looked at
}

// Option names and values.
const (
	OptCrossing     = "crossing"
	OptSwapOccupied = "swap-occupied"
	OptFastMove     = "fast-move"
	FastExact       = "exact"
	FastUpTo        = "up-to"
	OptRounds       = "rounds"
	OptDash         = "dash"
	DashFree        = "free"
	DashNoRevisit   = "no-revisit"
	OptShoves       = "shoves"
	ShovesOne       = "one"
	ShovesAny       = "any"
	OptPair         = "pair"
	PairOne         = "one"
	PairBoth        = "both"
	// OptEmptyEdge is, with three players, the edge nobody starts on:
	// north, east (the default), south, west or random.
	OptEmptyEdge = "empty-edge"
	EdgeRandom   = "random"
)

func (gameImpl) Info() game.Info {
	return game.Info{
		ID:         "minefield",
		Name:       "Jerks in a Minefield",
		Summary:    "Creep or dash across a 5×5 field hiding ten mines and shove your rivals onto them; the last one standing wins, and the dead come back to haunt the living.",
		MinPlayers: 2,
		MaxPlayers: 4,
		Options: []game.Option{
			{Name: OptCrossing, Label: "Crossing face-down tiles", Default: "no", Values: []string{"no", "yes"},
				ValueText: map[string]string{"no": "Off: pass them freely", "yes": "On: roll for each one"},
				Text:      "The optional crossing rule: during a fast move, a face-down tile passed over (not the last one) is gambled on with a die: 4 to 6 you pass without turning it, 1 to 3 it is turned over as if landed on (a mine goes off)."},
			{Name: OptSwapOccupied, Label: "Ghosts swapping tiles", Default: "no", Values: []string{"no", "yes"},
				ValueText: map[string]string{"no": "Only empty tiles", "yes": "Occupied tiles too"},
				Text:      "Whether a ghost may swap a tile someone is standing on; a live mine slid under a token goes off at once, a blank one is turned over."},
			{Name: OptFastMove, Label: "Length of a fast move", Default: FastExact, Values: []string{FastExact, FastUpTo},
				ValueText: map[string]string{FastExact: "Exactly the number rolled", FastUpTo: "Up to the number rolled"},
				Text:      "A fast move travels \"exact\"ly the number rolled (doubling back is allowed; it ends early only when boxed in) or \"up-to\" that number, stopping whenever the mover likes."},
			{Name: OptDash, Label: "Doubling back on a fast move", Default: DashFree, Values: []string{DashFree, DashNoRevisit},
				ValueText: map[string]string{DashFree: "Allowed", DashNoRevisit: "No: new tiles only"},
				Text:      "Whether a fast move may double back (\"free\") or must travel the rolled number of different tiles, never stepping onto a square it has already stood on this turn (\"no-revisit\")."},
			{Name: OptShoves, Label: "Shoves per turn", Default: ShovesOne, Values: []string{ShovesOne, ShovesAny},
				ValueText: map[string]string{ShovesOne: "One", ShovesAny: "Any, each rival once"},
				Text:      "How many shoves a token may make on its turn: \"one\", or \"any\" number, each opponent's token at most once (so a failed shove is not tried again until the dice agree)."},
			{Name: OptPair, Label: "Pieces that act each turn", Default: PairOne, Values: []string{PairOne, PairBoth},
				ValueText:  map[string]string{PairOne: "One piece", PairBoth: "Both, one after the other"},
				MaxPlayers: 2,
				Text:       "Two players only: on a turn the player acts with \"one\" of their pieces (either token, or the ghost), or with \"both\" of them, one after the other (both tokens, or the surviving token and the ghost)."},
			{Name: OptEmptyEdge, Label: "The edge nobody starts on", Default: "east", Values: []string{"north", "east", "south", "west", EdgeRandom},
				ValueText:  map[string]string{"north": "North", "east": "East", "south": "South", "west": "West", EdgeRandom: "Drawn at random"},
				MinPlayers: 3, MaxPlayers: 3,
				Text: "Three players only: the rulebook leaves one edge unused without saying which, so the table chooses it (or leaves it to the draw). " +
					"The others start on the other three edges, in seat order clockwise from the south."},
			{Name: OptRounds, Label: "Round limit (0 for none)", Default: "0", Min: 0, Max: 500,
				Text: "Stop after this many rounds, the survivors sharing the win (not in the rulebook; 0 plays until one is left)."},
		},
		// Whose token is blown up, who becomes a ghost, who misses a turn,
		// who wins.
		Page:   page,
		Spoken: map[string]string{"boom": game.SayAll, "ghost": game.SayAll, "sit-out": game.SayAll, "over": game.SayAll},
	}
}

func (g gameImpl) New(cfg game.Config) (game.State, error) {
	_, opts, err := g.Info().Resolve(cfg)
	if err != nil {
		return nil, err
	}
	s := &State{
		g:         g,
		players:   cfg.Players,
		crossing:  game.Bool(opts[OptCrossing]),
		swapOcc:   game.Bool(opts[OptSwapOccupied]),
		upTo:      opts[OptFastMove] == FastUpTo,
		rounds:    game.Int(opts[OptRounds]),
		noRevisit: opts[OptDash] == DashNoRevisit,
		anyShoves: opts[OptShoves] == ShovesAny,
		pairBoth:  opts[OptPair] == PairBoth && cfg.Players == 2,
		rng:       game.NewRand(cfg.Seed),
		round:     1,
	}
	// Tiles 0..9 carry a skull, 10..24 are blank. Nine blanks form the
	// face-up cross; the other sixteen tiles are shuffled face down.
	var hidden [cells - 9]int8
	n := 0
	for id := 0; id < mines; id++ {
		hidden[n] = int8(id)
		n++
	}
	for id := mines + 9; id < cells; id++ {
		hidden[n] = int8(id)
		n++
	}
	s.rng.Shuffle(len(hidden), func(i, j int) { hidden[i], hidden[j] = hidden[j], hidden[i] })
	blank, k := int8(mines), 0
	for i := 0; i < cells; i++ {
		if onCross(i) {
			s.board[i] = tile{ID: blank, Up: true}
			blank++
			continue
		}
		id := hidden[k]
		k++
		s.board[i] = tile{ID: id, Mine: id < mines}
	}
	switch cfg.Players {
	case 2:
		s.ntok = 4
		s.tokens[0] = token{Seat: 0, Pos: sqC1, Alive: true}
		s.tokens[1] = token{Seat: 1, Pos: sqA3, Alive: true}
		s.tokens[2] = token{Seat: 0, Pos: sqC5, Alive: true}
		s.tokens[3] = token{Seat: 1, Pos: sqE3, Alive: true}
	case 3:
		// Clockwise from the south, less the empty edge (drawn after the
		// board, so that the default deals the same board as before).
		edges := [4]string{"south", "west", "north", "east"}
		squares := [4]int8{sqC1, sqA3, sqC5, sqE3}
		empty := opts[OptEmptyEdge]
		if empty == EdgeRandom {
			empty = edges[s.rng.IntN(4)]
		}
		s.ntok = 0
		for i, edge := range edges {
			if edge != empty {
				s.tokens[s.ntok] = token{Seat: int8(s.ntok), Pos: squares[i], Alive: true}
				s.ntok++
			}
		}
	default:
		starts := [4]int8{sqC1, sqA3, sqC5, sqE3}
		s.ntok = cfg.Players
		for i := 0; i < cfg.Players; i++ {
			s.tokens[i] = token{Seat: int8(i), Pos: starts[i], Alive: true}
		}
	}
	s.beginTurn()
	return s, nil
}

// The board: squares 0..24, index row*5+col, col a..e west to east, row
// 1..5 south to north.
const (
	size  = 5
	cells = size * size
	mines = 10
	sqC1  = 2
	sqA3  = 10
	sqE3  = 14
	sqC5  = 22
)

// Directions, in the order of nb's columns.
const (
	north = iota
	east
	south
	west
)

var dirNames = [4]string{"n", "e", "s", "w"}
var dirWords = [4]string{"north", "east", "south", "west"}

// nb[i][d] is the square next to i in direction d, or -1 off the board.
var nb [cells][4]int

func init() {
	for i := 0; i < cells; i++ {
		r, c := i/size, i%size
		nb[i] = [4]int{-1, -1, -1, -1}
		if r+1 < size {
			nb[i][north] = i + size
		}
		if c+1 < size {
			nb[i][east] = i + 1
		}
		if r > 0 {
			nb[i][south] = i - size
		}
		if c > 0 {
			nb[i][west] = i - 1
		}
	}
}

func onCross(i int) bool { return i/size == 2 || i%size == 2 }

func opposite(d int) int { return (d + 2) % 4 }

// sq names square i: "a1".."e5".
func sq(i int) string {
	return string([]byte{byte('a' + i%size), byte('1' + i/size)})
}

// parseSq reads "c3" (any case).
func parseSq(w string) (int, bool) {
	if len(w) != 2 {
		return 0, false
	}
	c, r := w[0]|0x20, w[1]
	if c < 'a' || c >= 'a'+size || r < '1' || r >= '1'+size {
		return 0, false
	}
	return int(r-'1')*size + int(c-'a'), true
}

func parseDir(w string) (int, bool) {
	switch strings.ToLower(w) {
	case "n", "north":
		return north, true
	case "e", "east":
		return east, true
	case "s", "south":
		return south, true
	case "w", "west":
		return west, true
	}
	return 0, false
}

// adjacent reports whether a and b share an edge.
func adjacent(a, b int) bool {
	for _, n := range nb[a] {
		if n == b {
			return true
		}
	}
	return false
}

// dirFrom is the direction from a to the adjacent square b.
func dirFrom(a, b int) int {
	for d, n := range nb[a] {
		if n == b {
			return d
		}
	}
	return -1
}

type tile struct {
	ID   int8 // 0..9 carry a skull, 10..24 are blank
	Mine bool
	Up   bool // face up: a blank known clear, or a spent mine
}

type token struct {
	Seat  int8
	Pos   int8 // -1 once blown up
	Alive bool
	Ghost bool // blown up and back as a ghost (may act)
}

type phase uint8

const (
	phChoose phase = iota // two pieces to act with: pick one
	phMove                // a living token's turn
	phGhost               // a ghost's turn
	phPush                // a ghost rolled a 6 and pushes someone
	phOver
)

var phaseNames = [...]string{"choose", "move", "ghost", "push", "over"}

type mode uint8

const (
	modeNone mode = iota
	modeCautious
	modeFast
)

var modeNames = [...]string{"", "cautious", "fast"}

// State is a match of Jerks in a Minefield. It holds no slices or maps, so
// a plain copy is a deep copy.
type State struct {
	g        gameImpl
	players  int
	crossing bool
	swapOcc  bool
	upTo     bool
	rounds   int
	// noRevisit: a dash may not step back onto a square it stood on;
	// anyShoves: several shoves a turn, each token at most once; pairBoth:
	// in a two-player game both of a player's pieces act each turn.
	noRevisit bool
	anyShoves bool
	pairBoth  bool
	rng       game.Rand

	board  [cells]tile
	seen   [4]uint32 // per seat: tile ids looked at (they follow the tile when swapped)
	public uint32    // face-down tiles everyone knows: re-armed mines
	tokens [4]token
	ntok   int

	turn  int
	round int
	phase phase
	lost  [4]bool // the seat sits out its next turn

	// The acting token's turn.
	cur     int // token index in phMove
	mode    mode
	start   int // the square the token began the turn on
	stepped bool
	looked  bool
	shoved  bool
	hover   bool   // standing, mid fast move, on a tile crossed without turning it
	left    int    // fast steps left
	trail   uint32 // squares the acting token has stood on this turn (dash=no-revisit)
	targets uint8  // tokens it has shoved at this turn (shoves=any)
	acted   uint8  // pieces of the seat that have acted this turn (pair=both): token bits, and ghostBit

	over    bool
	stopped bool // ended by the round limit
}

// ghostBit marks the seat's ghost in State.acted.
const ghostBit = 1 << 4

// tokenAt is the index of the living token on square i, or -1.
func (s *State) tokenAt(i int) int {
	for t := 0; t < s.ntok; t++ {
		if s.tokens[t].Alive && int(s.tokens[t].Pos) == i {
			return t
		}
	}
	return -1
}

func (s *State) living(seat int) int {
	n := 0
	for t := 0; t < s.ntok; t++ {
		if int(s.tokens[t].Seat) == seat && s.tokens[t].Alive {
			n++
		}
	}
	return n
}

func (s *State) hasGhost(seat int) bool {
	for t := 0; t < s.ntok; t++ {
		if int(s.tokens[t].Seat) == seat && s.tokens[t].Ghost {
			return true
		}
	}
	return false
}

// known reports whether seat (or everyone, for game.Table) knows what the
// face-down tile on square i hides.
func (s *State) known(seat, i int) bool {
	bit := uint32(1) << uint(s.board[i].ID)
	if s.public&bit != 0 {
		return true
	}
	return seat >= 0 && s.seen[seat]&bit != 0
}

// who names a token for announcements: the seat, and in a two-player game
// the square too, since each player has two.
func (s *State) who(t int) string {
	if s.players == 2 && s.tokens[t].Alive {
		return fmt.Sprintf("%s's token on %s", game.Seat(int(s.tokens[t].Seat)), sq(int(s.tokens[t].Pos)))
	}
	return game.Seat(int(s.tokens[t].Seat))
}

// log collects a move's announcements.
type log []game.Event

func (l *log) add(typ, format string, a ...any) {
	*l = append(*l, game.Event{Type: typ, Text: fmt.Sprintf(format, a...)})
}

func (l *log) to(seat int, typ, format string, a ...any) {
	*l = append(*l, game.Event{Type: typ, Text: fmt.Sprintf(format, a...), To: []int{seat}})
}

// beginTurn sets up the turn of s.turn, or (pair=both) of its next piece.
func (s *State) beginTurn() {
	s.resetPiece()
	var only int
	n := 0
	for t := 0; t < s.ntok; t++ {
		if s.mayUse(t) {
			only = t
			n++
		}
	}
	ghost := s.mayUseGhost()
	switch {
	case n > 1 || (n == 1 && ghost):
		s.phase = phChoose
	case n == 1:
		s.startToken(only)
	default:
		s.phase = phGhost
	}
}

// resetPiece forgets what the last acting piece did this turn.
func (s *State) resetPiece() {
	s.mode, s.stepped, s.looked, s.shoved, s.hover, s.left, s.cur = modeNone, false, false, false, false, 0, -1
	s.trail, s.targets = 0, 0
}

// mayUse reports whether token t may act now: a living token of the seat
// to play that has not acted yet this turn.
func (s *State) mayUse(t int) bool {
	tk := s.tokens[t]
	return int(tk.Seat) == s.turn && tk.Alive && s.acted&(1<<uint(t)) == 0
}

// mayUseGhost reports whether the seat to play may act with its ghost now.
func (s *State) mayUseGhost() bool {
	return s.hasGhost(s.turn) && s.acted&ghostBit == 0
}

func (s *State) startToken(t int) {
	s.phase, s.cur, s.start = phMove, t, int(s.tokens[t].Pos)
	s.trail = 1 << uint(s.start)
}

// pieceDone is the end of one piece's action. With pair=both the seat's
// other piece acts next, if it has one that has not acted and the game
// goes on; otherwise the turn passes on.
func (s *State) pieceDone(l *log) {
	if s.pairBoth && !s.over {
		switch {
		case s.phase == phMove && s.cur >= 0:
			s.acted |= 1 << uint(s.cur)
		case s.phase == phGhost || s.phase == phPush:
			s.acted |= ghostBit
		}
		more := s.mayUseGhost()
		for t := 0; t < s.ntok; t++ {
			more = more || s.mayUse(t)
		}
		if more {
			l.add("next-piece", "%s acts with the other piece now", game.Seat(s.turn))
			s.beginTurn()
			return
		}
	}
	s.endTurn(l)
}

// endTurn passes the turn on, skipping seats that sit out a turn after being
// blown up (their ghosts rise as they do).
func (s *State) endTurn(l *log) {
	s.resetPiece()
	s.acted = 0
	if s.over {
		return
	}
	for {
		s.turn = (s.turn + 1) % s.players
		if s.turn == 0 {
			s.round++
			if s.rounds > 0 && s.round > s.rounds {
				s.stopped = true
				s.finish(l)
				return
			}
		}
		if !s.lost[s.turn] {
			break
		}
		s.lost[s.turn] = false
		l.add("sit-out", "%s is still seeing stars and misses this turn", game.Seat(s.turn))
		for t := 0; t < s.ntok; t++ {
			tk := &s.tokens[t]
			if int(tk.Seat) == s.turn && !tk.Alive && !tk.Ghost {
				tk.Ghost = true
				l.add("ghost", "%s rises as a ghost", game.Seat(s.turn))
			}
		}
	}
	s.beginTurn()
}

// kill blows up token t (its tile has already been turned face up).
func (s *State) kill(t int, l *log) {
	tk := &s.tokens[t]
	tk.Alive, tk.Pos = false, -1
	s.lost[tk.Seat] = true
	alive := 0
	for seat := 0; seat < s.players; seat++ {
		if s.living(seat) > 0 {
			alive++
		}
	}
	if alive <= 1 {
		s.finish(l)
	}
}

func (s *State) finish(l *log) {
	s.over, s.phase = true, phOver
	l.add("over", "%s", s.Result().Text)
}

// land turns over the face-down tile under token t: a mine goes off. It
// reports whether the token survived.
func (s *State) land(t int, l *log) bool {
	i := int(s.tokens[t].Pos)
	tl := &s.board[i]
	if tl.Up {
		return true
	}
	tl.Up = true
	s.public &^= 1 << uint(tl.ID)
	if tl.Mine {
		l.add("boom", "BOOM! %s was mined and %s is blown up", sq(i), s.who(t))
		s.kill(t, l)
		return false
	}
	l.add("flip", "%s is turned over: no mine", sq(i))
	return true
}

// pushLen is how far a token on from would be pushed in direction d: two
// tiles, fewer at the edge of the board or before another token.
func (s *State) pushLen(from, d int) int {
	n, p := 0, from
	for n < 2 {
		q := nb[p][d]
		if q < 0 || s.tokenAt(q) >= 0 {
			break
		}
		p = q
		n++
	}
	return n
}

// push moves token t up to two tiles in direction d, turning over every
// tile it crosses.
func (s *State) push(t, d int, l *log) {
	for i := 0; i < 2; i++ {
		q := nb[s.tokens[t].Pos][d]
		if q < 0 || s.tokenAt(q) >= 0 {
			if q < 0 {
				l.add("edge", "%s stops at the edge of the field", s.who(t))
			} else {
				l.add("blocked", "%s stops against %s", s.who(t), s.who(s.tokenAt(q)))
			}
			return
		}
		s.tokens[t].Pos = int8(q)
		if !s.land(t, l) {
			return
		}
	}
}

// Turn lists the seat to act.
func (s *State) Turn() []int {
	if s.over {
		return nil
	}
	return []int{s.turn}
}

// Over reports whether one player (or team) is left, or the round limit struck.
func (s *State) Over() bool { return s.over }

// Result names the survivors.
func (s *State) Result() game.Result {
	var alive []int
	for seat := 0; seat < s.players; seat++ {
		if s.living(seat) > 0 {
			alive = append(alive, seat)
		}
	}
	res := game.Result{Winners: alive}
	names := make([]string, len(alive))
	for i, a := range alive {
		names[i] = game.Seat(a)
	}
	switch {
	case !s.over:
		res.Text = "the game is still on"
	case s.stopped:
		res.Text = fmt.Sprintf("the %d rounds are up: %s survive and share the win", s.rounds, strings.Join(names, " and "))
		if len(alive) == 1 {
			res.Text = fmt.Sprintf("the %d rounds are up: %s is the only survivor and wins", s.rounds, names[0])
		}
	case len(alive) == 1 && s.players == 2:
		res.Text = fmt.Sprintf("%s still has a token standing and wins", names[0])
	case len(alive) == 1:
		res.Text = fmt.Sprintf("%s is the last one standing and wins", names[0])
	default:
		res.Text = "nobody is left standing: nobody wins"
	}
	return res
}

// Clone is a deep copy.
func (s *State) Clone() game.State {
	c := *s
	return &c
}

// Audit checks the tiles, tokens and turn.
func (s *State) Audit() error {
	var ids uint32
	nMines := 0
	for i, tl := range s.board {
		if tl.ID < 0 || tl.ID >= cells {
			return fmt.Errorf("%s holds tile id %d", sq(i), tl.ID)
		}
		bit := uint32(1) << uint(tl.ID)
		if ids&bit != 0 {
			return fmt.Errorf("tile %d lies twice (again on %s)", tl.ID, sq(i))
		}
		ids |= bit
		if tl.Mine != (tl.ID < mines) {
			return fmt.Errorf("tile %d on %s has mine=%v", tl.ID, sq(i), tl.Mine)
		}
		if tl.Mine {
			nMines++
		}
		if s.public&bit != 0 && (tl.Up || !tl.Mine) {
			return fmt.Errorf("tile on %s is marked as a known re-armed mine but is not a face-down mine", sq(i))
		}
	}
	if nMines != mines {
		return fmt.Errorf("%d mines on the field, want %d", nMines, mines)
	}
	want := 4
	if s.players > 2 {
		want = s.players
	}
	if s.ntok != want {
		return fmt.Errorf("%d tokens for %d players", s.ntok, s.players)
	}
	var occ uint32
	for t := 0; t < s.ntok; t++ {
		tk := s.tokens[t]
		if tk.Seat < 0 || int(tk.Seat) >= s.players {
			return fmt.Errorf("token %d belongs to seat %d", t, tk.Seat)
		}
		if !tk.Alive {
			if tk.Pos != -1 {
				return fmt.Errorf("blown-up token %d is still on %s", t, sq(int(tk.Pos)))
			}
			if !tk.Ghost && !s.lost[tk.Seat] && !s.over {
				return fmt.Errorf("token %d is blown up, neither a ghost yet nor waiting out its turn", t)
			}
			continue
		}
		if tk.Ghost {
			return fmt.Errorf("token %d is alive and a ghost", t)
		}
		if tk.Pos < 0 || tk.Pos >= cells {
			return fmt.Errorf("living token %d is off the board (%d)", t, tk.Pos)
		}
		bit := uint32(1) << uint(tk.Pos)
		if occ&bit != 0 {
			return fmt.Errorf("two tokens on %s", sq(int(tk.Pos)))
		}
		occ |= bit
		// A token mid-dash may hover over a tile it crossed unturned, and
		// still does if a shove on the way ended the game.
		if tl := s.board[tk.Pos]; !tl.Up && !(t == s.cur && s.hover && (s.phase == phMove || s.over)) {
			return fmt.Errorf("token %d stands on the face-down tile %s", t, sq(int(tk.Pos)))
		}
	}
	if s.over {
		if s.phase != phOver {
			return fmt.Errorf("over but in phase %s", phaseNames[s.phase])
		}
		return nil
	}
	if s.turn < 0 || s.turn >= s.players {
		return fmt.Errorf("turn %d out of range", s.turn)
	}
	alive := 0
	for seat := 0; seat < s.players; seat++ {
		if s.living(seat) > 0 {
			alive++
		}
	}
	if alive < 2 {
		return fmt.Errorf("%d players alive but the game goes on", alive)
	}
	if s.acted != 0 && !s.pairBoth {
		return fmt.Errorf("pieces marked as having acted outside pair=both")
	}
	if s.phase == phMove && s.trail&(1<<uint(s.tokens[s.cur].Pos)) == 0 {
		return fmt.Errorf("the acting token's trail does not hold its square")
	}
	switch s.phase {
	case phMove:
		if s.cur < 0 || s.cur >= s.ntok || int(s.tokens[s.cur].Seat) != s.turn || !s.tokens[s.cur].Alive {
			return fmt.Errorf("acting token %d is not a living token of seat %d", s.cur, s.turn)
		}
		if s.left < 0 || s.left > 6 || (s.left > 0 && s.mode != modeFast) {
			return fmt.Errorf("%d fast steps left in mode %q", s.left, modeNames[s.mode])
		}
		if s.hover && (s.mode != modeFast || !s.crossing) {
			return fmt.Errorf("hovering outside a fast move with the crossing rule")
		}
	case phGhost, phPush:
		if !s.hasGhost(s.turn) {
			return fmt.Errorf("seat %d acts as a ghost without one", s.turn)
		}
	case phChoose:
	default:
		return fmt.Errorf("phase %d while the game is on", s.phase)
	}
	return nil
}
