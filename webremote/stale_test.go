package webremote

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/rules/woodlouse"
)

// guessRound starts a 4-player Woodlouse Chaos room, has the trainer give
// the right code, and returns the room, the seat tokens, the trainer and
// the right and a wrong guess for the card.
func guessRound(t *testing.T, s *Server) (code string, toks []string, trainer int, right, wrong string) {
	t.Helper()
	code, host := createRoom(t, s, map[string]any{"game": "woodlouse", "players": 4})
	for _, n := range []string{"Ann", "Bob", "Cy", "Di"} {
		_, tok := joinRoom(t, s, code, n)
		toks = append(toks, tok)
	}
	require.Equal(t, 200, call(t, s, "POST", "/api/rooms/"+code+"/start", host, nil).status)
	right, wrong = nextCard(t, s, code, toks)
	return code, toks, trainerNow(t, s, code, toks), right, wrong
}

// trainerNow is the seat that may not guess while guessing is open.
func trainerNow(t *testing.T, s *Server, code string, toks []string) int {
	t.Helper()
	for i, tok := range toks {
		if len(viewOf(t, s, code, tok).Legal) == 0 {
			return i
		}
	}
	t.Fatal("every seat may guess")
	return -1
}

// nextCard has the trainer give the right code for the card in play and
// returns the right guess and a wrong one.
func nextCard(t *testing.T, s *Server, code string, toks []string) (right, wrong string) {
	t.Helper()
	for _, tok := range toks {
		st := viewOf(t, s, code, tok)
		var v struct {
			Card string `json:"card"`
		}
		require.NoError(t, json.Unmarshal(st.View, &v))
		if v.Card == "" {
			continue
		}
		require.Len(t, st.Legal, 1, "the trainer's one legal move is the right code")
		r := call(t, s, "POST", "/api/rooms/"+code+"/moves", tok, map[string]any{"move": map[string]any{"action": "code", "args": st.Legal[0].Args}, "seq": st.Seq})
		require.Equal(t, 200, r.status, "%s", r.body)
		card, err := woodlouse.ParseGuess(strings.Fields(v.Card))
		require.NoError(t, err)
		other := card.Count%5 + 1
		return fmt.Sprintf("guess %s %d", card.Species, card.Count), fmt.Sprintf("guess %s %d", card.Species, other)
	}
	t.Fatal("no trainer holds a card")
	return "", ""
}

// In a phase where several seats act at once, a move made on a view that
// another seat's move has since changed still counts, in the order it
// arrives, when its seat has not moved since and the rules accept it now:
// a right Woodlouse guess is not lost to a wrong one that landed first.
func TestAGuessMadeBeforeAnotherLandedStillCounts(t *testing.T) {
	s := newTestServer(t, Config{})
	code, toks, trainer, right, wrong := guessRound(t, s)
	a, b := toks[(trainer+1)%4], toks[(trainer+2)%4]
	seq := viewOf(t, s, code, a).Seq // both phones look at the same state

	r := call(t, s, "POST", "/api/rooms/"+code+"/moves", a, map[string]any{"move": wrong, "seq": seq})
	require.Equal(t, 200, r.status, "%s", r.body)
	r = call(t, s, "POST", "/api/rooms/"+code+"/moves", b, map[string]any{"move": right, "seq": seq})
	require.Equal(t, 200, r.status, "the right guess counts although a wrong one landed first: %s", r.body)
	assert.Contains(t, string(r.body), "right!")

	// The protection stays where it matters: a seat that has moved since
	// its view may not act on that view again, and a move the game has made
	// impossible meanwhile is refused with the rule's reason.
	r = call(t, s, "POST", "/api/rooms/"+code+"/moves", a, map[string]any{"move": "pass", "seq": seq})
	assert.Equal(t, 409, r.status, "%s", r.body)
	assert.Contains(t, r.errorText(t), "stale")
	c := toks[(trainer+3)%4]
	r = call(t, s, "POST", "/api/rooms/"+code+"/moves", c, map[string]any{"move": right, "seq": seq})
	assert.Equal(t, 409, r.status, "the card was won meanwhile: %s", r.body)
	msg := r.errorText(t)
	assert.Contains(t, msg, "stale")
	assert.Contains(t, msg, "no longer stands")
	// A seq from the future (another game's) is refused as before.
	r = call(t, s, "POST", "/api/rooms/"+code+"/moves", c, map[string]any{"move": "pass", "seq": seq + 50})
	assert.Equal(t, 409, r.status, "%s", r.body)
}

// Two phones race over their websockets with guesses made on the same
// view, one wrong and one right, round after round: the right one is
// always accepted, whichever arrives first, and the game judges them in
// arrival order.
func TestTwoPhonesRacingOnTheSameView(t *testing.T) {
	l := startLive(t, Config{})
	code, toks, trainer, right, wrong := guessRound(t, l.Server)
	for round := 0; round < 6; round++ {
		if round > 0 {
			right, wrong = nextCard(t, l.Server, code, toks)
			trainer = trainerNow(t, l.Server, code, toks)
		}
		a, b := toks[(trainer+1)%4], toks[(trainer+2)%4]
		seq := viewOf(t, l.Server, code, a).Seq
		wa, wb := l.mustDial(t, code, a, seq), l.mustDial(t, code, b, seq)
		wa.readState()
		wb.readState()
		var wg sync.WaitGroup
		answers := make([]map[string]any, 2)
		for i, p := range []struct {
			ws   *wsClient
			move string
		}{{wa, wrong}, {wb, right}} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				p.ws.send(map[string]any{"type": "move", "move": p.move, "seq": seq, "id": fmt.Sprint("r", round)})
				for {
					m, _ := p.ws.read()
					if m["type"] == "ack" || m["type"] == "error" {
						answers[i] = m
						return
					}
				}
			}()
		}
		wg.Wait()
		require.Equal(t, "ack", answers[1]["type"], "round %d: the right guess is accepted: %v", round, answers[1])
		if answers[0]["type"] == "error" { // the right guess came first: the card was won
			assert.Contains(t, answers[0]["error"], "no longer stands", "round %d", round)
		} else {
			assert.Less(t, answers[0]["seq"], answers[1]["seq"], "round %d: arrival order", round)
		}
		_ = wa.conn.Close()
		_ = wb.conn.Close()
	}
}
