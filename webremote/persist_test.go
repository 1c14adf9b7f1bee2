package webremote

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	qrcode "github.com/skip2/go-qrcode"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/referee/timer"
	"github.com/tableref/tableref/rules/game"
)

// playSome makes n legal moves through the API, each from a seat that may
// act (its first legal move), and returns the tokens by seat.
func playSome(t *testing.T, s *Server, code string, toks []string, n int) {
	t.Helper()
	for i := 0; i < n; i++ {
		moved := false
		for _, tok := range toks {
			st := viewOf(t, s, code, tok)
			if len(st.Legal) == 0 {
				continue
			}
			mv := st.Legal[i%len(st.Legal)]
			r := call(t, s, "POST", "/api/rooms/"+code+"/moves", tok, map[string]any{"move": map[string]any{"action": mv.Action, "args": mv.Args}, "seq": st.Seq})
			require.Equal(t, 200, r.status, "%s", r.body)
			moved = true
			break
		}
		if !moved {
			return
		}
	}
}

// views is every token's view as JSON, and the sequence number.
func views(t *testing.T, s *Server, code string, toks []string) ([]string, int) {
	t.Helper()
	var out []string
	seq := -1
	for _, tok := range toks {
		st := viewOf(t, s, code, tok)
		out = append(out, string(st.View)+"|"+st.Room.Status)
		seq = st.Seq
	}
	return out, seq
}

func savedRoom(t *testing.T, dir string) (*Server, string, []string) {
	t.Helper()
	s := newTestServer(t, Config{Data: dir})
	code, host := createRoom(t, s, map[string]any{"game": "louseflea", "players": 4})
	toks := []string{host}
	for _, n := range []string{"Ann", "Bob", "Cy", "Di"} {
		_, tok := joinRoom(t, s, code, n)
		toks = append(toks, tok)
	}
	require.Equal(t, 200, call(t, s, "POST", "/api/rooms/"+code+"/start", host, map[string]any{}).status)
	playSome(t, s, code, toks[1:], 12)
	return s, code, toks
}

func TestARestartedServerResumesEveryRoomExactly(t *testing.T) {
	dir := t.TempDir()
	s, code, toks := savedRoom(t, dir)
	before, seq := views(t, s, code, toks)
	require.Greater(t, seq, 5)

	s2 := newTestServer(t, Config{Data: dir}) // the same data: a restart
	after, seq2 := views(t, s2, code, toks)
	assert.Equal(t, seq, seq2)
	assert.Equal(t, before, after, "every seat's view and the table's are as they were")
	// The game goes on with the same tokens.
	playSome(t, s2, code, toks[1:], 3)
	_, seq3 := views(t, s2, code, toks)
	assert.Equal(t, seq+3, seq3)
}

func TestATornLastRecordResumesFromTheOneBefore(t *testing.T) {
	dir := t.TempDir()
	s, code, toks := savedRoom(t, dir)
	_, seq := views(t, s, code, toks)
	path := filepath.Join(dir, code+".journal")
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	last := bytes.LastIndexByte(b[:len(b)-1], '\n') + 1
	require.NoError(t, os.WriteFile(path, b[:last+(len(b)-last)/2], 0o600)) // half the last record

	s2 := newTestServer(t, Config{Data: dir})
	_, seq2 := views(t, s2, code, toks)
	assert.Equal(t, seq-1, seq2, "the torn move is gone, the rest is there")
	playSome(t, s2, code, toks[1:], 2)
	_, seq3 := views(t, s2, code, toks)
	assert.Equal(t, seq+1, seq3)
}

func TestAnEndedRoomIsNotResumedButKept(t *testing.T) {
	dir := t.TempDir()
	s, code, toks := savedRoom(t, dir)
	require.Equal(t, 200, call(t, s, "POST", "/api/rooms/"+code+"/end", toks[0], map[string]any{}).status)
	s2 := newTestServer(t, Config{Data: dir})
	assert.Equal(t, 404, call(t, s2, "GET", "/api/rooms/"+code+"/view", toks[0], nil).status)
	_, err := os.Stat(filepath.Join(dir, "done", code+".journal"))
	assert.NoError(t, err)
}

func TestAMoveThatCannotBeSavedIsNotAcknowledgedNorKept(t *testing.T) {
	dir := t.TempDir()
	s, code, toks := savedRoom(t, dir)
	before, seq := views(t, s, code, toks)
	r := s.room(code)
	r.mu.Lock()
	r.journal.Close() // the disk goes away
	r.mu.Unlock()
	var tok string
	var mv game.Move
	for _, t2 := range toks[1:] {
		st := viewOf(t, s, code, t2)
		if len(st.Legal) > 0 {
			tok, mv = t2, game.Move{Action: st.Legal[0].Action, Args: st.Legal[0].Args}
			break
		}
	}
	res := call(t, s, "POST", "/api/rooms/"+code+"/moves", tok, map[string]any{"move": map[string]any{"action": mv.Action, "args": mv.Args}})
	assert.Equal(t, 500, res.status, "%s", res.body)
	assert.Contains(t, res.errorText(t), "could not save")
	after, seq2 := views(t, s, code, toks)
	assert.Equal(t, seq, seq2)
	assert.Equal(t, before, after)
}

func TestADamagedJournalIsSkippedAndLeftAlone(t *testing.T) {
	dir := t.TempDir()
	_, code, toks := savedRoom(t, dir)
	path := filepath.Join(dir, code+".journal")
	b, _ := os.ReadFile(path)
	b[20] ^= 0x01 // inside the first record
	require.NoError(t, os.WriteFile(path, b, 0o600))
	var log syncBuffer
	s2 := newTestServer(t, Config{Data: dir, Log: &log})
	assert.Equal(t, 404, call(t, s2, "GET", "/api/rooms/"+code+"/view", toks[0], nil).status)
	assert.Contains(t, log.String(), "cannot resume it")
	after, _ := os.ReadFile(path)
	assert.Equal(t, b, after)
}

// journalLines is the room's journal, record by record (without the CRC).
func journalLines(t *testing.T, dir, code string) []map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, code+".journal"))
	require.NoError(t, err)
	var out []map[string]any
	for _, line := range bytes.Split(bytes.TrimSuffix(b, []byte("\n")), []byte("\n")) {
		var m map[string]any
		require.NoError(t, json.Unmarshal(line[9:], &m), "%s", line)
		out = append(out, m)
	}
	return out
}

func TestTheJournalHoldsOneSmallRecordPerChangeAndNoToken(t *testing.T) {
	dir := t.TempDir()
	s, code, toks := savedRoom(t, dir)
	_, seq := views(t, s, code, toks)
	b, err := os.ReadFile(filepath.Join(dir, code+".journal"))
	require.NoError(t, err)
	for i, tok := range toks {
		assert.NotContains(t, string(b), tok, "token %d is not on the disk", i)
		assert.Contains(t, string(b), hashToken(tok), "its hash is")
	}
	recs := journalLines(t, dir, code)
	var whys []string
	moves := 0
	for _, m := range recs {
		switch m["t"] {
		case "room":
			whys = append(whys, m["why"].(string))
		case "move":
			moves++
			assert.Equal(t, float64(moves), m["seq"])
		}
	}
	assert.Equal(t, []string{"created", "join", "join", "join", "join", "start"}, whys)
	assert.Equal(t, seq, moves, "one record per accepted move")
	for _, line := range bytes.Split(b, []byte("\n")) {
		if bytes.Contains(line, []byte(`"t":"move"`)) {
			assert.Less(t, len(line), 200, "a move's record holds the move, not the game: %s", line)
		}
	}
}

func TestAResentMoveIDIsAnsweredNotAppliedAfterARestart(t *testing.T) {
	dir := t.TempDir()
	s, code, toks := savedRoom(t, dir)
	var tok string
	var body map[string]any
	for _, t2 := range toks[1:] {
		st := viewOf(t, s, code, t2)
		if len(st.Legal) > 0 {
			tok = t2
			body = map[string]any{"move": map[string]any{"action": st.Legal[0].Action, "args": st.Legal[0].Args}, "id": "phone-77"}
			break
		}
	}
	require.NotEmpty(t, tok)
	first := call(t, s, "POST", "/api/rooms/"+code+"/moves", tok, body)
	require.Equal(t, 200, first.status, "%s", first.body)
	_, seq := views(t, s, code, toks)

	var log syncBuffer
	s2 := newTestServer(t, Config{Data: dir, Log: &log})
	assert.Contains(t, log.String(), fmt.Sprintf("resumed 1 room: %s (louseflea, playing, seq %d)", code, seq))
	again := call(t, s2, "POST", "/api/rooms/"+code+"/moves", tok, body)
	require.Equal(t, 200, again.status, "%s", again.body)
	assert.JSONEq(t, string(first.body), string(again.body), "the first answer, again")
	_, seq2 := views(t, s2, code, toks)
	assert.Equal(t, seq, seq2, "not applied twice")
}

func TestHostChangesThatCannotBeSavedAre500AndChangeNothing(t *testing.T) {
	dir := t.TempDir()
	s := newTestServer(t, Config{Data: dir, Clock: &timer.Fake{}})
	code, host := createRoom(t, s, map[string]any{"game": "louseflea", "players": 3})
	_, ann := joinRoom(t, s, code, "Ann")
	joinRoom(t, s, code, "Bob")
	r := s.room(code)
	broken := errors.New("no space left on device")
	r.mu.Lock()
	r.journal.SetSync(func() error { return broken })
	r.mu.Unlock()
	before := call(t, s, "GET", "/api/rooms/"+code+"/view", host, nil).body
	for _, c := range []struct {
		path string
		body map[string]any
	}{
		{"join", map[string]any{"name": "Cy"}},
		{"lock", map[string]any{"locked": true}},
		{"kick", map[string]any{"seat": 0}},
		{"seat", map[string]any{"seat": 0, "to": 1}},
		{"timers", map[string]any{"name": "sand", "action": "create", "seconds": 60}},
		{"end", nil},
	} {
		tok := host
		if c.path == "join" {
			tok = ""
		}
		res := call(t, s, "POST", "/api/rooms/"+code+"/"+c.path, tok, c.body)
		assert.Equal(t, 500, res.status, "%s: %s", c.path, res.body)
		assert.Contains(t, res.errorText(t), "no space left on device")
		assert.JSONEq(t, string(before), string(call(t, s, "GET", "/api/rooms/"+code+"/view", host, nil).body), "%s changed nothing", c.path)
	}
	assert.Equal(t, 200, call(t, s, "GET", "/api/rooms/"+code+"/view", ann, nil).status, "Ann's token still works")

	// The disk comes back: nothing refused was written, and all goes on.
	r.mu.Lock()
	r.journal.SetSync(nil)
	r.mu.Unlock()
	_, cy := joinRoom(t, s, code, "Cy")
	require.Equal(t, 200, call(t, s, "POST", "/api/rooms/"+code+"/start", host, map[string]any{}).status)
	s2 := newTestServer(t, Config{Data: dir, Clock: &timer.Fake{}})
	st := viewOf(t, s2, code, cy)
	assert.Equal(t, "playing", st.Room.Status)
	assert.Equal(t, []string{"Ann", "Bob", "Cy"}, st.Names)
	assert.False(t, st.Room.Locked)
}

func TestAFailedStartOfAPurseSnatcherRoomLeavesNoMeetingTimer(t *testing.T) {
	clock := &timer.Fake{}
	s := newTestServer(t, Config{Data: t.TempDir(), Clock: clock})
	code, host := createRoom(t, s, map[string]any{"game": "pursesnatcher"})
	joinRoom(t, s, code, "Ann")
	joinRoom(t, s, code, "Bob")
	r := s.room(code)
	r.mu.Lock()
	r.journal.SetSync(func() error { return errors.New("disk gone") })
	r.mu.Unlock()
	assert.Equal(t, 500, call(t, s, "POST", "/api/rooms/"+code+"/start", host, map[string]any{}).status)
	st := viewOf(t, s, code, host)
	assert.Equal(t, "lobby", st.Room.Status)
	assert.Empty(t, timersOf(t, s, code, host))
	clock.Advance(time.Hour) // nothing scheduled rings
	assert.Equal(t, "lobby", viewOf(t, s, code, host).Room.Status)
}

func TestAJournalOfTheFirstFormatIsResumed(t *testing.T) {
	dir := t.TempDir()
	// One room as the first format saved it: the whole room, raw tokens.
	body := `{"code":"QXBT","game":"woodlouse","want":3,"host":"HOST-TOKEN","join_url":"http://x/j/QXBT","status":"playing",` +
		`"seats":[{"name":"Ann","token":"ANN-TOKEN"},{"name":"Bob","token":"BOB-TOKEN"},{"name":"Cy","token":"CY-TOKEN"}],` +
		`"seed":1001,"started":true,"moves":[]}`
	line := fmt.Sprintf("%08x %s\n", crc32.ChecksumIEEE([]byte(body)), body)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "QXBT.journal"), []byte(line), 0o600))
	s := newTestServer(t, Config{Data: dir})
	st := viewOf(t, s, "QXBT", "BOB-TOKEN")
	assert.Equal(t, 1, st.Room.You)
	assert.Equal(t, "playing", st.Room.Status)
	assert.True(t, viewOf(t, s, "QXBT", "HOST-TOKEN").Room.Host)
	// The room goes on in the new format.
	var trainer string
	for _, tok := range []string{"ANN-TOKEN", "BOB-TOKEN", "CY-TOKEN"} {
		if v := viewOf(t, s, "QXBT", tok); len(v.Legal) > 0 {
			trainer = tok
			r := call(t, s, "POST", "/api/rooms/QXBT/moves", tok, map[string]any{"move": map[string]any{"action": v.Legal[0].Action, "args": v.Legal[0].Args}})
			require.Equal(t, 200, r.status, "%s", r.body)
			break
		}
	}
	require.NotEmpty(t, trainer)
	s2 := newTestServer(t, Config{Data: dir})
	assert.Equal(t, 1, viewOf(t, s2, "QXBT", trainer).Seq)
}

// A room resumed by a server on another address (another port, a new
// wifi address) gets its join address, and its QR code, from the server
// as it is now, not as it was.
func TestAResumedRoomJoinsAtTheServersAddressNow(t *testing.T) {
	dir := t.TempDir()
	s := newTestServer(t, Config{Data: dir, PublicURL: "http://192.168.1.20:8080"})
	code, host := createRoom(t, s, map[string]any{"game": "troll"})
	assert.Equal(t, "http://192.168.1.20:8080/j/"+code, roomJoinURL(t, s, code, host))

	s2 := newTestServer(t, Config{Data: dir, PublicURL: "http://10.0.0.7:8081"})
	want := "http://10.0.0.7:8081/j/" + code
	assert.Equal(t, want, roomJoinURL(t, s2, code, host))
	require.Len(t, s2.Rooms(), 1)
	assert.Equal(t, want, s2.Rooms()[0].JoinURL, "for serve to print with the resumed rooms")
	assert.Equal(t, "http://10.0.0.7:8081/t/"+code, s2.Rooms()[0].TableURL)
	r := call(t, s2, "GET", "/api/rooms/"+code+"/qr.png", "", nil)
	require.Equal(t, 200, r.status)
	png, err := qrcode.Encode(want, qrcode.Medium, 320)
	require.NoError(t, err)
	assert.Equal(t, png, r.body, "the QR code carries the new address")
}

func roomJoinURL(t *testing.T, s *Server, code, tok string) string {
	t.Helper()
	var st struct {
		Room struct {
			JoinURL string `json:"join_url"`
		} `json:"room"`
	}
	r := call(t, s, "GET", "/api/rooms/"+code+"/view", tok, nil)
	require.Equal(t, 200, r.status)
	require.NoError(t, json.Unmarshal(r.body, &st))
	return st.Room.JoinURL
}

// A new room can be found by its code a moment before its journal is
// attached. A join in that moment waits for the journal: if the room cannot
// be saved, the join is refused with it, never answered for a room that is
// then gone.
func TestAJoinWhileARoomIsBeingCreatedWaitsForItsJournal(t *testing.T) {
	for _, saved := range []bool{true, false} {
		dir := filepath.Join(t.TempDir(), "data")
		require.NoError(t, os.Mkdir(dir, 0o755))
		s := newTestServer(t, Config{Data: dir, Clock: &timer.Fake{}})
		if !saved {
			// The data directory is gone, and a file stands in its place.
			require.NoError(t, os.Remove(dir))
			require.NoError(t, os.WriteFile(dir, []byte("not a directory"), 0o644))
		}
		joined := make(chan resp, 1)
		s.published = func(code string) {
			go func() {
				joined <- call(t, s, "POST", "/api/rooms/"+code+"/join", "", map[string]string{"name": "Ann"})
			}()
			select { // long enough for a join that does not wait to be answered
			case j := <-joined:
				joined <- j
			case <-time.After(300 * time.Millisecond):
			}
		}
		res := call(t, s, "POST", "/api/rooms", "", map[string]any{"game": "louseflea", "players": 3})
		j := <-joined
		if !saved {
			assert.Equal(t, 500, res.status, "%s", res.body)
			assert.Equal(t, 404, j.status, "the join is refused with the room: %s", j.body)
			continue
		}
		require.Equal(t, 201, res.status, "%s", res.body)
		require.Equal(t, 201, j.status, "%s", j.body)
		code := res.json(t)["room"].(string)
		tok := j.json(t)["token"].(string)
		s2 := newTestServer(t, Config{Data: dir, Clock: &timer.Fake{}})
		assert.Equal(t, []string{"Ann", "", ""}, viewOf(t, s2, code, tok).Names, "the join was saved")
	}
}

// probeClock is a fake clock that calls look whenever something is
// scheduled on it.
type probeClock struct {
	timer.Fake
	look func()
}

func (c *probeClock) AfterFunc(d time.Duration, f func()) func() bool {
	if c.look != nil {
		c.look()
	}
	return c.Fake.AfterFunc(d, f)
}

// A resumed room is the server's, with its tokens, before any of its
// timers is scheduled: a timer that rings at once (it ran out while the
// server was down) runs in a goroutine of its own, which must find the
// room whole and the server's maps never written without their lock (under
// -race, a goroutine reads them as each timer is scheduled).
func TestAResumedRoomIsTheServersBeforeItsTimersAreScheduled(t *testing.T) {
	dir := t.TempDir()
	s := newTestServer(t, Config{Clock: &timer.Fake{}, Data: dir})
	code, host, toks := woodlouseRoom(t, s)
	require.Equal(t, 200, timerCall(t, s, code, host, map[string]any{"name": "sand", "action": "create", "seconds": 60}).status)
	require.Equal(t, 200, timerCall(t, s, code, host, map[string]any{"name": "sand", "action": "start"}).status)

	clock := &probeClock{}
	s2 := newTestServer(t, Config{Clock: clock}) // nothing to resume yet
	var seen []string
	var wg sync.WaitGroup
	clock.look = func() {
		s2.mu.RLock()
		_, room := s2.rooms[code]
		_, hostKnown := s2.tokens[hashToken(host)]
		_, seatKnown := s2.tokens[hashToken(toks[0])]
		s2.mu.RUnlock()
		seen = append(seen, fmt.Sprintf("room %v, host's token %v, a seat's token %v", room, hostKnown, seatKnown))
		wg.Go(func() { // as a timer that rings at once would
			s2.room(code)
			s2.knownToken(host)
		})
	}
	s2.cfg.Data = dir
	s2.resume()
	wg.Wait()
	assert.Equal(t, []string{"room true, host's token true, a seat's token true"}, seen, "what the server holds as the room's timer is scheduled")
}
