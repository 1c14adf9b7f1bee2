package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"github.com/tableref/tableref/audio"
	"github.com/tableref/tableref/rules/woodlouse"
)

// printer reports a listening session.
type printer interface {
	start(sourceInfo)
	event(audio.Event)
	end(samples int64, rate int)
}

// round4 keeps JSON numbers short: 0.1 ms is finer than any timing here.
func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }

func round1(x float64) float64 { return math.Round(x*10) / 10 }

// JSON lines. Field names are part of the command-line contract.
type (
	jsonStart struct {
		Event     string  `json:"event"`
		Source    string  `json:"source"`
		File      string  `json:"file,omitempty"`
		Device    string  `json:"device,omitempty"`
		Rate      int     `json:"rate"`
		Channels  int     `json:"channels,omitempty"`
		Bits      int     `json:"bits,omitempty"`
		Seconds   float64 `json:"seconds,omitempty"`
		LatencyMs float64 `json:"latency_ms,omitempty"`
		Gap       float64 `json:"gap"`
	}
	jsonOnset struct {
		Event    string  `json:"event"`
		T        float64 `json:"t"`
		Kind     string  `json:"kind"`
		Strength float64 `json:"strength"`
		Level    float64 `json:"level"`
		At       float64 `json:"at"`
	}
	jsonCode struct {
		Event   string  `json:"event"`
		Start   float64 `json:"start"`
		End     float64 `json:"end"`
		Bangs   int     `json:"bangs"`
		Claps   int     `json:"claps"`
		Order   string  `json:"order"`
		At      float64 `json:"at"`
		Card    string  `json:"card,omitempty"`
		Species string  `json:"species,omitempty"`
		Count   int     `json:"count,omitempty"`
		Error   string  `json:"error,omitempty"`
	}
	jsonRetract struct {
		Event string  `json:"event"`
		T     float64 `json:"t"`
		Kind  string  `json:"kind"`
		Why   string  `json:"why"` // "word" or "alone"
		At    float64 `json:"at"`
	}
	jsonTalk struct {
		Event string   `json:"event"`
		Start float64  `json:"start"`
		End   *float64 `json:"end,omitempty"`
		At    float64  `json:"at"`
	}
	jsonLevel struct {
		Event string  `json:"event"`
		T     float64 `json:"t"`
		RMS   float64 `json:"rms"`
		Peak  float64 `json:"peak"`
	}
	jsonMic struct {
		Event    string        `json:"event"`
		T        float64       `json:"t"`
		Problems []jsonProblem `json:"problems"`
	}
	jsonProblem struct {
		Kind string `json:"kind"`
		Say  string `json:"say"`
	}
	jsonEnd struct {
		Event    string  `json:"event"`
		T        float64 `json:"t"`
		Onsets   int     `json:"onsets"`
		Gestures int     `json:"gestures"`
		Codes    int     `json:"codes"`
	}
)

// jsonPrinter writes one JSON object per line.
type jsonPrinter struct {
	w       io.Writer
	levels  bool
	verbose bool // include onsets of kind other
	order   woodlouse.Order
	rate    int
	counts  tally
	voices  bool // the Insomnia voices timer, not gestures
	pauses  int
	shouts  int
	frames  int
}

type tally struct{ onsets, gestures, codes int }

func (c *tally) add(ev audio.Event) {
	switch e := ev.(type) {
	case *audio.Onset:
		c.onsets++
		if e.Kind.IsGesture() {
			c.gestures++
		}
	case *audio.Retract:
		c.gestures--
	case *audio.Code:
		c.codes++
	}
}

func (p *jsonPrinter) put(v any) {
	b, _ := json.Marshal(v)
	b = append(b, '\n')
	p.w.Write(b)
}

func (p *jsonPrinter) start(s sourceInfo) {
	p.rate = s.Rate
	src := "wav"
	if s.Live {
		src = "microphone"
	}
	p.put(jsonStart{"start", src, s.File, s.Device, s.Rate, s.Channels, s.Bits, round4(s.Seconds), round1(s.LatencyMs), s.Gap})
}

func (p *jsonPrinter) at(samples int64) float64 { return round4(float64(samples) / float64(p.rate)) }

func (p *jsonPrinter) event(ev audio.Event) {
	p.counts.add(ev)
	switch e := ev.(type) {
	case *audio.Onset:
		if p.verbose || e.Kind.IsGesture() {
			p.put(jsonOnset{"onset", round4(e.Time), string(e.Kind), round1(e.Strength), round1(e.Features.Level), p.at(e.Emitted)})
		}
	case *audio.Retract:
		p.put(jsonRetract{"retract", round4(e.Time), string(e.Kind), retractWhy(e), p.at(e.Emitted)})
	case *audio.Code:
		j := jsonCode{Event: "code", Start: round4(e.Start), End: round4(e.End), Bangs: e.Bangs, Claps: e.Claps, Order: e.Order, At: p.at(e.Emitted)}
		if p.order != nil {
			if c, err := p.order.Decode(e.Bangs, e.Claps); err != nil {
				j.Error = err.Error()
			} else {
				j.Card, j.Species, j.Count = c.String(), string(c.Species), c.Count
			}
		}
		p.put(j)
	case *audio.Talk:
		j := jsonTalk{Event: "talk", Start: round4(e.Start), At: p.at(e.Emitted)}
		if e.End >= 0 {
			end := round4(e.End)
			j.End = &end
		}
		p.put(j)
	case *audio.Level:
		if p.levels {
			p.put(jsonLevel{"level", round4(e.Time), round1(e.RMS), round1(e.Peak)})
		}
	case *audio.Mic:
		j := jsonMic{Event: "mic", T: round4(e.Time), Problems: []jsonProblem{}}
		for _, q := range e.Problems {
			j.Problems = append(j.Problems, jsonProblem(q))
		}
		p.put(j)
	}
}

func (p *jsonPrinter) end(samples int64, rate int) {
	if p.voices {
		p.put(jsonVoicesEnd{"end", round4(float64(samples) / float64(rate)), p.pauses, p.shouts})
		return
	}
	p.put(jsonEnd{"end", round4(float64(samples) / float64(rate)), p.counts.onsets, p.counts.gestures, p.counts.codes})
}

// humanPrinter is the live display: each gesture as it is heard, a level
// meter redrawn in place on a terminal, each code when it completes, and
// each new problem of the microphone.
type humanPrinter struct {
	w       io.Writer
	told    map[string]bool // the microphone's problems already shown
	tty     bool
	verbose bool
	order   woodlouse.Order
	live    bool
	meter   bool // a meter line is on screen
	counts  tally
	voices  bool
	rate    int
	pauses  int
	shouts  int
	frames  int
}

func newHumanPrinter(w io.Writer, verbose bool) *humanPrinter {
	return &humanPrinter{w: w, tty: isTerminal(w), verbose: verbose}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func clock(t float64) string {
	m := int(t / 60)
	return fmt.Sprintf("%02d:%06.3f", m, t-float64(60*m))
}

func (p *humanPrinter) line(format string, a ...any) {
	if p.meter {
		fmt.Fprint(p.w, "\r\033[K")
		p.meter = false
	}
	fmt.Fprintf(p.w, format+"\n", a...)
}

func (p *humanPrinter) start(s sourceInfo) {
	p.live, p.rate = s.Live, s.Rate
	if p.voices {
		from := s.File
		if s.Live {
			from = fmt.Sprintf("%q", s.Device)
		}
		p.line("Following the voices from %s (%d Hz): pauses of %g s or more, and shouts. Ctrl-C stops.", from, s.Rate, s.Pause)
		return
	}
	if s.Live {
		p.line("Listening to %q (%d Hz). Bang and clap on the table; Ctrl-C stops.", s.Device, s.Rate)
	} else {
		ch := "mono"
		if s.Channels > 1 {
			ch = fmt.Sprintf("%d channels", s.Channels)
		}
		kind := ""
		if s.Float {
			kind = " float"
		}
		p.line("Listening to %s (%.1f s, %d Hz, %s, %d-bit%s).", s.File, s.Seconds, s.Rate, ch, s.Bits, kind)
	}
	p.line("  time       bang       clap")
}

func (p *humanPrinter) event(ev audio.Event) {
	p.counts.add(ev)
	switch e := ev.(type) {
	case *audio.Onset:
		switch {
		case e.Kind == "bang":
			p.line("  %s  BANG", clock(e.Time))
		case e.Kind == "clap":
			p.line("  %s             CLAP", clock(e.Time))
		case p.verbose:
			p.line("  %s  (other sound)", clock(e.Time))
		}
	case *audio.Retract:
		if e.Alone {
			p.line("  %s  (not a %s: no other gesture came near it, and a code has two or more)", clock(e.Time), e.Kind)
		} else {
			p.line("  %s  (not a %s: the start of a word)", clock(e.Time), e.Kind)
		}
	case *audio.Code:
		msg := fmt.Sprintf("code %s-%s: %s + %s (%s)", clock(e.Start), clock(e.End), plural(e.Bangs, "bang"), plural(e.Claps, "clap"), e.Order)
		if p.order != nil {
			if c, err := p.order.Decode(e.Bangs, e.Claps); err != nil {
				msg += "  ->  " + err.Error()
			} else {
				msg += "  ->  " + c.String()
			}
		}
		p.line("  %s", msg)
	case *audio.Level:
		if p.tty && p.live {
			fmt.Fprintf(p.w, "\r\033[K  level %s %4.0f dB", meterBar(e.RMS), e.RMS)
			p.meter = true
		}
	case *audio.Mic:
		if len(e.Problems) == 0 {
			p.line("  %s  microphone: fine now", clock(e.Time))
		}
		for _, q := range e.Problems {
			if !p.told[q.Kind] {
				p.line("  %s  microphone: %s", clock(e.Time), q.Say)
			}
		}
		p.told = map[string]bool{}
		for _, q := range e.Problems {
			p.told[q.Kind] = true
		}
	}
}

func (p *humanPrinter) end(samples int64, rate int) {
	if p.voices {
		p.line("Heard %s and %s in %.1f s.", plural(p.pauses, "pause"), plural(p.shouts, "shout"), float64(samples)/float64(rate))
		return
	}
	p.line("Heard %s and %s in %.1f s.", plural(p.counts.gestures, "gesture"), plural(p.counts.codes, "code"), float64(samples)/float64(rate))
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// meterBar draws a level from -70 to 0 dBFS.
func meterBar(db float64) string {
	const width = 24
	n := int(math.Round((db + 70) / 70 * width))
	n = max(0, min(width, n))
	return "[" + strings.Repeat("#", n) + strings.Repeat(".", width-n) + "]"
}

// retractWhy says why a gesture was taken back, for the JSON lines.
func retractWhy(e *audio.Retract) string {
	if e.Alone {
		return "alone"
	}
	return "word"
}
