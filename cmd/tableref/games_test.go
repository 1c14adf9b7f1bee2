package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tableref/tableref/rules/catalog"
)

func TestCLIGames(t *testing.T) {
	r := cliRun(t, nil, "games")
	require.Equal(t, 0, r.code, "%s", r)
	for _, id := range catalog.IDs() {
		assert.Regexp(t, `(?m)^`+id+` — `, r.stdout)
	}
	assert.Contains(t, r.stdout, "parts: sleeper: seat 1; voices: seats 2 and up")
	j := cliRun(t, nil, "games", "--json")
	require.Equal(t, 0, j.code, "%s", j)
	var infos []struct {
		ID         string `json:"id"`
		MinPlayers int    `json:"min_players"`
		MaxPlayers int    `json:"max_players"`
	}
	require.NoError(t, json.Unmarshal([]byte(j.stdout), &infos))
	require.Len(t, infos, 7)
	assert.Equal(t, "troll", infos[2].ID)
	assert.Equal(t, 1, infos[2].MaxPlayers, "the troll is a solitaire")
}

func TestCLISimulateIsReproducible(t *testing.T) {
	for _, id := range catalog.IDs() {
		t.Run(id, func(t *testing.T) {
			args := []string{"simulate", id, "--games", "40", "--seed", "5"}
			r := cliRun(t, nil, args...)
			require.Equal(t, 0, r.code, "%s", r)
			assert.Contains(t, r.stdout, "40 games per batch, seeds 5 to 44")
			assert.Regexp(t, `played \d+ games in [\d.]+ s \(\d+ games/s\)`, r.stderr)
			again := cliRun(t, nil, args...)
			assert.Equal(t, r.stdout, again.stdout, "the same seed prints the same, byte for byte")
		})
	}
}

func TestCLISimulateJSON(t *testing.T) {
	r := cliRun(t, nil, "simulate", "--json", "woodlouse", "--games", "30", "--players", "4")
	require.Equal(t, 0, r.code, "%s", r)
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	assert.NotEmpty(t, lines)
	for _, line := range lines {
		var st struct {
			Game       string `json:"game"`
			Players    int    `json:"players"`
			Games      int    `json:"games"`
			WinsBySeat []int  `json:"wins_by_seat"`
			NoWinner   int    `json:"no_winner"`
		}
		require.NoError(t, json.Unmarshal([]byte(line), &st))
		assert.Equal(t, "woodlouse", st.Game)
		assert.Equal(t, 4, st.Players)
		assert.Equal(t, 30, st.Games)
		won := 0
		for _, w := range st.WinsBySeat {
			won += w
		}
		assert.GreaterOrEqual(t, won+st.NoWinner, 30, "every game is counted")
	}
}

func TestCLISimulateErrors(t *testing.T) {
	cliAssertError(t, cliRun(t, nil, "simulate"), 2, "name one game: woodlouse,")
	cliAssertError(t, cliRun(t, nil, "simulate", "chess"), 2, `no game "chess"`)
	cliAssertError(t, cliRun(t, nil, "simulate", "woodlouse", "--players", "9"), 2, "not 9")
	cliAssertError(t, cliRun(t, nil, "simulate", "woodlouse", "--variant", "nope"), 2, `no variant "nope"`)
	cliAssertError(t, cliRun(t, nil, "simulate", "woodlouse", "--option", "x"), 2, "not name=value")
	cliAssertError(t, cliRun(t, nil, "simulate", "woodlouse", "--games", "0"), 2, "--games")
}

func TestCLISimulateShowsEachPartsWinsWhereSeatsDiffer(t *testing.T) {
	code, out, stderr := drawRun("simulate", "pursesnatcher", "--games", "200", "--option", "token-demand=yes")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "options: token-demand=yes")
	assert.Contains(t, out, "wins by role")
	assert.Regexp(t, `tourist \d+\.\d%, officer \d+\.\d%`, out)
	assert.NotContains(t, out, "first-seat edge", "meaningless when the seats play different parts")
	assert.Contains(t, out, "tourist: seat 1; officer: seat 2")

	code, out, stderr = drawRun("simulate", "insomnia", "--games", "100", "--players", "5")
	require.Equal(t, 0, code, stderr)
	assert.Regexp(t, `sleeper \d+\.\d%, voices \d+\.\d%`, out)
	assert.Regexp(t, `mean score by role[\s\S]*sleeper \d+\.\d`, out)
	assert.Contains(t, out, "score: minutes of sleep")
	assert.NotContains(t, out, "first-seat edge")
}

func TestCLISimulateGivesTheSolitaireItsOwnTable(t *testing.T) {
	code, out, stderr := drawRun("simulate", "troll", "--games", "20", "--variant", "tutorial")
	require.Equal(t, 0, code, stderr)
	assert.Regexp(t, `(?m)^variant\s+win\s+perfect win\s+mean score\s+moves`, out)
	assert.Regexp(t, `(?m)^tutorial\s+\d+\.\d%\s+\d+\.\d%\s+\d+\.\d\d\s`, out)
	for _, multi := range []string{"players", "wins by seat", "no winner", "shared", "first-seat edge"} {
		assert.NotContains(t, out, multi)
	}
	assert.Contains(t, out, "score: cards left in the deck of awakening")
}

func TestCLISimulateSkipsPlayerCountsAnOptionRefuses(t *testing.T) {
	code, out, stderr := drawRun("simulate", "louseflea", "--games", "30", "--option", "small-table=remove")
	require.Equal(t, 0, code, stderr)
	assert.Contains(t, out, "3 players skipped: The Louse and the Flea")
	assert.Regexp(t, `(?m)^-\s+4\s`, out)
	assert.NotRegexp(t, `(?m)^-\s+3\s`, out)
	drawRefused(t, "small-table", "simulate", "louseflea", "--games", "30", "--option", "small-table=remove", "--players", "3")

	code, out, _ = drawRun("simulate", "louseflea", "--games", "10", "--option", "small-table=remove", "--json")
	require.Equal(t, 0, code)
	assert.Contains(t, out, `"skipped":"3 players skipped:`)
}

func TestCLISimulateJSONAlwaysHasPerfectWins(t *testing.T) {
	code, out, _ := drawRun("simulate", "woodlouse", "--games", "10", "--players", "3", "--variant", "basic", "--json")
	require.Equal(t, 0, code)
	var st map[string]any
	require.NoError(t, json.Unmarshal([]byte(strings.TrimSpace(out)), &st))
	v, ok := st["perfect_wins"]
	assert.True(t, ok, "perfect_wins is there even at 0: %s", out)
	assert.EqualValues(t, 0, v)
	code, out, _ = drawRun("simulate", "pursesnatcher", "--games", "10", "--json")
	require.Equal(t, 0, code)
	assert.Contains(t, out, `"roles":["tourist","officer"],"wins_by_role":[`)
}

func TestCLISimulateSeedsNearTheLargestWrapInTheHeader(t *testing.T) {
	code, out, _ := drawRun("simulate", "woodlouse", "--games", "5", "--players", "3", "--variant", "basic", "--seed", "18446744073709551614")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "seeds 18446744073709551614 to 18446744073709551615 and 0 to 2 (they wrap round)")
	code, out, _ = drawRun("simulate", "woodlouse", "--games", "5", "--players", "3", "--variant", "basic", "--seed", "18446744073709551610")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "seeds 18446744073709551610 to 18446744073709551614\n")
}
