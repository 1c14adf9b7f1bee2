package webremote

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Purse Snatcher's "time" is the referee's clock's move: phones are never
// offered it, and one sent anyway is refused.
func TestPhonesCannotMakeTheRefereesMoves(t *testing.T) {
	s := newTestServer(t, Config{})
	code, host := createRoom(t, s, map[string]any{"game": "pursesnatcher"})
	_, tourist := joinRoom(t, s, code, "Ann")
	_, officer := joinRoom(t, s, code, "Bob")
	require.Equal(t, 200, call(t, s, "POST", "/api/rooms/"+code+"/start", host, map[string]any{}).status)
	for _, tok := range []string{tourist, officer} {
		st := viewOf(t, s, code, tok)
		for _, mv := range st.Legal {
			assert.NotEqual(t, "time", mv.Action, "the phone is offered the referee's move")
		}
		if len(st.Turn) > 0 && st.Turn[0] == st.Room.You {
			r := call(t, s, "POST", "/api/rooms/"+code+"/moves", tok, map[string]any{"move": "time"})
			assert.Equal(t, 403, r.status, "%s", r.body)
			assert.Contains(t, r.errorText(t), "the referee's move")
		}
	}
}
