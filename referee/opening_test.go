package referee

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/rules/game"
	"github.com/tableref/tableref/rules/troll"
	"github.com/tableref/tableref/rules/woodlouse"
)

// A game that tells its set-up (game.Opener: Angry Troll) has it
// announced: the match keeps it as seq 0, hands it out with Opening, and
// every look from the start sees it; a later look does not get it again.
func TestTheSetUpIsAnnouncedAsTheGameStarts(t *testing.T) {
	m, err := New(troll.Game, game.Config{Seed: 3}, []string{"Ann"})
	require.NoError(t, err)
	open := m.Opening()
	require.NotEmpty(t, open)
	assert.Equal(t, "setup", open[0].Type)
	for _, e := range open {
		assert.Zero(t, e.Seq)
	}
	for _, since := range []int{-1, 0} {
		snap := m.Snapshot(0, since)
		require.GreaterOrEqual(t, len(snap.Events), len(open), "since %d", since)
		assert.Equal(t, open, snap.Events[:len(open)])
	}
	mv := m.Snapshot(0, 0).Legal[0]
	_, _, err = m.Apply(mv)
	require.NoError(t, err)
	for _, e := range m.Snapshot(0, 1).Events {
		assert.NotZero(t, e.Seq, "seen already: %s", e.Text)
	}
	again, err := Replay(troll.Game, m.Config(), m.Names(), m.Moves())
	require.NoError(t, err)
	assert.Equal(t, open, again.Opening(), "a replayed match tells the same set-up")

	w, err := New(woodlouse.Game, game.Config{Seed: 3}, []string{"Ann", "Bob", "Cy"})
	require.NoError(t, err)
	assert.Empty(t, w.Opening(), "a game that tells nothing of its set-up")
}
