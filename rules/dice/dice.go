// Package dice reads dice notation ("2d6", "d20+3", "3d6-1") and rolls it
// with a match's seeded Rand.
package dice

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tableref/tableref/rules/game"
)

// Limits on what Parse accepts: enough for any table game.
const (
	MaxDice  = 100
	MaxSides = 1000
	MaxPlus  = 10000
)

// Spec is N dice of Sides sides, plus Plus (which may be negative).
type Spec struct {
	N, Sides, Plus int
}

// String writes the spec in dice notation: "2d6", "d20+3".
func (s Spec) String() string {
	var b strings.Builder
	if s.N != 1 {
		b.WriteString(strconv.Itoa(s.N))
	}
	b.WriteString("d")
	b.WriteString(strconv.Itoa(s.Sides))
	if s.Plus > 0 {
		b.WriteString("+" + strconv.Itoa(s.Plus))
	} else if s.Plus < 0 {
		b.WriteString(strconv.Itoa(s.Plus))
	}
	return b.String()
}

// Parse reads dice notation: [N]dS[+K|-K], N from 1 to MaxDice, S from 2
// to MaxSides; "d" may be "D", and "d%" means d100.
func Parse(s string) (Spec, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	bad := func(why string) (Spec, error) {
		return Spec{}, fmt.Errorf("dice %q: %s (write it like 2d6, d20 or 3d6+2)", s, why)
	}
	n, rest, ok := strings.Cut(t, "d")
	if !ok {
		return bad("no 'd'")
	}
	spec := Spec{N: 1}
	if n != "" {
		v, err := strconv.Atoi(n)
		if err != nil || v < 1 || v > MaxDice {
			return bad(fmt.Sprintf("the number of dice must be 1 to %d", MaxDice))
		}
		spec.N = v
	}
	sides := rest
	if i := strings.IndexAny(rest, "+-"); i >= 0 {
		sides = rest[:i]
		v, err := strconv.Atoi(rest[i:])
		if err != nil || v < -MaxPlus || v > MaxPlus || len(rest) == i+1 {
			return bad(fmt.Sprintf("the number added must be a whole number up to %d", MaxPlus))
		}
		spec.Plus = v
	}
	if sides == "%" {
		sides = "100"
	}
	v, err := strconv.Atoi(sides)
	if err != nil || v < 2 || v > MaxSides {
		return bad(fmt.Sprintf("a die has 2 to %d sides", MaxSides))
	}
	spec.Sides = v
	return spec, nil
}

// Roll rolls the dice and returns each die and the total (with Plus).
func (s Spec) Roll(r *game.Rand) (dice []int, total int) {
	dice = make([]int, s.N)
	for i := range dice {
		dice[i] = r.Die(s.Sides)
		total += dice[i]
	}
	return dice, total + s.Plus
}
