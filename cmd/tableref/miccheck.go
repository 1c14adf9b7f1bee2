package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/tableref/tableref/audio"
	"github.com/tableref/tableref/audio/gesture"
)

// The microphone check asks for two claps, then two bangs, and says whether
// it heard them right.
const (
	micCheckWant = "CCBB"
	// micCheckSeconds is how long a live check waits for the four gestures.
	micCheckSeconds = 20.0
	// micCheckSettle is how long after the fourth gesture the check waits
	// for a fifth it may have missed the start of.
	micCheckSettle = 0.6
)

// checkPrinter runs the microphone check over the events of a listen.
type checkPrinter struct {
	w        io.Writer
	json     bool
	live     bool
	rate     int
	heard    checkGestures
	last     float64 // time of the last gesture
	problems []audio.MicProblem
	told     map[string]bool
}

type jsonCheck struct {
	Event    string        `json:"event"`
	OK       bool          `json:"ok"`
	Heard    string        `json:"heard"`
	Want     string        `json:"want"`
	Say      string        `json:"say"`
	Problems []jsonProblem `json:"problems"`
}

func (p *checkPrinter) start(s sourceInfo) {
	p.rate, p.live = s.Rate, s.Live
	if p.json {
		return
	}
	src := s.Device
	if !s.Live {
		src = s.File
	}
	fmt.Fprintf(p.w, "Microphone check on %s.\n", src)
	fmt.Fprintln(p.w, "Clap twice, then bang the table twice with a flat hand, about half a second apart.")
}

func (p *checkPrinter) event(ev audio.Event) {
	switch e := ev.(type) {
	case *audio.Onset:
		if !e.Kind.IsGesture() {
			return
		}
		p.heard.add(e.Kind.Letter(), e.Time, e.Features, e.Band)
		p.last = e.Time
		if !p.json {
			fmt.Fprintf(p.w, "  heard a %s\n", e.Kind)
		}
	case *audio.Retract:
		if p.heard.retract(e.Time) && !p.json {
			fmt.Fprintf(p.w, "  (that %s was a word, not counted)\n", e.Kind) // the check keeps a gesture alone
		}
	case *audio.Mic:
		p.problems = e.Problems
		if p.json {
			return
		}
		if len(e.Problems) == 0 && len(p.told) > 0 {
			fmt.Fprintln(p.w, "  microphone: fine now")
		}
		if p.told == nil || len(e.Problems) == 0 {
			p.told = map[string]bool{}
		}
		for _, q := range e.Problems {
			if !p.told[q.Kind] {
				fmt.Fprintf(p.w, "  microphone: %s\n", q.Say)
				p.told[q.Kind] = true
			}
		}
	}
}

// checkGestures is what a microphone check has heard: a letter per gesture
// (C a clap, B a bang) with its input time, so that a gesture taken back
// (the start of a word) can leave it, and what the listener measured of it
// in which band, for the check to learn the table from (learnTable).
type checkGestures struct {
	letters []byte
	times   []float64
	feats   []gesture.Features
	bands   []gesture.Band
}

func (g *checkGestures) add(letter byte, t float64, f gesture.Features, b gesture.Band) {
	g.letters = append(g.letters, letter)
	g.times = append(g.times, t)
	g.feats = append(g.feats, f)
	g.bands = append(g.bands, b)
}

// retract forgets the gesture heard at input time t and reports whether
// there was one.
func (g *checkGestures) retract(t float64) bool {
	i := slices.Index(g.times, t)
	if i < 0 {
		return false
	}
	g.letters = slices.Delete(g.letters, i, i+1)
	g.times = slices.Delete(g.times, i, i+1)
	g.feats = slices.Delete(g.feats, i, i+1)
	g.bands = slices.Delete(g.bands, i, i+1)
	return true
}

func (g *checkGestures) String() string { return string(g.letters) }

// finished reports whether the check has what it needs at position pos
// (samples heard): four gestures and a moment after them, or, live, the
// time it waits.
func (p *checkPrinter) finished(pos int64) bool {
	t := float64(pos) / float64(max(p.rate, 1))
	if micCheckHeard(len(p.heard.letters), t-p.last) {
		return true
	}
	return p.live && t >= micCheckSeconds
}

// micCheckHeard reports whether a check that heard n gestures, the last
// sinceLast seconds ago, has what it asked for: the four, and a moment
// after them for a fifth it may have missed the start of.
func micCheckHeard(n int, sinceLast float64) bool {
	return n >= len(micCheckWant) && sinceLast >= micCheckSettle
}

// verdict says how the check went.
func (p *checkPrinter) verdict() (ok bool, say string) { return micVerdict(p.heard.String()) }

// micVerdict says how a check that heard heard ("CCBB": C a clap, B a bang)
// went, and what to do about it.
func micVerdict(heard string) (ok bool, say string) {
	names := func(s string) string {
		var w []string
		for _, c := range s {
			if c == 'B' {
				w = append(w, "bang")
			} else {
				w = append(w, "clap")
			}
		}
		return strings.Join(w, ", ")
	}
	switch {
	case heard == micCheckWant:
		return true, "All right: heard clap, clap, bang, bang. The microphone hears the table."
	case heard == "":
		return false, "Heard no clap and no bang. Is the right microphone chosen (tableref devices lists them), and is it on?"
	case len(heard) < len(micCheckWant):
		return false, fmt.Sprintf("Heard only %s (asked for clap, clap, bang, bang): some were missed. Clap and bang a little louder, or put the microphone nearer the table, and try again.", names(heard))
	case len(heard) > len(micCheckWant):
		return false, fmt.Sprintf("Heard %s (asked for clap, clap, bang, bang): more than was made. Something else sounded like a gesture (voices, glasses, music); try again when the room is quieter.", names(heard))
	}
	return false, fmt.Sprintf("Heard %s (asked for clap, clap, bang, bang): a clap was taken for a bang or the other way round. Clap with cupped hands in the air, bang flat on the table, and try again.", names(heard))
}

// jsonCalibration is what the check learned, with --save-calibration.
type jsonCalibration struct {
	Event         string `json:"event"`
	Learned       bool   `json:"learned"` // a calibration was learned and saved
	File          string `json:"file"`
	Teaches       bool   `json:"teaches"` // it corrects the network for this table
	Claps         int    `json:"claps"`
	Bangs         int    `json:"bangs"`
	MisnamedClaps int    `json:"misnamed_claps"` // taught claps the network takes for bangs
	MisnamedBangs int    `json:"misnamed_bangs"`
	Say           string `json:"say"`
}

// learned says what the check learned (c, nil when nothing; say tells it)
// and where it was saved.
func (p *checkPrinter) learned(c *gesture.Calibration, say, file string) {
	if !p.json {
		if c != nil {
			say += " Saved to " + file + "."
		}
		fmt.Fprintln(p.w, say)
		return
	}
	j := jsonCalibration{Event: "calibration", Learned: c != nil, File: file, Say: say}
	if c != nil {
		j.Teaches = c.Teaches()
		j.Claps, j.Bangs = c.Taught()
		j.MisnamedClaps, j.MisnamedBangs = c.Misnamed()
	}
	b, _ := json.Marshal(j)
	p.w.Write(append(b, '\n'))
}

func (p *checkPrinter) end(samples int64, rate int) {
	ok, say := p.verdict()
	if p.json {
		j := jsonCheck{Event: "check", OK: ok, Heard: p.heard.String(), Want: micCheckWant, Say: say, Problems: []jsonProblem{}}
		for _, q := range p.problems {
			j.Problems = append(j.Problems, jsonProblem(q))
		}
		b, _ := json.Marshal(j)
		p.w.Write(append(b, '\n'))
		return
	}
	fmt.Fprintln(p.w, say)
	if !ok && len(p.problems) > 0 {
		fmt.Fprintln(p.w, "What may be wrong with the microphone:")
		for _, q := range p.problems {
			fmt.Fprintf(p.w, "  - %s\n", q.Say)
		}
	}
}
