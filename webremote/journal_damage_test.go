package webremote

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/referee"
)

// A journal damaged in its middle resumes its room from just before the
// damage, says so on the terminal and on the table, keeps the damaged file
// whole, and goes on as a whole journal; a move resent after a restart is
// answered with its first answer, events and all, however old; a code used
// again never overwrites the journal of its old room.

// journalFile is the room's journal, line by line (each with its newline).
func journalFile(t *testing.T, dir, code string) [][]byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, code+".journal"))
	require.NoError(t, err)
	return bytes.SplitAfter(b, []byte("\n"))
}

// damagedCopies are the copies of a damaged journal kept beside it.
func damagedCopies(t *testing.T, dir, code string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, code+".journal.damaged-*"))
	require.NoError(t, err)
	return m
}

// seqAfter is the game's seq once the journal's first n lines are replayed.
func seqAfter(t *testing.T, lines [][]byte, n int) int {
	t.Helper()
	seq := 0
	for _, l := range lines[:n] {
		var m struct {
			Seq int `json:"seq"`
		}
		require.NoError(t, json.Unmarshal(l[9:], &m), "%s", l)
		seq = m.Seq
	}
	return seq
}

func noteOf(st testState, typ string) (text string, ok bool) {
	for _, e := range st.Events {
		if e.Type == typ {
			return e.Text, true
		}
	}
	return "", false
}

// A line damaged in a journal's middle (its bytes changed), or whole lines
// out of their order (one deleted, repeated, or swapped with the next),
// stop the replay where the damage is: the room resumes from the records
// before it.
func TestADamagedLineResumesTheRoomFromJustBeforeIt(t *testing.T) {
	// Each damage changes the lines around line bad (from 1), a move, and
	// says at which line the replay must stop.
	rewrite := func(f func([]byte) []byte) func([][]byte, int) ([][]byte, int) {
		return func(l [][]byte, bad int) ([][]byte, int) {
			l = slices.Clone(l)
			l[bad-1] = f(bytes.Clone(l[bad-1]))
			return l, bad
		}
	}
	cases := []struct {
		name, why string // why: a regexp
		damage    func(lines [][]byte, bad int) ([][]byte, int)
	}{
		{"a bad checksum", `bad checksum`, rewrite(func(l []byte) []byte { l[20] ^= 0x01; return l })},
		{"bad JSON", `bad JSON`, rewrite(func([]byte) []byte {
			body := []byte(`{"t":"move","seq":`)
			return fmt.Appendf(nil, "%08x %s\n", crc32.ChecksumIEEE(body), body)
		})},
		{"a deleted line", `move \d+ follows move \d+`, func(l [][]byte, bad int) ([][]byte, int) {
			return slices.Concat(l[:bad-1], l[bad:]), bad
		}},
		{"a repeated line", `move \d+ follows move \d+`, func(l [][]byte, bad int) ([][]byte, int) {
			return slices.Concat(l[:bad], [][]byte{l[bad-1]}, l[bad:]), bad + 1
		}},
		{"two swapped lines", `move \d+ follows move \d+`, func(l [][]byte, bad int) ([][]byte, int) {
			l = slices.Clone(l)
			l[bad-1], l[bad] = l[bad], l[bad-1]
			return l, bad
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			s, code, toks := savedRoom(t, dir)
			lines := journalFile(t, dir, code)
			n := len(lines) - 1 // the last element is "" after the final newline
			require.Greater(t, n, 12)
			bad := n - 4 // a move in the middle: four lines after it
			for _, l := range lines[bad-2 : bad+1] {
				require.Contains(t, string(l), `"t":"move"`, "moves around the damage")
			}
			views(t, s, code, toks)
			changed, at := c.damage(lines, bad)
			damaged := bytes.Join(changed, nil)
			path := filepath.Join(dir, code+".journal")
			require.NoError(t, os.WriteFile(path, damaged, 0o600))
			want := seqAfter(t, changed, at-1)

			var log syncBuffer
			s2 := newTestServer(t, Config{Data: dir, Log: &log})
			require.Equal(t, 200, call(t, s2, "GET", "/api/rooms/"+code+"/view", toks[0], nil).status, "the room is resumed: %s", log.String())
			st := viewOf(t, s2, code, toks[0])
			assert.Equal(t, "playing", st.Room.Status)
			assert.Equal(t, want, st.Seq, "the room is as the records before the damaged line left it")
			text, ok := noteOf(st, "damaged")
			require.True(t, ok, "the table says so: %+v", st.Events)
			assert.Equal(t, fmt.Sprintf("The saved game was damaged at line %d: it resumes from just before that line.", at), text)
			for _, tok := range toks[1:] {
				_, ok := noteOf(viewOf(t, s2, code, tok), "damaged")
				assert.True(t, ok, "every phone sees the note too")
			}
			assert.Regexp(t, fmt.Sprintf(`room %s: its journal was damaged at line %d \(%s\): it resumes from the %d records before that line`, code, at, c.why, at-1), log.String())
			assert.Contains(t, log.String(), fmt.Sprintf("resumed 1 room: %s (louseflea, playing, seq %d)", code, want))

			copies := damagedCopies(t, dir, code)
			require.Len(t, copies, 1, "the damaged journal is kept")
			kept, err := os.ReadFile(copies[0])
			require.NoError(t, err)
			assert.Equal(t, damaged, kept, "whole, as it was")
			assert.Contains(t, log.String(), "the whole journal is kept as "+copies[0])

			// The repaired journal is whole: the kept records, the note's
			// room record, then what comes next.
			now := journalFile(t, dir, code)
			assert.Equal(t, changed[:at-1], now[:at-1])
			assert.Contains(t, string(now[at-1]), `"why":"repaired"`)
			playSome(t, s2, code, toks[1:], 3)
			after, seq2 := views(t, s2, code, toks)
			assert.Equal(t, want+3, seq2)

			// A second restart resumes the same room, note and all, with
			// nothing more to repair.
			var log3 syncBuffer
			s3 := newTestServer(t, Config{Data: dir, Log: &log3})
			again, seq3 := views(t, s3, code, toks)
			assert.Equal(t, seq2, seq3)
			assert.Equal(t, after, again)
			_, ok = noteOf(viewOf(t, s3, code, toks[0]), "damaged")
			assert.True(t, ok, "the note is saved with the room")
			assert.NotContains(t, log3.String(), "damaged")
			assert.NotContains(t, log3.String(), "cannot resume")
			assert.Len(t, damagedCopies(t, dir, code), 1)
		})
	}
}

func TestADamagedLineWhoseRecordsBeforeMakeNoRoomIsLeftAlone(t *testing.T) {
	dir := t.TempDir()
	_, code, toks := savedRoom(t, dir)
	lines := journalFile(t, dir, code)
	lines[0] = append([]byte("00000000"), lines[0][8:]...) // the room's first record
	damaged := bytes.Join(lines, nil)
	path := filepath.Join(dir, code+".journal")
	require.NoError(t, os.WriteFile(path, damaged, 0o600))
	var log syncBuffer
	s2 := newTestServer(t, Config{Data: dir, Log: &log})
	assert.Equal(t, 404, call(t, s2, "GET", "/api/rooms/"+code+"/view", toks[0], nil).status)
	assert.Contains(t, log.String(), "damaged at line 1 (bad checksum")
	assert.Contains(t, log.String(), "the records before the damage make no room; its journal is left as it is")
	after, _ := os.ReadFile(path)
	assert.Equal(t, damaged, after)
	assert.Empty(t, damagedCopies(t, dir, code), "nothing repaired, nothing to keep")
}

// rollRoom is a started dealer room with Ann and Bob.
func rollRoom(t *testing.T, s *Server) (code string, toks []string) {
	t.Helper()
	code, host := createRoom(t, s, map[string]any{"game": "deck", "players": 2, "options": map[string]any{"cards": 5}})
	for _, n := range []string{"Ann", "Bob"} {
		_, tok := joinRoom(t, s, code, n)
		toks = append(toks, tok)
	}
	require.Equal(t, 200, call(t, s, "POST", "/api/rooms/"+code+"/start", host, nil).status)
	return code, toks
}

func TestAResentMoveOlderThanTheEventLogGetsItsFirstAnswerAfterARestart(t *testing.T) {
	dir := t.TempDir()
	s := newTestServer(t, Config{Data: dir})
	code, toks := rollRoom(t, s)
	roll := map[string]any{"move": "roll 2d6"}
	require.Equal(t, 200, call(t, s, "POST", "/api/rooms/"+code+"/moves", toks[1], roll).status)
	// Ann's draw, sent with an id: a public event and her own card.
	draw := map[string]any{"move": "draw", "id": "ann-draw-1"}
	first := call(t, s, "POST", "/api/rooms/"+code+"/moves", toks[0], draw)
	require.Equal(t, 200, first.status, "%s", first.body)
	var a struct {
		Seq    int              `json:"seq"`
		Events []referee.Logged `json:"events"`
	}
	require.NoError(t, json.Unmarshal(first.body, &a))
	require.Len(t, a.Events, 2, "%s", first.body)
	assert.Contains(t, a.Events[1].Text, "You drew the", "her card is in her answer")
	// Bob's, too, with his own card.
	bobDraw := map[string]any{"move": "draw", "id": "bob-draw-1"}
	bobFirst := call(t, s, "POST", "/api/rooms/"+code+"/moves", toks[1], bobDraw)
	require.Equal(t, 200, bobFirst.status, "%s", bobFirst.body)
	for i := 0; i < referee.EventLog+20; i++ {
		r := call(t, s, "POST", "/api/rooms/"+code+"/moves", toks[i%2], roll)
		require.Equal(t, 200, r.status, "%s", r.body)
	}
	_, seq := views(t, s, code, toks)
	st := viewOf(t, s, code, toks[0])
	require.NotEmpty(t, st.Events)
	require.Greater(t, st.Events[0].Seq, a.Seq, "the draw is older than the events the match keeps")

	s2 := newTestServer(t, Config{Data: dir})
	again := call(t, s2, "POST", "/api/rooms/"+code+"/moves", toks[0], draw)
	require.Equal(t, 200, again.status, "%s", again.body)
	assert.JSONEq(t, string(first.body), string(again.body), "the first answer, events and all")
	bobAgain := call(t, s2, "POST", "/api/rooms/"+code+"/moves", toks[1], bobDraw)
	require.Equal(t, 200, bobAgain.status, "%s", bobAgain.body)
	assert.JSONEq(t, string(bobFirst.body), string(bobAgain.body))
	_, seq2 := views(t, s2, code, toks)
	assert.Equal(t, seq, seq2, "not applied again")
}

func TestACodeUsedAgainKeepsTheOldRoomsJournals(t *testing.T) {
	dir := t.TempDir()
	s := newTestServer(t, Config{Data: dir})
	code, host := createRoom(t, s, map[string]any{"game": "louseflea", "players": 4})
	require.Equal(t, 200, call(t, s, "POST", "/api/rooms/"+code+"/end", host, map[string]any{}).status)
	done := filepath.Join(dir, "done")
	first, err := os.ReadFile(filepath.Join(done, code+".journal"))
	require.NoError(t, err)

	// The code comes round again while an older room's journal is still
	// there: a whole one, then one damaged in its middle that could not be
	// resumed.
	other, host2 := createRoom(t, s, map[string]any{"game": "louseflea", "players": 4})
	joinRoom(t, s, other, "Ann")
	joinRoom(t, s, other, "Bob")
	require.Equal(t, 200, call(t, s, "POST", "/api/rooms/"+other+"/end", host2, map[string]any{}).status)
	old, err := os.ReadFile(filepath.Join(done, other+".journal"))
	require.NoError(t, err)
	lines := bytes.SplitAfter(old, []byte("\n"))
	lines[1] = []byte("not a record\n")
	damaged := bytes.Join(lines, nil)
	for _, b := range [][]byte{old, damaged} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, code+".journal"), b, 0o600))
		j, err := s.openJournal(code)
		require.NoError(t, err)
		assert.Zero(t, j.Len(), "a new room starts afresh")
		require.NoError(t, j.Close())
	}
	for name, want := range map[string][]byte{code + ".journal": first, code + "-2.journal": old, code + "-3.journal": damaged} {
		b, err := os.ReadFile(filepath.Join(done, name))
		require.NoError(t, err, name)
		assert.Equal(t, want, b, "done/%s is kept as it was", name)
	}
}

func TestAResentMoveKeepsTheNamesOfItsTimeAfterARestart(t *testing.T) {
	dir := t.TempDir()
	s := newTestServer(t, Config{Data: dir})
	code, host, toks := dealerRoom(t, s, 4)
	hand := handOf(t, s, code, toks[0]).Hand
	require.NotEmpty(t, hand)
	pass := map[string]any{"move": "pass " + hand[0] + " 1", "id": "ann-pass"}
	first := call(t, s, "POST", "/api/rooms/"+code+"/moves", toks[0], pass)
	require.Equal(t, 200, first.status, "%s", first.body)
	require.Contains(t, string(first.body), "Ann passes a card to Bob.")
	// Bob leaves; Dan takes his seat, under his own name.
	require.Equal(t, 200, call(t, s, "POST", "/api/rooms/"+code+"/kick", host, map[string]any{"seat": 1}).status)
	seat, _ := joinRoom(t, s, code, "Dan")
	require.Equal(t, 1, seat)
	before := viewOf(t, s, code, toks[0])

	s2 := newTestServer(t, Config{Data: dir})
	again := call(t, s2, "POST", "/api/rooms/"+code+"/moves", toks[0], pass)
	require.Equal(t, 200, again.status, "%s", again.body)
	assert.JSONEq(t, string(first.body), string(again.body), "the first answer, with Bob's name as it was")
	after := viewOf(t, s2, code, toks[0])
	assert.Equal(t, before.Names, after.Names, "the seats have today's names")
	assert.Equal(t, before.Events, after.Events, "the events the names they were told with")
}
