package woodlouse

import (
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tableref/tableref/rules/game"
)

// table describes a situation to set up.
type table struct {
	players int
	variant string   // "" is basic
	stop    bool     // after-last-card=stop
	order   string   // the sequence, position 1 first
	pile    []string // the draw pile, top first; the trainer draws the first
	scores  [][]string
	trainer int
	turns   int // trainer turns already finished
}

// parseCard reads "4 spiders" or "1 rat".
func parseCard(t testing.TB, s string) Card {
	t.Helper()
	c, err := ParseGuess(strings.Fields(s))
	require.NoError(t, err, s)
	return c
}

// build sets up the table; the cards not named go to the box.
func build(t testing.TB, tb table) *State {
	t.Helper()
	order, err := ParseOrder(tb.order)
	require.NoError(t, err)
	if tb.variant == "" {
		tb.variant = Basic
	}
	s := &State{
		players: tb.players,
		variant: tb.variant,
		fixed:   tb.variant == EvenEasier,
		stop:    tb.stop,
		rng:     game.NewRand(99),
		order:   order,
		trainer: tb.trainer,
		turns:   tb.turns,
		tries:   make([]uint8, tb.players),
		free:    make([]bool, tb.players),
		passed:  make([]bool, tb.players),
		scores:  make([][]uint8, tb.players),
		last:    -1,
	}
	used := map[uint8]bool{}
	take := func(name string) uint8 {
		c := parseCard(t, name)
		sp := speciesIndex(c.Species)
		require.Contains(t, order, c.Species, "%s is not in play", name)
		for copyN := 0; copyN < 2; copyN++ {
			id := uint8(sp*CardsPerSpecies + copyN*5 + c.Count - 1)
			if !used[id] {
				used[id] = true
				return id
			}
		}
		t.Fatalf("no third %s", name)
		return 0
	}
	for i := len(tb.pile) - 1; i >= 0; i-- {
		s.pile = append(s.pile, take(tb.pile[i]))
	}
	for seat := range tb.players {
		s.scores[seat] = []uint8{}
		if seat < len(tb.scores) {
			for _, name := range tb.scores[seat] {
				s.scores[seat] = append(s.scores[seat], take(name))
			}
		}
	}
	s.box = []uint8{}
	for _, sp := range order {
		for k := range CardsPerSpecies {
			id := uint8(speciesIndex(sp)*CardsPerSpecies + k)
			if !used[id] {
				s.box = append(s.box, id)
			}
		}
	}
	s.boxSize = len(s.box)
	s.draw()
	require.NoError(t, s.Audit())
	return s
}

// do applies a move written as text ("1 guess spider 4") and requires it
// to be accepted.
func do(t testing.TB, s *State, move string) []game.Event {
	t.Helper()
	m, err := game.ParseMove(move)
	require.NoError(t, err)
	ev, err := s.Apply(m)
	require.NoError(t, err, move)
	require.NoError(t, s.Audit(), "after %s", move)
	return ev
}

// refused requires the move to be refused with a reason containing want,
// leaving the state as it was.
func refused(t testing.TB, s *State, move, want string) {
	t.Helper()
	m, err := game.ParseMove(move)
	require.NoError(t, err)
	before := s.Clone()
	_, err = s.Apply(m)
	require.Error(t, err, move)
	assert.Contains(t, err.Error(), want, move)
	assert.True(t, reflect.DeepEqual(before, s), "refused %q changed the state", move)
}

// names lists the cards of a pile of ids, bottom first.
func names(ids []uint8) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = cardOf(id).String()
	}
	return out
}

// pileTopFirst lists the draw pile from the top.
func pileTopFirst(s *State) []string {
	out := names(s.pile)
	slices.Reverse(out)
	return out
}

func eventTypes(ev []game.Event) []string {
	out := make([]string, len(ev))
	for i, e := range ev {
		out[i] = e.Type
	}
	return out
}

func viewOf(t testing.TB, s *State, seat int) View {
	t.Helper()
	v, ok := s.View(seat).(View)
	require.True(t, ok)
	_, err := json.Marshal(v)
	require.NoError(t, err)
	return v
}

func itoa(n int) string { return strconv.Itoa(n) }
