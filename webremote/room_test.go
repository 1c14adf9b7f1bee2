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

// marshalState splices the view in: the bytes are those encoding/json
// makes of the whole state, for a seat, the table and the lobby.
func TestMarshalStateIsEncodingJSONsOutput(t *testing.T) {
	s := newTestServer(t, Config{})
	code, host := createRoom(t, s, map[string]any{"game": "woodlouse", "players": 3})
	r := s.room(code)
	check := func(w who) {
		r.mu.Lock()
		st := r.stateLocked(w, -1, -1)
		r.mu.Unlock()
		st.Type = "state"
		want, err := json.Marshal(st)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(marshalState(st)))
	}
	check(who{seat: -1, host: true}) // the lobby: no view
	var toks []string
	for _, n := range []string{`Ann "view":null`, "Bob <b>", "Cy & co"} {
		_, tok := joinRoom(t, s, code, n)
		toks = append(toks, tok)
	}
	require.Equal(t, 200, call(t, s, "POST", "/api/rooms/"+code+"/start", host, nil).status)
	playSome(t, s, code, toks, 5)
	for _, w := range []who{{seat: -1, host: true}, {seat: 0}, {seat: 1}, watcher} {
		check(w)
	}
}
