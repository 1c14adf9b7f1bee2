package webremote

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
