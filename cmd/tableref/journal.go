package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/tableref/tableref/referee/journal"
	"github.com/tableref/tableref/webremote"
)

// tableref journal check DIR: the state of every room journal in a serve
// --data directory (its rooms/ folder of live journals, rooms/done and the
// copies it kept of damaged ones), without changing any of them.

const journalAbout = `Looks after the rooms' journals that tableref serve keeps in its --data
directory (one per room: every change to a room, one checksummed line each).

Commands:
  check DIR   say, for every journal in DIR/rooms and DIR/rooms/done (where
              serve keeps them), or in DIR and DIR/done, whether it is whole
              (with its room's code, game, status, records and moves), has a
              torn last line (cut off when the server resumes it) or is
              damaged at some line (the server resumes the room from the
              records before it and keeps the file whole beside it); exit
              status 1 when any is damaged

Run tableref journal check --help for more.`

// roomsDir is where tableref serve keeps the rooms' journals under its
// --data directory (webremote.Config.Data).
func roomsDir(data string) string { return filepath.Join(data, "rooms") }

func runJournal(e *env, args []string) error {
	if len(args) == 0 {
		return usagef("say what to do: tableref journal check DIR")
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		fmt.Fprintf(e.stdout, "Usage: tableref journal check DIR\n\n%s\n", journalAbout)
		return errHelp
	case "check":
		return runJournalCheck(e, args[1:])
	}
	return usagef("unknown journal command %q; the only one is check", args[0])
}

func runJournalCheck(e *env, args []string) error {
	const about = "Says, for every room journal in DIR/rooms and DIR/rooms/done (DIR being the\n" +
		"--data directory of tableref serve, which keeps them there), or in DIR and DIR/done\n" +
		"(DIR being that rooms directory), whether it is whole (ok, with its room's code,\n" +
		"game, status, number of records and moves), has a torn last line (the server cuts\n" +
		"it off and resumes the room from the records before it) or is damaged at some\n" +
		"line, and why. The copies of damaged journals the server kept\n" +
		"(NAME.journal.damaged-TIME) are listed too. Nothing is changed. The exit status\n" +
		"is 1 when a journal is damaged or holds no room the server could resume."
	fs := newFlags("journal check", "DIR", about, e.stdout)
	fs.Usage = func() { fmt.Fprintf(e.stdout, "Usage: tableref journal check DIR\n\n%s\n", about) } // no flags
	for _, a := range args {
		if a == "--" {
			break
		}
		if strings.HasPrefix(a, "-") && len(a) > 1 && !slices.Contains([]string{"-h", "-help", "--help"}, a) {
			return usagef("unknown flag %s: journal check takes none, only DIR", a)
		}
	}
	if err := parseFlagsAllowingArgs(fs, args); err != nil {
		return err
	}
	switch fs.NArg() {
	case 0:
		return usagef("say which directory: tableref journal check DIR")
	case 1:
	default:
		return usagef("unexpected argument %q: check one directory", fs.Arg(1))
	}
	dir := fs.Arg(0)
	st, err := os.Stat(dir)
	if err != nil {
		return err
	}
	if !st.IsDir() {
		return fmt.Errorf("%s is not a directory (give the --data directory of tableref serve)", dir)
	}
	// DIR is the --data directory (journals under rooms/) or, as
	// webremote.Config.Data, the rooms directory itself.
	var files []string
	subs := []string{"", "done", roomsDir(""), filepath.Join(roomsDir(""), "done")}
	for _, sub := range subs {
		ents, err := os.ReadDir(filepath.Join(dir, sub))
		if err != nil {
			if sub != "" && os.IsNotExist(err) {
				continue
			}
			return err
		}
		var names []string
		for _, ent := range ents {
			n := ent.Name()
			if ent.Type().IsRegular() && (strings.HasSuffix(n, ".journal") || strings.Contains(n, ".journal.damaged-")) {
				names = append(names, n)
			}
		}
		sort.Strings(names)
		for _, n := range names {
			files = append(files, filepath.Join(sub, n))
		}
	}
	if len(files) == 0 {
		fmt.Fprintf(e.stdout, "no journals in %s, nor in its %s, %s or %s folder\n", dir, subs[1], subs[2], subs[3])
		return nil
	}
	width := 0
	for _, f := range files {
		width = max(width, len(f))
	}
	bad := 0
	journals := 0
	for _, f := range files {
		copied := !strings.HasSuffix(f, ".journal")
		if !copied {
			journals++
		}
		line, ok := checkJournalFile(filepath.Join(dir, f), copied, filepath.Base(filepath.Dir(f)) == "done")
		if !ok {
			bad++
		}
		fmt.Fprintf(e.stdout, "%-*s  %s\n", width, f, line)
	}
	if bad > 0 {
		return fmt.Errorf("%d of the %d journals in %s cannot be resumed whole", bad, journals, dir)
	}
	return nil
}

// checkJournalFile is one journal's line of the report, and false when it
// is damaged or holds no room (a kept copy of a damaged journal is always
// fine: the server made it and resumed the room without it). A retired one
// (done) is never resumed.
// resumesBefore ends the line of a live journal damaged at some line.
const resumesBefore = "; the server resumes the room from there and keeps the whole file beside it"

func checkJournalFile(path string, copied, done bool) (string, bool) {
	rep, err := journal.Read(path)
	if err != nil {
		return "cannot read it: " + oneLine(err), copied
	}
	if copied {
		if rep.Damage != nil {
			return fmt.Sprintf("the whole of a journal damaged at line %d (%s), kept by the server when it resumed the room from the records before that line", rep.Damage.Line, rep.Damage.Why), true
		}
		return "the whole of a damaged journal, kept by the server", true
	}
	sum, serr := webremote.CheckJournal(rep.Records)
	switch {
	case rep.Damage != nil:
		s := fmt.Sprintf("DAMAGED at line %d (%s)", rep.Damage.Line, rep.Damage.Why)
		switch {
		case done && serr != nil:
			return s + fmt.Sprintf("; the %d records before it make no room (%s)", len(rep.Records), oneLine(serr)), false
		case done:
			return s + "; before it: " + describeJournal(sum, len(rep.Records)), false
		case serr != nil:
			return s + fmt.Sprintf("; the %d records before it make no room (%s): the server cannot resume it and leaves it as it is", len(rep.Records), oneLine(serr)), false
		}
		return s + "; before it: " + describeJournal(sum, len(rep.Records)) + resumesBefore, false
	case serr != nil:
		return fmt.Sprintf("CANNOT BE RESUMED: %s (%d records)", oneLine(serr), len(rep.Records)), false
	case sum.Misplaced > 0:
		s := fmt.Sprintf("DAMAGED at line %d (%s); before it: %s", sum.Misplaced, sum.Why, describeJournal(sum, sum.Misplaced-1))
		if done {
			return s, false
		}
		return s + resumesBefore, false
	case rep.Torn:
		return fmt.Sprintf("torn last line (line %d, cut off when the server resumes it); before it: %s", rep.Lines, describeJournal(sum, len(rep.Records))), true
	}
	return "ok: " + describeJournal(sum, len(rep.Records)), true
}

func describeJournal(sum webremote.JournalSummary, records int) string {
	return fmt.Sprintf("room %s, %s, %s, %s, %s", sum.Code, sum.Game, sum.Status, plural(records, "record"), plural(sum.Moves, "move"))
}
