package referee

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/rules/dealer"
	"github.com/tableref/tableref/rules/game"
	"github.com/tableref/tableref/rules/woodlouse"
)

// hand is the cards of seat's own hand, as its view shows them.
func hand(t *testing.T, m *Match, seat int) []string {
	t.Helper()
	var v struct {
		Hand []string `json:"hand"`
	}
	require.NoError(t, json.Unmarshal(m.Snapshot(seat, 0).View, &v))
	return v.Hand
}

func dealerMatch(t *testing.T, names ...string) *Match {
	t.Helper()
	m, err := New(dealer.Game, game.Config{Seed: 21, Options: map[string]string{"cards": "5"}}, names)
	require.NoError(t, err)
	return m
}

func TestALatecomerSitsDownAndPlaysAndTheMatchReplays(t *testing.T) {
	m := dealerMatch(t, "Ann", "Bob", "Cy")
	_, _, err := m.Apply(game.M(0, "draw"))
	require.NoError(t, err)

	seat, seq, evs, err := m.Sit("Dan")
	require.NoError(t, err)
	assert.Equal(t, 3, seat)
	assert.Equal(t, 2, seq)
	require.Len(t, evs, 1)
	assert.Equal(t, "sat", evs[0].Type)
	assert.Equal(t, "Dan sits down at the table.", evs[0].Text, "the event names the newcomer")
	assert.Equal(t, 2, evs[0].Seq)
	assert.Equal(t, []string{"Ann", "Bob", "Cy", "Dan"}, m.Names())
	assert.Equal(t, game.M(3, dealer.Sit), m.Moves()[1], "the sit is a move like any other")
	snap := m.Snapshot(3, 0)
	assert.Equal(t, []int{0, 1, 2, 3}, snap.Turn)
	assert.NotEmpty(t, snap.Legal, "the newcomer may act")
	assert.Empty(t, hand(t, m, 3))

	// The newcomer moves, is passed a card, and is dealt in.
	_, _, err = m.Apply(game.M(3, "draw"))
	require.NoError(t, err)
	assert.Len(t, hand(t, m, 3), 1)
	card := hand(t, m, 1)[0]
	_, evs, err = m.Apply(game.M(1, "pass", card, "3"))
	require.NoError(t, err)
	assert.Equal(t, "Bob passes a card to Dan.", evs[0].Text)
	assert.Contains(t, hand(t, m, 3), card)
	_, _, err = m.Apply(game.M(0, "deal", "7"))
	require.NoError(t, err)
	for s := 0; s < 4; s++ {
		assert.Len(t, hand(t, m, s), 7, "seat %d", s)
	}
	// Another comes later still.
	seat, _, _, err = m.Sit("Eve")
	require.NoError(t, err)
	assert.Equal(t, 4, seat)
	_, _, err = m.Apply(game.M(4, "roll", "2d6"))
	require.NoError(t, err)

	r, err := Replay(dealer.Game, m.Config(), m.Names(), m.Moves())
	require.NoError(t, err)
	assert.Equal(t, m.Moves(), r.Moves())
	for s := game.Table; s < 5; s++ {
		assert.Equal(t, m.Snapshot(s, 0), r.Snapshot(s, 0), "seat %d", s)
	}
}

func TestAMoveFromASeatNobodySatInIsRefused(t *testing.T) {
	m := dealerMatch(t, "Ann", "Bob")
	for _, mv := range []game.Move{game.M(2, "draw"), game.M(2, dealer.Sit), game.M(5, "draw")} {
		_, _, err := m.Apply(mv)
		assert.ErrorIs(t, err, ErrNoSeat, "%s", mv)
	}
	// A seated player cannot make the referee's seat move either: the
	// game refuses it for any seat but the next one.
	_, _, err := m.Apply(game.M(1, dealer.Sit))
	var refused *game.RefusedError
	require.ErrorAs(t, err, &refused)
	assert.Equal(t, 0, m.Seq())
	assert.Equal(t, []string{"Ann", "Bob"}, m.Names())
}

func TestSitIsRefusedWhereTheGameTakesNobodyNew(t *testing.T) {
	w, err := New(woodlouse.Game, game.Config{Seed: 3}, []string{"Ann", "Bob", "Cy"})
	require.NoError(t, err)
	before := w.Snapshot(game.Table, 0)
	_, _, _, err = w.Sit("Dan")
	require.ErrorIs(t, err, ErrNoLateJoin)
	assert.Equal(t, "Woodlouse Chaos cannot take a new player mid-game", err.Error())
	assert.Equal(t, before, w.Snapshot(game.Table, 0), "nothing changed")

	names := []string{"A", "B", "C", "D", "E", "F", "G", "H", "I"}
	m := dealerMatch(t, names...)
	seat, _, _, err := m.Sit("J")
	require.NoError(t, err)
	assert.Equal(t, 9, seat)
	_, _, _, err = m.Sit("K")
	require.ErrorIs(t, err, ErrTableFull)
	assert.Contains(t, err.Error(), "at most 10 players")
	assert.Len(t, m.Names(), 10)
	assert.Equal(t, 1, m.Seq())

	over := dealerMatch(t, "Ann")
	_, _, err = over.Apply(game.M(0, "end"))
	require.NoError(t, err)
	_, _, _, err = over.Sit("Bob")
	require.ErrorIs(t, err, game.ErrOver)
	assert.Equal(t, []string{"Ann"}, over.Names())
	assert.Equal(t, 1, over.Seq())
}

// refuseSit is a game that declares a seat move its rules then refuse.
type refuseSit struct{ waitGame }

func (refuseSit) Info() game.Info {
	return game.Info{ID: "refuse", Name: "Refuser", MinPlayers: 2, MaxPlayers: 4, SeatAction: "sit", RefereeActions: []string{"sit"}}
}

type refuseState struct{ waitState }

func (refuseState) Apply(m game.Move) ([]game.Event, error) {
	return nil, game.Refuse(m, "%s may not sit down next to %s", game.Seat(m.Seat), game.Seat(0))
}

func (refuseSit) New(game.Config) (game.State, error) { return refuseState{}, nil }

func TestASitTheRulesRefuseChangesNothing(t *testing.T) {
	m, err := New(refuseSit{}, game.Config{}, []string{"Ann", "Bob"})
	require.NoError(t, err)
	_, _, _, err = m.Sit("Cy")
	var refused *game.RefusedError
	require.ErrorAs(t, err, &refused)
	assert.Equal(t, "Cy may not sit down next to Ann", refused.Reason, "named, the newcomer too")
	assert.Equal(t, []string{"Ann", "Bob"}, m.Names())
	assert.Equal(t, 0, m.Seq())
	assert.Empty(t, m.Moves())
}

func TestACloneSeatsAndMovesOnItsOwn(t *testing.T) {
	m := dealerMatch(t, "Ann", "Bob")
	c := m.Clone()
	_, _, _, err := c.Sit("Cy")
	require.NoError(t, err)
	_, _, err = c.Apply(game.M(2, "draw"))
	require.NoError(t, err)
	assert.Equal(t, []string{"Ann", "Bob"}, m.Names())
	assert.Equal(t, 0, m.Seq())
	assert.Empty(t, m.Snapshot(game.Table, 0).Events)
	var v struct {
		Hands []int `json:"hands"`
	}
	require.NoError(t, json.Unmarshal(m.Snapshot(game.Table, 0).View, &v))
	assert.Equal(t, []int{5, 5}, v.Hands)
	assert.Equal(t, 2, c.Seq())
	assert.Equal(t, m.Config(), c.Config())
}

func TestAReplayWithSitsChecksTheNamesAndSeats(t *testing.T) {
	cfg := game.Config{Seed: 4}
	// Two sits, and a single name for them and the starting players.
	_, err := Replay(dealer.Game, cfg, []string{"Ann"}, []game.Move{game.M(1, dealer.Sit), game.M(2, dealer.Sit)})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "2 players sit down during the game, but only 1 names are given")
	// A sit for a seat that is not the next one.
	_, err = Replay(dealer.Game, cfg, []string{"Ann", "Bob", "Cy"}, []game.Move{game.M(5, dealer.Sit)})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "replaying move 1 (5 sit): the next seat is 2")
	// One with arguments.
	_, err = Replay(dealer.Game, cfg, []string{"Ann", "Bob", "Cy"}, []game.Move{game.M(2, dealer.Sit, "x")})
	require.Error(t, err)
	// The names of seats taken later are the last ones.
	r, err := Replay(dealer.Game, cfg, []string{"Ann", "Bob", "Cy"}, []game.Move{game.M(0, "draw"), game.M(2, dealer.Sit), game.M(2, "draw")})
	require.NoError(t, err)
	assert.Equal(t, []string{"Ann", "Bob", "Cy"}, r.Names())
	assert.Equal(t, 2, r.Config().Players, "the match started with two")
	evs := r.Snapshot(game.Table, 0).Events
	require.Len(t, evs, 3)
	assert.Equal(t, "Cy sits down at the table.", evs[1].Text)
}
