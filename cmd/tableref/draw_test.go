package main

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type dealJSON struct {
	Seed  uint64     `json:"seed"`
	Hands [][]string `json:"hands"`
	Stock []string   `json:"stock"`
}

func TestCLIDealIsSeededAndComplete(t *testing.T) {
	r := cliRun(t, nil, "deal", "--players", "4", "--cards", "5", "--seed", "12", "--json")
	require.Equal(t, 0, r.code, "%s", r)
	var d dealJSON
	require.NoError(t, json.Unmarshal([]byte(r.stdout), &d))
	assert.EqualValues(t, 12, d.Seed)
	require.Len(t, d.Hands, 4)
	seen := map[string]bool{}
	for _, h := range d.Hands {
		assert.Len(t, h, 5)
		for _, c := range h {
			seen[c] = true
		}
	}
	for _, c := range d.Stock {
		seen[c] = true
	}
	assert.Len(t, seen, 52, "every card once, in a hand or the stock")

	again := cliRun(t, nil, "deal", "--players", "4", "--cards", "5", "--seed", "12", "--json")
	assert.Equal(t, r.stdout, again.stdout, "the same seed deals the same")
	other := cliRun(t, nil, "deal", "--players", "4", "--cards", "5", "--seed", "13", "--json")
	assert.NotEqual(t, r.stdout, other.stdout)
}

func TestCLIDealPrintsItsSeed(t *testing.T) {
	r := cliRun(t, nil, "deal", "--players", "2", "--cards", "3", "--jokers", "2")
	require.Equal(t, 0, r.code, "%s", r)
	assert.Regexp(t, `(?m)^Player 1: \S+ \S+ \S+$`, r.stdout)
	assert.Contains(t, r.stdout, "Left in the deck: 48 cards.")
	m := regexp.MustCompile(`add --seed (\d+) to deal`).FindStringSubmatch(r.stdout)
	require.NotNil(t, m, "%s", r)
	again := cliRun(t, nil, "deal", "--players", "2", "--cards", "3", "--jokers", "2", "--seed", m[1])
	assert.Equal(t, r.stdout, again.stdout, "the printed seed repeats the deal")
}

func TestCLIRoll(t *testing.T) {
	r := cliRun(t, nil, "roll", "2d6", "--seed", "4", "d20+1", "--times", "3", "--json")
	require.Equal(t, 0, r.code, "%s", r)
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	require.Len(t, lines, 6)
	for i, line := range lines {
		var x struct {
			Dice  string `json:"dice"`
			Rolls []int  `json:"rolls"`
			Total int    `json:"total"`
		}
		require.NoError(t, json.Unmarshal([]byte(line), &x))
		sum := 0
		for _, v := range x.Rolls {
			sum += v
		}
		if i%2 == 0 {
			assert.Equal(t, "2d6", x.Dice)
			assert.Equal(t, sum, x.Total)
			assert.True(t, x.Total >= 2 && x.Total <= 12)
		} else {
			assert.Equal(t, "d20+1", x.Dice)
			assert.Equal(t, sum+1, x.Total)
		}
	}
	again := cliRun(t, nil, "roll", "--seed", "4", "--times", "3", "--json", "2d6", "d20+1")
	assert.Equal(t, r.stdout, again.stdout, "flags anywhere; the same seed rolls the same")
	human := cliRun(t, nil, "roll", "3d6+2", "--seed", "1")
	assert.Regexp(t, `^3d6\+2: \d \+ \d \+ \d \+ 2 = \d+\nSeed 1 `, human.stdout)
}

func TestCLIDrawErrors(t *testing.T) {
	cliAssertError(t, cliRun(t, nil, "deal", "--cards", "5"), 2, "--players is required")
	cliAssertError(t, cliRun(t, nil, "deal", "--players", "11", "--cards", "5"), 2, "needs 55 cards; the deck has 52")
	cliAssertError(t, cliRun(t, nil, "deal", "--players", "2", "--cards", "2", "--seed", "x"), 2, "a seed is a whole number")
	cliAssertError(t, cliRun(t, nil, "deal", "--players", "2", "--cards", "2", "--jokers", "3"), 2, "--jokers must be 0, 1 or 2")
	cliAssertError(t, cliRun(t, nil, "roll"), 2, "say which dice")
	cliAssertError(t, cliRun(t, nil, "roll", "2x6"), 2, `dice "2x6"`)
	cliAssertError(t, cliRun(t, nil, "roll", "1000d6"), 2, "number of dice")
	cliAssertError(t, cliRun(t, nil, "roll", "d6", "--times", "0"), 2, "--times")
}
