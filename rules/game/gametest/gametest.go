// Package gametest checks a game engine against the contract of package
// game by playing it: random playouts that must never panic, must end, must
// keep every invariant (State.Audit), must refuse illegal moves without
// touching the state, must replay exactly from seed and moves, and must never
// show a seat another seat's secret.
package gametest

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/tableref/tableref/rules/game"
)

// Secrets lists what owner alone may know in s, as strings that must not
// appear in any other seat's marshalled view (nor the Table's). With owner
// == game.Table it lists what nobody may see (deck order, mine layout).
// Make each string distinctive enough that it cannot appear by chance: a
// whole hand or the order of the deck as JSON, a card id that exists once.
type Secrets func(s game.State, owner int) []string

// Check describes the playouts to run.
type Check struct {
	Game     game.Game
	Configs  []game.Config // cycled through; each game gets its own seed
	Games    int           // playouts in all
	MaxMoves int           // a playout not over by then fails (default 10000)
	Bot      game.Bot      // nil: game.Random
	Secrets  Secrets       // nil: the secrecy check is skipped
	Seed     uint64        // first seed; game i uses Seed+i
}

// Run plays c.Games playouts and fails t at the first broken promise.
func Run(t testing.TB, c Check) {
	t.Helper()
	if err := Err(c); err != nil {
		t.Fatal(err)
	}
}

// Err plays c.Games playouts and describes the first broken promise.
func Err(c Check) error {
	if c.MaxMoves == 0 {
		c.MaxMoves = 10000
	}
	if c.Bot == nil {
		c.Bot = game.Random
	}
	if len(c.Configs) == 0 {
		in := c.Game.Info()
		c.Configs = []game.Config{{Players: in.MinPlayers}}
	}
	for i := 0; i < c.Games; i++ {
		cfg := c.Configs[i%len(c.Configs)]
		cfg.Seed = c.Seed + uint64(i)
		if err := playout(c, cfg, i%10 == 0); err != nil {
			return fmt.Errorf("%s game %d (players %d, variant %q, options %v, seed %d): %w", c.Game.Info().ID, i, cfg.Players, cfg.Variant, cfg.Options, cfg.Seed, err)
		}
	}
	return nil
}

func playout(c Check, cfg game.Config, deep bool) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	s, err := c.Game.New(cfg)
	if err != nil {
		return fmt.Errorf("New: %w", err)
	}
	r := game.NewRand(cfg.Seed ^ 0x5eed)
	var moves []game.Move
	for step := 0; ; step++ {
		if err := s.Audit(); err != nil {
			return fmt.Errorf("after %d moves %v: Audit: %w", step, last(moves), err)
		}
		if c.Secrets != nil && (deep || step%7 == 0) {
			if err := checkSecrets(s, cfg.Players, c.Secrets); err != nil {
				return fmt.Errorf("after %d moves %v: %w", step, last(moves), err)
			}
		}
		turn := s.Turn()
		if s.Over() {
			if len(turn) != 0 {
				return fmt.Errorf("over, yet seats %v may act", turn)
			}
			break
		}
		if len(turn) == 0 {
			return fmt.Errorf("after %d moves: not over, but nobody may act", step)
		}
		if step >= c.MaxMoves {
			return fmt.Errorf("not over after %d moves", step)
		}
		if err := checkRefusals(s, cfg.Players, turn); err != nil {
			return fmt.Errorf("after %d moves %v: %w", step, last(moves), err)
		}
		seat := turn[r.IntN(len(turn))]
		legal := s.Legal(seat)
		if len(legal) == 0 {
			return fmt.Errorf("after %d moves: seat %d is in Turn %v but has no legal move", step, seat, turn)
		}
		for _, m := range legal {
			if m.Seat != seat {
				return fmt.Errorf("Legal(%d) lists %q, a move of another seat", seat, m)
			}
		}
		m := c.Bot.Choose(s, seat, &r)
		var before game.State
		if deep {
			before = s.Clone()
		}
		events, err := s.Apply(m)
		if err != nil {
			return fmt.Errorf("after %d moves: move %q (chosen from Legal) refused: %v", step, m, err)
		}
		if deep && reflect.DeepEqual(before, s) {
			return fmt.Errorf("move %q changed nothing", m)
		}
		for _, e := range events {
			if e.Text == "" || e.Type == "" {
				return fmt.Errorf("move %q gave an event without type or text: %+v", m, e)
			}
		}
		moves = append(moves, m)
	}
	res := s.Result()
	for _, w := range res.Winners {
		if w < 0 || w >= cfg.Players {
			return fmt.Errorf("result names seat %d among %d players", w, cfg.Players)
		}
	}
	if res.Scores != nil && len(res.Scores) != cfg.Players {
		return fmt.Errorf("result has %d scores for %d players", len(res.Scores), cfg.Players)
	}
	if res.Text == "" {
		return fmt.Errorf("result has no text")
	}
	if deep {
		again, err := game.Replay(c.Game, cfg, moves)
		if err != nil {
			return fmt.Errorf("replay: %w", err)
		}
		if !reflect.DeepEqual(again, s) {
			return fmt.Errorf("replaying the %d moves from the seed did not give the same state", len(moves))
		}
		if _, err := json.Marshal(s.View(game.Table)); err != nil {
			return fmt.Errorf("final table view: %w", err)
		}
	}
	return nil
}

func last(moves []game.Move) string {
	if len(moves) == 0 {
		return "(none)"
	}
	return fmt.Sprintf("(last %q)", moves[len(moves)-1])
}

// checkRefusals tries moves that must be refused and checks they leave s
// untouched: a seat not in turn, an unknown action, a seat out of range, and
// one legal move of each action with an extra argument, or with its
// arguments replaced by one word that means nothing.
func checkRefusals(s game.State, players int, turn []int) error {
	try := func(m game.Move) error {
		before := s.Clone()
		_, err := s.Apply(m)
		if err == nil {
			return fmt.Errorf("illegal move %q was accepted", m)
		}
		if !reflect.DeepEqual(before, s) {
			return fmt.Errorf("refused move %q (%v) changed the state", m, err)
		}
		return nil
	}
	in := map[int]bool{}
	for _, t := range turn {
		in[t] = true
	}
	for seat := 0; seat < players; seat++ {
		if !in[seat] {
			for _, m := range s.Legal(seat) {
				return fmt.Errorf("seat %d is not in Turn %v but Legal lists %q", seat, turn, m)
			}
			if err := try(game.M(seat, "pass")); err != nil {
				return err
			}
			break
		}
	}
	for _, m := range []game.Move{game.M(turn[0], "no-such-action", "x"), game.M(players, "pass"), game.M(-2, "pass")} {
		if err := try(m); err != nil {
			return err
		}
	}
	seen := map[string]bool{}
	for _, m := range s.Clone().Legal(turn[0]) {
		if seen[m.Action] {
			continue
		}
		seen[m.Action] = true
		garbled := m
		garbled.Args = append(append([]string{}, m.Args...), "extra-argument")
		if err := try(garbled); err != nil {
			return err
		}
		if len(m.Args) > 0 {
			garbled.Args = []string{"nonsense"}
			if err := try(garbled); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkSecrets marshals every view and looks for other seats' secrets in it.
func checkSecrets(s game.State, players int, secrets Secrets) error {
	views := map[int]string{}
	for v := game.Table; v < players; v++ {
		b, err := json.Marshal(s.View(v))
		if err != nil {
			return fmt.Errorf("view of seat %d: %w", v, err)
		}
		views[v] = string(b)
	}
	for owner := game.Table; owner < players; owner++ {
		for _, sec := range secrets(s, owner) {
			if sec == "" {
				continue
			}
			for v, view := range views {
				if v == owner && owner != game.Table {
					continue
				}
				if strings.Contains(view, sec) {
					who := fmt.Sprintf("seat %d", v)
					if v == game.Table {
						who = "the table"
					}
					whose := fmt.Sprintf("seat %d's", owner)
					if owner == game.Table {
						whose = "a hidden"
					}
					return fmt.Errorf("the view of %s shows %s secret %s: %s", who, whose, sec, view)
				}
			}
		}
	}
	return nil
}

// RiggedRand finds a seeded source whose next rolls of a six-sided die are
// the given ones, so a test can stage a fight or a fast move; it fails t
// when no seed below a few million does it (more than about seven rolls).
func RiggedRand(t testing.TB, rolls ...int) game.Rand {
	t.Helper()
	for seed := uint64(1); seed < 5_000_000; seed++ {
		r := game.NewRand(seed)
		ok := true
		for _, want := range rolls {
			if r.Die(6) != want {
				ok = false
				break
			}
		}
		if ok {
			return game.NewRand(seed)
		}
	}
	t.Fatalf("no seed rolls %v", rolls)
	return game.Rand{}
}
