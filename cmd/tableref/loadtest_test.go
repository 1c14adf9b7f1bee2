package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The loadtest command is tested in process (runLoadtest), so that these
// tests do not depend on its place in the commands table.

func loadtestCmd(args ...string) (string, error) {
	var out bytes.Buffer
	err := runLoadtest(&env{stdout: &out, stderr: &out}, args)
	return out.String(), err
}

func TestLoadtestUsage(t *testing.T) {
	out, err := loadtestCmd("--help")
	require.ErrorIs(t, err, errHelp)
	assert.Contains(t, out, "Usage: tableref loadtest [--url URL]")
	assert.Contains(t, out, "-clients")

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--rooms", "0"}, "--rooms must be at least 1"},
		{[]string{"--moves", "-3"}, "--moves must be at least 1"},
		{[]string{"--game", "chess"}, `no game "chess"`},
		{[]string{"--rooms", "10", "--clients", "20"}, "20 clients cannot fill 10 rooms of woodlouse"},
		{[]string{"--interval", "-1s"}, "cannot be negative"},
		{[]string{"--bogus"}, "flag provided but not defined"},
		{[]string{"extra"}, `unexpected argument "extra"`},
	} {
		_, err := loadtestCmd(tc.args...)
		var ue usageError
		if assert.True(t, errors.As(err, &ue), "%v: %v is not a usage error", tc.args, err) {
			assert.Contains(t, err.Error(), tc.want, "%v", tc.args)
		}
	}
}

func TestLoadtestInProcess(t *testing.T) {
	// --timeout: a move that is slow to reach a socket on a busy CI machine
	// is not a missing one.
	out, err := loadtestCmd("--rooms", "2", "--clients", "8", "--moves", "5", "--interval", "0", "--timeout", "30s")
	require.NoError(t, err, out)
	assert.Regexp(t, regexp.MustCompile(`^8 clients in 2 rooms, 10 moves, 30 broadcasts: latency p50 [0-9.]+ ms p99 [0-9.]+ ms max [0-9.]+ ms, errors 0, server memory [0-9]+ KiB per connection\n10 moves in [0-9.]+ s: [0-9]+ moves/s; load average [0-9.]+ [0-9.]+ [0-9.]+ as the moves began\n$`), out)

	out, err = loadtestCmd("--rooms", "1", "--clients", "3", "--moves", "2", "--interval", "0", "--via", "http", "--json", "--timeout", "30s")
	require.NoError(t, err, out)
	var rep struct {
		Clients, Moves, Broadcasts, Errors int
		LatencyP99                         int64     `json:"latency_p99_ns"`
		MovesPerSecond                     float64   `json:"moves_per_second"`
		LoadAverage                        []float64 `json:"load_average"`
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rep), out)
	assert.Equal(t, 3, rep.Clients)
	assert.Equal(t, 2, rep.Moves)
	assert.Equal(t, 4, rep.Broadcasts)
	assert.Equal(t, 0, rep.Errors)
	assert.Positive(t, rep.LatencyP99)
	assert.Positive(t, rep.MovesPerSecond)
	assert.Len(t, rep.LoadAverage, 3)
}

// TestALoadTestAgainstAServerOfOnesOwn: tableref serve limits one address
// (this machine: 5 times --rate-limit requests a second, 100 by default),
// so a load test of it from here is refused with 429s, and the error says
// how to lift the limit; a server started with --rate-limit 0 takes the
// same load with no error.
func TestALoadTestAgainstAServerOfOnesOwn(t *testing.T) {
	load := []string{"--rooms", "2", "--clients", "12", "--moves", "30", "--interval", "0", "--gap", "0", "--timeout", "30s"}
	// A low limit (10 a second from this machine), so that the moves
	// outrun it however slow the machine; the set-up waits out its 429s.
	limited, _ := servePlay(t, "--no-mic", "--quiet", "--rate-limit", "2")
	out, err := loadtestCmd(append([]string{"--url", limited}, load...)...)
	require.Error(t, err, out)
	assert.Contains(t, err.Error(), "429")
	assert.Contains(t, err.Error(), "start it with tableref serve --rate-limit 0")

	open, _ := servePlay(t, "--no-mic", "--quiet", "--rate-limit", "0")
	out, err = loadtestCmd(append([]string{"--url", open}, load...)...)
	require.NoError(t, err, out)
	assert.Contains(t, out, "60 moves")
}
