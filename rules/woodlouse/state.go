package woodlouse

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tableref/tableref/rules/game"
)

// A card id: species index (in AllSpecies) times 10, plus 5 for the second
// copy, plus the number of animals less one. Ids run from 0 to 49.
func cardOf(id uint8) Card {
	return Card{Species: AllSpecies[id/CardsPerSpecies], Count: int(id%5) + 1}
}

func speciesIndex(sp Species) int {
	for i, s := range AllSpecies {
		if s == sp {
			return i
		}
	}
	return -1
}

type phase uint8

const (
	phaseCode  phase = iota // the trainer holds a card and owes the code
	phaseGuess              // the code is given; the others may guess or pass
	phaseOver
)

var phaseNames = [...]string{"code", "guess", "over"}

func (p phase) String() string { return phaseNames[p] }

// State is a match of Woodlouse Chaos. Besides the game.State methods it has
// a few accessors (Order, Trainer, Code, HeardCard, TrainerCard, MayGuess,
// Tries, CalledWrong) that say only what every seat may know, or what the
// asking seat may know, for bots and for the referee's audio side.
type State struct {
	players int
	variant string
	fixed   bool // the sequence is never reshuffled
	stop    bool // after-last-card=stop
	rng     game.Rand

	order   Order     // the sequence cards; order[0] is position 1
	pile    []uint8   // the draw pile, face down; the top card is the last
	box     []uint8   // cards of the animals in play not used this game
	boxSize int       // len(box), fixed at the deal
	scores  [][]uint8 // each seat's face-down score pile; the top is the last

	trainer int
	turns   int // trainer turns finished
	phase   phase
	card    uint8 // the trainer's card, in phaseCode and phaseGuess
	bangs   int   // the code, in phaseGuess
	claps   int

	guesses []called // wrong guesses on this card, in order
	tries   []uint8  // per seat: guesses made on this card
	free    []bool   // per seat: made a guess with an empty score pile on this card
	passed  []bool   // per seat: passed on this card

	last    int16  // the card revealed at the end of the previous turn, or -1
	lastHow string // how the previous turn ended
}

type called struct {
	seat  int
	guess Card
}

// draw starts the trainer's turn: the top card of the pile goes to the
// trainer, and the guessing state is cleared.
func (s *State) draw() {
	s.card = s.pile[len(s.pile)-1]
	s.pile = s.pile[:len(s.pile)-1]
	s.phase = phaseCode
	s.clearTurn()
}

// clearTurn forgets the code and the guesses on the last card.
func (s *State) clearTurn() {
	s.bangs, s.claps = 0, 0
	s.guesses = s.guesses[:0]
	for i := range s.tries {
		s.tries[i] = 0
		s.free[i] = false
		s.passed[i] = false
	}
}

// mayGuess reports whether seat may still guess (or pass) on this card.
func (s *State) mayGuess(seat int) bool {
	if s.phase != phaseGuess || seat < 0 || seat >= s.players || seat == s.trainer || s.passed[seat] {
		return false
	}
	if len(s.scores[seat]) > 0 {
		return true
	}
	if s.stop {
		return s.tries[seat] == 0
	}
	return !s.free[seat]
}

func (s *State) anyGuesser() bool {
	for i := range s.players {
		if s.mayGuess(i) {
			return true
		}
	}
	return false
}

// Turn lists the trainer while the code is owed, then every seat that may
// still guess or pass.
func (s *State) Turn() []int {
	switch s.phase {
	case phaseCode:
		return []int{s.trainer}
	case phaseGuess:
		t := make([]int, 0, s.players-1)
		for i := range s.players {
			if s.mayGuess(i) {
				t = append(t, i)
			}
		}
		return t
	}
	return nil
}

// Legal lists, for the trainer, the right code only (Apply takes any code
// heard, and a wrong one is the trainer's mistake); for a guesser, every
// animal in play with every number, and pass.
func (s *State) Legal(seat int) []game.Move {
	switch {
	case s.phase == phaseCode && seat == s.trainer:
		b, c := s.rightCode()
		return []game.Move{game.M(seat, "code", strconv.Itoa(b), strconv.Itoa(c))}
	case s.mayGuess(seat):
		moves := make([]game.Move, 0, len(s.order)*MaxAnimals+1)
		for _, sp := range s.order {
			for n := MinAnimals; n <= MaxAnimals; n++ {
				moves = append(moves, game.M(seat, "guess", string(sp), strconv.Itoa(n)))
			}
		}
		return append(moves, game.M(seat, "pass"))
	}
	return nil
}

// rightCode is the code for the trainer's card.
func (s *State) rightCode() (bangs, claps int) {
	c := cardOf(s.card)
	return slices.Index(s.order, c.Species) + 1, c.Count
}

// MaxBeats is the most bangs or claps a code may carry; more is taken for a
// mishearing and refused rather than judged.
const MaxBeats = 20

// Apply makes a move; see the package documentation for the moves.
func (s *State) Apply(m game.Move) ([]game.Event, error) {
	if s.phase == phaseOver {
		return nil, fmt.Errorf("%s: %w", m, game.ErrOver)
	}
	if m.Seat < 0 || m.Seat >= s.players {
		return nil, game.Refuse(m, "there is no seat %d at a table of %d", m.Seat, s.players)
	}
	switch m.Action {
	case "code":
		return s.code(m)
	case "guess":
		return s.guess(m)
	case "pass":
		return s.pass(m)
	}
	return nil, game.Refuse(m, "%q is no move in Woodlouse Chaos: the trainer gives a code (code BANGS CLAPS), the others guess (guess ANIMAL NUMBER) or pass", m.Action)
}

func (s *State) code(m game.Move) ([]game.Event, error) {
	if m.Seat != s.trainer {
		if prev := (s.trainer + s.players - 1) % s.players; m.Seat == prev && s.turns > 0 && s.last >= 0 {
			// The last trainer's code arriving after their card was
			// settled (a code heard twice, say): the card is gone.
			return nil, game.RefuseTurn(m, "too late: your card (%s) is gone already, %s; %s is the trainer now",
				cardOf(uint8(s.last)), s.lastHow, game.Seat(s.trainer))
		}
		return nil, game.RefuseTurn(m, "only the trainer, %s, gives the code", game.Seat(s.trainer))
	}
	if s.phase != phaseCode {
		return nil, game.RefuseTurn(m, "the code for this card has been given already")
	}
	if len(m.Args) != 2 {
		return nil, game.Refuse(m, "a code is the number of bangs and the number of claps, like \"code 3 4\"")
	}
	bangs, err1 := strconv.Atoi(m.Args[0])
	claps, err2 := strconv.Atoi(m.Args[1])
	switch {
	case err1 != nil || bangs < 0 || bangs > MaxBeats:
		return nil, game.Refuse(m, "%q is not a number of bangs from 0 to %d", m.Args[0], MaxBeats)
	case err2 != nil || claps < 0 || claps > MaxBeats:
		return nil, game.Refuse(m, "%q is not a number of claps from 0 to %d", m.Args[1], MaxBeats)
	case bangs == 0 && claps == 0:
		return nil, game.Refuse(m, "no bangs and no claps is no code at all")
	}
	t := game.Seat(s.trainer)
	gave := t + " gives " + count(bangs, "bang") + " and " + count(claps, "clap")
	card := cardOf(s.card)
	if got, err := s.order.Decode(bangs, claps); err == nil && got == card {
		s.phase = phaseGuess
		s.bangs, s.claps = bangs, claps
		return []game.Event{{Type: "code", Text: gave + ". Guess away!"}}, nil
	}
	// The trainer's mistake: the card is shown and goes under the pile with
	// the top card of the trainer's score pile.
	text := gave + ", but the card shows " + card.String() + ": a wrong code. The card goes under the pile"
	s.putUnder(s.card)
	if n := len(s.scores[s.trainer]); n > 0 {
		s.putUnder(s.scores[s.trainer][n-1])
		s.scores[s.trainer] = s.scores[s.trainer][:n-1]
		text += ", with one of " + t + "'s score cards"
	} else {
		text += "; " + t + " has no score card to add"
	}
	s.last, s.lastHow = int16(s.card), "a wrong code: under the pile"
	ev := []game.Event{{Type: "mistake", Text: text + "."}}
	return s.endTurn(ev), nil
}

// count says "no bangs", "1 bang", "3 bangs".
func count(n int, noun string) string {
	switch n {
	case 0:
		return "no " + noun + "s"
	case 1:
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

func (s *State) putUnder(id uint8) {
	s.pile = append(s.pile, 0)
	copy(s.pile[1:], s.pile)
	s.pile[0] = id
}

// mayAct refuses a guess or pass from a seat that may not make one.
func (s *State) mayAct(m game.Move) error {
	switch {
	case m.Seat == s.trainer && s.phase == phaseCode && s.last >= 0:
		// The new trainer guessed at the last card, where they were a
		// guesser, and the guess arrives after that card was settled.
		return game.RefuseTurn(m, "too late: the last card (%s) is gone already, %s; you are the trainer now: give the code for your card",
			cardOf(uint8(s.last)), s.lastHow)
	case m.Seat == s.trainer:
		return game.RefuseTurn(m, "the trainer does not guess at their own card")
	case s.phase != phaseGuess && s.last >= 0:
		// A guess at the card just settled, arriving late: say so, not
		// something about the next card.
		return game.RefuseTurn(m, "too late: the last card (%s) is gone already, %s; wait for %s's code for the next one",
			cardOf(uint8(s.last)), s.lastHow, game.Seat(s.trainer))
	case s.phase != phaseGuess:
		return game.RefuseTurn(m, "wait for the code: %s has not given it yet", game.Seat(s.trainer))
	case s.passed[m.Seat]:
		return game.RefuseTurn(m, "%s passed on this card", game.Seat(m.Seat))
	case !s.mayGuess(m.Seat):
		if s.stop && !s.free[m.Seat] {
			return game.RefuseTurn(m, "%s has paid away their last score card and may not guess again on this card", game.Seat(m.Seat))
		}
		return game.RefuseTurn(m, "with an empty score pile, %s may guess only once on each card", game.Seat(m.Seat))
	}
	return nil
}

// MaxShout is the most animals a guess may name. A card shows 1 to 5, but
// a shout of "7 spiders" is still a shout, judged wrong and paid for; a
// bigger number is taken for a slip of the finger and refused.
const MaxShout = MaxBeats

// ParseGuess reads a guess: an animal and a number, in either order, such
// as ["spider", "4"] or ["4", "spiders"]. Any of the five animals and any
// number from 1 to MaxShout reads; whether the animal is in play and the
// number on a card is for the referee to judge (a wrong shout).
func ParseGuess(args []string) (Card, error) {
	if len(args) != 2 {
		return Card{}, fmt.Errorf("a guess is an animal and a number, like \"guess spider 4\"")
	}
	a, b := args[0], args[1]
	if _, err := strconv.Atoi(strings.TrimSpace(a)); err == nil {
		a, b = b, a
	}
	sp, err := ParseSpecies(a)
	if err != nil {
		return Card{}, err
	}
	n, err := strconv.Atoi(strings.TrimSpace(b))
	if err != nil {
		return Card{}, fmt.Errorf("%q is not a number of animals", b)
	}
	if n < MinAnimals || n > MaxShout {
		return Card{}, fmt.Errorf("%d is not a number of animals to shout: say 1 to %d (a card shows %d to %d)", n, MaxShout, MinAnimals, MaxAnimals)
	}
	return Card{Species: sp, Count: n}, nil
}

func (s *State) guess(m game.Move) ([]game.Event, error) {
	if err := s.mayAct(m); err != nil {
		return nil, err
	}
	g, err := ParseGuess(m.Args)
	if err != nil {
		return nil, game.Refuse(m, "%s", err)
	}
	who, t := game.Seat(m.Seat), game.Seat(s.trainer)
	card := cardOf(s.card)
	if g == card {
		s.scores[m.Seat] = append(s.scores[m.Seat], s.card)
		s.last, s.lastHow = int16(s.card), "won by "+who
		ev := []game.Event{{Type: "guess-right", Text: who + " calls " + g.String() + ": right! " + who + " wins the card."}}
		return s.endTurn(ev), nil
	}
	s.tries[m.Seat]++
	s.guesses = append(s.guesses, called{m.Seat, g})
	text := who + " calls " + g.String() + ": wrong"
	switch {
	case !slices.Contains(s.order, g.Species):
		text += " (there are no " + g.Species.Plural() + " in this game)"
	case g.Count > MaxAnimals:
		text += " (no card shows more than " + strconv.Itoa(MaxAnimals) + ")"
	}
	if n := len(s.scores[m.Seat]); n > 0 {
		s.scores[s.trainer] = append(s.scores[s.trainer], s.scores[m.Seat][n-1])
		s.scores[m.Seat] = s.scores[m.Seat][:n-1]
		text += ", and pays " + t + " a score card."
	} else {
		s.free[m.Seat] = true
		text += ", with no score card to pay."
	}
	ev := []game.Event{{Type: "guess-wrong", Text: text}}
	return s.nobodyLeft(ev), nil
}

func (s *State) pass(m game.Move) ([]game.Event, error) {
	if err := s.mayAct(m); err != nil {
		return nil, err
	}
	if len(m.Args) != 0 {
		return nil, game.Refuse(m, "pass takes nothing after it")
	}
	s.passed[m.Seat] = true
	ev := []game.Event{{Type: "pass", Text: game.Seat(m.Seat) + " passes."}}
	return s.nobodyLeft(ev), nil
}

// nobodyLeft ends the turn when no seat may guess any more: the trainer
// shows the card and keeps it.
func (s *State) nobodyLeft(ev []game.Event) []game.Event {
	if s.anyGuesser() {
		return ev
	}
	t := game.Seat(s.trainer)
	s.scores[s.trainer] = append(s.scores[s.trainer], s.card)
	s.last, s.lastHow = int16(s.card), "kept by the trainer, "+t
	ev = append(ev, game.Event{Type: "kept", Text: "Nobody got it: the card was " + cardOf(s.card).String() + ", and " + t + " keeps it."})
	return s.endTurn(ev)
}

// endTurn passes the trainer's role on, reshuffling the sequence cards after
// every round, or ends the game when the pile is empty.
func (s *State) endTurn(ev []game.Event) []game.Event {
	s.turns++
	if len(s.pile) == 0 {
		s.phase = phaseOver
		s.clearTurn()
		return append(ev, game.Event{Type: "game-over", Text: "The draw pile is empty. " + s.Result().Text})
	}
	s.trainer = (s.trainer + 1) % s.players
	if s.turns%s.players == 0 && !s.fixed {
		game.ShuffleSlice(&s.rng, s.order)
		ev = append(ev, game.Event{Type: "reshuffled", Text: "Everyone has been the trainer: the sequence cards are shuffled. From position 1: " + strings.ReplaceAll(s.order.String(), ",", ", ") + "."})
	}
	s.draw()
	t := game.Seat(s.trainer)
	return append(ev,
		game.Event{Type: "trainer", Text: t + " is the trainer now and draws a card; " + strconv.Itoa(len(s.pile)) + " left in the pile."},
		game.Event{Type: "drawn", Text: "You drew " + cardOf(s.card).String() + ".", To: []int{s.trainer}})
}

// Over reports whether the draw pile has run out.
func (s *State) Over() bool { return s.phase == phaseOver }

var _ game.CodeChecker = (*State)(nil)

// CheckCode says why a heard code of bangs and claps fits no card with the
// sequence cards on the table now, or nil (game.CodeChecker): no bangs, more
// bangs than sequence cards, no claps or more than a card shows.
func (s *State) CheckCode(bangs, claps int) error {
	_, err := s.order.Decode(bangs, claps)
	return err
}

// Result counts the score piles: most cards wins, then the higher total of
// animals on the cards; a tie on both is a shared win.
func (s *State) Result() game.Result {
	cards := make([]int, s.players)
	values := make([]int, s.players)
	best := 0
	for i, p := range s.scores {
		cards[i] = len(p)
		for _, id := range p {
			values[i] += cardOf(id).Count
		}
		best = max(best, cards[i])
	}
	var top []int
	for i, c := range cards {
		if c == best {
			top = append(top, i)
		}
	}
	res := game.Result{Scores: cards}
	if s.phase != phaseOver {
		res.Text = "The game is not over yet."
		return res
	}
	if len(top) == 1 {
		res.Winners = top
		res.Text = game.Seat(top[0]) + " wins with the most cards: " + plural(best, "card") + "."
		return res
	}
	bestValue := 0
	for _, i := range top {
		bestValue = max(bestValue, values[i])
	}
	for _, i := range top {
		if values[i] == bestValue {
			res.Winners = append(res.Winners, i)
		}
	}
	tied := seats(top) + " tie on " + plural(best, "card")
	if len(res.Winners) == 1 {
		var vs []string
		for _, i := range top {
			vs = append(vs, strconv.Itoa(values[i]))
		}
		res.Text = tied + "; " + game.Seat(res.Winners[0]) + " wins on the animals on their cards, " + strings.Join(vs, " to ") + "."
		return res
	}
	res.Text = tied
	if len(res.Winners) < len(top) {
		res.Text += "; on the animals on their cards " + seats(res.Winners) + " have the most, " + strconv.Itoa(bestValue) + " each"
	} else {
		res.Text += " and on the animals on them, " + strconv.Itoa(bestValue) + " each"
	}
	res.Text += ": " + seats(res.Winners) + " share the win."
	return res
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

func seats(ss []int) string {
	names := make([]string, len(ss))
	for i, s := range ss {
		names[i] = game.Seat(s)
	}
	if len(names) <= 2 {
		return strings.Join(names, " and ")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// Clone is a deep copy.
func (s *State) Clone() game.State {
	c := *s
	c.order = slices.Clone(s.order)
	c.pile = slices.Clone(s.pile)
	c.box = slices.Clone(s.box)
	c.scores = make([][]uint8, len(s.scores))
	for i, p := range s.scores {
		c.scores[i] = slices.Clone(p)
	}
	c.guesses = slices.Clone(s.guesses)
	c.tries = slices.Clone(s.tries)
	c.free = slices.Clone(s.free)
	c.passed = slices.Clone(s.passed)
	return &c
}

// Audit checks that every card of the animals in play is in exactly one
// place, the counts are in range and the turn's bookkeeping agrees.
func (s *State) Audit() error {
	if s.players < info.MinPlayers || s.players > info.MaxPlayers {
		return fmt.Errorf("%d players", s.players)
	}
	if len(s.scores) != s.players || len(s.tries) != s.players || len(s.free) != s.players || len(s.passed) != s.players {
		return fmt.Errorf("per-seat records for %d/%d/%d/%d seats, not %d", len(s.scores), len(s.tries), len(s.free), len(s.passed), s.players)
	}
	if len(s.order) < MinSequence || len(s.order) > MaxSequence {
		return fmt.Errorf("%d sequence cards", len(s.order))
	}
	inPlay := map[int]bool{}
	for _, sp := range s.order {
		i := speciesIndex(sp)
		if i < 0 || inPlay[i] {
			return fmt.Errorf("sequence %s: unknown or repeated animal %q", s.order, sp)
		}
		inPlay[i] = true
	}
	where := map[uint8]string{}
	place := func(id uint8, at string) error {
		if int(id) >= len(AllSpecies)*CardsPerSpecies {
			return fmt.Errorf("card id %d (%s) does not exist", id, at)
		}
		if !inPlay[int(id)/CardsPerSpecies] {
			return fmt.Errorf("card %s (%s) is of an animal not in play", cardOf(id), at)
		}
		if w, ok := where[id]; ok {
			return fmt.Errorf("card %s (id %d) is both in %s and in %s", cardOf(id), id, w, at)
		}
		where[id] = at
		return nil
	}
	for _, id := range s.pile {
		if err := place(id, "the pile"); err != nil {
			return err
		}
	}
	for _, id := range s.box {
		if err := place(id, "the box"); err != nil {
			return err
		}
	}
	for seat, p := range s.scores {
		for _, id := range p {
			if err := place(id, fmt.Sprintf("seat %d's score pile", seat)); err != nil {
				return err
			}
		}
	}
	if s.phase != phaseOver {
		if err := place(s.card, "the trainer's hand"); err != nil {
			return err
		}
	}
	if want := len(inPlay) * CardsPerSpecies; len(where) != want {
		return fmt.Errorf("%d cards accounted for, want %d", len(where), want)
	}
	if len(s.box) != s.boxSize {
		return fmt.Errorf("%d cards in the box, %d at the deal", len(s.box), s.boxSize)
	}
	if s.trainer < 0 || s.trainer >= s.players {
		return fmt.Errorf("trainer seat %d", s.trainer)
	}
	if s.phase > phaseOver {
		return fmt.Errorf("phase %d", s.phase)
	}
	if s.phase == phaseGuess {
		got, err := s.order.Decode(s.bangs, s.claps)
		if err != nil || got != cardOf(s.card) {
			return fmt.Errorf("the accepted code %d/%d does not fit the card %s", s.bangs, s.claps, cardOf(s.card))
		}
		if !s.anyGuesser() {
			return fmt.Errorf("guessing goes on but nobody may guess")
		}
	}
	wrong := make([]int, s.players)
	for _, g := range s.guesses {
		if g.seat < 0 || g.seat >= s.players || g.seat == s.trainer {
			return fmt.Errorf("a guess recorded for seat %d", g.seat)
		}
		if s.phase == phaseGuess && g.guess == cardOf(s.card) {
			return fmt.Errorf("a right guess recorded as wrong")
		}
		wrong[g.seat]++
	}
	for i := range s.players {
		if int(s.tries[i]) != wrong[i] {
			return fmt.Errorf("seat %d: %d guesses counted, %d recorded", i, s.tries[i], wrong[i])
		}
		if s.free[i] && s.tries[i] == 0 {
			return fmt.Errorf("seat %d made a free guess without guessing", i)
		}
		if i == s.trainer && (s.tries[i] > 0 || s.passed[i]) {
			return fmt.Errorf("the trainer guessed or passed")
		}
	}
	if s.last < -1 || s.last >= int16(len(AllSpecies)*CardsPerSpecies) {
		return fmt.Errorf("last card id %d", s.last)
	}
	return nil
}
