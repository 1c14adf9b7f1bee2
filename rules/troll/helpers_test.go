package troll

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/tableref/tableref/rules/deck"
	"github.com/tableref/tableref/rules/game"
	"github.com/tableref/tableref/rules/game/gametest"
)

// spec pictures a situation. Each bridge cell lists its cards bottom first,
// separated by spaces, with "*" after an awake top card; "" is an empty
// position. Cards named nowhere go to the colour stacks.
type spec struct {
	upper, lower [cols]string
	troll        string   // "lower 3"
	deck         []string // top first
	aside        []string // in order
	carry        string   // an awake carried card; "~7C" a sleeping one
	club, gem    bool
	black        bool // the lower stack is black (default red)
	actions      int  // default 2
	visited      []string
	blockBoth    bool
	reusableAD   bool
}

func card(t testing.TB, name string) deck.Card {
	t.Helper()
	c, err := deck.Parse(name)
	require.NoError(t, err)
	return c
}

func spot(t testing.TB, where string) (int, int) {
	t.Helper()
	f := strings.Fields(where)
	require.Len(t, f, 2, where)
	r := lower
	if f[0] == "upper" {
		r = upper
	}
	c := int(f[1][0] - '1')
	require.True(t, c >= 0 && c < cols, where)
	return r, c
}

// build makes the pictured state; it must pass Audit.
func build(t testing.TB, sp spec) *state {
	t.Helper()
	s := &state{variant: "standard", layout: layouts["standard"], blockBoth: sp.blockBoth, reusableAD: sp.reusableAD,
		startWith: startNothing, rng: game.NewRand(1), lowerRed: !sp.black, club: sp.club, gem: sp.gem}
	used := map[deck.Card]bool{}
	use := func(name string) deck.Card {
		c := card(t, name)
		require.False(t, used[c], "%s named twice", name)
		used[c] = true
		return c
	}
	if sp.club {
		used[aceClubs] = true
	}
	if sp.gem {
		used[aceDiamonds] = true
	}
	for r, row := range [][cols]string{sp.upper, sp.lower} {
		for c, cell := range row {
			for _, name := range strings.Fields(cell) {
				awake := strings.HasSuffix(name, "*")
				s.bridge[r][c].push(use(strings.TrimSuffix(name, "*")), awake)
			}
		}
	}
	for i := len(sp.deck) - 1; i >= 0; i-- {
		s.deck.push(use(sp.deck[i]))
	}
	for _, name := range sp.aside {
		s.aside.push(use(name))
	}
	switch {
	case strings.HasPrefix(sp.carry, "~"):
		s.carry, s.holding = use(sp.carry[1:]), holdDormant
	case sp.carry != "":
		s.carry, s.holding = use(sp.carry), holdAwake
	}
	for _, c := range deck.New(0) {
		if used[c] {
			continue
		}
		if c.Red() == s.lowerRed {
			s.lowerPad.push(c)
		} else {
			s.upperPad.push(c)
		}
	}
	r, c := spot(t, sp.troll)
	s.tr, s.tc = int8(r), int8(c)
	s.actions = 2
	if sp.actions != 0 {
		s.actions = int8(sp.actions)
	}
	s.turn = 5
	s.visited = bit(r, c)
	for _, v := range sp.visited {
		vr, vc := spot(t, v)
		s.visited |= bit(vr, vc)
	}
	require.NoError(t, s.Audit())
	return s
}

// standardRows is a full standard bridge of named cards, all asleep.
func standardRows() (up, low [cols]string) {
	up = [cols]string{"2S 3S 4S", "5S 6S", "7S", "8S", "9S 10S", "JS QS KS"}
	low = [cols]string{"2H 3H 4H", "5H 6H", "7H", "8H", "9H 10H", "JH QH KH"}
	return up, low
}

// rig reseeds s so that its next die rolls are the given ones.
func rig(t testing.TB, s *state, rolls ...int) {
	t.Helper()
	s.rng = gametest.RiggedRand(t, rolls...)
}

// do applies a move written as text ("move left") and requires success.
func do(t testing.TB, s *state, move string) []game.Event {
	t.Helper()
	f := strings.Fields(move)
	ev, err := s.Apply(game.M(0, f[0], f[1:]...))
	require.NoError(t, err, move)
	require.NoError(t, s.Audit(), move)
	return ev
}

// refuse requires the move to be refused, leaving s untouched.
func refuse(t testing.TB, s *state, move, reason string) {
	t.Helper()
	before := *s
	f := strings.Fields(move)
	_, err := s.Apply(game.M(0, f[0], f[1:]...))
	require.Error(t, err, move)
	require.Contains(t, err.Error(), reason, move)
	require.Equal(t, before, *s, "a refused move changed the state")
}

// at is the pile at a position: its card count, whether its top is awake
// and its top card's name.
func at(t testing.TB, s *state, where string) (int, bool, string) {
	t.Helper()
	r, c := spot(t, where)
	sl := &s.bridge[r][c]
	if sl.n == 0 {
		return 0, false, ""
	}
	return int(sl.n), sl.awake, sl.top().String()
}

func asideNames(s *state) []string {
	return names(s.aside.cards[:s.aside.n])
}

func legalSet(s *state) map[string]bool {
	out := map[string]bool{}
	for _, m := range s.Legal(0) {
		out[strings.TrimPrefix(m.String(), "0 ")] = true
	}
	return out
}
