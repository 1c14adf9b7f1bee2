package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/tableref/tableref/rules/catalog"
	"github.com/tableref/tableref/webremote/loadtest"
)

// cmdLoadtest is the loadtest command on the process's own streams and
// signals; runLoadtest is the same for the commands table.
func cmdLoadtest(args []string) error {
	return runLoadtest(&env{stdout: os.Stdout, stderr: os.Stderr, interrupt: notifyInterrupt()}, args)
}

func runLoadtest(e *env, args []string) error {
	serverGC() // as tableref serve: the in-process server is measured as it runs
	var cfg loadtest.Config
	var asJSON bool
	fs := newFlags("loadtest", "[--url URL] [--rooms N] [--clients N] [--moves N] [--game GAME] [--json]",
		"Opens many phones' websockets on a web remote server, in rooms playing legal moves, and measures\n"+
			"how long each move takes to reach every other socket of its room (p50, p99, max), the errors\n"+
			"(failed dials, closed sockets, refused moves, missing broadcasts) and, with a server started in\n"+
			"this process (no --url), the server's memory per connection. A room takes as many seats as the\n"+
			"game allows; its other sockets watch the table with the host token. A room makes one move at a\n"+
			"time, and no seat more than one per --gap (the server allows 20 requests a second per token).\n"+
			"Against a server of your own (--url), start it with tableref serve --rate-limit 0: its phones\n"+
			"all come from this machine, which may make only 100 requests a second by default.\n"+
			"Reports the moves a second and the load average as the moves began.\n"+
			"Exits 1 when there were errors. Games: "+strings.Join(catalog.IDs(), ", ")+".", e.stdout)
	fs.StringVar(&cfg.URL, "url", "", "the server, such as http://127.0.0.1:8080 (default: start one in this process)")
	fs.IntVar(&cfg.Rooms, "rooms", 20, "rooms")
	fs.IntVar(&cfg.Clients, "clients", 200, "websockets, spread over the rooms")
	fs.IntVar(&cfg.Moves, "moves", 100, "moves per room")
	fs.StringVar(&cfg.Game, "game", "woodlouse", "the game the rooms play")
	fs.StringVar(&cfg.Via, "via", "ws", "how moves are sent: ws, http or mixed")
	fs.DurationVar(&cfg.Interval, "interval", 50*time.Millisecond, "least time between two moves of a room (0: none)")
	fs.DurationVar(&cfg.MinGap, "gap", 55*time.Millisecond, "least time between two moves of a seat")
	fs.DurationVar(&cfg.Timeout, "timeout", 5*time.Second, "how long a move may take to reach a socket before it counts as missing")
	fs.Uint64Var(&cfg.Seed, "seed", 1, "seed of the moves chosen (and, in process, of the deals)")
	fs.BoolVar(&asJSON, "json", false, "print the report as JSON")
	var profile string
	fs.StringVar(&profile, "cpuprofile", "", "write a CPU profile of the moves to this file (go tool pprof reads it); in process it covers the server and the load tool both")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch {
	case cfg.Rooms < 1:
		return usagef("--rooms must be at least 1")
	case cfg.Clients < 1:
		return usagef("--clients must be at least 1")
	case cfg.Moves < 1:
		return usagef("--moves must be at least 1")
	case cfg.Interval < 0 || cfg.MinGap < 0 || cfg.Timeout <= 0:
		return usagef("--interval and --gap cannot be negative, and --timeout must be positive")
	}
	if cfg.Interval == 0 {
		cfg.Interval = -1 // loadtest's "no pause"
	}
	if cfg.MinGap == 0 {
		cfg.MinGap = time.Nanosecond
	}
	if _, err := catalog.Get(cfg.Game); err != nil {
		return usageError{err.Error()}
	}
	if g, _ := catalog.Get(cfg.Game); cfg.Clients < cfg.Rooms*g.Info().MinPlayers {
		return usagef("%d clients cannot fill %d rooms of %s (at least %d players each)", cfg.Clients, cfg.Rooms, cfg.Game, g.Info().MinPlayers)
	}

	if profile != "" {
		f, err := os.Create(profile)
		if err != nil {
			return fmt.Errorf("cpu profile: %w", err)
		}
		defer f.Close()
		cfg.CPUProfile = f
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if e.interrupt != nil {
		go func() {
			select {
			case <-e.interrupt:
				cancel()
			case <-ctx.Done():
			}
		}()
	}
	rep, err := loadtest.Run(ctx, cfg)
	if err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("interrupted after %d moves", rep.Moves)
		}
		return err
	}
	if asJSON {
		b, _ := json.Marshal(rep)
		fmt.Fprintln(e.stdout, string(b))
	} else {
		mem := "server memory not measured (not in this process)"
		if rep.InProcess {
			mem = fmt.Sprintf("server memory %.0f KiB per connection", rep.ServerBytesPerConn/1024)
		}
		fmt.Fprintf(e.stdout, "%d clients in %d rooms, %d moves, %d broadcasts: latency p50 %s p99 %s max %s, errors %d, %s\n",
			rep.Clients, rep.Rooms, rep.Moves, rep.Broadcasts, ms(rep.LatencyP50), ms(rep.LatencyP99), ms(rep.LatencyMax), rep.Errors, mem)
		load := "load average unknown"
		if l := rep.LoadAverage; len(l) == 3 {
			load = fmt.Sprintf("load average %.2f %.2f %.2f as the moves began", l[0], l[1], l[2])
		}
		fmt.Fprintf(e.stdout, "%d moves in %.2f s: %.0f moves/s; %s\n", rep.Moves, rep.Duration.Seconds(), rep.MovesPerSecond, load)
	}
	if rep.Errors > 0 {
		first, hint := "", ""
		if len(rep.ErrorSamples) > 0 {
			first = "; the first: " + rep.ErrorSamples[0]
		}
		for _, e := range rep.ErrorSamples {
			if cfg.URL != "" && strings.Contains(e, "429") {
				hint = " (the server limits the requests of one address: for a load test from one machine, start it with tableref serve --rate-limit 0)"
				break
			}
		}
		return fmt.Errorf("%d errors%s%s", rep.Errors, first, hint)
	}
	return nil
}

// ms writes a latency in milliseconds, with a decimal below 10 ms.
func ms(d time.Duration) string {
	f := float64(d) / float64(time.Millisecond)
	if f < 10 {
		return fmt.Sprintf("%.1f ms", f)
	}
	return fmt.Sprintf("%.0f ms", f)
}
