package minefield

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/tableref/tableref/rules/game"
)

func TestAGhostMayNotPushItsOwnTeamsToken(t *testing.T) {
	s := fixture(t, 2, nil, stdMines)
	bury(s, 0) // seat 0: a ghost, and its token on c5
	do(t, s, 0, "use", "ghost")
	rig(t, s, 6)
	do(t, s, 0, "haunt")
	for _, m := range s.Legal(0) {
		assert.NotEqual(t, "c5", m.Args[0], "Legal offers only the other team's tokens: %s", m)
	}
	msg := refused(t, s, 0, "push", "c5", "s")
	assert.Contains(t, msg, "own team's token")
	do(t, s, 0, "push", "a3", "s")
	assert.False(t, s.tokens[1].Alive, "pushed south onto a2's mine")
}

// A ghost's 6 always finds someone to push while an opponent stands: a
// push, like a shove, moves its victim as far as they can go, and a victim
// walled in (the edge, other tokens) goes 0 tiles; the push is made and
// spent all the same (doc.go, 10).
func TestAGhostsSixFindsSomeoneToPushEvenInACrowdedCorner(t *testing.T) {
	s := fixture(t, 2, nil, openMines)
	bury(s, 0)
	place(t, s, 1, "a1")
	place(t, s, 3, "b1")
	place(t, s, 2, "a2") // seat 0's own token walls a1 in from the north
	setTurn(s, 0)
	do(t, s, 0, "use", "ghost")
	rig(t, s, 6)
	ev := do(t, s, 0, "haunt")
	assert.Contains(t, texts(ev), "rolls a 6 and may push anyone")
	var pushes []game.Move
	for _, v := range []string{"a1", "b1"} {
		for _, d := range []string{"n", "e", "s", "w"} {
			pushes = append(pushes, game.M(0, "push", v, d))
		}
	}
	assert.ElementsMatch(t, pushes, s.Legal(0), "either opponent token, any direction: room or not")
	// a1 is walled in (the edge west and south, seat 0's own token north,
	// b1 east): pushed, it goes 0 tiles, and the push is spent.
	ev = do(t, s, 0, "push", "a1", "n")
	assert.Contains(t, texts(ev), "pushes")
	assert.Contains(t, texts(ev), "stops against")
	assert.Equal(t, "a1", sq(int(s.tokens[1].Pos)))
	assert.NotEqual(t, []int{0}, s.Turn(), "the ghost's turn is over")
}

func TestInATwoPlayerGameTheGhostMayActWhileATokenStillStands(t *testing.T) {
	s := fixture(t, 2, nil, stdMines)
	bury(s, 0)
	assert.ElementsMatch(t, []game.Move{game.M(0, "use", "c5"), game.M(0, "use", "ghost")}, s.Legal(0))
	do(t, s, 0, "use", "ghost")
	assert.Equal(t, "ghost", s.View(0).(View).Phase)
	refused(t, s, 0, "step", "c4")
	do(t, s, 0, "peek", "d4")
	assert.Equal(t, TileSeenMine, tileOf(s, 0, "d4"))
	assert.Equal(t, 1, s.turn, "the ghost's action was the turn")
	assert.Equal(t, "c5", sq(int(s.tokens[2].Pos)), "the living token did not move")
}

func TestARearmedMineSwappedElsewhereIsStillKnownToBeArmed(t *testing.T) {
	s := fixture(t, 3, nil, stdMines)
	s.board[at(t, "b2")].Up = true // exploded earlier
	bury(s, 0)
	do(t, s, 0, "rearm", "b2")
	setTurn(s, 0)
	do(t, s, 0, "swap", "b2", "d2")
	for v := game.Table; v < 3; v++ {
		assert.Equal(t, TileArmed, tileOf(s, v, "d2"), "seat %d sees the armed mine where it went", v)
		assert.Equal(t, TileDown, tileOf(s, v, "b2"), "and a face-down tile where it was")
	}
	place(t, s, 1, "d3")
	setTurn(s, 1)
	ev := do(t, s, 1, "step", "d2")
	assert.Contains(t, texts(ev), "BOOM")
	assert.Equal(t, TileSpent, tileOf(s, game.Table, "d2"))
}

// A ghost does push, but only when its haunting die shows a 6: a push
// before the roll hears to haunt first, not that ghosts cannot push.
func TestAGhostPushingBeforeItsSixHearsToHauntFirst(t *testing.T) {
	s := fixture(t, 2, nil, stdMines)
	bury(s, 0)
	do(t, s, 0, "use", "ghost")
	assert.Equal(t, "a ghost pushes only after rolling a 6: haunt first", refused(t, s, 0, "push", "a3", "s"))
	assert.Contains(t, refused(t, s, 0, "step", "c4"), "a ghost cannot step")
}
