package dice

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tableref/tableref/rules/game"
)

func TestNotation(t *testing.T) {
	for in, want := range map[string]Spec{
		"2d6": {2, 6, 0}, "d20": {1, 20, 0}, "3D6+2": {3, 6, 2}, "1d8-1": {1, 8, -1}, "d%": {1, 100, 0},
	} {
		got, err := Parse(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	assert.Equal(t, "2d6", Spec{2, 6, 0}.String())
	assert.Equal(t, "d20+3", Spec{1, 20, 3}.String())
	assert.Equal(t, "3d4-1", Spec{3, 4, -1}.String())
	for _, bad := range []string{"", "6", "0d6", "2d1", "2d", "d6+", "2d6+x", "101d6", "2d6d6", "-1d6"} {
		_, err := Parse(bad)
		assert.Error(t, err, bad)
	}
}

func TestRollsStayInRangeAndCoverIt(t *testing.T) {
	r := game.NewRand(1)
	s := Spec{N: 2, Sides: 6, Plus: 1}
	seen := map[int]int{}
	for range 2000 {
		d, total := s.Roll(&r)
		require.Len(t, d, 2)
		assert.Equal(t, d[0]+d[1]+1, total)
		seen[d[0]]++
		assert.True(t, total >= 3 && total <= 13)
	}
	for face := 1; face <= 6; face++ {
		assert.Greater(t, seen[face], 250, "face %d comes up about a sixth of the time", face)
	}
}

// TestRollsAreSeeded: the same seed rolls the same dice, roll after roll,
// and other seeds roll others (a roller that ignored its seed, or always
// rolled the same, would pass the first half alone).
func TestRollsAreSeeded(t *testing.T) {
	s := Spec{N: 5, Sides: 20}
	rolls := func(seed uint64) [][]int {
		r := game.NewRand(seed)
		var out [][]int
		for range 20 {
			d, _ := s.Roll(&r)
			out = append(out, d)
		}
		return out
	}
	nine := rolls(9)
	assert.Equal(t, nine, rolls(9), "the same seed, the same rolls")
	distinct := map[string]bool{}
	for _, d := range nine {
		distinct[fmt.Sprint(d)] = true
	}
	assert.Greater(t, len(distinct), 15, "twenty rolls of 5d20 from one seed are not the same few")
	for seed := uint64(10); seed < 15; seed++ {
		assert.NotEqual(t, nine, rolls(seed), "seed %d rolls as seed 9 does", seed)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"2d6", "d20+3", "d%", "3d6-1", "d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		spec, err := Parse(s)
		if err != nil {
			return
		}
		if spec.N < 1 || spec.N > MaxDice || spec.Sides < 2 || spec.Sides > MaxSides {
			t.Fatalf("%q gave %+v, out of bounds", s, spec)
		}
		back, err := Parse(spec.String())
		if err != nil || back != spec {
			t.Fatalf("%q → %v → %+v, %v", s, spec, back, err)
		}
	})
}
