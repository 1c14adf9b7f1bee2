package deck

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tableref/tableref/rules/game"
)

func TestAFreshDeckHasEveryCardOnce(t *testing.T) {
	for jokers := 0; jokers <= 2; jokers++ {
		d := New(jokers)
		require.Len(t, d, 52+jokers)
		seen := map[string]bool{}
		for _, c := range d {
			assert.False(t, seen[c.String()], "%s twice", c)
			seen[c.String()] = true
		}
	}
}

func TestNamesReadBack(t *testing.T) {
	for _, c := range New(2) {
		p, err := Parse(c.String())
		require.NoError(t, err)
		assert.Equal(t, c, p)
	}
	for in, want := range map[string]string{"td": "10D", "10h": "10H", "a♠": "AS", " qc ": "QC", "1s": "AS"} {
		c, err := Parse(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, c.String())
	}
	for _, bad := range []string{"", "X", "11H", "0S", "AX", "JJ", "♠"} {
		_, err := Parse(bad)
		assert.Error(t, err, bad)
	}
}

func TestColoursAndWords(t *testing.T) {
	c, _ := Parse("7H")
	assert.True(t, c.Red())
	assert.Equal(t, "7 of hearts", c.Name())
	c, _ = Parse("KS")
	assert.False(t, c.Red())
	assert.Equal(t, "king of spades", c.Name())
	assert.True(t, New(2)[52].Red())
	assert.False(t, New(2)[53].Red())
}

func TestCardsAreJSONNames(t *testing.T) {
	b, err := json.Marshal([]Card{{Rank: Ace, Suit: Spades}, {Rank: 10, Suit: Hearts}})
	require.NoError(t, err)
	assert.JSONEq(t, `["AS","10H"]`, string(b))
	var back []Card
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, "10H", back[1].String())
}

func TestShuffleIsSeeded(t *testing.T) {
	a, b, c := New(0), New(0), New(0)
	r1, r2, r3 := game.NewRand(5), game.NewRand(5), game.NewRand(6)
	Shuffle(&r1, a)
	Shuffle(&r2, b)
	Shuffle(&r3, c)
	assert.Equal(t, a, b, "same seed, same order")
	assert.NotEqual(t, a, c, "another seed, another order")
	assert.NotEqual(t, New(0), a)
}

func TestDealGoesRoundTheTable(t *testing.T) {
	d := New(0)
	hands, rest, err := Deal(d, 4, 5)
	require.NoError(t, err)
	require.Len(t, hands, 4)
	assert.Equal(t, []Card{d[0], d[4], d[8], d[12], d[16]}, hands[0])
	assert.Equal(t, d[3], hands[3][0])
	assert.Len(t, rest, 32)
	_, _, err = Deal(d, 5, 11)
	assert.EqualError(t, err, "deal 11 cards to each of 5 players: the deck has 52")
	_, _, err = Deal(d, 0, 1)
	assert.Error(t, err)
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"AS", "10h", "RJ", "q♣", "", "1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := Parse(s)
		if err != nil {
			return
		}
		back, err := Parse(c.String())
		if err != nil || back != c {
			t.Fatalf("%q read as %v, which reads back as %v, %v", s, c, back, err)
		}
	})
}

// A deal that cannot be made is refused whatever the numbers, even those
// whose product would overflow, and never panics.
func TestADealTooBigForTheDeckIsRefusedEvenWhenTheProductOverflows(t *testing.T) {
	d := New(0)
	for _, c := range []struct{ players, n int }{
		{1 << 62, 4}, {4, 1 << 62}, {1 << 62, 1 << 62}, {-1, 5}, {53, 1}, {4, -1}, {26, 3},
	} {
		_, _, err := Deal(d, c.players, c.n)
		assert.Error(t, err, "%d players × %d cards", c.players, c.n)
	}
	hands, rest, err := Deal(d, 52, 1)
	require.NoError(t, err)
	assert.Len(t, hands, 52)
	assert.Empty(t, rest)
	hands, rest, err = Deal(d, 26, 2)
	require.NoError(t, err)
	assert.Len(t, hands[25], 2)
	assert.Empty(t, rest)
}

func FuzzDeal(f *testing.F) {
	f.Add(4, 5, 0)
	f.Add(1<<62, 4, 2)
	f.Add(52, 1, 1)
	f.Fuzz(func(t *testing.T, players, n, jokers int) {
		d := New(((jokers % 3) + 3) % 3)
		hands, rest, err := Deal(d, players, n)
		if err != nil {
			return
		}
		total := len(rest)
		for _, h := range hands {
			if len(h) != n {
				t.Fatalf("a hand of %d cards, not %d", len(h), n)
			}
			total += len(h)
		}
		if total != len(d) {
			t.Fatalf("%d cards dealt and left from a deck of %d", total, len(d))
		}
	})
}
