package webremote

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/referee"
	"github.com/tableref/tableref/rules/game"
)

// woodlouseRoom is a started three-player Woodlouse room.
func woodlouseRoom(t *testing.T, s *Server) (code, host string, toks []string) {
	t.Helper()
	code, host = createRoom(t, s, map[string]any{"game": "woodlouse", "players": 3})
	for _, n := range []string{"Ann", "Bob", "Cy"} {
		_, tok := joinRoom(t, s, code, n)
		toks = append(toks, tok)
	}
	require.Equal(t, 200, call(t, s, "POST", "/api/rooms/"+code+"/start", host, map[string]any{}).status)
	return code, host, toks
}

func TestTheRefereeGivesAHeardCodeForTheTrainer(t *testing.T) {
	s := newTestServer(t, Config{})
	code, host, toks := woodlouseRoom(t, s)
	assert.Equal(t, "woodlouse", s.GameOf(code))
	assert.True(t, s.Playing(code))
	_, err := s.CodeFor(code, 0, 3)
	var misfit *MisfitError
	require.ErrorAs(t, err, &misfit, "no bangs fits no card")
	assert.Contains(t, misfit.Error(), "no bangs")
	mv, err := s.CodeFor(code, 2, 3)
	require.NoError(t, err)
	seq, err := s.Apply(code, mv)
	require.NoError(t, err)
	assert.Equal(t, 1, seq)
	for _, tok := range append(toks, host) {
		st := viewOf(t, s, code, tok)
		assert.Equal(t, 1, st.Seq)
		require.NotEmpty(t, st.Events)
		assert.Contains(t, st.Events[0].Text, "2 bangs and 3 claps")
	}
	// A game without codes takes none. A refused move is the engine's
	// refusal; unknown rooms are said.
	lf, lfHost := createRoom(t, s, map[string]any{"game": "louseflea", "players": 3})
	for _, n := range []string{"Ann", "Bob", "Cy"} {
		joinRoom(t, s, lf, n)
	}
	require.Equal(t, 200, call(t, s, "POST", "/api/rooms/"+lf+"/start", lfHost, map[string]any{}).status)
	_, err = s.CodeFor(lf, 2, 3)
	assert.ErrorIs(t, err, ErrNoCodeNow)
	_, err = s.Apply(code, game.M(mv.Seat, "code", "2", "3"))
	assert.Error(t, err)
	_, err = s.Apply("ZZZZ", mv)
	assert.ErrorIs(t, err, ErrNoRoom)
	_, err = s.CodeFor("ZZZZ", 2, 3)
	assert.ErrorIs(t, err, ErrNoRoom)
	assert.False(t, s.Playing("ZZZZ"))
}

func TestTheRefereeCannotMoveBeforeTheStart(t *testing.T) {
	s := newTestServer(t, Config{})
	code, _ := createRoom(t, s, map[string]any{"game": "woodlouse"})
	assert.False(t, s.Playing(code))
	_, err := s.CodeFor(code, 1, 1)
	assert.ErrorIs(t, err, ErrNotPlaying)
	_, err = s.Apply(code, game.M(0, "code", "1", "1"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "lobby")
}

func TestEveryAcceptedMovesEventsReachTheListenerInOrder(t *testing.T) {
	s := newTestServer(t, Config{})
	var mu sync.Mutex
	var got []int
	done := make(chan struct{}, 10)
	s.OnEvents(func(room string, evs []referee.Logged) {
		mu.Lock()
		got = append(got, evs[0].Seq)
		mu.Unlock()
		done <- struct{}{}
	})
	code, _, toks := woodlouseRoom(t, s)
	// The trainer's phone gives the right code, then a guesser passes.
	var trainer int
	for i, tok := range toks {
		st := viewOf(t, s, code, tok)
		if len(st.Legal) > 0 && st.Legal[0].Action == "code" {
			trainer = i
			r := call(t, s, "POST", "/api/rooms/"+code+"/moves", tok, map[string]any{"move": map[string]any{"action": "code", "args": st.Legal[0].Args}})
			require.Equal(t, 200, r.status, "%s", r.body)
		}
	}
	r := call(t, s, "POST", "/api/rooms/"+code+"/moves", toks[(trainer+1)%3], map[string]any{"move": "pass"})
	require.Equal(t, 200, r.status, "%s", r.body)
	for i := 0; i < 2; i++ {
		select {
		case <-done:
		case <-time.After(testWait):
			t.Fatalf("the listener was called %d times, not 2", i)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, []int{1, 2}, got)
}

func TestLiveNewsReachesEverySeatAndTheTable(t *testing.T) {
	l := startLive(t, Config{})
	code, host, toks := woodlouseRoom(t, l.Server)
	ws := l.mustDial(t, code, toks[1], -1)
	ws.readState()
	require.NoError(t, l.SetLive(code, "hearing", map[string]any{"gestures": []string{"bang", "clap"}}))
	_, frame := ws.readState() // pushed without any move
	assert.Contains(t, string(frame), `"live":{"hearing":{"gestures":["bang","clap"]}}`)
	for _, tok := range append(toks, host) {
		r := call(t, l.Server, "GET", "/api/rooms/"+code+"/view", tok, nil)
		var v struct {
			Live map[string]json.RawMessage `json:"live"`
		}
		require.NoError(t, json.Unmarshal(r.body, &v))
		assert.JSONEq(t, `{"gestures":["bang","clap"]}`, string(v.Live["hearing"]))
	}
	assert.ErrorIs(t, l.SetLive("ZZZZ", "x", 1), ErrNoRoom)
	assert.Error(t, l.SetLive(code, "x", func() {}), "what cannot be marshalled is refused")
}

func TestCreateRoomAndRoomsForTheCommandLine(t *testing.T) {
	s := newTestServer(t, Config{PublicURL: "http://10.0.0.2:8080/"})
	code, host, joinURL, err := s.CreateRoom("woodlouse", 3, "", map[string]string{"after-last-card": "stop"})
	require.NoError(t, err)
	assert.Equal(t, "http://10.0.0.2:8080/j/"+code, joinURL)
	st := viewOf(t, s, code, host)
	assert.True(t, st.Room.Host)
	assert.Equal(t, 3, st.Room.Seats)
	_, _, _, err = s.CreateRoom("chess", 2, "", nil)
	assert.ErrorContains(t, err, `no game "chess"`)
	_, _, _, err = s.CreateRoom("woodlouse", 9, "", nil)
	assert.ErrorContains(t, err, "3 to 6 players")

	code2, _, _ := woodlouseRoom(t, s)
	mv, err := s.CodeFor(code2, 1, 1)
	require.NoError(t, err)
	_, err = s.Apply(code2, mv)
	require.NoError(t, err)
	at := func(c string) (string, string) { return "http://10.0.0.2:8080/j/" + c, "http://10.0.0.2:8080/t/" + c }
	j1, t1 := at(code)
	j2, t2 := at(code2)
	want := []RoomSummary{{Code: code, Game: "woodlouse", Status: "lobby", JoinURL: j1, TableURL: t1}, {Code: code2, Game: "woodlouse", Status: "playing", Seq: 1, JoinURL: j2, TableURL: t2}}
	if code2 < code {
		want[0], want[1] = want[1], want[0]
	}
	assert.Equal(t, want, s.Rooms())
	require.Equal(t, 200, call(t, s, "POST", "/api/rooms/"+code+"/end", host, map[string]any{}).status)
	assert.Len(t, s.Rooms(), 1, "an ended room is gone")
}

func TestLiveNewsIsCoalescedToTenBroadcastsASecond(t *testing.T) {
	l := startLive(t, Config{})
	code, _, toks := woodlouseRoom(t, l.Server)
	ws := l.mustDial(t, code, toks[0], -1)
	ws.readState()
	n := 0
	// burst sets the live news count times, pausing pause after each, and
	// counts the states pushed until the last news arrives. A push is due
	// liveEvery after the first news it carries, and the next news that
	// finds none due schedules the next: so a burst that lasted d (as
	// measured, however slow the machine) is at most d/liveEvery + 1 pushes,
	// plus one for a state already on its way (the seat's own connection).
	burst := func(count int, pause time.Duration) {
		t.Helper()
		start := time.Now()
		for range count {
			n++
			require.NoError(t, l.SetLive(code, "hearing", map[string]any{"n": n}))
			if pause > 0 {
				time.Sleep(pause)
			}
		}
		lasted := time.Since(start)
		last := fmt.Sprintf(`"hearing":{"n":%d}`, n)
		states := 0
		for {
			_, frame := ws.readState()
			states++
			if strings.Contains(string(frame), last) {
				break
			}
		}
		t.Logf("%d news in %v (pausing %v after each): %d states", count, lasted, pause, states)
		assert.LessOrEqual(t, states, int(lasted/liveEvery)+2, "%d states for %d news in %v", states, count, lasted)
	}
	// Spread over a few tenths of a second (longer on a busy machine): no
	// more than ten pushes a second.
	burst(100, 3*time.Millisecond)
	// At once: a hundred changes are not a hundred pushes.
	burst(100, 0)
}
