package woodlouse

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBangsGivePositionAndClapsGiveCount(t *testing.T) {
	// The rulebook's own example: woodlouse, rat, spider, fly; 3 bangs and 4 claps.
	o, err := ParseOrder("woodlouse,rat,spider,fly")
	require.NoError(t, err)
	c, err := o.Decode(3, 4)
	require.NoError(t, err)
	assert.Equal(t, Card{Spider, 4}, c)
	assert.Equal(t, "4 spiders", c.String())
}

func TestPositionOneIsNextToTheBox(t *testing.T) {
	o, err := ParseOrder("snail,fly,rat")
	require.NoError(t, err)
	c, err := o.Decode(1, 1)
	require.NoError(t, err)
	assert.Equal(t, "1 snail", c.String())
	c, err = o.Decode(3, 5)
	require.NoError(t, err)
	assert.Equal(t, "5 rats", c.String())
}

func TestCodesThatFitNoCard(t *testing.T) {
	o, _ := ParseOrder("woodlouse,rat,spider,fly")
	for _, tc := range []struct {
		bangs, claps int
		want         string
	}{
		{0, 3, "no bangs"},
		{5, 2, "5 bangs, but only 4 sequence cards"},
		{2, 0, "no claps"},
		{2, 6, "6 claps, and a card shows at most 5 animals"},
		{0, 0, "no bangs, so no position; no claps"},
	} {
		_, err := o.Decode(tc.bangs, tc.claps)
		require.Error(t, err, "%d bangs %d claps", tc.bangs, tc.claps)
		assert.True(t, errors.Is(err, ErrNoCard))
		assert.Contains(t, err.Error(), tc.want)
	}
}

func TestHarderVariantHasFivePositions(t *testing.T) {
	o, err := ParseOrder("Snails, Woodlice, Rats, Spiders, Flies")
	require.NoError(t, err)
	c, err := o.Decode(5, 2)
	require.NoError(t, err)
	assert.Equal(t, "2 flies", c.String())
	assert.Equal(t, "snail,woodlouse,rat,spider,fly", o.String())
}

func TestBadOrders(t *testing.T) {
	for in, want := range map[string]string{
		"":                                   "needs 3 to 5 animals",
		"rat,fly":                            "needs 3 to 5 animals",
		"rat,fly,snail,spider,woodlouse,rat": "needs 3 to 5 animals",
		"rat,fly,rat":                        "rat appears twice",
		"rat,fly,dog":                        `unknown animal "dog"`,
	} {
		_, err := ParseOrder(in)
		require.Error(t, err, in)
		assert.Contains(t, err.Error(), want, in)
	}
}

func TestPluralsAndSingular(t *testing.T) {
	assert.Equal(t, "2 woodlice", Card{Woodlouse, 2}.String())
	assert.Equal(t, "1 woodlouse", Card{Woodlouse, 1}.String())
	assert.Equal(t, "3 flies", Card{Fly, 3}.String())
	for _, s := range AllSpecies {
		p, err := ParseSpecies(s.Plural())
		require.NoError(t, err)
		assert.Equal(t, s, p)
	}
}
