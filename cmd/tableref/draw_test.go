package main

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strconv"
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

// drawRun runs one command line in this process (fast enough to fuzz).
func drawRun(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(&env{stdout: &out, stderr: &errb}, args)
	return code, out.String(), errb.String()
}

// drawRefused requires a usage error: status 2 and one line on stderr.
func drawRefused(t *testing.T, want string, args ...string) {
	t.Helper()
	code, stdout, stderr := drawRun(args...)
	assert.Equal(t, 2, code, "%v: %s%s", args, stdout, stderr)
	assert.Empty(t, stdout, "%v", args)
	assert.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %q", stderr)
	assert.Contains(t, stderr, want, "%v", args)
}

func TestCLIDealEnforcesItsLimitsWithoutOverflow(t *testing.T) {
	drawRefused(t, "--players must be from 1 to 52", "deal", "--players", "4611686018427387904", "--cards", "4")
	drawRefused(t, "--cards must be from 1 to 52", "deal", "--players", "4", "--cards", "4611686018427387904")
	drawRefused(t, "--players must be from 1 to 52", "deal", "--players", "-3", "--cards", "4")
	drawRefused(t, "--players must be from 1 to 52", "deal", "--players", "53", "--cards", "1", "--jokers", "2")
	drawRefused(t, "--cards must be from 1 to 54", "deal", "--players", "1", "--cards", "55", "--jokers", "2")
	drawRefused(t, "--cards must be from 1 to 52", "deal", "--players", "2", "--cards", "-1")
	drawRefused(t, "needs 56 cards; the deck has 54", "deal", "--players", "28", "--cards", "2", "--jokers", "2")
	drawRefused(t, "value out of range", "deal", "--players", "99999999999999999999", "--cards", "1")
	for _, ok := range [][]string{{"52", "1", "0"}, {"1", "54", "2"}, {"27", "2", "2"}, {"13", "4", "0"}} {
		code, stdout, stderr := drawRun("deal", "--players", ok[0], "--cards", ok[1], "--jokers", ok[2], "--seed", "3", "--json")
		require.Equal(t, 0, code, "%v: %s", ok, stderr)
		var d dealJSON
		require.NoError(t, json.Unmarshal([]byte(stdout), &d))
		assert.Len(t, d.Hands, atoi(t, ok[0]), "%v", ok)
	}
}

func atoi(t *testing.T, s string) int {
	n, err := strconv.Atoi(s)
	require.NoError(t, err)
	return n
}

// FuzzCLIDeal: any player, card and joker counts either deal every card
// once or are refused with one line and status 2; nothing panics.
func FuzzCLIDeal(f *testing.F) {
	f.Add(4, 5, 0)
	f.Add(4611686018427387904, 4, 0)
	f.Add(52, 1, 2)
	f.Add(-1, -1, -1)
	f.Fuzz(func(t *testing.T, players, cards, jokers int) {
		code, stdout, stderr := drawRun("deal", "--players", strconv.Itoa(players), "--cards", strconv.Itoa(cards), "--jokers", strconv.Itoa(jokers), "--seed", "1", "--json")
		if code != 0 {
			if code != 2 || strings.Count(stderr, "\n") != 1 || stdout != "" {
				t.Fatalf("players %d cards %d jokers %d: exit %d, stdout %q, stderr %q", players, cards, jokers, code, stdout, stderr)
			}
			return
		}
		var d dealJSON
		if err := json.Unmarshal([]byte(stdout), &d); err != nil {
			t.Fatal(err)
		}
		n := len(d.Stock)
		for _, h := range d.Hands {
			n += len(h)
		}
		if len(d.Hands) != players || n != 52+jokers {
			t.Fatalf("players %d cards %d jokers %d: %d hands, %d cards in all", players, cards, jokers, len(d.Hands), n)
		}
	})
}

func TestCLIRollRefusesHugeDiceAndCounts(t *testing.T) {
	drawRefused(t, "the number of dice must be 1 to 100", "roll", "1000000d1000000")
	drawRefused(t, "a die has 2 to 1000 sides", "roll", "d1000000")
	drawRefused(t, "a die has 2 to 1000 sides", "roll", "2d99999999999999999999")
	drawRefused(t, "the number of dice must be 1 to 100", "roll", "99999999999999999999d6")
	drawRefused(t, "the number added", "roll", "d6+99999999999999999999")
	drawRefused(t, "--times must be from 1 to 10000", "roll", "d6", "--times", "4611686018427387904")
	drawRefused(t, "value out of range", "roll", "d6", "--times", "99999999999999999999")
	many := []string{"roll", "--times", "10000", "--seed", "1"}
	for range 11 {
		many = append(many, "100d6")
	}
	drawRefused(t, "more than 1000000 dice", many...)
	code, stdout, _ := drawRun("roll", "--times", "10000", "--seed", "1", "--json", "100d6")
	require.Equal(t, 0, code)
	assert.Equal(t, 10000, strings.Count(stdout, "\n"), "a million dice is still allowed")
}

func TestCLISimulateRefusesHugeCounts(t *testing.T) {
	drawRefused(t, "--games must be from 1 to 10000000", "simulate", "woodlouse", "--games", "4611686018427387904")
	drawRefused(t, "--games must be from 1 to 10000000", "simulate", "woodlouse", "--games", "-5")
	drawRefused(t, "not 4611686018427387904", "simulate", "woodlouse", "--players", "4611686018427387904")
	drawRefused(t, "not -2", "simulate", "woodlouse", "--players", "-2")
	drawRefused(t, `invalid value "-1" for flag -seed`, "simulate", "woodlouse", "--seed", "-1")
}
