package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/tableref/tableref/rules/catalog"
	"github.com/tableref/tableref/rules/game"
	"github.com/tableref/tableref/rules/sim"
)

func runGames(e *env, args []string) error {
	var asJSON bool
	fs := newFlags("games", "[--json]", "Lists the games tableref referees, with their ids, player counts, variants and options.", e.stdout)
	fs.BoolVar(&asJSON, "json", false, "print a JSON array")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	var infos []game.Info
	for _, g := range catalog.All() {
		infos = append(infos, g.Info())
	}
	if asJSON {
		if infos == nil {
			infos = []game.Info{}
		}
		b, _ := json.MarshalIndent(infos, "", "  ")
		fmt.Fprintln(e.stdout, string(b))
		return nil
	}
	for i, in := range infos {
		if i > 0 {
			fmt.Fprintln(e.stdout)
		}
		players := fmt.Sprintf("%d–%d players", in.MinPlayers, in.MaxPlayers)
		if in.MinPlayers == in.MaxPlayers {
			players = fmt.Sprintf("%d player", in.MinPlayers)
			if in.MinPlayers > 1 {
				players += "s"
			}
		}
		fmt.Fprintf(e.stdout, "%s — %s (%s)\n  %s\n", in.ID, in.Name, players, in.Summary)
		if len(in.Roles) > 0 {
			fmt.Fprintf(e.stdout, "  parts: %s\n", describeRoles(in))
		}
		for j, v := range in.Variants {
			def := ""
			if j == 0 {
				def = " (default)"
			}
			fmt.Fprintf(e.stdout, "  variant %s%s: %s\n", v.ID, def, v.Text)
		}
		for _, o := range in.Options {
			values := strings.Join(o.Values, "|")
			if o.Values == nil {
				values = fmt.Sprintf("%d to %d", o.Min, o.Max)
			}
			fmt.Fprintf(e.stdout, "  option %s=%s (default %s): %s\n", o.Name, values, o.Default, o.Text)
		}
	}
	return nil
}

// optionsFlag collects repeated --option name=value flags.
type optionsFlag map[string]string

func (o optionsFlag) String() string {
	var kv []string
	for k, v := range o {
		kv = append(kv, k+"="+v)
	}
	sort.Strings(kv)
	return strings.Join(kv, ",")
}

func (o optionsFlag) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	if !ok || k == "" {
		return fmt.Errorf("%q is not name=value", s)
	}
	o[k] = v
	return nil
}

func runSimulate(e *env, args []string) error {
	var games, players int
	var variant string
	var seed uint64
	var asJSON bool
	opts := optionsFlag{}
	fs := newFlags("simulate", "GAME [--games N] [--seed S] [--players P] [--variant V] [--option NAME=VALUE]... [--json]",
		"Plays many games with bots that make legal moves (the game's own heuristic player where it has one)\n"+
			"and prints the outcomes: wins per seat (first-player advantage), games nobody won, game length,\n"+
			"perfect wins and mean scores. Without --players or --variant, every player count and every variant\n"+
			"is simulated, --games each. The same seed gives the same output, byte for byte; the speed goes to\n"+
			"stderr. Games: "+strings.Join(catalog.IDs(), ", ")+".", e.stdout)
	fs.IntVar(&games, "games", 1000, "games per player count and variant")
	fs.Uint64Var(&seed, "seed", 1, "the first game's seed (game i uses seed+i)")
	fs.IntVar(&players, "players", 0, "players (default: every count the game allows)")
	fs.StringVar(&variant, "variant", "", "variant (default: every variant)")
	fs.Var(opts, "option", "a game option as name=value (repeatable; see tableref games)")
	fs.BoolVar(&asJSON, "json", false, "print one JSON line per batch")
	pos, err := parseMixed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("name one game: %s", strings.Join(catalog.IDs(), ", "))
	}
	g, err := catalog.Get(pos[0])
	if err != nil {
		return usageError{err.Error()}
	}
	if !slices.Contains(catalog.IDs(), g.Info().ID) {
		return usagef("%s is the dealer, not a game: nothing to simulate (the games are %s)", g.Info().ID, strings.Join(catalog.IDs(), ", "))
	}
	if games < 1 || games > 10_000_000 {
		return usagef("--games must be from 1 to 10000000")
	}
	counts, variants := sim.Batches(g, players, variant)
	if len(opts) == 0 {
		opts = nil
	}
	// Check every batch's set-up before playing any. Without --players, a
	// player count that the options refuse (louseflea's small-table=remove
	// at 3) is skipped with a note; a refused --players is an error.
	type batch struct {
		variant string
		players int
	}
	var batches []batch
	var skipped []string
	var firstErr error
	for _, v := range variants {
		for _, p := range counts {
			if _, err := g.New(game.Config{Players: p, Variant: v, Options: opts, Seed: seed}); err != nil {
				if players != 0 {
					return usageError{err.Error()}
				}
				if firstErr == nil {
					firstErr = err
				}
				note := fmt.Sprintf("%d players skipped: %s", p, oneLine(err))
				if len(variants) > 1 {
					note = fmt.Sprintf("variant %s, %s", v, note)
				}
				skipped = append(skipped, note)
				continue
			}
			batches = append(batches, batch{v, p})
		}
	}
	if len(batches) == 0 {
		return usageError{firstErr.Error()}
	}
	var all []sim.Stats
	start := time.Now()
	played := 0
	for _, b := range batches {
		st, err := sim.Run(sim.Spec{Game: g, Players: b.players, Variant: b.variant, Options: opts, Games: games, Seed: seed})
		if err != nil {
			return err
		}
		played += games
		all = append(all, st)
		if asJSON {
			j, _ := json.Marshal(st)
			fmt.Fprintln(e.stdout, string(j))
		}
	}
	took := time.Since(start)
	if asJSON {
		for _, note := range skipped {
			j, _ := json.Marshal(struct {
				Game    string `json:"game"`
				Skipped string `json:"skipped"`
			}{g.Info().ID, note})
			fmt.Fprintln(e.stdout, string(j))
		}
	} else {
		printStats(e.stdout, g.Info(), all, games, seed, opts, skipped)
	}
	fmt.Fprintf(e.stderr, "played %d games in %.2f s (%.0f games/s)\n", played, took.Seconds(), float64(played)/took.Seconds())
	return nil
}

func pct(n, of int) string { return strconv.FormatFloat(100*float64(n)/float64(of), 'f', 1, 64) + "%" }

// seedRange says which seeds a batch of games used: seed+i for game i,
// wrapping round after the largest seed.
func seedRange(seed uint64, games int) string {
	last := seed + uint64(games-1)
	switch {
	case last < seed && seed == math.MaxUint64:
		return fmt.Sprintf("seeds %d and 0 to %d (they wrap round)", seed, last)
	case last < seed:
		return fmt.Sprintf("seeds %d to %d and 0 to %d (they wrap round)", seed, uint64(math.MaxUint64), last)
	}
	return fmt.Sprintf("seeds %d to %d", seed, last)
}

func printStats(w io.Writer, in game.Info, all []sim.Stats, games int, seed uint64, opts map[string]string, skipped []string) {
	fmt.Fprintf(w, "%s — %s: %d games per batch, %s\n", in.ID, in.Name, games, seedRange(seed, games))
	if len(opts) > 0 {
		fmt.Fprintf(w, "options: %s\n", optionsFlag(opts).String())
	}
	for _, note := range skipped {
		fmt.Fprintf(w, "%s\n", note)
	}
	fmt.Fprintln(w)
	var rows [][]string
	var notes []string
	switch {
	case in.MaxPlayers == 1:
		rows, notes = solitaireRows(in, all)
	case len(in.Roles) > 0:
		rows, notes = roleRows(in, all)
	default:
		rows, notes = seatRows(in, all)
	}
	writeTable(w, rows)
	fmt.Fprintln(w)
	for _, n := range notes {
		fmt.Fprintln(w, n)
	}
}

func moveCell(st sim.Stats) string {
	return fmt.Sprintf("%.1f (%d–%d)", st.MeanMoves, st.MinMoves, st.MaxMoves)
}

func variantCell(st sim.Stats) string {
	if st.Variant == "" {
		return "-"
	}
	return st.Variant
}

func scoreNote(in game.Info) string {
	if in.ScoreText == "" {
		return ""
	}
	return "score: " + in.ScoreText + "."
}

// solitaireRows: win, perfect win and mean score per variant.
func solitaireRows(in game.Info, all []sim.Stats) ([][]string, []string) {
	rows := [][]string{{"variant", "win", "perfect win", "mean score", "moves: mean (min–max)"}}
	for _, st := range all {
		score := "-"
		if st.MeanScore != nil {
			score = strconv.FormatFloat(st.MeanScore[0], 'f', 2, 64)
		}
		rows = append(rows, []string{variantCell(st), pct(st.WinsBySeat[0], st.Games), pct(st.Perfect, st.Games), score, moveCell(st)})
	}
	notes := []string{"win: the share of games won; perfect win: won with no gap in the bridge."}
	if n := scoreNote(in); n != "" {
		notes = append(notes, n)
	}
	return rows, notes
}

// roleRows: the games each part won and the mean score of each part, for
// games whose seats play different parts (no first-seat edge there).
func roleRows(in game.Info, all []sim.Stats) ([][]string, []string) {
	anyScore, anyPerfect := false, false
	for _, st := range all {
		anyScore = anyScore || st.MeanScore != nil
		anyPerfect = anyPerfect || st.Perfect > 0
	}
	header := []string{"variant", "players", "moves: mean (min–max)", "wins by role", "no winner"}
	if anyPerfect {
		header = append(header, "perfect")
	}
	if anyScore {
		header = append(header, "mean score by role")
	}
	rows := [][]string{header}
	for _, st := range all {
		var wins []string
		for i, r := range st.Roles {
			wins = append(wins, r+" "+pct(st.WinsByRole[i], st.Games))
		}
		row := []string{variantCell(st), strconv.Itoa(st.Players), moveCell(st), strings.Join(wins, ", "), pct(st.NoWinner, st.Games)}
		if anyPerfect {
			row = append(row, pct(st.Perfect, st.Games))
		}
		if anyScore {
			var scores []string
			if st.MeanScore != nil {
				for _, r := range st.Roles {
					sum, n := 0.0, 0
					for seat, v := range st.MeanScore {
						if in.Role(seat) == r {
							sum += v
							n++
						}
					}
					if sum != 0 {
						scores = append(scores, r+" "+strconv.FormatFloat(sum/float64(n), 'f', 1, 64))
					}
				}
			}
			if len(scores) == 0 {
				scores = []string{"-"}
			}
			row = append(row, strings.Join(scores, ", "))
		}
		rows = append(rows, row)
	}
	notes := []string{"wins by role: the share of games each part won (" + describeRoles(in) + ")."}
	if n := scoreNote(in); anyScore && n != "" {
		notes = append(notes, n)
	}
	return rows, notes
}

func describeRoles(in game.Info) string {
	var parts []string
	for i, r := range in.Roles {
		if i == len(in.Roles)-1 && i+1 < in.MaxPlayers {
			parts = append(parts, fmt.Sprintf("%s: seats %d and up", r, i+1))
		} else {
			parts = append(parts, fmt.Sprintf("%s: seat %d", r, i+1))
		}
	}
	return strings.Join(parts, "; ")
}

// seatRows: wins by seat and the first seat's edge, for games whose seats
// are alike.
func seatRows(in game.Info, all []sim.Stats) ([][]string, []string) {
	anyPerfect, anyScore := false, false
	for _, st := range all {
		anyPerfect = anyPerfect || st.Perfect > 0
		anyScore = anyScore || st.MeanScore != nil
	}
	header := []string{"variant", "players", "moves: mean (min–max)", "wins by seat", "no winner", "shared", "first-seat edge"}
	if anyPerfect {
		header = append(header, "perfect")
	}
	if anyScore {
		header = append(header, "mean score by seat")
	}
	rows := [][]string{header}
	for _, st := range all {
		wins := make([]string, len(st.WinsBySeat))
		for i, n := range st.WinsBySeat {
			wins[i] = pct(n, st.Games)
		}
		edge := "-"
		if st.Players > 1 {
			edge = fmt.Sprintf("%.2f", st.FirstSeatEdge())
		}
		row := []string{variantCell(st), strconv.Itoa(st.Players), moveCell(st), strings.Join(wins, " "), pct(st.NoWinner, st.Games), pct(st.Shared, st.Games), edge}
		if anyPerfect {
			row = append(row, pct(st.Perfect, st.Games))
		}
		if anyScore {
			scores := make([]string, len(st.MeanScore))
			for i, v := range st.MeanScore {
				scores[i] = strconv.FormatFloat(v, 'f', 1, 64)
			}
			row = append(row, strings.Join(scores, " "))
		}
		rows = append(rows, row)
	}
	notes := []string{
		"wins by seat: the share of games each seat won, seat 1 first (shared wins count for each winner).",
		"first-seat edge: seat 1's wins over the average seat's; 1.00 means no first-player advantage.",
	}
	if n := scoreNote(in); anyScore && n != "" {
		notes = append(notes, n)
	}
	return rows, notes
}

// writeTable prints rows as columns two spaces apart.
func writeTable(w io.Writer, rows [][]string) {
	widths := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], len([]rune(c)))
		}
	}
	for _, r := range rows {
		var b strings.Builder
		for i, c := range r {
			if i > 0 {
				b.WriteString("  ")
			}
			b.WriteString(c)
			if i < len(r)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-len([]rune(c))))
			}
		}
		fmt.Fprintln(w, b.String())
	}
}
