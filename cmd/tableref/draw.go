package main

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/tableref/tableref/rules/deck"
	"github.com/tableref/tableref/rules/dice"
	"github.com/tableref/tableref/rules/game"
)

// seedFlag is a --seed flag: a number, or a fresh random one when not given,
// always printed so that the draw can be checked and repeated.
type seedFlag struct {
	value uint64
	set   bool
}

func (s *seedFlag) String() string {
	if !s.set {
		return ""
	}
	return strconv.FormatUint(s.value, 10)
}

func (s *seedFlag) Set(v string) error {
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil {
		return errors.New("a seed is a whole number from 0")
	}
	s.value, s.set = n, true
	return nil
}

// get returns the seed, drawing one from the system when none was given.
func (s *seedFlag) get() uint64 {
	if !s.set {
		var b [8]byte
		_, _ = rand.Read(b[:])                           // never fails on supported systems
		s.value = binary.LittleEndian.Uint64(b[:]) >> 16 // short enough to type
		s.set = true
	}
	return s.value
}

// parseMixed parses flags that may come before, between or after the
// positional arguments, and returns the positional ones.
func parseMixed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := parseFlagsAllowingArgs(fs, args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// parseFlagsAllowingArgs is parseFlags without the refusal of positional
// arguments.
func parseFlagsAllowingArgs(fs *flag.FlagSet, args []string) error {
	// The flag package calls Usage itself on -h and on every parse error;
	// the help is printed here, once, and only when asked for.
	usage := fs.Usage
	fs.Usage = func() {}
	err := fs.Parse(args)
	fs.Usage = usage
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.Usage()
			return errHelp
		}
		if strings.HasPrefix(err.Error(), "flag provided but not defined") {
			// Say which flags there are.
			var names []string
			fs.VisitAll(func(f *flag.Flag) { names = append(names, "--"+f.Name) })
			return usagef("%v; the flags are %s", err, strings.Join(names, ", "))
		}
		return usageError{err.Error()}
	}
	return nil
}

// maxDealPlayers is the most players deal accepts: one card each from a
// deck without jokers.
const maxDealPlayers = 52

// maxRolls bounds the dice one roll command throws (--times × every die
// named), so that a long command line cannot ask for billions of rolls.
const maxRolls = 1_000_000

func runDeal(e *env, args []string) error {
	var players, cards, jokers int
	var seed seedFlag
	var asJSON bool
	fs := newFlags("deal", "--players N --cards N [--jokers 0|1|2] [--seed S] [--json]",
		"Shuffles a 52-card deck and deals the same number of cards to each player, one at a time round the\n"+
			"table. The seed is always printed: the same seed gives the same deal, so anyone can check it.", e.stdout)
	fs.IntVar(&players, "players", 0, "how many players (1 to 52)")
	fs.IntVar(&cards, "cards", 0, "cards to each player (players × cards at most the deck's size)")
	fs.IntVar(&jokers, "jokers", 0, "jokers added to the deck: 0, 1 or 2")
	fs.Var(&seed, "seed", "the shuffle's seed (default: a fresh random one)")
	fs.BoolVar(&asJSON, "json", false, "print JSON")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case players == 0:
		return usagef("--players is required (1 to %d)", maxDealPlayers)
	case players < 1 || players > maxDealPlayers:
		return usagef("--players must be from 1 to %d, not %d", maxDealPlayers, players)
	case jokers < 0 || jokers > 2:
		return usagef("--jokers must be 0, 1 or 2")
	}
	d := deck.New(jokers)
	switch {
	case cards == 0:
		return usagef("--cards is required (1 or more)")
	case cards < 1 || cards > len(d):
		return usagef("--cards must be from 1 to %d, not %d", len(d), cards)
	case players*cards > len(d): // both are small now: no overflow
		return usagef("%d players × %d cards needs %d cards; the deck has %d", players, cards, players*cards, len(d))
	}
	s := seed.get()
	r := game.NewRand(s)
	deck.Shuffle(&r, d)
	hands, rest, err := deck.Deal(d, players, cards)
	if err != nil {
		return err
	}
	if asJSON {
		b, _ := json.Marshal(struct {
			Seed  uint64        `json:"seed"`
			Hands [][]deck.Card `json:"hands"`
			Stock []deck.Card   `json:"stock"`
		}{s, hands, rest})
		fmt.Fprintln(e.stdout, string(b))
		return nil
	}
	for i, h := range hands {
		names := make([]string, len(h))
		for j, c := range h {
			names[j] = c.String()
		}
		fmt.Fprintf(e.stdout, "Player %d: %s\n", i+1, strings.Join(names, " "))
	}
	fmt.Fprintf(e.stdout, "Left in the deck: %d cards.\nSeed %d (add --seed %d to deal the same again).\n", len(rest), s, s)
	return nil
}

func runRoll(e *env, args []string) error {
	var seed seedFlag
	var asJSON bool
	var times int
	fs := newFlags("roll", "[--times N] [--seed S] [--json] DICE...",
		"Rolls dice written like 2d6, d20, 3d6+2 or d% (several may be given). The seed is always\n"+
			"printed: the same seed gives the same rolls.", e.stdout)
	fs.IntVar(&times, "times", 1, "roll everything this many times")
	fs.Var(&seed, "seed", "the rolls' seed (default: a fresh random one)")
	fs.BoolVar(&asJSON, "json", false, "print JSON lines, one per roll")
	pos, err := parseMixed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usagef("say which dice to roll, like: tableref roll 2d6")
	}
	if times < 1 || times > 10000 {
		return usagef("--times must be from 1 to 10000")
	}
	var specs []dice.Spec
	for _, p := range pos {
		sp, err := dice.Parse(p)
		if err != nil {
			return usageError{err.Error()}
		}
		specs = append(specs, sp)
	}
	count := 0
	for _, sp := range specs {
		count += sp.N // at most dice.MaxDice each: no overflow before the check
		if count*times > maxRolls {
			return usagef("that is more than %d dice to roll at once: roll fewer, or fewer --times", maxRolls)
		}
	}
	s := seed.get()
	r := game.NewRand(s)
	for range times {
		for _, sp := range specs {
			d, total := sp.Roll(&r)
			if asJSON {
				b, _ := json.Marshal(struct {
					Dice  string `json:"dice"`
					Rolls []int  `json:"rolls"`
					Total int    `json:"total"`
					Seed  uint64 `json:"seed"`
				}{sp.String(), d, total, s})
				fmt.Fprintln(e.stdout, string(b))
				continue
			}
			fmt.Fprintf(e.stdout, "%s: %s\n", sp, describeRoll(sp, d, total))
		}
	}
	if !asJSON {
		fmt.Fprintf(e.stdout, "Seed %d (add --seed %d to roll the same again).\n", s, s)
	}
	return nil
}

func describeRoll(sp dice.Spec, d []int, total int) string {
	if len(d) == 1 && sp.Plus == 0 {
		return strconv.Itoa(total)
	}
	parts := make([]string, len(d))
	for i, v := range d {
		parts[i] = strconv.Itoa(v)
	}
	s := strings.Join(parts, " + ")
	if sp.Plus > 0 {
		s += " + " + strconv.Itoa(sp.Plus)
	} else if sp.Plus < 0 {
		s += " - " + strconv.Itoa(-sp.Plus)
	}
	return s + " = " + strconv.Itoa(total)
}
