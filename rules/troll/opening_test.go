package troll

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/rules/game"
)

// What happens while setting up is news at the table (7.1: the first card
// starts the lower stack, the die places the troll, the first awakening
// phase draws and wakes): the game tells it (game.Opener), the same each
// time it is asked, whatever the moves since.
func TestTheSetUpIsToldAsEvents(t *testing.T) {
	st, err := Game.New(game.Config{Players: 1, Seed: 7, Options: map[string]string{"start-with": "card"}})
	require.NoError(t, err)
	o, ok := st.(game.Opener)
	require.True(t, ok, "Angry Troll tells its set-up")
	evs := o.Opening()
	require.NotEmpty(t, evs)
	assert.Equal(t, "setup", evs[0].Type)
	text := ""
	for _, e := range evs {
		text += e.Text + "\n"
		assert.True(t, e.Public(), "the set-up is public: %q", e.Text)
	}
	assert.Contains(t, text, "starts the lower stack")
	assert.Contains(t, text, "The die shows")
	assert.Regexp(t, `(?m)^The troll (starts holding|is offered)`, text, "the start card")
	assert.True(t, strings.Contains(text, "wakes") || strings.Contains(text, "draw"), "the first awakening: %s", text)

	evs[0].Text = "changed by the caller"
	assert.NotEqual(t, "changed by the caller", o.Opening()[0].Text, "a copy each time")
	m := st.Legal(0)[0]
	_, err = st.Apply(m)
	require.NoError(t, err)
	assert.Equal(t, text, joined(st.(game.Opener).Opening()), "the same after a move")
	assert.Equal(t, text, joined(st.Clone().(game.Opener).Opening()), "and in a clone")
}

func joined(evs []game.Event) string {
	s := ""
	for _, e := range evs {
		s += e.Text + "\n"
	}
	return s
}
