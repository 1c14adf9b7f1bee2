package celestial

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/tableref/tableref/rules/deck"
	"github.com/tableref/tableref/rules/game"
)

// start sets up a battle with the given options (name, value pairs).
func start(t *testing.T, players int, opts ...string) *state {
	t.Helper()
	cfg := game.Config{Players: players, Seed: 1, Options: map[string]string{}}
	for i := 0; i+1 < len(opts); i += 2 {
		cfg.Options[opts[i]] = opts[i+1]
	}
	gs, err := Game.New(cfg)
	require.NoError(t, err)
	require.NoError(t, gs.Audit())
	return gs.(*state)
}

// do applies moves written as text ("0 attack 1") and returns the events of
// the last one.
func do(t *testing.T, s *state, moves ...string) []game.Event {
	t.Helper()
	var evs []game.Event
	for _, text := range moves {
		m, err := game.ParseMove(text)
		require.NoError(t, err)
		evs, err = s.Apply(m)
		require.NoError(t, err, "move %q", text)
		require.NoError(t, s.Audit(), "after %q", text)
	}
	return evs
}

// refused applies a move that must be refused, checks the state is unchanged
// and returns the reason.
func refused(t *testing.T, s *state, text string) string {
	t.Helper()
	m, err := game.ParseMove(text)
	require.NoError(t, err)
	before := *s
	_, err = s.Apply(m)
	require.Error(t, err, "move %q", text)
	require.Equal(t, before, *s, "refused move %q changed the state", text)
	return err.Error()
}

func card(t *testing.T, name string) int {
	t.Helper()
	c, ok := parseCard(name)
	require.True(t, ok, name)
	return c
}

func mask(t *testing.T, names ...string) uint64 {
	t.Helper()
	var m uint64
	for _, n := range names {
		m |= 1 << uint(card(t, n))
	}
	return m
}

// setHand gives seat exactly the named cards, taking them from wherever they
// are; the seat's other cards go to the tied pile, as if lost in ties. The
// count of exchanges is adjusted so the state still audits when the cards
// set aside come to an even number.
func setHand(t *testing.T, s *state, seat int, names ...string) {
	t.Helper()
	m := mask(t, names...)
	for p := 0; p < s.n; p++ {
		s.hand[p] &^= m
	}
	s.discards &^= m
	s.discards |= s.hand[seat]
	s.hand[seat] = m
	won := 0
	for p := 0; p < s.n; p++ {
		won += 2 * s.wins[p]
	}
	s.battles = (won + count(s.discards)) / 2
}

// view marshals seat's view.
func view(t *testing.T, s *state, seat int) string {
	t.Helper()
	b, err := json.Marshal(s.View(seat))
	require.NoError(t, err)
	return string(b)
}

func types(evs []game.Event) []string {
	var ts []string
	for _, e := range evs {
		ts = append(ts, e.Type)
	}
	return ts
}

func texts(evs []game.Event, seat int) string {
	var all string
	for _, e := range evs {
		if e.For(seat) {
			all += e.Text + "\n"
		}
	}
	return all
}

// own names the card of the given rank in seat's clan suit.
func own(s *state, seat, rank int) string {
	return cardNames[indexOf(deck.Card{Rank: deck.Rank(rank), Suit: clanSuits[s.clan[seat]]})]
}
