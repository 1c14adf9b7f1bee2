package sim

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tableref/tableref/rules/game"
)

// race: seats take turns rolling a die; the first to reach 10 wins. Seat 0
// rolls first, so it should win more often than the others.
type race struct{}

type raceState struct {
	rng    game.Rand
	totals []int
	turn   int
	done   bool
}

func (race) Info() game.Info {
	return game.Info{ID: "race", Name: "Race", MinPlayers: 2, MaxPlayers: 4, Variants: []game.Variant{{ID: "d6"}, {ID: "d4"}}}
}

func (race) New(cfg game.Config) (game.State, error) {
	if _, _, err := (race{}).Info().Resolve(cfg); err != nil {
		return nil, err
	}
	return &raceState{rng: game.NewRand(cfg.Seed), totals: make([]int, cfg.Players)}, nil
}

func (s *raceState) Turn() []int {
	if s.done {
		return nil
	}
	return []int{s.turn}
}
func (s *raceState) Legal(seat int) []game.Move {
	if s.done || seat != s.turn {
		return nil
	}
	return []game.Move{game.M(seat, "roll")}
}
func (s *raceState) Apply(m game.Move) ([]game.Event, error) {
	if s.done || m.Seat != s.turn || m.Action != "roll" || len(m.Args) != 0 {
		return nil, game.Refuse(m, "no")
	}
	s.totals[m.Seat] += s.rng.Die(6)
	if s.totals[m.Seat] >= 10 {
		s.done = true
	}
	s.turn = (s.turn + 1) % len(s.totals)
	return []game.Event{{Type: "rolled", Text: "rolled"}}, nil
}
func (s *raceState) View(int) any { return s.totals }
func (s *raceState) Over() bool   { return s.done }
func (s *raceState) Result() game.Result {
	r := game.Result{Scores: append([]int(nil), s.totals...), Text: "first to 10"}
	for i, t := range s.totals {
		if t >= 10 {
			r.Winners = []int{i}
		}
	}
	return r
}
func (s *raceState) Clone() game.State {
	c := *s
	c.totals = append([]int(nil), s.totals...)
	return &c
}
func (s *raceState) Audit() error { return nil }

func TestStatsAddUp(t *testing.T) {
	st, err := Run(Spec{Game: race{}, Players: 3, Games: 3000, Seed: 1})
	require.NoError(t, err)
	assert.Equal(t, 3000, st.Games)
	sum := st.NoWinner
	for _, w := range st.WinsBySeat {
		sum += w
	}
	assert.Equal(t, 3000, sum, "every game has exactly one winner or none")
	assert.Greater(t, st.FirstSeatEdge(), 1.05, "rolling first is an edge")
	assert.GreaterOrEqual(t, st.MinMoves, 4)
	assert.LessOrEqual(t, float64(st.MinMoves), st.MeanMoves)
	assert.LessOrEqual(t, st.MeanMoves, float64(st.MaxMoves))
	require.Len(t, st.MeanScore, 3)
	assert.Greater(t, st.MeanScore[0], 5.0)
}

func TestSameSeedSameNumbersWhateverTheWorkers(t *testing.T) {
	a, err := Run(Spec{Game: race{}, Players: 4, Games: 500, Seed: 9, Workers: 1})
	require.NoError(t, err)
	b, err := Run(Spec{Game: race{}, Players: 4, Games: 500, Seed: 9, Workers: 7})
	require.NoError(t, err)
	assert.Equal(t, a, b)
	c, err := Run(Spec{Game: race{}, Players: 4, Games: 500, Seed: 10})
	require.NoError(t, err)
	assert.NotEqual(t, fmt.Sprint(a.WinsBySeat), fmt.Sprint(c.WinsBySeat))
}

func TestBadSpecsAreRefused(t *testing.T) {
	_, err := Run(Spec{Game: race{}, Players: 9, Games: 10})
	assert.EqualError(t, err, "Race is for 2 to 4 players, not 9")
	_, err = Run(Spec{Game: race{}, Players: 2, Games: 0})
	assert.Error(t, err)
}

func TestBatchesCoverCountsAndVariants(t *testing.T) {
	counts, variants := Batches(race{}, 0, "")
	assert.Equal(t, []int{2, 3, 4}, counts)
	assert.Equal(t, []string{"d6", "d4"}, variants)
	counts, variants = Batches(race{}, 3, "d4")
	assert.Equal(t, []int{3}, counts)
	assert.Equal(t, []string{"d4"}, variants)
}

// roleRace is race with parts: seat 0 "first", the others "rest".
type roleRace struct{ race }

func (roleRace) Info() game.Info {
	in := race{}.Info()
	in.Roles = []string{"first", "rest"}
	return in
}

func TestWinsAreCountedByRoleWhereSeatsPlayParts(t *testing.T) {
	st, err := Run(Spec{Game: roleRace{}, Players: 4, Games: 1000, Seed: 3})
	require.NoError(t, err)
	assert.Equal(t, []string{"first", "rest"}, st.Roles)
	require.Len(t, st.WinsByRole, 2)
	assert.Equal(t, st.WinsBySeat[0], st.WinsByRole[0])
	assert.Equal(t, st.WinsBySeat[1]+st.WinsBySeat[2]+st.WinsBySeat[3], st.WinsByRole[1], "one winner a game: the rest's wins add up")
	assert.Equal(t, st.Games, st.WinsByRole[0]+st.WinsByRole[1]+st.NoWinner)
	plain, err := Run(Spec{Game: race{}, Players: 4, Games: 10, Seed: 3})
	require.NoError(t, err)
	assert.Nil(t, plain.WinsByRole)
}
