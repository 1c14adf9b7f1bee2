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

// What a game declares it needs from the referee holds together: a clock
// is set by one of its options and drives one of its referee actions, a
// game heard in codes names the move they become and its state can check
// them, and the sounds are ones the referee has.
func TestEveryGamesDeclaredNeedsHoldTogether(t *testing.T) {
	listening := 0
	for _, g := range append(All(), Tools()...) {
		in := g.Info()
		t.Run(in.ID, func(t *testing.T) {
			for _, c := range in.Clocks {
				assert.NotEmpty(t, c.Name)
				assert.Contains(t, in.RefereeActions, c.Action, "clock %s", c.Name)
				length, ok := c.Length(in, nil)
				assert.True(t, ok, "clock %s: option %q has a whole-number default", c.Name, c.Option)
				assert.Positive(t, length)
			}
			h := in.Hears
			assert.Equal(t, h.Gestures, h.CodeAction != "", "a game heard in codes says what they become")
			assert.Equal(t, h.Listens(), h.WithoutMic != "", "a game that listens says what it loses without the microphone")
			if h.Listens() {
				listening++
			}
			s, err := g.New(game.Config{Players: in.MinPlayers, Seed: 1})
			require.NoError(t, err)
			_, checks := s.(game.CodeChecker)
			assert.Equal(t, h.Gestures, checks, "a game heard in codes checks them against its table")
			for typ, how := range in.Sounds {
				assert.Contains(t, []string{game.SoundBuzzer, game.SoundChime, game.SoundAlarm}, how, "sound of %s", typ)
			}
			for typ, how := range in.Spoken {
				assert.NotEmpty(t, how, "how %s is said", typ)
			}
			assert.Contains(t, in.Page, "export function view(", "its page module shows its view")
		})
	}
	assert.Equal(t, 2, listening, "Woodlouse Chaos and Insomnia")
}
