package insomnia

import "github.com/tableref/tableref/rules/game"

// bot plays from what its seat may know: the sleeper's deductions (every
// card each voice may still hold, given the cards shown and the answers
// heard) and the card in hand; a voice, its own card and what the cards
// shown to it and its answers tell the sleeper (with shown=public, the
// table's deductions from every shown card).
//
// The sleeper shows its card to the voice most likely to be silenced by it;
// when no voice can be, to the voice about which the answer must teach the
// most (the fewest candidates left after the least telling answer). A voice
// gives the true answer that leaves the table the most candidates for its
// card, keeping its colour answer when another is as vague.
type bot struct{}

func (bot) Choose(gs game.State, seat int, r *game.Rand) game.Move {
	s, ok := gs.(*state)
	if !ok || s.phase == phaseOver {
		return game.Random.Choose(gs, seat, r)
	}
	if s.phase == phaseShow {
		return game.M(seat, "show", voiceArgs[s.sleeperPick(r)])
	}
	return game.M(seat, answerNames[s.voicePick()])
}

func (s *state) sleeperPick(r *game.Rand) int {
	x := s.card
	hb, tw := bit(x), bit(twin(x))
	h := b2i(s.aceHigh)
	xv := value(x, s.aceHigh)
	opp := redMask
	if x.Red() {
		opp = blackMask
	}
	best, ties := -1, 0
	var bestScore float64
	for v := range s.voices {
		vc := &s.voices[v]
		if vc.silent {
			continue
		}
		m := s.known[v] &^ hb
		n := count(m)
		if n == 0 {
			n = 1
		}
		score := float64(count(m&tw)) / float64(n) * 1000
		if score == 0 {
			rest := m &^ tw
			worst := max(count(rest&above[h][xv]), count(rest&below[h][xv]))
			if vc.colourSaid {
				worst = max(worst, count(rest&opp&rankMask[x.Rank]))
			} else {
				worst = max(worst, count(rest&opp))
			}
			score = float64(n-worst) / float64(n)
		}
		switch {
		case best < 0 || score > bestScore:
			best, bestScore, ties = v, score, 1
		case score == bestScore:
			ties++
			if r.IntN(ties) == 0 {
				best = v
			}
		}
	}
	return best
}

// voiceKnows is what the player of voice v can tell the sleeper knows of
// v's card: with shown=public the table's deductions; otherwise only what
// the cards shown to v and v's answers rule out (the player never sees the
// cards shown to other voices).
func (s *state) voiceKnows(v int) uint64 {
	if s.public {
		return s.known[v]
	}
	h := b2i(s.aceHigh)
	m := all52
	for i := 0; i < s.nClues; i++ {
		cl := s.clues[i]
		if int(cl.voice) != v {
			continue
		}
		xv := value(cl.shown, s.aceHigh)
		m &^= bit(cl.shown) | bit(twin(cl.shown))
		switch cl.answer {
		case ansHigher:
			m &= above[h][xv]
		case ansLower:
			m &= below[h][xv]
		case ansNotRed:
			m &= blackMask
		case ansNotBlack:
			m &= redMask
		}
	}
	return m
}

func (s *state) voicePick() int8 {
	v := s.asked
	x := s.card
	h := b2i(s.aceHigh)
	xv := value(x, s.aceHigh)
	m := s.voiceKnows(v) &^ (bit(x) | bit(twin(x)))
	best, bestN := int8(-1), -1
	for a := ansHigher; a <= ansNotBlack; a++ {
		if !s.canSay(a) {
			continue
		}
		var n int
		switch a {
		case ansHigher:
			n = count(m & above[h][xv])
		case ansLower:
			n = count(m & below[h][xv])
		case ansNotRed:
			n = count(m & blackMask)
		case ansNotBlack:
			n = count(m & redMask)
		}
		if n > bestN { // on a tie the rank answer, listed first, keeps the colour answer
			best, bestN = a, n
		}
	}
	return best
}
