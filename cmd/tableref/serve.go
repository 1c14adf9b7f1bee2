package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/mdp/qrterminal/v3"

	"github.com/tableref/tableref/audio"
	"github.com/tableref/tableref/audio/gesture"
	"github.com/tableref/tableref/audio/mic"
	"github.com/tableref/tableref/audio/sound"
	"github.com/tableref/tableref/audio/talk"
	"github.com/tableref/tableref/referee/hearing"
	"github.com/tableref/tableref/referee/journal"
	"github.com/tableref/tableref/rules/catalog"
	"github.com/tableref/tableref/rules/game"
	"github.com/tableref/tableref/webremote"
)

func runServe(e *env, args []string) error {
	serverGC()
	var port int
	var host, data, device, wav, calFile string
	var noMic, quiet bool
	var pause, shout float64
	var idleDone, idleAny time.Duration
	var gameID, variant string
	var players int
	opts := optionsFlag{}
	fs := newFlags("serve", "[--game G [--players N] [--variant V] [--option NAME=VALUE]...] [--port P] [--host ADDR] [--data DIR] [--device D | --wav FILE | --no-mic] [--calibration FILE] [--pause S] [--shout DB] [--quiet] [--idle-done D] [--idle-any D] [--rate-limit N]",
		"Serves the web remote on the home network: open the printed address on the table's screen\n"+
			"(or scan its QR code) to create a room for a game; players join by scanning the room's code\n"+
			"with their phones, which become their private hands. Every room created prints its code and a\n"+
			"QR code of its join address here. Ctrl-C stops the server.\n\n"+
			"The microphone serves the latest room of a game that listens ("+listeningGames()+"; after a\n"+
			"restart, the game under way): it hears a trainer's bangs and claps (a completed code that fits\n"+
			"a card becomes the trainer's move; one that fits none is shown, to be repeated or entered on\n"+
			"the phone) and the voices' pauses and shouts (--pause, --shout), and the table screen shows\n"+
			"what it hears. What it hears while the referee's own sounds play does not count. Without a\n"+
			"microphone (--no-mic):\n"+noMicLines()+
			"The speakers ring the alarms and, when espeak-ng is installed, say the headlines.\n\n"+
			"The microphone check (two claps, then two bangs, from the table screen) also teaches the referee\n"+
			"this table, these hands and this microphone. When a game that hears gestures starts and nothing\n"+
			"has been learned yet, the table screen offers it (the host may skip it; the game goes on either\n"+
			"way). What it learns holds until the server stops and is kept in the --data folder, so that a\n"+
			"restart within "+fmt.Sprint(calibrationNight.Hours())+" hours keeps it; --calibration FILE hears with a calibration saved by\n"+
			"listen --check --save-calibration instead.\n\n"+
			"--wav is a demo of the hearing: the recording plays as the microphone once the game starts,\n"+
			"and its codes were not made for the cards drawn, so they are mostly judged wrong codes.", e.stdout)
	fs.StringVar(&gameID, "game", "", "open a room for this game at once (see tableref games; deck: the dealer for any card game)")
	fs.IntVar(&players, "players", 0, "with --game: the number of players (default: up to the game's most)")
	fs.StringVar(&variant, "variant", "", "with --game: the variant")
	fs.Var(opts, "option", "with --game: a game option as name=value (repeatable)")
	fs.IntVar(&port, "port", 8080, "the TCP port (0 picks a free one)")
	fs.StringVar(&host, "host", "0.0.0.0", "the address to listen on (0.0.0.0: every interface)")
	fs.StringVar(&data, "data", "", "where rooms are kept, to resume them after a restart (default $XDG_STATE_HOME/tableref or ~/.local/state/tableref)")
	fs.StringVar(&device, "device", "", "the microphone: its index or (part of) its name, as tableref devices lists them (default: the system's)")
	fs.StringVar(&wav, "wav", "", "play this recording as the microphone, in real time, once a "+listeningGames()+" game starts (for demos and tests)")
	fs.BoolVar(&noMic, "no-mic", false, "do not listen"+noMicMeans(""))
	fs.StringVar(&calFile, "calibration", "", "hear with what the microphone check learned about this table (a file of listen --check --save-calibration); the table screen then offers no check")
	fs.BoolVar(&quiet, "quiet", false, "no sounds and no spoken announcements")
	fs.Float64Var(&pause, "pause", talk.DefaultMinPause, "the voices timer: seconds of silence that make a pause")
	fs.Float64Var(&shout, "shout", talk.DefaultShoutDB, "the voices timer: decibels above the room's running level that make a shout")
	fs.DurationVar(&idleDone, "idle-done", 6*time.Hour, "close a lobby or a finished game nobody has changed for this long (0: never)")
	fs.DurationVar(&idleAny, "idle-any", 72*time.Hour, "close any room nobody has changed for this long, a game left half-played too (0: never)")
	var rateLimit int
	fs.IntVar(&rateLimit, "rate-limit", 20, "requests a second one address may make (this machine: 5 times as many); 0 lifts every limit by address, for a load test (tableref loadtest --url) from one machine")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	// The same checks as listen --voices.
	if err := (&listenFlags{voices: true, gap: audio.DefaultGap, pause: pause, shout: shout}).check(); err != nil {
		return err
	}
	if noMic && (device != "" || wav != "") {
		return usagef("--no-mic cannot go with --device or --wav")
	}
	if device != "" && wav != "" {
		return usagef("use --device or --wav, not both")
	}
	if noMic && calFile != "" {
		return usagef("--calibration is for the microphone; it cannot go with --no-mic")
	}
	var cal *gesture.Calibration
	if calFile != "" {
		c, err := readCalibration(calFile)
		if err != nil {
			return err
		}
		cal = c
	}
	if wav != "" {
		if _, err := audio.OpenWAV(wav); err != nil {
			return inputError(listenFlags{wav: wav}, err)
		}
	}
	if gameID == "" && (players != 0 || variant != "" || len(opts) > 0) {
		return usagef("--players, --variant and --option go with --game")
	}
	if gameID != "" {
		// Check the game and its settings before anything starts.
		g, err := catalog.Get(gameID)
		if err != nil {
			return usageError{err.Error()}
		}
		n := players
		if n == 0 {
			n = g.Info().MinPlayers
		}
		if _, _, err := g.Info().Resolve(game.Config{Players: n, Variant: variant, Options: opts}); err != nil {
			return usageError{err.Error()}
		}
	}
	if rateLimit < 0 {
		return usagef("--rate-limit is a number of requests a second, 0 for no limit, not %d", rateLimit)
	}
	if rateLimit == 0 {
		rateLimit = -1 // webremote's "no limits by address"
	}
	if idleDone < 0 || idleAny < 0 {
		return usagef("--idle-done and --idle-any are durations like 6h or 90m (0: never)")
	}
	if port < 0 || port > 65535 {
		return usagef("--port must be from 0 to 65535, not %d", port)
	}
	if data == "" {
		d, err := stateDir()
		if err != nil {
			return err
		}
		data = d
	}
	if err := os.MkdirAll(data, 0o755); err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("cannot create the data directory %s: %v", data, err)
	}

	ln, err := net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(port)))
	if err != nil {
		if errors.Is(err, syscall.EADDRINUSE) {
			return fmt.Errorf("port %d is in use (try --port %d)", port, port+1)
		}
		if errors.Is(err, syscall.EACCES) {
			return fmt.Errorf("no permission to listen on port %d (try --port 8080)", port)
		}
		return fmt.Errorf("cannot listen on %s port %d: %v", host, port, listenReason(err))
	}
	actual := ln.Addr().(*net.TCPAddr).Port
	base := "http://" + net.JoinHostPort(publicHost(host), strconv.Itoa(actual))

	out := &lockedWriter{w: e.stdout}
	never := func(d time.Duration) time.Duration { // for webremote, 0 is its default and a negative limit never
		if d == 0 {
			return -1
		}
		return d
	}
	srv := webremote.New(webremote.Config{PublicURL: base, Log: out, Data: roomsDir(data),
		IdleDone: never(idleDone), IdleAny: never(idleAny), RateLimit: rateLimit})
	var player sound.Player = sound.Silent{}
	if !quiet {
		if sp, err := mic.OpenSpeaker(); err == nil {
			player = sp
			defer sp.Close()
			if !sp.CanSpeak() {
				out.printf("Announcements are shown on the table screen (install espeak-ng to hear them).\n")
			}
		} else {
			out.printf("No speakers (%v): alarms and announcements are shown on the table screen only.\n", oneLine(err))
		}
	}
	p := &party{srv: srv, player: player, log: out.printf, done: make(chan struct{}), talking: true, cal: cal}
	if !noMic {
		p.calPath = filepath.Join(data, calibrationFile)
		if cal == nil {
			p.cal = tonightsCalibration(p.calPath, time.Now(), out.printf)
		}
	}
	var ears *hearing.Ears
	defer func() {
		close(p.done) // first: a recording waiting for a game gives up
		if ears != nil {
			ears.Close()
		}
	}()
	p.attach() // what happened as the rooms were resumed is announced now
	go p.watch(200 * time.Millisecond)
	// A room resumed after a restart is heard at once, as it was before.
	adopted, resumedAudio := p.adopt(journal.Dir(roomsDir(data)).Modified)
	if resumedAudio && !noMic {
		out.printf("The microphone serves the resumed room %s (%s).\n", adopted, srv.GameOf(adopted))
	}
	var waiting string // what the recording waits for, said last
	if !noMic {
		open := hearing.Microphone(device)
		if wav != "" {
			// A recording starts when a game that listens starts, so that
			// nothing in it is played to an empty room; the screens say
			// it is waiting.
			open = p.afterStart(hearing.Recording(wav))
			p.setMic(hearing.Status{Listening: true, Input: wav, Message: "the recording " + filepath.Base(wav) + " plays as the microphone once the game starts"})
			switch {
			case resumedAudio && srv.Playing(adopted):
				waiting = fmt.Sprintf("The recording %s plays now as the microphone of room %s.\n", wav, adopted)
			case gameID != "" && listens(gameID):
				waiting = fmt.Sprintf("The recording %s will play as the microphone once the host starts the game.\n", wav)
			default:
				waiting = fmt.Sprintf("The recording %s will play as the microphone once a %s game starts.\n", wav, listeningGames())
			}
		}
		cfg := hearing.Config{MinPause: pause, ShoutDB: shout, Calibration: p.cal}
		if a, ok := player.(interface{ OnAir() *sound.OnAir }); ok && wav == "" {
			// The microphone hears the speakers too: what it hears while
			// the referee's own sound is in the air is not the table's.
			cfg.Deaf = a.OnAir().During
		}
		ears = hearing.Start(open, cfg, p.heard)
		p.teach = ears.SetCalibration
	} else {
		// The pages say what that means for their game; guests never see
		// the command line's flags.
		p.setMic(hearing.Status{Message: "the referee is not listening to the table"})
		out.printf("Not listening (--no-mic)%s.\n", noMicMeans(gameID))
	}
	srv.OnRoom(func(code, joinURL string) {
		if in, _ := srv.InfoOf(code); in.Hears.Listens() {
			p.listenFor(code)
		}
		var b bytes.Buffer
		fmt.Fprintf(&b, "\nRoom %s: players join at %s\n", code, joinURL)
		qrterminal.GenerateHalfBlock(joinURL, qrterminal.L, &b)
		_, _ = out.Write(b.Bytes())
	})

	printResumed(out, srv.Rooms(), gameID == "")

	if gameID != "" {
		code, hostTok, _, err := srv.CreateRoom(gameID, players, variant, opts)
		if err != nil {
			return err
		}
		out.printf("Open the table screen of room %s at %s/t/%s#host=%s\n", code, base, code, hostTok)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "tableref is serving the web remote at %s/\n", base)
	fmt.Fprintf(&b, "Open it on the table's screen, or scan:\n")
	qrterminal.GenerateHalfBlock(base+"/", qrterminal.L, &b)
	b.WriteString(waiting)
	fmt.Fprintf(&b, "Press Ctrl-C to stop.\n")
	_, _ = out.Write(b.Bytes())

	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return fmt.Errorf("serving: %v", err)
	case <-e.interrupt: // nil when not wired: wait for the server alone
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil {
		return fmt.Errorf("stopping: %v", err)
	}
	out.printf("Stopped.\n")
	return nil
}

// calibrationFile is where serve keeps what the microphone check learned,
// in the --data folder.
const calibrationFile = "calibration.json"

// calibrationNight is how long what the check learned is kept: a restart
// the same night keeps it; another night is another table, perhaps.
const calibrationNight = 12 * time.Hour

// tonightsCalibration is the calibration serve saved at path, when it was
// learned less than calibrationNight before now (nil otherwise); it says
// what it found.
func tonightsCalibration(path string, now time.Time, say func(string, ...any)) *gesture.Calibration {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	c, err := readCalibration(path)
	switch {
	case err != nil:
		say("Not using what the microphone check learned last (%v); the table screen offers the check again.\n", err)
		return nil
	case c.Learned.IsZero():
		say("What the microphone check learned (%s) says not when; the table screen offers the check again.\n", path)
		return nil
	case now.Sub(c.Learned) > calibrationNight || c.Learned.After(now.Add(time.Hour)):
		say("What the microphone check learned at %s is from another night; the table screen offers the check again.\n", c.Learned.Local().Format("2006-01-02 15:04"))
		return nil
	}
	say("Hearing the table as the microphone check taught it at %s (%s).\n", c.Learned.Local().Format("15:04"), path)
	return c
}

// noMicMeans says what not listening means for the game of --game (for
// every game that listens when there is none), as the games declare it.
func noMicMeans(gameID string) string {
	if gameID != "" {
		if w := gameInfo(gameID).Hears.WithoutMic; w != "" {
			return ": " + w
		}
		return "" // the microphone serves no other game
	}
	var parts []string
	for _, in := range listeningInfos() {
		parts = append(parts, "in "+in.Name+" "+in.Hears.WithoutMic)
	}
	if len(parts) == 0 {
		return ""
	}
	if n := len(parts); n > 1 {
		parts[n-1] = "and " + parts[n-1]
	}
	return ": " + strings.Join(parts, "; ")
}

// noMicLines says, a line for each game that listens, what it loses
// without a microphone: "  Insomnia: the voices' pauses ... itself.".
func noMicLines() string {
	var b strings.Builder
	for _, in := range listeningInfos() {
		fmt.Fprintf(&b, "  %s: %s.\n", in.Name, in.Hears.WithoutMic)
	}
	return b.String()
}

// printResumed prints where to find the rooms resumed from the data
// directory, as a room created now is printed: one room with the QR code
// of its join address when qr is true, several (or with qr false) as a
// list of addresses, so that one QR code at most is printed for them.
func printResumed(w io.Writer, rooms []webremote.RoomSummary, qr bool) {
	var b bytes.Buffer
	switch {
	case len(rooms) == 0:
		return
	case len(rooms) == 1 && qr:
		r := rooms[0]
		fmt.Fprintf(&b, "\nRoom %s (%s, %s), resumed: players join at %s\n", r.Code, r.Game, r.Status, r.JoinURL)
		qrterminal.GenerateHalfBlock(r.JoinURL, qrterminal.L, &b)
		fmt.Fprintf(&b, "Its table screen: %s\n", r.TableURL)
	default:
		fmt.Fprintf(&b, "\nResumed rooms (players join at the first address; the second is the table screen):\n")
		for _, r := range rooms {
			fmt.Fprintf(&b, "  %s  %-22s %s  %s\n", r.Code, r.Game+", "+r.Status, r.JoinURL, r.TableURL)
		}
	}
	_, _ = w.Write(b.Bytes())
}

// stateDir is where tableref keeps its state: $XDG_STATE_HOME/tableref or
// ~/.local/state/tableref.
func stateDir() (string, error) {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "tableref"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", errors.New("no home directory for the data; give one with --data DIR")
	}
	return filepath.Join(home, ".local", "state", "tableref"), nil
}

// publicHost is the host phones should use: the listening address, or for
// a wildcard one the machine's first LAN IPv4 address (localhost if none).
func publicHost(listen string) string {
	ip := net.ParseIP(listen)
	if listen != "" && (ip == nil || !ip.IsUnspecified()) {
		return listen
	}
	if lan := lanIPv4(); lan != "" {
		return lan
	}
	return "localhost"
}

// lanIPv4 is the first non-loopback IPv4 address of an interface that is up.
func lanIPv4() string {
	ifaces, err := net.Interfaces()
	if err != nil {
		return ""
	}
	for _, ifc := range ifaces {
		if ifc.Flags&net.FlagUp == 0 || ifc.Flags&net.FlagLoopback != 0 {
			continue
		}
		addrs, err := ifc.Addrs()
		if err != nil {
			continue
		}
		for _, a := range addrs {
			if n, ok := a.(*net.IPNet); ok {
				if v4 := n.IP.To4(); v4 != nil && !v4.IsLoopback() && !v4.IsLinkLocalUnicast() {
					return v4.String()
				}
			}
		}
	}
	return ""
}

// listenReason is the innermost cause of a listen error, without the
// "listen tcp …:" prefix.
func listenReason(err error) string {
	var op *net.OpError
	if errors.As(err, &op) && op.Err != nil {
		return op.Err.Error()
	}
	return err.Error()
}

// lockedWriter serialises the server's log lines and the room QR codes.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lockedWriter) printf(format string, a ...any) { fmt.Fprintf(l, format, a...) }

// serverGC lets the heap grow to three times what is live before the
// garbage collector runs again (GOGC=200 rather than Go's 100), unless the
// GOGC variable says otherwise. A party server's live heap is small (about
// 34 KiB a phone), and its moves allocate a few tens of KB each (the states
// sent): collecting half as often leaves them 5 to 10 % more of the CPU
// (tableref loadtest), for a few MB more of memory.
func serverGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(200)
	}
}
