package webremote

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/referee"
	"github.com/tableref/tableref/referee/timer"
)

type timerState struct {
	Timers []timerInfo `json:"timers"`
}

func timersOf(t *testing.T, s *Server, code, tok string) []timerInfo {
	t.Helper()
	var st timerState
	r := call(t, s, "GET", "/api/rooms/"+code+"/view", tok, nil)
	require.Equal(t, 200, r.status)
	require.NoError(t, jsonUnmarshal(r.body, &st))
	return st.Timers
}

func timerCall(t *testing.T, s *Server, code, tok string, body map[string]any) resp {
	t.Helper()
	return call(t, s, "POST", "/api/rooms/"+code+"/timers", tok, body)
}

func TestATimerRunsPausesWithTheRoomAndRings(t *testing.T) {
	clock := &timer.Fake{}
	s := newTestServer(t, Config{Clock: clock})
	var mu sync.Mutex
	var rung []string
	s.OnTimer(func(room, name string) { mu.Lock(); rung = append(rung, room+" "+name); mu.Unlock() })
	code, host, toks := woodlouseRoom(t, s)
	require.Equal(t, 200, timerCall(t, s, code, host, map[string]any{"name": "sand", "action": "create", "seconds": 90}).status)
	require.Equal(t, 200, timerCall(t, s, code, host, map[string]any{"name": "sand", "action": "start"}).status)
	ts := timersOf(t, s, code, toks[0]) // every seat sees the timers
	require.Len(t, ts, 1)
	ref := s.Timers(code) // and the referee, for its ticks
	require.Len(t, ref, 1)
	assert.Equal(t, "sand", ref[0].Name)
	due, ok := ref[0].DueAt()
	assert.True(t, ok)
	assert.Equal(t, clock.Now().Add(90*time.Second), due)
	assert.Nil(t, s.Timers("NONE"))
	assert.True(t, ts[0].Running)
	assert.Equal(t, clock.Now().Add(90*time.Second).UnixMilli(), ts[0].DueAt)
	var now struct {
		Now int64 `json:"now"`
	}
	require.NoError(t, json.Unmarshal(call(t, s, "GET", "/api/rooms/"+code+"/view", toks[0], nil).body, &now))
	assert.Equal(t, clock.Now().UnixMilli(), now.Now, "the server's clock, for pages to count down against")

	clock.Advance(30 * time.Second)
	assert.Equal(t, int64(60000), timersOf(t, s, code, host)[0].LeftMS)
	require.Equal(t, 200, call(t, s, "POST", "/api/rooms/"+code+"/pause", host, map[string]any{"paused": true}).status)
	clock.Advance(10 * time.Minute)
	ts = timersOf(t, s, code, host)
	assert.False(t, ts[0].Running, "paused with the room")
	assert.Equal(t, int64(60000), ts[0].LeftMS)
	require.Equal(t, 200, call(t, s, "POST", "/api/rooms/"+code+"/pause", host, map[string]any{"paused": false}).status)
	assert.True(t, timersOf(t, s, code, host)[0].Running, "and runs on when it resumes")
	clock.Advance(59 * time.Second)
	mu.Lock()
	assert.Empty(t, rung)
	mu.Unlock()
	clock.Advance(2 * time.Second)
	mu.Lock()
	assert.Equal(t, []string{code + " sand"}, rung)
	mu.Unlock()
	ts = timersOf(t, s, code, host)
	assert.False(t, ts[0].Running)
	assert.Equal(t, int64(0), ts[0].LeftMS)

	// Flip it: the sand runs back; reset; delete.
	require.Equal(t, 200, timerCall(t, s, code, host, map[string]any{"name": "sand", "action": "flip"}).status)
	assert.Equal(t, int64(90000), timersOf(t, s, code, host)[0].LeftMS)
	require.Equal(t, 200, timerCall(t, s, code, host, map[string]any{"name": "SAND", "action": "delete"}).status)
	assert.Empty(t, timersOf(t, s, code, host))
}

func TestTimerRequestsThatMakeNoSenseAreRefused(t *testing.T) {
	s := newTestServer(t, Config{Clock: &timer.Fake{}})
	code, host, toks := woodlouseRoom(t, s)
	require.Equal(t, 200, timerCall(t, s, code, host, map[string]any{"name": "egg", "action": "create", "seconds": 180}).status)
	for _, c := range []struct {
		tok    string
		body   map[string]any
		status int
		want   string
	}{
		{toks[0], map[string]any{"name": "egg", "action": "start"}, 403, "only the host"},
		{host, map[string]any{"name": "egg", "action": "create", "seconds": 10}, 409, "already a timer"},
		{host, map[string]any{"name": "x", "action": "create", "seconds": 0}, 400, "1 to 7200 seconds"},
		{host, map[string]any{"name": "nope", "action": "start"}, 404, "no timer"},
		{host, map[string]any{"name": "egg", "action": "boil"}, 400, "not a timer action"},
		{host, map[string]any{"action": "start"}, 400, "name the timer"},
	} {
		r := timerCall(t, s, code, c.tok, c.body)
		assert.Equal(t, c.status, r.status, "%v: %s", c.body, r.body)
		assert.Contains(t, r.errorText(t), c.want)
	}
}

func TestThePurseSnatchersMeetingEndsWhenItsTimeIsUp(t *testing.T) {
	clock := &timer.Fake{}
	s := newTestServer(t, Config{Clock: clock})
	code, host := createRoom(t, s, map[string]any{"game": "pursesnatcher", "options": map[string]any{"minutes": 5}})
	_, ann := joinRoom(t, s, code, "Ann")
	joinRoom(t, s, code, "Bob")
	require.Equal(t, 200, call(t, s, "POST", "/api/rooms/"+code+"/start", host, map[string]any{}).status)
	ts := timersOf(t, s, code, ann)
	require.Len(t, ts, 1)
	assert.Equal(t, "meeting", ts[0].Name)
	assert.Equal(t, int64(5*60000), ts[0].LengthMS)
	assert.True(t, ts[0].Running)
	seq := viewOf(t, s, code, host).Seq
	// The host's own timer is only a timer: only the game's clock drives
	// the game's move.
	require.Equal(t, 200, timerCall(t, s, code, host, map[string]any{"name": "sand", "action": "create", "seconds": 30}).status)
	require.Equal(t, 200, timerCall(t, s, code, host, map[string]any{"name": "sand", "action": "start"}).status)
	clock.Advance(31 * time.Second)
	assert.Equal(t, seq, viewOf(t, s, code, host).Seq, "the sand ran out; the meeting goes on")
	clock.Advance(5*time.Minute - 30*time.Second)
	st := viewOf(t, s, code, host)
	assert.Equal(t, seq+1, st.Seq, "the referee applied the time move")
	require.NotEmpty(t, st.Events)
	assert.Contains(t, st.Events[len(st.Events)-1].Text, "5 minutes")
}

func TestARunningTimerSurvivesARestart(t *testing.T) {
	clock := &timer.Fake{}
	dir := t.TempDir()
	s := newTestServer(t, Config{Clock: clock, Data: dir})
	code, host, _ := woodlouseRoom(t, s)
	require.Equal(t, 200, timerCall(t, s, code, host, map[string]any{"name": "round", "action": "create", "seconds": 120}).status)
	require.Equal(t, 200, timerCall(t, s, code, host, map[string]any{"name": "round", "action": "start"}).status)
	clock.Advance(20 * time.Second)
	s2 := newTestServer(t, Config{Clock: clock, Data: dir})
	var rung []string
	var mu sync.Mutex
	s2.OnTimer(func(room, name string) { mu.Lock(); rung = append(rung, name); mu.Unlock() })
	ts := timersOf(t, s2, code, host)
	require.Len(t, ts, 1)
	assert.True(t, ts[0].Running)
	assert.Equal(t, int64(100000), ts[0].LeftMS)
	clock.Advance(101 * time.Second)
	mu.Lock()
	defer mu.Unlock()
	assert.Contains(t, rung, "round")
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }

func TestATimerRunningOutIsAnEventOfTheRoomForEveryone(t *testing.T) {
	clock := &timer.Fake{}
	dir := t.TempDir()
	l := startLive(t, Config{Clock: clock, Data: dir})
	code, host, toks := woodlouseRoom(t, l.Server)
	ws := l.mustDial(t, code, toks[1], -1)
	ws.readState()
	require.Equal(t, 200, timerCall(t, l.Server, code, host, map[string]any{"name": "sand", "action": "create", "seconds": 30}).status)
	require.Equal(t, 200, timerCall(t, l.Server, code, host, map[string]any{"name": "sand", "action": "start"}).status)
	clock.Advance(31 * time.Second)
	isDone := func(st testState) bool {
		for _, e := range st.Events {
			if e.Type == "timer-done" {
				return true
			}
		}
		return false
	}
	st := ws.readUntil(isDone)
	last := st.Events[len(st.Events)-1]
	assert.Equal(t, "The sand timer has run out.", last.Text)
	assert.Equal(t, 4, last.N, "the room's own events count on from its three joins in the lobby")
	assert.Equal(t, st.Seq, last.Seq, "it carries the game's seq")
	for _, tok := range append(toks, host) { // public
		assert.True(t, isDone(viewOf(t, l.Server, code, tok)))
	}
	r := call(t, l.Server, "GET", "/api/rooms/"+code+"/view?since="+itoa(st.Seq), host, nil)
	assert.Contains(t, string(r.body), `"timer-done"`, "since the game stood at its seq")

	// The next push (a timer change) does not repeat it; a second one is numbered one more.
	require.Equal(t, 200, timerCall(t, l.Server, code, host, map[string]any{"name": "sand", "action": "flip"}).status)
	st, _ = ws.readState()
	assert.False(t, isDone(st), "%+v", st.Events)
	require.Equal(t, 200, timerCall(t, l.Server, code, host, map[string]any{"name": "sand", "action": "start"}).status)
	clock.Advance(31 * time.Second)
	st = ws.readUntil(isDone)
	assert.Equal(t, 5, st.Events[len(st.Events)-1].N)

	// Kept with the room.
	s2 := newTestServer(t, Config{Clock: clock, Data: dir})
	st2 := viewOf(t, s2, code, host)
	n := 0
	for _, e := range st2.Events {
		if e.Type == "timer-done" {
			n++
		}
	}
	assert.Equal(t, 2, n)
}

// The server stops after journalling that the meeting's clock ran out but
// before the referee's time move: resuming makes the move, rather than
// leaving the meeting at 0:00 with its time never up.
func TestAMeetingWhoseTimeMoveWasLostInACrashGetsItOnResume(t *testing.T) {
	clock := &timer.Fake{}
	dir := t.TempDir()
	s := newTestServer(t, Config{Clock: clock, Data: dir})
	code, host := createRoom(t, s, map[string]any{"game": "pursesnatcher", "options": map[string]any{"minutes": 1}})
	joinRoom(t, s, code, "Ann")
	joinRoom(t, s, code, "Bob")
	require.Equal(t, 200, call(t, s, "POST", "/api/rooms/"+code+"/start", host, map[string]any{}).status)
	seq := viewOf(t, s, code, host).Seq
	clock.Advance(61 * time.Second)
	done := viewOf(t, s, code, host)
	require.Equal(t, seq+1, done.Seq, "the referee applied the time move")

	// Cut the journal just after the timer-done record: the crash.
	path := filepath.Join(dir, code+".journal")
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	i := bytes.Index(b, []byte(`"why":"timer-done"`))
	require.Positive(t, i)
	end := i + bytes.IndexByte(b[i:], '\n') + 1
	require.Contains(t, string(b[end:]), `"action":"time"`, "the time move came after the timer-done record")
	require.NoError(t, os.WriteFile(path, b[:end], 0o600))

	s2 := newTestServer(t, Config{Clock: clock, Data: dir})
	after := viewOf(t, s2, code, host)
	assert.Equal(t, seq+1, after.Seq, "the lost time move is made on resume")
	assert.JSONEq(t, string(done.View), string(after.View), "the meeting stands as it did before the crash")
	assert.Equal(t, int64(0), timersOf(t, s2, code, host)[0].LeftMS)
	// The move was made inside New, before anyone listened: its events wait
	// for the listener registered after it (tableref serve's speakers).
	heard := listen(s2)
	got := heard.wait(t, 1)
	assert.Equal(t, code, got[0].room)
	assert.Equal(t, seq+1, got[0].evs[0].Seq, "the time move's events")
	// And it is journalled: a second restart finds it without making it again.
	s3 := newTestServer(t, Config{Clock: clock, Data: dir})
	assert.Equal(t, seq+1, viewOf(t, s3, code, host).Seq)
	heard3 := listen(s3)
	time.Sleep(50 * time.Millisecond)
	assert.Empty(t, heard3.batches(), "nothing is announced twice")
}

// A meeting whose clock fell due while the server was down runs out as
// the server resumes it, before tableref serve has registered its
// listeners: the alarm and the time move's events wait for them.
func TestATimerThatRanOutBeforeTheListenersWereRegisteredReachesThem(t *testing.T) {
	dir := t.TempDir()
	s := newTestServer(t, Config{Clock: &timer.Fake{}, Data: dir})
	code, host := createRoom(t, s, map[string]any{"game": "pursesnatcher", "options": map[string]any{"minutes": 1}})
	joinRoom(t, s, code, "Ann")
	joinRoom(t, s, code, "Bob")
	require.Equal(t, 200, call(t, s, "POST", "/api/rooms/"+code+"/start", host, map[string]any{}).status)
	seq := viewOf(t, s, code, host).Seq

	// The server is down for two minutes (a clock of its own: the first
	// server's meeting never rings).
	later := &timer.Fake{}
	later.Advance(2 * time.Minute)
	s2 := newTestServer(t, Config{Clock: later, Data: dir})
	later.Advance(0) // the resumed meeting, overdue, rings now
	require.Equal(t, seq+1, viewOf(t, s2, code, host).Seq, "the referee made the time move")

	heard := listen(s2)
	var rung [][2]string
	s2.OnTimer(func(room, name string) { rung = append(rung, [2]string{room, name}) })
	assert.Equal(t, [][2]string{{code, "meeting"}}, rung, "the alarm rings for the listener registered late")
	got := heard.wait(t, 1)
	assert.Equal(t, seq+1, got[0].evs[0].Seq, "the time move's events")

	// From now on, as they happen, once each.
	s2.OnTimer(func(room, name string) { t.Errorf("rung again: %s %s", room, name) })
	time.Sleep(50 * time.Millisecond)
	assert.Len(t, heard.batches(), 1)
}

// heardBatches collects what an OnEvents listener receives.
type heardBatches struct {
	mu  sync.Mutex
	got []batch
}

func listen(s *Server) *heardBatches {
	h := &heardBatches{}
	s.OnEvents(func(room string, evs []referee.Logged) {
		h.mu.Lock()
		h.got = append(h.got, batch{room, evs})
		h.mu.Unlock()
	})
	return h
}

func (h *heardBatches) batches() []batch {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]batch(nil), h.got...)
}

// wait waits until n batches have come.
func (h *heardBatches) wait(t *testing.T, n int) []batch {
	t.Helper()
	for deadline := time.Now().Add(testWait); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if got := h.batches(); len(got) >= n {
			return got
		}
	}
	t.Fatalf("%d batches of events came, not %d", len(h.batches()), n)
	return nil
}

// A timer action, a pause, a restart or a kick that cannot be saved changes
// nothing, and the timers that were running still ring when they are due.
func TestAFailedTimerActionLeavesTheRunningTimersRunning(t *testing.T) {
	clock := &timer.Fake{}
	s := newTestServer(t, Config{Data: t.TempDir(), Clock: clock})
	var mu sync.Mutex
	var rung []string
	s.OnTimer(func(room, name string) { mu.Lock(); rung = append(rung, name); mu.Unlock() })
	code, host := createRoom(t, s, map[string]any{"game": "pursesnatcher", "options": map[string]any{"minutes": "5"}})
	_, ann := joinRoom(t, s, code, "Ann")
	joinRoom(t, s, code, "Bob")
	require.Equal(t, 200, call(t, s, "POST", "/api/rooms/"+code+"/start", host, map[string]any{}).status)
	require.Equal(t, 200, timerCall(t, s, code, host, map[string]any{"name": "sand", "action": "create", "seconds": 60}).status)
	require.Equal(t, 200, timerCall(t, s, code, host, map[string]any{"name": "sand", "action": "start"}).status)

	r := s.room(code)
	r.mu.Lock()
	r.journal.SetSync(func() error { return errors.New("disk gone") })
	r.mu.Unlock()
	for _, body := range []map[string]any{
		{"name": "egg", "action": "create", "seconds": 30},
		{"name": "sand", "action": "pause"},
		{"name": "meeting", "action": "reset"},
		{"name": "sand", "action": "delete"},
	} {
		assert.Equal(t, 500, timerCall(t, s, code, host, body).status, "%v", body)
	}
	assert.Equal(t, 500, call(t, s, "POST", "/api/rooms/"+code+"/pause", host, map[string]any{"paused": true}).status)
	assert.Equal(t, 500, call(t, s, "POST", "/api/rooms/"+code+"/restart", host, map[string]any{}).status)
	assert.Equal(t, 500, call(t, s, "POST", "/api/rooms/"+code+"/kick", host, map[string]any{"seat": 0}).status)
	assert.Equal(t, 200, call(t, s, "GET", "/api/rooms/"+code+"/view", ann, nil).status, "a kick that was not saved leaves Ann her seat")
	r.mu.Lock()
	r.journal.SetSync(nil)
	r.mu.Unlock()

	ts := timersOf(t, s, code, host)
	require.Len(t, ts, 2, "nothing was added or deleted")
	for _, ti := range ts {
		assert.True(t, ti.Running, "%s still runs", ti.Name)
	}
	clock.Advance(61 * time.Second)
	mu.Lock()
	assert.Equal(t, []string{"sand"}, rung, "the sand timer rings when it is due")
	mu.Unlock()
	clock.Advance(4 * time.Minute)
	mu.Lock()
	assert.Equal(t, []string{"sand", "meeting"}, rung, "and so does the meeting's clock")
	mu.Unlock()
	var st struct {
		Events []struct {
			Type string `json:"type"`
		} `json:"events"`
	}
	require.NoError(t, jsonUnmarshal(call(t, s, "GET", "/api/rooms/"+code+"/view", host, nil).body, &st))
	var types []string
	for _, e := range st.Events {
		types = append(types, e.Type)
	}
	assert.Contains(t, types, "timer-done")
}
