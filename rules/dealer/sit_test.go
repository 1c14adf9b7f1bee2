package dealer

import (
	"reflect"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/rules/deck"
	"github.com/tableref/tableref/rules/game"
)

// The dealer declares its latecomers' move, and keeps it from the phones.
func TestTheDealerDeclaresItsSeatActionAsTheReferees(t *testing.T) {
	in := Game.Info()
	assert.Equal(t, Sit, in.SeatAction)
	assert.True(t, in.LateJoin())
	assert.Contains(t, in.RefereeActions, in.SeatAction, "no phone may send it")
	assert.True(t, in.IsSeatMove(game.M(3, Sit)))
	assert.False(t, in.IsSeatMove(game.M(3, "draw")))
	s := start(t, 3, nil)
	for seat := 0; seat < 3; seat++ {
		for _, m := range s.Legal(seat) {
			assert.NotEqual(t, Sit, m.Action, "Legal never offers the referee's move")
		}
	}
}

func TestALatecomerSitsDownWithAnEmptyHand(t *testing.T) {
	s := start(t, 3, nil)
	stock := len(s.stock)
	ev := apply(t, s, 3, Sit)
	require.Len(t, ev, 1)
	assert.Equal(t, "sat", ev[0].Type)
	assert.True(t, ev[0].Public())
	assert.Equal(t, "{3} sits down at the table.", ev[0].Text)
	assert.Equal(t, []int{0, 1, 2, 3}, s.Turn())
	assert.Empty(t, s.hands[3])
	assert.Len(t, s.stock, stock, "nobody is dealt anything by a sit")
	v := s.View(3).(View)
	assert.Equal(t, []int{5, 5, 5, 0}, v.Hands)
	assert.Empty(t, v.Hand)
	assert.Equal(t, []int{5, 5, 5, 0}, s.View(game.Table).(View).Hands)
	assert.NotEmpty(t, s.Legal(3), "the newcomer may act at once")
	apply(t, s, 3, "draw")
	assert.Len(t, s.hands[3], 1)
}

func TestDealingAfterASitDealsTheNewcomerToo(t *testing.T) {
	s := start(t, 3, nil)
	apply(t, s, 3, Sit)
	assert.Contains(t, s.Legal(0), game.M(0, "deal", "5"))
	_, err := s.Apply(game.M(0, "deal", "14"))
	require.Error(t, err, "52 cards for 4 players is 13 each")
	assert.Contains(t, err.Error(), "from 0 to 13")
	apply(t, s, 1, "deal", "13")
	for seat := 0; seat < 4; seat++ {
		assert.Len(t, s.hands[seat], 13, "seat %d", seat)
	}
	assert.Empty(t, s.stock)
}

func TestACardPassesToAndFromTheNewcomer(t *testing.T) {
	s := start(t, 2, nil)
	apply(t, s, 2, Sit)
	c := s.hands[0][0]
	assert.Contains(t, s.Legal(0), game.M(0, "pass", c.String(), "2"))
	ev := apply(t, s, 0, "pass", c.String(), "2")
	assert.Equal(t, []int{2}, ev[1].To)
	assert.Equal(t, []deck.Card{c}, s.hands[2])
	apply(t, s, 2, "pass", c.String(), "1")
	assert.Contains(t, s.hands[1], c)
	assert.Empty(t, s.hands[2])
}

func TestASitIsRefusedWithAReasonAndChangesNothing(t *testing.T) {
	s := start(t, 3, nil)
	for _, c := range []struct {
		move game.Move
		want string
	}{
		{game.M(2, Sit), "{2} already sits at the table: a new player sits down at seat 3, the next one, not at seat 2"},
		{game.M(0, Sit), "{0} already sits at the table: a new player sits down at seat 3, the next one, not at seat 0"},
		{game.M(4, Sit), "at seat 3, the next one, not at seat 4"},
		{game.M(-1, Sit), "not at seat -1"},
		{game.M(3, Sit, "now"), "no arguments"},
	} {
		before := s.Clone()
		_, err := s.Apply(c.move)
		require.Error(t, err, c.move.String())
		assert.Contains(t, err.Error(), c.want, c.move.String())
		assert.Equal(t, before, s, "a refused move changes nothing")
	}
	full := start(t, 10, map[string]string{"cards": "1"})
	_, err := full.Apply(game.M(10, Sit))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "every one is taken")
	// A seated player tapping sit again at a full table hears that they
	// are seated already.
	_, err = full.Apply(game.M(4, Sit))
	require.Error(t, err)
	assert.Equal(t, "{4} already sits at the table, and every one of its 10 seats is taken", err.Error())
	apply(t, s, 0, "end")
	_, err = s.Apply(game.M(3, Sit))
	assert.ErrorIs(t, err, game.ErrOver)
}

func TestACloneKeepsItsOwnSeats(t *testing.T) {
	s := start(t, 3, nil)
	c := s.Clone().(*State)
	apply(t, s, 3, Sit)
	apply(t, s, 0, "pass", s.hands[0][0].String(), "3")
	assert.Equal(t, 3, c.players)
	assert.Len(t, c.hands, 3)
	require.NoError(t, c.Audit())
	assert.Equal(t, []int{0, 1, 2}, c.Turn())
	_, err := c.Apply(game.M(0, "pass", c.hands[0][0].String(), "3"))
	assert.Error(t, err, "the clone has no seat 3")
	// And the other way: the clone seats someone, the original does not
	// see it.
	d := s.Clone().(*State)
	apply(t, d, 4, Sit)
	assert.Len(t, s.hands, 4)
	assert.Len(t, d.hands, 5)
}

func TestAuditNoticesAHandTooFew(t *testing.T) {
	s := start(t, 3, nil)
	require.NoError(t, s.Audit())
	s.players = 4
	assert.ErrorContains(t, s.Audit(), "3 hands for 4 players")
}

// Random play with latecomers sitting down now and then keeps every card
// in one place, and replays exactly from the seed and the moves.
func TestRandomPlayWithLatecomersReplaysExactly(t *testing.T) {
	sits := 0
	for seed := uint64(1); seed <= 30; seed++ {
		cfg := game.Config{Players: 1 + int(seed%3), Seed: seed, Options: map[string]string{"cards": strconv.Itoa(int(seed % 5))}}
		gs, err := Game.New(cfg)
		require.NoError(t, err)
		s := gs.(*State)
		r := game.NewRand(seed)
		var moves []game.Move
		for step := 0; step < 120 && !s.Over(); step++ {
			var m game.Move
			if s.players < maxPlayers && r.IntN(12) == 0 {
				m = game.M(s.players, Sit)
				sits++
			} else {
				turn := s.Turn()
				m = game.Random.Choose(s, turn[r.IntN(len(turn))], &r)
			}
			_, err := s.Apply(m)
			require.NoError(t, err, "seed %d step %d: %s", seed, step, m)
			require.NoError(t, s.Audit(), "seed %d step %d: %s", seed, step, m)
			moves = append(moves, m)
		}
		again, err := game.Replay(Game, cfg, moves)
		require.NoError(t, err)
		assert.True(t, reflect.DeepEqual(again, gs), "seed %d: replayed as it was played", seed)
	}
	assert.Greater(t, sits, 10, "latecomers sat down")
}
