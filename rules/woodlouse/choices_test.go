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

// In a game of three animals two stay in the box, both the players' to
// choose (left-out and left-out-too), or the draw's; they must differ.
func TestThePlayersChooseBothAnimalsLeftOutOfAGameOfThree(t *testing.T) {
	for _, variant := range []string{Easier, EvenEasier} {
		for i, out := range AllSpecies {
			too := AllSpecies[(i+2)%len(AllSpecies)]
			for seed := uint64(1); seed <= 10; seed++ {
				st, err := Rules{}.New(game.Config{Players: 3, Variant: variant, Seed: seed,
					Options: map[string]string{OptLeftOut: string(out), OptLeftOutToo: string(too)}})
				require.NoError(t, err)
				s := st.(*State)
				assert.Len(t, s.order, 3)
				assert.NotContains(t, s.order, out, "%s: %s and %s left out, seed %d", variant, out, too, seed)
				assert.NotContains(t, s.order, too, "%s: %s and %s left out, seed %d", variant, out, too, seed)
				require.NoError(t, s.Audit())
			}
			// The second alone: the first is drawn among the others.
			st, err := Rules{}.New(game.Config{Players: 3, Variant: variant, Seed: 5,
				Options: map[string]string{OptLeftOutToo: string(too)}})
			require.NoError(t, err)
			assert.NotContains(t, st.(*State).order, too)
		}
	}
	_, err := Rules{}.New(game.Config{Players: 3, Variant: Easier,
		Options: map[string]string{OptLeftOut: string(Rat), OptLeftOutToo: string(Rat)}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "must differ")
	// Where four or five animals play, the second is not used (and the
	// same animal twice is no contradiction).
	st, err := Rules{}.New(game.Config{Players: 3, Variant: Basic,
		Options: map[string]string{OptLeftOut: string(Rat), OptLeftOutToo: string(Rat)}})
	require.NoError(t, err)
	assert.Len(t, st.(*State).order, 4)
}

// The even easier game may be played with all 50 cards: five animals, the
// basic pile, the sequence never reshuffled.
func TestTheEvenEasierGameWithFiftyCards(t *testing.T) {
	st, err := Rules{}.New(game.Config{Players: 4, Variant: EvenEasier, Seed: 3, Options: map[string]string{OptEvenEasierCards: "50"}})
	require.NoError(t, err)
	s := st.(*State)
	assert.Len(t, s.order, 5)
	assert.True(t, s.fixed)
	assert.Len(t, s.pile, PileSize(4)-1, "the basic pile, less the card drawn for the first trainer")
	require.NoError(t, s.Audit())
}
