package main

import (
	"encoding/json"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/audio/sound"
	"github.com/tableref/tableref/referee"
	"github.com/tableref/tableref/referee/hearing"
	"github.com/tableref/tableref/rules/game"
	"github.com/tableref/tableref/webremote"
)

func newParty(t *testing.T) (*party, *webremote.Server, *sound.Recorder) {
	srv := webremote.New(webremote.Config{RateLimit: -1})
	rec := &sound.Recorder{}
	p := &party{srv: srv, player: rec, log: func(string, ...any) {}, done: make(chan struct{}), talking: true}
	return p, srv, rec
}

func TestTheRefereeRingsAndSaysTheHeadlines(t *testing.T) {
	p, _, rec := newParty(t)
	p.events("ABCD", []referee.Logged{
		{Seq: 3, Event: game.Event{Type: "alarm", Text: "The deck is spent with 2 voice(s) still talking: the alarm rings."}},
		{Seq: 4, Event: game.Event{Type: "mistake", Text: "Ann gives 1 bang and 2 claps, but the card shows 3 rats: a wrong code."}},
		{Seq: 5, Event: game.Event{Type: "drawn", Text: "You drew 3 rats.", To: []int{0}}},
		{Seq: 6, Event: game.Event{Type: "step", Text: "Ann steps to c2"}},
	})
	p.timerDone("ABCD", "sand")
	assert.Equal(t, []string{
		"sound:alarm", "say:The deck is spent with 2 voices still talking.",
		"sound:buzzer", "say:Wrong code! Ann gives 1 bang and 2 claps, but the card shows 3 rats.",
		"sound:alarm", "say:The sand timer has run out.",
	}, rec.Played, "a private event and a small step are not said")
}

func liveOf(t *testing.T, srv *webremote.Server, code, host string) map[string]any {
	t.Helper()
	req := httptest.NewRequest("GET", "/api/rooms/"+code+"/view", nil)
	req.Header.Set("Authorization", "Bearer "+host)
	res, err := srv.App().Test(req, 5000)
	require.NoError(t, err)
	b, _ := io.ReadAll(res.Body)
	var st struct {
		Live struct {
			Hearing map[string]any `json:"hearing"`
		} `json:"live"`
	}
	require.NoError(t, json.Unmarshal(b, &st), "%s", b)
	return st.Live.Hearing
}

func TestInsomniaHearsVoicesAndWoodlouseHearsGestures(t *testing.T) {
	p, srv, rec := newParty(t)
	code, host, _, err := srv.CreateRoom("insomnia", 4, "", nil)
	require.NoError(t, err)
	p.listenFor(code)
	p.heard(hearing.Event{Kind: "status", Status: "listening to Test Mic", Listening: true})
	p.heard(hearing.Event{Kind: "clap", T: 1}) // not Insomnia's business
	p.heard(hearing.Event{Kind: "shout-start", Start: 2})
	p.heard(hearing.Event{Kind: "pause", Start: 5, End: 6.5})
	h := liveOf(t, srv, code, host)
	assert.Equal(t, "listening to Test Mic", h["mic"].(map[string]any)["message"])
	assert.Empty(t, h["gestures"])
	voices := h["voices"].([]any)
	require.Len(t, voices, 1)
	assert.Equal(t, "pause", voices[0].(map[string]any)["kind"])
	assert.Equal(t, 1.5, voices[0].(map[string]any)["seconds"])
	assert.Contains(t, rec.Played, "sound:buzzer", "a shout is buzzed")

	// A Woodlouse room takes over the microphone: gestures count, voices do not.
	wcode, whost, _, err := srv.CreateRoom("woodlouse", 3, "", nil)
	require.NoError(t, err)
	p.listenFor(wcode)
	p.heard(hearing.Event{Kind: "bang", T: 1})
	p.heard(hearing.Event{Kind: "clap", T: 1.4})
	p.heard(hearing.Event{Kind: "pause", Start: 5, End: 7})
	time.Sleep(150 * time.Millisecond)
	h = liveOf(t, srv, wcode, whost)
	assert.Len(t, h["gestures"], 2)
	assert.Empty(t, h["voices"])
	// A code heard before the game starts is shown but cannot be a move.
	p.heard(hearing.Event{Kind: "code", Bangs: 1, Claps: 1, Order: "BC"})
	h = liveOf(t, srv, wcode, whost)
	code2 := h["code"].(map[string]any)
	assert.Equal(t, false, code2["used"])
	assert.True(t, strings.Contains(code2["note"].(string), "no game under way"), "%v", code2)
}
