package woodlouse

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/rules/game"
)

// The players decide together which animal stays in the box (the rules
// leave it to them); by default the draw decides, as before the option.
func TestThePlayersChooseTheAnimalLeftInTheBox(t *testing.T) {
	inPlay := func(s *State) []Species {
		var all []uint8
		all = append(all, s.pile...)
		all = append(all, s.box...)
		for _, sc := range s.scores {
			all = append(all, sc...)
		}
		all = append(all, s.card)
		var sp []Species
		for _, id := range all {
			if c := cardOf(id); !slices.Contains(sp, c.Species) {
				sp = append(sp, c.Species)
			}
		}
		return sp
	}
	for _, tc := range []struct {
		variant string
		opts    map[string]string
		n       int
	}{
		{Basic, nil, 4},
		{Easier, nil, 3},
		{EvenEasier, map[string]string{OptEvenEasierCards: "40"}, 4},
	} {
		for _, out := range AllSpecies {
			for seed := uint64(1); seed <= 20; seed++ {
				opts := map[string]string{OptLeftOut: string(out)}
				for k, v := range tc.opts {
					opts[k] = v
				}
				st, err := Rules{}.New(game.Config{Players: 4, Variant: tc.variant, Options: opts, Seed: seed})
				require.NoError(t, err)
				s := st.(*State)
				assert.NotContains(t, s.order, out, "%s, %s left out, seed %d", tc.variant, out, seed)
				assert.NotContains(t, inPlay(s), out)
				assert.Len(t, s.order, tc.n)
				require.NoError(t, s.Audit())
			}
		}
	}
	// The draw's choice is as it was: the same seed gives the same game
	// with the option at its default as without it.
	for seed := uint64(1); seed <= 20; seed++ {
		a, err := Rules{}.New(game.Config{Players: 4, Seed: seed})
		require.NoError(t, err)
		b, err := Rules{}.New(game.Config{Players: 4, Seed: seed, Options: map[string]string{OptLeftOut: LeftOutRandom}})
		require.NoError(t, err)
		assert.Equal(t, a.View(game.Table), b.View(game.Table))
	}
	_, err := Rules{}.New(game.Config{Players: 4, Options: map[string]string{OptLeftOut: "dragon"}})
	assert.Error(t, err, "an animal that is not in the game")
}
