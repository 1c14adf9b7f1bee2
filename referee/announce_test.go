package referee

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/rules/game"
	"github.com/tableref/tableref/rules/louseflea"
	"github.com/tableref/tableref/rules/woodlouse"
)

func TestAHeardCodeIsTheTrainersCodeMove(t *testing.T) {
	m, err := New(woodlouse.Game, game.Config{Seed: 9}, four)
	require.NoError(t, err)
	trainer := m.Snapshot(game.Table, 0).Turn[0]
	mv, ok := m.CodeMove(3, 4)
	require.True(t, ok)
	assert.Equal(t, game.M(trainer, "code", "3", "4"), mv)
	// Once the code is given, guessing is open: a code heard now is nobody's.
	right := m.Snapshot(trainer, 0).Legal[0]
	_, _, err = m.Apply(right)
	require.NoError(t, err)
	_, ok = m.CodeMove(3, 4)
	assert.False(t, ok)
}

func TestAGameWithoutCodesHearsNone(t *testing.T) {
	m, err := New(louseflea.Game, game.Config{Seed: 1}, four)
	require.NoError(t, err)
	_, ok := m.CodeMove(1, 1)
	assert.False(t, ok)
}

func TestTheRefereeSaysTheHeadlinesOnly(t *testing.T) {
	for _, c := range []struct {
		typ, text, want string
		to              []int
	}{
		{"mistake", "Ann gives 3 bangs and 4 claps, but the card shows 2 rats: a wrong code. The card goes under the pile.", "Wrong code! Ann gives 3 bangs and 4 claps, but the card shows 2 rats.", nil},
		{"guess-right", "Bob calls 4 rats: right! Bob wins the card.", "Bob calls 4 rats: right!", nil},
		{"called", "The tree is played on Ann: play tree or girl to stand, or sit down.", "The tree is played on Ann.", nil},
		{"play", "Cart plays broom and sits down.", "Cart plays broom and sits down.", nil},
		{"play", "Bob plays broom and stays standing.", "", nil},
		{"boom", "BOOM! b4 was mined and Bob is blown up", "BOOM!", nil},
		{"alarm", "The deck is spent with 4 voice(s) still talking: the alarm rings.", "The deck is spent with 4 voice(s) still talking.", nil},
		{"step", "Ann steps carefully to c2", "", nil},
		{"guess-right", "a private event", "", []int{1}},
	} {
		got, ok := Announcement(Logged{Seq: 1, Event: game.Event{Type: c.typ, Text: c.text, To: c.to}})
		assert.Equal(t, c.want != "", ok, "%s: %q", c.typ, c.text)
		assert.Equal(t, c.want, got, "%s", c.typ)
	}
}
