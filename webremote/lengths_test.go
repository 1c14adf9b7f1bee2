package webremote

import (
	"strings"
	"testing"

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
