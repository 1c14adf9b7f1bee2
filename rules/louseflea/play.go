package louseflea

import (
	"strconv"
	"strings"

	"github.com/tableref/tableref/rules/game"
)

// Actions.
const (
	ActPlay    = "play"
	ActAttach  = "attach"
	ActDiscard = "discard"
)

// canStandWith reports whether playing kind k keeps the called player up.
func (s *state) standsWith(k int) bool {
	return k == int(s.called) || k == s.next(int(s.called))
}

// mustStand reports whether the called player is held to playing their own
// card or the next one.
func (s *state) mustStand(seat int) bool {
	if s.o.choice || !s.threatened {
		return false
	}
	c := int(s.called)
	return s.hand[seat][c] > 0 || s.hand[seat][s.next(c)] > 0
}

// canAttach reports whether seat may pass bug b (0 louse, 1 flea) now.
func (s *state) canAttach(seat, b int) bool {
	return int(s.bug[b]) == seat && s.turnNo > s.bugSince[b]
}

func (s *state) Legal(seat int) []game.Move {
	switch {
	case seat < 0 || seat >= s.n:
		return nil
	case s.phase == phaseDiscard && int(s.discarder) == seat:
		var ms []game.Move
		for k := 0; k < nKinds; k++ {
			if s.hand[seat][k] > 0 {
				ms = append(ms, game.M(seat, ActDiscard, kindNames[k]))
			}
		}
		return ms
	case s.phase != phasePlay || int(s.owner[s.called]) != seat:
		return nil
	}
	var ms []game.Move
	must := s.mustStand(seat)
	for k := 0; k < s.ids; k++ {
		if s.hand[seat][k] == 0 || must && !s.standsWith(k) {
			continue
		}
		ms = append(ms, game.M(seat, ActPlay, kindNames[k]))
		if int(s.owner[k]) == seat {
			continue
		}
		for b := 0; b < 2; b++ {
			if s.canAttach(seat, b) {
				ms = append(ms, game.M(seat, ActAttach, kindNames[k], kindNames[louse+b]))
			}
		}
	}
	if s.hand[seat][spring] > 0 {
		ms = append(ms, game.M(seat, ActPlay, kindNames[spring]))
	}
	return ms
}

func (s *state) Apply(m game.Move) ([]game.Event, error) {
	if s.phase == phaseOver {
		return nil, game.ErrOver
	}
	if m.Seat < 0 || m.Seat >= s.n {
		return nil, game.Refuse(m, "there is no seat %d at this table of %d", m.Seat, s.n)
	}
	switch m.Action {
	case ActPlay, ActAttach, ActDiscard:
	default:
		return nil, game.Refuse(m, "there is no action %q here: the actions are play, attach and discard", m.Action)
	}
	if s.phase == phaseDiscard {
		if m.Seat != int(s.discarder) {
			return nil, game.RefuseTurn(m, "wait: %s must discard a card first", ref(int(s.discarder)))
		}
		if m.Action != ActDiscard {
			return nil, game.Refuse(m, "you must discard a card first, for the bug now in front of you")
		}
		return s.applyDiscard(m)
	}
	p := int(s.owner[s.called])
	if m.Seat != p && m.Action == ActDiscard {
		// A discard from a seat owing none (a second tap after its
		// discard, say): nothing is owed, which is the reason.
		return nil, game.RefuseTurn(m, "there is nothing to discard now: %s plays, as the %s", ref(p), kindNames[s.called])
	}
	if m.Seat != p {
		return nil, game.RefuseTurn(m, "it is not your turn: %s plays now, as the %s", ref(p), kindNames[s.called])
	}
	switch m.Action {
	case ActDiscard:
		return nil, game.Refuse(m, "there is nothing to discard now: play a card")
	case ActPlay:
		if len(m.Args) != 1 {
			return nil, game.Refuse(m, "play takes one card, like \"play broom\" or \"play spring\"")
		}
		k, err := s.checkCard(m, m.Args[0])
		if err != nil {
			return nil, err
		}
		switch k {
		case louse, flea:
			return nil, game.Refuse(m, "the %s is not played alone: attach it to an object card (\"attach tree %s\")", kindNames[k], kindNames[k])
		case spring:
			if s.hand[p][spring] == 0 {
				return nil, game.Refuse(m, "you hold no spring")
			}
			return s.applySpring(p), nil
		}
		if err := s.checkObject(m, p, k); err != nil {
			return nil, err
		}
		return s.applyPlay(p, k, -1), nil
	default: // attach
		if len(m.Args) != 2 {
			return nil, game.Refuse(m, "attach takes an object card and a bug, like \"attach tree louse\"")
		}
		k, err := s.checkCard(m, m.Args[0])
		if err != nil {
			return nil, err
		}
		b, err := s.checkCard(m, m.Args[1])
		if err != nil {
			return nil, err
		}
		if (k == louse || k == flea) && b < nIdent {
			// The bug named first: the words are the wrong way round.
			return nil, game.Refuse(m, "name the object card first, then the bug: \"attach %s %s\"", kindNames[b], kindNames[k])
		}
		if b != louse && b != flea {
			return nil, game.Refuse(m, "only the louse or the flea can be attached, not %s", kindNames[b])
		}
		if k >= nIdent {
			return nil, game.Refuse(m, "the %s rides on an object card, not on the %s", kindNames[b], kindNames[k])
		}
		// The bug first: a bug that is not the player's to pass on is the
		// reason, whatever the object card.
		bi := b - louse
		switch {
		case int(s.bug[bi]) != p:
			return nil, game.Refuse(m, "the %s is not in front of you", kindNames[b])
		case s.turnNo <= s.bugSince[bi]:
			return nil, game.Refuse(m, "the %s must stay in front of you for a full turn before you pass it on", kindNames[b])
		}
		if err := s.checkObject(m, p, k); err != nil {
			return nil, err
		}
		switch {
		case int(s.owner[k]) == p:
			return nil, game.Refuse(m, "the %s would come back to you: attach it to another player's card", kindNames[b])
		}
		return s.applyPlay(p, k, bi), nil
	}
}

// checkCard reads a card name.
func (s *state) checkCard(m game.Move, w string) (int, error) {
	k := parseKind(w)
	if k < 0 {
		return -1, game.Refuse(m, "%q is not a card: the cards are %s", w, strings.Join(kindNames[:], ", "))
	}
	if k < nIdent && k >= s.ids {
		return -1, game.Refuse(m, "there are no %s cards in this game", kindNames[k])
	}
	return k, nil
}

// checkObject checks that p may play object card k now.
func (s *state) checkObject(m game.Move, p, k int) error {
	if s.hand[p][k] == 0 {
		return game.Refuse(m, "you hold no %s card", kindNames[k])
	}
	if s.mustStand(p) && !s.standsWith(k) {
		c := int(s.called)
		return game.Refuse(m, "you hold a %s or %s card, so you must play it and stay standing", kindNames[c], kindNames[s.next(c)])
	}
	return nil
}

func (s *state) applyDiscard(m game.Move) ([]game.Event, error) {
	if len(m.Args) != 1 {
		return nil, game.Refuse(m, "discard takes one card, like \"discard cart\"")
	}
	k, err := s.checkCard(m, m.Args[0])
	if err != nil {
		return nil, err
	}
	p := m.Seat
	if s.hand[p][k] == 0 {
		return nil, game.Refuse(m, "you hold no %s card", kindNames[k])
	}
	s.hand[p][k]--
	s.discard = append(s.discard, uint8(k))
	ev := make([]game.Event, 1, 4)
	ev[0] = game.Event{Type: "discard", Text: discardText[p][k]}
	return s.advance(ev), nil
}

// applyPlay plays object card k from p's hand, with bug b attached (or -1).
func (s *state) applyPlay(p, k, b int) []game.Event {
	ev := make([]game.Event, 0, 6)
	c := int(s.called)
	s.hand[p][k]--
	s.discard = append(s.discard, uint8(k))
	s.last = int8(k)
	was := s.standing[p]
	mode := playFree
	switch {
	case s.standsWith(k):
		s.standing[p] = true
		mode = playStay
		if !was {
			mode = playUp
		}
	case s.threatened:
		s.standing[p] = false
		mode = playSit
		if !was {
			mode = playSeated
		}
	}
	text := playText[p][k][mode]
	ev = append(ev, game.Event{Type: "play", Text: text})
	s.turnNo++
	q := int(s.owner[k])
	if b >= 0 {
		s.bug[b] = int8(q)
		s.bugSince[b] = s.turnNo
		s.limit[p]++
		s.limit[q]--
		if s.count(q) > 0 {
			s.owed = int8(q)
			ev = append(ev, game.Event{Type: "attach", Text: ref(p) + " attaches the " + kindNames[louse+b] + " to it: " + ref(q) +
				" takes it, hand limit now " + strconv.Itoa(int(s.limit[q])) + ", and discards a card."})
		} else {
			s.bare = int8(q)
			ev = append(ev, game.Event{Type: "attach", Text: ref(p) + " attaches the " + kindNames[louse+b] + " to it: " + ref(q) +
				" takes it, hand limit now " + strconv.Itoa(int(s.limit[q])) + ", with no card in hand to discard."})
		}
	}
	if s.standingCount() == 1 {
		for w := 0; w < s.n; w++ {
			if s.standing[w] {
				s.finish([]int{w}, winText[w])
				ev = append(ev, game.Event{Type: "win", Text: s.endText})
			}
		}
		return ev
	}
	if k == c {
		s.called = int8(s.next(c))
		s.threatened = false
		nq := int(s.owner[s.called])
		ev = append(ev, game.Event{Type: "turn", Text: freeText[nq][s.called]})
	} else {
		s.called = int8(k)
		s.threatened = true
		ev = append(ev, game.Event{Type: "called", Text: calledText[s.ids-3][q][k]})
	}
	s.refill, s.refillSince = int8(p), s.turnNo
	return s.advance(ev)
}

// applySpring plays a spring: bugs and hand go to the discard pile, the
// limit goes back to four and a fresh hand is drawn. The turn goes on.
func (s *state) applySpring(p int) []game.Event {
	ev := make([]game.Event, 0, 6)
	s.hand[p][spring]--
	s.discard = append(s.discard, spring)
	text := ref(p) + " plays a spring"
	for b := 0; b < 2; b++ {
		if int(s.bug[b]) == p {
			s.bug[b] = -1
			s.discard = append(s.discard, uint8(louse+b))
			text += ", washing away the " + kindNames[louse+b]
		}
	}
	n := 0
	for k := 0; k < nKinds; k++ {
		for ; s.hand[p][k] > 0; s.hand[p][k]-- {
			s.discard = append(s.discard, uint8(k))
			n++
		}
	}
	s.limit[p] = fullHand
	text += ", discards " + strconv.Itoa(n) + " card(s) and draws a fresh hand; the turn goes on."
	ev = append(ev, game.Event{Type: "spring", Text: text})
	s.refill, s.refillSince = int8(p), s.turnNo+1 // the bug waits out the next turn in full
	return s.advance(ev)
}

// finish ends the game.
func (s *state) finish(winners []int, text string) {
	s.phase = phaseOver
	s.winners = winners
	s.endText = text
	s.refill, s.owed, s.bare = -1, -1, -1
}

// advance runs the table's own steps (set-up deal, refills, the start card,
// discards owed) until a player must decide something or the game ends.
func (s *state) advance(ev []game.Event) []game.Event {
	for s.phase != phaseOver {
		switch {
		case s.refill >= 0:
			var stop bool
			ev, stop = s.fill(int(s.refill), ev)
			if stop {
				return ev
			}
			s.refill = -1
		case int(s.dealt) < s.n:
			s.refill, s.refillSince = s.dealt, s.turnNo
			s.dealt++
		case !s.started:
			ev = s.turnUpStart(ev)
		case s.owed >= 0:
			q := int(s.owed)
			s.owed = -1
			s.phase = phaseDiscard
			s.discarder = int8(q)
			return ev
		case s.bare >= 0:
			// Given a bug with no card in hand: nothing to discard, and
			// nothing to play, so the receiver draws up to its new limit
			// before taking the turn (no real deal leaves a hand empty).
			q := int(s.bare)
			s.bare = -1
			if s.count(q) == 0 {
				s.refill, s.refillSince = int8(q), s.turnNo
				ev = append(ev, game.Event{Type: "empty-hand", Text: ref(q) + " has no card to play and draws first."})
			}
		default:
			s.phase = phasePlay
			s.discarder = -1
			return ev
		}
	}
	return ev
}

// fill draws for seat up to its hand limit. It stops early (true) when a
// drawn bug calls for a discard or an empty pile ends the game.
func (s *state) fill(seat int, ev []game.Event) ([]game.Event, bool) {
	var got [fullHand]uint8
	n := 0
	flush := func(ev []game.Event) []game.Event {
		if n == 0 || !s.started {
			n = 0
			return ev // the deal is seen in the views; set-up has no events
		}
		ev = append(ev,
			game.Event{Type: "draw", Text: drawText[seat][n]},
			game.Event{Type: "drawn", Text: drawnText(got[:n]), To: only(seat)})
		n = 0
		return ev
	}
	since := s.refillSince
	for s.count(seat) < int(s.limit[seat]) {
		k, ok := s.pop(&ev)
		if !ok {
			ev = flush(ev)
			if s.o.endOnEmpty {
				s.endDeckOut(&ev)
				return ev, true
			}
			return ev, false
		}
		if k != louse && k != flea {
			s.hand[seat][k]++
			got[n] = uint8(k)
			n++
			continue
		}
		ev = flush(ev)
		b := k - louse
		s.bug[b] = int8(seat)
		s.bugSince[b] = since
		s.limit[seat]--
		if s.started {
			ev = append(ev, game.Event{Type: "bug", Text: ref(seat) + " draws the " + kindNames[k] + ": it goes in front of them and their hand limit drops to " +
				strconv.Itoa(int(s.limit[seat])) + "."})
		}
		if s.count(seat) > 0 {
			s.phase = phaseDiscard
			s.discarder = int8(seat)
			return ev, true
		}
	}
	ev = flush(ev)
	return ev, false
}

// pop takes the top card of the draw pile, reshuffling the discard pile
// into it when empty (unless the deck-out option ends the game instead).
func (s *state) pop(ev *[]game.Event) (int, bool) {
	if len(s.draw) == 0 {
		if s.o.endOnEmpty || len(s.discard) == 0 {
			return -1, false
		}
		// the top card stays face up; the rest becomes the new draw pile
		top := len(s.discard) - 1
		if top == 0 {
			top = 1
		}
		s.draw = append(s.draw[:0], s.discard[:top]...)
		s.discard = append(s.discard[:0], s.discard[top:]...)
		game.ShuffleSlice(&s.rng, s.draw)
		if s.started {
			*ev = append(*ev, game.Event{Type: "reshuffle", Text: "The draw pile is empty: the discard pile, all but its top card, is shuffled into a new one."})
		}
	}
	k := s.draw[len(s.draw)-1]
	s.draw = s.draw[:len(s.draw)-1]
	return int(k), true
}

// turnUpStart turns up cards until an object card shows: its identity is
// the first to play, and must stand or sit as if it had been played.
func (s *state) turnUpStart(ev []game.Event) []game.Event {
	var skipped []uint8
	start := -1
	for start < 0 {
		k, ok := s.pop(&ev)
		if !ok {
			start = door // cannot happen: the deal leaves dozens of cards
			break
		}
		if k < nIdent {
			start = k
			break
		}
		skipped = append(skipped, uint8(k))
	}
	if s.o.shuffleBack && len(skipped) > 0 {
		s.draw = append(s.draw, skipped...)
		game.ShuffleSlice(&s.rng, s.draw)
	} else {
		s.discard = append(s.discard, skipped...)
	}
	s.discard = append(s.discard, uint8(start))
	s.started = true
	s.called = int8(start)
	s.threatened = true
	s.last = int8(start)
	return ev
}

// endDeckOut ends the game on an empty draw pile: those standing share.
func (s *state) endDeckOut(ev *[]game.Event) {
	var w []int
	names := ""
	for p := 0; p < s.n; p++ {
		if s.standing[p] {
			if names != "" {
				names += ", "
			}
			names += ref(p)
			w = append(w, p)
		}
	}
	s.finish(w, "The draw pile ran out with "+names+" still standing: they share the win.")
	*ev = append(*ev, game.Event{Type: "deck-out", Text: s.endText})
}
