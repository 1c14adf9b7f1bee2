package webremote

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A client whose queue is full is dropped rather than waited for; the
// others still get the state.
func TestBroadcastDropsAClientThatCannotKeepUp(t *testing.T) {
	s := newTestServer(t, Config{})
	code, host := createRoom(t, s, map[string]any{"game": "troll"})
	_, tok := joinRoom(t, s, code, "Ann")
	r := s.room(code)
	require.NotNil(t, r)

	slow, quick := newClient(nil, tok), newClient(nil, host)
	for range sendQueue {
		require.True(t, slow.enqueue([]byte("{}")))
	}
	r.mu.Lock()
	slow.who, quick.who = who{seat: 0}, who{seat: -1, host: true}
	r.clients[slow], r.clients[quick] = struct{}{}, struct{}{}
	r.broadcastLocked(nil)
	_, stillThere := r.clients[slow]
	r.mu.Unlock()

	assert.False(t, stillThere, "the slow client is dropped")
	assert.True(t, slow.closed())
	assert.False(t, slow.enqueue([]byte("{}")), "nothing more is queued for it")
	require.Len(t, quick.send, 1)
	var st testState
	require.NoError(t, json.Unmarshal(<-quick.send, &st))
	assert.Equal(t, "state", st.Type)
	assert.True(t, st.Room.Host)
	assert.False(t, quick.closed())
}
