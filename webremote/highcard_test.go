package webremote

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/referee"
	"github.com/tableref/tableref/referee/timer"
	"github.com/tableref/tableref/rules/game"
)

// highCard is a tiny eighth game, written here to show that a game plugs
// into the referee and the server by declaring what it needs, with no
// change to either: each player draws a card, the highest wins; a clock
// (the "seconds" option) ends the drawing, and whoever has not drawn by
// then is out. The win is said out loud and rings the chime.
type highCard struct{}

func (highCard) Info() game.Info {
	return game.Info{
		ID: "highcard", Name: "High card", Summary: "Everyone draws a card; the highest wins.",
		MinPlayers: 2, MaxPlayers: 4,
		Options:        []game.Option{{Name: "seconds", Text: "Seconds to draw.", Default: "10", Min: 1, Max: 60}},
		RefereeActions: []string{"time"},
		Clocks:         []game.Clock{{Name: "draw", Option: "seconds", Unit: time.Second, Action: "time"}},
		Spoken:         map[string]string{"win": game.SayAll},
		Sounds:         map[string]string{"win": game.SoundChime},
		Page:           highCardPage,
	}
}

// highCardPage is High card's page module: the cards drawn, one per line.
const highCardPage = `import { h, nm } from "/static/ui.js";
export function view(v, st) {
  return h("div.panel", { id: "drawn" }, Object.entries(v.drawn || {}).map(([s, c]) => h("p", nm(st, +s), " drew ", String(c))));
}
`

func (g highCard) New(cfg game.Config) (game.State, error) {
	if _, _, err := g.Info().Resolve(cfg); err != nil {
		return nil, err
	}
	r := game.NewRand(cfg.Seed)
	deck := r.Perm(13) // ranks 0..12, shown as 1..13
	return &highState{deck: deck[:cfg.Players], drawn: make([]bool, cfg.Players)}, nil
}

type highState struct {
	deck  []int // seat i's card, face down until drawn
	drawn []bool
	over  bool
}

func (s *highState) Turn() []int {
	var t []int
	for i, d := range s.drawn {
		if !d && !s.over {
			t = append(t, i)
		}
	}
	return t
}

func (s *highState) Legal(seat int) []game.Move {
	if !slices.Contains(s.Turn(), seat) {
		return nil
	}
	return []game.Move{game.M(seat, "draw"), game.M(seat, "time")}
}

func (s *highState) Apply(m game.Move) ([]game.Event, error) {
	if !slices.Contains(s.Turn(), m.Seat) {
		return nil, game.RefuseTurn(m, "not your turn")
	}
	switch m.Action {
	case "draw":
		s.drawn[m.Seat] = true
		ev := []game.Event{{Type: "drew", Text: fmt.Sprintf("%s draws a %d.", game.Seat(m.Seat), s.deck[m.Seat]+1)}}
		if len(s.Turn()) == 0 {
			return append(ev, s.end()...), nil
		}
		return ev, nil
	case "time":
		return append([]game.Event{{Type: "time", Text: "Time is up."}}, s.end()...), nil
	}
	return nil, game.Refuse(m, "draw is the only move")
}

func (s *highState) end() []game.Event {
	s.over = true
	if w := s.Result().Winners; len(w) == 1 {
		return []game.Event{{Type: "win", Text: fmt.Sprintf("%s wins with a %d. Well drawn.", game.Seat(w[0]), s.deck[w[0]]+1)}}
	}
	return []game.Event{{Type: "win", Text: "Nobody drew: nobody wins."}}
}

func (s *highState) View(int) any {
	shown := map[int]int{}
	for i, d := range s.drawn {
		if d {
			shown[i] = s.deck[i] + 1
		}
	}
	return map[string]any{"drawn": shown}
}

func (s *highState) Over() bool { return s.over }

func (s *highState) Result() game.Result {
	best := -1
	for i, d := range s.drawn {
		if d && (best < 0 || s.deck[i] > s.deck[best]) {
			best = i
		}
	}
	if best < 0 {
		return game.Result{Text: "nobody drew"}
	}
	return game.Result{Winners: []int{best}, Text: game.Seat(best) + " drew highest"}
}

func (s *highState) Clone() game.State {
	return &highState{deck: slices.Clone(s.deck), drawn: slices.Clone(s.drawn), over: s.over}
}

func (s *highState) Audit() error {
	if len(s.deck) != len(s.drawn) {
		return errors.New("a card for every seat")
	}
	return nil
}

// TestAnEighthGamePlugsInByDeclaringWhatItNeeds plays High card through
// the JSON API: the server offers it, starts its clock with the game at
// its option's length, keeps the referee's "time" off the phones, makes it
// when the clock runs out, hands the events to the listener, which says
// the win as the game declares; and a restart resumes the room.
func TestAnEighthGamePlugsInByDeclaringWhatItNeeds(t *testing.T) {
	clock := &timer.Fake{}
	data := t.TempDir()
	cfg := Config{Data: data, Clock: clock, Games: []game.Game{highCard{}}}
	s := newTestServer(t, cfg)
	var mu sync.Mutex
	var said []string
	s.OnEvents(func(room string, evs []referee.Logged) {
		info, ok := s.InfoOf(room)
		require.True(t, ok)
		mu.Lock()
		defer mu.Unlock()
		for _, e := range evs {
			if text, ok := referee.Announcement(info, e); ok {
				said = append(said, info.Sounds[e.Type]+" "+text)
			}
		}
	})

	var games []struct {
		ID     string       `json:"id"`
		Clocks []game.Clock `json:"clocks"`
	}
	require.NoError(t, jsonUnmarshal(call(t, s, "GET", "/api/games", "", nil).body, &games))
	require.Len(t, games, 1)
	assert.Equal(t, "highcard", games[0].ID)
	assert.Equal(t, "draw", games[0].Clocks[0].Name)
	page := call(t, s, "GET", "/static/games/highcard.js", "", nil)
	assert.Equal(t, 200, page.status, "its page module, as it declares it")
	assert.Equal(t, highCardPage, string(page.body))
	for _, missing := range []string{"woodlouse.js", "highcard", "..%2Fui.js"} {
		assert.Equal(t, 404, call(t, s, "GET", "/static/games/"+missing, "", nil).status, missing)
	}
	res := call(t, s, "POST", "/api/rooms", "", map[string]any{"game": "woodlouse"})
	assert.Equal(t, 400, res.status, "only the server's games: %s", res.body)
	assert.Contains(t, res.errorText(t), "the games are highcard")

	code, host := createRoom(t, s, map[string]any{"game": "highcard", "players": 3, "options": map[string]any{"seconds": 12}})
	var toks []string
	for _, n := range []string{"Ann", "Bob", "Cy"} {
		_, tok := joinRoom(t, s, code, n)
		toks = append(toks, tok)
	}
	require.Equal(t, 200, call(t, s, "POST", "/api/rooms/"+code+"/start", host, map[string]any{}).status)
	ts := timersOf(t, s, code, host)
	require.Len(t, ts, 1, "the game's clock")
	assert.Equal(t, "draw", ts[0].Name)
	assert.Equal(t, int64(12000), ts[0].LengthMS, "of the seconds option")
	assert.True(t, ts[0].Running)

	st := viewOf(t, s, code, toks[0])
	require.Len(t, st.Legal, 1, "the phone is offered draw, never the referee's time")
	assert.Equal(t, "draw", st.Legal[0].Action)
	res = call(t, s, "POST", "/api/rooms/"+code+"/moves", toks[0], map[string]any{"move": "time"})
	assert.NotEqual(t, 200, res.status, "a phone cannot make the referee's move: %s", res.body)
	for _, tok := range toks[:2] { // Ann and Bob draw; Cy dawdles
		require.Equal(t, 200, call(t, s, "POST", "/api/rooms/"+code+"/moves", tok, map[string]any{"move": "draw"}).status)
	}
	assert.False(t, viewOf(t, s, code, host).Over)

	clock.Advance(13 * time.Second)
	st = viewOf(t, s, code, host)
	assert.True(t, st.Over, "the clock ran out and the referee ended the drawing")
	var types []string
	for _, e := range st.Events {
		types = append(types, e.Type)
	}
	assert.Subset(t, types, []string{"drew", "time", "win"})
	// The pages get what is said and how it sounds with each event: the
	// table shows the win as a headline, in the chime's colour.
	var loud struct {
		Events []struct{ Type, Say, Tone string } `json:"events"`
	}
	require.NoError(t, jsonUnmarshal(call(t, s, "GET", "/api/rooms/"+code+"/table", "", nil).body, &loud))
	for _, e := range loud.Events {
		switch e.Type {
		case "win":
			assert.Regexp(t, `^(Ann|Bob) wins with a \d+\.$`, e.Say)
			assert.Equal(t, "good", e.Tone)
		default:
			assert.Empty(t, e.Say+e.Tone, "%s is only shown", e.Type)
		}
	}
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		mu.Lock()
		n := len(said)
		mu.Unlock()
		if n > 0 {
			break
		}
	}
	mu.Lock()
	require.Len(t, said, 1, "the listener hears the win once")
	assert.Regexp(t, `^chime (Ann|Bob) wins with a \d+\.$`, said[0], "the win, said as the game declares: its first sentence")
	mu.Unlock()

	s2 := newTestServer(t, cfg)
	st2 := viewOf(t, s2, code, host)
	assert.True(t, st2.Over, "resumed from the journal through the server's games")
	assert.Equal(t, st.Seq, st2.Seq)
}

// firstGame: both seats are on turn, but the first must go first; the
// game refuses the second's move as not its turn (game.RefuseTurn).
type firstGame struct{}

func (firstGame) Info() game.Info {
	return game.Info{ID: "first", Name: "First", Summary: "Ann goes first.", MinPlayers: 2, MaxPlayers: 2}
}

func (firstGame) New(cfg game.Config) (game.State, error) { return &firstState{}, nil }

type firstState struct{ done bool }

func (s *firstState) Turn() []int {
	if s.done {
		return nil
	}
	return []int{0, 1}
}
func (s *firstState) Legal(seat int) []game.Move { return []game.Move{game.M(seat, "go")} }
func (s *firstState) Apply(m game.Move) ([]game.Event, error) {
	if m.Seat != 0 {
		return nil, game.RefuseTurn(m, "%s goes first", game.Seat(0))
	}
	s.done = true
	return []game.Event{{Type: "went", Text: game.Seat(0) + " goes."}}, nil
}
func (s *firstState) View(int) any        { return map[string]bool{"done": s.done} }
func (s *firstState) Over() bool          { return s.done }
func (s *firstState) Result() game.Result { return game.Result{Winners: []int{0}, Text: "first"} }
func (s *firstState) Clone() game.State   { c := *s; return &c }
func (s *firstState) Audit() error        { return nil }

// A move refused because its seat may not act now is answered 403, whether
// the referee refuses it (the seat is not on turn) or the game does (the
// seat is on turn, but not for this).
func TestNotYourTurnIsOneAnswerWhoeverRefuses(t *testing.T) {
	s := newTestServer(t, Config{Games: []game.Game{firstGame{}, highCard{}}})
	code, host := createRoom(t, s, map[string]any{"game": "first", "players": 2})
	_, ann := joinRoom(t, s, code, "Ann")
	_, bob := joinRoom(t, s, code, "Bob")
	require.Equal(t, 200, call(t, s, "POST", "/api/rooms/"+code+"/start", host, map[string]any{}).status)
	res := call(t, s, "POST", "/api/rooms/"+code+"/moves", bob, map[string]any{"move": "go"})
	assert.Equal(t, 403, res.status, "the game's refusal: %s", res.body)
	assert.Equal(t, "Ann goes first", res.errorText(t))
	require.Equal(t, 200, call(t, s, "POST", "/api/rooms/"+code+"/moves", ann, map[string]any{"move": "go"}).status)

	hc, hcHost := createRoom(t, s, map[string]any{"game": "highcard", "players": 2})
	_, a := joinRoom(t, s, hc, "Ann")
	joinRoom(t, s, hc, "Bob")
	require.Equal(t, 200, call(t, s, "POST", "/api/rooms/"+hc+"/start", hcHost, map[string]any{}).status)
	require.Equal(t, 200, call(t, s, "POST", "/api/rooms/"+hc+"/moves", a, map[string]any{"move": "draw"}).status)
	res = call(t, s, "POST", "/api/rooms/"+hc+"/moves", a, map[string]any{"move": "draw"})
	assert.Equal(t, 403, res.status, "the referee's refusal: %s", res.body)
}
