package webremote

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
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
