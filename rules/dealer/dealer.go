// Package dealer is not a game but the dealer of any card game (its id is
// "deck"): a standard deck shuffled from the seed and dealt to the phones as
// private hands, with the moves people make with real cards at a table —
// draw, discard, pass a card to someone, show a card to the table, take the
// discards back into the deck — and dice and a random first player, all
// announced. There is no turn order: every seat may act at any time, and
// the match ends when someone ends it.
//
// Moves (the seat is the player's):
//
//	draw                 the top card of the stock into your hand
//	discard CARD         a card from your hand onto the discard pile, face up
//	pass CARD SEAT       a card from your hand to another player, face down
//	                     (SEAT counts from 0, as every move's seat does)
//	show CARD            a card from your hand onto the table, face up
//	take CARD            a card shown on the table back into your hand
//	reshuffle            the discards and the table's cards back into the stock, shuffled
//	deal N               everything back, shuffled, and N cards to everyone
//	roll DICE            dice such as 2d6 or d20+3, for everyone to see
//	first                a random first player
//	end                  the match is over
//
// A latecomer may sit down while the cards are out: the referee's "sit"
// move (game.Info.SeatAction, never a player's), made in the name of the
// new seat, adds a player with an empty hand, dealt in at the next deal.
package dealer

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/tableref/tableref/rules/deck"
	"github.com/tableref/tableref/rules/dice"
	"github.com/tableref/tableref/rules/game"
)

// ID is the catalogue id.
const ID = "deck"

// Game is the dealer.
var Game game.Game = dealerGame{}

type dealerGame struct{}

// Info is the catalogue entry.
func (dealerGame) Info() game.Info {
	return game.Info{
		ID:         ID,
		Name:       "Dealer and dice",
		Summary:    "A shuffled 52-card deck dealt to the phones as private hands, with draw, discard, pass and show, dice and a random first player, for any card game.",
		MinPlayers: 1,
		MaxPlayers: maxPlayers,
		Options: []game.Option{
			{Name: "cards", Label: "Cards dealt to each player", Text: "Cards dealt to each player at the start (0 deals nothing).", Default: "5", Min: 0, Max: 26},
			{Name: "jokers", Label: "Jokers in the deck", Text: "Jokers in the deck: 0, 1 or 2.", Default: "0", Values: []string{"0", "1", "2"},
				ValueText: map[string]string{"0": "None", "1": "One", "2": "Two"}},
		},
		// A player may come to the table at any time: the referee seats
		// them (Sit), and never a phone.
		SeatAction:     Sit,
		FreePlay:       true,
		RefereeActions: []string{Sit},
		Page:           page,
	}
}

// Sit is the referee's move that seats a latecomer (game.Info.SeatAction).
const Sit = "sit"

// State is a table of cards.
type State struct {
	rng     game.Rand
	players int
	all     int // cards in the deck
	stock   []deck.Card
	discard []deck.Card
	shown   []Shown
	hands   [][]deck.Card
	roll    *Roll
	first   int
	over    bool
}

// Shown is a card face up on the table, and whose it was.
type Shown struct {
	Card deck.Card `json:"card"`
	Seat int       `json:"seat"`
}

// Roll is the last roll of the dice.
type Roll struct {
	Seat  int    `json:"seat"`
	Dice  string `json:"dice"`
	Faces []int  `json:"faces"`
	Total int    `json:"total"`
}

// New shuffles and deals.
func (g dealerGame) New(cfg game.Config) (game.State, error) {
	_, opts, err := g.Info().Resolve(cfg)
	if err != nil {
		return nil, err
	}
	jokers := game.Int(opts["jokers"])
	n := game.Int(opts["cards"])
	cards := deck.New(jokers)
	if n*cfg.Players > len(cards) {
		return nil, fmt.Errorf("%d players × %d cards needs %d cards; the deck has %d", cfg.Players, n, n*cfg.Players, len(cards))
	}
	s := &State{rng: game.NewRand(cfg.Seed), players: cfg.Players, all: len(cards), first: -1}
	s.stock = cards
	s.hands = make([][]deck.Card, cfg.Players)
	s.redeal(n)
	return s, nil
}

// redeal gathers every card, shuffles and deals n to each player.
func (s *State) redeal(n int) {
	for i := range s.hands {
		s.stock = append(s.stock, s.hands[i]...)
		s.hands[i] = nil
	}
	s.stock = append(s.stock, s.discard...)
	for _, c := range s.shown {
		s.stock = append(s.stock, c.Card)
	}
	s.discard, s.shown = nil, nil
	slices.SortFunc(s.stock, cmpCard) // the shuffle's result depends on the seed alone
	deck.Shuffle(&s.rng, s.stock)
	for i := range s.hands {
		s.hands[i] = append([]deck.Card(nil), s.stock[len(s.stock)-n:]...)
		s.stock = s.stock[:len(s.stock)-n]
	}
}

func cmpCard(a, b deck.Card) int {
	if a.Suit != b.Suit {
		return int(a.Suit) - int(b.Suit)
	}
	if a.Rank != b.Rank {
		return int(a.Rank) - int(b.Rank)
	}
	return int(a.Index) - int(b.Index)
}

// Turn is every seat until the end.
func (s *State) Turn() []int {
	if s.over {
		return nil
	}
	t := make([]int, s.players)
	for i := range t {
		t[i] = i
	}
	return t
}

// Legal lists the moves seat may make (passes to every other seat, dice as
// 1d6 and 2d6).
func (s *State) Legal(seat int) []game.Move {
	if s.over || seat < 0 || seat >= s.players {
		return nil
	}
	var out []game.Move
	if len(s.stock) > 0 {
		out = append(out, game.M(seat, "draw"))
	}
	for _, c := range s.hands[seat] {
		out = append(out, game.M(seat, "discard", c.String()), game.M(seat, "show", c.String()))
		for to := 0; to < s.players; to++ {
			if to != seat {
				out = append(out, game.M(seat, "pass", c.String(), strconv.Itoa(to)))
			}
		}
	}
	for _, c := range s.shown {
		out = append(out, game.M(seat, "take", c.Card.String()))
	}
	if len(s.discard)+len(s.shown) > 0 {
		out = append(out, game.M(seat, "reshuffle"))
	}
	if per := s.all / s.players; per > 0 {
		out = append(out, game.M(seat, "deal", strconv.Itoa(min(5, per))))
	}
	out = append(out, game.M(seat, "roll", "1d6"), game.M(seat, "roll", "2d6"), game.M(seat, "first"), game.M(seat, "end"))
	return out
}

// Apply makes a move.
func (s *State) Apply(m game.Move) ([]game.Event, error) {
	if s.over {
		return nil, game.ErrOver
	}
	if m.Action == Sit {
		return s.sit(m)
	}
	if m.Seat < 0 || m.Seat >= s.players {
		return nil, game.Refuse(m, "there is no seat %d", m.Seat)
	}
	who := game.Seat(m.Seat)
	args := func(n int, how string) error {
		if len(m.Args) != n {
			return game.Refuse(m, "write it as %q", how)
		}
		return nil
	}
	switch m.Action {
	case "draw":
		if err := args(0, "draw"); err != nil {
			return nil, err
		}
		if len(s.stock) == 0 {
			return nil, game.Refuse(m, "the stock is empty: reshuffle the discards first")
		}
		c := s.stock[len(s.stock)-1]
		s.stock = s.stock[:len(s.stock)-1]
		s.hands[m.Seat] = append(s.hands[m.Seat], c)
		return []game.Event{
			{Type: "draw", Text: fmt.Sprintf("%s draws a card (%s left).", who, cards(len(s.stock)))},
			{Type: "drawn", Text: "You drew the " + c.Name() + ".", To: []int{m.Seat}},
		}, nil
	case "discard", "show":
		if err := args(1, m.Action+" CARD"); err != nil {
			return nil, err
		}
		c, i, err := s.fromHand(m, 0)
		if err != nil {
			return nil, err
		}
		s.hands[m.Seat] = slices.Delete(s.hands[m.Seat], i, i+1)
		if m.Action == "discard" {
			s.discard = append(s.discard, c)
			return []game.Event{{Type: "discard", Text: fmt.Sprintf("%s discards the %s.", who, c.Name())}}, nil
		}
		s.shown = append(s.shown, Shown{c, m.Seat})
		return []game.Event{{Type: "show", Text: fmt.Sprintf("%s shows the %s to the table.", who, c.Name())}}, nil
	case "pass":
		if err := args(2, "pass CARD PLAYER"); err != nil {
			return nil, err
		}
		to, err := strconv.Atoi(m.Args[1])
		if err != nil || to < 0 || to >= s.players {
			return nil, game.Refuse(m, "pass to a seat from 0 to %d, not %q", s.players-1, m.Args[1])
		}
		if to == m.Seat {
			return nil, game.Refuse(m, "you cannot pass a card to yourself")
		}
		c, i, err := s.fromHand(m, 0)
		if err != nil {
			return nil, err
		}
		s.hands[m.Seat] = slices.Delete(s.hands[m.Seat], i, i+1)
		s.hands[to] = append(s.hands[to], c)
		return []game.Event{
			{Type: "pass", Text: fmt.Sprintf("%s passes a card to %s.", who, game.Seat(to))},
			{Type: "passed", Text: fmt.Sprintf("%s passed you the %s.", who, c.Name()), To: []int{to}},
		}, nil
	case "take":
		if err := args(1, "take CARD"); err != nil {
			return nil, err
		}
		c, err := deck.Parse(m.Args[0])
		if err != nil {
			return nil, game.Refuse(m, "%v", err)
		}
		i := slices.IndexFunc(s.shown, func(sh Shown) bool { return sh.Card == c })
		if i < 0 {
			return nil, game.Refuse(m, "the %s is not shown on the table", c.Name())
		}
		s.shown = slices.Delete(s.shown, i, i+1)
		s.hands[m.Seat] = append(s.hands[m.Seat], c)
		return []game.Event{{Type: "take", Text: fmt.Sprintf("%s takes the %s from the table.", who, c.Name())}}, nil
	case "reshuffle":
		if err := args(0, "reshuffle"); err != nil {
			return nil, err
		}
		n := len(s.discard) + len(s.shown)
		if n == 0 {
			return nil, game.Refuse(m, "there are no discards or shown cards to shuffle back")
		}
		for _, c := range s.shown {
			s.stock = append(s.stock, c.Card)
		}
		s.stock = append(s.stock, s.discard...)
		s.discard, s.shown = nil, nil
		slices.SortFunc(s.stock, cmpCard)
		deck.Shuffle(&s.rng, s.stock)
		return []game.Event{{Type: "reshuffle", Text: fmt.Sprintf("%s shuffles %s back into the stock (%s now).", who, cards(n), cards(len(s.stock)))}}, nil
	case "deal":
		if err := args(1, "deal N"); err != nil {
			return nil, err
		}
		n, err := strconv.Atoi(m.Args[0])
		if err != nil || n < 0 || n > s.all/s.players { // no product: n may be huge
			return nil, game.Refuse(m, "deal from 0 to %d cards each, not %q", s.all/s.players, m.Args[0])
		}
		s.redeal(n)
		return []game.Event{{Type: "deal", Text: fmt.Sprintf("%s gathers every card, shuffles and deals %s to each player.", who, cards(n))}}, nil
	case "roll":
		if err := args(1, "roll 2d6"); err != nil {
			return nil, err
		}
		spec, err := dice.Parse(m.Args[0])
		if err != nil {
			return nil, game.Refuse(m, "%v", err)
		}
		faces, total := spec.Roll(&s.rng)
		s.roll = &Roll{Seat: m.Seat, Dice: spec.String(), Faces: faces, Total: total}
		return []game.Event{{Type: "roll", Text: fmt.Sprintf("%s rolls %s: %s.", who, spec, rollText(faces, total))}}, nil
	case "first":
		if err := args(0, "first"); err != nil {
			return nil, err
		}
		s.first = s.rng.IntN(s.players)
		return []game.Event{{Type: "first", Text: fmt.Sprintf("%s goes first.", game.Seat(s.first))}}, nil
	case "end":
		if err := args(0, "end"); err != nil {
			return nil, err
		}
		s.over = true
		return []game.Event{{Type: "end", Text: fmt.Sprintf("%s puts the cards away.", who)}}, nil
	}
	return nil, game.Refuse(m, "%q is not something the dealer does: draw, discard, pass, show, take, reshuffle, deal, roll, first or end", m.Action)
}

// maxPlayers is the most seats at the table (Info.MaxPlayers).
const maxPlayers = 10

// sit seats a latecomer: seat s.players, with an empty hand.
func (s *State) sit(m game.Move) ([]game.Event, error) {
	switch {
	case len(m.Args) != 0:
		return nil, game.Refuse(m, "write it as %q, with no arguments", Sit)
	case m.Seat >= 0 && m.Seat < s.players && s.players >= maxPlayers:
		// A seated player sitting down again: that is the reason, more
		// than the table being full.
		return nil, game.Refuse(m, "%s already sits at the table, and every one of its %d seats is taken", game.Seat(m.Seat), maxPlayers)
	case m.Seat >= 0 && m.Seat < s.players:
		return nil, game.Refuse(m, "%s already sits at the table: a new player sits down at seat %d, the next one, not at seat %d", game.Seat(m.Seat), s.players, m.Seat)
	case s.players >= maxPlayers:
		return nil, game.Refuse(m, "the table has %d seats and every one is taken", maxPlayers)
	case m.Seat != s.players:
		return nil, game.Refuse(m, "a new player sits down at seat %d, the next one, not at seat %d", s.players, m.Seat)
	}
	s.hands = append(s.hands, nil)
	s.players++
	return []game.Event{{Type: "sat", Text: fmt.Sprintf("%s sits down at the table.", game.Seat(m.Seat))}}, nil
}

func (s *State) fromHand(m game.Move, arg int) (deck.Card, int, error) {
	c, err := deck.Parse(m.Args[arg])
	if err != nil {
		return deck.Card{}, 0, game.Refuse(m, "%v", err)
	}
	i := slices.Index(s.hands[m.Seat], c)
	if i < 0 {
		return deck.Card{}, 0, game.Refuse(m, "the %s is not in your hand", c.Name())
	}
	return c, i, nil
}

func cards(n int) string {
	if n == 1 {
		return "1 card"
	}
	return strconv.Itoa(n) + " cards"
}

func rollText(faces []int, total int) string {
	if len(faces) == 1 {
		return strconv.Itoa(total)
	}
	parts := make([]string, len(faces))
	for i, f := range faces {
		parts[i] = strconv.Itoa(f)
	}
	return strings.Join(parts, " + ") + " = " + strconv.Itoa(total)
}

// View is what a seat sees: its own hand, everyone's hand sizes, the table.
type View struct {
	Seat    int         `json:"seat"`
	Hand    []deck.Card `json:"hand,omitempty"`
	Hands   []int       `json:"hands"` // cards in each player's hand
	Stock   int         `json:"stock"`
	Discard []deck.Card `json:"discard"` // face up, the top last
	Shown   []Shown     `json:"shown"`
	Roll    *Roll       `json:"roll,omitempty"`
	First   int         `json:"first"` // -1 until someone asks
	Over    bool        `json:"over"`
}

// View builds seat's view (game.Table: no hand).
func (s *State) View(seat int) any {
	seat = game.ViewSeat(seat, s.players)
	v := View{Seat: seat, Stock: len(s.stock), Discard: slices.Clone(s.discard), Shown: slices.Clone(s.shown),
		Roll: s.roll, First: s.first, Over: s.over, Hands: make([]int, s.players)}
	if v.Discard == nil {
		v.Discard = []deck.Card{}
	}
	if v.Shown == nil {
		v.Shown = []Shown{}
	}
	for i, h := range s.hands {
		v.Hands[i] = len(h)
	}
	if seat >= 0 && seat < s.players {
		v.Hand = slices.Clone(s.hands[seat])
	}
	return v
}

// Over reports whether someone ended the match.
func (s *State) Over() bool { return s.over }

// Result: nobody wins at the dealer.
func (s *State) Result() game.Result {
	return game.Result{Winners: []int{}, Text: "The cards are put away."}
}

// Clone is a deep copy.
func (s *State) Clone() game.State {
	c := *s
	c.stock = slices.Clone(s.stock)
	c.discard = slices.Clone(s.discard)
	c.shown = slices.Clone(s.shown)
	c.hands = make([][]deck.Card, len(s.hands))
	for i, h := range s.hands {
		c.hands[i] = slices.Clone(h)
	}
	if s.roll != nil {
		r := *s.roll
		r.Faces = slices.Clone(s.roll.Faces)
		c.roll = &r
	}
	return &c
}

// Audit checks that every card is in exactly one place, and that every
// player has a hand.
func (s *State) Audit() error {
	if s.players < 1 || s.players > maxPlayers || len(s.hands) != s.players {
		return fmt.Errorf("%d hands for %d players", len(s.hands), s.players)
	}
	seen := map[deck.Card]int{}
	add := func(cs []deck.Card) {
		for _, c := range cs {
			seen[c]++
		}
	}
	add(s.stock)
	add(s.discard)
	for _, h := range s.hands {
		add(h)
	}
	for _, c := range s.shown {
		seen[c.Card]++
	}
	total := 0
	for c, n := range seen {
		if n != 1 {
			return fmt.Errorf("the %s is in %d places", c.Name(), n)
		}
		total++
	}
	if total != s.all {
		return fmt.Errorf("%d cards of %d are accounted for", total, s.all)
	}
	return nil
}
