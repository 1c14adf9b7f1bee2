package minefield

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tableref/tableref/rules/game"
)

// openMines leaves a1, a2, b2, d2, a4 and b4 blank among the outer tiles.
const openMines = "b1 d1 e1 e2 d4 e4 a5 b5 d5 e5"

func TestByDefaultADashMayStepBackWhereItWas(t *testing.T) {
	s := fixture(t, 4, nil, stdMines)
	rig(t, s, 3)
	do(t, s, 0, "fast")
	do(t, s, 0, "step", "c2")
	assert.Contains(t, s.Legal(0), game.M(0, "step", "c1"), "doubling back is allowed")
	do(t, s, 0, "step", "c1")
	do(t, s, 0, "step", "c2")
	assert.Equal(t, 1, s.turn)
}

func TestWithNoRevisitADashNeverStepsBackOntoItsTrail(t *testing.T) {
	s := fixture(t, 4, map[string]string{OptDash: DashNoRevisit}, stdMines)
	rig(t, s, 3)
	do(t, s, 0, "fast")
	do(t, s, 0, "step", "c2")
	assert.NotContains(t, s.Legal(0), game.M(0, "step", "c1"))
	msg := refused(t, s, 0, "step", "c1")
	assert.Contains(t, msg, "without doubling back")
	do(t, s, 0, "step", "c3")
	refused(t, s, 0, "step", "c2")
	assert.Equal(t, []string{"c1", "c2", "c3"}, s.View(0).(View).Trail)
	do(t, s, 0, "step", "c4")
	// The dash is over; c5's token has nowhere to go, but may still be
	// shoved, so the turn waits for the end.
	assert.Contains(t, s.Legal(0), game.M(0, "shove", "c5"))
	do(t, s, 0, "end")
	assert.Equal(t, 1, s.turn)
	// A cautious step next turn may go back: the trail is per dash.
	setTurn(s, 0)
	do(t, s, 0, "step", "c3")
	do(t, s, 0, "end")
	assert.Equal(t, 1, s.turn)
}

// A dash stops early when every square next to the token is taken. With
// doubling back allowed that cannot happen mid-dash (the square it came
// from is always free), so the trail of a no-revisit dash and two other
// tokens do the boxing in here.
func TestADashBoxedInByTokensAndItsTrailStopsEarly(t *testing.T) {
	s := fixture(t, 4, map[string]string{OptDash: DashNoRevisit}, openMines)
	place(t, s, 1, "b2")
	place(t, s, 3, "a3")
	place(t, s, 0, "a1")
	rig(t, s, 4, 6, 1)
	do(t, s, 0, "fast")
	ev := do(t, s, 0, "step", "a2")
	assert.Contains(t, texts(ev), "boxed in and stops")
	assert.Equal(t, 0, s.left, "three steps were left; the dash is over")
	assert.Equal(t, 0, s.turn, "it may still shove before ending")
	assert.Contains(t, s.Legal(0), game.M(0, "end"))
	assert.NotContains(t, s.Legal(0), game.M(0, "step", "a1"))
	do(t, s, 0, "shove", "b2")
	assert.Equal(t, "d2", sq(int(s.tokens[1].Pos)))
	assert.Equal(t, 1, s.turn, "nothing left to do: the turn passes")
}

func TestByDefaultATokenShovesOnceATurn(t *testing.T) {
	s := fixture(t, 4, nil, openMines)
	place(t, s, 1, "c2")
	place(t, s, 3, "d3")
	place(t, s, 0, "c3")
	rig(t, s, 1, 6)
	do(t, s, 0, "shove", "c2")
	msg := refused(t, s, 0, "shove", "d3")
	assert.Contains(t, msg, "already shoved someone this turn")
}

func TestWithAnyShovesATokenShovesEachOpponentOnceATurn(t *testing.T) {
	s := fixture(t, 4, map[string]string{OptShoves: ShovesAny}, openMines)
	place(t, s, 1, "c2")
	place(t, s, 3, "d3")
	place(t, s, 0, "c3")
	rig(t, s, 1, 6, 5, 2)
	ev := do(t, s, 0, "shove", "c2")
	assert.Contains(t, texts(ev), "loses the roll")
	msg := refused(t, s, 0, "shove", "c2")
	assert.Contains(t, msg, "already shoved at {1} this turn", "a failed shove is not retried")
	assert.NotContains(t, s.Legal(0), game.M(0, "shove", "c2"))
	assert.Contains(t, s.Legal(0), game.M(0, "shove", "d3"))
	do(t, s, 0, "shove", "d3")
	assert.Equal(t, "e3", sq(int(s.tokens[3].Pos)), "pushed to the edge")
	assert.Equal(t, 0, s.turn, "the token still has to move")
}

func TestByDefaultATwoPlayerTurnMovesOneToken(t *testing.T) {
	s := fixture(t, 2, nil, stdMines)
	do(t, s, 0, "use", "c1")
	do(t, s, 0, "step", "c2")
	do(t, s, 0, "end")
	assert.Equal(t, 1, s.turn, "c5 stays where it is")
	assert.Equal(t, "c5", sq(int(s.tokens[2].Pos)))
}

func TestWithPairBothBothTokensMoveEachTurn(t *testing.T) {
	s := fixture(t, 2, map[string]string{OptPair: PairBoth}, stdMines)
	do(t, s, 0, "use", "c1")
	do(t, s, 0, "step", "c2")
	ev := do(t, s, 0, "end")
	assert.Contains(t, texts(ev), "acts with the other piece")
	assert.Equal(t, 0, s.turn)
	assert.Equal(t, "move", s.View(0).(View).Phase, "the other token is the only one left to act")
	assert.Equal(t, "c5", s.View(0).(View).Piece)
	assert.Equal(t, []string{"c2"}, s.View(game.Table).(View).Acted)
	do(t, s, 0, "step", "c4")
	do(t, s, 0, "end")
	assert.Equal(t, 1, s.turn)
	assert.Equal(t, "choose", s.View(1).(View).Phase)
	assert.Empty(t, s.View(1).(View).Acted)
	do(t, s, 1, "use", "e3")
	do(t, s, 1, "step", "d3")
	do(t, s, 1, "end")
	refused(t, s, 1, "use", "d3")
	do(t, s, 1, "step", "b3")
	do(t, s, 1, "end")
	assert.Equal(t, 0, s.turn)
}

func TestWithPairBothTheSurvivingTokenAndTheGhostBothAct(t *testing.T) {
	s := fixture(t, 2, map[string]string{OptPair: PairBoth}, stdMines)
	bury(s, 0)
	assert.Equal(t, "choose", s.View(0).(View).Phase)
	do(t, s, 0, "use", "ghost")
	do(t, s, 0, "peek", "e5")
	assert.Equal(t, 0, s.turn)
	assert.Equal(t, "c5", s.View(0).(View).Piece, "then the living token moves")
	refused(t, s, 0, "use", "ghost")
	do(t, s, 0, "step", "c4")
	do(t, s, 0, "end")
	assert.Equal(t, 1, s.turn)
}

func TestWithPairBothATokenBlownUpOnItsOwnTurnLetsTheOtherStillMove(t *testing.T) {
	s := fixture(t, 2, map[string]string{OptPair: PairBoth}, stdMines)
	do(t, s, 0, "use", "c1")
	ev := do(t, s, 0, "step", "b1")
	assert.Contains(t, texts(ev), "BOOM")
	assert.Equal(t, 0, s.turn)
	assert.Equal(t, "c5", s.View(0).(View).Piece)
	do(t, s, 0, "step", "c4")
	do(t, s, 0, "end")
	assert.Equal(t, 1, s.turn)
	assert.True(t, s.lost[0], "the next turn is still lost")
}

func TestThePairOptionMeansNothingWithMoreThanTwoPlayers(t *testing.T) {
	s := fixture(t, 3, map[string]string{OptPair: PairBoth}, stdMines)
	do(t, s, 0, "step", "c2")
	do(t, s, 0, "end")
	assert.Equal(t, 1, s.turn)
	assert.Empty(t, s.View(game.Table).(View).Pair)
}

func TestTheOptionsShowInTheView(t *testing.T) {
	s := fixture(t, 2, map[string]string{OptDash: DashNoRevisit, OptShoves: ShovesAny, OptPair: PairBoth}, stdMines)
	v := s.View(game.Table).(View)
	assert.Equal(t, []string{DashNoRevisit, ShovesAny, PairBoth}, []string{v.Dash, v.Shoves, v.Pair})
	s = fixture(t, 2, nil, stdMines)
	v = s.View(game.Table).(View)
	assert.Equal(t, []string{DashFree, ShovesOne, PairOne}, []string{v.Dash, v.Shoves, v.Pair})
	require.NoError(t, s.Audit())
}

// With three players the table chooses the edge nobody starts on (the
// rulebook leaves one unused without saying which): east by default, as
// before the option, so a seed deals the same game; the seats go round
// clockwise from the south on the other three.
func TestThreePlayersChooseTheEmptyEdge(t *testing.T) {
	starts := func(s *State) []string {
		var out []string
		for i := 0; i < s.ntok; i++ {
			out = append(out, sq(int(s.tokens[i].Pos)))
		}
		return out
	}
	for edge, want := range map[string][]string{
		"east": {"c1", "a3", "c5"}, "north": {"c1", "a3", "e3"},
		"south": {"a3", "c5", "e3"}, "west": {"c1", "c5", "e3"},
	} {
		st, err := Game.New(game.Config{Players: 3, Seed: 4, Options: map[string]string{OptEmptyEdge: edge}})
		require.NoError(t, err)
		s := st.(*State)
		assert.Equal(t, want, starts(s), edge)
		for i := 0; i < s.ntok; i++ {
			assert.Equal(t, int8(i), s.tokens[i].Seat)
		}
		require.NoError(t, s.Audit())
	}
	def, err := Game.New(game.Config{Players: 3, Seed: 4})
	require.NoError(t, err)
	east, err := Game.New(game.Config{Players: 3, Seed: 4, Options: map[string]string{OptEmptyEdge: "east"}})
	require.NoError(t, err)
	assert.Equal(t, def.View(game.Table), east.View(game.Table), "the default is the old layout")
	// Random: every edge comes up over some seeds, and the board is the
	// same as the default's (the edge is drawn after it).
	seen := map[string]bool{}
	for seed := uint64(1); seed <= 40; seed++ {
		st, err := Game.New(game.Config{Players: 3, Seed: seed, Options: map[string]string{OptEmptyEdge: EdgeRandom}})
		require.NoError(t, err)
		seen[strings.Join(starts(st.(*State)), " ")] = true
		d, _ := Game.New(game.Config{Players: 3, Seed: seed})
		assert.Equal(t, d.(*State).board, st.(*State).board)
	}
	assert.Len(t, seen, 4)
	_, err = Game.New(game.Config{Players: 3, Options: map[string]string{OptEmptyEdge: "up"}})
	assert.Error(t, err)
}
