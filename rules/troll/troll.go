package troll

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tableref/tableref/rules/deck"
	"github.com/tableref/tableref/rules/game"
)

// The bridge: two rows of six positions.
const (
	rows  = 2
	cols  = 6
	upper = 0
	lower = 1
	// maxStack bounds one position's pile: no pile can hold more than the
	// whole deck.
	maxStack = 52
)

// Game is Angry Troll versus Magic Bridge.
var Game game.Game = trollGame{}

type trollGame struct{}

// layouts are the bricks per position of one row, left to right.
var layouts = map[string][cols]uint8{
	"standard":    {3, 2, 1, 1, 2, 3},
	"sturdy-ends": {4, 2, 1, 1, 2, 4},
	"easy":        {4, 3, 2, 2, 3, 4},
	"tutorial":    {5, 4, 3, 3, 4, 5},
}

// Start-with option values.
const (
	startNothing = "nothing"
	startCard    = "card"
	startClub    = "the-club"
	startToys    = "toys"
)

func (trollGame) Info() game.Info {
	return game.Info{
		ID:         "troll",
		Name:       "Angry Troll versus Magic Bridge",
		Summary:    "Solitaire: keep a bridge of playing cards from waking up and wandering off, stomping and clubbing bricks until the deck runs out.",
		MinPlayers: 1,
		MaxPlayers: 1,
		ScoreText:  "cards left in the deck of awakening (lower is better; 0 on a win)",
		Variants: []game.Variant{
			{ID: "standard", Name: "Standard", Text: "Rows of 3,2,1,1,2,3 bricks and 27 awakenings to survive: the full game, and the hardest."},
			{ID: "sturdy-ends", Name: "Sturdy ends", Text: "Rows of 4,2,1,1,2,4 bricks (one more brick on each end): slightly easier, 23 awakenings."},
			{ID: "easy", Name: "Easy", Text: "Rows of 4,3,2,2,3,4 bricks (one more everywhere): much easier, 15 awakenings."},
			{ID: "tutorial", Name: "Tutorial", Text: "Rows of 5,4,3,3,4,5 bricks (two more everywhere): tutorial mode, 3 awakenings."},
		},
		Options: []game.Option{
			{Name: "start-with", Label: "The troll starts out holding", Default: startNothing, Values: []string{startNothing, startCard, startClub, startToys},
				ValueText: map[string]string{
					startNothing: "Nothing",
					startCard:    "The first card drawn",
					startClub:    "THE CLUB (easier)",
					startToys:    "The toys (much easier)",
				},
				Text: "What the troll holds at the start: nothing; the first card drawn from the awakening deck (a heart is refused and set aside); THE CLUB (easier); or toys: THE CLUB and a reusable ace of diamonds (for fun, much easier)."},
			{Name: "reusable-diamond", Label: "The ace of diamonds", Default: "no", Values: []string{"no", "yes"},
				ValueText: map[string]string{"no": "Thrown once", "yes": "Thrown again and again"},
				Text:      "The ace of diamonds, once picked up, is thrown again and again like THE CLUB is swung, and bars picking up anything else (easier once found)."},
			{Name: "troll-blocks", Label: "Fleeing bricks the troll stops", Default: "own-row", Values: []string{"own-row", "both-rows"},
				ValueText: map[string]string{"own-row": "Only in its own row", "both-rows": "In both rows"},
				Text:      "Which fleeing bricks the troll blocks: only those in the row it stands on, or those in both rows (its column is a wall)."},
		},
		// How the bridge or the troll falls; a brick flying off is said
		// only when it takes the troll with it and wins the game.
		Page:   page,
		Spoken: map[string]string{"collapse": game.SayAll, "fly": game.SayIfWon},
	}
}

// Where the troll holds something ordinary (besides the toys).
const (
	holdNone    uint8 = iota
	holdAwake         // an awake brick, face up: a club, diamond or spade to use
	holdDormant       // a dormant brick, face down, shovelled up to lay down
)

// slot is one bridge position: a pile of bricks, bottom first. Only the top
// brick can be awake.
type slot struct {
	cards [maxStack]deck.Card
	n     uint8
	awake bool
}

func (sl *slot) top() deck.Card { return sl.cards[sl.n-1] }

func (sl *slot) pop() deck.Card {
	sl.n--
	c := sl.cards[sl.n]
	sl.cards[sl.n] = deck.Card{}
	sl.awake = false
	return c
}

func (sl *slot) push(c deck.Card, awake bool) {
	sl.cards[sl.n] = c
	sl.n++
	sl.awake = awake
}

// pile is a list of cards without slices, so that a state copies by value.
type pile struct {
	cards [52]deck.Card
	n     uint8
}

func (p *pile) push(c deck.Card) { p.cards[p.n] = c; p.n++ }

func (p *pile) pop() deck.Card {
	p.n--
	c := p.cards[p.n]
	p.cards[p.n] = deck.Card{}
	return c
}

func (p *pile) list() []deck.Card { return append([]deck.Card{}, p.cards[:p.n]...) }

// state is one game. It holds no slices or maps, so a plain copy is a deep
// copy (Clone, and the bot's look-ahead).
type state struct {
	opening    []game.Event // what happened while setting up (Opening); never changed after New
	variant    string
	layout     [cols]uint8
	blockBoth  bool
	reusableAD bool
	startWith  string

	rng      game.Rand
	bridge   [rows][cols]slot
	deck     pile // the deck of awakening; the top is the last card
	lowerPad pile // the lower stack: cards of the first card's colour
	upperPad pile // the upper stack: cards of the other colour
	aside    pile // set aside, to be played in order in the next awakening phase
	lowerRed bool // the lower stack's colour

	tr, tc  int8 // the troll's row and position (0-based)
	carry   deck.Card
	holding uint8
	club    bool // the troll holds THE CLUB (ace of clubs)
	gem     bool // the troll holds the reusable ace of diamonds

	actions int8   // actions left this turn
	visited uint16 // bridge positions stood on this turn (bit row*6+col)
	turn    int
	lastDie int8

	over, won, perfect bool
	ending             string
}

var (
	aceClubs    = deck.Card{Rank: deck.Ace, Suit: deck.Clubs}
	aceDiamonds = deck.Card{Rank: deck.Ace, Suit: deck.Diamonds}
)

func (trollGame) New(cfg game.Config) (game.State, error) {
	in := Game.Info()
	variant, opts, err := in.Resolve(cfg)
	if err != nil {
		return nil, err
	}
	s := &state{
		variant:    variant,
		layout:     layouts[variant],
		blockBoth:  opts["troll-blocks"] == "both-rows",
		reusableAD: game.Bool(opts["reusable-diamond"]) || opts["start-with"] == startToys,
		startWith:  opts["start-with"],
		rng:        game.NewRand(cfg.Seed),
	}
	var ev []game.Event
	s.setup(&ev)
	s.opening = ev
	return s, nil
}

// Opening is what happened while setting up (game.Opener): the bridge
// built, the first card, the troll's die, the start card, and the first
// awakening phase.
func (s *state) Opening() []game.Event { return slices.Clone(s.opening) }

// setup builds the bridge, starts the lower stack, places the troll and
// plays the first awakening phase.
func (s *state) setup(ev *[]game.Event) {
	cards := deck.New(0)
	if s.startWith == startClub || s.startWith == startToys {
		cards = remove(cards, aceClubs)
		s.club = true
	}
	if s.startWith == startToys {
		cards = remove(cards, aceDiamonds)
		s.gem = true
	}
	deck.Shuffle(&s.rng, cards)
	i := 0
	for r := range rows {
		for c := range cols {
			for range s.layout[c] {
				s.bridge[r][c].push(cards[i], false)
				i++
			}
		}
	}
	for _, c := range cards[i:] {
		s.deck.push(c)
	}
	first := s.deck.pop()
	s.lowerPad.push(first)
	s.lowerRed = first.Red()
	die := s.rng.Die(6)
	s.lastDie = int8(die)
	s.tr, s.tc = lower, int8(die-1)
	s.say(ev, "setup", "The bridge stands: two rows of %s bricks. The first card, the %s, starts the lower stack, so %s cards wake the lower row and %s cards the upper row. The die shows %d: the troll climbs onto %s.",
		layoutText(s.layout), first.Name(), colour(s.lowerRed), colour(!s.lowerRed), die, place(lower, die-1))
	if s.startWith == startCard && s.deck.n > 0 {
		c := s.deck.pop()
		if c.Suit == deck.Hearts {
			s.aside.push(c)
			s.say(ev, "start-card", "The troll is offered the %s, but a troll cannot have a heart: it is set aside.", c.Name())
		} else {
			s.take(c)
			s.say(ev, "start-card", "The troll starts holding the %s%s.", c.Name(), toyNote(s, c))
		}
	}
	s.startTurn(ev)
}

func remove(cards []deck.Card, c deck.Card) []deck.Card {
	out := cards[:0]
	for _, x := range cards {
		if x != c {
			out = append(out, x)
		}
	}
	return out
}

// take puts an awake card into the troll's hands: the ace of clubs becomes
// THE CLUB, and the ace of diamonds a reusable diamond when that rule is on.
func (s *state) take(c deck.Card) {
	switch {
	case c == aceClubs:
		s.club = true
	case c == aceDiamonds && s.reusableAD:
		s.gem = true
	default:
		s.carry, s.holding = c, holdAwake
	}
}

func toyNote(s *state, c deck.Card) string {
	switch {
	case c == aceClubs:
		return ": THE CLUB, to keep for good"
	case c == aceDiamonds && s.reusableAD:
		return ", reusable, to keep for good"
	}
	return ""
}

// say appends an event when ev is not nil (the bot's look-ahead passes nil).
func (s *state) say(ev *[]game.Event, typ, format string, a ...any) {
	if ev == nil {
		return
	}
	*ev = append(*ev, game.Event{Type: typ, Text: fmt.Sprintf(format, a...)})
}

func colour(red bool) string {
	if red {
		return "red"
	}
	return "black"
}

func rowName(r int) string {
	if r == upper {
		return "upper"
	}
	return "lower"
}

func place(r, c int) string { return rowName(r) + " " + strconv.Itoa(c+1) }

func layoutText(l [cols]uint8) string {
	parts := make([]string, cols)
	for i, n := range l {
		parts[i] = strconv.Itoa(int(n))
	}
	return strings.Join(parts, ",")
}

func bit(r, c int) uint16 { return 1 << (r*cols + c) }

// rowFor is the row a card wakes: the lower row for the lower stack's colour.
func (s *state) rowFor(c deck.Card) int {
	if c.Red() == s.lowerRed {
		return lower
	}
	return upper
}

// startTurn plays the awakening phase and hands the troll its two actions.
func (s *state) startTurn(ev *[]game.Event) {
	s.turn++
	s.actions = 2
	s.visited = bit(int(s.tr), int(s.tc))
	s.awakeningPhase(ev)
	if !s.over && s.winning() {
		s.win(ev)
	}
}

// awakeningPhase plays the cards set aside last turn, one awakening each, or
// else draws one card from the deck of awakening.
func (s *state) awakeningPhase(ev *[]game.Event) {
	switch {
	case s.aside.n > 0:
		batch := s.aside
		s.aside = pile{}
		for i, c := range batch.cards[:batch.n] {
			s.playCard(c, ev)
			if s.over {
				// The rest of the batch stays set aside, still accounted for.
				for _, rest := range batch.cards[i+1 : batch.n] {
					s.aside.push(rest)
				}
				return
			}
		}
	case s.deck.n > 0:
		c := s.deck.pop()
		if ev != nil {
			s.say(ev, "draw", "Turn %d: the %s is drawn from the deck of awakening (%d left).", s.turn, c.Name(), s.deck.n)
		}
		s.playCard(c, ev)
	default:
		if ev != nil {
			s.say(ev, "quiet", "Turn %d: nothing is left to play, so no brick wakes.", s.turn)
		}
	}
}

// playCard puts c on the stack of its colour, rolls the die and wakes the
// brick it points to.
func (s *state) playCard(c deck.Card, ev *[]game.Event) {
	r := s.rowFor(c)
	if r == lower {
		s.lowerPad.push(c)
	} else {
		s.upperPad.push(c)
	}
	die := s.rng.Die(6)
	s.lastDie = int8(die)
	if ev != nil {
		s.say(ev, "roll", "The %s goes on the %s stack; the die shows %d.", c.Name(), rowName(r), die)
	}
	s.awaken(r, die, ev)
}

// target is the position an awakening in row r with die roll die reaches:
// the rolled one, or if it is empty the next brick towards its nearer bank,
// or failing that the next one the other way; -1 if the row is empty.
func (s *state) target(r, die int) int {
	c := die - 1
	if s.bridge[r][c].n > 0 {
		return c
	}
	step := 1
	if c <= 2 {
		step = -1
	}
	for _, d := range []int{step, -step} {
		for x := c + d; x >= 0 && x < cols; x += d {
			if s.bridge[r][x].n > 0 {
				return x
			}
		}
	}
	return -1
}

// awaken wakes the top brick of row r at the rolled position (or the one
// standing in for an empty position). An awake brick woken again flies away.
func (s *state) awaken(r, die int, ev *[]game.Event) {
	c := s.target(r, die)
	if c < 0 {
		if ev != nil {
			s.say(ev, "no-brick", "The %s row has no bricks left: nothing wakes.", rowName(r))
		}
		return
	}
	if c != die-1 {
		if ev != nil {
			s.say(ev, "redirect", "%s is empty, so the next brick along, %s, is the one.", place(r, die-1), place(r, c))
		}
	}
	sl := &s.bridge[r][c]
	if !sl.awake {
		sl.awake = true
		if ev != nil {
			s.say(ev, "awaken", "The brick at %s wakes up: the %s.", place(r, c), sl.top().Name())
		}
		return
	}
	card := sl.pop()
	s.aside.push(card)
	if int(s.tr) == r && int(s.tc) == c {
		why := "The troll's brick flies away with it."
		if ev != nil {
			why = fmt.Sprintf("The %s at %s, already awake, is jolted again and flies off into the sky, taking the troll with it.", card.Name(), place(r, c))
		}
		s.lose(ev, "fly", why)
		return
	}
	if ev != nil {
		s.say(ev, "fly", "The %s at %s was already awake: jolted again, it flies off into the sky and is set aside.", card.Name(), place(r, c))
	}
}

// occupancy is the set of bridge positions holding at least one brick.
func (s *state) occupancy() uint16 {
	var occ uint16
	for r := range rows {
		for c := range cols {
			if s.bridge[r][c].n > 0 {
				occ |= bit(r, c)
			}
		}
	}
	return occ
}

const (
	leftCol  uint16 = 1 | 1<<cols
	rightCol uint16 = 1<<(cols-1) | 1<<(2*cols-1)
	allCells uint16 = 1<<(rows*cols) - 1
)

// joins[occ] reports whether the positions in occ join the two banks, side
// to side (up, down, left, right); a table, as the bot asks very often.
var joins = func() (t [1 << (rows * cols)]bool) {
	for occ := range t {
		t[occ] = flood(uint16(occ))
	}
	return t
}()

func flood(occ uint16) bool {
	reach := occ & leftCol
	for reach != 0 {
		next := (reach | (reach&^rightCol)<<1 | (reach&^leftCol)>>1 | (reach<<cols)&allCells | reach>>cols) & occ
		if next == reach {
			break
		}
		reach = next
	}
	return reach&rightCol != 0
}

func connected(occ uint16) bool { return joins[occ&allCells] }

// anyAwake reports whether some brick on the bridge is awake.
func (s *state) anyAwake() bool {
	for r := range rows {
		for c := range cols {
			if s.bridge[r][c].awake {
				return true
			}
		}
	}
	return false
}

// winning is the winning condition: nothing left to play, nothing awake,
// and the bridge standing.
func (s *state) winning() bool {
	return s.deck.n == 0 && s.aside.n == 0 && !s.anyAwake() && connected(s.occupancy())
}

func (s *state) win(ev *[]game.Event) {
	s.over, s.won = true, true
	s.actions = 0
	s.perfect = s.occupancy() == allCells
	if s.perfect {
		s.ending = "The deck of awakening is spent and every brick sleeps: the troll keeps its bridge, with no gap in it. A perfect win."
	} else {
		s.ending = "The deck of awakening is spent and every brick sleeps: the troll keeps its bridge, gaps and all. A win."
	}
	s.say(ev, "win", "%s", s.ending)
}

func (s *state) lose(ev *[]game.Event, typ, why string) {
	s.over = true
	s.actions = 0
	if ev == nil { // the bot's look-ahead: no words needed
		s.ending = why
		return
	}
	s.ending = fmt.Sprintf("%s The bridge wins; %d card(s) were left in the deck of awakening, the score (lower is better).", why, s.deck.n)
	s.say(ev, typ, "%s", s.ending)
}

// fleeStep is the way an awake brick at row r, position c runs: towards
// the nearer bank unless the troll stands in the way, else the other way.
func (s *state) fleeStep(r, c int) int {
	blocks := s.blockBoth || int(s.tr) == r
	tc := int(s.tc)
	if c <= 2 { // the left bank is nearer
		if blocks && tc < c {
			return 1
		}
		return -1
	}
	if blocks && tc > c {
		return -1
	}
	return 1
}

// flightPhase moves every awake brick the troll does not stand on one step
// towards its bank; bricks stepping off the bridge are set aside. Then the
// bridge must still join the banks.
func (s *state) flightPhase(ev *[]game.Event) {
	type mover struct {
		card deck.Card
		r, c int
		step int
	}
	var movers [rows * cols]mover
	n := 0
	for r := range rows {
		for c := range cols {
			sl := &s.bridge[r][c]
			if !sl.awake || (r == int(s.tr) && c == int(s.tc)) {
				continue
			}
			step := s.fleeStep(r, c)
			movers[n] = mover{card: sl.pop(), r: r, c: c, step: step}
			n++
		}
	}
	for _, m := range movers[:n] {
		to := m.c + m.step
		if to < 0 || to >= cols {
			s.aside.push(m.card)
			bank := "left"
			if to >= cols {
				bank = "right"
			}
			if ev != nil {
				s.say(ev, "escape", "The %s runs off %s onto the %s bank and escapes: it is set aside.", m.card.Name(), place(m.r, m.c), bank)
			}
			continue
		}
		s.bridge[m.r][to].push(m.card, true)
		if ev != nil {
			s.say(ev, "flee", "The %s runs from %s to %s.", m.card.Name(), place(m.r, m.c), place(m.r, to))
		}
	}
	if !connected(s.occupancy()) {
		s.lose(ev, "collapse", "The bricks no longer join bank to bank: the bridge collapses.")
	}
}

// finishTurn is the end of the troll's actions: the flight phase, the win
// check, and the next turn's awakenings.
func (s *state) finishTurn(ev *[]game.Event) {
	s.flightPhase(ev)
	if s.over {
		return
	}
	if s.winning() {
		s.win(ev)
		return
	}
	s.startTurn(ev)
}

func (s *state) Turn() []int {
	if s.over {
		return nil
	}
	return []int{0}
}

func (s *state) Over() bool { return s.over }

func (s *state) Clone() game.State {
	c := *s
	return &c
}

func (s *state) Result() game.Result {
	res := game.Result{Winners: []int{}, Scores: []int{int(s.deck.n)}, Text: s.ending}
	if !s.over {
		res.Text = "The game is still going."
		return res
	}
	if s.won {
		res.Winners = []int{0}
		res.Perfect = s.perfect
	}
	return res
}

// Audit checks that all 52 cards are somewhere exactly once and that the
// bridge, the troll and the stacks make sense.
func (s *state) Audit() error {
	var seen [4][14]int
	count := func(c deck.Card, where string) error {
		if c.Suit > deck.Spades || c.Rank < deck.Ace || c.Rank > deck.King {
			return fmt.Errorf("a non-card %v in %s", c, where)
		}
		seen[c.Suit][c.Rank]++
		return nil
	}
	for _, p := range []struct {
		p    *pile
		name string
	}{{&s.deck, "the deck"}, {&s.lowerPad, "the lower stack"}, {&s.upperPad, "the upper stack"}, {&s.aside, "the set-aside cards"}} {
		for _, c := range p.p.cards[:p.p.n] {
			if err := count(c, p.name); err != nil {
				return err
			}
		}
	}
	for _, c := range s.lowerPad.cards[:s.lowerPad.n] {
		if c.Red() != s.lowerRed {
			return fmt.Errorf("the %s is on the lower stack but is not %s", c.Name(), colour(s.lowerRed))
		}
	}
	for _, c := range s.upperPad.cards[:s.upperPad.n] {
		if c.Red() == s.lowerRed {
			return fmt.Errorf("the %s is on the upper stack but is %s", c.Name(), colour(s.lowerRed))
		}
	}
	if s.lowerPad.n == 0 {
		return fmt.Errorf("the lower stack is empty: the first card is missing")
	}
	for r := range rows {
		for c := range cols {
			sl := &s.bridge[r][c]
			if sl.awake && sl.n == 0 {
				return fmt.Errorf("%s is marked awake but holds no brick", place(r, c))
			}
			for _, card := range sl.cards[:sl.n] {
				if err := count(card, place(r, c)); err != nil {
					return err
				}
			}
			for _, card := range sl.cards[sl.n:] {
				if card != (deck.Card{}) {
					return fmt.Errorf("%s keeps a stale card above its pile", place(r, c))
				}
			}
		}
	}
	switch s.holding {
	case holdNone:
	case holdAwake:
		if s.carry.Suit == deck.Hearts {
			return fmt.Errorf("the troll holds a heart, the %s", s.carry.Name())
		}
		fallthrough
	case holdDormant:
		if err := count(s.carry, "the troll's hands"); err != nil {
			return err
		}
		if s.club || s.gem {
			return fmt.Errorf("the troll holds the %s besides a reusable ace", s.carry.Name())
		}
	default:
		return fmt.Errorf("unknown holding %d", s.holding)
	}
	if s.club {
		seen[deck.Clubs][deck.Ace]++
	}
	if s.gem {
		seen[deck.Diamonds][deck.Ace]++
	}
	for su := range 4 {
		for r := 1; r <= 13; r++ {
			if seen[su][r] != 1 {
				c := deck.Card{Rank: deck.Rank(r), Suit: deck.Suit(su)}
				return fmt.Errorf("the %s is accounted for %d times", c.Name(), seen[su][r])
			}
		}
	}
	if s.tr < 0 || s.tr >= rows || s.tc < 0 || s.tc >= cols {
		return fmt.Errorf("the troll is off the bridge at row %d position %d", s.tr, s.tc)
	}
	if !s.over && s.bridge[s.tr][s.tc].n == 0 {
		return fmt.Errorf("the troll stands on empty %s", place(int(s.tr), int(s.tc)))
	}
	if s.over && s.actions != 0 || !s.over && (s.actions < 1 || s.actions > 2) {
		return fmt.Errorf("%d actions left (over %v)", s.actions, s.over)
	}
	if !s.over && s.visited&bit(int(s.tr), int(s.tc)) == 0 {
		return fmt.Errorf("the troll's position is not among those visited this turn")
	}
	if s.won && !s.winning() {
		return fmt.Errorf("won, but the winning condition does not hold")
	}
	return nil
}
