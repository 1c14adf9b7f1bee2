// Package gametest checks a game engine against the contract of package
// game by playing it: random playouts that must never panic, must end, must
// keep every invariant (State.Audit), must refuse illegal moves without
// touching the state, must replay exactly from seed and moves, and must never
// show a seat another seat's secret, in a view or in an event.
package gametest

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tableref/tableref/rules/game"
)

// Secrets lists what owner alone may know in s, as strings that must not
// appear in any other seat's marshalled view (nor the Table's). With owner
// == game.Table it lists what nobody may see (deck order, mine layout).
// Make each string distinctive enough that it cannot appear by chance: a
// whole hand or the order of the deck as JSON, a card id that exists once.
//
// The same strings are looked for in the text of the events each move
// returns, so list a secret also in the words events use ("the 7 of
// hearts"), not only as it appears in views: Alias joins the forms of one
// secret. An event may name a secret that the seats it goes to knew
// already (one of its forms was in their view before the move, or in an
// event they saw earlier), such as a card the move turns back face down.
type Secrets func(s game.State, owner int) []string

// Alias joins several forms of one secret (`"7H"` in views, "the 7 of
// hearts" in events) into one Secrets or Shared string: each form is looked
// for, and knowing one is knowing the secret.
func Alias(forms ...string) string { return strings.Join(forms, aliasSep) }

const aliasSep = "\x00"

// forms splits a secret into its forms.
func forms(sec string) []string { return strings.Split(sec, aliasSep) }

// containsAny reports which form of sec text contains, if any.
func containsAny(text, sec string) (string, bool) {
	for _, f := range forms(sec) {
		if f != "" && strings.Contains(text, f) {
			return f, true
		}
	}
	return "", false
}

// Shared is a secret several seats share, such as a tile two players have
// looked under, or a card shown to one voice: no other seat, nor the
// table, may see Text.
type Shared struct {
	Text  string
	Seats []int
}

// SharedSecrets lists the secrets of s that some seats share.
type SharedSecrets func(s game.State) []Shared

// Check describes the playouts to run.
type Check struct {
	Game     game.Game
	Configs  []game.Config // cycled through; each game gets its own seed
	Games    int           // playouts in all
	MaxMoves int           // a playout not over by then fails (default 10000)
	Bot      game.Bot      // nil: game.Random
	Secrets  Secrets       // nil: the secrecy check is skipped
	Shared   SharedSecrets // nil: no shared secrets
	Seed     uint64        // first seed; game i uses Seed+i
	// Exhaustive says Legal lists every move Apply accepts (no move is left
	// out as one of a large range): a stale move that Legal does not list
	// now must then be refused.
	Exhaustive bool
	// Illegal, if set, makes well-formed moves that the rules must refuse
	// now for seat (a card it does not hold, a square off its reach).
	Illegal func(s game.State, seat int) []game.Move
}

// Run plays c.Games playouts and fails t at the first broken promise. Built
// with the race detector it plays a fifth of them (at least one per config)
// and says so: scripts/test plays them all in a step without it.
func Run(t testing.TB, c Check) {
	t.Helper()
	if raceDetector {
		all := c.Games
		c.Games = max(c.Games/5, min(c.Games, max(1, len(c.Configs))))
		t.Logf("%d of %d playouts: the race detector slows them and finds nothing in one goroutine's engine", c.Games, all)
	}
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
	var stale staleMoves
	heard := newHeard(cfg.Players)
	for step := 0; ; step++ {
		if err := s.Audit(); err != nil {
			return fmt.Errorf("after %d moves %v: Audit: %w", step, last(moves), err)
		}
		probe := deep || step%7 == 0
		var viewsBefore map[int]string
		if (c.Secrets != nil || c.Shared != nil) && probe {
			views, err := checkSecrets(s, cfg.Players, c.Secrets, c.Shared)
			if err != nil {
				return fmt.Errorf("after %d moves %v: %w", step, last(moves), err)
			}
			viewsBefore = views
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
		if probe {
			if err := checkIllegal(s, c, turn, &stale, &r); err != nil {
				return fmt.Errorf("after %d moves %v: %w", step, last(moves), err)
			}
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
		stale.add(legal[r.IntN(len(legal))])
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
			for _, to := range e.To {
				if to < 0 || to >= cfg.Players {
					return fmt.Errorf("move %q gave an event for seat %d of %d: %+v", m, to, cfg.Players, e)
				}
			}
		}
		if viewsBefore != nil {
			after := forbiddenTo(s, cfg.Players, c.Secrets, c.Shared)
			if err := checkEvents(m, events, cfg.Players, after, viewsBefore, heard); err != nil {
				return fmt.Errorf("after %d moves: %w", step, err)
			}
		}
		heard.add(events)
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

// refusedUnchanged applies m to s and requires a refusal that leaves s as it
// was.
func refusedUnchanged(s game.State, m game.Move) error {
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

// checkRefusals tries moves that must be refused and checks they leave s
// untouched: a move that is legal for a seat in turn, made by a seat that
// is not (refused as out of turn: game.IsTurnRefusal), an unknown action, a
// seat out of range, and one legal move of each action with an extra
// argument, or with its arguments replaced by one word that means nothing.
func checkRefusals(s game.State, players int, turn []int) error {
	in := map[int]bool{}
	for _, t := range turn {
		in[t] = true
	}
	legalInTurn := s.Clone().Legal(turn[0])
	for seat := 0; seat < players; seat++ {
		if in[seat] {
			continue
		}
		for _, m := range s.Legal(seat) {
			return fmt.Errorf("seat %d is not in Turn %v but Legal lists %q", seat, turn, m)
		}
		for i, m := range legalInTurn {
			if i > 2 {
				break
			}
			m.Seat = seat
			before := s.Clone()
			_, err := s.Apply(m)
			switch {
			case err == nil:
				return fmt.Errorf("seat %d is not in Turn %v, yet %q was accepted", seat, turn, m)
			case !reflect.DeepEqual(before, s):
				return fmt.Errorf("refused move %q (%v) changed the state", m, err)
			case !game.IsTurnRefusal(err):
				return fmt.Errorf("seat %d is not in Turn %v, and %q was refused for another reason: %v", seat, turn, m, err)
			}
		}
	}
	for _, m := range []game.Move{game.M(turn[0], "no-such-action", "x"), game.M(players, "pass"), game.M(-2, "pass")} {
		if err := refusedUnchanged(s, m); err != nil {
			return err
		}
	}
	seen := map[string]bool{}
	for _, m := range legalInTurn {
		if seen[m.Action] {
			continue
		}
		seen[m.Action] = true
		garbled := m
		garbled.Args = append(append([]string{}, m.Args...), "extra-argument")
		if err := refusedUnchanged(s, garbled); err != nil {
			return err
		}
		if len(m.Args) > 0 {
			garbled.Args = []string{"nonsense"}
			if err := refusedUnchanged(s, garbled); err != nil {
				return err
			}
		}
	}
	return nil
}

// staleMoves keeps some legal moves of earlier states: well-formed moves,
// most of them illegal now.
type staleMoves struct {
	moves []game.Move
	next  int
}

func (st *staleMoves) add(m game.Move) {
	const keep = 48
	if len(st.moves) < keep {
		st.moves = append(st.moves, m)
		return
	}
	st.moves[st.next] = m
	st.next = (st.next + 1) % keep
}

// checkIllegal tries well-formed moves for the seats in turn that Legal
// does not list now: moves that were legal earlier in the game, and the
// game's own Illegal ones. Each is tried on a copy. A refusal must leave
// it unchanged; an acceptance (allowed only where Legal need not list
// everything) must keep its invariants. The game's Illegal moves must be
// refused.
func checkIllegal(s game.State, c Check, turn []int, stale *staleMoves, r *game.Rand) error {
	for _, seat := range turn {
		listed := map[string]bool{}
		for _, m := range s.Legal(seat) {
			listed[m.String()] = true
		}
		for i := 0; i < 4 && len(stale.moves) > 0; i++ {
			m := stale.moves[r.IntN(len(stale.moves))]
			m.Seat = seat
			if listed[m.String()] {
				continue
			}
			t := s.Clone()
			_, err := t.Apply(m)
			switch {
			case err != nil && !reflect.DeepEqual(s, t):
				return fmt.Errorf("refused stale move %q (%v) changed the state", m, err)
			case err == nil && c.Exhaustive:
				return fmt.Errorf("%q, not in Legal(%d), was accepted", m, seat)
			case err == nil:
				if aerr := t.Audit(); aerr != nil {
					return fmt.Errorf("after %q, accepted though not in Legal(%d): Audit: %w", m, seat, aerr)
				}
			}
		}
		if c.Illegal == nil {
			continue
		}
		for _, m := range c.Illegal(s, seat) {
			if listed[m.String()] {
				return fmt.Errorf("the test's illegal move %q is in Legal(%d)", m, seat)
			}
			if err := refusedUnchanged(s.Clone(), m); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkSecrets marshals every view and looks for other seats' secrets in it.
// It returns the views, as JSON, by viewer.
func checkSecrets(s game.State, players int, secrets Secrets, shared SharedSecrets) (map[int]string, error) {
	views := map[int]string{}
	for v := game.Table; v < players; v++ {
		b, err := json.Marshal(s.View(v))
		if err != nil {
			return nil, fmt.Errorf("view of seat %d: %w", v, err)
		}
		views[v] = string(b)
	}
	who := func(v int) string {
		if v == game.Table {
			return "the table"
		}
		return fmt.Sprintf("seat %d", v)
	}
	if secrets != nil {
		for owner := game.Table; owner < players; owner++ {
			for _, sec := range secrets(s, owner) {
				if sec == "" {
					continue
				}
				for v, view := range views {
					if v == owner && owner != game.Table {
						continue
					}
					if f, ok := containsAny(view, sec); ok {
						sec = f
						whose := fmt.Sprintf("seat %d's", owner)
						if owner == game.Table {
							whose = "a hidden"
						}
						return nil, fmt.Errorf("the view of %s shows %s secret %s: %s", who(v), whose, sec, view)
					}
				}
			}
		}
	}
	if shared != nil {
		for _, sh := range shared(s) {
			if sh.Text == "" {
				continue
			}
			for v, view := range views {
				if v != game.Table && slices.Contains(sh.Seats, v) {
					continue
				}
				if f, ok := containsAny(view, sh.Text); ok {
					return nil, fmt.Errorf("the view of %s shows the secret of seats %v %s: %s", who(v), sh.Seats, f, view)
				}
			}
		}
	}
	return views, nil
}

// forbiddenTo lists, for each viewer (game.Table and every seat), the
// secrets it may not see in s.
func forbiddenTo(s game.State, players int, secrets Secrets, shared SharedSecrets) map[int][]string {
	out := map[int][]string{}
	if secrets != nil {
		for owner := game.Table; owner < players; owner++ {
			for _, sec := range secrets(s, owner) {
				if sec == "" {
					continue
				}
				for v := game.Table; v < players; v++ {
					if v != owner || owner == game.Table {
						out[v] = append(out[v], sec)
					}
				}
			}
		}
	}
	if shared != nil {
		for _, sh := range shared(s) {
			if sh.Text == "" {
				continue
			}
			for v := game.Table; v < players; v++ {
				if v == game.Table || !slices.Contains(sh.Seats, v) {
					out[v] = append(out[v], sh.Text)
				}
			}
		}
	}
	return out
}

// heard is what each seat (and the table) has been told in events so far.
type heard struct {
	public  strings.Builder
	private []strings.Builder
}

func newHeard(players int) *heard { return &heard{private: make([]strings.Builder, players)} }

func (h *heard) add(events []game.Event) {
	for _, e := range events {
		if e.Public() {
			h.public.WriteString(e.Text)
			h.public.WriteByte('\n')
			continue
		}
		for _, to := range e.To {
			if to >= 0 && to < len(h.private) {
				h.private[to].WriteString(e.Text)
				h.private[to].WriteByte('\n')
			}
		}
	}
}

func (h *heard) knows(v int, sec string) bool {
	if _, ok := containsAny(h.public.String(), sec); ok {
		return true
	}
	if v < 0 || v >= len(h.private) {
		return false
	}
	_, ok := containsAny(h.private[v].String(), sec)
	return ok
}

// checkEvents looks in the events of move m, for each seat that may see
// them (and the table, for public ones), for a secret it may not see after
// the move and did not know before it (from its view, or earlier events).
func checkEvents(m game.Move, events []game.Event, players int, after map[int][]string, viewsBefore map[int]string, h *heard) error {
	for v := game.Table; v < players; v++ {
		for _, e := range events {
			if !e.For(v) {
				continue
			}
			for _, sec := range after[v] {
				f, ok := containsAny(e.Text, sec)
				if !ok {
					continue
				}
				if _, ok := containsAny(viewsBefore[v], sec); ok || h.knows(v, sec) {
					continue
				}
				sec = f
				who := fmt.Sprintf("seat %d", v)
				if v == game.Table {
					who = "the table"
				}
				return fmt.Errorf("move %q told %s the secret %s: event %+v", m, who, sec, e)
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
