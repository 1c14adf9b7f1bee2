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
