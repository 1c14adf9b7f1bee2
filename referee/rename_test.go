package referee

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/rules/game"
	"github.com/tableref/tableref/rules/woodlouse"
)

func TestRenameChangesTheNameInLaterSnapshotsOnly(t *testing.T) {
	m, err := New(woodlouse.Game, game.Config{Seed: 7}, []string{"Ann", "Bob", "Cy"})
	require.NoError(t, err)
	require.NoError(t, m.Rename(1, "Eve"))
	assert.Equal(t, []string{"Ann", "Eve", "Cy"}, m.Names())
	assert.Equal(t, []string{"Ann", "Eve", "Cy"}, m.Snapshot(0, 0).Names)
	assert.ErrorIs(t, m.Rename(3, "Zed"), ErrNoSeat)
	assert.ErrorIs(t, m.Rename(-1, "Zed"), ErrNoSeat)
	assert.Equal(t, []string{"Ann", "Eve", "Cy"}, m.Names())
}

// TestAMoveWithBracesIsRefusedWithoutNamingAnyone: the referee names the
// seats in a refusal's reason, which quotes the move's words; a word "{0}"
// would come out as the first player's name ("pass AS Ann"). Such a move
// is refused before the game sees it, changing nothing, and the reason
// names nobody, on turn or not.
func TestAMoveWithBracesIsRefusedWithoutNamingAnyone(t *testing.T) {
	m := dealerMatch(t, "Ann", "Bob", "Cy")
	card := hand(t, m, 1)
	require.NotEmpty(t, card)
	for _, mv := range []game.Move{
		game.M(1, "pass", card[0], "{0}"),
		game.M(1, "pass", "{2}", "0"),
		game.M(1, "{1}"),
		game.M(0, "discard", "}{"),
	} {
		seq, evs, err := m.Apply(mv)
		require.Error(t, err, "%v", mv)
		var r *game.RefusedError
		require.ErrorAs(t, err, &r)
		assert.Contains(t, err.Error(), "no braces")
		for _, name := range m.Names() {
			assert.NotContains(t, err.Error(), name)
		}
		assert.Equal(t, 0, seq)
		assert.Empty(t, evs)
	}
	assert.Empty(t, m.Moves(), "nothing applied")
	assert.Equal(t, card, hand(t, m, 1))
	// The same move with a seat's number is the game's to judge.
	_, _, err := m.Apply(game.M(1, "pass", card[0], "0"))
	require.NoError(t, err)
}
