package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/tableref/tableref/audio"
	"github.com/tableref/tableref/audio/gesture"
	"github.com/tableref/tableref/audio/mic"
	"github.com/tableref/tableref/audio/talk"
)

// Gap bounds accepted on the command line, seconds.
const (
	minGap = 0.3
	maxGap = 30.0
)

// listenFlags are the flags shared by listen and decode.
type listenFlags struct {
	wav, device string
	gap         float64
	json        bool
	verbose     bool
	levels      bool
	voices      bool
	pause       float64
	shout       float64
	micCheck    bool
	alone       bool
	calibration string // a calibration file to hear with
	saveCal     string // with micCheck: where to save what it learns
	cal         *gesture.Calibration
}

func (lf *listenFlags) register(fs interface {
	StringVar(*string, string, string, string)
	Float64Var(*float64, string, float64, string)
	BoolVar(*bool, string, bool, string)
}, live bool) {
	fs.StringVar(&lf.wav, "wav", "", "read this WAV file instead of the microphone (8/16/24/32-bit integer or 32/64-bit float, any channels, 8-192 kHz)")
	if live {
		fs.StringVar(&lf.device, "device", "", "microphone to use: its index or (part of) its name, as tableref devices lists them (default: the system's default input)")
	}
	fs.Float64Var(&lf.gap, "gap", audio.DefaultGap, "seconds of silence after the last gesture that end a code")
	fs.BoolVar(&lf.json, "json", false, "print JSON lines, one event per line, instead of the live display")
	fs.BoolVar(&lf.verbose, "v", false, "also show onsets that are not gestures (voices, glasses, noise)")
	fs.BoolVar(&lf.alone, "alone", false, "keep a gesture that no other comes within --gap of (by default it is taken back: a code has two or more)")
	fs.StringVar(&lf.calibration, "calibration", "", "hear with what the microphone check learned about this table (a file of listen --check --save-calibration)")
	if live {
		fs.BoolVar(&lf.levels, "levels", false, "with --json, also print the input level ten times a second")
		fs.BoolVar(&lf.voices, "voices", false, "the Insomnia voices timer: report pauses (the whole table silent) and shouts instead of gestures")
		fs.Float64Var(&lf.pause, "pause", talk.DefaultMinPause, "with --voices: seconds of silence that make a pause")
		fs.Float64Var(&lf.shout, "shout", talk.DefaultShoutDB, "with --voices: decibels above the room's running level that make a shout")
		fs.BoolVar(&lf.micCheck, "check", false, "check the microphone: asks for two claps then two bangs, says whether it heard them right and what is wrong with the input (exit status 1 if not)")
		fs.StringVar(&lf.saveCal, "save-calibration", "", "with --check: learn this table from the check's four gestures and save what it learned to this file (exit status 1 if it learned nothing)")
	}
}

func (lf *listenFlags) check() error {
	if lf.wav != "" && lf.device != "" {
		return usagef("use --wav or --device, not both")
	}
	if lf.micCheck && lf.voices {
		return usagef("--check checks the microphone with claps and bangs; it cannot be combined with --voices")
	}
	if lf.saveCal != "" && !lf.micCheck {
		return usagef("--save-calibration saves what the microphone check learns: it goes with --check")
	}
	if lf.calibration != "" && lf.voices {
		return usagef("--calibration is what the check learned about claps and bangs; --voices hears no gestures")
	}
	if !(lf.gap >= minGap && lf.gap <= maxGap) {
		return usagef("--gap must be between %g and %g seconds, got %g", minGap, maxGap, lf.gap)
	}
	if !lf.voices {
		return nil
	}
	if !(lf.pause >= 0.2 && lf.pause <= 60) {
		return usagef("--pause must be between 0.2 and 60 seconds, got %g", lf.pause)
	}
	if !(lf.shout >= 1 && lf.shout <= 40) {
		return usagef("--shout must be between 1 and 40 dB, got %g", lf.shout)
	}
	return nil
}

func runListen(e *env, args []string) error {
	var lf listenFlags
	fs := newFlags("listen", "[--wav FILE | --device N|NAME] [--gap SECONDS] [--calibration FILE] [--check [--save-calibration FILE]] [--voices [--pause S] [--shout DB]] [--json]",
		"Hears hand claps and flat-hand table bangs, from the default microphone or a WAV file, and groups them\n"+
			"into Woodlouse Chaos codes (a code ends after --gap seconds without a gesture). From the microphone it\n"+
			"runs until Ctrl-C, then reports the code in progress.\n\n"+
			"With --json each line is one event, for example:\n"+
			`  {"event":"onset","t":1.234,"kind":"clap"}            t: seconds from the start; kind: clap, bang or other`+"\n"+
			`  {"event":"retract","t":2.41,"kind":"bang","why":"word"}  the bang at 2.41 was the start of a word: no code counts it`+"\n"+
			`  {"event":"retract","t":9.02,"kind":"clap","why":"alone"} no other gesture came within --gap of it: a code has two or more`+"\n"+
			`  {"event":"code","start":0.8,"end":3.5,"bangs":3,"claps":4,"order":"BBCBCCC"}`+"\n"+
			"From the microphone a gesture is printed at once and a retract line may follow. From a WAV file\n"+
			"only final verdicts are printed: each gesture waits until what follows shows whether it began a\n"+
			fmt.Sprintf("word (up to %g s) or stays alone (up to --gap), and one taken back is not printed at all.\n\n", audio.WordWatch)+
			"With --check it checks the microphone: it asks for two claps then two bangs and says whether it\n"+
			"heard them right, and what is wrong with the input if anything (muted, gated by noise suppression,\n"+
			"clipping, too quiet, DC, hum, a dead or inverted channel). Exit status 1 when the check fails.\n"+
			"With --save-calibration FILE the check also learns this table, these hands and this microphone: it\n"+
			"knows the first two of the four gestures were meant as claps and the last two as bangs, even when it\n"+
			"named them wrongly, and saves what it learned (exit status 1, and no file, when it learned nothing:\n"+
			"not four gestures in a row, or four that do not sound like two claps and two bangs). --calibration\n"+
			"FILE hears with it: a sound the network takes for a gesture and that sounds like the claps or the bangs\n"+
			"of the check is named after them (when the network misnamed some of them; else nothing changes).\n\n"+
			"With --voices it follows a table of talking voices instead (the Insomnia timer): it reports every pause,\n"+
			"when the whole table is silent for --pause seconds, and every shout, a voice far louder than the\n"+
			"room's running level:\n"+
			`  {"event":"pause","start":6.44,"end":8.2,"seconds":1.76}`+"\n"+
			`  {"event":"shout","start":1.4,"end":5.0,"db":7.5}            db: the loudest it got above the room`, e.stdout)
	lf.register(fs, true)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := lf.check(); err != nil {
		return err
	}
	var out printer
	if lf.micCheck {
		chk := &checkPrinter{w: e.stdout, json: lf.json}
		if err := listen(e, lf, chk); err != nil {
			return err
		}
		if lf.saveCal != "" {
			c, say := learnTable(&chk.heard, time.Now())
			if c != nil {
				if err := writeCalibration(lf.saveCal, c); err != nil {
					return err
				}
			}
			chk.learned(c, say, lf.saveCal)
			if c == nil {
				return fmt.Errorf("the microphone check learned nothing; %s was not written", lf.saveCal)
			}
			return nil
		}
		if ok, _ := chk.verdict(); !ok {
			return fmt.Errorf("the microphone check failed: heard %q, asked for %q", chk.heard.String(), micCheckWant)
		}
		return nil
	}
	if lf.json {
		out = &jsonPrinter{w: e.stdout, levels: lf.levels, verbose: true, voices: lf.voices}
	} else {
		h := newHumanPrinter(e.stdout, lf.verbose)
		h.voices = lf.voices
		out = h
	}
	return listen(e, lf, out)
}

// listen opens the input named by the flags and runs it through a Listener
// to its end (or Ctrl-C), reporting to out.
func listen(e *env, lf listenFlags, out printer) error {
	if lf.calibration != "" {
		c, err := readCalibration(lf.calibration)
		if err != nil {
			return err
		}
		lf.cal = c
	}
	src, err := openInput(lf)
	if err != nil {
		return err
	}
	defer src.close()
	if src.note != "" {
		fmt.Fprintln(e.stderr, src.note)
	}
	out.start(src.info)

	var l interface {
		Write([]float64)
		Close()
		Position() int64
	}
	if tp, ok := out.(talkPrinter); ok && lf.voices {
		l = talk.New(src.SampleRate(), talk.Config{MinPause: lf.pause, ShoutDB: lf.shout}, tp.heard)
	} else {
		l = audio.NewListener(src.SampleRate(), listenerConfig(lf, src), func(ev audio.Event) {
			out.event(ev)
		})
	}
	done := make(chan struct{})
	defer close(done)
	stopped := make(chan struct{})
	if e.interrupt != nil {
		go func() {
			select {
			case <-e.interrupt:
				close(stopped)
				if src.info.Live {
					src.close() // unblocks a pending microphone read
				}
			case <-done:
			}
		}()
	}
	buf := make([]float64, src.block)
	for {
		select {
		case <-stopped:
			err = io.EOF
		default:
			var n int
			n, err = src.Read(buf)
			l.Write(buf[:n])
			if c, ok := out.(*checkPrinter); ok && err == nil && c.finished(l.Position()) {
				err = io.EOF
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			l.Close()
			out.end(l.Position(), src.SampleRate())
			return inputError(lf, err)
		}
	}
	l.Close()
	out.end(l.Position(), src.SampleRate())
	if src.overflows != nil {
		if n := src.overflows(); n > 0 {
			fmt.Fprintf(e.stderr, "tableref: warning: the input overflowed %d times; some audio was lost\n", n)
		}
	}
	return nil
}

// listenerConfig is the Listener's configuration for input src. A file
// has nobody waiting on it, so it gets final verdicts only (no gesture that
// is later taken back); the microphone gets every gesture at once.
func listenerConfig(lf listenFlags, src *input) audio.Config {
	// The microphone check hears gestures one by one, however slowly they
	// come: it keeps a gesture alone.
	return audio.Config{Gap: lf.gap, Channels: src.channels, Final: !src.info.Live, KeepAlone: lf.alone || lf.micCheck, Calibration: lf.cal}
}

// input is an opened audio source with what the printers need to know.
type input struct {
	audio.Source
	info      sourceInfo
	block     int // samples per read
	close     func() error
	overflows func() int
	channels  func() []audio.ChannelState // what mixing the channels down found
	note      string                      // a warning about the input, for stderr
}

// sourceInfo describes the input for the start event.
type sourceInfo struct {
	Live      bool
	File      string
	Device    string
	Rate      int
	Channels  int
	Bits      int
	Float     bool
	Seconds   float64
	LatencyMs float64
	Gap       float64
	Pause     float64
}

func openInput(lf listenFlags) (*input, error) {
	if lf.wav != "" {
		w, err := audio.OpenWAV(lf.wav)
		if err != nil {
			return nil, inputError(lf, err)
		}
		inf := w.Info()
		pre := audio.Prefetch(w, 8192, 4) // decode on the other core
		return &input{
			Source: pre,
			info: sourceInfo{File: lf.wav, Rate: inf.SampleRate, Channels: inf.Channels, Bits: inf.Bits, Float: inf.Float,
				Seconds: inf.Seconds(), Gap: lf.gap, Pause: lf.pause},
			block:    4096,
			close:    func() error { pre.Close(); return w.Close() },
			channels: w.Channels,
			note:     unsizedNote(lf.wav, inf),
		}, nil
	}
	m, err := mic.Open(mic.Options{Device: lf.device})
	if err != nil {
		return nil, inputError(lf, err)
	}
	return &input{
		Source: m,
		info: sourceInfo{Live: true, Device: m.Name(), Rate: m.SampleRate(),
			LatencyMs: float64(m.Latency().Microseconds()) / 1000, Gap: lf.gap, Pause: lf.pause},
		block:     mic.DefaultFramesPerBuffer,
		close:     sync.OnceValue(m.Close), // from Ctrl-C and from the deferred cleanup
		overflows: m.Overflows,
		channels:  m.Channels,
	}, nil
}

// unsizedNote is the warning for a WAV file whose header gave no length
// for its audio ("" for any other).
func unsizedNote(name string, inf audio.WAVInfo) string {
	if !inf.Unsized {
		return ""
	}
	return fmt.Sprintf("tableref: note: %s: its header gives no length for the audio (a recording not closed properly?); reading the %.2f s the file holds", name, inf.Seconds())
}

// inputError words an input problem for a person.
func inputError(lf listenFlags, err error) error {
	name := lf.wav
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s: no such file", name)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("%s: permission denied", name)
	case errors.Is(err, audio.ErrNotWAV), errors.Is(err, audio.ErrTruncated), errors.Is(err, audio.ErrUnsupported):
		return fmt.Errorf("%s: %v", name, err)
	case errors.Is(err, mic.ErrNoDevice) && lf.device == "":
		return errors.New("no audio input device found (is a microphone connected?); use --wav FILE to read a recording instead")
	case lf.wav != "":
		if strings.HasPrefix(err.Error(), name) {
			return err
		}
		return fmt.Errorf("%s: %v", name, err)
	}
	return err
}

// notifyInterrupt delivers Ctrl-C (SIGINT) and SIGTERM.
func notifyInterrupt() <-chan os.Signal {
	c := make(chan os.Signal, 1)
	signal.Notify(c, os.Interrupt, syscall.SIGTERM)
	return c
}
