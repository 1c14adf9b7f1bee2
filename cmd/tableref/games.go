package main

import (
	"encoding/json"
	"fmt"
	"io"
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
	// Check every batch's set-up before playing any.
	for _, v := range variants {
		for _, p := range counts {
			if _, err := g.New(game.Config{Players: p, Variant: v, Options: opts, Seed: seed}); err != nil {
				return usageError{err.Error()}
			}
		}
	}
	var all []sim.Stats
	start := time.Now()
	played := 0
	for _, v := range variants {
		for _, p := range counts {
			st, err := sim.Run(sim.Spec{Game: g, Players: p, Variant: v, Options: opts, Games: games, Seed: seed})
			if err != nil {
				return err
			}
			played += games
			all = append(all, st)
			if asJSON {
				b, _ := json.Marshal(st)
				fmt.Fprintln(e.stdout, string(b))
			}
		}
	}
	took := time.Since(start)
	if !asJSON {
		printStats(e.stdout, g.Info(), all, games, seed)
	}
	fmt.Fprintf(e.stderr, "played %d games in %.2f s (%.0f games/s)\n", played, took.Seconds(), float64(played)/took.Seconds())
	return nil
}

func pct(n, of int) string { return strconv.FormatFloat(100*float64(n)/float64(of), 'f', 1, 64) + "%" }

func printStats(w io.Writer, in game.Info, all []sim.Stats, games int, seed uint64) {
	fmt.Fprintf(w, "%s — %s: %d games per batch, seeds %d to %d\n\n", in.ID, in.Name, games, seed, seed+uint64(games)-1)
	anyPerfect := false
	anyScore := false
	for _, st := range all {
		anyPerfect = anyPerfect || st.Perfect > 0
		anyScore = anyScore || st.MeanScore != nil
	}
	header := []string{"variant", "players", "moves: mean (min–max)", "wins by seat", "no winner", "shared"}
	if in.MaxPlayers > 1 {
		header = append(header, "first-seat edge")
	}
	if anyPerfect || in.MaxPlayers == 1 {
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
		v := st.Variant
		if v == "" {
			v = "-"
		}
		row := []string{v, strconv.Itoa(st.Players), fmt.Sprintf("%.1f (%d–%d)", st.MeanMoves, st.MinMoves, st.MaxMoves),
			strings.Join(wins, " "), pct(st.NoWinner, st.Games), pct(st.Shared, st.Games)}
		if in.MaxPlayers > 1 {
			edge := "-"
			if st.Players > 1 {
				edge = fmt.Sprintf("%.2f", st.FirstSeatEdge())
			}
			row = append(row, edge)
		}
		if anyPerfect || in.MaxPlayers == 1 {
			row = append(row, pct(st.Perfect, st.Games))
		}
		if anyScore {
			scores := make([]string, len(st.MeanScore))
			for i, s := range st.MeanScore {
				scores[i] = strconv.FormatFloat(s, 'f', 1, 64)
			}
			row = append(row, strings.Join(scores, " "))
		}
		rows = append(rows, row)
	}
	widths := make([]int, len(header))
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
	fmt.Fprintln(w, "\nwins by seat: the share of games each seat won, seat 1 first (shared wins count for each winner).")
	if in.MaxPlayers > 1 {
		fmt.Fprintln(w, "first-seat edge: seat 1's wins over the average seat's; 1.00 means no first-player advantage.")
	}
}
