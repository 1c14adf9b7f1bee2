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
