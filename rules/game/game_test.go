package game

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var info = Info{
	ID: "x", Name: "Example", MinPlayers: 3, MaxPlayers: 6,
	Variants: []Variant{{ID: "basic"}, {ID: "easier"}},
	Options: []Option{
		{Name: "reshuffle", Default: "yes", Values: []string{"yes", "no"}},
		{Name: "minutes", Default: "15", Min: 1, Max: 120},
	},
}

func TestResolveFillsDefaults(t *testing.T) {
	v, o, err := info.Resolve(Config{Players: 4})
	require.NoError(t, err)
	assert.Equal(t, "basic", v)
	assert.Equal(t, map[string]string{"reshuffle": "yes", "minutes": "15"}, o)
	v, o, err = info.Resolve(Config{Players: 6, Variant: "easier", Options: map[string]string{"minutes": "30"}})
	require.NoError(t, err)
	assert.Equal(t, "easier", v)
	assert.Equal(t, 30, Int(o["minutes"]))
	assert.True(t, Bool(o["reshuffle"]))
}

func TestResolveSaysWhatIsWrong(t *testing.T) {
	for cfg, want := range map[*Config]string{
		{Players: 2}:                  "Example is for 3 to 6 players, not 2",
		{Players: 3, Variant: "hard"}: `Example has no variant "hard" (it has basic, easier)`,
		{Players: 3, Options: map[string]string{"x": "1"}}:             `Example has no option "x" (it has reshuffle, minutes)`,
		{Players: 3, Options: map[string]string{"reshuffle": "maybe"}}: `Example option reshuffle: "maybe" is not one of yes, no`,
		{Players: 3, Options: map[string]string{"minutes": "0"}}:       "Example option minutes: 0 is not between 1 and 120",
		{Players: 3, Options: map[string]string{"minutes": "ten"}}:     `Example option minutes: "ten" is not a whole number`,
	} {
		_, _, err := info.Resolve(*cfg)
		assert.EqualError(t, err, want)
	}
	solo := Info{Name: "Solo", MinPlayers: 1, MaxPlayers: 1}
	_, _, err := solo.Resolve(Config{Players: 2})
	assert.EqualError(t, err, "Solo is for 1 player, not 2")
	_, _, err = solo.Resolve(Config{Players: 1, Variant: "x"})
	assert.Error(t, err)
}

func TestMovesReadAndWrite(t *testing.T) {
	m := M(2, "guess", "spider", "4")
	assert.Equal(t, "2 guess spider 4", m.String())
	back, err := ParseMove(" 2  guess spider 4 ")
	require.NoError(t, err)
	assert.True(t, m.Equal(back))
	assert.False(t, m.Equal(M(2, "guess", "spider", "5")))
	assert.False(t, m.Equal(M(2, "guess", "spider")))
	for _, bad := range []string{"", "2", "x play", "-1 play"} {
		_, err := ParseMove(bad)
		assert.Error(t, err, bad)
	}
}

func TestEventAudience(t *testing.T) {
	pub := Event{Type: "t", Text: "x"}
	priv := Event{Type: "t", Text: "x", To: []int{1}}
	assert.True(t, pub.For(Table))
	assert.False(t, priv.For(Table))
	assert.True(t, priv.For(1))
	assert.False(t, priv.For(0))
}

func TestRandCopiesContinueAlike(t *testing.T) {
	a := NewRand(3)
	a.IntN(10)
	b := a
	for range 20 {
		assert.Equal(t, a.IntN(1000), b.IntN(1000))
	}
	var zero Rand
	assert.GreaterOrEqual(t, zero.Die(6), 1)
}

func TestSeatReferencesBecomeNames(t *testing.T) {
	text := Seat(0) + " pays " + Seat(2) + " a card {x} {"
	assert.Equal(t, "Ann pays player 3 a card {x} {", Names(text, []string{"Ann", "Bob"}))
	assert.Equal(t, "no seats", Names("no seats", nil))
}

func TestCheckPlayersSaysTheRangeAsPeopleWouldSayIt(t *testing.T) {
	for _, c := range []struct {
		min, max, n int
		want        string
	}{
		{2, 2, 2, ""},
		{2, 2, 3, "Duel is for 2 players, not 3"},
		{1, 1, 2, "Duel is for 1 player, not 2"},
		{3, 6, 2, "Duel is for 3 to 6 players, not 2"},
		{3, 6, 7, "Duel is for 3 to 6 players, not 7"},
		{3, 6, 6, ""},
	} {
		err := Info{Name: "Duel", MinPlayers: c.min, MaxPlayers: c.max}.CheckPlayers(c.n)
		if c.want == "" {
			assert.NoError(t, err)
		} else {
			assert.EqualError(t, err, c.want)
		}
	}
}

func TestAClocksLengthComesFromItsOptionOrTheDefault(t *testing.T) {
	in := Info{Options: []Option{{Name: "minutes", Default: "15", Min: 1, Max: 120}}}
	c := Clock{Name: "meeting", Option: "minutes", Unit: time.Minute, Action: "time"}
	d, ok := c.Length(in, nil)
	assert.True(t, ok)
	assert.Equal(t, 15*time.Minute, d)
	d, ok = c.Length(in, map[string]string{"minutes": "2"})
	assert.True(t, ok)
	assert.Equal(t, 2*time.Minute, d)
	for _, bad := range []string{"", "x", "0", "-3"} {
		_, ok = c.Length(in, map[string]string{"minutes": bad})
		assert.False(t, ok, "%q", bad)
	}
	_, ok = Clock{Option: "none", Unit: time.Second}.Length(in, nil)
	assert.False(t, ok, "an option the game does not have")
}

func TestEveryNotYourTurnRefusalIsOneKind(t *testing.T) {
	turn := RefuseTurn(M(1, "go"), "wait for %s", Seat(0))
	assert.True(t, IsTurnRefusal(turn))
	assert.ErrorIs(t, turn, ErrNotYourTurn)
	assert.Equal(t, "wait for {0}", turn.Error())
	other := Refuse(M(1, "go"), "no such card")
	assert.False(t, IsTurnRefusal(other))
	assert.NotErrorIs(t, other, ErrNotYourTurn)
	assert.True(t, IsTurnRefusal(fmt.Errorf("Bob: %w", ErrNotYourTurn)), "the referee's own")
}

func TestOptionAppliesToItsVariantsAndPlayerCounts(t *testing.T) {
	everywhere := Option{Name: "reshuffle"}
	assert.True(t, everywhere.AppliesTo("basic", 3))
	assert.True(t, everywhere.AppliesTo("", 6))

	easy := Option{Name: "cards", Variants: []string{"easier", "even-easier"}}
	assert.True(t, easy.AppliesTo("easier", 4))
	assert.True(t, easy.AppliesTo("even-easier", 4))
	assert.False(t, easy.AppliesTo("basic", 4))
	assert.False(t, easy.AppliesTo("", 4), "the variant must be named to match")

	few := Option{Name: "small-table", MaxPlayers: 5}
	assert.True(t, few.AppliesTo("", 3))
	assert.True(t, few.AppliesTo("", 5))
	assert.False(t, few.AppliesTo("", 6))

	many := Option{Name: "teams", MinPlayers: 4}
	assert.False(t, many.AppliesTo("", 3))
	assert.True(t, many.AppliesTo("", 4))
	assert.True(t, many.AppliesTo("", 9))

	pair := Option{Name: "pair", MinPlayers: 2, MaxPlayers: 2, Variants: []string{"basic"}}
	assert.True(t, pair.AppliesTo("basic", 2))
	assert.False(t, pair.AppliesTo("basic", 3))
	assert.False(t, pair.AppliesTo("harder", 2))
	assert.True(t, pair.AppliesTo("basic", 0), "a count not known yet: only the variant is judged")
	assert.False(t, pair.AppliesTo("harder", 0))
}

func TestOptionCloneSharesNothing(t *testing.T) {
	o := Option{Name: "x", Values: []string{"a", "b"}, ValueText: map[string]string{"a": "A", "b": "B"}, Variants: []string{"basic"}}
	c := o.Clone()
	assert.Equal(t, o, c)
	c.Values[0], c.ValueText["a"], c.Variants[0] = "z", "Z", "harder"
	assert.Equal(t, []string{"a", "b"}, o.Values)
	assert.Equal(t, "A", o.ValueText["a"])
	assert.Equal(t, []string{"basic"}, o.Variants)
}
