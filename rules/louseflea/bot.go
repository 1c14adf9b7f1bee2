package louseflea

import "github.com/tableref/tableref/rules/game"

// bot plays every seat sensibly. It reads only what its seat may know: its
// own hand and the public table (who stands, who holds which identity and
// bug, which identity is called), never the draw pile or other hands.
var bot game.Bot = game.BotFunc(choose)

func choose(st game.State, seat int, r *game.Rand) game.Move {
	s, ok := st.(*state)
	if !ok {
		return game.Random.Choose(st, seat, r)
	}
	h := &s.hand[seat]
	if s.phase == phaseDiscard {
		best, bestV := -1, 1<<30
		for k := 0; k < nKinds; k++ {
			if h[k] > 0 {
				if v := s.worth(seat, k); v < bestV {
					best, bestV = k, v
				}
			}
		}
		return move(seat, ActDiscard, discardArgs[best])
	}
	c := int(s.called)
	nx := s.next(c)
	canStand := h[c] > 0 || h[nx] > 0
	hasBug := int(s.bug[0]) == seat || int(s.bug[1]) == seat
	attachable := -1
	for b := 0; b < 2; b++ {
		if s.canAttach(seat, b) {
			attachable = b
		}
	}
	if h[spring] > 0 && ((hasBug && attachable < 0) || (s.threatened && !canStand)) {
		return move(seat, ActPlay, playArgs[spring])
	}
	k := -1
	switch {
	case canStand && (s.threatened || !s.standing[seat]):
		// stand; threaten the next player if they are up, else pass freely
		if h[nx] > 0 && int(s.owner[nx]) != seat && s.standing[s.owner[nx]] {
			k = nx
		} else if h[c] > 0 {
			k = c
		} else {
			k = nx
		}
	default:
		// sit (or stay as we are on a free turn): aim at someone standing
		k = s.target(seat, r)
	}
	if k < 0 { // only springs left
		return move(seat, ActPlay, playArgs[spring])
	}
	if attachable >= 0 && int(s.owner[k]) != seat {
		return move(seat, ActAttach, attachArgs[k][attachable])
	}
	return move(seat, ActPlay, playArgs[k])
}

// target picks an object card for a turn on which seat will not stand:
// one that calls a standing opponent, the card least worth keeping
// otherwise. It keeps to the must-stand rule.
func (s *state) target(seat int, r *game.Rand) int {
	h := &s.hand[seat]
	must := s.mustStand(seat)
	var cand [nIdent]int
	n := 0
	fallback, fv := -1, 1<<30
	for k := 0; k < s.ids; k++ {
		if h[k] == 0 || must && !s.standsWith(k) {
			continue
		}
		o := int(s.owner[k])
		if o != seat && s.standing[o] {
			cand[n] = k
			n++
		}
		if v := s.worth(seat, k); v < fv {
			fallback, fv = k, v
		}
	}
	if n > 0 {
		return cand[r.IntN(n)]
	}
	return fallback
}

// worth is how much seat wants to keep a card of kind k.
func (s *state) worth(seat, k int) int {
	switch {
	case k == spring:
		return 8
	case k >= nIdent:
		return 0
	case int(s.owner[k]) == seat:
		return 6 // stands when this identity is called
	case int(s.owner[(k+s.ids-1)%s.ids]) == seat:
		return 5 // the next card after one of ours
	case s.standing[s.owner[k]]:
		return 3 // a threat to a standing player
	}
	return 1
}
