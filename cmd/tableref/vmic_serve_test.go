//go:build unix

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/audio/mic/vmic"
)

// TestVirtualMicServeDoesNotHearItself runs tableref serve on the virtual
// microphone, whose speaker feeds its microphone as a laptop's does. The
// trainer enters a wrong code on the phone: the referee buzzes, says "Wrong
// code! ..." and chimes for the next trainer, and must not take any of
// that for the next trainer's code (it used to: chime → 1 clap, alarm →
// 12 claps, "Wrong code!" → 5 claps and 3 bangs, each penalty's buzzer
// setting off the next). Then a real code played into the room is heard
// and becomes the trainer's move.
func TestVirtualMicServeDoesNotHearItself(t *testing.T) {
	root, err := vmic.ModuleRoot()
	require.NoError(t, err)
	script, err := vmic.Script()
	if err != nil {
		vmicUnavailable(t, "no virtual microphone: %v", err)
	}
	file := filepath.Join(filepath.Dir(root), "shared", "corpus", "gestures", "dev-015.wav")
	if _, err := os.Stat(file); err != nil {
		vmicUnavailable(t, "labelled corpus file missing: %v", err)
	}
	env := vmicStart(t, script)
	vmicAwaitSound(t, env, vmicStartProcess(t, env, "paplay", vmicNoiseBed(t, 120))) // flowing before the microphone opens

	// Built without -race: serve opens two PortAudio streams (the speaker
	// and the microphone), which checkptr does not survive (see
	// audio/mic's openStream).
	bin := vmicBuild(t, root)
	srv := vmicStartProcess(t, env, bin, "serve", "--host", "127.0.0.1", "--port", "0", "--data", t.TempDir())
	re := regexp.MustCompile(`serving the web remote at (http://127\.0\.0\.1:\d+)/`)
	var base string
	for deadline := time.Now().Add(vmicStartTimeout); base == "" && time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if m := re.FindStringSubmatch(srv.stdout.String()); m != nil {
			base = m[1]
		}
	}
	require.NotEmpty(t, base, "serve did not start: %s %s", srv.stdout.String(), srv.stderr.String())
	require.NotContains(t, srv.stdout.String(), "No speakers", "the virtual speaker is there")

	time.Sleep(500 * time.Millisecond)
	require.False(t, srv.done(), "serve stopped: %s %s %v", srv.stdout.String(), srv.stderr.String(), srv.err)
	room := startRoom(t, base, "woodlouse")
	toks := room.Seats
	type view struct {
		Seq    int   `json:"seq"`
		Turn   []int `json:"turn"`
		Events []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"events"`
		Live struct {
			Hearing struct {
				Mic      struct{ Message string } `json:"mic"`
				Code     json.RawMessage          `json:"code"`
				Gestures []json.RawMessage        `json:"gestures"`
			} `json:"hearing"`
		} `json:"live"`
	}
	var v view
	for deadline := time.Now().Add(vmicWait); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		apiCall(t, "GET", base+"/api/rooms/"+room.Room+"/view", room.Host, nil, &v)
		if strings.Contains(v.Live.Hearing.Mic.Message, "listening to") {
			break
		}
	}
	require.Contains(t, v.Live.Hearing.Mic.Message, "listening to", "the microphone is open")

	// The trainer enters a wrong code on the phone: the speakers buzz, say
	// it and chime for the next trainer.
	trainer := v.Turn[0]
	require.Equal(t, 200, apiCall(t, "POST", base+"/api/rooms/"+room.Room+"/moves", toks[trainer],
		map[string]any{"move": map[string]any{"action": "code", "args": []string{"9", "9"}}}, nil))
	for deadline := time.Now().Add(12 * time.Second); time.Now().Before(deadline); time.Sleep(250 * time.Millisecond) {
		apiCall(t, "GET", base+"/api/rooms/"+room.Room+"/view", room.Host, nil, &v)
		require.Equal(t, 1, v.Seq, "the referee took its own sounds for a code: %s\n%s", v.Live.Hearing.Code, srv.stdout.String())
		require.Empty(t, v.Live.Hearing.Gestures, "the referee heard its own sounds as gestures")
		require.True(t, len(v.Live.Hearing.Code) == 0 || string(v.Live.Hearing.Code) == "null",
			"the referee heard its own sounds as a code: %s\n%s", v.Live.Hearing.Code, srv.stdout.String())
	}

	// A real code, played into the room, is heard.
	vmicStartProcess(t, env, "paplay", file)
	for deadline := time.Now().Add(vmicWait); time.Now().Before(deadline) && v.Seq < 2; time.Sleep(250 * time.Millisecond) {
		apiCall(t, "GET", base+"/api/rooms/"+room.Room+"/view", room.Host, nil, &v)
	}
	require.GreaterOrEqual(t, v.Seq, 2, "the code played was not heard: %s\n%s", v.Live.Hearing.Code, srv.stdout.String())
	var texts []string
	for _, e := range v.Events {
		texts = append(texts, e.Text)
	}
	assert.Contains(t, strings.Join(texts, "\n"), "gives 3 bangs and 5 claps", "%s", srv.stdout.String())
}
