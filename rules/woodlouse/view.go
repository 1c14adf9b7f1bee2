package woodlouse

import (
	"slices"

	"github.com/tableref/tableref/rules/game"
)

// View is what one seat, or the table, may know. Score piles are face down
// and nobody, their owner included, sees what is in them: the view gives
// their sizes only. The draw pile gives its size. The trainer's card is in
// the trainer's view alone until it is revealed; the code, once given, is
// public, but the view never decodes it (that is the guessers' job).
type View struct {
	Seat      int       `json:"seat"` // game.Table (-1) for the table
	Players   int       `json:"players"`
	Variant   string    `json:"variant"`
	Order     []Species `json:"order"`     // the sequence cards, position 1 (next to the box) first
	Reshuffle bool      `json:"reshuffle"` // whether the sequence is shuffled after each round of trainers
	Trainer   int       `json:"trainer"`
	Round     int       `json:"round"` // round of trainers, from 1
	Phase     string    `json:"phase"` // "code", "guess" or "over"
	Pile      int       `json:"pile"`  // cards left in the draw pile
	Scores    []int     `json:"scores"`

	// Card is the trainer's own card, in the trainer's view only.
	Card string `json:"card,omitempty"`
	// Code is the code as given, once it has been.
	Code *Code `json:"code,omitempty"`
	// Wrong lists the wrong guesses on this card, in order.
	Wrong []Guess `json:"wrong,omitempty"`
	// MayGuess lists the seats that may still guess or pass.
	MayGuess []int `json:"may_guess,omitempty"`
	// Passed lists the seats that passed on this card.
	Passed []int `json:"passed,omitempty"`
	// You are the seat's own standing on this card.
	You *You `json:"you,omitempty"`
	// Last is the card revealed at the end of the previous turn.
	Last *Revealed `json:"last,omitempty"`
	// Values are the animals on each seat's score cards, counted at the end.
	Values []int `json:"values,omitempty"`
	// Result is the outcome, at the end.
	Result *game.Result `json:"result,omitempty"`
}

// Code is a code as the referee heard it.
type Code struct {
	Bangs int `json:"bangs"`
	Claps int `json:"claps"`
}

// Guess is a wrong guess on the current card.
type Guess struct {
	Seat  int    `json:"seat"`
	Guess string `json:"guess"` // "3 rats"
}

// You is a seat's own standing on the current card.
type You struct {
	Trainer  bool `json:"trainer"`
	MayGuess bool `json:"may_guess"`
	Guesses  int  `json:"guesses"`          // guesses made on this card
	FreeUsed bool `json:"free_used"`        // a guess made with an empty score pile on this card
	Passed   bool `json:"passed,omitempty"` // passed on this card
}

// Revealed is a card shown to everyone at the end of a turn.
type Revealed struct {
	Card string `json:"shown"`
	How  string `json:"how"`
}

// View is what seat may know; game.Table gives the public view.
func (s *State) View(seat int) any {
	seat = game.ViewSeat(seat, s.players)
	v := View{
		Seat:      seat,
		Players:   s.players,
		Variant:   s.variant,
		Order:     slices.Clone(s.order),
		Reshuffle: !s.fixed,
		Trainer:   s.trainer,
		Round:     s.turns/s.players + 1,
		Phase:     s.phase.String(),
		Pile:      len(s.pile),
		Scores:    make([]int, s.players),
	}
	for i, p := range s.scores {
		v.Scores[i] = len(p)
	}
	if s.phase == phaseOver {
		v.Round = (s.turns-1)/s.players + 1
		v.Values = make([]int, s.players)
		for i, p := range s.scores {
			for _, id := range p {
				v.Values[i] += cardOf(id).Count
			}
		}
		r := s.Result()
		v.Result = &r
	}
	if s.phase != phaseOver && seat == s.trainer {
		v.Card = cardOf(s.card).String()
	}
	if s.phase == phaseGuess {
		v.Code = &Code{s.bangs, s.claps}
		for _, g := range s.guesses {
			v.Wrong = append(v.Wrong, Guess{g.seat, g.guess.String()})
		}
		for i := range s.players {
			if s.mayGuess(i) {
				v.MayGuess = append(v.MayGuess, i)
			}
			if s.passed[i] {
				v.Passed = append(v.Passed, i)
			}
		}
	}
	if seat >= 0 && seat < s.players && s.phase != phaseOver {
		v.You = &You{
			Trainer:  seat == s.trainer,
			MayGuess: s.mayGuess(seat),
			Guesses:  int(s.tries[seat]),
			FreeUsed: s.free[seat],
			Passed:   s.passed[seat],
		}
	}
	if s.last >= 0 {
		v.Last = &Revealed{Card: cardOf(uint8(s.last)).String(), How: s.lastHow}
	}
	return v
}

// Order is the sequence cards as they lie now, position 1 first (a copy).
func (s *State) Order() Order { return slices.Clone(s.order) }

// Trainer is the trainer's seat.
func (s *State) Trainer() int { return s.trainer }

// Code is the code the trainer gave for the current card, once accepted.
func (s *State) Code() (bangs, claps int, given bool) {
	if s.phase != phaseGuess {
		return 0, 0, false
	}
	return s.bangs, s.claps, true
}

// HeardCard is the card the given code stands for, read against the
// sequence cards: what every guesser can work out from the code.
func (s *State) HeardCard() (Card, bool) {
	if s.phase != phaseGuess {
		return Card{}, false
	}
	c, err := s.order.Decode(s.bangs, s.claps)
	return c, err == nil
}

// TrainerCard is the trainer's card, told to the trainer's seat only.
func (s *State) TrainerCard(seat int) (Card, bool) {
	if seat != s.trainer || s.phase == phaseOver {
		return Card{}, false
	}
	return cardOf(s.card), true
}

// MayGuess reports whether seat may still guess or pass on this card.
func (s *State) MayGuess(seat int) bool {
	return seat >= 0 && seat < s.players && s.mayGuess(seat)
}

// Tries is the number of guesses seat has made on this card.
func (s *State) Tries(seat int) int {
	if seat < 0 || seat >= s.players {
		return 0
	}
	return int(s.tries[seat])
}

// CalledWrong reports whether c has been called, wrongly, on this card.
func (s *State) CalledWrong(c Card) bool {
	for _, g := range s.guesses {
		if g.guess == c {
			return true
		}
	}
	return false
}
