package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/webremote"
)

func TestServeOnABusyPortSaysSoInOneLine(t *testing.T) {
	ln, err := net.Listen("tcp", "0.0.0.0:0")
	require.NoError(t, err)
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	r := cliRun(t, nil, "serve", "--port", strconv.Itoa(port), "--data", t.TempDir())
	cliAssertError(t, r, 1)
	assert.Equal(t, "tableref serve: port "+strconv.Itoa(port)+" is in use (try --port "+strconv.Itoa(port+1)+")\n", r.stderr)
}

func TestServeRefusesBadFlags(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--port", "70000"}, 2, "--port must be from 0 to 65535"},
		{[]string{"--port", "-1"}, 2, "--port"},
		{[]string{"--port", "eighty"}, 2, "invalid value"},
		{[]string{"now"}, 2, `unexpected argument "now"`},
		{[]string{"--host", "256.1.1.1", "--port", "0"}, 1, "cannot listen on 256.1.1.1"},
		{[]string{"--idle-done", "-1h"}, 2, "--idle-done and --idle-any are durations like 6h or 90m (0: never)"},
		{[]string{"--idle-any", "3"}, 2, "invalid value"},
		{[]string{"--rate-limit", "-3"}, 2, "--rate-limit is a number of requests a second, 0 for no limit, not -3"},
	} {
		r := cliRun(t, nil, append([]string{"serve", "--data", dir}, tc.args...)...)
		cliAssertError(t, r, tc.code, tc.want)
	}
	// A data directory that cannot be made.
	file := filepath.Join(dir, "file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	r := cliRun(t, nil, "serve", "--port", "0", "--host", "127.0.0.1", "--data", filepath.Join(file, "sub"))
	cliAssertError(t, r, 1, "cannot create the data directory")
}

// TestServeServesUntilInterrupted starts the binary, reads the address it
// prints, uses the API, sees the room's code printed, and stops it with
// SIGINT: exit status 0.
func TestServeServesUntilInterrupted(t *testing.T) {
	state := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, cliBin, "serve", "--host", "127.0.0.1", "--port", "0", "--no-mic")
	env := []string{}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "XDG_STATE_HOME=") {
			env = append(env, kv)
		}
	}
	cmd.Env = append(env, "XDG_STATE_HOME="+state, "GORACE=atexit_sleep_ms=0")
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	stderr := &lockedBuffer{}
	cmd.Stderr = stderr
	require.NoError(t, cmd.Start())
	defer func() { _ = cmd.Process.Kill() }()

	lines := make(chan string, 1000)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	var out strings.Builder
	waitFor := func(re *regexp.Regexp) []string {
		t.Helper()
		deadline := time.After(30 * time.Second)
		for {
			select {
			case line, ok := <-lines:
				require.True(t, ok, "serve stopped early\nstdout:\n%s\nstderr:\n%s", out.String(), stderr.String())
				out.WriteString(line + "\n")
				if m := re.FindStringSubmatch(line); m != nil {
					return m
				}
			case <-deadline:
				t.Fatalf("serve printed no %s\nstdout:\n%s\nstderr:\n%s", re, out.String(), stderr.String())
			}
		}
	}
	base := waitFor(regexp.MustCompile(`serving the web remote at (http://127\.0\.0\.1:\d+)/$`))[1]
	waitFor(regexp.MustCompile(`Press Ctrl-C to stop`))
	assert.Contains(t, out.String(), "▀", "a QR code in half blocks")

	res, err := http.Get(base + "/api/games")
	require.NoError(t, err)
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	assert.Equal(t, 200, res.StatusCode)
	var games []map[string]any
	require.NoError(t, json.Unmarshal(body, &games), "%s", body)
	var ids []string
	for _, g := range games {
		if g["tool"] != true {
			ids = append(ids, g["id"].(string))
		}
	}
	assert.Len(t, ids, 7, "the seven games, besides the dealer: %v", ids)

	res, err = http.Post(base+"/api/rooms", "application/json", strings.NewReader(`{"game":"troll"}`))
	require.NoError(t, err)
	body, _ = io.ReadAll(res.Body)
	res.Body.Close()
	require.Equal(t, 201, res.StatusCode, "%s", body)
	var room struct {
		Room    string `json:"room"`
		Host    string `json:"host_token"`
		JoinURL string `json:"join_url"`
	}
	require.NoError(t, json.Unmarshal(body, &room))
	assert.Equal(t, base+"/j/"+room.Room, room.JoinURL)
	m := waitFor(regexp.MustCompile(`Room ([A-Z]{4}): players join at (\S+)`))
	assert.Equal(t, room.Room, m[1])
	assert.Equal(t, room.JoinURL, m[2])

	require.NoError(t, cmd.Process.Signal(syscall.SIGINT))
	for line := range lines {
		out.WriteString(line + "\n")
	}
	err = cmd.Wait()
	require.NoError(t, ctx.Err())
	assert.NoError(t, err, "exit status 0 after Ctrl-C\nstdout:\n%s\nstderr:\n%s", out.String(), stderr.String())
	assert.Empty(t, stderr.String())
	assert.NotContains(t, out.String(), room.Host, "the host token is never printed")
	assert.DirExists(t, filepath.Join(state, "tableref"), "the data directory is made")
}

func TestPublicHostIsTheListenAddressOrALANAddress(t *testing.T) {
	assert.Equal(t, "127.0.0.1", publicHost("127.0.0.1"))
	assert.Equal(t, "tableref.local", publicHost("tableref.local"))
	for _, wild := range []string{"0.0.0.0", "", "::"} {
		h := publicHost(wild)
		if h != "localhost" {
			ip := net.ParseIP(h)
			require.NotNil(t, ip, h)
			assert.NotNil(t, ip.To4(), "an IPv4 address: %s", h)
			assert.False(t, ip.IsLoopback(), h)
		}
	}
}

func TestStateDirFollowsXDG(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", "/srv/state")
	d, err := stateDir()
	require.NoError(t, err)
	assert.Equal(t, "/srv/state/tableref", d)
	t.Setenv("XDG_STATE_HOME", "relative/ignored")
	t.Setenv("HOME", "/home/ann")
	d, err = stateDir()
	require.NoError(t, err)
	assert.Equal(t, "/home/ann/.local/state/tableref", d)
}

// lockedBuffer is a buffer the test reads while a process writes it.
type lockedBuffer = vmicBuffer

func TestAnUnknownFlagListsTheValidOnes(t *testing.T) {
	r := cliRun(t, nil, "serve", "--bogus")
	cliAssertError(t, r, 2, "flag provided but not defined: -bogus", "the flags are ", "--game", "--no-mic", "--wav", "--pause", "--shout", "(see tableref serve --help)")
	r = cliRun(t, nil, "serve", "--pause", "0.1")
	cliAssertError(t, r, 2, "--pause must be between 0.2 and 60 seconds, got 0.1")
	r = cliRun(t, nil, "serve", "--shout", "50")
	cliAssertError(t, r, 2, "--shout must be between 1 and 40 dB, got 50")
	r = cliRun(t, nil, "deal", "-x")
	cliAssertError(t, r, 2, "-x; the flags are --cards, --jokers, --json, --players, --seed")
}

// TestTheResumedRoomsArePrintedOneQRCodeAtMost: one resumed room is printed
// as a new one is, with its QR code; several (or one beside the room of
// --game) as a list of their addresses.
func TestTheResumedRoomsArePrintedOneQRCodeAtMost(t *testing.T) {
	one := []webremote.RoomSummary{{Code: "KPDD", Game: "woodlouse", Status: "playing",
		JoinURL: "http://192.168.1.20:8080/j/KPDD", TableURL: "http://192.168.1.20:8080/t/KPDD"}}
	var b strings.Builder
	printResumed(&b, nil, true)
	assert.Empty(t, b.String())
	printResumed(&b, one, true)
	assert.Contains(t, b.String(), "Room KPDD (woodlouse, playing), resumed: players join at http://192.168.1.20:8080/j/KPDD\n")
	assert.Contains(t, b.String(), "▀", "its QR code")
	assert.Contains(t, b.String(), "Its table screen: http://192.168.1.20:8080/t/KPDD\n")

	two := append(one, webremote.RoomSummary{Code: "QXBT", Game: "deck", Status: "lobby",
		JoinURL: "http://192.168.1.20:8080/j/QXBT", TableURL: "http://192.168.1.20:8080/t/QXBT"})
	for _, c := range []struct {
		rooms []webremote.RoomSummary
		qr    bool
	}{{two, true}, {one, false}} {
		b.Reset()
		printResumed(&b, c.rooms, c.qr)
		assert.NotContains(t, b.String(), "▀", "no QR code")
		for _, r := range c.rooms {
			assert.Regexp(t, `(?m)^  `+r.Code+`  `+r.Game+`, `+r.Status+` +`+regexp.QuoteMeta(r.JoinURL+"  "+r.TableURL)+`$`, b.String())
		}
	}
}

func TestWithoutAMicrophoneServeSaysWhatThatMeansForTheGame(t *testing.T) {
	assert.Equal(t, ": the trainer enters each code on the phone", noMicMeans("woodlouse"))
	assert.Contains(t, noMicMeans("insomnia"), "not timed")
	assert.NotContains(t, noMicMeans("insomnia"), "code")
	assert.Contains(t, noMicMeans(""), "in Woodlouse Chaos the trainer enters each code")
	assert.Contains(t, noMicMeans(""), "Insomnia")
	assert.Empty(t, noMicMeans("pursesnatcher"), "the microphone serves no other game")
}
