package insomnia

import (
	"fmt"
	"strconv"

	"github.com/tableref/tableref/rules/deck"
	"github.com/tableref/tableref/rules/game"
)

// Phases of a match.
const (
	phaseShow   int8 = iota // the sleeper holds a drawn card and shows it to a voice
	phaseAnswer             // the voice shown the card answers
	phaseOver
)

// Hands of a seat that speaks for two voices.
const (
	handOnly  int8 = iota // the seat holds one voice
	handLeft              // the first of its two voices
	handRight             // the second
)

// Answers a voice may give, in the order the bot and Legal list them.
const (
	ansHigher int8 = iota
	ansLower
	ansNotRed
	ansNotBlack
	ansMatch // not said: the voice was silenced
)

var answerNames = [...]string{"higher", "lower", "not-red", "not-black", "silenced"}

var answerWords = [...]string{"higher", "lower", "not red", "not black", "silenced"}

var voiceArgs = [Voices]string{"1", "2", "3", "4", "5", "6"}

type voice struct {
	seat       int
	hand       int8
	card       deck.Card
	silent     bool
	colourSaid bool // it has said "not red" or "not black"
}

// clue is one public exchange: a card shown to a voice and what it said.
type clue struct {
	voice  int8
	answer int8
	shown  deck.Card
}

// state is a match. It holds only arrays, so a plain copy is a deep copy.
type state struct {
	g       gameImpl
	rng     game.Rand // spent on the shuffle; kept so that the match owns its randomness
	players int
	aceHigh bool
	notes   bool
	public  bool // shown=public: shown cards and silenced voices' cards are everyone's

	phase  int8
	voices [Voices]voice
	silent int // voices silenced

	pile  [PileSize]deck.Card // the sleeper's deck, top first; pile[drawn:] is still in it
	drawn int

	// card is the sleeper's card: just drawn (phaseShow) or being shown
	// to voice asked (phaseAnswer).
	card  deck.Card
	asked int

	discards  [PileSize]deck.Card // shown cards, in order
	nDiscards int

	clues  [PileSize]clue
	nClues int

	// known[v] is every card voice v may still hold as far as the sleeper
	// knows from what has been shown and said (the sleeper bot's memory;
	// with shown=public, everyone's).
	known [Voices]uint64
}

func (s *state) Turn() []int {
	switch s.phase {
	case phaseShow:
		return []int{Sleeper}
	case phaseAnswer:
		return []int{s.voices[s.asked].seat}
	}
	return nil
}

func (s *state) Legal(seat int) []game.Move {
	switch s.phase {
	case phaseShow:
		if seat != Sleeper {
			return nil
		}
		moves := make([]game.Move, 0, Voices-s.silent)
		for v := range s.voices {
			if !s.voices[v].silent {
				moves = append(moves, game.M(seat, "show", voiceArgs[v]))
			}
		}
		return moves
	case phaseAnswer:
		if seat != s.voices[s.asked].seat {
			return nil
		}
		var moves []game.Move
		for a := ansHigher; a <= ansNotBlack; a++ {
			if s.canSay(a) {
				moves = append(moves, game.M(seat, answerNames[a]))
			}
		}
		return moves
	}
	return nil
}

func (s *state) Apply(m game.Move) ([]game.Event, error) {
	if s.phase == phaseOver {
		return nil, game.ErrOver
	}
	if m.Seat < 0 || m.Seat >= s.players {
		return nil, game.Refuse(m, "there is no seat %d at this table of %d", m.Seat, s.players)
	}
	switch m.Action {
	case "show":
		return s.show(m)
	}
	for a := ansHigher; a <= ansNotBlack; a++ {
		if m.Action == answerNames[a] {
			return s.answer(m, a)
		}
	}
	return nil, game.Refuse(m, "%q is not a move in Insomnia: the sleeper turns a card towards one voice (show 1 to 6), and the voice answers higher, lower, not-red or not-black", m.Action)
}

func (s *state) show(m game.Move) ([]game.Event, error) {
	if m.Seat != Sleeper {
		return nil, game.RefuseTurn(m, "only the sleeper, %s, shows cards", game.Seat(Sleeper))
	}
	if s.phase != phaseShow {
		return nil, game.RefuseTurn(m, "%s has already been shown a card and must answer first", s.voiceLabel(s.asked))
	}
	if len(m.Args) != 1 {
		return nil, game.Refuse(m, "show takes one voice number, 1 to 6")
	}
	v, err := strconv.Atoi(m.Args[0])
	if err != nil || v < 1 || v > Voices {
		return nil, game.Refuse(m, "%q is not a voice: the voices are numbered 1 to 6", m.Args[0])
	}
	v--
	if s.voices[v].silent {
		return nil, game.Refuse(m, "%s is already silent", s.voiceLabel(v))
	}
	x := s.card
	events := make([]game.Event, 0, 4)
	vc := &s.voices[v]
	if s.public {
		events = append(events, game.Event{Type: "show", Text: seat0 + " shows the " + name(x) + " to " + s.voiceLabel(v) + "."})
	} else {
		events = append(events,
			game.Event{Type: "show", Text: seat0 + " shows a card to " + s.voiceLabel(v) + "."},
			game.Event{Type: "shown", Text: seat0 + " shows the " + name(x) + " to " + s.voiceLabel(v) + ".", To: s.pair(v)})
	}
	if !matches(x, vc.card) {
		s.phase = phaseAnswer
		s.asked = v
		return events, nil
	}
	vc.silent = true
	s.silent++
	s.addClue(v, ansMatch, x)
	s.discard(x)
	for o := range s.known {
		if o != v {
			s.known[o] &^= bit(vc.card)
		}
	}
	s.known[v] = bit(vc.card)
	if s.public {
		events = append(events, game.Event{Type: "silenced", Text: "It matches the " + name(vc.card) + " in number and colour: " + s.voiceLabel(v) + " falls silent" + stillTalking[Voices-s.silent]})
	} else {
		events = append(events,
			game.Event{Type: "silenced", Text: "It matches: " + s.voiceLabel(v) + " turns its card to the sleeper and falls silent" + stillTalking[Voices-s.silent]},
			game.Event{Type: "matched", Text: "The " + name(x) + " matches the " + name(vc.card) + " in number and colour.", To: s.pair(v)})
	}
	return s.next(events), nil
}

// canSay reports whether the voice asked may give answer a: it must be true,
// and the colour answer is given once, or again only when the shown card
// has the voice's number.
func (s *state) canSay(a int8) bool {
	vc := &s.voices[s.asked]
	x := s.card
	switch a {
	case ansHigher:
		return value(vc.card, s.aceHigh) > value(x, s.aceHigh)
	case ansLower:
		return value(vc.card, s.aceHigh) < value(x, s.aceHigh)
	case ansNotRed, ansNotBlack:
		return (a == ansNotRed) == x.Red() && vc.card.Red() != x.Red() &&
			(!vc.colourSaid || vc.card.Rank == x.Rank)
	}
	return false
}

// allowed says why the voice asked may not give answer a, or "" if it may.
func (s *state) allowed(a int8) string {
	if s.canSay(a) {
		return ""
	}
	vc := &s.voices[s.asked]
	x := s.card
	switch {
	case (a == ansHigher || a == ansLower) && vc.card.Rank == x.Rank:
		// Same number, other colour: neither higher nor lower, and the
		// reason is that only the colour answers it.
		return "your card has the same number as the " + name(x) + ": answer with its colour (" + answerNames[colourAnswer(vc.card)] + ")"
	}
	switch a {
	case ansHigher:
		return "your card is not higher than the " + name(x)
	case ansLower:
		return "your card is not lower than the " + name(x)
	case ansNotRed, ansNotBlack:
		word := answerWords[a]
		if (a == ansNotRed) != x.Red() {
			return "\"" + word + "\" answers a " + colour(a == ansNotRed) + " card, and the " + name(x) + " is " + colour(x.Red())
		}
		if vc.card.Red() == x.Red() {
			return "your card is " + colour(x.Red()) + " too"
		}
		return "this voice has already given its colour once; it may say it again only when shown a card of its own number"
	}
	return "that is not an answer"
}

// colourAnswer is the colour answer a voice holding card gives: "not
// black" for a red card, "not red" for a black one.
func colourAnswer(card deck.Card) int8 {
	if card.Red() {
		return ansNotBlack
	}
	return ansNotRed
}

func colour(red bool) string {
	if red {
		return "red"
	}
	return "black"
}

func (s *state) answer(m game.Move, a int8) ([]game.Event, error) {
	if s.phase != phaseAnswer {
		if m.Seat != Sleeper {
			return nil, game.RefuseTurn(m, "no voice is being shown a card: it is the sleeper's turn to show one")
		}
		return nil, game.Refuse(m, "the sleeper does not answer: the voices do; show a card to one of them (show 1 to 6)")
	}
	v := s.asked
	vc := &s.voices[v]
	if m.Seat == Sleeper {
		// The sleeper answering his own card: that the sleeper never
		// answers is the reason, not which voice is being asked.
		return nil, game.RefuseTurn(m, "the sleeper does not answer: %s answers the card shown to it", s.voiceLabel(v))
	}
	if m.Seat != vc.seat {
		return nil, game.RefuseTurn(m, "the sleeper is asking %s, not %s", s.voiceLabel(v), game.Seat(m.Seat))
	}
	if len(m.Args) != 0 {
		return nil, game.Refuse(m, "an answer is one word, %s, with nothing after it", answerNames[a])
	}
	if why := s.allowed(a); why != "" {
		return nil, game.Refuse(m, "%s", why)
	}
	x := s.card
	if a == ansNotRed || a == ansNotBlack {
		vc.colourSaid = true
	}
	s.addClue(v, a, x)
	s.discard(x)
	s.known[v] &^= bit(twin(x))
	switch a {
	case ansHigher:
		s.known[v] &= above[b2i(s.aceHigh)][value(x, s.aceHigh)]
	case ansLower:
		s.known[v] &= below[b2i(s.aceHigh)][value(x, s.aceHigh)]
	case ansNotRed:
		s.known[v] &= blackMask
	case ansNotBlack:
		s.known[v] &= redMask
	}
	s.phase = phaseShow
	s.asked = -1
	events := make([]game.Event, 1, 5)
	if s.public {
		events[0] = game.Event{Type: "answer", Text: "Voice " + voiceArgs[v] + " (" + s.holder(v) + ") says \"" + answerWords[a] + "\" to the " + name(x) + "."}
	} else {
		events[0] = game.Event{Type: "answer", Text: "Voice " + voiceArgs[v] + " (" + s.holder(v) + ") says \"" + answerWords[a] + "\"."}
		events = append(events, game.Event{Type: "answered", Text: "Voice " + voiceArgs[v] + " said \"" + answerWords[a] + "\" to the " + name(x) + ".", To: s.pair(v)})
	}
	return s.next(events), nil
}

// pair is who sees a card shown to voice v: the sleeper and v's player.
func (s *state) pair(v int) []int { return []int{Sleeper, s.voices[v].seat} }

// sees reports whether seat may see the cards shown to voice v (and v's
// card once it is silenced): everyone with shown=public, else the sleeper
// and v's player.
func (s *state) sees(seat, v int) bool {
	return s.public || seat == Sleeper || seat == s.voices[v].seat
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (s *state) addClue(v int, a int8, x deck.Card) {
	s.clues[s.nClues] = clue{voice: int8(v), answer: a, shown: x}
	s.nClues++
}

// discard lays a shown card face up on the table: no voice holds it.
func (s *state) discard(x deck.Card) {
	s.discards[s.nDiscards] = x
	s.nDiscards++
	for v := range s.known {
		if !s.voices[v].silent {
			s.known[v] &^= bit(x)
		}
	}
}

// next ends the night or has the sleeper draw the next card.
func (s *state) next(events []game.Event) []game.Event {
	switch {
	case s.silent == Voices:
		s.phase = phaseOver
		left := PileSize - s.drawn
		return append(events, game.Event{Type: "asleep", Text: "Every voice is silent. " + game.Seat(Sleeper) + " falls asleep with " + cards(left) + " left in the deck: " + strconv.Itoa(left*MinutesPerCard) + " minutes of sleep."})
	case s.drawn == PileSize:
		s.phase = phaseOver
		return append(events, game.Event{Type: "alarm", Text: "The deck is spent with " + strconv.Itoa(Voices-s.silent) + " voice(s) still talking: the alarm rings and " + game.Seat(Sleeper) + " starts the day without rest."})
	}
	s.draw()
	return append(events,
		game.Event{Type: "draw", Text: drawText[PileSize-s.drawn]},
		game.Event{Type: "draw", Text: youDraw[index(s.card)], To: []int{Sleeper}})
}

func (s *state) draw() {
	s.card = s.pile[s.drawn]
	s.drawn++
	s.phase = phaseShow
	s.asked = -1
}

func cards(n int) string {
	if n == 1 {
		return "1 card"
	}
	return strconv.Itoa(n) + " cards"
}

// holder names the seat and hand of voice v: "{2}" or "{2}'s left hand".
func (s *state) holder(v int) string { return holders[s.players][v] }

// voiceLabel is "voice 3 ({2}'s left hand)".
func (s *state) voiceLabel(v int) string { return labels[s.players][v] }

// seatOf is the seat and hand of voice v (0 to 5) among players: voices go
// round the voice seats from seat 1; a seat with two holds the first in its
// left hand.
func seatOf(players, v int) (int, int8) {
	speakers := players - 1
	seat := 1 + v%speakers
	if speakers >= Voices || v%speakers >= Voices-speakers {
		return seat, handOnly
	}
	if v < speakers {
		return seat, handLeft
	}
	return seat, handRight
}

// Texts worked out once, so that a move builds at most one string.
var (
	seat0           = game.Seat(Sleeper)
	cardNames       [52]string
	youDraw         [52]string
	drawText        [PileSize + 1]string
	stillTalking    [Voices + 1]string
	holders, labels [8][Voices]string
)

func init() {
	for _, c := range deck.New(0) {
		cardNames[index(c)] = c.Name()
		youDraw[index(c)] = "You draw the " + c.Name() + "."
	}
	for n := range drawText {
		drawText[n] = seat0 + " draws a card (" + cards(n) + " left in the deck)."
	}
	stillTalking[0] = "."
	for n := 1; n <= Voices; n++ {
		stillTalking[n] = " (" + strconv.Itoa(n) + " still talking)."
	}
	for players := 4; players <= 7; players++ {
		for v := 0; v < Voices; v++ {
			seat, hand := seatOf(players, v)
			h := game.Seat(seat)
			switch hand {
			case handLeft:
				h += "'s left hand"
			case handRight:
				h += "'s right hand"
			}
			holders[players][v] = h
			labels[players][v] = "voice " + voiceArgs[v] + " (" + h + ")"
		}
	}
}

// name is the card in words: "7 of hearts".
func name(c deck.Card) string { return cardNames[index(c)] }

func (s *state) Over() bool { return s.phase == phaseOver }

func (s *state) Result() game.Result {
	scores := make([]int, s.players)
	if s.phase != phaseOver {
		return game.Result{Scores: scores, Text: "The night is not over yet."}
	}
	left := PileSize - s.drawn
	if s.silent == Voices {
		scores[Sleeper] = left * MinutesPerCard
		return game.Result{
			Winners: []int{Sleeper},
			Scores:  scores,
			Text:    "All six voices fell silent with " + cards(left) + " left in the deck: " + game.Seat(Sleeper) + " sleeps " + strconv.Itoa(scores[Sleeper]) + " minutes, ten for each card.",
		}
	}
	winners := make([]int, 0, s.players-1)
	for seat := 1; seat < s.players; seat++ {
		winners = append(winners, seat)
	}
	return game.Result{
		Winners: winners,
		Scores:  scores,
		Text:    "The deck ran out with " + strconv.Itoa(Voices-s.silent) + " voice(s) still talking: the alarm rings, " + game.Seat(Sleeper) + " gets no sleep, and the voices win.",
	}
}

func (s *state) Clone() game.State {
	c := *s
	return &c
}

func (s *state) Audit() error {
	if s.players < 4 || s.players > 7 {
		return fmt.Errorf("%d players, want 4 to 7", s.players)
	}
	var seen uint64
	add := func(c deck.Card, where string) error {
		if c.IsJoker() || c.Rank < deck.Ace || c.Rank > deck.King || c.Suit > deck.Spades {
			return fmt.Errorf("%s holds a card that is not in the deck: %v", where, c)
		}
		if seen&bit(c) != 0 {
			return fmt.Errorf("the %s is counted twice (again in %s)", c.Name(), where)
		}
		seen |= bit(c)
		return nil
	}
	silent := 0
	for v, vc := range s.voices {
		if err := add(vc.card, "voice "+voiceArgs[v]); err != nil {
			return err
		}
		if vc.seat < 1 || vc.seat >= s.players {
			return fmt.Errorf("voice %d is held by seat %d of %d", v+1, vc.seat, s.players)
		}
		if vc.silent {
			silent++
		}
		if s.known[v]&bit(vc.card) == 0 {
			return fmt.Errorf("the table's deductions rule out voice %d's true card, the %s", v+1, vc.card.Name())
		}
	}
	if silent != s.silent {
		return fmt.Errorf("%d voices are silent but the count says %d", silent, s.silent)
	}
	if s.drawn < 1 || s.drawn > PileSize {
		return fmt.Errorf("%d cards drawn of %d", s.drawn, PileSize)
	}
	for i := s.drawn; i < PileSize; i++ {
		if err := add(s.pile[i], "the deck"); err != nil {
			return err
		}
	}
	for i := 0; i < s.nDiscards; i++ {
		if err := add(s.discards[i], "the discards"); err != nil {
			return err
		}
	}
	inHand := s.phase != phaseOver
	if inHand {
		if err := add(s.card, "the sleeper's hand"); err != nil {
			return err
		}
	}
	if seen != all52 {
		return fmt.Errorf("%d cards accounted for, not 52", count(seen))
	}
	if want := s.drawn - b2i(inHand); s.nDiscards != want || s.nClues != want {
		return fmt.Errorf("%d cards drawn, %d discarded and %d answers recorded", s.drawn, s.nDiscards, s.nClues)
	}
	switch s.phase {
	case phaseShow:
		if s.asked != -1 || s.silent == Voices {
			return fmt.Errorf("the sleeper is to show a card, yet voice %d is asked and %d are silent", s.asked+1, s.silent)
		}
	case phaseAnswer:
		if s.asked < 0 || s.asked >= Voices || s.voices[s.asked].silent {
			return fmt.Errorf("the voice asked (%d) is not a talking voice", s.asked+1)
		}
		if matches(s.card, s.voices[s.asked].card) {
			return fmt.Errorf("voice %d waits to answer a card that silences it", s.asked+1)
		}
	case phaseOver:
		if s.silent != Voices && s.drawn != PileSize {
			return fmt.Errorf("the game ended with %d voices talking and %d cards in the deck", Voices-s.silent, PileSize-s.drawn)
		}
	default:
		return fmt.Errorf("unknown phase %d", s.phase)
	}
	return nil
}
