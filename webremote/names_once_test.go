package webremote

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/rules/game"
)

// braceNames are names that look like the seat references of the games'
// texts ("{2}"): each is a name, shown as it is written wherever it is put.
var braceNames = []string{"{1}", "{0}", "{99}", "}{0"}

// roomOf is a started room of game for players called names: host token
// and seat tokens by seat.
func roomOf(t *testing.T, s *Server, gameID string, names []string) (code, host string, toks []string) {
	t.Helper()
	code, host, toks = lobbyOf(t, s, gameID, len(names), names)
	r := call(t, s, "POST", "/api/rooms/"+code+"/start", host, nil)
	require.Equal(t, 200, r.status, "%s", r.body)
	return code, host, toks
}

// lobbyOf is roomOf with seats seats, before the host starts it.
func lobbyOf(t *testing.T, s *Server, gameID string, seats int, names []string) (code, host string, toks []string) {
	t.Helper()
	code, host = createRoom(t, s, map[string]any{"game": gameID, "players": seats})
	for i, n := range names {
		seat, tok := joinRoom(t, s, code, n)
		require.Equal(t, i, seat)
		toks = append(toks, tok)
	}
	return code, host, toks
}

// texts are the texts of a state's events, the room's own among them.
func texts(st testState) []string {
	var out []string
	for _, e := range st.Events {
		out = append(out, e.Text)
	}
	return out
}

// A player called "{0}" is "{0}" in every event, never seat 0's name: the
// referee puts the names into a game's texts once, and a name put in is
// not read again, neither in the move's answer nor in the states of the
// table and the phones; a latecomer's seat, and the room's own news ("…
// joined the room") too.
func TestANameThatLooksLikeASeatReferenceIsShownAsItIsWritten(t *testing.T) {
	s := newTestServer(t, Config{})
	code, host, toks := lobbyOf(t, s, "deck", len(braceNames)+1, braceNames)
	lobby := texts(viewOf(t, s, code, host))
	for _, n := range braceNames {
		assert.Contains(t, lobby, n+" joined the room", "the room's own news")
	}
	require.Equal(t, 200, call(t, s, "POST", "/api/rooms/"+code+"/start", host, nil).status)

	var hand struct {
		Hand []string `json:"hand"`
	}
	require.NoError(t, json.Unmarshal(viewOf(t, s, code, toks[0]).View, &hand))
	require.NotEmpty(t, hand.Hand)
	r := call(t, s, "POST", "/api/rooms/"+code+"/moves", toks[0], map[string]any{"move": "pass " + hand.Hand[0] + " 1"})
	require.Equal(t, 200, r.status, "%s", r.body)
	var a struct {
		Events []struct {
			Text string `json:"text"`
		} `json:"events"`
	}
	require.NoError(t, json.Unmarshal(r.body, &a))
	require.NotEmpty(t, a.Events)
	assert.Equal(t, "{1} passes a card to {0}.", a.Events[0].Text, "the answer to the move")

	require.Equal(t, 200, call(t, s, "POST", "/api/rooms/"+code+"/moves", toks[2], map[string]any{"move": "roll 1d6"}).status)
	require.Equal(t, 200, call(t, s, "POST", "/api/rooms/"+code+"/moves", toks[3], map[string]any{"move": "draw"}).status)
	// A latecomer called "{0}{1}" sits down under that name.
	seat, _ := joinRoom(t, s, code, "{0}{1}")
	require.Equal(t, len(braceNames), seat, "a new seat")

	table := texts(viewOf(t, s, code, host))
	for _, want := range []string{"{1} passes a card to {0}.", "{99} rolls d6: ", "}{0 draws a card (", "{0}{1} sits down at the table."} {
		assert.True(t, containsPrefix(table, want), "%q among the table's events %q", want, table)
	}
	mine := texts(viewOf(t, s, code, toks[1]))
	assert.True(t, containsPrefix(mine, "{1} passed you the "), "the private event to {0}: %q", mine)
	for _, txt := range append(append(lobby, table...), mine...) {
		assert.NotContains(t, txt, "player ", "a name read again as a seat with no name: %q", txt)
	}
}

func containsPrefix(list []string, prefix string) bool {
	for _, s := range list {
		if strings.HasPrefix(s, prefix) {
			return true
		}
	}
	return false
}

// The result names the winner as written: a winner called "{1}" is not
// shown as seat 1's player, and the table announces the right winner.
func TestAResultNamesTheWinnerAsWritten(t *testing.T) {
	s := newTestServer(t, Config{Games: []game.Game{highCard{}}})
	code, host, toks := roomOf(t, s, "highcard", []string{"{1}", "{0}"})
	for _, tok := range toks {
		r := call(t, s, "POST", "/api/rooms/"+code+"/moves", tok, map[string]any{"move": "draw"})
		require.Equal(t, 200, r.status, "%s", r.body)
	}
	var st struct {
		Over   bool `json:"over"`
		Result struct {
			Winners []int  `json:"winners"`
			Text    string `json:"text"`
		} `json:"result"`
		Events []struct {
			Type string `json:"type"`
			Text string `json:"text"`
			Say  string `json:"say"`
		} `json:"events"`
	}
	r := call(t, s, "GET", "/api/rooms/"+code+"/view", host, nil)
	require.Equal(t, 200, r.status, "%s", r.body)
	require.NoError(t, json.Unmarshal(r.body, &st))
	require.True(t, st.Over)
	require.Len(t, st.Result.Winners, 1)
	winner := []string{"{1}", "{0}"}[st.Result.Winners[0]]
	assert.Equal(t, winner+" drew highest", st.Result.Text)
	said := false
	for _, e := range st.Events {
		if e.Type == "win" {
			assert.Regexp(t, `^`+regexp.QuoteMeta(winner)+` wins with a \d+\. Well drawn\.$`, e.Text)
			assert.Regexp(t, `^`+regexp.QuoteMeta(winner)+` wins with a \d+\.$`, e.Say, "what the referee says out loud")
			said = true
		}
	}
	assert.True(t, said, "the win is announced: %+v", st.Events)
}

// Refusals name the players as written too: the referee's own (whose turn
// it is) and a game's (who alone may give the code).
func TestARefusalNamesThePlayersAsWritten(t *testing.T) {
	s := newTestServer(t, Config{})
	code, _, toks := roomOf(t, s, "woodlouse", braceNames)
	var v struct {
		Trainer int `json:"trainer"`
	}
	require.NoError(t, json.Unmarshal(viewOf(t, s, code, toks[0]).View, &v))
	trainer := v.Trainer
	guesser := (trainer + 1) % len(toks)

	r := call(t, s, "POST", "/api/rooms/"+code+"/moves", toks[guesser], map[string]any{"move": "pass"})
	require.Equal(t, 403, r.status, "%s", r.body)
	assert.Equal(t, braceNames[guesser]+": not your turn (wait for the code: "+braceNames[trainer]+" has not given it yet)", r.errorText(t))

	st := viewOf(t, s, code, toks[trainer])
	require.NotEmpty(t, st.Legal)
	code2 := st.Legal[0]
	require.Equal(t, "code", code2.Action)
	r = call(t, s, "POST", "/api/rooms/"+code+"/moves", toks[trainer], map[string]any{"move": map[string]any{"action": "code", "args": code2.Args}})
	require.Equal(t, 200, r.status, "%s", r.body)
	r = call(t, s, "POST", "/api/rooms/"+code+"/moves", toks[guesser], map[string]any{"move": "code 1 1"})
	require.Equal(t, 403, r.status, "%s", r.body)
	assert.Contains(t, r.errorText(t), "only the trainer, "+braceNames[trainer]+", gives the code")
}
