package dealer

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/rules/deck"
	"github.com/tableref/tableref/rules/game"
	"github.com/tableref/tableref/rules/game/gametest"
)

// secrets: each card in owner's hand (a card is somewhere once, so its name
// in quotes cannot appear in another seat's view unless it leaked); for the
// table, the stock's order.
func secrets(gs game.State, owner int) []string {
	s := gs.(*State)
	var out []string
	if owner == game.Table {
		if len(s.stock) > 1 {
			b, _ := json.Marshal(s.stock)
			out = append(out, string(b))
		}
		return out
	}
	for _, c := range s.hands[owner] {
		out = append(out, gametest.Alias(`"`+c.String()+`"`, "the "+c.Name()))
	}
	return out
}

// notHeld are well-formed moves the dealer refuses: discarding, showing or
// passing a card the seat does not hold.
func notHeld(gs game.State, seat int) []game.Move {
	s := gs.(*State)
	var out []game.Move
	for _, c := range deck.New(0) {
		if !slices.Contains(s.hands[seat], c) && len(out) < 6 {
			out = append(out, game.M(seat, "discard", c.String()), game.M(seat, "pass", c.String(), strconv.Itoa((seat+1)%s.players)))
		}
	}
	return out
}

func TestRandomPlayKeepsEveryPromise(t *testing.T) {
	gametest.Run(t, gametest.Check{
		Game: Game,
		Configs: []game.Config{
			{Players: 1}, {Players: 4}, {Players: 10, Options: map[string]string{"cards": "5", "jokers": "2"}},
			{Players: 3, Options: map[string]string{"cards": "0"}},
		},
		Games:   300,
		Secrets: secrets,
		Illegal: notHeld,
	})
}

func start(t *testing.T, players int, opts map[string]string) *State {
	t.Helper()
	s, err := Game.New(game.Config{Players: players, Seed: 7, Options: opts})
	require.NoError(t, err)
	return s.(*State)
}

func apply(t *testing.T, s *State, seat int, action string, args ...string) []game.Event {
	t.Helper()
	ev, err := s.Apply(game.M(seat, action, args...))
	require.NoError(t, err, "%d %s %v", seat, action, args)
	require.NoError(t, s.Audit())
	return ev
}

func TestEveryoneIsDealtTheirCardsAndTheRestIsTheStock(t *testing.T) {
	s := start(t, 4, nil)
	for i := 0; i < 4; i++ {
		assert.Len(t, s.hands[i], 5)
	}
	assert.Len(t, s.stock, 52-20)
	s = start(t, 3, map[string]string{"jokers": "2", "cards": "7"})
	assert.Len(t, s.stock, 54-21)
	_, err := Game.New(game.Config{Players: 10, Options: map[string]string{"cards": "6"}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "needs 60 cards")
}

func TestTheSameSeedDealsTheSameHands(t *testing.T) {
	a, b := start(t, 4, nil), start(t, 4, nil)
	assert.Equal(t, a.hands, b.hands)
	c, _ := Game.New(game.Config{Players: 4, Seed: 8})
	assert.NotEqual(t, a.hands, c.(*State).hands)
}

func TestADrawnCardIsToldOnlyToItsDrawer(t *testing.T) {
	s := start(t, 3, nil)
	top := s.stock[len(s.stock)-1]
	ev := apply(t, s, 1, "draw")
	require.Len(t, ev, 2)
	assert.True(t, ev[0].Public())
	assert.NotContains(t, ev[0].Text, top.Name())
	assert.Equal(t, []int{1}, ev[1].To)
	assert.Contains(t, ev[1].Text, top.Name())
	assert.Contains(t, s.hands[1], top)
}

func TestDiscardingAndShowingPutTheCardFaceUp(t *testing.T) {
	s := start(t, 3, nil)
	a, b := s.hands[0][0], s.hands[0][1]
	apply(t, s, 0, "discard", a.String())
	apply(t, s, 0, "show", strings.ToLower(b.String()))
	v := s.View(2).(View)
	assert.Equal(t, []deck.Card{a}, v.Discard)
	assert.Equal(t, []Shown{{b, 0}}, v.Shown)
	assert.Equal(t, []int{3, 5, 5}, v.Hands)
	apply(t, s, 2, "take", b.String())
	assert.Contains(t, s.hands[2], b)
}

func TestAPassedCardGoesFaceDownToItsReceiver(t *testing.T) {
	s := start(t, 3, nil)
	c := s.hands[0][2]
	assert.Contains(t, s.Legal(0), game.M(0, "pass", c.String(), "1"))
	assert.Contains(t, s.Legal(0), game.M(0, "pass", c.String(), "2"))
	assert.NotContains(t, s.Legal(0), game.M(0, "pass", c.String(), "0"), "not to oneself")
	assert.NotContains(t, s.Legal(0), game.M(0, "pass", c.String(), "3"), "seats count from 0, as in every move")
	ev := apply(t, s, 0, "pass", c.String(), "2")
	assert.Contains(t, s.hands[2], c)
	assert.NotContains(t, ev[0].Text, c.Name(), "the table hears that a card was passed, not which")
	assert.Equal(t, []int{2}, ev[1].To)
}

func TestRefusalsSayWhy(t *testing.T) {
	s := start(t, 3, map[string]string{"cards": "2"})
	notMine := s.hands[1][0].String()
	for _, c := range []struct {
		move game.Move
		want string
	}{
		{game.M(0, "discard", notMine), "not in your hand"},
		{game.M(0, "discard", "ZZ"), "card"},
		{game.M(0, "pass", s.hands[0][0].String(), "0"), "yourself"},
		{game.M(0, "pass", s.hands[0][0].String(), "3"), "from 0 to 2"},
		{game.M(0, "pass", s.hands[0][0].String(), "-1"), "from 0 to 2"},
		{game.M(0, "deal", "4611686018427387904"), "from 0 to 17"},
		{game.M(0, "take", "AS"), "not shown"},
		{game.M(0, "reshuffle"), "no discards"},
		{game.M(0, "deal", "20"), "from 0 to 17"},
		{game.M(0, "roll", "2x6"), "d"},
		{game.M(0, "juggle"), "not something the dealer does"},
		{game.M(0, "draw", "2"), `"draw"`},
	} {
		before := s.Clone()
		_, err := s.Apply(c.move)
		require.Error(t, err, c.move.String())
		assert.Contains(t, err.Error(), c.want, c.move.String())
		assert.Equal(t, before, s, "a refused move changes nothing")
	}
}

func TestTheStockRunsOutAndTheDiscardsComeBack(t *testing.T) {
	s := start(t, 2, map[string]string{"cards": "0"})
	for i := 0; i < 52; i++ {
		apply(t, s, i%2, "draw")
	}
	_, err := s.Apply(game.M(0, "draw"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "reshuffle")
	for _, c := range s.hands[0][:10] {
		apply(t, s, 0, "discard", c.String())
	}
	ev := apply(t, s, 1, "reshuffle")
	assert.Contains(t, ev[0].Text, "10 cards back")
	assert.Len(t, s.stock, 10)
}

func TestDealingAgainGathersEverything(t *testing.T) {
	s := start(t, 4, nil)
	apply(t, s, 0, "discard", s.hands[0][0].String())
	apply(t, s, 1, "show", s.hands[1][0].String())
	apply(t, s, 2, "deal", "13")
	for i := 0; i < 4; i++ {
		assert.Len(t, s.hands[i], 13)
	}
	assert.Empty(t, s.stock)
	assert.Empty(t, s.discard)
	assert.Empty(t, s.shown)
}

func TestDiceAndTheFirstPlayerAreForEveryone(t *testing.T) {
	s := start(t, 4, nil)
	ev := apply(t, s, 3, "roll", "2d6")
	require.NotNil(t, s.roll)
	assert.Len(t, s.roll.Faces, 2)
	assert.True(t, ev[0].Public())
	assert.Contains(t, ev[0].Text, "{3} rolls 2d6: ")
	assert.Equal(t, s.roll, s.View(game.Table).(View).Roll)
	ev = apply(t, s, 0, "first")
	assert.GreaterOrEqual(t, s.first, 0)
	assert.Contains(t, ev[0].Text, game.Seat(s.first)+" goes first")
}

func TestEveryoneMayActAtOnceUntilTheEnd(t *testing.T) {
	s := start(t, 3, nil)
	assert.Equal(t, []int{0, 1, 2}, s.Turn())
	apply(t, s, 1, "end")
	assert.True(t, s.Over())
	assert.Empty(t, s.Turn())
	assert.Empty(t, s.Legal(0))
	_, err := s.Apply(game.M(0, "draw"))
	assert.ErrorIs(t, err, game.ErrOver)
}
