package webremote

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image/png"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/rules/catalog"
)

// startedRoom is a celestial room for two, started: host token and seat
// tokens by seat.
func startedRoom(t *testing.T, s *Server) (code, host string, seats []string) {
	t.Helper()
	code, host = createRoom(t, s, map[string]any{"game": "celestial", "players": 2})
	for _, name := range []string{"Ann", "Bob"} {
		seat, tok := joinRoom(t, s, code, name)
		require.Equal(t, len(seats), seat)
		seats = append(seats, tok)
	}
	r := call(t, s, "POST", "/api/rooms/"+code+"/start", host, nil)
	require.Equal(t, 200, r.status, "%s", r.body)
	return code, host, seats
}

// onTurn is a seat on turn, a seat not on turn, and a legal move of the
// first, from the seats' views.
func onTurn(t *testing.T, s *Server, code string, seats []string) (int, int, map[string]any) {
	t.Helper()
	for i, tok := range seats {
		st := viewOf(t, s, code, tok)
		if len(st.Legal) > 0 {
			other := (i + 1) % len(seats)
			l := st.Legal[0]
			return i, other, map[string]any{"action": l.Action, "args": l.Args}
		}
	}
	t.Fatal("nobody may move")
	return 0, 0, nil
}

func TestGamesListsTheCatalogue(t *testing.T) {
	s := newTestServer(t, Config{})
	r := call(t, s, "GET", "/api/games", "", nil)
	require.Equal(t, 200, r.status)
	var infos []struct {
		ID         string `json:"id"`
		Name       string `json:"name"`
		MinPlayers int    `json:"min_players"`
		MaxPlayers int    `json:"max_players"`
		Tool       bool   `json:"tool"`
	}
	require.NoError(t, json.Unmarshal(r.body, &infos))
	all := append(catalog.All(), catalog.Tools()...)
	require.Len(t, infos, len(all))
	for i, g := range all {
		assert.Equal(t, g.Info().ID, infos[i].ID)
		assert.Equal(t, g.Info().MinPlayers, infos[i].MinPlayers)
		assert.Equal(t, g.Info().MaxPlayers, infos[i].MaxPlayers)
		assert.Equal(t, i >= len(catalog.All()), infos[i].Tool, "%s", infos[i].ID)
	}
	assert.Equal(t, "deck", infos[len(infos)-1].ID, "the dealer is listed, so the start page can create it")
}

func TestCreateRoomAnswersCodeHostTokenAndJoinURL(t *testing.T) {
	var created []string
	s := newTestServer(t, Config{PublicURL: "http://192.168.1.20:8080/"})
	s.OnRoom(func(code, joinURL string) { created = append(created, code+" "+joinURL) })
	r := call(t, s, "POST", "/api/rooms", "", map[string]any{"game": "woodlouse", "players": 4, "options": map[string]string{"after-last-card": "stop"}})
	require.Equal(t, 201, r.status, "%s", r.body)
	m := r.json(t)
	code := m["room"].(string)
	assert.Regexp(t, `^[A-HJ-NP-Z]{4}$`, code)
	assert.Equal(t, "http://192.168.1.20:8080/j/"+code, m["join_url"])
	tok, err := base64.RawURLEncoding.DecodeString(m["host_token"].(string))
	require.NoError(t, err)
	assert.GreaterOrEqual(t, len(tok)*8, 128, "a token holds 128+ random bits")
	assert.Equal(t, []string{code + " http://192.168.1.20:8080/j/" + code}, created)
	assert.Equal(t, "no-store", r.header.Get("Cache-Control"))

	// Without a public URL the join URL comes from the request's host.
	s2 := newTestServer(t, Config{})
	r = call(t, s2, "POST", "/api/rooms", "", map[string]any{"game": "troll"})
	require.Equal(t, 201, r.status, "%s", r.body)
	m = r.json(t)
	assert.Equal(t, "http://tableref.test/j/"+m["room"].(string), m["join_url"])

	// Options may be numbers or booleans too.
	r = call(t, s2, "POST", "/api/rooms", "", `{"game":"woodlouse","options":{"even-easier-cards":40}}`)
	assert.Equal(t, 201, r.status, "%s", r.body)
}

func TestCreateRoomRefusesBadInputWith400(t *testing.T) {
	s := newTestServer(t, Config{})
	for _, tc := range []struct {
		body any
		want string
	}{
		{`{"game":`, "malformed JSON"},
		{`[1,2]`, "malformed JSON"},
		{`{}`, "name a game"},
		{map[string]any{"game": "chess"}, `no game "chess"`},
		{map[string]any{"game": "woodlouse", "players": 2}, "3 to 6 players, not 2"},
		{map[string]any{"game": "woodlouse", "players": 9}, "not 9"},
		{map[string]any{"game": "woodlouse", "variant": "nonsense"}, `no variant "nonsense"`},
		{map[string]any{"game": "woodlouse", "options": map[string]string{"colour": "red"}}, `no option "colour"`},
		{map[string]any{"game": "woodlouse", "options": map[string]string{"after-last-card": "explode"}}, `"explode" is not one of`},
		{map[string]any{"game": "woodlouse", "options": map[string]any{"after-last-card": []int{1}}}, "give a word or a number"},
	} {
		r := call(t, s, "POST", "/api/rooms", "", tc.body)
		assert.Equal(t, 400, r.status, "%v: %s", tc.body, r.body)
		assert.Contains(t, r.errorText(t), tc.want)
	}
}

func TestJoinGivesSeatsInOrderAndViewsShowWhoYouAre(t *testing.T) {
	s := newTestServer(t, Config{})
	code, host := createRoom(t, s, map[string]any{"game": "woodlouse", "players": 3})
	seat, ann := joinRoom(t, s, code, "  Ann  ")
	assert.Equal(t, 0, seat)
	seat, bob := joinRoom(t, s, strings.ToLower(code), "Bob") // codes are case-insensitive
	assert.Equal(t, 1, seat)
	assert.NotEqual(t, ann, bob)

	st := viewOf(t, s, code, ann)
	assert.Equal(t, code, st.Room.Code)
	assert.Equal(t, "woodlouse", st.Room.Game)
	assert.Equal(t, "lobby", st.Room.Status)
	assert.Equal(t, 0, st.Room.You)
	assert.False(t, st.Room.Host)
	assert.Equal(t, 3, st.Room.Seats)
	assert.Equal(t, 0, st.Seq)
	assert.Equal(t, "null", string(st.View), "no view before the start")
	assert.Equal(t, []string{"Ann", "Bob", ""}, st.Names)
	require.Len(t, st.Room.Players, 2)
	assert.Equal(t, "Ann", st.Room.Players[0].Name)
	assert.False(t, st.Room.Players[0].Connected)

	st = viewOf(t, s, code, host)
	assert.Equal(t, -1, st.Room.You)
	assert.True(t, st.Room.Host)

	// Names are checked.
	for _, body := range []any{`{}`, map[string]string{"name": "   "}, map[string]string{"name": strings.Repeat("x", 25)}, map[string]string{"name": "a\u0000b"}, `{"name":`} {
		r := call(t, s, "POST", "/api/rooms/"+code+"/join", "", body)
		assert.Equal(t, 400, r.status, "%v: %s", body, r.body)
		r.errorText(t)
	}
}

func TestStartDealsAndEveryTokenSeesItsOwnSide(t *testing.T) {
	s := newTestServer(t, Config{})
	code, host, seats := startedRoom(t, s)
	for i, tok := range seats {
		st := viewOf(t, s, code, tok)
		assert.Equal(t, "playing", st.Room.Status)
		assert.Equal(t, i, st.Room.You)
		assert.NotEqual(t, "null", string(st.View))
		assert.Equal(t, []string{"Ann", "Bob"}, st.Names)
		for _, l := range st.Legal {
			assert.Equal(t, i, l.Seat, "legal moves are the seat's own")
		}
	}
	st := viewOf(t, s, code, host)
	assert.Empty(t, st.Legal, "the host has no moves")
	assert.NotEqual(t, "null", string(st.View))
}

func TestMovesAreAppliedAndAnswered(t *testing.T) {
	s := newTestServer(t, Config{})
	code, _, seats := startedRoom(t, s)
	mover, _, mv := onTurn(t, s, code, seats)
	r := call(t, s, "POST", "/api/rooms/"+code+"/moves", seats[mover], map[string]any{"move": mv, "seq": 0, "id": "a1"})
	require.Equal(t, 200, r.status, "%s", r.body)
	var a struct {
		OK     bool `json:"ok"`
		Seq    int  `json:"seq"`
		Events []struct {
			Seq int `json:"seq"`
		} `json:"events"`
	}
	require.NoError(t, json.Unmarshal(r.body, &a))
	assert.True(t, a.OK)
	assert.Equal(t, 1, a.Seq)
	for _, e := range a.Events {
		assert.Equal(t, 1, e.Seq)
	}
	assert.Equal(t, 1, viewOf(t, s, code, seats[0]).Seq)

	// The same id again: the first answer, not a second move.
	r2 := call(t, s, "POST", "/api/rooms/"+code+"/moves", seats[mover], map[string]any{"move": mv, "seq": 0, "id": "a1"})
	assert.Equal(t, 200, r2.status, "%s", r2.body)
	assert.JSONEq(t, string(r.body), string(r2.body))
	assert.Equal(t, 1, viewOf(t, s, code, seats[0]).Seq, "a resent move is not applied twice")

	// Text moves work too.
	mover, _, mv = onTurn(t, s, code, seats)
	text := mv["action"].(string)
	for _, a := range mv["args"].([]string) {
		text += " " + a
	}
	r = call(t, s, "POST", "/api/rooms/"+code+"/moves", seats[mover], map[string]any{"move": text})
	require.Equal(t, 200, r.status, "%s", r.body)
	assert.Equal(t, 2, viewOf(t, s, code, seats[0]).Seq)
}

func TestUnknownRoomsAnswer404(t *testing.T) {
	s := newTestServer(t, Config{})
	_, host := createRoom(t, s, map[string]any{"game": "troll"})
	for _, c := range []struct{ method, path string }{
		{"POST", "/api/rooms/ZZZZ/join"}, {"GET", "/api/rooms/ZZZZ/view"}, {"POST", "/api/rooms/ZZZZ/moves"},
		{"GET", "/api/rooms/ZZZZ/qr.png"}, {"POST", "/api/rooms/ZZZZ/start"}, {"POST", "/api/rooms/ZZZZ/lock"},
		{"POST", "/api/rooms/ZZZZ/kick"}, {"POST", "/api/rooms/ZZZZ/pause"}, {"POST", "/api/rooms/ZZZZ/restart"},
		{"POST", "/api/rooms/ZZZZ/end"}, {"GET", "/api/nothing"},
	} {
		r := call(t, s, c.method, c.path, host, `{"name":"Ann"}`)
		assert.Equal(t, 404, r.status, "%s %s: %s", c.method, c.path, r.body)
		r.errorText(t)
	}
}

func TestMissingOrUnknownTokensAnswer401(t *testing.T) {
	s := newTestServer(t, Config{})
	code, _, seats := startedRoom(t, s)
	otherCode, otherHost := createRoom(t, s, map[string]any{"game": "troll"})
	_, otherSeat := joinRoom(t, s, otherCode, "Zed")
	random, err := newToken()
	require.NoError(t, err)
	for _, tok := range []string{"", random, "x", otherHost, otherSeat, seats[0] + "x"} {
		for _, c := range []struct{ method, path string }{
			{"GET", "/view"}, {"POST", "/moves"}, {"POST", "/start"}, {"POST", "/lock"}, {"POST", "/kick"},
			{"POST", "/pause"}, {"POST", "/restart"}, {"POST", "/end"},
		} {
			r := call(t, s, c.method, "/api/rooms/"+code+c.path, tok, `{"move":"attack 1","locked":true,"paused":true,"seat":0}`)
			assert.Equal(t, 401, r.status, "token %q %s: %s", tok, c.path, r.body)
			r.errorText(t)
		}
	}
	// Nothing changed.
	st := viewOf(t, s, code, seats[0])
	assert.Equal(t, "playing", st.Room.Status)
	assert.Equal(t, 0, st.Seq)
	assert.False(t, st.Room.Locked)
}

func TestSeatsMayNotUseHostControlsNorTheHostMove403(t *testing.T) {
	s := newTestServer(t, Config{})
	code, host, seats := startedRoom(t, s)
	for _, path := range []string{"/start", "/lock", "/kick", "/pause", "/restart", "/end"} {
		r := call(t, s, "POST", "/api/rooms/"+code+path, seats[0], `{"locked":true,"paused":true,"seat":1}`)
		assert.Equal(t, 403, r.status, "%s: %s", path, r.body)
		assert.Contains(t, r.errorText(t), "host")
	}
	mover, waiting, mv := onTurn(t, s, code, seats)
	r := call(t, s, "POST", "/api/rooms/"+code+"/moves", host, map[string]any{"move": mv})
	assert.Equal(t, 403, r.status, "%s", r.body)
	assert.Contains(t, r.errorText(t), "host cannot move")

	// A move naming another seat, as an object or as text.
	named := map[string]any{"seat": mover, "action": mv["action"], "args": mv["args"]}
	r = call(t, s, "POST", "/api/rooms/"+code+"/moves", seats[waiting], map[string]any{"move": named})
	assert.Equal(t, 403, r.status, "%s", r.body)
	assert.Contains(t, r.errorText(t), "not your seat")
	text := fmt.Sprintf("%d %s %s", mover, mv["action"], strings.Join(mv["args"].([]string), " "))
	r = call(t, s, "POST", "/api/rooms/"+code+"/moves", seats[waiting], map[string]any{"move": text})
	assert.Equal(t, 403, r.status, "%s", r.body)
	assert.Contains(t, r.errorText(t), "not your seat")
	named["seat"] = -1
	r = call(t, s, "POST", "/api/rooms/"+code+"/moves", seats[waiting], map[string]any{"move": named})
	assert.Equal(t, 403, r.status, "the table's seat is not yours either: %s", r.body)

	// The mover's own move from the waiting seat: not your turn.
	r = call(t, s, "POST", "/api/rooms/"+code+"/moves", seats[waiting], map[string]any{"move": mv})
	assert.Equal(t, 403, r.status, "%s", r.body)
	assert.Contains(t, r.errorText(t), "not your turn")

	st := viewOf(t, s, code, host)
	assert.Equal(t, 0, st.Seq, "nothing was applied")
	assert.Equal(t, "playing", st.Room.Status)
}

func TestMalformedMovesAnswer400(t *testing.T) {
	s := newTestServer(t, Config{})
	code, _, seats := startedRoom(t, s)
	for _, body := range []string{
		`{"move":`, `{"move":"   "}`, `{}`, `{"move":null}`, `{"move":42}`, `{"move":{"args":["1"]}}`,
		`{"move":{"action":"at tack"}}`, `{"move":{"action":"attack","args":["1 2"]}}`, `{"move":"2"}`,
		`{"move":"attack","id":"` + strings.Repeat("i", 65) + `"}`, `{"move":"attack","seq":"x"}`,
	} {
		r := call(t, s, "POST", "/api/rooms/"+code+"/moves", seats[0], body)
		assert.Equal(t, 400, r.status, "%s: %s", body, r.body)
		r.errorText(t)
	}
	r := call(t, s, "GET", "/api/rooms/"+code+"/view?since=abc", seats[0], nil)
	assert.Equal(t, 400, r.status, "%s", r.body)
	r.errorText(t)
	for _, body := range []string{`{"locked":"yes"}`, `{}`} {
		r = call(t, s, "POST", "/api/rooms/"+code+"/lock", "", body)
		assert.Equal(t, 401, r.status, "the token comes first: %s", r.body)
	}
}

func TestConflictsAnswer409(t *testing.T) {
	s := newTestServer(t, Config{})

	// A full room, a taken name, a start without enough players, a move
	// before the start.
	code, host := createRoom(t, s, map[string]any{"game": "celestial", "players": 2})
	_, ann := joinRoom(t, s, code, "Ann")
	r := call(t, s, "POST", "/api/rooms/"+code+"/join", "", map[string]string{"name": "ann"})
	assert.Equal(t, 409, r.status, "%s", r.body)
	assert.Contains(t, r.errorText(t), "taken")
	r = call(t, s, "POST", "/api/rooms/"+code+"/start", host, nil)
	assert.Equal(t, 409, r.status, "%s", r.body)
	assert.Contains(t, r.errorText(t), "1 joined, Warriors of the Celestial Emperor needs at least 2")
	r = call(t, s, "POST", "/api/rooms/"+code+"/moves", ann, map[string]any{"move": "attack 1"})
	assert.Equal(t, 409, r.status, "%s", r.body)
	assert.Contains(t, r.errorText(t), "not started")
	joinRoom(t, s, code, "Bob")
	r = call(t, s, "POST", "/api/rooms/"+code+"/join", "", map[string]string{"name": "Cy"})
	assert.Equal(t, 409, r.status, "%s", r.body)
	assert.Contains(t, r.errorText(t), "full")

	// A room without "players" starts at the game's minimum.
	code2, host2 := createRoom(t, s, map[string]any{"game": "woodlouse"})
	joinRoom(t, s, code2, "Ann")
	joinRoom(t, s, code2, "Bob")
	r = call(t, s, "POST", "/api/rooms/"+code2+"/start", host2, nil)
	assert.Equal(t, 409, r.status, "%s", r.body)
	assert.Contains(t, r.errorText(t), "at least 3")
	joinRoom(t, s, code2, "Cy")
	r = call(t, s, "POST", "/api/rooms/"+code2+"/start", host2, nil)
	assert.Equal(t, 200, r.status, "%s", r.body)

	// A started room: no joining, no second start.
	code, host, seats := startedRoom(t, s)
	r = call(t, s, "POST", "/api/rooms/"+code+"/join", "", map[string]string{"name": "Cy"})
	assert.Equal(t, 409, r.status, "%s", r.body)
	assert.Contains(t, r.errorText(t), "started")
	r = call(t, s, "POST", "/api/rooms/"+code+"/start", host, nil)
	assert.Equal(t, 409, r.status, "%s", r.body)
	r.errorText(t)

	// A stale seq, and an illegal move with the rule's reason.
	mover, _, mv := onTurn(t, s, code, seats)
	r = call(t, s, "POST", "/api/rooms/"+code+"/moves", seats[mover], map[string]any{"move": mv, "seq": 7})
	assert.Equal(t, 409, r.status, "%s", r.body)
	assert.Contains(t, r.errorText(t), "stale")
	r = call(t, s, "POST", "/api/rooms/"+code+"/moves", seats[mover], map[string]any{"move": "fly to-the-moon"})
	assert.Equal(t, 409, r.status, "%s", r.body)
	r.errorText(t)
	// A refused id may be used again once the move is good.
	r = call(t, s, "POST", "/api/rooms/"+code+"/moves", seats[mover], map[string]any{"move": mv, "seq": 7, "id": "z"})
	assert.Equal(t, 409, r.status, "%s", r.body)
	r = call(t, s, "POST", "/api/rooms/"+code+"/moves", seats[mover], map[string]any{"move": mv, "seq": 0, "id": "z"})
	assert.Equal(t, 200, r.status, "%s", r.body)

	// Kicking an empty seat, pausing a lobby.
	r = call(t, s, "POST", "/api/rooms/"+code2+"/kick", host2, map[string]int{"seat": 7})
	assert.Equal(t, 400, r.status, "%s", r.body)
	code3, host3 := createRoom(t, s, map[string]any{"game": "woodlouse"})
	r = call(t, s, "POST", "/api/rooms/"+code3+"/kick", host3, map[string]int{"seat": 1})
	assert.Equal(t, 409, r.status, "%s", r.body)
	assert.Contains(t, r.errorText(t), "empty")
	r = call(t, s, "POST", "/api/rooms/"+code3+"/pause", host3, map[string]bool{"paused": true})
	assert.Equal(t, 409, r.status, "%s", r.body)
	r.errorText(t)
	r = call(t, s, "POST", "/api/rooms/"+code3+"/restart", host3, nil)
	assert.Equal(t, 409, r.status, "%s", r.body)
	r.errorText(t)
}

func TestBodiesOver16KiBAnswer413AsJSON(t *testing.T) {
	// Fiber's App.Test reports the body limit as its own error, so this
	// goes over the network.
	l := startLive(t, Config{})
	code, host := createRoom(t, l.Server, map[string]any{"game": "troll"})
	big := map[string]string{"name": strings.Repeat("x", 17*1024)}
	for _, path := range []string{"/api/rooms", "/api/rooms/" + code + "/join", "/api/rooms/" + code + "/lock"} {
		r := l.httpCall(t, "POST", path, host, big)
		assert.Equal(t, 413, r.status, "%s", r.body)
		assert.Contains(t, r.errorText(t), "16 KiB")
	}
	r := l.httpCall(t, "POST", "/api/rooms/"+code+"/join", "", map[string]string{"name": strings.Repeat("x", 20)})
	assert.Equal(t, 201, r.status, "a body under the limit is fine: %s", r.body)
}

func TestMoreThanTheRateAnswers429PerAddressWhateverTheToken(t *testing.T) {
	s := New(Config{RateLimit: 5})
	freezeLimiter(t, s)
	code, host := createRoom(t, s, map[string]any{"game": "troll"}) // 1 from the address
	for range 4 {
		r := call(t, s, "GET", "/api/games", "", nil)
		require.Equal(t, 200, r.status)
	}
	r := call(t, s, "GET", "/api/games", "", nil)
	assert.Equal(t, 429, r.status, "%s", r.body)
	assert.Contains(t, r.errorText(t), "at most 5 a second")
	// Random tokens count against the address.
	r = call(t, s, "GET", "/api/rooms/"+code+"/view", "made-up-token", nil)
	assert.Equal(t, 429, r.status, "%s", r.body)
	// A live token buys nothing more: its requests take from the
	// address's bucket too (issue 14: tokens used to dodge the limit).
	r = call(t, s, "GET", "/api/rooms/"+code+"/view", host, nil)
	assert.Equal(t, 429, r.status, "%s", r.body)
	r.errorText(t)
}

func TestLimiterRefillsAtTheRate(t *testing.T) {
	now := &testClock{t: time.Unix(1e9, 0)}
	l := newLimiter(2, now.now)
	assert.True(t, l.allow("a"))
	assert.True(t, l.allow("a"))
	assert.False(t, l.allow("a"))
	assert.True(t, l.allow("b"), "buckets are per key")
	now.add(0.5)
	assert.True(t, l.allow("a"), "half a second refills one at 2 a second")
	assert.False(t, l.allow("a"))
	now.add(120)
	assert.True(t, l.allow("c"))
	assert.Len(t, l.buckets, 1, "full buckets are forgotten")
	var nilLimiter *limiter
	assert.True(t, nilLimiter.allow("x"), "no limiter, no limit")
}

func TestQRCodeIsAPNGOfTheJoinURL(t *testing.T) {
	s := newTestServer(t, Config{})
	code, _ := createRoom(t, s, map[string]any{"game": "troll"})
	r := call(t, s, "GET", "/api/rooms/"+strings.ToLower(code)+"/qr.png", "", nil)
	require.Equal(t, 200, r.status, "%s", r.body)
	assert.Equal(t, "image/png", r.header.Get("Content-Type"))
	img, err := png.Decode(bytes.NewReader(r.body))
	require.NoError(t, err)
	assert.GreaterOrEqual(t, img.Bounds().Dx(), 200)
}

func TestPagesComeFromTheEmbeddedFiles(t *testing.T) {
	s := newTestServer(t, Config{})
	for path, file := range map[string]string{"/": "index.html", "/t/QXBT": "table.html", "/j/QXBT": "phone.html", "/static/phone.html": "phone.html"} {
		r := call(t, s, "GET", path, "", nil)
		require.Equal(t, 200, r.status, "%s", path)
		assert.Contains(t, r.header.Get("Content-Type"), "text/html", path)
		want, err := staticFile(file)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(r.body), path)
	}
	for _, path := range []string{"/static/nope.js", "/static/", "/static/../embed.go", "/static/%2e%2e/embed.go"} {
		r := call(t, s, "GET", path, "", nil)
		assert.Equal(t, 404, r.status, "%s: %s", path, r.body)
		r.errorText(t)
	}
}

func TestHostControls(t *testing.T) {
	log := &syncBuffer{}
	s := newTestServer(t, Config{Log: log})
	code, host := createRoom(t, s, map[string]any{"game": "woodlouse"})
	_, ann := joinRoom(t, s, code, "Ann")
	_, bob := joinRoom(t, s, code, "Bob")

	// Lock: nobody new; unlock: again.
	r := call(t, s, "POST", "/api/rooms/"+code+"/lock", host, map[string]bool{"locked": true})
	require.Equal(t, 200, r.status, "%s", r.body)
	assert.True(t, viewOf(t, s, code, ann).Room.Locked)
	r = call(t, s, "POST", "/api/rooms/"+code+"/join", "", map[string]string{"name": "Cy"})
	assert.Equal(t, 409, r.status)
	assert.Contains(t, r.errorText(t), "locked")
	r = call(t, s, "POST", "/api/rooms/"+code+"/lock", host, map[string]bool{"locked": false})
	require.Equal(t, 200, r.status)
	r = call(t, s, "POST", "/api/rooms/"+code+"/lock", host, `{}`)
	assert.Equal(t, 400, r.status)

	// Kick in the lobby frees the seat; the token stops working.
	r = call(t, s, "POST", "/api/rooms/"+code+"/kick", host, map[string]int{"seat": 0})
	require.Equal(t, 200, r.status, "%s", r.body)
	assert.Equal(t, 401, call(t, s, "GET", "/api/rooms/"+code+"/view", ann, nil).status)
	seat, cy := joinRoom(t, s, code, "Cy")
	assert.Equal(t, 0, seat, "the freed seat is taken again")
	_, di := joinRoom(t, s, code, "Di")

	// Start with holes closed: seats 0..2.
	r = call(t, s, "POST", "/api/rooms/"+code+"/start", host, nil)
	require.Equal(t, 200, r.status, "%s", r.body)
	st := viewOf(t, s, code, di)
	assert.Equal(t, []string{"Cy", "Bob", "Di"}, st.Names)
	assert.Equal(t, 2, st.Room.You)
	assert.Equal(t, 3, st.Room.Seats)

	// Pause refuses moves; resume allows them.
	r = call(t, s, "POST", "/api/rooms/"+code+"/pause", host, map[string]bool{"paused": true})
	require.Equal(t, 200, r.status)
	toks := []string{cy, bob, di}
	st = viewOf(t, s, code, host)
	assert.Equal(t, "paused", st.Room.Status)
	for _, tok := range toks {
		assert.Empty(t, viewOf(t, s, code, tok).Legal, "no moves offered while paused")
	}
	r = call(t, s, "POST", "/api/rooms/"+code+"/moves", cy, map[string]any{"move": "code 3 1"})
	assert.Equal(t, 409, r.status)
	assert.Contains(t, r.errorText(t), "paused")
	r = call(t, s, "POST", "/api/rooms/"+code+"/pause", host, map[string]bool{"paused": false})
	require.Equal(t, 200, r.status)
	mover, _, mv := onTurn(t, s, code, toks)
	r = call(t, s, "POST", "/api/rooms/"+code+"/moves", toks[mover], map[string]any{"move": mv})
	require.Equal(t, 200, r.status, "%s", r.body)

	// Kick in play: the token stops, the seat may be joined by a new phone.
	r = call(t, s, "POST", "/api/rooms/"+code+"/kick", host, map[string]int{"seat": 1})
	require.Equal(t, 200, r.status, "%s", r.body)
	assert.Equal(t, 401, call(t, s, "GET", "/api/rooms/"+code+"/view", bob, nil).status)
	st = viewOf(t, s, code, host)
	assert.True(t, st.Room.Players[1].Vacant)
	seat, eve := joinRoom(t, s, code, "Eve")
	assert.Equal(t, 1, seat)
	st = viewOf(t, s, code, eve)
	assert.Equal(t, 1, st.Room.You)
	assert.Equal(t, []string{"Cy", "Eve", "Di"}, st.Names)
	assert.Equal(t, 1, st.Seq, "the game goes on")
	r = call(t, s, "POST", "/api/rooms/"+code+"/join", "", map[string]string{"name": "Fay"})
	assert.Equal(t, 409, r.status, "no seat is free: %s", r.body)

	// Restart: a new game, same players.
	r = call(t, s, "POST", "/api/rooms/"+code+"/restart", host, nil)
	require.Equal(t, 200, r.status, "%s", r.body)
	st = viewOf(t, s, code, eve)
	assert.Equal(t, 0, st.Seq)
	assert.Equal(t, "playing", st.Room.Status)
	assert.Equal(t, []string{"Cy", "Eve", "Di"}, st.Names)

	// End: the room is gone and every token with it.
	r = call(t, s, "POST", "/api/rooms/"+code+"/end", host, nil)
	require.Equal(t, 200, r.status, "%s", r.body)
	for _, tok := range []string{host, cy, eve, di} {
		r = call(t, s, "GET", "/api/rooms/"+code+"/view", tok, nil)
		assert.Equal(t, 404, r.status)
		r.errorText(t)
	}
	assert.Equal(t, 404, call(t, s, "POST", "/api/rooms/"+code+"/join", "", map[string]string{"name": "Gus"}).status)

	// The log has one line per room event and no token.
	out := log.String()
	for _, want := range []string{"room " + code + ": created for woodlouse", "Ann joined seat 0", "Ann removed from seat 0",
		"started woodlouse with 3 players", "Eve joined seat 1", "restarted", "room " + code + ": ended"} {
		assert.Contains(t, out, want)
	}
	for _, tok := range []string{host, ann, bob, cy, di, eve} {
		assert.NotContains(t, out, tok, "tokens are never logged")
	}
	assert.Regexp(t, regexp.MustCompile(`^(room [A-Z]{4}: [^\n]+\n)+$`), out)
}

// The keep-awake videos are served with their types and in byte ranges
// (Safari plays a video only from a server that answers ranges).
func TestStaticFilesAnswerByteRanges(t *testing.T) {
	s := newTestServer(t, Config{})
	whole, err := staticFile("awake.mp4")
	require.NoError(t, err)
	get := func(path, rng string) resp {
		req, err := http.NewRequest("GET", "http://tableref.test"+path, nil)
		require.NoError(t, err)
		if rng != "" {
			req.Header.Set("Range", rng)
		}
		res, err := s.App().Test(req, -1)
		require.NoError(t, err)
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return resp{status: res.StatusCode, body: b, header: res.Header}
	}
	r := get("/static/awake.mp4", "")
	assert.Equal(t, 200, r.status)
	assert.Equal(t, "video/mp4", r.header.Get("Content-Type"))
	assert.Equal(t, "bytes", r.header.Get("Accept-Ranges"))
	assert.Equal(t, whole, r.body)
	assert.Equal(t, "video/webm", get("/static/awake.webm", "").header.Get("Content-Type"))

	r = get("/static/awake.mp4", "bytes=0-1")
	assert.Equal(t, 206, r.status)
	assert.Equal(t, whole[:2], r.body)
	assert.Equal(t, fmt.Sprintf("bytes 0-1/%d", len(whole)), r.header.Get("Content-Range"))
	r = get("/static/awake.mp4", "bytes=100-")
	assert.Equal(t, 206, r.status)
	assert.Equal(t, whole[100:], r.body)
	r = get("/static/awake.mp4", "bytes=-10")
	assert.Equal(t, whole[len(whole)-10:], r.body)
	r = get("/static/awake.mp4", fmt.Sprintf("bytes=%d-", len(whole)))
	assert.Equal(t, 416, r.status)
	assert.Equal(t, fmt.Sprintf("bytes */%d", len(whole)), r.header.Get("Content-Range"))
}
