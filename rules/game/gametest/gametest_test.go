package gametest

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tableref/tableref/rules/game"
)

// reveal is a toy game: each seat is dealt a secret number; in turn each
// reveals it or raises it by one (once); highest revealed number wins.
// Its flaws are switchable so the tests can check that Err notices them.
type reveal struct {
	leak     bool // views show every hand
	sloppy   bool // a refused raise still marks the seat as raised
	endless  bool // never over
	unseeded bool // deals ignore the seed
	loud     bool // a raise announces the new number to everyone
	vague    bool // a move out of turn is refused, but not as out of turn
	lenient  bool // a second raise is accepted though Legal no longer lists it
}

type revealState struct {
	g        reveal
	rng      game.Rand
	hands    []int
	shown    []bool
	raised   []bool
	turn     int
	finished bool
}

func (g reveal) Info() game.Info {
	return game.Info{ID: "reveal", Name: "Reveal", MinPlayers: 2, MaxPlayers: 4}
}

func (g reveal) New(cfg game.Config) (game.State, error) {
	if _, _, err := g.Info().Resolve(cfg); err != nil {
		return nil, err
	}
	s := &revealState{g: g, rng: game.NewRand(cfg.Seed), hands: make([]int, cfg.Players), shown: make([]bool, cfg.Players), raised: make([]bool, cfg.Players)}
	for i := range s.hands {
		s.hands[i] = 1000 + s.rng.IntN(9000)
	}
	return s, nil
}

func (s *revealState) Turn() []int {
	if s.finished {
		return nil
	}
	return []int{s.turn}
}

func (s *revealState) Legal(seat int) []game.Move {
	if s.finished || seat != s.turn {
		return nil
	}
	moves := []game.Move{game.M(seat, "show")}
	if !s.raised[seat] {
		moves = append(moves, game.M(seat, "raise", "1"))
	}
	return moves
}

func (s *revealState) Apply(m game.Move) ([]game.Event, error) {
	if s.finished {
		return nil, game.ErrOver
	}
	if m.Seat != s.turn {
		if s.g.vague {
			return nil, game.Refuse(m, "not your turn")
		}
		return nil, game.RefuseTurn(m, "not your turn")
	}
	switch m.Action {
	case "show":
		if len(m.Args) != 0 {
			return nil, game.Refuse(m, "show takes nothing")
		}
		s.shown[m.Seat] = true
		s.turn = (s.turn + 1) % len(s.hands)
		if s.shown[s.turn] && !s.g.endless {
			s.finished = true
		}
		return []game.Event{{Type: "shown", Text: fmt.Sprintf("seat %d shows %d", m.Seat, s.hands[m.Seat])}}, nil
	case "raise":
		if s.g.sloppy {
			s.raised[m.Seat] = true
		}
		if len(m.Args) != 1 || m.Args[0] != "1" {
			return nil, game.Refuse(m, "raise by 1")
		}
		if s.raised[m.Seat] && !s.g.sloppy && !s.g.lenient {
			return nil, game.Refuse(m, "you raised already")
		}
		s.raised[m.Seat] = true
		s.hands[m.Seat]++
		if s.g.loud {
			return []game.Event{{Type: "raised", Text: fmt.Sprintf("seat %d raises to %d", m.Seat, s.hands[m.Seat])}}, nil
		}
		return []game.Event{
			{Type: "raised", Text: fmt.Sprintf("seat %d raises", m.Seat)},
			{Type: "raised-to", Text: fmt.Sprintf("you now hold %d", s.hands[m.Seat]), To: []int{m.Seat}},
		}, nil
	}
	return nil, game.Refuse(m, "no such action %q", m.Action)
}

type revealView struct {
	Mine   int   `json:"mine,omitempty"`
	Shown  []int `json:"shown"`
	Hidden []int `json:"hidden,omitempty"`
}

func (s *revealState) View(seat int) any {
	v := revealView{}
	for i, h := range s.hands {
		if s.shown[i] {
			v.Shown = append(v.Shown, h)
		} else if s.g.leak {
			v.Hidden = append(v.Hidden, h)
		}
	}
	if seat >= 0 {
		v.Mine = s.hands[seat]
	}
	return v
}

func (s *revealState) Over() bool { return s.finished }

func (s *revealState) Result() game.Result {
	best := 0
	for i, h := range s.hands {
		if h > s.hands[best] {
			best = i
		}
	}
	return game.Result{Winners: []int{best}, Text: "highest wins"}
}

func (s *revealState) Clone() game.State {
	c := *s
	c.hands = append([]int(nil), s.hands...)
	c.shown = append([]bool(nil), s.shown...)
	c.raised = append([]bool(nil), s.raised...)
	return &c
}

func (s *revealState) Audit() error {
	if len(s.hands) != len(s.shown) {
		return fmt.Errorf("lengths differ")
	}
	return nil
}

func revealSecrets(s game.State, owner int) []string {
	rs := s.(*revealState)
	if owner < 0 || rs.shown[owner] {
		return nil
	}
	return []string{strconv.Itoa(rs.hands[owner])}
}

func check(g reveal) Check {
	return Check{Game: g, Games: 50, Secrets: revealSecrets, Configs: []game.Config{{Players: 2}, {Players: 3}, {Players: 4}}}
}

func TestASoundGamePasses(t *testing.T) {
	Run(t, check(reveal{}))
}

func TestALeakIsCaught(t *testing.T) {
	err := Err(check(reveal{leak: true}))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "secret")
}

func TestARefusalThatChangesTheStateIsCaught(t *testing.T) {
	err := Err(check(reveal{sloppy: true}))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "changed the state")
}

func TestAGameThatNeverEndsIsCaught(t *testing.T) {
	c := check(reveal{endless: true})
	c.MaxMoves = 100
	err := Err(c)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "not over after 100 moves")
}

func TestASecretToldInAnEventIsCaught(t *testing.T) {
	err := Err(check(reveal{loud: true}))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "told the table the secret")
}

func TestAnOutOfTurnMoveRefusedForAnotherReasonIsCaught(t *testing.T) {
	err := Err(check(reveal{vague: true}))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "refused for another reason")
}

func TestAMoveLegalEarlierAndAcceptedThoughNotListedIsCaughtWhenLegalIsExhaustive(t *testing.T) {
	c := check(reveal{lenient: true})
	require.NoError(t, Err(c), "Legal need not list every move")
	c.Exhaustive = true
	err := Err(c)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "not in Legal")
}

func TestTheGamesIllegalMovesMustBeRefused(t *testing.T) {
	c := check(reveal{lenient: true})
	c.Illegal = func(gs game.State, seat int) []game.Move {
		if gs.(*revealState).raised[seat] {
			return []game.Move{game.M(seat, "raise", "1")}
		}
		return nil
	}
	err := Err(c)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "was accepted")
}

func TestASharedSecretShownToAThirdSeatIsCaught(t *testing.T) {
	// Seats 0 and 1 share seat 0's number: a view of seat 2 or the table
	// that shows it must fail; seat 1's may show it.
	c := check(reveal{leak: true})
	c.Secrets = nil
	c.Configs = []game.Config{{Players: 2}}
	c.Shared = func(gs game.State) []Shared {
		rs := gs.(*revealState)
		if rs.shown[0] {
			return nil
		}
		return []Shared{{Text: strconv.Itoa(rs.hands[0]), Seats: []int{0, 1}}}
	}
	err := Err(c)
	require.Error(t, err, "the table sees it")
	assert.Contains(t, err.Error(), "the table shows the secret of seats [0 1]")
}

func TestPlayAndReplayAgree(t *testing.T) {
	cfg := game.Config{Players: 3, Seed: 42}
	r := game.NewRand(7)
	p, err := game.Play(reveal{}, cfg, game.Random, &r, 100)
	require.NoError(t, err)
	s, err := game.Replay(reveal{}, cfg, p.Moves)
	require.NoError(t, err)
	assert.True(t, s.Over())
	assert.Equal(t, p.Result, s.Result())
	var text []string
	for _, m := range p.Moves {
		text = append(text, m.String())
	}
	for i, line := range text {
		m, err := game.ParseMove(line)
		require.NoError(t, err)
		assert.True(t, m.Equal(p.Moves[i]), "%q reads back", line)
	}
	assert.NotEmpty(t, strings.Join(text, ";"))
}

func TestRiggedRandRollsWhatWasAsked(t *testing.T) {
	r := RiggedRand(t, 6, 1, 6, 3)
	var got []int
	for range 4 {
		got = append(got, r.Die(6))
	}
	if fmt.Sprint(got) != "[6 1 6 3]" {
		t.Fatalf("rolled %v", got)
	}
}
