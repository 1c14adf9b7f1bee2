package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/audio/sound"
	"github.com/tableref/tableref/referee"
	"github.com/tableref/tableref/referee/hearing"
	"github.com/tableref/tableref/referee/journal"
	"github.com/tableref/tableref/referee/timer"
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
	p, srv, rec := newParty(t)
	insomnia, _, _, err := srv.CreateRoom("insomnia", 4, "", nil)
	require.NoError(t, err)
	woodlouse, _, _, err := srv.CreateRoom("woodlouse", 3, "", nil)
	require.NoError(t, err)
	mistake := referee.Logged{Seq: 4, Event: game.Event{Type: "mistake", Text: "Ann gives 1 bang and 2 claps, but the card shows 3 rats: a wrong code."}}
	p.events(insomnia, []referee.Logged{
		{Seq: 3, Event: game.Event{Type: "alarm", Text: "The deck is spent with 2 voice(s) still talking: the alarm rings."}},
		mistake, // not one of Insomnia's events: nothing is said or rung
	})
	p.events(woodlouse, []referee.Logged{
		mistake,
		{Seq: 5, Event: game.Event{Type: "drawn", Text: "You drew 3 rats.", To: []int{0}}},
		{Seq: 6, Event: game.Event{Type: "step", Text: "Ann steps to c2"}},
	})
	p.timerDone(woodlouse, "sand")
	assert.Equal(t, []string{
		"sound:alarm", "say:The deck is spent with 2 voices still talking.",
		"sound:buzzer", "say:Wrong code! Ann gives 1 bang and 2 claps, but the card shows 3 rats.",
		"sound:alarm", "say:The sand timer has run out.",
	}, rec.Played, "each game's own headlines; a private event and a small step are not said")
}

// appTestTimeout bounds an in-process request (milliseconds): a hang, not a
// slow machine, since -race on a busy CI machine is many times slower than a
// quiet one.
const appTestTimeout = 60_000

// eventually polls cond every 20 ms until it holds, and fails the test with
// what was awaited and what was seen (say) after 30 s.
func eventually(t *testing.T, what string, cond func() bool, say func() string) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited 30 s in vain for %s: %s", what, say())
		}
	}
}

func liveOf(t *testing.T, srv *webremote.Server, code, host string) map[string]any {
	t.Helper()
	req := httptest.NewRequest("GET", "/api/rooms/"+code+"/view", nil)
	req.Header.Set("Authorization", "Bearer "+host)
	res, err := srv.App().Test(req, appTestTimeout)
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
	eventually(t, "the two gestures on the table", func() bool {
		h = liveOf(t, srv, wcode, whost)
		g, _ := h["gestures"].([]any)
		return len(g) >= 2
	}, func() string { return fmt.Sprint(h) })
	assert.Len(t, h["gestures"], 2)
	assert.Empty(t, h["voices"])
	// A gesture taken back (the start of a word) leaves the table.
	p.heard(hearing.Event{Kind: "bang", T: 2})
	p.heard(hearing.Event{Kind: "retract", T: 1.4})
	eventually(t, "the clap taken back", func() bool {
		h = liveOf(t, srv, wcode, whost)
		g, _ := h["gestures"].([]any)
		return len(g) == 2 && g[1].(map[string]any)["t"] == 2.0
	}, func() string { return fmt.Sprint(h) })
	// A code heard before the game starts is shown but cannot be a move.
	p.heard(hearing.Event{Kind: "code", Bangs: 1, Claps: 1, Order: "BC"})
	h = liveOf(t, srv, wcode, whost)
	code2 := h["code"].(map[string]any)
	assert.Equal(t, false, code2["used"])
	assert.True(t, strings.Contains(code2["note"].(string), "no game under way"), "%v", code2)
}

// call makes one API request in-process and decodes its answer into into.
func call(t *testing.T, srv *webremote.Server, method, path, tok string, body any, into any) int {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = strings.NewReader(string(b))
	}
	req := httptest.NewRequest(method, path, rd)
	req.Header.Set("Content-Type", "application/json")
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	res, err := srv.App().Test(req, appTestTimeout)
	require.NoError(t, err)
	b, _ := io.ReadAll(res.Body)
	if into != nil {
		require.NoError(t, json.Unmarshal(b, into), "%s", b)
	}
	return res.StatusCode
}

// TestAResumedRoomIsHeardAtOnce restarts the server on the same data: the
// Woodlouse game under way is the microphone's again before any move or new
// room, a heard code becomes its trainer's move, and a recording played as
// the microphone starts.
func TestAResumedRoomIsHeardAtOnce(t *testing.T) {
	data := t.TempDir()
	srv := webremote.New(webremote.Config{RateLimit: -1, Data: data})
	lobby, _, _, err := srv.CreateRoom("insomnia", 4, "", nil) // stays in the lobby
	require.NoError(t, err)
	code, host, toks := startedWoodlouse(t, srv)
	// Touch the lobby last: a game under way still comes first.
	require.Equal(t, 201, call(t, srv, "POST", "/api/rooms/"+lobby+"/join", "", map[string]any{"name": "Di"}, nil))

	// The server stops; a new one resumes the rooms from the journals.
	srv2 := webremote.New(webremote.Config{RateLimit: -1, Data: data})
	rec := &sound.Recorder{}
	p := &party{srv: srv2, player: rec, log: func(string, ...any) {}, done: make(chan struct{}), talking: true}
	got, ok := p.adopt(journal.Dir(data).Modified)
	require.True(t, ok)
	assert.Equal(t, code, got)

	// A recording waiting for a game under way starts now.
	opened := make(chan struct{})
	go func() {
		p.afterStart(func() (hearing.Input, string, bool, error) { close(opened); return nil, "", false, io.EOF })()
	}()
	select {
	case <-opened:
	case <-time.After(30 * time.Second): // afterStart checks every 100 ms
		t.Fatal("the recording waits for a game although one is under way")
	}

	bangs, claps := trainersCode(t, srv2, code, toks)
	p.heard(hearing.Event{Kind: "code", Bangs: bangs, Claps: claps})
	assert.Equal(t, 1, tableOf(t, srv2, code, host).Seq, "the heard code is the trainer's move")
}

// startedWoodlouse is a Woodlouse room with three players, under way, and
// their tokens.
func startedWoodlouse(t *testing.T, srv *webremote.Server) (code, host string, toks []string) {
	t.Helper()
	code, host, _, err := srv.CreateRoom("woodlouse", 3, "", nil)
	require.NoError(t, err)
	for _, n := range []string{"Ann", "Bob", "Cy"} {
		var j struct {
			Token string `json:"token"`
		}
		require.Equal(t, 201, call(t, srv, "POST", "/api/rooms/"+code+"/join", "", map[string]any{"name": n}, &j))
		toks = append(toks, j.Token)
	}
	require.Equal(t, 200, call(t, srv, "POST", "/api/rooms/"+code+"/start", host, map[string]any{}, nil))
	return code, host, toks
}

// seen is a room's state as a token's page reads it.
type seen struct {
	Seq    int         `json:"seq"`
	Legal  []game.Move `json:"legal"`
	Events []struct {
		Type string `json:"type"`
	} `json:"events"`
}

// tableOf is room code's state as tok sees it.
func tableOf(t *testing.T, srv *webremote.Server, code, tok string) seen {
	t.Helper()
	var st seen
	require.Equal(t, 200, call(t, srv, "GET", "/api/rooms/"+code+"/view", tok, nil, &st))
	return st
}

// trainersCode is the code the trainer's phone offers: the right one.
func trainersCode(t *testing.T, srv *webremote.Server, code string, toks []string) (bangs, claps int) {
	t.Helper()
	for _, tok := range toks {
		for _, mv := range tableOf(t, srv, code, tok).Legal {
			if mv.Action == "code" {
				fmt.Sscan(mv.Args[0], &bangs)
				fmt.Sscan(mv.Args[1], &claps)
				return bangs, claps
			}
		}
	}
	t.Fatal("no seat may give a code")
	return 0, 0
}

// TestAHeardCodeThatFitsNoCardIsShownNotApplied: the referee's own chime
// heard as one clap, its alarm as twelve, a code spoilt by its own sound:
// each is shown on the table and the phones with what to do, and none is
// the trainer's mistake. A code that fits a card, even a miscount, is
// applied.
func TestAHeardCodeThatFitsNoCardIsShownNotApplied(t *testing.T) {
	p, srv, rec := newParty(t)
	var logged []string
	p.log = func(format string, a ...any) { logged = append(logged, fmt.Sprintf(format, a...)) }
	code, host, toks := startedWoodlouse(t, srv)
	p.listenFor(code)
	for _, c := range []struct {
		ev   hearing.Event
		note string
	}{
		{hearing.Event{Kind: "code", Claps: 1, Order: "C"}, "heard 1 clap — that fits no card (no bangs, so no position): repeat the code or enter it on the phone"},
		{hearing.Event{Kind: "code", Claps: 12, Order: "CCCCCCCCCCCC"}, "heard 12 claps — that fits no card (no bangs, so no position; 12 claps, and a card shows at most 5 animals)"},
		{hearing.Event{Kind: "code", Bangs: 5, Claps: 3, Order: "BBBBBCCC"}, "5 bangs, but only 4 sequence cards are on the table"},
		{hearing.Event{Kind: "code", Bangs: 1, Order: "B"}, "heard 1 bang — that fits no card"},
		{hearing.Event{Kind: "code", Bangs: 2, Claps: 2, Order: "BBCC", Masked: 1}, "heard 2 bangs and 2 claps, but 1 gesture came while the referee's own sound played: repeat the code or enter it on the phone"},
	} {
		p.heard(c.ev)
		assert.Equal(t, 0, tableOf(t, srv, code, host).Seq, "%+v is not the trainer's move", c.ev)
		h := liveOf(t, srv, code, host)
		got := h["code"].(map[string]any)
		assert.Equal(t, false, got["used"])
		assert.Contains(t, got["note"], c.note)
	}
	assert.Empty(t, rec.Played, "nothing rings for a misheard code")

	// A miscount that fits a card is the trainer's mistake.
	bangs, claps := trainersCode(t, srv, code, toks)
	claps = claps%5 + 1 // another number of animals: a wrong code that fits a card
	p.heard(hearing.Event{Kind: "code", Bangs: bangs, Claps: claps})
	st := tableOf(t, srv, code, host)
	assert.Equal(t, 1, st.Seq)
	types := []string{}
	for _, e := range st.Events {
		types = append(types, e.Type)
	}
	assert.Contains(t, types, "mistake")
	used := liveOf(t, srv, code, host)["code"].(map[string]any)
	assert.Equal(t, true, used["used"])
	assert.Nil(t, used["note"])

	// Each code heard is one line in the terminal, what was heard first.
	require.Len(t, logged, 6, "%q", logged)
	for _, l := range logged {
		assert.True(t, strings.HasPrefix(l, code+": heard "), "%q", l)
		assert.True(t, strings.HasSuffix(l, "\n") && strings.Count(l, "\n") == 1, "%q", l)
	}
	assert.Equal(t, code+": heard "+gestures(bangs, claps)+": the trainer's code\n", logged[5])
}

// TestTheLastSecondsOfARunningTimerTick: five ticks, one a second, for
// each running timer, and none for a stopped one.
func TestTheLastSecondsOfARunningTimerTick(t *testing.T) {
	p, srv, rec := newParty(t)
	code, _, _, err := srv.CreateRoom("deck", 3, "", nil)
	require.NoError(t, err)
	t0 := time.Date(2026, 11, 24, 21, 0, 0, 0, time.UTC)
	now := t0
	p.now = func() time.Time { return now }
	sand := timer.New("sand", 30*time.Second)
	sand.Start(t0)
	paused := timer.New("egg", 10*time.Second)
	p.timers = func(room string) []timer.Timer {
		if room != code {
			return nil
		}
		return []timer.Timer{sand, paused}
	}
	for now = t0; now.Before(t0.Add(32 * time.Second)); now = now.Add(100 * time.Millisecond) {
		p.step()
	}
	assert.Equal(t, []string{"sound:tick", "sound:tick", "sound:tick", "sound:tick", "sound:tick"}, rec.Played)
}

// TestInsomniasLogIsInGameTime: pauses and shouts are timed from the start
// of the game, with the time of day, not from the start of the server.
func TestInsomniasLogIsInGameTime(t *testing.T) {
	p, srv, _ := newParty(t)
	code, host, _, err := srv.CreateRoom("insomnia", 4, "", nil)
	require.NoError(t, err)
	serverStart := time.Date(2026, 11, 24, 20, 0, 0, 0, time.Local)
	now := serverStart.Add(time.Hour)
	p.now = func() time.Time { return now }
	p.listenFor(code)
	for _, n := range []string{"Ann", "Bob", "Cy", "Di"} {
		require.Equal(t, 201, call(t, srv, "POST", "/api/rooms/"+code+"/join", "", map[string]any{"name": n}, nil))
	}
	require.Equal(t, 200, call(t, srv, "POST", "/api/rooms/"+code+"/start", host, map[string]any{}, nil))
	p.step() // the game is seen under way
	start := now
	// The ears time events from when they started, an hour before.
	p.heard(hearing.Event{Kind: "shout", Start: 3675.2, End: 3677.0, T: 3677, Wall: start.Add(75200 * time.Millisecond)})
	h := liveOf(t, srv, code, host)
	v := h["voices"].([]any)[0].(map[string]any)
	assert.Equal(t, 75.2, v["start"])
	assert.Equal(t, 77.0, v["end"])
	assert.Equal(t, "21:01:15", v["at"])
}

// TestServesTimersTickFromTheRoomsTimers: a sand timer started by the host
// is read from the room (webremote's Timers, as serve does) and ticks its
// last seconds. The room's clock and the party's are one fake clock, moved
// 50 ms a step (serve's watch steps every 200 ms), so that a busy machine
// cannot skip a second between two steps.
func TestServesTimersTickFromTheRoomsTimers(t *testing.T) {
	clock := &timer.Fake{}
	srv := webremote.New(webremote.Config{RateLimit: -1, Clock: clock})
	rec := &sound.Recorder{}
	p := &party{srv: srv, player: rec, log: func(string, ...any) {}, done: make(chan struct{}), talking: true, now: clock.Now}
	code, host, _, err := srv.CreateRoom("deck", 3, "", nil)
	require.NoError(t, err)
	require.Equal(t, 200, call(t, srv, "POST", "/api/rooms/"+code+"/timers", host, map[string]any{"name": "sand", "action": "create", "seconds": 3}, nil))
	require.Equal(t, 200, call(t, srv, "POST", "/api/rooms/"+code+"/timers", host, map[string]any{"name": "sand", "action": "start"}, nil))
	p.timers = srv.Timers
	ts := p.timers(code)
	require.Len(t, ts, 1)
	assert.Equal(t, "sand", ts[0].Name)
	assert.True(t, ts[0].Running())
	assert.Equal(t, 3*time.Second, ts[0].Remaining(clock.Now()))
	for range 4 * 20 {
		p.step()
		clock.Advance(50 * time.Millisecond)
	}
	assert.Equal(t, []string{"sound:tick", "sound:tick", "sound:tick"}, rec.Played, "3, 2, 1")
}

// lockedRecorder is a sound.Recorder for a party whose events and timers
// come from several goroutines.
type lockedRecorder struct {
	mu  sync.Mutex
	rec sound.Recorder
}

func (l *lockedRecorder) Play(n sound.Name) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.rec.Play(n)
}

func (l *lockedRecorder) Say(text string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.rec.Say(text)
}

func (l *lockedRecorder) Close() error { return nil }

func (l *lockedRecorder) played() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.rec.Played...)
}

// TestAMeetingThatRanOutWhileTheServerWasDownIsAnnounced: a Purse Snatcher
// meeting whose clock fell due while serve was stopped runs out as the
// server resumes the room, before serve's referee is attached; the
// referee still rings the alarm and says that the time is up.
func TestAMeetingThatRanOutWhileTheServerWasDownIsAnnounced(t *testing.T) {
	data := t.TempDir()
	srv := webremote.New(webremote.Config{RateLimit: -1, Data: data, Clock: &timer.Fake{}})
	code, host, _, err := srv.CreateRoom("pursesnatcher", 2, "", map[string]string{"minutes": "1"})
	require.NoError(t, err)
	for _, n := range []string{"Ann", "Bob"} {
		require.Equal(t, 201, call(t, srv, "POST", "/api/rooms/"+code+"/join", "", map[string]any{"name": n}, nil))
	}
	require.Equal(t, 200, call(t, srv, "POST", "/api/rooms/"+code+"/start", host, map[string]any{}, nil))

	later := &timer.Fake{}
	later.Advance(2 * time.Minute) // the server was down meanwhile
	srv2 := webremote.New(webremote.Config{RateLimit: -1, Data: data, Clock: later})
	later.Advance(0) // the overdue meeting rings as the room is resumed
	rec := &lockedRecorder{}
	p := &party{srv: srv2, player: rec, log: func(string, ...any) {}, done: make(chan struct{}), talking: true}
	p.attach()
	eventually(t, "the alarm and two announcements", func() bool { return len(rec.played()) >= 3 },
		func() string { return fmt.Sprintf("%q", rec.played()) })
	played := rec.played()
	assert.Contains(t, played, "sound:alarm")
	assert.Contains(t, played, "say:The meeting timer has run out.")
	said := slices.DeleteFunc(slices.Clone(played), func(s string) bool {
		return !strings.HasPrefix(s, "say:") || s == "say:The meeting timer has run out."
	})
	require.Len(t, said, 1, "the time move is said: %q", played)
	assert.Contains(t, said[0], "tells her to leave")
}
