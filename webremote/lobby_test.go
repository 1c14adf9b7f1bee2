package webremote

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// "players" is the most seats, not a number to wait for: the host may
// start once the game's minimum have joined, and the match is for them.
func TestTheHostStartsWithThoseWhoJoined(t *testing.T) {
	s := newTestServer(t, Config{})
	code, host := createRoom(t, s, map[string]any{"game": "woodlouse", "players": 5})
	var toks []string
	for _, n := range []string{"Ann", "Bob"} {
		_, tok := joinRoom(t, s, code, n)
		toks = append(toks, tok)
	}
	r := call(t, s, "POST", "/api/rooms/"+code+"/start", host, nil)
	assert.Equal(t, 409, r.status, "%s", r.body)
	assert.Contains(t, r.errorText(t), "2 joined, Woodlouse Chaos needs at least 3")
	_, tok := joinRoom(t, s, code, "Cy")
	toks = append(toks, tok)
	r = call(t, s, "POST", "/api/rooms/"+code+"/start", host, nil)
	require.Equal(t, 200, r.status, "%s", r.body)
	st := viewOf(t, s, code, host)
	assert.Equal(t, []string{"Ann", "Bob", "Cy"}, st.Names, "a game of three")
	assert.Equal(t, 3, st.Room.Seats)
}

// In the lobby the host sets the order of play by swapping seats; each
// phone learns its new seat.
func TestTheHostReordersTheSeats(t *testing.T) {
	l := startLive(t, Config{})
	s := l.Server
	code, host := createRoom(t, s, map[string]any{"game": "woodlouse", "players": 4})
	var toks []string
	for _, n := range []string{"Ann", "Bob", "Cy"} {
		_, tok := joinRoom(t, s, code, n)
		toks = append(toks, tok)
	}
	ws := l.mustDial(t, code, toks[2], -1)
	ws.readState()
	r := call(t, s, "POST", "/api/rooms/"+code+"/seat", host, map[string]int{"seat": 2, "to": 0})
	require.Equal(t, 200, r.status, "%s", r.body)
	st := ws.readUntil(func(st testState) bool { return st.Room.You == 0 })
	assert.Equal(t, "Cy", st.Room.Players[0].Name)
	assert.Equal(t, 0, viewOf(t, s, code, toks[2]).Room.You)
	assert.Equal(t, 2, viewOf(t, s, code, toks[0]).Room.You, "Ann took Cy's place")

	// To an empty seat, then refusals.
	require.Equal(t, 200, call(t, s, "POST", "/api/rooms/"+code+"/seat", host, map[string]int{"seat": 1, "to": 3}).status)
	assert.Equal(t, 3, viewOf(t, s, code, toks[1]).Room.You)
	for _, c := range []struct {
		tok    string
		body   any
		status int
	}{
		{toks[0], map[string]int{"seat": 0, "to": 1}, 403},
		{host, map[string]int{"seat": 0}, 400},
		{host, map[string]int{"seat": 0, "to": 9}, 400},
		{host, map[string]int{"seat": 1, "to": 0}, 409}, // seat 1 is empty now
	} {
		r := call(t, s, "POST", "/api/rooms/"+code+"/seat", c.tok, c.body)
		assert.Equal(t, c.status, r.status, "%v: %s", c.body, r.body)
		r.errorText(t)
	}
	require.Equal(t, 200, call(t, s, "POST", "/api/rooms/"+code+"/start", host, nil).status)
	assert.Equal(t, []string{"Cy", "Ann", "Bob"}, viewOf(t, s, code, host).Names, "the order of play")
	r = call(t, s, "POST", "/api/rooms/"+code+"/seat", host, map[string]int{"seat": 0, "to": 1})
	assert.Equal(t, 409, r.status, "not once started")
}
