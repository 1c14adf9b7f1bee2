package webremote

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/referee/timer"
)

// soloRoom is a started one-player dealer room and its seat's token.
func soloRoom(t *testing.T, s *Server) (code, host, tok string) {
	t.Helper()
	code, host = createRoom(t, s, map[string]any{"game": "deck", "players": 1})
	_, tok = joinRoom(t, s, code, "Ann")
	require.Equal(t, 200, call(t, s, "POST", "/api/rooms/"+code+"/start", host, nil).status)
	return code, host, tok
}

func alive(t *testing.T, s *Server, code, tok string) bool {
	t.Helper()
	r := call(t, s, "GET", "/api/rooms/"+code+"/view", tok, nil)
	require.Contains(t, []int{200, 404}, r.status, "%s", r.body)
	return r.status == 200
}

// Rooms nobody changes are retired: a lobby and a finished game after 6
// hours, any room after 3 days; a change starts the count again.
func TestIdleRoomsAreRetired(t *testing.T) {
	clock := &timer.Fake{}
	dir := t.TempDir()
	l := startLive(t, Config{Clock: clock, Data: dir})
	s := l.Server
	lobby, lobbyHost := createRoom(t, s, map[string]any{"game": "troll"})
	over, overHost, overTok := soloRoom(t, s)
	require.Equal(t, 200, call(t, s, "POST", "/api/rooms/"+over+"/moves", overTok, map[string]any{"move": "end"}).status)
	require.Equal(t, "over", viewOf(t, s, over, overHost).Room.Status)
	playing, playingHost, _ := soloRoom(t, s)
	busy, busyHost, busyTok := soloRoom(t, s)
	ws := l.mustDial(t, over, overTok, -1)
	ws.readState()

	clock.Advance(5*time.Hour + 50*time.Minute)
	for _, c := range [][2]string{{lobby, lobbyHost}, {over, overHost}, {playing, playingHost}, {busy, busyHost}} {
		assert.True(t, alive(t, s, c[0], c[1]), "%s is not idle long enough", c[0])
	}
	clock.Advance(20 * time.Minute)
	assert.False(t, alive(t, s, lobby, lobbyHost), "a lobby idle for 6 hours is retired")
	assert.False(t, alive(t, s, over, overHost), "a finished game idle for 6 hours is retired")
	assert.Equal(t, closeRevoke, ws.closeCode(), "its phones are told")
	assert.True(t, alive(t, s, playing, playingHost), "a game in play is given longer")
	for _, code := range []string{lobby, over} {
		_, err := os.Stat(filepath.Join(dir, "done", code+".journal"))
		assert.NoError(t, err, "%s's journal is kept with the ended rooms", code)
	}

	clock.Advance(42 * time.Hour) // 2 days in: the busy room moves
	require.Equal(t, 200, call(t, s, "POST", "/api/rooms/"+busy+"/moves", busyTok, map[string]any{"move": "roll 1d6"}).status)
	clock.Advance(24*time.Hour + 20*time.Minute) // 3 days and a little
	assert.False(t, alive(t, s, playing, playingHost), "any room idle for 3 days is retired")
	assert.True(t, alive(t, s, busy, busyHost), "a change a day ago keeps a room")
	clock.Advance(2 * 24 * time.Hour)
	assert.False(t, alive(t, s, busy, busyHost))
}

// A server that starts long after its rooms last changed retires them
// rather than resuming them.
func TestRoomsTooIdleAreNotResumed(t *testing.T) {
	dir := t.TempDir()
	s := newTestServer(t, Config{Clock: &timer.Fake{}, Data: dir})
	code, host, _ := soloRoom(t, s)

	soon := &timer.Fake{}
	soon.Advance(24 * time.Hour)
	assert.True(t, alive(t, newTestServer(t, Config{Clock: soon, Data: dir}), code, host), "a day later it is resumed")

	later := &timer.Fake{}
	later.Advance(4 * 24 * time.Hour)
	var log syncBuffer
	s3 := newTestServer(t, Config{Clock: later, Data: dir, Log: &log})
	assert.False(t, alive(t, s3, code, host), "four days later it is not")
	assert.Contains(t, log.String(), "not resumed: closed after 4 days without a change")
	_, err := os.Stat(filepath.Join(dir, "done", code+".journal"))
	assert.NoError(t, err)
}

// Negative limits keep every room.
func TestIdleLimitsMayBeTurnedOff(t *testing.T) {
	clock := &timer.Fake{}
	s := newTestServer(t, Config{Clock: clock, IdleDone: -1, IdleAny: -1})
	code, host := createRoom(t, s, map[string]any{"game": "troll"})
	clock.Advance(30 * 24 * time.Hour)
	assert.True(t, alive(t, s, code, host))
}

func TestAnIdleTimeIsSaidInItsUnit(t *testing.T) {
	for d, want := range map[time.Duration]string{
		1500 * time.Millisecond: "1 second", 90 * time.Second: "1 minute", 59 * time.Minute: "59 minutes",
		time.Hour: "1 hour", 6*time.Hour + 10*time.Minute: "6 hours", 47 * time.Hour: "47 hours", 96 * time.Hour: "4 days",
	} {
		assert.Equal(t, want, roundHours(d), "%s", d)
	}
}
