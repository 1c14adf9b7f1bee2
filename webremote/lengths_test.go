package webremote

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A timer's name is 1 to 24 letters as a reader counts them, as a
// player's is, not 24 bytes: 24 hourglasses or an accented word fit, a
// 25th letter does not.
func TestATimersNameIsCountedInLetters(t *testing.T) {
	s := newTestServer(t, Config{})
	code, host := createRoom(t, s, map[string]any{"game": "deck", "players": 2})
	timers := "/api/rooms/" + code + "/timers"
	for _, name := range []string{
		strings.Repeat("⏳", 24),
		"Sanduhr für Ölwechsel",
		strings.Repeat("👨‍🍳", 3),
		"砂時計",
	} {
		r := call(t, s, "POST", timers, host, map[string]any{"name": name, "action": "create", "seconds": 60})
		assert.Equal(t, 200, r.status, "%q (%d bytes): %s", name, len(name), r.body)
		r = call(t, s, "POST", timers, host, map[string]any{"name": name, "action": "delete"})
		assert.Equal(t, 200, r.status, "%q: %s", name, r.body)
	}
	for _, name := range []string{strings.Repeat("⏳", 25), strings.Repeat("W", 25), "e" + strings.Repeat("\u0301", 300), " "} {
		r := call(t, s, "POST", timers, host, map[string]any{"name": name, "action": "create", "seconds": 60})
		if assert.Equal(t, 400, r.status, "%q: %s", name, r.body) {
			assert.Contains(t, r.errorText(t), "1 to 24 letters")
		}
	}
}

// An error quotes at most a short excerpt of what it refuses: a game, an
// option, a path, a since, a timer action or a move of kilobytes is not
// sent back whole.
func TestErrorsQuoteAShortExcerptOfTheInput(t *testing.T) {
	s := newTestServer(t, Config{})
	code, host := createRoom(t, s, map[string]any{"game": "deck", "players": 2})
	_, tok := joinRoom(t, s, code, "Ann")
	joinRoom(t, s, code, "Bo")
	require.Equal(t, 200, call(t, s, "POST", "/api/rooms/"+code+"/start", host, nil).status)
	require.Equal(t, 200, call(t, s, "POST", "/api/rooms/"+code+"/timers", host, map[string]any{"name": "sand", "action": "create", "seconds": 60}).status)
	long := strings.Repeat("x", 3000)
	wide := strings.Repeat("€", 3000) // three bytes a letter: cut between letters
	for _, c := range []struct {
		name, method, path, token string
		body                      any
	}{
		{"a game", "POST", "/api/rooms", "", map[string]any{"game": long}},
		{"a game of wide letters", "POST", "/api/rooms", "", map[string]any{"game": wide}},
		{"an option", "POST", "/api/rooms", "", map[string]any{"game": "deck", "options": map[string]any{long: []int{1}}}},
		{"a path", "GET", "/api/" + long, "", nil},
		{"a room", "GET", "/api/rooms/" + wide[:900] + "/table", "", nil},
		{"a since", "GET", "/api/rooms/" + code + "/table?since=" + long, "", nil},
		{"a timer action", "POST", "/api/rooms/" + code + "/timers", host, map[string]any{"name": "sand", "action": long}},
		{"a move", "POST", "/api/rooms/" + code + "/moves", tok, map[string]any{"move": "1" + strings.Repeat("\t", 4000)}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := call(t, s, c.method, c.path, c.token, c.body)
			require.GreaterOrEqual(t, r.status, 400, "%.200s", r.body)
			text := r.errorText(t)
			assert.LessOrEqual(t, len(text), 300, "%d bytes: %.300s", len(text), text)
			assert.NotContains(t, text, "\ufffd", "cut between letters")
			assert.NotContains(t, text, "\n")
		})
	}
}

// onEnded is a log that calls f (once) when it is told that room code has
// ended, in the goroutine that ended it.
type onEnded struct {
	code string
	f    func()
	once sync.Once
}

func (w *onEnded) Write(b []byte) (int, error) {
	if strings.Contains(string(b), "room "+w.code+": ended") {
		w.once.Do(w.f)
	}
	return len(b), nil
}

// A create that is refused ends nothing: an address at its cap whose new
// room would replace its empty lobby keeps the lobby when the server turns
// out full. The place the lobby leaves is taken by another address's room
// in the instant it is freed (here, as soon as the lobby is said to end):
// the new room must already hold it, or be refused with the lobby alive.
func TestARefusedCreateEndsNoLobby(t *testing.T) {
	log := &onEnded{}
	s := limitedServer(t, Config{RateLimit: 1000, Log: log})
	codes := roomsToTheCap(t, s, "10.0.0.9")
	fillTheServer(t, s)
	lobby := codes[0]
	log.code = lobby
	log.f = func() { // another address's room takes the freed place
		s.mu.Lock()
		defer s.mu.Unlock()
		tmpl := s.rooms[codes[1]]
		s.rooms["ZZZZ"] = &room{s: s, code: "ZZZZ", g: tmpl.g, info: tmpl.info, status: statusPlaying, active: time.Now(), clients: map[*client]struct{}{}}
	}
	code, _, r := createFrom(t, s, "10.0.0.9")
	lobbyAlive := callFrom(t, s, "10.0.0.9", "GET", "/api/rooms/"+lobby+"/table", "", nil).status == 200
	if r.status == 201 {
		assert.False(t, lobbyAlive, "the new room %s replaced the empty lobby", code)
	} else {
		assert.True(t, lobbyAlive, "refused (%d %s), yet the empty lobby was ended", r.status, r.body)
	}
	for _, c := range codes[1:] {
		assert.Equal(t, 200, callFrom(t, s, "10.0.0.9", "GET", "/api/rooms/"+c+"/table", "", nil).status, "rooms with players are kept")
	}
}
