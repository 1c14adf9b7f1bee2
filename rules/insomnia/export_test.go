package insomnia

import (
	"fmt"

	"github.com/tableref/tableref/rules/deck"
	"github.com/tableref/tableref/rules/game"
)

// Leaky is the game with views that show every secret, to prove the
// secrecy check notices.
var Leaky game.Game = gameImpl{leak: true}

// Arranged stages a match: cards names voice 1 to 6's cards, then the top
// of the sleeper's deck (the first is drawn at once); the other cards follow
// in the fresh-deck order.
func Arranged(players int, opts map[string]string, cards ...string) (game.State, error) {
	var order []deck.Card
	var used uint64
	for _, name := range cards {
		c, err := deck.Parse(name)
		if err != nil {
			return nil, err
		}
		if used&bit(c) != 0 {
			return nil, fmt.Errorf("%s twice", name)
		}
		used |= bit(c)
		order = append(order, c)
	}
	for _, c := range deck.New(0) {
		if used&bit(c) == 0 {
			order = append(order, c)
		}
	}
	o := map[string]string{OptAces: AcesLow, OptNotes: NotesYes}
	for k, v := range opts {
		o[k] = v
	}
	return gameImpl{}.arranged(players, o, game.NewRand(0), order)
}

// Pile is the sleeper's deck still to draw, top first (the table's secret).
func Pile(s game.State) []deck.Card {
	st := s.(*state)
	return append([]deck.Card(nil), st.pile[st.drawn:]...)
}

// Hand is the sleeper's current card and whether the sleeper holds one
// unshown.
func Hand(s game.State) (deck.Card, bool) {
	st := s.(*state)
	return st.card, st.phase == phaseShow
}

// VoiceCard is voice v's (1 to 6) card, its holder and whether it is silent.
func VoiceCard(s game.State, v int) (deck.Card, int, bool) {
	vc := s.(*state).voices[v-1]
	return vc.card, vc.seat, vc.silent
}

// ShownTo is a card the sleeper has shown and the seat of the voice it was
// shown to.
type ShownTo struct {
	Card deck.Card
	Seat int
}

// Shown lists the cards shown so far, and the one being shown now.
func Shown(s game.State) []ShownTo {
	st := s.(*state)
	var out []ShownTo
	for i := 0; i < st.nDiscards; i++ {
		out = append(out, ShownTo{st.discards[i], st.voices[st.clues[i].voice].seat})
	}
	if st.phase == phaseAnswer {
		out = append(out, ShownTo{st.card, st.voices[st.asked].seat})
	}
	return out
}

// Public reports whether the match plays with shown=public.
func Public(s game.State) bool { return s.(*state).public }
