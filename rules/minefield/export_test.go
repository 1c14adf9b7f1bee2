package minefield

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/tableref/tableref/rules/game"
	"github.com/tableref/tableref/rules/game/gametest"
)

// Leaky is the game with its views broken on purpose, to prove that the
// secrecy check would notice.
var (
	LeakyLayout game.Game = gameImpl{leakLayout: true}
	LeakyLooks  game.Game = gameImpl{leakLooks: true}
	LeakyShared game.Game = gameImpl{leakShared: true}
)

// stdMines is a layout for the rule tests: the six blank outer tiles are
// d2, e2, a4, b4, b5 and d5.
const stdMines = "a1 b1 d1 e1 a2 b2 d4 e4 a5 e5"

// fixture sets up a match and lays the ten mines on the given squares:
// every other tile blank, the cross face up (unless it holds a mine), the
// rest face down. Tokens keep their starting squares.
func fixture(t testing.TB, players int, opts map[string]string, mineSquares string) *State {
	t.Helper()
	gs, err := Game.New(game.Config{Players: players, Options: opts, Seed: 1})
	require.NoError(t, err)
	s := gs.(*State)
	arrange(t, s, mineSquares)
	require.NoError(t, s.Audit())
	return s
}

func arrange(t testing.TB, s *State, mineSquares string) {
	t.Helper()
	list := strings.Fields(mineSquares)
	require.Len(t, list, mines)
	var isMine [cells]int8
	for i := range isMine {
		isMine[i] = -1
	}
	for id, w := range list {
		q, ok := parseSq(w)
		require.True(t, ok, w)
		isMine[q] = int8(id)
	}
	blank := int8(mines)
	for i := 0; i < cells; i++ {
		if isMine[i] >= 0 {
			s.board[i] = tile{ID: isMine[i], Mine: true}
			continue
		}
		s.board[i] = tile{ID: blank, Up: onCross(i)}
		blank++
	}
	s.seen, s.public = [4]uint32{}, 0
}

// at is the square named w.
func at(t testing.TB, w string) int {
	t.Helper()
	q, ok := parseSq(w)
	require.True(t, ok, w)
	return q
}

// place puts token tok on square w (turning its tile face up) and starts
// over the turn of seat, so the placing takes effect.
func place(t testing.TB, s *State, tok int, w string) {
	t.Helper()
	q := at(t, w)
	if o := s.tokenAt(q); o >= 0 && o != tok {
		t.Fatalf("someone already on %s", w)
	}
	s.tokens[tok].Pos = int8(q)
	s.board[q].Up = true
	s.beginTurn()
}

// setTurn gives the turn to seat.
func setTurn(s *State, seat int) {
	s.turn = seat
	s.beginTurn()
}

// bury blows token tok up off the board, as a ghost already risen.
func bury(s *State, tok int) {
	s.tokens[tok] = token{Seat: s.tokens[tok].Seat, Pos: -1, Ghost: true}
	s.beginTurn()
}

// rig reseeds the match's dice so that the next rolls of a six-sided die
// come up as given.
func rig(t testing.TB, s *State, rolls ...int) {
	t.Helper()
	s.rng = gametest.RiggedRand(t, rolls...)
}

// tileOf is what seat's view shows on square w.
func tileOf(s *State, seat int, w string) string {
	q, _ := parseSq(w)
	return s.View(seat).(View).Board[q].Tile
}
