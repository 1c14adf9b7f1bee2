package catalog

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tableref/tableref/rules/game"
)

// TestEveryChoiceReadsAsWords: the start page shows variants and options by
// their human names, never their ids. Every variant has a Name, every
// option a Label and a short text for each of its values (and none for a
// value it does not have), and an option's applicability names only the
// game's own variants and player counts.
func TestEveryChoiceReadsAsWords(t *testing.T) {
	for _, g := range append(All(), Tools()...) {
		in := g.Info()
		t.Run(in.ID, func(t *testing.T) {
			variants := map[string]bool{}
			for _, v := range in.Variants {
				variants[v.ID] = true
				assert.NotEmpty(t, strings.TrimSpace(v.Name), "variant %s has a name", v.ID)
				assert.LessOrEqual(t, utf8.RuneCountInString(v.Name), 24, "variant %s: a short name", v.ID)
			}
			labels := map[string]string{}
			for _, o := range in.Options {
				assert.NotEmpty(t, strings.TrimSpace(o.Label), "option %s has a label", o.Name)
				assert.False(t, rawID(o.Label, o.Name), "option %s: the label %q is more than its id", o.Name, o.Label)
				assert.NotContains(t, o.Label, o.Name+":", "option %s: the label is not the old \"id: text\"", o.Name)
				assert.LessOrEqual(t, utf8.RuneCountInString(o.Label), 40, "option %s: a short label", o.Name)
				if other, ok := labels[o.Label]; ok {
					t.Errorf("options %s and %s share the label %q", other, o.Name, o.Label)
				}
				labels[o.Label] = o.Name
				for _, v := range o.Values {
					text := o.ValueText[v]
					assert.NotEmpty(t, strings.TrimSpace(text), "option %s: value %q reads as words", o.Name, v)
					assert.LessOrEqual(t, utf8.RuneCountInString(text), 27, "option %s value %s: a short text, whole in a list on a phone", o.Name, v)
				}
				for v := range o.ValueText {
					assert.Contains(t, o.Values, v, "option %s: a text for %q, which is not one of its values", o.Name, v)
				}
				for _, v := range o.Variants {
					assert.True(t, variants[v], "option %s applies to variant %q, which %s does not have", o.Name, v, in.ID)
				}
				assert.Len(t, slices.Compact(slices.Sorted(slices.Values(o.Variants))), len(o.Variants), "option %s names a variant twice", o.Name)
				if o.MinPlayers != 0 {
					assert.True(t, o.MinPlayers >= in.MinPlayers && o.MinPlayers <= in.MaxPlayers,
						"option %s: min_players %d within the game's %d to %d", o.Name, o.MinPlayers, in.MinPlayers, in.MaxPlayers)
				}
				if o.MaxPlayers != 0 {
					assert.True(t, o.MaxPlayers >= max(in.MinPlayers, o.MinPlayers) && o.MaxPlayers <= in.MaxPlayers,
						"option %s: max_players %d within the game's %d to %d (and not below min_players)", o.Name, o.MaxPlayers, in.MinPlayers, in.MaxPlayers)
				}
				applies := false
				for _, v := range variantIDs(in) {
					for n := in.MinPlayers; n <= in.MaxPlayers; n++ {
						applies = applies || o.AppliesTo(v, n)
					}
				}
				assert.True(t, applies, "option %s applies somewhere", o.Name)
			}
		})
	}
}

// rawID reports whether label is only the option's id written out
// ("after-last-card" as "After last card").
func rawID(label, id string) bool {
	norm := func(s string) string { return strings.ToLower(strings.Join(strings.FieldsFunc(s, isSep), " ")) }
	return norm(label) == norm(id)
}

func isSep(r rune) bool { return r == '-' || r == '_' || r == ' ' || r == ':' }

func variantIDs(in game.Info) []string {
	if len(in.Variants) == 0 {
		return []string{""}
	}
	var ids []string
	for _, v := range in.Variants {
		ids = append(ids, v.ID)
	}
	return ids
}

// TestWhereOptionsApply pins the applicability the start page hides
// options by: the card count of Woodlouse's even easier game, the small
// table of The Louse and the Flea and the two-player turns of the
// minefield.
func TestWhereOptionsApply(t *testing.T) {
	for _, c := range []struct {
		game, option, variant string
		players               int
		applies               bool
	}{
		{"woodlouse", "even-easier-cards", "even-easier", 4, true},
		{"woodlouse", "even-easier-cards", "basic", 4, false},
		{"woodlouse", "even-easier-cards", "easier", 4, false},
		{"woodlouse", "after-last-card", "harder", 6, true},
		{"louseflea", "small-table", "", 5, true},
		{"louseflea", "small-table", "", 3, true},
		{"louseflea", "small-table", "", 6, false},
		{"louseflea", "deck-out", "", 6, true},
		{"minefield", "pair", "", 2, true},
		{"minefield", "pair", "", 3, false},
		{"minefield", "shoves", "", 4, true},
	} {
		g, err := Get(c.game)
		require.NoError(t, err)
		i := slices.IndexFunc(g.Info().Options, func(o game.Option) bool { return o.Name == c.option })
		require.GreaterOrEqual(t, i, 0, "%s has option %s", c.game, c.option)
		assert.Equal(t, c.applies, g.Info().Options[i].AppliesTo(c.variant, c.players), "%s %s, variant %q, %d players", c.game, c.option, c.variant, c.players)
	}
}

// TestInfoHandsOutCopies: changing what Info returns (a value's text, an
// option's variants or values, a variant's name) leaves the catalogue as
// it was.
func TestInfoHandsOutCopies(t *testing.T) {
	for _, g := range append(All(), Tools()...) {
		before := g.Info()
		t.Run(before.ID, func(t *testing.T) {
			in := g.Info()
			for i := range in.Variants {
				in.Variants[i].Name = "changed"
			}
			for i := range in.Options {
				o := &in.Options[i]
				o.Label = "changed"
				for k := range o.ValueText {
					o.ValueText[k] = "changed"
				}
				for j := range o.Values {
					o.Values[j] = "changed"
				}
				for j := range o.Variants {
					o.Variants[j] = "changed"
				}
			}
			assert.Equal(t, before, g.Info())
		})
	}
}
