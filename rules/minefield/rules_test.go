package minefield

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tableref/tableref/rules/game"
)

// do makes a move that must be accepted and keep the invariants.
func do(t *testing.T, s *State, seat int, action string, args ...string) []game.Event {
	t.Helper()
	ev, err := s.Apply(game.M(seat, action, args...))
	require.NoError(t, err, "%d %s %v", seat, action, args)
	require.NoError(t, s.Audit())
	return ev
}

// refused checks that a move is refused and leaves the state alone.
func refused(t *testing.T, s *State, seat int, action string, args ...string) string {
	t.Helper()
	before := s.Clone()
	_, err := s.Apply(game.M(seat, action, args...))
	require.Error(t, err, "%d %s %v should be refused", seat, action, args)
	var ref *game.RefusedError
	require.True(t, errors.As(err, &ref), "a refusal: %v", err)
	require.Equal(t, before, game.State(s), "a refused move changed the state")
	return err.Error()
}

func texts(ev []game.Event) string {
	var b strings.Builder
	for _, e := range ev {
		b.WriteString(e.Text)
		b.WriteString("\n")
	}
	return b.String()
}

func tokenOn(s *State, w string) int {
	q, _ := parseSq(w)
	return s.tokenAt(q)
}

func TestTwoToFourPlayers(t *testing.T) {
	for _, n := range []int{1, 5} {
		_, err := Game.New(game.Config{Players: n})
		assert.Error(t, err, "%d players", n)
	}
	for n := 2; n <= 4; n++ {
		s, err := Game.New(game.Config{Players: n})
		require.NoError(t, err)
		require.NoError(t, s.Audit())
	}
	in := Game.Info()
	assert.Equal(t, "minefield", in.ID)
	assert.Equal(t, 2, in.MinPlayers)
	assert.Equal(t, 4, in.MaxPlayers)
}

func TestTheFieldIsACrossOfBlanksFaceUpAndTenMinesAmongTheOtherSixteen(t *testing.T) {
	layouts := map[string]bool{}
	for seed := uint64(0); seed < 50; seed++ {
		gs, err := Game.New(game.Config{Players: 2 + int(seed%3), Seed: seed})
		require.NoError(t, err)
		s := gs.(*State)
		n := 0
		var layout strings.Builder
		for i, tl := range s.board {
			if onCross(i) {
				assert.True(t, tl.Up && !tl.Mine, "cross square %s", sq(i))
				continue
			}
			assert.False(t, tl.Up, "outer square %s starts face down", sq(i))
			if tl.Mine {
				n++
				layout.WriteString(sq(i))
			}
		}
		assert.Equal(t, 10, n)
		layouts[layout.String()] = true
	}
	assert.Greater(t, len(layouts), 40, "the mines are shuffled")
}

func TestTokensStartOnTheMiddleOfTheEdges(t *testing.T) {
	seatsOn := func(n int) map[string]int {
		gs, err := Game.New(game.Config{Players: n})
		require.NoError(t, err)
		out := map[string]int{}
		for _, tk := range gs.View(game.Table).(View).Tokens {
			out[tk.Square] = tk.Seat
		}
		return out
	}
	assert.Equal(t, map[string]int{"c1": 0, "a3": 1, "c5": 2, "e3": 3}, seatsOn(4))
	assert.Equal(t, map[string]int{"c1": 0, "a3": 1, "c5": 2}, seatsOn(3), "three players leave the east edge empty")
	assert.Equal(t, map[string]int{"c1": 0, "c5": 0, "a3": 1, "e3": 1}, seatsOn(2), "two players have two tokens each, on opposite edges")
}

func TestSquaresAreNamedColumnThenRow(t *testing.T) {
	for w, want := range map[string]int{"a1": 0, "e1": 4, "c3": 12, "A5": 20, "e5": 24, "b2": 6} {
		got, ok := parseSq(w)
		assert.True(t, ok, w)
		assert.Equal(t, want, got, w)
	}
	for _, w := range []string{"f1", "a0", "a6", "c", "c33", "3c", ""} {
		_, ok := parseSq(w)
		assert.False(t, ok, w)
	}
	for i := 0; i < cells; i++ {
		got, ok := parseSq(sq(i))
		assert.True(t, ok)
		assert.Equal(t, i, got)
	}
	assert.Equal(t, at(t, "c4"), nb[at(t, "c3")][north], "north is toward row 5")
	assert.Equal(t, at(t, "d3"), nb[at(t, "c3")][east], "east is toward column e")
}

func TestACautiousStepTurnsOverTheTileLandedOn(t *testing.T) {
	s := fixture(t, 4, nil, stdMines)
	place(t, s, 0, "c2")
	assert.Equal(t, TileDown, tileOf(s, game.Table, "d2"))
	ev := do(t, s, 0, "step", "d2")
	assert.Contains(t, texts(ev), "d2 is turned over: no mine")
	assert.Equal(t, TileClear, tileOf(s, game.Table, "d2"))
	assert.Equal(t, "d2", s.View(game.Table).(View).Tokens[0].Square)
	assert.Equal(t, 0, s.turn, "a look is still allowed")
	do(t, s, 0, "look", "e2")
	assert.Equal(t, 1, s.turn, "nothing left to do: the turn passes by itself")
}

func TestACautiousMoveIsASingleStep(t *testing.T) {
	s := fixture(t, 4, nil, stdMines)
	do(t, s, 0, "step", "c2")
	assert.Equal(t, 0, s.turn, "a look is still allowed")
	refused(t, s, 0, "step", "c3")
	refused(t, s, 0, "fast")
	do(t, s, 0, "end")
	assert.Equal(t, 1, s.turn)
}

func TestATokenMustMoveBeforeEndingItsTurn(t *testing.T) {
	s := fixture(t, 4, nil, stdMines)
	refused(t, s, 0, "end")
	refused(t, s, 0, "step", "c3")
	refused(t, s, 0, "step", "d2")
}

// A look commits the turn to a cautious move (reading 4): after one, a
// dash is refused because of the look, and ending the turn unmoved hears to
// take the cautious step, not to "dash with fast".
func TestAfterALookTheRefusalsSayTheLookMadeTheMoveCautious(t *testing.T) {
	s := fixture(t, 4, nil, stdMines)
	do(t, s, 0, "look", "d1")
	assert.Equal(t, "you have looked under a tile, which makes this a cautious move: no dash this turn", refused(t, s, 0, "fast"))
	assert.Equal(t, "you must move first: your look makes this a cautious move, so take its one step", refused(t, s, 0, "end"))
	s = fixture(t, 4, nil, stdMines)
	assert.Equal(t, "you must move first: step, or dash with fast", refused(t, s, 0, "end"))
	do(t, s, 0, "step", "c2")
	assert.Equal(t, "you have already started a cautious move", refused(t, s, 0, "fast"))
}

func TestALookIsPrivateAndRemembered(t *testing.T) {
	s := fixture(t, 4, nil, stdMines)
	ev := do(t, s, 0, "look", "d1")
	var private, public []game.Event
	for _, e := range ev {
		if e.Public() {
			public = append(public, e)
		} else {
			private = append(private, e)
		}
	}
	require.Len(t, private, 1)
	assert.Equal(t, []int{0}, private[0].To)
	assert.Contains(t, private[0].Text, "d1 hides a mine")
	for _, e := range public {
		assert.NotContains(t, e.Text, "mine", "the public hears which tile, not what it hides")
	}
	assert.Equal(t, TileSeenMine, tileOf(s, 0, "d1"))
	for _, v := range []int{game.Table, 1, 2, 3} {
		assert.Equal(t, TileDown, tileOf(s, v, "d1"), "view %d", v)
	}
	do(t, s, 0, "step", "c2")
	assert.Equal(t, 1, s.turn)
	for seat, to := range map[int]string{1: "b3", 2: "c4", 3: "d3"} {
		setTurn(s, seat)
		do(t, s, seat, "step", to)
		do(t, s, seat, "end")
	}
	setTurn(s, 0)
	assert.Equal(t, TileSeenMine, tileOf(s, 0, "d1"), "still remembered a round later")
	do(t, s, 0, "look", "b2")
	assert.Equal(t, TileSeenMine, tileOf(s, 0, "b2"))
	assert.Equal(t, TileSeenMine, tileOf(s, 0, "d1"), "older looks stay")
}

func TestALookComesBeforeOrAfterTheStepNextToEitherSquare(t *testing.T) {
	s := fixture(t, 4, nil, stdMines)
	refused(t, s, 0, "look", "e5")
	refused(t, s, 0, "look", "c2")
	do(t, s, 0, "step", "c2")
	after := s.Clone().(*State)
	do(t, after, 0, "look", "d2")
	assert.Equal(t, TileSeenClear, tileOf(after, 0, "d2"), "next to the new square")
	do(t, s, 0, "look", "b1")
	assert.Equal(t, TileSeenMine, tileOf(s, 0, "b1"), "next to the starting square")
	assert.Equal(t, 1, s.turn, "stepped and looked: the turn is over")

	s = fixture(t, 4, nil, stdMines)
	do(t, s, 0, "look", "d1")
	refused(t, s, 0, "look", "b1")
	refused(t, s, 0, "fast")
	do(t, s, 0, "step", "c2")
	assert.Equal(t, 1, s.turn)
}

func TestAFastMoveRollsTheDieAndDashesThatFar(t *testing.T) {
	s := fixture(t, 4, nil, stdMines)
	rig(t, s, 3)
	ev := do(t, s, 0, "fast")
	assert.Contains(t, texts(ev), "rolls 3")
	refused(t, s, 0, "look", "d1")
	refused(t, s, 0, "end")
	do(t, s, 0, "step", "c2")
	do(t, s, 0, "step", "d2")
	assert.Equal(t, TileClear, tileOf(s, game.Table, "d2"), "every tile stepped onto is turned over")
	refused(t, s, 0, "end")
	do(t, s, 0, "step", "d3")
	refused(t, s, 0, "step", "d4") // three steps: the dash is over
	assert.Equal(t, "d3", s.View(game.Table).(View).Tokens[0].Square)
	if s.turn == 0 { // a shove is left (e3's token, with nowhere to go)
		do(t, s, 0, "end")
	}
	assert.Equal(t, 1, s.turn)
}

func TestAFastMoveMayDoubleBack(t *testing.T) {
	s := fixture(t, 4, nil, stdMines)
	rig(t, s, 2)
	do(t, s, 0, "fast")
	do(t, s, 0, "step", "c2")
	do(t, s, 0, "step", "c1")
	assert.Equal(t, 1, s.turn)
}

func TestTheUpToOptionLetsADashStopShort(t *testing.T) {
	s := fixture(t, 4, map[string]string{OptFastMove: FastUpTo}, stdMines)
	rig(t, s, 5)
	do(t, s, 0, "fast")
	do(t, s, 0, "step", "c2")
	do(t, s, 0, "end")
	assert.Equal(t, 1, s.turn)
}

func TestAMineHaltsTheMoveAndBlowsUpTheToken(t *testing.T) {
	s := fixture(t, 4, nil, stdMines)
	rig(t, s, 4)
	do(t, s, 0, "fast")
	do(t, s, 0, "step", "c2")
	ev := do(t, s, 0, "step", "b2")
	assert.Contains(t, texts(ev), "BOOM")
	v := s.View(game.Table).(View)
	assert.False(t, v.Tokens[0].Alive)
	assert.Empty(t, v.Tokens[0].Square)
	assert.Equal(t, TileSpent, tileOf(s, game.Table, "b2"))
	assert.Equal(t, 1, s.turn, "the dash ends with the token")
	assert.True(t, v.LostTurn[0])
}

func TestASpentMineIsSafeToCross(t *testing.T) {
	s := fixture(t, 4, nil, stdMines)
	do(t, s, 0, "step", "d1")
	assert.Equal(t, TileSpent, tileOf(s, game.Table, "d1"))
	place(t, s, 3, "d2")
	setTurn(s, 3)
	do(t, s, 3, "step", "d1")
	assert.True(t, s.tokens[3].Alive)
	assert.Equal(t, "d1", sq(int(s.tokens[3].Pos)))
}

func TestAShoveWinsTiesAndPushesTheVictimTwoSquaresAway(t *testing.T) {
	s := fixture(t, 4, nil, stdMines)
	place(t, s, 2, "b4")
	place(t, s, 0, "c2")
	place(t, s, 1, "c3")
	rig(t, s, 4, 4)
	ev := do(t, s, 0, "shove", "c3")
	assert.Contains(t, texts(ev), "4 against 4")
	assert.Equal(t, "c5", sq(int(s.tokens[1].Pos)), "two squares north, away from the shover")
	assert.True(t, s.tokens[1].Alive)
	assert.Equal(t, 0, s.turn, "the shover still has to move")
	refused(t, s, 0, "shove", "c3")
}

func TestAShoveFailsWhenTheVictimRollsHigher(t *testing.T) {
	s := fixture(t, 4, nil, stdMines)
	place(t, s, 0, "c2")
	place(t, s, 1, "c3")
	rig(t, s, 2, 5)
	ev := do(t, s, 0, "shove", "c3")
	assert.Contains(t, texts(ev), "2 against 5")
	assert.Equal(t, "c3", sq(int(s.tokens[1].Pos)))
	refused(t, s, 0, "shove", "c3")
}

func TestAShovedTokenTurnsOverTheTilesItCrossesAndDiesOnAMine(t *testing.T) {
	s := fixture(t, 4, nil, "a1 b1 d1 e1 a2 e2 d4 e4 a5 e5")
	place(t, s, 0, "b2")
	place(t, s, 1, "c2")
	rig(t, s, 6, 1)
	ev := do(t, s, 0, "shove", "c2")
	assert.Contains(t, texts(ev), "d2 is turned over: no mine")
	assert.Contains(t, texts(ev), "BOOM")
	assert.Equal(t, TileClear, tileOf(s, game.Table, "d2"))
	assert.Equal(t, TileSpent, tileOf(s, game.Table, "e2"))
	assert.False(t, s.tokens[1].Alive)
	assert.True(t, s.lost[1])
}

func TestAShoveStopsAtTheMineThatGoesOff(t *testing.T) {
	s := fixture(t, 4, nil, stdMines)
	place(t, s, 0, "d2")
	place(t, s, 1, "d3")
	rig(t, s, 3, 3)
	do(t, s, 0, "shove", "d3")
	assert.False(t, s.tokens[1].Alive)
	assert.Equal(t, TileSpent, tileOf(s, game.Table, "d4"))
	assert.Equal(t, TileDown, tileOf(s, game.Table, "d5"), "the victim never reached d5")
}

func TestAShoveStopsAtTheEdgeOfTheField(t *testing.T) {
	s := fixture(t, 4, nil, stdMines)
	place(t, s, 2, "b4")
	place(t, s, 0, "c4")
	place(t, s, 1, "c5")
	// Nowhere to go: the shove is rolled all the same, and a won roll moves
	// the victim 0 tiles (the rule forbids no such shove).
	rig(t, s, 4, 2)
	ev := do(t, s, 0, "shove", "c5")
	assert.Contains(t, texts(ev), "shoves")
	assert.Contains(t, texts(ev), "edge")
	assert.Equal(t, "c5", sq(int(s.tokens[1].Pos)), "nowhere to go")
	refused(t, s, 0, "shove", "c5") // one shove a turn

	s = fixture(t, 4, nil, stdMines)
	place(t, s, 2, "b4")
	place(t, s, 1, "b3")
	place(t, s, 0, "c3")
	rig(t, s, 5, 1)
	ev = do(t, s, 0, "shove", "b3")
	assert.Contains(t, texts(ev), "edge")
	assert.Equal(t, "a3", sq(int(s.tokens[1].Pos)), "only one square to the edge")
}

func TestAShoveStopsAgainstAnotherToken(t *testing.T) {
	s := fixture(t, 4, nil, stdMines)
	place(t, s, 0, "c1")
	place(t, s, 1, "c2")
	place(t, s, 2, "c4")
	rig(t, s, 5, 1)
	do(t, s, 0, "shove", "c2")
	assert.Equal(t, "c3", sq(int(s.tokens[1].Pos)))
	assert.Equal(t, "c4", sq(int(s.tokens[2].Pos)))
}

func TestOnlyAnOpponentRightNextToYouMayBeShoved(t *testing.T) {
	s := fixture(t, 4, nil, stdMines)
	place(t, s, 1, "d2")
	place(t, s, 0, "c1")
	refused(t, s, 0, "shove", "d2") // diagonal
	refused(t, s, 0, "shove", "c2") // nobody there
	two := fixture(t, 2, nil, stdMines)
	place(t, two, 2, "c2")
	do(t, two, 0, "use", "c1")
	msg := refused(t, two, 0, "shove", "c2")
	assert.Contains(t, msg, "own token")
}

func TestAShoveMayComeInTheMiddleOfADash(t *testing.T) {
	s := fixture(t, 4, nil, stdMines)
	place(t, s, 1, "d2")
	rig(t, s, 3, 6, 1)
	do(t, s, 0, "fast")
	do(t, s, 0, "step", "c2")
	do(t, s, 0, "shove", "d2")
	assert.Equal(t, "e2", sq(int(s.tokens[1].Pos)), "one square to the edge")
	do(t, s, 0, "step", "c3")
	do(t, s, 0, "step", "c4")
	assert.Equal(t, 1, s.turn)
}

func TestTheBlownUpMissTheirNextTurnThenComeBackAsGhosts(t *testing.T) {
	// Blown up on someone else's turn: the very next turn is lost.
	s := fixture(t, 3, nil, stdMines)
	place(t, s, 0, "d2")
	place(t, s, 1, "d3")
	rig(t, s, 3, 3)
	do(t, s, 0, "shove", "d3")
	require.False(t, s.tokens[1].Alive)
	do(t, s, 0, "step", "c2")
	ev := do(t, s, 0, "end")
	assert.Contains(t, texts(ev), "misses this turn")
	assert.Contains(t, texts(ev), "rises as a ghost")
	assert.Equal(t, 2, s.turn, "seat 1 is skipped")
	do(t, s, 2, "step", "c4")
	do(t, s, 2, "end")
	do(t, s, 0, "step", "c1")
	do(t, s, 0, "end")
	assert.Equal(t, 1, s.turn)
	assert.Equal(t, "ghost", s.View(1).(View).Phase)

	// Blown up on its own turn: the next time round is lost.
	s = fixture(t, 3, nil, stdMines)
	do(t, s, 0, "step", "d1")
	assert.Equal(t, 1, s.turn)
	do(t, s, 1, "step", "b3")
	do(t, s, 1, "end")
	ev = do(t, s, 2, "step", "c4")
	ev = append(ev, do(t, s, 2, "end")...)
	assert.Contains(t, texts(ev), "misses this turn")
	assert.Equal(t, 1, s.turn)
	do(t, s, 1, "step", "a3")
	do(t, s, 1, "end")
	do(t, s, 2, "step", "c5")
	do(t, s, 2, "end")
	assert.Equal(t, 0, s.turn)
	assert.Equal(t, "ghost", s.View(0).(View).Phase)
}

func TestAGhostPeeksUnderAnyTileInPrivate(t *testing.T) {
	s := fixture(t, 3, nil, stdMines)
	bury(s, 0)
	refused(t, s, 0, "step", "c2")
	refused(t, s, 0, "peek", "c3") // face up
	ev := do(t, s, 0, "peek", "e5")
	for _, e := range ev {
		if strings.Contains(e.Text, "mine") {
			assert.Equal(t, []int{0}, e.To)
		}
	}
	assert.Equal(t, TileSeenMine, tileOf(s, 0, "e5"))
	assert.Equal(t, TileDown, tileOf(s, 1, "e5"))
	assert.Equal(t, TileDown, tileOf(s, game.Table, "e5"))
	assert.Equal(t, 1, s.turn)
}

func TestAGhostRearmsASpentMineForAllToSee(t *testing.T) {
	s := fixture(t, 3, nil, stdMines)
	s.board[at(t, "b2")].Up = true // exploded earlier
	bury(s, 0)
	refused(t, s, 0, "rearm", "d2") // not a mine
	refused(t, s, 0, "rearm", "d1") // live, not spent
	do(t, s, 0, "rearm", "b2")
	for v := game.Table; v < 3; v++ {
		assert.Equal(t, TileArmed, tileOf(s, v, "b2"))
	}
	place(t, s, 1, "b3")
	setTurn(s, 1)
	do(t, s, 1, "step", "b2")
	assert.False(t, s.tokens[1].Alive, "a re-armed mine goes off again")
	assert.Equal(t, TileSpent, tileOf(s, game.Table, "b2"))
}

func TestRearmingAMineUnderATokenBlowsItUp(t *testing.T) {
	s := fixture(t, 3, nil, stdMines)
	s.board[at(t, "b2")].Up = true
	place(t, s, 1, "b2")
	bury(s, 0)
	ev := do(t, s, 0, "rearm", "b2")
	assert.Contains(t, texts(ev), "BOOM")
	assert.False(t, s.tokens[1].Alive)
	assert.Equal(t, TileSpent, tileOf(s, game.Table, "b2"))
}

func TestAGhostSwapsTwoTilesAndWhatIsKnownOfThemMovesAlong(t *testing.T) {
	s := fixture(t, 3, nil, stdMines)
	s.board[at(t, "b2")].Up = true // a spent mine
	bury(s, 0)
	s.seen[1] |= 1 << uint(s.board[at(t, "a1")].ID)
	require.Equal(t, TileSeenMine, tileOf(s, 1, "a1"))
	do(t, s, 0, "swap", "a1", "c2")
	assert.Equal(t, TileDown, tileOf(s, game.Table, "c2"), "a mine on the cross, face down")
	assert.Equal(t, TileClear, tileOf(s, game.Table, "a1"), "the cross tile kept its face")
	assert.Equal(t, TileSeenMine, tileOf(s, 1, "c2"), "seat 1 saw the tile move")
	setTurn(s, 0)
	do(t, s, 0, "swap", "b2", "c4")
	assert.Equal(t, TileSpent, tileOf(s, game.Table, "c4"), "a moved spent mine stays spent")
	setTurn(s, 2)
	do(t, s, 2, "step", "c4")
	assert.True(t, s.tokens[2].Alive)
	setTurn(s, 0)
	refused(t, s, 0, "swap", "a1", "a1")
}

func TestGhostsMayNotSwapOccupiedTilesUnlessTheTableAgrees(t *testing.T) {
	s := fixture(t, 3, nil, stdMines)
	bury(s, 0)
	msg := refused(t, s, 0, "swap", "a3", "b2")
	assert.Contains(t, msg, "stands on a3")

	s = fixture(t, 3, map[string]string{OptSwapOccupied: "yes"}, stdMines)
	bury(s, 0)
	ev := do(t, s, 0, "swap", "a3", "b2")
	assert.Contains(t, texts(ev), "BOOM")
	assert.False(t, s.tokens[1].Alive, "a live mine slid under a token goes off")
	assert.Equal(t, TileSpent, tileOf(s, game.Table, "a3"))

	s = fixture(t, 3, map[string]string{OptSwapOccupied: "yes"}, stdMines)
	bury(s, 0)
	do(t, s, 0, "swap", "a3", "d2")
	assert.True(t, s.tokens[1].Alive)
	assert.Equal(t, TileClear, tileOf(s, game.Table, "a3"), "a blank slid under a token is turned over")
}

func TestAGhostShovesOnlyOnASixAndInAnyDirection(t *testing.T) {
	s := fixture(t, 3, nil, stdMines)
	bury(s, 0)
	rig(t, s, 5)
	ev := do(t, s, 0, "haunt")
	assert.Contains(t, texts(ev), "rolls 5")
	assert.Equal(t, 1, s.turn, "no 6, no push")

	setTurn(s, 0)
	place(t, s, 1, "c4")
	rig(t, s, 6)
	do(t, s, 0, "haunt")
	assert.Equal(t, "push", s.View(0).(View).Phase)
	refused(t, s, 0, "peek", "e5")
	refused(t, s, 0, "push", "c4", "up")
	refused(t, s, 0, "push", "c3", "e")
	do(t, s, 0, "push", "c4", "e")
	assert.False(t, s.tokens[1].Alive, "pushed east onto d4's mine")
	assert.Equal(t, TileSpent, tileOf(s, game.Table, "d4"))
}

func TestTheLastOneStandingWins(t *testing.T) {
	s := fixture(t, 3, nil, stdMines)
	bury(s, 1)
	place(t, s, 0, "d2")
	place(t, s, 2, "d3")
	rig(t, s, 4, 2)
	do(t, s, 0, "shove", "d3")
	require.True(t, s.Over())
	assert.Empty(t, s.Turn())
	assert.Empty(t, s.Legal(0))
	res := s.Result()
	assert.Equal(t, []int{0}, res.Winners)
	assert.Contains(t, res.Text, "last one standing")
	_, err := s.Apply(game.M(0, "end"))
	assert.ErrorIs(t, err, game.ErrOver)
}

func TestATwoPlayerTeamWinsWhileOneOfItsTokensStands(t *testing.T) {
	s := fixture(t, 2, nil, stdMines)
	// Seat 1's token on a3 walks into a2's mine.
	setTurn(s, 1)
	do(t, s, 1, "use", "a3")
	do(t, s, 1, "step", "a2")
	assert.False(t, s.Over(), "seat 1 still has e3")
	assert.Equal(t, 0, s.turn)
	do(t, s, 0, "use", "c1")
	do(t, s, 0, "step", "c2")
	ev := do(t, s, 0, "end")
	// Seat 1 sits out, then may choose between its token and its ghost.
	assert.Contains(t, texts(ev), "misses this turn")
	assert.Equal(t, 0, s.turn)
	do(t, s, 0, "use", "c5")
	do(t, s, 0, "step", "c4")
	do(t, s, 0, "end")
	assert.Equal(t, "choose", s.View(1).(View).Phase)
	var picks []string
	for _, m := range s.Legal(1) {
		picks = append(picks, m.String())
	}
	assert.ElementsMatch(t, []string{"1 use e3", "1 use ghost"}, picks)
	do(t, s, 1, "use", "e3")
	do(t, s, 1, "step", "e4")
	assert.True(t, s.Over(), "seat 1's last token walked onto e4's mine")
	assert.Equal(t, []int{0}, s.Result().Winners)
	assert.Contains(t, s.Result().Text, "still has a token standing")
}

func TestInATwoPlayerGameThePlayerPicksWhichTokenMoves(t *testing.T) {
	s := fixture(t, 2, nil, stdMines)
	assert.Equal(t, "choose", s.View(0).(View).Phase)
	refused(t, s, 0, "step", "c2")
	refused(t, s, 0, "use", "a3")    // not yours
	refused(t, s, 0, "use", "ghost") // none yet
	do(t, s, 0, "use", "c5")
	do(t, s, 0, "step", "c4")
	do(t, s, 0, "end")
	assert.Equal(t, 1, s.turn)
}

func TestTheCrossingRuleGamblesOnTilesPassedOver(t *testing.T) {
	opts := map[string]string{OptCrossing: "yes"}
	// High roll: the mine on d2 is passed over without being turned.
	s := fixture(t, 4, opts, "a1 b1 d1 e1 a2 d2 d4 e4 a5 e5")
	place(t, s, 0, "c2")
	rig(t, s, 3, 5)
	do(t, s, 0, "fast")
	ev := do(t, s, 0, "step", "d2")
	assert.Contains(t, texts(ev), "rolls 5")
	assert.True(t, s.tokens[0].Alive)
	assert.Equal(t, TileDown, tileOf(s, game.Table, "d2"))
	do(t, s, 0, "step", "d3")
	do(t, s, 0, "step", "c3")
	assert.Equal(t, TileDown, tileOf(s, game.Table, "d2"), "it stays secret")

	// Low roll: the tile is turned over, and its mine goes off.
	s = fixture(t, 4, opts, "a1 b1 d1 e1 a2 d2 d4 e4 a5 e5")
	place(t, s, 0, "c2")
	rig(t, s, 3, 2)
	do(t, s, 0, "fast")
	ev = do(t, s, 0, "step", "d2")
	assert.Contains(t, texts(ev), "BOOM")
	assert.False(t, s.tokens[0].Alive)

	// The last step of the dash lands, whatever the rule.
	s = fixture(t, 4, opts, "a1 b1 d1 e1 a2 d2 d4 e4 a5 e5")
	place(t, s, 0, "c2")
	rig(t, s, 1)
	do(t, s, 0, "fast")
	do(t, s, 0, "step", "d2")
	assert.False(t, s.tokens[0].Alive)

	// Stopping short (up-to) on a tile crossed without turning lands on it.
	s = fixture(t, 4, map[string]string{OptCrossing: "yes", OptFastMove: FastUpTo}, stdMines)
	place(t, s, 0, "c2")
	rig(t, s, 3, 6)
	do(t, s, 0, "fast")
	do(t, s, 0, "step", "d2")
	assert.Equal(t, TileDown, tileOf(s, game.Table, "d2"))
	do(t, s, 0, "end")
	assert.Equal(t, TileClear, tileOf(s, game.Table, "d2"))
}

func TestWithoutTheCrossingRuleEveryTileStepppedOnIsTurned(t *testing.T) {
	s := fixture(t, 4, nil, "a1 b1 d1 e1 a2 d2 d4 e4 a5 e5")
	place(t, s, 0, "c2")
	rig(t, s, 3)
	do(t, s, 0, "fast")
	do(t, s, 0, "step", "d2")
	assert.False(t, s.tokens[0].Alive)
}

func TestTheRoundLimitOptionLetsTheSurvivorsShareTheWin(t *testing.T) {
	s := fixture(t, 3, map[string]string{OptRounds: "1"}, stdMines)
	do(t, s, 0, "step", "c2")
	do(t, s, 0, "end")
	do(t, s, 1, "step", "b3")
	do(t, s, 1, "end")
	do(t, s, 2, "step", "c4")
	do(t, s, 2, "end")
	require.True(t, s.Over())
	assert.Equal(t, []int{0, 1, 2}, s.Result().Winners)
	assert.Contains(t, s.Result().Text, "share")
}

func TestRefusalsSayWhyAndChangeNothing(t *testing.T) {
	s := fixture(t, 4, nil, stdMines)
	assert.Contains(t, refused(t, s, 1, "step", "a4"), "turn")
	assert.Contains(t, refused(t, s, 7, "step", "a4"), "no seat")
	assert.Contains(t, refused(t, s, 0, "dance"), "not a move")
	assert.Contains(t, refused(t, s, 0, "step"), "argument")
	assert.Contains(t, refused(t, s, 0, "step", "c2", "c3"), "argument")
	assert.Contains(t, refused(t, s, 0, "step", "z9"), "not a square")
	assert.Contains(t, refused(t, s, 0, "step", "c3"), "not next to")
	assert.Contains(t, refused(t, s, 0, "peek", "c3"), "ghost")
	assert.Contains(t, refused(t, s, 0, "use", "c1"), "already")
	place(t, s, 1, "c2")
	assert.Contains(t, refused(t, s, 0, "step", "c2"), "stands on c2")
}

func TestLegalMovesAreAllAccepted(t *testing.T) {
	for n := 2; n <= 4; n++ {
		for seed := uint64(0); seed < 20; seed++ {
			gs, err := Game.New(game.Config{Players: n, Seed: seed})
			require.NoError(t, err)
			r := game.NewRand(seed)
			for steps := 0; steps < 300 && !gs.Over(); steps++ {
				seat := gs.Turn()[0]
				legal := gs.Legal(seat)
				require.NotEmpty(t, legal)
				for _, m := range legal {
					c := gs.Clone()
					_, err := c.Apply(m)
					require.NoError(t, err, "%s", m)
				}
				_, err := gs.Apply(legal[r.IntN(len(legal))])
				require.NoError(t, err)
			}
		}
	}
}

func TestTheTableViewHoldsNoLayoutAndSeatViewsOnlyTheirOwnLooks(t *testing.T) {
	s := fixture(t, 4, nil, stdMines)
	do(t, s, 0, "look", "d1")
	b, err := json.Marshal(s.View(game.Table))
	require.NoError(t, err)
	assert.NotContains(t, string(b), "seen-")
	assert.NotContains(t, string(b), "mine\"")
	b, _ = json.Marshal(s.View(1))
	assert.NotContains(t, string(b), "seen-")
	b, _ = json.Marshal(s.View(0))
	assert.Contains(t, string(b), `"sq":"d1","tile":"seen-mine"`)
	assert.Equal(t, 1, strings.Count(string(b), "seen-"))
}
