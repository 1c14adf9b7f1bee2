package main

import (
	"encoding/json"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/webremote"
)

// tableref verify replays a room's games from their seeds and says their
// seals; the seal the table showed must match, and a seed changed in the
// journal (its checksum made right again) is caught.
func TestCLIVerifyChecksTheSealedDraws(t *testing.T) {
	data := t.TempDir()
	srv := webremote.New(webremote.Config{RateLimit: -1, Data: data})
	code, _ := journalRoom(t, srv, 3)
	var table struct {
		Room struct{ Seal string } `json:"room"`
	}
	require.Equal(t, 200, call(t, srv, "GET", "/api/rooms/"+code+"/table", "", nil, &table))
	seal := table.Room.Seal
	require.NotEmpty(t, seal)
	path := filepath.Join(data, code+".journal")

	r := cliRun(t, nil, "verify", path)
	require.Equal(t, 0, r.code, "%s", r)
	assert.Contains(t, r.stdout, "room "+code+", game 1: deck for Ann, Bob; seal "+seal)
	assert.Contains(t, r.stdout, "3 moves so far")

	r = cliRun(t, nil, "verify", path, "--seal", strings.ToUpper(seal))
	require.Equal(t, 0, r.code, "%s", r)
	assert.Contains(t, r.stdout, "The seal matches")

	other := "0000-0000-0000-0000"
	if seal == other {
		other = "1111-1111-1111-1111"
	}
	r = cliRun(t, nil, "verify", "--seal", other, path)
	assert.Equal(t, 1, r.code, "%s", r)
	assert.Contains(t, r.stderr, "the seal does not match")
	assert.Equal(t, 1, strings.Count(strings.TrimSpace(r.stderr), "\n")+1, "one line: %q", r.stderr)

	// A seed changed in the room records: the journal still reads (its
	// lines are rewritten whole, with their checksums), the game replays
	// (dice rolls are never refused) but its seal is another.
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	changed := 0
	for i, l := range lines {
		var rec map[string]json.RawMessage
		body := l[strings.Index(l, "{"):]
		require.NoError(t, json.Unmarshal([]byte(body), &rec), "line %d: %s", i+1, l)
		if _, ok := rec["seed"]; ok {
			rec["seed"] = json.RawMessage("12345")
			changed++
			lines[i] = relined(t, rec)
		}
	}
	require.NotZero(t, changed)
	require.NoError(t, os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600))
	r = cliRun(t, nil, "verify", path, "--seal", seal)
	assert.Equal(t, 1, r.code, "%s", r)
	assert.Contains(t, r.stderr, "the seed was changed")

	for _, bad := range [][]string{{"verify"}, {"verify", path, "extra"}, {"verify", path, "--seal", "not-a-seal"}} {
		r = cliRun(t, nil, bad...)
		assert.Equal(t, 2, r.code, "%v: %s", bad, r)
	}
	r = cliRun(t, nil, "verify", filepath.Join(data, "NONE.journal"))
	assert.Equal(t, 1, r.code)
	assert.Contains(t, r.stderr, "no such file")
	r = cliRun(t, nil, "verify", "--help")
	assert.Equal(t, 0, r.code)
	assert.Contains(t, r.stdout, "seal")
}

// relined is a journal line for rec, with its checksum.
func relined(t *testing.T, rec map[string]json.RawMessage) string {
	t.Helper()
	body, err := json.Marshal(rec)
	require.NoError(t, err)
	return fmt.Sprintf("%08x %s", crc32.ChecksumIEEE(body), body)
}
