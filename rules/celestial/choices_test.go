package celestial

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/rules/game"
)

// The players may pick their clans at the table; a player who does not is
// dealt one of the clans left (by seat order, or at random), and a game
// with no choice deals the clans as it always did.
func TestPlayersPickTheirClansAndTheRestAreDealt(t *testing.T) {
	clansOf := func(st game.State) []string {
		var out []string
		for _, p := range st.View(game.Table).(View).Players {
			out = append(out, p.Clan)
		}
		return out
	}
	st, err := Game.New(game.Config{Players: 3, Seed: 4, Options: map[string]string{"clan-2": "dragon", "clan-3": "tortoise"}})
	require.NoError(t, err)
	assert.Equal(t, []string{"phoenix", "dragon", "tortoise"}, clansOf(st), "the first player is dealt the first clan left")
	assert.Equal(t, []int{1}, st.Turn(), "the Dragon attacks first, whoever plays it")

	for seed := uint64(1); seed <= 30; seed++ {
		st, err := Game.New(game.Config{Players: 4, Seed: seed, Options: map[string]string{"clan-1": "tiger", OptClans: ClansRandom}})
		require.NoError(t, err)
		c := clansOf(st)
		assert.Equal(t, "tiger", c[0])
		assert.ElementsMatch(t, []string{"dragon", "phoenix", "tiger", "tortoise"}, c, "each clan fights once")
		require.NoError(t, st.Audit())
	}

	_, err = Game.New(game.Config{Players: 2, Options: map[string]string{"clan-1": "phoenix", "clan-2": "phoenix"}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the first and the second player both chose the Phoenix clan")
	_, err = Game.New(game.Config{Players: 2, Options: map[string]string{"clan-1": "monkey"}})
	assert.Error(t, err, "no such clan")

	for seed := uint64(1); seed <= 10; seed++ {
		for _, how := range []string{ClansSeats, ClansRandom} {
			a, err := Game.New(game.Config{Players: 4, Seed: seed, Options: map[string]string{OptClans: how}})
			require.NoError(t, err)
			b, err := Game.New(game.Config{Players: 4, Seed: seed, Options: map[string]string{OptClans: how, "clan-1": ClanDealt, "clan-3": ClanDealt}})
			require.NoError(t, err)
			assert.Equal(t, clansOf(a), clansOf(b), "no choice made: dealt as before")
		}
	}
}
