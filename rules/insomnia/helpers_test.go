package insomnia_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/tableref/tableref/rules/game"
	"github.com/tableref/tableref/rules/insomnia"
)

// staged is the usual test table: voices 1 to 6 hold 7H 2C KS 10D 5S QH,
// and the sleeper's deck starts with top.
func staged(t *testing.T, players int, opts map[string]string, top ...string) game.State {
	t.Helper()
	s, err := insomnia.Arranged(players, opts, append([]string{"7H", "2C", "KS", "10D", "5S", "QH"}, top...)...)
	require.NoError(t, err)
	require.NoError(t, s.Audit())
	return s
}

func apply(t *testing.T, s game.State, seat int, action string, args ...string) []game.Event {
	t.Helper()
	ev, err := s.Apply(game.M(seat, action, args...))
	require.NoError(t, err, "%d %s %v", seat, action, args)
	require.NoError(t, s.Audit())
	return ev
}

// refused applies a move that must be refused, checks the state did not
// change, and returns the reason.
func refused(t *testing.T, s game.State, seat int, action string, args ...string) string {
	t.Helper()
	before := s.Clone()
	_, err := s.Apply(game.M(seat, action, args...))
	require.Error(t, err, "%d %s %v should be refused", seat, action, args)
	require.True(t, reflect.DeepEqual(before, s), "a refused move changed the state")
	return err.Error()
}

func view(s game.State, seat int) insomnia.View {
	return s.View(seat).(insomnia.View)
}

func viewJSON(t *testing.T, s game.State, seat int) string {
	t.Helper()
	b, err := json.Marshal(s.View(seat))
	require.NoError(t, err)
	return string(b)
}

func actions(ms []game.Move) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.String())
	}
	return out
}

func types(ev []game.Event) []string {
	var out []string
	for _, e := range ev {
		out = append(out, e.Type)
	}
	return out
}
