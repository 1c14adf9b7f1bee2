package catalog

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tableref/tableref/rules/game"
)

func TestTheSevenGames(t *testing.T) {
	assert.Equal(t, []string{"woodlouse", "louseflea", "troll", "celestial", "pursesnatcher", "insomnia", "minefield"}, IDs())
}

func TestEveryEntryIsUsable(t *testing.T) {
	for _, g := range All() {
		in := g.Info()
		t.Run(in.ID, func(t *testing.T) {
			assert.NotEmpty(t, in.Name)
			assert.NotEmpty(t, in.Summary)
			assert.GreaterOrEqual(t, in.MinPlayers, 1)
			assert.LessOrEqual(t, in.MinPlayers, in.MaxPlayers)
			seen := map[string]bool{}
			for _, v := range in.Variants {
				assert.False(t, seen[v.ID], "variant %s twice", v.ID)
				seen[v.ID] = true
				assert.NotEmpty(t, v.Text, "variant %s explained", v.ID)
			}
			for _, o := range in.Options {
				assert.NotEmpty(t, o.Text, "option %s explained", o.Name)
			}
			// every player count and variant sets up with the defaults
			for p := in.MinPlayers; p <= in.MaxPlayers; p++ {
				vs := []string{""}
				for _, v := range in.Variants {
					vs = append(vs, v.ID)
				}
				for _, v := range vs {
					s, err := g.New(game.Config{Players: p, Variant: v, Seed: 1})
					require.NoError(t, err, "%d players, variant %q", p, v)
					assert.NotEmpty(t, s.Turn(), "someone may act at the start")
					require.NoError(t, s.Audit())
				}
			}
			_, err := g.New(game.Config{Players: in.MaxPlayers + 1})
			assert.Error(t, err)
		})
	}
}

func TestGetByID(t *testing.T) {
	for _, id := range IDs() {
		g, err := Get(id)
		require.NoError(t, err)
		assert.Equal(t, id, g.Info().ID)
	}
	_, err := Get("chess")
	assert.ErrorContains(t, err, `no game "chess" (the games are woodlouse,`)
}
