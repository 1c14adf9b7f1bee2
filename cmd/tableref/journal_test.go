package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/webremote"
)

// journalRoom makes, on a server keeping its rooms in data, a dealer room
// with Ann and Bob that rolls the dice rolls times; it returns the room's
// code and host token.
func journalRoom(t *testing.T, srv *webremote.Server, rolls int) (code, host string) {
	t.Helper()
	var made struct {
		Room string `json:"room"`
		Host string `json:"host_token"`
	}
	require.Equal(t, 201, call(t, srv, "POST", "/api/rooms", "", map[string]any{"game": "deck", "players": 2}, &made))
	var toks []string
	for _, n := range []string{"Ann", "Bob"} {
		var j struct {
			Token string `json:"token"`
		}
		require.Equal(t, 201, call(t, srv, "POST", "/api/rooms/"+made.Room+"/join", "", map[string]any{"name": n}, &j))
		toks = append(toks, j.Token)
	}
	require.Equal(t, 200, call(t, srv, "POST", "/api/rooms/"+made.Room+"/start", made.Host, map[string]any{}, nil))
	for i := 0; i < rolls; i++ {
		require.Equal(t, 200, call(t, srv, "POST", "/api/rooms/"+made.Room+"/moves", toks[i%2], map[string]any{"move": "roll 1d6"}, nil))
	}
	return made.Room, made.Host
}

// rewriteLine replaces line n (from 1) of the file with line.
func rewriteLine(t *testing.T, path string, n int, line string) {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	lines := bytes.SplitAfter(b, []byte("\n"))
	lines[n-1] = []byte(line)
	require.NoError(t, os.WriteFile(path, bytes.Join(lines, nil), 0o600))
}

// reportLine is the report's line for a file.
func reportLine(t *testing.T, stdout, file string) string {
	t.Helper()
	for _, l := range strings.Split(stdout, "\n") {
		if strings.HasPrefix(l, file+" ") {
			return l
		}
	}
	t.Fatalf("no line for %s in\n%s", file, stdout)
	return ""
}

func TestCLIJournalCheckSaysWhichJournalsAreWhole(t *testing.T) {
	data := t.TempDir()
	srv := webremote.New(webremote.Config{RateLimit: -1, Data: data})
	live, _ := journalRoom(t, srv, 3)
	ended, host := journalRoom(t, srv, 2)
	require.Equal(t, 200, call(t, srv, "POST", "/api/rooms/"+ended+"/end", host, map[string]any{}, nil))
	torn, _ := journalRoom(t, srv, 4)
	b, err := os.ReadFile(filepath.Join(data, torn+".journal"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(data, torn+".journal"), b[:len(b)-7], 0o600))

	r := cliRun(t, nil, "journal", "check", data)
	require.Equal(t, 0, r.code, "%s", r)
	assert.Empty(t, r.stderr)
	// created, 2 joins, start: 4 room records, and the moves.
	assert.Regexp(t, `^`+live+`\.journal +ok: room `+live+`, deck, playing, 7 records, 3 moves$`, reportLine(t, r.stdout, live+".journal"))
	assert.Contains(t, reportLine(t, r.stdout, "done/"+ended+".journal"), "ok: room "+ended+", deck, ended, 7 records, 2 moves")
	assert.Contains(t, reportLine(t, r.stdout, torn+".journal"), "torn last line (line 8, cut off when the server resumes it); before it: room "+torn+", deck, playing, 7 records, 3 moves")
	assert.Len(t, strings.Split(strings.TrimSpace(r.stdout), "\n"), 3, "%s", r)
	after, err := os.ReadFile(filepath.Join(data, torn+".journal"))
	require.NoError(t, err)
	assert.Equal(t, b[:len(b)-7], after, "nothing is changed: the torn line is still there")
}

func TestCLIJournalCheckFailsOnADamagedJournal(t *testing.T) {
	data := t.TempDir()
	srv := webremote.New(webremote.Config{RateLimit: -1, Data: data})
	good, _ := journalRoom(t, srv, 3)
	bad, _ := journalRoom(t, srv, 6)
	path := filepath.Join(data, bad+".journal")
	rewriteLine(t, path, 6, "0badc0de {\"t\":\"move\"}\n") // the second move: a bad checksum
	damaged, err := os.ReadFile(path)
	require.NoError(t, err)

	r := cliRun(t, nil, "journal", "check", data)
	assert.Equal(t, 1, r.code, "%s", r)
	assert.Contains(t, reportLine(t, r.stdout, good+".journal"), "ok: room "+good)
	assert.Contains(t, reportLine(t, r.stdout, bad+".journal"),
		"DAMAGED at line 6 (bad checksum); before it: room "+bad+", deck, playing, 5 records, 1 move; the server resumes the room from there")
	assert.Equal(t, "tableref journal: 1 of the 2 journals in "+data+" cannot be resumed whole\n", r.stderr)
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, damaged, after, "a check changes nothing")

	// The server repairs it: the copy it keeps is listed, and the check
	// passes.
	webremote.New(webremote.Config{RateLimit: -1, Data: data})
	r = cliRun(t, nil, "journal", "check", data)
	assert.Equal(t, 0, r.code, "%s", r)
	assert.Contains(t, reportLine(t, r.stdout, bad+".journal"), "ok: room "+bad+", deck, playing, 6 records, 1 move")
	assert.Regexp(t, bad+`\.journal\.damaged-\d{8}T\d{6}Z +the whole of a journal damaged at line 6 \(bad checksum\), kept by the server`, r.stdout)

	// Damage in its first record leaves nothing to resume.
	rewriteLine(t, filepath.Join(data, good+".journal"), 1, "garbage\n")
	r = cliRun(t, nil, "journal", "check", data)
	assert.Equal(t, 1, r.code, "%s", r)
	assert.Contains(t, reportLine(t, r.stdout, good+".journal"),
		"DAMAGED at line 1 (not a journal line); the 0 records before it make no room (an empty journal): the server cannot resume it and leaves it as it is")

	// A journal whose lines are whole but whose records make no room.
	require.NoError(t, os.WriteFile(filepath.Join(data, "ZZZZ.journal"), nil, 0o600))
	r = cliRun(t, nil, "journal", "check", data)
	assert.Equal(t, 1, r.code, "%s", r)
	assert.Contains(t, reportLine(t, r.stdout, "ZZZZ.journal"), "CANNOT BE RESUMED: an empty journal (0 records)")
	assert.Contains(t, r.stderr, "2 of the 3 journals")

	// A damaged journal among the retired ones is reported too, though
	// nothing resumes it.
	require.NoError(t, os.MkdirAll(filepath.Join(data, "done"), 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(data, "done", bad+"-2.journal"), damaged, 0o600))
	r = cliRun(t, nil, "journal", "check", data)
	assert.Equal(t, 1, r.code, "%s", r)
	line := reportLine(t, r.stdout, "done/"+bad+"-2.journal")
	assert.Contains(t, line, "DAMAGED at line 6 (bad checksum); before it: room "+bad+", deck, playing, 5 records, 1 move")
	assert.NotContains(t, line, "resumes")
	assert.Contains(t, r.stderr, "3 of the 4 journals")
}

// Given the --data directory of tableref serve, as its help and the docs
// say, the check finds the journals where serve keeps them: under rooms/.
func TestCLIJournalCheckFindsTheJournalsOfADataDirectory(t *testing.T) {
	data := t.TempDir()
	srv := webremote.New(webremote.Config{RateLimit: -1, Data: roomsDir(data)})
	good, _ := journalRoom(t, srv, 3)
	bad, _ := journalRoom(t, srv, 6)
	ended, host := journalRoom(t, srv, 1)
	require.Equal(t, 200, call(t, srv, "POST", "/api/rooms/"+ended+"/end", host, map[string]any{}, nil))
	rewriteLine(t, filepath.Join(roomsDir(data), bad+".journal"), 6, "0badc0de {\"t\":\"move\"}\n")

	r := cliRun(t, nil, "journal", "check", data)
	assert.Equal(t, 1, r.code, "the damaged journal is found\n%s", r)
	assert.Contains(t, reportLine(t, r.stdout, "rooms/"+good+".journal"), "ok: room "+good)
	assert.Contains(t, reportLine(t, r.stdout, "rooms/"+bad+".journal"), "DAMAGED at line 6 (bad checksum)")
	assert.Contains(t, reportLine(t, r.stdout, "rooms/done/"+ended+".journal"), "ok: room "+ended+", deck, ended")
	assert.Equal(t, "tableref journal: 1 of the 3 journals in "+data+" cannot be resumed whole\n", r.stderr)

	// The rooms directory itself is checked as before.
	r = cliRun(t, nil, "journal", "check", roomsDir(data))
	assert.Equal(t, 1, r.code, "%s", r)
	assert.Contains(t, reportLine(t, r.stdout, bad+".journal"), "DAMAGED at line 6 (bad checksum)")
}

// Lines each whole but out of their order (two swapped) are damage too,
// reported where the order breaks, as the server resumes the room.
func TestCLIJournalCheckFindsLinesOutOfPlace(t *testing.T) {
	data := t.TempDir()
	srv := webremote.New(webremote.Config{RateLimit: -1, Data: data})
	code, _ := journalRoom(t, srv, 6)
	path := filepath.Join(data, code+".journal")
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	lines := bytes.SplitAfter(b, []byte("\n"))
	lines[6], lines[7] = lines[7], lines[6] // the third and fourth moves
	require.NoError(t, os.WriteFile(path, bytes.Join(lines, nil), 0o600))

	r := cliRun(t, nil, "journal", "check", data)
	assert.Equal(t, 1, r.code, "%s", r)
	assert.Contains(t, reportLine(t, r.stdout, code+".journal"),
		"DAMAGED at line 7 (move 4 follows move 2); before it: room "+code+", deck, playing, 6 records, 2 moves; the server resumes the room from there")
}

func TestCLIJournalCheckOnAnEmptyDirectory(t *testing.T) {
	data := t.TempDir()
	r := cliRun(t, nil, "journal", "check", data)
	assert.Equal(t, 0, r.code, "%s", r)
	assert.Equal(t, "no journals in "+data+", nor in its done, rooms or rooms/done folder\n", r.stdout)
}

func TestCLIJournalHelp(t *testing.T) {
	for _, args := range [][]string{{"journal", "--help"}, {"journal", "-h"}, {"help", "journal"}, {"journal", "check", "--help"}, {"journal", "check", "-h"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			r := cliRun(t, nil, args...)
			assert.Equal(t, 0, r.code, "%s", r)
			assert.Empty(t, r.stderr, "%s", r)
			assert.True(t, strings.HasPrefix(r.stdout, "Usage: tableref journal check DIR"), "%s", r)
			assert.Equal(t, 1, strings.Count(r.stdout, "Usage:"), "the help is printed once\n%s", r)
		})
	}
	r := cliRun(t, nil, "--help")
	assert.Contains(t, r.stdout, "\n  journal ")
}

func TestCLIJournalErrors(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "notes.txt")
	require.NoError(t, os.WriteFile(file, []byte("hello\n"), 0o644))
	missing := filepath.Join(dir, "nowhere")
	cases := []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"journal"}, 2, []string{"journal check DIR"}},
		{[]string{"journal", "fix", dir}, 2, []string{`"fix"`, "check"}},
		{[]string{"journal", "check"}, 2, []string{"which directory"}},
		{[]string{"journal", "check", dir, dir}, 2, []string{"unexpected argument"}},
		{[]string{"journal", "check", "--bogus", dir}, 2, []string{"--bogus", "takes none"}},
		{[]string{"journal", "check", dir, "--json"}, 2, []string{"--json"}},
		{[]string{"journal", "check", missing}, 1, []string{missing, "no such file"}},
		{[]string{"journal", "check", file}, 1, []string{file, "not a directory"}},
	}
	for _, c := range cases {
		t.Run(fmt.Sprint(c.args), func(t *testing.T) {
			r := cliRun(t, nil, c.args...)
			cliAssertError(t, r, c.code, c.want...)
			if c.code == 2 {
				assert.Contains(t, r.stderr, "--help")
			}
		})
	}
}
