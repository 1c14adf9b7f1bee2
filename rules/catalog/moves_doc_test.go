package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/tableref/tableref/rules/game"
)

// docs/moves.md is checked against the engines, so that it cannot fall
// behind them. Its conventions, which this test reads:
//
//   - A game's section is a "## " heading holding the game id in backticks,
//     such as "## Woodlouse Chaos (`woodlouse`)"; it runs to the next "## ".
//   - Every API body `{"move":…}` in a game's section (in a table, in prose
//     or on a line of a fenced block) is an example, the move as a phone
//     posts it: text "ACTION ARG..." or {"action":…,"args":[…]}, without a
//     seat (or with the posting seat's own). It must be accepted by the
//     engine in some state reached in seeded playouts, for some seat that
//     may act then.
//   - An example followed by "→ 409 “reason”" is a refusal instead: in some
//     reached state a seat that may act sends it and the engine refuses it
//     (a *game.RefusedError) with a reason that contains the quoted text
//     (seat references read "player N").
//   - A table whose header's first cell is "action" lists the game's
//     actions, one per row, the action in backticks in the first cell. Each
//     row holds an accepted example of its own action, and every action any
//     engine lists in Legal during the playouts has a row.
func TestMovesDocMatchesTheEngines(t *testing.T) {
	doc, err := os.ReadFile("../../docs/moves.md")
	if err != nil {
		t.Fatal(err)
	}
	sections, err := parseMovesDoc(string(doc))
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range append(All(), Tools()...) {
		id := g.Info().ID
		t.Run(id, func(t *testing.T) {
			sec := sections[id]
			if sec == nil {
				t.Fatalf("docs/moves.md has no section for %s (a \"## \" heading with `%s` in it)", id, id)
			}
			if len(sec.actions) == 0 {
				t.Fatalf("docs/moves.md: the %s section has no action table", id)
			}
			checkRows(t, sec)
			pending := slices.Clone(sec.examples)
			legal := explore(t, g, &pending)
			for _, ex := range pending {
				if ex.refused {
					t.Errorf("docs/moves.md:%d: %s: no reached state refuses %s with a reason containing %q", ex.line, id, ex.text, ex.reason)
				} else {
					t.Errorf("docs/moves.md:%d: %s: no reached state accepts %s", ex.line, id, ex.text)
				}
			}
			var missing []string
			for a := range legal {
				if !sec.actions[a] {
					missing = append(missing, a)
				}
			}
			sort.Strings(missing)
			for _, a := range missing {
				t.Errorf("docs/moves.md: %s: the engine offers the action %q (%s) but the action table has no row for it", id, a, legal[a])
			}
		})
	}
}

// docExample is one API body found in the doc.
type docExample struct {
	line    int
	text    string // as written
	seat    int    // the seat it names, or -1
	action  string
	args    []string
	refused bool
	reason  string
}

type docSection struct {
	id       string
	actions  map[string]bool // the rows of the action table
	rows     map[int]string  // line of a table row -> its action
	examples []docExample
}

var (
	headingID = regexp.MustCompile("`([a-z]+)`")
	refusal   = regexp.MustCompile(`^` + "`?" + `\s*→\s*(\d{3})\s*“([^”]+)”`)
	firstCode = regexp.MustCompile("`([^`]+)`")
)

func parseMovesDoc(doc string) (map[string]*docSection, error) {
	ids := IDs()
	for _, g := range Tools() {
		ids = append(ids, g.Info().ID)
	}
	out := map[string]*docSection{}
	var cur *docSection
	inTable := false
	for i, line := range strings.Split(doc, "\n") {
		n := i + 1
		if strings.HasPrefix(line, "## ") {
			cur, inTable = nil, false
			for _, m := range headingID.FindAllStringSubmatch(line, -1) {
				if slices.Contains(ids, m[1]) {
					if out[m[1]] != nil {
						return nil, fmt.Errorf("docs/moves.md:%d: a second section for %s", n, m[1])
					}
					cur = &docSection{id: m[1], actions: map[string]bool{}, rows: map[int]string{}}
					out[m[1]] = cur
					break
				}
			}
			continue
		}
		if cur == nil {
			continue
		}
		if cells := tableCells(line); cells != nil {
			switch {
			case strings.EqualFold(cells[0], "action"):
				inTable = true
			case inTable && strings.Trim(cells[0], "-: ") == "":
			case inTable:
				m := firstCode.FindStringSubmatch(cells[0])
				if m == nil {
					return nil, fmt.Errorf("docs/moves.md:%d: an action row without the action in backticks", n)
				}
				a := strings.Fields(m[1])[0]
				cur.actions[a] = true
				cur.rows[n] = a
			}
		} else {
			inTable = false
		}
		exs, err := lineExamples(line, n)
		if err != nil {
			return nil, err
		}
		cur.examples = append(cur.examples, exs...)
	}
	return out, nil
}

// tableCells splits a markdown table row, or returns nil for another line.
func tableCells(line string) []string {
	l := strings.TrimSpace(line)
	if !strings.HasPrefix(l, "|") {
		return nil
	}
	l = strings.TrimSuffix(strings.TrimPrefix(l, "|"), "|")
	cells := strings.Split(l, "|")
	for i := range cells {
		cells[i] = strings.TrimSpace(cells[i])
	}
	return cells
}

// lineExamples finds every {"move":…} body on a line.
func lineExamples(line string, n int) ([]docExample, error) {
	var out []docExample
	rest := line
	for {
		i := strings.Index(rest, `{"move":`)
		if i < 0 {
			return out, nil
		}
		dec := json.NewDecoder(strings.NewReader(rest[i:]))
		var body struct {
			Move json.RawMessage `json:"move"`
		}
		if err := dec.Decode(&body); err != nil {
			return nil, fmt.Errorf("docs/moves.md:%d: %s: %v", n, rest[i:], err)
		}
		end := i + int(dec.InputOffset())
		ex := docExample{line: n, text: rest[i:end]}
		if err := ex.parse(body.Move); err != nil {
			return nil, fmt.Errorf("docs/moves.md:%d: %s: %v", n, ex.text, err)
		}
		rest = rest[end:]
		if m := refusal.FindStringSubmatch(rest); m != nil {
			if m[1] != "409" {
				return nil, fmt.Errorf("docs/moves.md:%d: %s: only engine refusals (409) can be checked, not %s", n, ex.text, m[1])
			}
			ex.refused, ex.reason = true, m[2]
			rest = rest[len(m[0]):]
		}
		out = append(out, ex)
	}
}

// parse reads the move as the web remote does.
func (ex *docExample) parse(raw json.RawMessage) error {
	ex.seat = -1
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return err
		}
		f := strings.Fields(s)
		if len(f) > 0 {
			if n, err := strconv.Atoi(f[0]); err == nil && n >= 0 {
				ex.seat, f = n, f[1:]
			}
		}
		if len(f) == 0 {
			return errors.New("no action")
		}
		ex.action, ex.args = f[0], f[1:]
		return nil
	}
	var obj struct {
		Seat   *int     `json:"seat"`
		Action string   `json:"action"`
		Args   []string `json:"args"`
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&obj); err != nil {
		return err
	}
	if obj.Seat != nil {
		ex.seat = *obj.Seat
	}
	if obj.Action == "" || strings.ContainsAny(obj.Action, " \t") {
		return errors.New("the action must be one word")
	}
	ex.action, ex.args = obj.Action, obj.Args
	return nil
}

// checkRows checks that every action row shows an accepted example of its
// own action.
func checkRows(t *testing.T, sec *docSection) {
	t.Helper()
	for line, a := range sec.rows {
		ok := false
		for _, ex := range sec.examples {
			ok = ok || ex.line == line && !ex.refused && ex.action == a
		}
		if !ok {
			t.Errorf("docs/moves.md:%d: %s: the row for %q has no accepted example {\"move\":\"%s …\"}", line, sec.id, a, a)
		}
	}
}

// The playouts: every player count, every variant, and the default
// options or one other listed value of one option (a setup). Round after
// round every setup is played with the next seed (the game's own bot on
// seed 1 with the default options, patient random play otherwise), at
// least docMinSeeds rounds and then until the game has made docMoves moves
// in all, so that a game of short matches (Purse Snatcher) is played as
// thoroughly as a long one.
const (
	docMinSeeds = 4
	docMaxSeeds = 400
	docMoves    = 20000
	docMaxMoves = 1500 // per playout
)

// explore plays seeded games of g, removes from pending every example some
// reached state bears out, and returns the actions Legal offered, each with
// one move as a sample.
func explore(t *testing.T, g game.Game, pending *[]docExample) map[string]string {
	t.Helper()
	in := g.Info()
	variants := []string{""}
	if len(in.Variants) > 0 {
		variants = nil
		for _, v := range in.Variants {
			variants = append(variants, v.ID)
		}
	}
	optSets := []map[string]string{nil}
	for _, o := range in.Options {
		for _, v := range o.Values {
			if v != o.Default {
				optSets = append(optSets, map[string]string{o.Name: v})
			}
		}
	}
	var setups []game.Config
	for players := in.MinPlayers; players <= in.MaxPlayers; players++ {
		for _, variant := range variants {
			for _, opts := range optSets {
				cfg := game.Config{Players: players, Variant: variant, Options: opts}
				if _, err := g.New(cfg); err == nil { // louseflea refuses small-table=remove at 3
					setups = append(setups, cfg)
				}
			}
		}
	}
	if len(setups) == 0 {
		t.Fatalf("%s: no setup can be played", in.ID)
	}
	legal := map[string]string{}
	own := game.BotFor(g)
	moves := 0
	for seed := uint64(1); seed <= docMaxSeeds && (seed <= docMinSeeds || moves < docMoves); seed++ {
		for _, cfg := range setups {
			bot := game.Bot(game.BotFunc(patient))
			if seed == 1 && cfg.Options == nil {
				bot = own // sensible play reaches what random play rarely does
			}
			cfg.Seed = seed
			s, err := g.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			moves += playout(t, s, bot, game.NewRand(seed*7919), pending, legal)
		}
	}
	return legal
}

// playout plays one game, bearing out examples and noting Legal's actions
// at every state; it returns the number of moves made.
func playout(t *testing.T, s game.State, bot game.Bot, r game.Rand, pending *[]docExample, legal map[string]string) int {
	t.Helper()
	n := 0
	for ; n < docMaxMoves && !s.Over(); n++ {
		turn := s.Turn()
		if len(turn) == 0 {
			t.Fatalf("nobody may act but the game is not over")
		}
		*pending = slices.DeleteFunc(*pending, func(ex docExample) bool { return bornOut(s, turn, ex) })
		for _, seat := range turn {
			for _, m := range s.Legal(seat) {
				if _, ok := legal[m.Action]; !ok {
					legal[m.Action] = m.String()
				}
			}
		}
		seat := turn[r.IntN(len(turn))]
		m := bot.Choose(s, seat, &r)
		if _, err := s.Apply(m); err != nil {
			t.Fatalf("bot move %s refused: %v", m, err)
		}
	}
	return n
}

// patient picks a random action among the legal ones, then a random move
// of that action (so that an action offered rarely among many moves, such
// as a ghost's haunt among its swaps, is still tried often), and mostly
// shuns a move that ends the game, so that playouts reach deep into it (a
// tourist who walks out at once shows little of Purse Snatcher).
func patient(s game.State, seat int, r *game.Rand) game.Move {
	legal := s.Legal(seat)
	pick := func() game.Move {
		var acts []string
		for _, m := range legal {
			if !slices.Contains(acts, m.Action) {
				acts = append(acts, m.Action)
			}
		}
		a := acts[r.IntN(len(acts))]
		var same []game.Move
		for _, m := range legal {
			if m.Action == a {
				same = append(same, m)
			}
		}
		return same[r.IntN(len(same))]
	}
	m := pick()
	for try := 0; try < 4 && r.IntN(10) > 0; try++ {
		c := s.Clone()
		if _, err := c.Apply(m); err != nil || !c.Over() {
			break
		}
		m = pick()
	}
	return m
}

// bornOut reports whether the example holds in state s: some seat that may
// act has it accepted (or refused with the documented reason).
func bornOut(s game.State, turn []int, ex docExample) bool {
	for _, seat := range turn {
		if ex.seat >= 0 && ex.seat != seat {
			continue
		}
		_, err := s.Clone().Apply(game.Move{Seat: seat, Action: ex.action, Args: slices.Clone(ex.args)})
		if !ex.refused {
			if err == nil {
				return true
			}
			continue
		}
		var re *game.RefusedError
		if errors.As(err, &re) && strings.Contains(game.Names(re.Reason, nil), ex.reason) {
			return true
		}
	}
	return false
}
