package woodlouse

import (
	"slices"
	"strconv"

	"github.com/tableref/tableref/rules/game"
)

// Bot plays Woodlouse Chaos. As trainer it always gives the right code. As
// a guesser it works the card out from the public code, but in the chaos of
// bangs and claps it gets it wrong now and then, with a slip a person would
// make: bangs and claps swapped, one animal too many or too few, or the
// neighbouring sequence card. It never repeats a guess already called wrong
// on the same card. Chances are in percent.
type Bot struct {
	Skill int // a guess is right
	Retry int // after a wrong guess, the guesser tries again rather than passing
	Shy   int // the guesser passes without guessing at all
}

// DefaultBot is the bot the simulator uses.
var DefaultBot = Bot{Skill: 60, Retry: 40, Shy: 10}

// Choose picks seat's move from what seat may know: the code, the sequence
// cards, the wrong guesses so far, and (the trainer only) the card.
func (b Bot) Choose(gs game.State, seat int, r *game.Rand) game.Move {
	s := gs.(*State)
	if c, ok := s.TrainerCard(seat); ok {
		if _, _, given := s.Code(); given {
			return game.M(seat, "pass") // the trainer does not guess; never in Turn now
		}
		return game.M(seat, "code", strconv.Itoa(slices.Index(s.order, c.Species)+1), strconv.Itoa(c.Count))
	}
	if !s.MayGuess(seat) {
		legal := s.Legal(seat)
		if len(legal) == 0 {
			return game.M(seat, "pass")
		}
		return legal[r.IntN(len(legal))]
	}
	pass := game.M(seat, "pass")
	if s.Tries(seat) == 0 {
		if r.IntN(100) < b.Shy {
			return pass
		}
	} else if r.IntN(100) >= b.Retry {
		return pass
	}
	right, ok := s.HeardCard()
	if !ok {
		return pass
	}
	if r.IntN(100) < b.Skill {
		return guessMove(seat, right)
	}
	// A slip: the candidates a person might mishear, less those already
	// called wrong.
	bangs, claps, _ := s.Code()
	var slips [6]Card
	n := 0
	add := func(c Card, err error) {
		if err == nil && c != right && !s.CalledWrong(c) && !slices.Contains(slips[:n], c) {
			slips[n] = c
			n++
		}
	}
	add(s.order.Decode(claps, bangs))
	add(s.order.Decode(bangs, claps-1))
	add(s.order.Decode(bangs, claps+1))
	add(s.order.Decode(bangs-1, claps))
	add(s.order.Decode(bangs+1, claps))
	if n == 0 {
		return guessMove(seat, right)
	}
	return guessMove(seat, slips[r.IntN(n)])
}

func guessMove(seat int, c Card) game.Move {
	return game.M(seat, "guess", string(c.Species), strconv.Itoa(c.Count))
}
