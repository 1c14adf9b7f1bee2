package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/tableref/tableref/referee/journal"
	"github.com/tableref/tableref/webremote"
)

// tableref verify JOURNAL [--seal SEAL]: replays every game of a room's
// journal from its seed and its moves, so that every shuffle, deal and roll
// is drawn again, and prints each game's seal (what the table showed at
// its start) for the players to compare with the one they saw.

const verifyAbout = `Checks that nothing was rigged in a room's games. The table shows a short seal
when a game starts (a commitment to its seed: the SHA-256 of the room's code
and the seed) and the seed itself when the game is over. verify replays every
game in the room's journal (a file NAME.journal in the --data directory of
tableref serve, or in its done/ folder) from its seed and its moves, drawing
every shuffle, deal and roll again: a move the rules refuse on the way means
the journal was changed. It prints each game with its seal and seed.

With --seal, the seal you saw on the table, the last game's seal must match
it: a journal whose seed was changed fails. The exit status is 1 when a game
does not replay or the seal does not match.`

func runVerify(e *env, args []string) error {
	fs := newFlags("verify", "JOURNAL [--seal SEAL]", verifyAbout, e.stdout)
	seal := fs.String("seal", "", "the seal the table showed when the last game began (like 3f9a-c21e-77b0-1d2e)")
	pos, err := parseMixed(fs, args)
	if err != nil {
		return err
	}
	switch len(pos) {
	case 0:
		return usagef("say which journal: tableref verify DIR/CODE.journal")
	case 1:
	default:
		return usagef("unexpected argument %q: verify one journal", pos[1])
	}
	want := strings.ToLower(strings.ReplaceAll(strings.TrimSpace(*seal), " ", ""))
	if want != "" && !sealLike(want) {
		return usagef("%q is not a seal: a seal is four groups of four hex digits, like 3f9a-c21e-77b0-1d2e", *seal)
	}
	rep, err := journal.Read(pos[0])
	if err != nil {
		return err
	}
	if rep.Damage != nil {
		return fmt.Errorf("%s is damaged at line %d (%s): run tableref journal check", pos[0], rep.Damage.Line, rep.Damage.Why)
	}
	games, verr := webremote.VerifyJournal(rep.Records)
	for _, g := range games {
		state := fmt.Sprintf("%d moves so far", g.Moves)
		if g.Over {
			state = fmt.Sprintf("%d moves, over: %s", g.Moves, g.Result)
		}
		fmt.Fprintf(e.stdout, "room %s, game %d: %s for %s; seal %s, seed %d; replayed from the seed: %s\n",
			g.Code, g.Round, g.Game, strings.Join(g.Names, ", "), g.Seal, g.Seed, state)
	}
	if verr != nil {
		return fmt.Errorf("does not replay, so the journal was changed or damaged: %w", verr)
	}
	last := games[len(games)-1]
	if want != "" && want != last.Seal {
		return errors.New("the seal does not match: the table showed " + want + " but the journal's seed gives " + last.Seal + "; the seed was changed")
	}
	if want != "" {
		fmt.Fprintln(e.stdout, "The seal matches the one the table showed: the draws follow from the seed it sealed.")
	} else {
		fmt.Fprintln(e.stdout, "Every game replays from its seed. Compare each seal with the one the table showed when the game began (or give it with --seal).")
	}
	return nil
}

// sealLike reports whether s reads as a seal: 16 hex digits in four groups.
func sealLike(s string) bool {
	parts := strings.Split(s, "-")
	if len(parts) != 4 {
		return false
	}
	for _, p := range parts {
		if len(p) != 4 || strings.Trim(p, "0123456789abcdef") != "" {
			return false
		}
	}
	return true
}
