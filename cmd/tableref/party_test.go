package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// servePlay runs tableref serve with args and returns its base URL and its
// output so far (a function: the output grows).
func servePlay(t *testing.T, args ...string) (string, func() string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	if !slices.Contains(args, "--data") {
		args = append([]string{"--data", t.TempDir()}, args...)
	}
	cmd := exec.CommandContext(ctx, cliBin, append([]string{"serve", "--host", "127.0.0.1", "--port", "0"}, args...)...)
	cmd.Env = append(os.Environ(), "GORACE=atexit_sleep_ms=0")
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	cmd.Stderr = &lockedBuffer{}
	require.NoError(t, cmd.Start())
	out := &lockedBuffer{}
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGINT)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
		}
		cancel()
	})
	base := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		re := regexp.MustCompile(`serving the web remote at (http://127\.0\.0\.1:\d+)/$`)
		for sc.Scan() {
			out.Write([]byte(sc.Text() + "\n"))
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				base <- m[1]
			}
		}
	}()
	select {
	case b := <-base:
		return b, out.String
	case <-time.After(60 * time.Second): // a hang: a -race build starts slowly on a busy machine, not this slowly
		t.Fatalf("serve did not start:\n%s", out.String())
		return "", nil
	}
}

func apiCall(t *testing.T, method, url, tok string, body any, into any) int {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = strings.NewReader(string(b))
	}
	req, err := http.NewRequest(method, url, rd)
	require.NoError(t, err)
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	if into != nil {
		require.NoError(t, json.Unmarshal(data, into), "%s", data)
	}
	return res.StatusCode
}

// TestServeHearsTheTrainersCodeFromTheMicrophone plays a labelled recording
// as the microphone into a Woodlouse room: its first code (3 bangs, 5
// claps) becomes the trainer's move, judged against the card, announced,
// and shown on every screen with what the microphone heard.
func TestServeHearsTheTrainersCodeFromTheMicrophone(t *testing.T) {
	wav := filepath.Join("..", "..", "..", "shared", "corpus", "gestures", "dev-015.wav")
	if _, err := os.Stat(wav); err != nil {
		if os.Getenv("TABLEREF_REQUIRE_CORPUS") == "1" {
			t.Fatalf("%s: %v", noCorpus, err)
		}
		t.Skip(noCorpus)
	}
	base, out := servePlay(t, "--quiet", "--wav", wav)
	room := startRoom(t, base, "woodlouse")
	seats := room.Seats

	type view struct {
		Seq    int `json:"seq"`
		Events []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"events"`
		Live struct {
			Hearing struct {
				Mic  struct{ Message string } `json:"mic"`
				Code *struct {
					Bangs, Claps int
					Used         bool
				} `json:"code"`
			} `json:"hearing"`
		} `json:"live"`
	}
	var v view
	// The move comes first, the table's news of the code heard just after
	// it: wait for both. The code comes about 5 s into the recording.
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		apiCall(t, "GET", base+"/api/rooms/"+room.Room+"/view", room.Host, nil, &v)
		if v.Seq >= 1 && v.Live.Hearing.Code != nil && v.Live.Hearing.Code.Used {
			break
		}
		time.Sleep(200 * time.Millisecond)
	}
	require.GreaterOrEqual(t, v.Seq, 1, "the heard code never became a move\n%s", out())
	require.NotEmpty(t, v.Events)
	assert.Contains(t, v.Events[0].Text, "Ann gives 3 bangs and 5 claps")
	assert.Contains(t, []string{"code", "mistake"}, v.Events[0].Type)
	require.NotNil(t, v.Live.Hearing.Code, "the table shows the heard code")
	assert.Equal(t, 3, v.Live.Hearing.Code.Bangs)
	assert.Equal(t, 5, v.Live.Hearing.Code.Claps)
	assert.True(t, v.Live.Hearing.Code.Used)
	assert.Contains(t, v.Live.Hearing.Mic.Message, "listening to")
	// A phone sees the same public news.
	var pv view
	apiCall(t, "GET", base+"/api/rooms/"+room.Room+"/view", seats[1], nil, &pv)
	require.NotNil(t, pv.Live.Hearing.Code)
	// Printed when the microphone opened, before the code; read from serve's
	// output by another goroutine.
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(out(), "microphone: listening to") && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	assert.Contains(t, out(), "microphone: listening to")
}

// TestAResumedWoodlouseRoomHearsTheMicrophone starts a Woodlouse game
// without a microphone, kills the server with SIGKILL and starts it again
// on the same data with a recording as the microphone: the resumed room,
// waiting for the trainer's code, hears it.
func TestAResumedWoodlouseRoomHearsTheMicrophone(t *testing.T) {
	wav := filepath.Join("..", "..", "..", "shared", "corpus", "gestures", "dev-015.wav")
	if _, err := os.Stat(wav); err != nil {
		if os.Getenv("TABLEREF_REQUIRE_CORPUS") == "1" {
			t.Fatalf("%s: %v", noCorpus, err)
		}
		t.Skip(noCorpus)
	}
	data := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	first := exec.CommandContext(ctx, cliBin, "serve", "--host", "127.0.0.1", "--port", "0", "--data", data, "--no-mic", "--quiet")
	stdout, err := first.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, first.Start())
	t.Cleanup(func() { cancel(); first.Wait() })
	sc := bufio.NewScanner(stdout)
	var base string
	for base == "" && sc.Scan() {
		if m := regexp.MustCompile(`serving the web remote at (http://127\.0\.0\.1:\d+)/$`).FindStringSubmatch(sc.Text()); m != nil {
			base = m[1]
		}
	}
	require.NotEmpty(t, base)
	go func() {
		for sc.Scan() {
		}
	}()
	room := startRoom(t, base, "woodlouse")
	require.NoError(t, first.Process.Signal(syscall.SIGKILL))
	first.Wait()

	base2, out := servePlay(t, "--data", data, "--quiet", "--wav", wav)
	assert.Contains(t, out(), "The microphone serves the resumed room "+room.Room+" (woodlouse)")
	var v struct {
		Seq    int `json:"seq"`
		Events []struct {
			Text string `json:"text"`
		} `json:"events"`
	}
	deadline := time.Now().Add(60 * time.Second) // the code comes about 5 s into the recording
	for time.Now().Before(deadline) && v.Seq < 1 {
		time.Sleep(200 * time.Millisecond)
		apiCall(t, "GET", base2+"/api/rooms/"+room.Room+"/view", room.Host, nil, &v)
	}
	require.GreaterOrEqual(t, v.Seq, 1, "the resumed room never heard the code\n%s", out())
	assert.Contains(t, v.Events[0].Text, "Ann gives 3 bangs and 5 claps")
}

// TestARecordingWaitsForTheGameAndSaysSo: with --wav and --game, the
// terminal says (after the QR codes) that the recording plays once the
// host starts the game, and the room's screens say it too, not that the
// microphone is off.
func TestARecordingWaitsForTheGameAndSaysSo(t *testing.T) {
	wav := filepath.Join("..", "..", "..", "shared", "corpus", "gestures", "dev-015.wav")
	if _, err := os.Stat(wav); err != nil {
		if os.Getenv("TABLEREF_REQUIRE_CORPUS") == "1" {
			t.Fatalf("%s: %v", noCorpus, err)
		}
		t.Skip(noCorpus)
	}
	base, out := servePlay(t, "--quiet", "--wav", wav, "--game", "woodlouse", "--players", "3")
	m := regexp.MustCompile(`Open the table screen of room ([A-Z]{4}) at`).FindStringSubmatch(out())
	require.NotNil(t, m, "%s", out())
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline) && !strings.Contains(out(), "Press Ctrl-C"); {
		time.Sleep(20 * time.Millisecond)
	}
	_, after, _ := strings.Cut(out(), "serving the web remote at")
	assert.Contains(t, after, "The recording "+wav+" will play as the microphone once the host starts the game.\nPress Ctrl-C to stop.")
	var st struct {
		Live struct {
			Hearing struct {
				Mic struct {
					Listening bool   `json:"listening"`
					Message   string `json:"message"`
				} `json:"mic"`
			} `json:"hearing"`
		} `json:"live"`
	}
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) && st.Live.Hearing.Mic.Message == "" {
		time.Sleep(50 * time.Millisecond)
		require.Equal(t, 200, apiCall(t, "GET", base+"/api/rooms/"+m[1]+"/table", "", nil, &st))
	}
	assert.True(t, st.Live.Hearing.Mic.Listening)
	assert.Equal(t, "the recording dev-015.wav plays as the microphone once the game starts", st.Live.Hearing.Mic.Message)
}

func TestServeWithoutAMicrophoneSaysSoAndRefusesBadFlags(t *testing.T) {
	_, out := servePlay(t, "--quiet", "--no-mic", "--game", "insomnia", "--players", "4")
	assert.Contains(t, out(), "Not listening (--no-mic): the voices' pauses and shouts are not timed")
	r := cliRun(t, nil, "serve", "--no-mic", "--wav", "x.wav")
	cliAssertError(t, r, 2, "--no-mic cannot go with --device or --wav")
	r = cliRun(t, nil, "serve", "--wav", "/nonexistent.wav")
	cliAssertError(t, r, 1, "no such file")
}

// TestAKilledServerLosesNoAcknowledgedMove kills tableref serve with
// SIGKILL in the middle of a game and starts it again on the same data:
// every move it acknowledged is there, every seat's view is the same, and
// the phones' tokens still work.
func TestAKilledServerLosesNoAcknowledgedMove(t *testing.T) {
	data := t.TempDir()
	var said []string // what serve printed before it served
	start := func() (string, *exec.Cmd) {
		cmd := exec.Command(cliBin, "serve", "--host", "127.0.0.1", "--port", "0", "--data", data, "--no-mic", "--quiet")
		cmd.Env = append(os.Environ(), "GORACE=atexit_sleep_ms=0")
		stdout, err := cmd.StdoutPipe()
		require.NoError(t, err)
		require.NoError(t, cmd.Start())
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		sc := bufio.NewScanner(stdout)
		re := regexp.MustCompile(`serving the web remote at (http://127\.0\.0\.1:\d+)/$`)
		said = nil
		for sc.Scan() {
			said = append(said, sc.Text())
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				go func() {
					for sc.Scan() {
					}
				}()
				return m[1], cmd
			}
		}
		t.Fatal("serve did not start")
		return "", nil
	}
	base, cmd := start()
	room := startRoom(t, base, "celestial")
	toks := append([]string{room.Host}, room.Seats...)
	type st struct {
		Seq   int             `json:"seq"`
		View  json.RawMessage `json:"view"`
		Legal []struct {
			Action string   `json:"action"`
			Args   []string `json:"args"`
		} `json:"legal"`
	}
	acked := 0
	for i := 0; i < 12; i++ {
		for _, tok := range toks[1:] {
			time.Sleep(60 * time.Millisecond) // each phone well under the server's 20 requests a second
			var v st
			require.Equal(t, 200, apiCall(t, "GET", base+"/api/rooms/"+room.Room+"/view", tok, nil, &v))
			if len(v.Legal) == 0 {
				continue
			}
			mv := v.Legal[i%len(v.Legal)]
			var ok struct {
				OK  bool `json:"ok"`
				Seq int  `json:"seq"`
			}
			if apiCall(t, "POST", base+"/api/rooms/"+room.Room+"/moves", tok, map[string]any{"move": map[string]any{"action": mv.Action, "args": mv.Args}}, &ok) == 200 {
				acked = ok.Seq
			}
		}
	}
	require.Greater(t, acked, 6)
	before := make([]st, len(toks))
	for i, tok := range toks {
		require.Equal(t, 200, apiCall(t, "GET", base+"/api/rooms/"+room.Room+"/view", tok, nil, &before[i]))
	}
	require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
	cmd.Wait()

	base2, _ := start()
	assert.Contains(t, said, fmt.Sprintf("resumed 1 room: %s (celestial, playing, seq %d)", room.Room, acked))
	// Where to find it now, on the new port.
	assert.Contains(t, said, fmt.Sprintf("Room %s (celestial, playing), resumed: players join at %s/j/%s", room.Room, base2, room.Room))
	assert.Contains(t, said, fmt.Sprintf("Its table screen: %s/t/%s", base2, room.Room))
	for i, tok := range toks {
		var after st
		require.Equal(t, 200, apiCall(t, "GET", base2+"/api/rooms/"+room.Room+"/view", tok, nil, &after))
		assert.Equal(t, acked, after.Seq, "every acknowledged move is there")
		assert.JSONEq(t, string(before[i].View), string(after.View), "token %d sees the same", i)
	}
}

func TestServeOpensTheRoomOfGameAtOnce(t *testing.T) {
	base, out := servePlay(t, "--quiet", "--no-mic", "--game", "deck", "--players", "3", "--option", "cards=7")
	m := regexp.MustCompile(`Open the table screen of room ([A-Z]{4}) at (\S+)/t/[A-Z]{4}#host=(\S+)`).FindStringSubmatch(out())
	require.NotNil(t, m, "%s", out())
	assert.Equal(t, base, m[2])
	var st struct {
		Room struct {
			Game  string `json:"game"`
			Seats int    `json:"seats"`
			Host  bool   `json:"host"`
		} `json:"room"`
	}
	require.Equal(t, 200, apiCall(t, "GET", base+"/api/rooms/"+m[1]+"/view", m[3], nil, &st))
	assert.Equal(t, "deck", st.Room.Game)
	assert.Equal(t, 3, st.Room.Seats)
	assert.True(t, st.Room.Host)

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--game", "chess"}, `no game "chess" (the games are woodlouse,`},
		{[]string{"--game", "woodlouse", "--option", "speed=9"}, `has no option "speed" (it has after-last-card`},
		{[]string{"--game", "woodlouse", "--players", "9"}, "is for 3 to 6 players, not 9"},
		{[]string{"--players", "3"}, "go with --game"},
	} {
		r := cliRun(t, nil, append([]string{"serve", "--no-mic", "--quiet"}, c.args...)...)
		cliAssertError(t, r, 2, c.want)
	}
}

// started is a room startRoom made.
type started struct {
	Room  string `json:"room"`
	Host  string `json:"host_token"`
	Seats []string
}

// startRoom creates a room of game on the server at base, seats Ann, Bob and
// Cy and starts it.
func startRoom(t *testing.T, base, game string) started {
	t.Helper()
	var room started
	require.Equal(t, 201, apiCall(t, "POST", base+"/api/rooms", "", map[string]any{"game": game, "players": 3}, &room))
	for _, n := range []string{"Ann", "Bob", "Cy"} {
		var j struct{ Token string }
		require.Equal(t, 201, apiCall(t, "POST", base+"/api/rooms/"+room.Room+"/join", "", map[string]any{"name": n}, &j))
		room.Seats = append(room.Seats, j.Token)
	}
	require.Equal(t, 200, apiCall(t, "POST", base+"/api/rooms/"+room.Room+"/start", room.Host, map[string]any{}, nil))
	return room
}

// noCorpus is why a test that needs the labelled recordings did not run.
const noCorpus = "the labelled recordings are not at ../shared/corpus/gestures (../shared beside the repository)"
