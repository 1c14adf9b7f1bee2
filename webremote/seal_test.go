package webremote

import (
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/referee"
	"github.com/tableref/tableref/referee/journal"
)

// Provably fair draws: the table shows a seal of the game's seed from its
// start and the seed once it is over; replaying the journal from the seed
// draws every card again, so a changed move or a changed seed fails, and a
// seed that does not match the seal shown is caught.
func TestTheDrawsAreSealedAndCanBeChecked(t *testing.T) {
	dir := t.TempDir()
	s := newTestServer(t, Config{Data: dir})
	code, host := createRoom(t, s, map[string]any{"game": "deck", "players": 3})
	_, ann := joinRoom(t, s, code, "Ann")
	_, bob := joinRoom(t, s, code, "Bob")
	require.Equal(t, 200, call(t, s, "POST", "/api/rooms/"+code+"/start", host, map[string]any{}).status)

	type sealed struct {
		Room struct{ Seal, Seed string } `json:"room"`
		View struct {
			Hand []string `json:"hand"`
		} `json:"view"`
	}
	look := func(tok string) sealed {
		var st sealed
		path := "/api/rooms/" + code + "/view"
		if tok == "" {
			path = "/api/rooms/" + code + "/table"
		}
		require.NoError(t, json.Unmarshal(call(t, s, "GET", path, tok, nil).body, &st))
		return st
	}
	start := look("")
	assert.Regexp(t, `^[0-9a-f]{4}(-[0-9a-f]{4}){3}$`, start.Room.Seal, "the seal shows from the start")
	assert.Empty(t, start.Room.Seed, "the seed stays hidden while the game is played")

	annHand, bobHand := look(ann).View.Hand, look(bob).View.Hand
	require.NotEmpty(t, annHand)
	require.NotEmpty(t, bobHand)
	for _, mv := range []string{"discard " + annHand[0], "roll 2d6", "draw", "end"} {
		r := call(t, s, "POST", "/api/rooms/"+code+"/moves", ann, map[string]any{"move": mv})
		require.Equal(t, 200, r.status, "%s: %s", mv, r.body)
	}
	over := look("")
	require.NotEmpty(t, over.Room.Seed, "the seed is shown once the game is over")
	assert.Equal(t, start.Room.Seal, over.Room.Seal)
	seed, err := strconv.ParseUint(over.Room.Seed, 10, 64)
	require.NoError(t, err)
	assert.Equal(t, start.Room.Seal, referee.Seal(code, seed), "the seed shown is the one sealed")

	rep, err := journal.Read(filepath.Join(dir, code+".journal"))
	require.NoError(t, err)
	games, err := VerifyJournal(rep.Records)
	require.NoError(t, err)
	require.Len(t, games, 1)
	assert.Equal(t, start.Room.Seal, games[0].Seal)
	assert.Equal(t, seed, games[0].Seed)
	assert.Equal(t, 4, games[0].Moves)
	assert.True(t, games[0].Over)

	// A changed move: Ann discards a card Bob was dealt.
	changed := rewrite(t, rep.Records, `"discard","args":["`+annHand[0]+`"]`, `"discard","args":["`+bobHand[0]+`"]`)
	_, err = VerifyJournal(changed)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "replaying move 1")
	// A changed seed deals other hands: Ann's discard is no longer hers.
	changed = rewrite(t, rep.Records, `"seed":`+over.Room.Seed, `"seed":`+strconv.FormatUint(seed+1, 10))
	_, err = VerifyJournal(changed)
	require.Error(t, err, "another seed, other hands")

	// A new game in the room has its own seal, and both replay.
	require.Equal(t, 200, call(t, s, "POST", "/api/rooms/"+code+"/restart", host, map[string]any{}).status)
	again := look("")
	assert.NotEqual(t, start.Room.Seal, again.Room.Seal)
	assert.Empty(t, again.Room.Seed)
	rep, err = journal.Read(filepath.Join(dir, code+".journal"))
	require.NoError(t, err)
	games, err = VerifyJournal(rep.Records)
	require.NoError(t, err)
	require.Len(t, games, 2)
	assert.Equal(t, []int{1, 2}, []int{games[0].Round, games[1].Round})
	assert.Equal(t, again.Room.Seal, games[1].Seal)
	assert.Zero(t, games[1].Moves)

	_, err = VerifyJournal(rep.Records[:1])
	assert.ErrorContains(t, err, "never left the lobby")
}

// rewrite replaces old by new in every record that holds it (at least one).
func rewrite(t *testing.T, recs []json.RawMessage, old, new string) []json.RawMessage {
	t.Helper()
	out := make([]json.RawMessage, len(recs))
	n := 0
	for i, r := range recs {
		if strings.Contains(string(r), old) {
			n++
		}
		out[i] = json.RawMessage(strings.ReplaceAll(string(r), old, new))
	}
	require.NotZero(t, n, "no record holds %s", old)
	return out
}
