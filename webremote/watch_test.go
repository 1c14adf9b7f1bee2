package webremote

import (
	"encoding/json"
	"testing"

	qrcode "github.com/skip2/go-qrcode"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A TV shows the public table with no token: GET …/table and a websocket
// opened with watch=1 get what the host's screen gets, less the host's
// powers; nothing it sends can change the room.
func TestATVWatchesThePublicTableWithoutPowers(t *testing.T) {
	l := startLive(t, Config{PublicURL: "http://192.168.1.20:8080"})
	s := l.Server
	code, host, toks := woodlouseRoom(t, s)
	tv, _, err := l.dial(t, code, "", -1)
	require.Error(t, err, "a websocket without a token is refused unless it asks to watch")
	tv = l.mustDialWatch(t, code)
	first, _ := tv.readState()

	r := call(t, s, "GET", "/api/rooms/"+code+"/table", "", nil)
	require.Equal(t, 200, r.status, "%s", r.body)
	var st testState
	require.NoError(t, json.Unmarshal(r.body, &st))
	hostSt := viewOf(t, s, code, host)
	assert.JSONEq(t, string(hostSt.View), string(st.View), "the table's view, as the host's screen has it")
	assert.Equal(t, hostSt.Events, st.Events)
	assert.Equal(t, hostSt.Turn, st.Turn)
	assert.Empty(t, st.Legal)
	assert.Equal(t, -1, st.Room.You)
	assert.False(t, st.Room.Host, "no host powers")
	assert.JSONEq(t, string(hostSt.View), string(first.View))
	assert.False(t, first.Room.Host)
	var urls struct {
		Room struct {
			JoinURL  string `json:"join_url"`
			TableURL string `json:"table_url"`
		} `json:"room"`
	}
	require.NoError(t, json.Unmarshal(r.body, &urls))
	assert.Equal(t, "http://192.168.1.20:8080/t/"+code, urls.Room.TableURL)
	assert.Equal(t, "http://192.168.1.20:8080/j/"+code, urls.Room.JoinURL)

	// The link's QR code, for the host to show the TV.
	q := call(t, s, "GET", "/api/rooms/"+code+"/qr.png?for=table", "", nil)
	require.Equal(t, 200, q.status)
	want, err := qrcode.Encode(urls.Room.TableURL, qrcode.Medium, 320)
	require.NoError(t, err)
	assert.Equal(t, want, q.body)

	// No host control and no move works without the host's token.
	for _, path := range []string{"start", "restart", "end", "lock", "pause", "kick", "seat", "timers"} {
		r := call(t, s, "POST", "/api/rooms/"+code+"/"+path, "", map[string]any{})
		assert.Equal(t, 401, r.status, "%s: %s", path, r.body)
	}
	assert.Equal(t, 401, call(t, s, "GET", "/api/rooms/"+code+"/view", "", nil).status, "the private views still need a token")
	tv.send(map[string]any{"type": "move", "move": "pass", "id": "tv1"})
	m, _ := tv.read()
	for m["type"] == "state" {
		m, _ = tv.read()
	}
	assert.Equal(t, "error", m["type"])
	assert.Equal(t, float64(403), m["status"])
	assert.Equal(t, hostSt.Seq, viewOf(t, s, code, host).Seq, "nothing changed")

	// It follows the game: a move reaches it, without a secret.
	mover, _, mv := onTurn(t, s, code, toks)
	trainerView := viewOf(t, s, code, toks[mover]).View
	res := call(t, s, "POST", "/api/rooms/"+code+"/moves", toks[mover], map[string]any{"move": mv})
	require.Equal(t, 200, res.status, "%s", res.body)
	got := tv.readUntil(func(st testState) bool { return st.Seq == hostSt.Seq+1 })
	assert.JSONEq(t, string(viewOf(t, s, code, host).View), string(got.View))
	var card struct {
		Card string `json:"card"`
	}
	require.NoError(t, json.Unmarshal(trainerView, &card))
	require.NotEmpty(t, card.Card)
	assert.NotContains(t, string(first.View), card.Card, "the trainer's card is not on the TV")

	// The room ends: the TV is told, as the phones are.
	require.Equal(t, 200, call(t, s, "POST", "/api/rooms/"+code+"/end", host, nil).status)
	assert.Equal(t, closeRevoke, tv.closeCode())
	assert.Equal(t, 404, call(t, s, "GET", "/api/rooms/"+code+"/table", "", nil).status)
}

// mustDialWatch opens a websocket that watches the table.
func (l *live) mustDialWatch(t *testing.T, code string) *wsClient {
	t.Helper()
	c, _, err := l.dialURL(t, "/ws/"+code+"?watch=1")
	require.NoError(t, err)
	return c
}
