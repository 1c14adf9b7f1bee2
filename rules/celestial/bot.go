package celestial

import (
	"math/bits"
	"strconv"

	"github.com/tableref/tableref/rules/game"
)

// bot is a plain fighter. It reads only what its seat may know: its own
// hand, everyone's card and trick counts, who is fighting and who won the
// last exchange (all in its View), never another hand or a face-down card.
//
// It keeps in mind a "keeper", the card it hopes to hold at the end: the
// highest card no more than the tricks it expects (those it has plus one for
// every other fight it has cards for), or its lowest card when none is.
// It fights with the other cards, attacks whoever holds the most cards (so
// nobody sits out and collects tricks at the end), and discards its lowest
// spare card.
type bot struct{}

func (bot) Choose(gs game.State, seat int, r *game.Rand) game.Move {
	s, ok := gs.(*state)
	if !ok {
		return game.Random.Choose(gs, seat, r)
	}
	hand := s.hand[seat]
	switch s.phase {
	case phaseAttack:
		best, most, ties := -1, 0, 0
		for t := 0; t < s.n; t++ {
			if t == seat || s.out[t] {
				continue
			}
			c := count(s.hand[t])
			switch {
			case c > most:
				best, most, ties = t, c, 1
			case c == most:
				ties++
				if r.IntN(ties) == 0 {
					best = t
				}
			}
		}
		return game.M(seat, "attack", strconv.Itoa(best))
	case phasePlay:
		// the fights left are about one per card beyond the last, won about
		// half the time
		keep := s.keeper1(hand, s.tricks(seat)+(count(hand)-1)/2)
		spare := hand &^ keep
		c := 63 - bits.LeadingZeros64(highest(spare))
		if r.IntN(2) == 0 {
			c = nth(spare, r.IntN(count(spare)))
		}
		return game.M(seat, "play", cardNames[c])
	case phaseDiscard:
		t := s.tricks(seat)
		if int(s.last.winner) == seat {
			t++
		}
		keep := s.keeper1(hand, t+(count(hand)-1)/2)
		spare := hand &^ keep
		return game.M(seat, "discard", cardNames[lowest(spare)])
	case phaseKeep:
		keep := s.keeper1(hand, s.tricks(seat)+count(hand)-1)
		return game.M(seat, "keep", cardNames[bits.TrailingZeros64(keep)])
	}
	return game.Random.Choose(gs, seat, r)
}

// keeper1 is the card of hand (as a one-bit mask) best to end with when
// expecting t tricks.
func (s *state) keeper1(hand uint64, t int) uint64 {
	var best uint64
	bestRank, lowRank := 0, 14
	var low uint64
	for m := hand; m != 0; m &= m - 1 {
		i := bits.TrailingZeros64(m)
		r := rankOf(i)
		ok := r <= t
		if s.below {
			ok = r < t
		}
		if ok && r > bestRank {
			best, bestRank = 1<<uint(i), r
		}
		if r < lowRank {
			low, lowRank = 1<<uint(i), r
		}
	}
	if best != 0 {
		return best
	}
	return low
}

// highest is the card of highest rank in m, as a one-bit mask.
func highest(m uint64) uint64 {
	var best uint64
	br := 0
	for ; m != 0; m &= m - 1 {
		i := bits.TrailingZeros64(m)
		if r := rankOf(i); r > br {
			best, br = 1<<uint(i), r
		}
	}
	return best
}

// lowest is the index of the card of lowest rank in m.
func lowest(m uint64) int {
	best, br := 0, 14
	for ; m != 0; m &= m - 1 {
		i := bits.TrailingZeros64(m)
		if r := rankOf(i); r < br {
			best, br = i, r
		}
	}
	return best
}

// nth is the index of the k-th card of m.
func nth(m uint64, k int) int {
	for ; k > 0; k-- {
		m &= m - 1
	}
	return bits.TrailingZeros64(m)
}
