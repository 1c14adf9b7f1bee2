// Command tableref referees physical party games: it hears claps and bangs on
// the table, decodes Woodlouse Chaos trainer codes, follows Insomnia's
// voices, knows the rules of seven games (and simulates them), deals and
// rolls from printed seeds, and serves each game to the players' phones as
// private hands (tableref serve), with timers, sounds and nothing lost.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// command is one subcommand of the binary.
type command struct {
	name    string
	summary string
	run     func(env *env, args []string) error
}

// env is what a command may touch: its streams and the process's signals.
type env struct {
	stdout, stderr io.Writer
	interrupt      <-chan os.Signal // closed or signalled on Ctrl-C; nil when not wired
}

var commands = []command{
	{"listen", "hear claps and bangs from the microphone or a WAV file", runListen},
	{"decode", "decode the Woodlouse Chaos codes in a recording into cards", runDecode},
	{"devices", "list the audio input devices", runDevices},
	{"deal", "shuffle a 52-card deck and deal hands, from a printed seed", runDeal},
	{"roll", "roll dice such as 2d6 or d20+3, from a printed seed", runRoll},
	{"games", "list the games, with their variants and options", runGames},
	{"simulate", "play many games with bots and print the outcome statistics", runSimulate},
	{"sound", "play the referee's sounds (and spoken announcements) to check the speakers", runSound},
	{"serve", "serve the web remote: rooms on the table's screen, hands on the players' phones", runServe},
	{"loadtest", "open many phones' websockets on a web remote server and measure its broadcasts", runLoadtest},
	{"journal", "check the rooms' journals in a serve --data directory (journal check DIR)", runJournal},
	{"verify", "replay a room's games from their sealed seeds: nothing was rigged mid-game", runVerify},
}

// usageError is a mistake in how the command was called: exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return usageError{fmt.Sprintf(format, a...)} }

// errHelp asks for help to be printed with a zero exit status.
var errHelp = flag.ErrHelp

func main() {
	e := &env{stdout: os.Stdout, stderr: os.Stderr, interrupt: notifyInterrupt()}
	os.Exit(run(e, os.Args[1:]))
}

// run executes one command line and returns the exit status: 0 success,
// 1 failure, 2 bad usage. Errors are printed as one line on stderr.
func run(e *env, args []string) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" || args[0] == "-help" {
		if len(args) > 1 {
			return run(e, []string{args[1], "--help"})
		}
		printUsage(e.stdout)
		return 0
	}
	for _, c := range commands {
		if c.name != args[0] {
			continue
		}
		err := c.run(e, args[1:])
		var ue usageError
		switch {
		case err == nil:
			return 0
		case errors.Is(err, errHelp):
			return 0
		case errors.As(err, &ue):
			fmt.Fprintf(e.stderr, "tableref %s: %s (see tableref %s --help)\n", c.name, oneLine(err), c.name)
			return 2
		default:
			fmt.Fprintf(e.stderr, "tableref %s: %s\n", c.name, oneLine(err))
			return 1
		}
	}
	fmt.Fprintf(e.stderr, "tableref: unknown command %q; commands: %s (see tableref --help)\n", args[0], commandNames())
	return 2
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "tableref referees party games played around a real table.")
	fmt.Fprintln(w, "\nUsage: tableref COMMAND [flags]\n\nCommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun tableref COMMAND --help for a command's flags.")
}

func commandNames() string {
	names := make([]string, len(commands))
	for i, c := range commands {
		names[i] = c.name
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// oneLine keeps an error message on a single line.
func oneLine(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}

// newFlags makes a flag set for a command whose usage text goes to w and
// whose parse errors come back as usage errors.
func newFlags(name, synopsis, about string, w io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {
		fmt.Fprintf(w, "Usage: tableref %s %s\n\n%s\n\nFlags:\n", name, synopsis, about)
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
	return fs
}

// parseFlags parses args, printing help on -h and turning other problems
// into usage errors. Stray positional arguments are refused.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := parseFlagsAllowingArgs(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	return nil
}
