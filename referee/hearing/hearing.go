// Package hearing is the referee's ears: it keeps an audio input (the
// microphone, or a recording played as if it were one) running through the
// gesture listener and the voices watcher, and reports what it hears as
// plain events with times in seconds since it started. When the microphone
// fails or is unplugged it says so and keeps trying to open it again, so a
// game goes on with phone input meanwhile.
package hearing

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"sync"
	"time"

	"github.com/tableref/tableref/audio"
	"github.com/tableref/tableref/audio/gesture"
	"github.com/tableref/tableref/audio/mic"
	"github.com/tableref/tableref/audio/talk"
)

// Input is an opened audio input.
type Input interface {
	audio.Source
	Close() error
}

// Opener opens the input; name says what it is ("USB mic", "demo.wav").
type Opener func() (in Input, name string, live bool, err error)

// Event is something heard. Kinds: "clap" and "bang" (one gesture, at T),
// "retract" (the gesture at T was the start of a word after all, or no
// other gesture came within the gap of it; no code counts it), "code" (Start, End, Bangs, Claps, Order, Masked), "pause-start", "pause",
// "shout-start", "shout" (Start, End, DB), "status" (Status, Listening) and
// "mic" (Problems: what is wrong with the input now; none when it is fine
// again).
type Event struct {
	Kind      string  `json:"kind"`
	T         float64 `json:"t"`
	Start     float64 `json:"start,omitempty"`
	End       float64 `json:"end,omitempty"`
	Bangs     int     `json:"bangs,omitempty"`
	Claps     int     `json:"claps,omitempty"`
	Order     string  `json:"order,omitempty"`
	DB        float64 `json:"db,omitempty"`
	Status    string  `json:"status,omitempty"`
	Listening bool    `json:"listening,omitempty"`
	// Problems are what is wrong with the input ("mic" events).
	Problems []audio.MicProblem `json:"problems,omitempty"`
	// Masked counts a code's gestures heard while the referee's own sound
	// was in the air: they are left out of Bangs, Claps and Order, and the
	// code is doubtful (a gesture may be missing, or a sound taken for one).
	Masked int `json:"masked,omitempty"`
	// Wall is the time of day of the event's start (Start, else T).
	Wall time.Time `json:"-"`
	// Features are what the listener measured of a gesture ("clap" and
	// "bang" events), in Band: what a microphone check learns the table
	// from (gesture.Learn).
	Features gesture.Features `json:"-"`
	Band     gesture.Band     `json:"-"`
}

// Config tunes the ears; the zero value takes the defaults.
type Config struct {
	Gap      float64       // seconds that end a code (audio.DefaultGap)
	MinPause float64       // seconds of silence that make a pause (talk.DefaultMinPause)
	ShoutDB  float64       // dB over the room that make a shout (talk.DefaultShoutDB)
	Retry    time.Duration // between attempts to reopen a failed input (2 s)
	Block    int           // samples per read (1024)
	// Deaf reports whether the referee's own sound (or its echo) was in the
	// air at any time from from to to (sound.OnAir.During): what the input
	// heard then is not the table's. Gestures heard then are dropped (and
	// counted in their code's Masked), and the voices timer holds its
	// judgement through it. nil: the input never hears the referee (a
	// recording, or no speaker).
	Deaf func(from, to time.Time) bool
	// Calibration is what the microphone check taught about the table
	// (audio.Config.Calibration); SetCalibration changes it.
	Calibration *gesture.Calibration
}

// Status is the state of the input.
type Status struct {
	Listening bool   `json:"listening"`
	Input     string `json:"input,omitempty"`
	Message   string `json:"message"`
	// Problems are what is wrong with the input, as last diagnosed.
	Problems []audio.MicProblem `json:"problems,omitempty"`
}

// Ears runs an input until Close.
type Ears struct {
	open  Opener
	cfg   Config
	emit  func(Event)
	start time.Time

	mu     sync.Mutex
	status Status
	cal    *gesture.Calibration // the listener's from its next block on
	in     Input
	closed bool
	done   chan struct{}
	ended  chan struct{}
}

// Start opens the input in the background and starts listening. emit is
// called from the ears' goroutine, one event at a time.
func Start(open Opener, cfg Config, emit func(Event)) *Ears {
	if cfg.Gap <= 0 {
		cfg.Gap = audio.DefaultGap
	}
	if cfg.Retry <= 0 {
		cfg.Retry = 2 * time.Second
	}
	if cfg.Block <= 0 {
		cfg.Block = 1024
	}
	e := &Ears{open: open, cfg: cfg, emit: emit, start: time.Now(), done: make(chan struct{}), ended: make(chan struct{}),
		status: Status{Message: "opening the input"}, cal: cfg.Calibration}
	go e.run()
	return e
}

// Status is what the ears are doing now.
func (e *Ears) Status() Status {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.status
}

// SetCalibration makes c what the ears know of the table (nil: nothing),
// from the next block of input they hear.
func (e *Ears) SetCalibration(c *gesture.Calibration) {
	e.mu.Lock()
	e.cal = c
	e.mu.Unlock()
}

// calibration is the calibration the listener should have now.
func (e *Ears) calibration() *gesture.Calibration {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.cal
}

// Close stops listening and closes the input; no event follows it.
func (e *Ears) Close() {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		<-e.ended
		return
	}
	e.closed = true
	close(e.done)
	in := e.in
	e.mu.Unlock()
	if in != nil {
		in.Close() // unblocks a pending read
	}
	<-e.ended
}

func (e *Ears) setStatus(s Status) {
	e.mu.Lock()
	e.status = s
	closed := e.closed
	e.mu.Unlock()
	if !closed {
		e.emit(Event{Kind: "status", T: e.since(), Status: s.Message, Listening: s.Listening, Wall: time.Now()})
	}
}

func (e *Ears) since() float64 { return round(time.Since(e.start).Seconds()) }

func round(x float64) float64 { return float64(int64(x*1000+0.5)) / 1000 }

func (e *Ears) stopped() bool {
	select {
	case <-e.done:
		return true
	default:
		return false
	}
}

func (e *Ears) run() {
	defer close(e.ended)
	failures := 0
	for !e.stopped() {
		in, name, live, err := e.open()
		if err != nil {
			failures++
			if failures == 1 || failures%30 == 0 {
				e.setStatus(Status{Message: fmt.Sprintf("no microphone (%v); trying again every %s", err, e.cfg.Retry)})
			}
			select {
			case <-e.done:
				return
			case <-time.After(e.cfg.Retry):
			}
			continue
		}
		failures = 0
		e.mu.Lock()
		if e.closed {
			e.mu.Unlock()
			in.Close()
			return
		}
		e.in = in
		e.mu.Unlock()
		e.setStatus(Status{Listening: true, Input: name, Message: "listening to " + name})
		err = e.listen(in)
		in.Close()
		e.mu.Lock()
		e.in = nil
		e.mu.Unlock()
		if e.stopped() {
			return
		}
		if !live || errors.Is(err, io.EOF) {
			e.setStatus(Status{Input: name, Message: "the recording " + name + " has ended"})
			return
		}
		e.setStatus(Status{Input: name, Message: fmt.Sprintf("lost the microphone (%v); trying again every %s", err, e.cfg.Retry)})
		select {
		case <-e.done:
			return
		case <-time.After(e.cfg.Retry):
		}
	}
}

// listen runs one opened input to its end or failure.
func (e *Ears) listen(in Input) error {
	rate := in.SampleRate()
	offset := time.Since(e.start).Seconds() // input time 0 in ears time
	at := func(sec float64) float64 { return round(offset + sec) }
	atSample := func(s int64) float64 { return at(float64(s) / float64(rate)) }
	clock := newInputClock(rate)
	deaf := func(from, to float64) bool {
		return e.cfg.Deaf != nil && e.cfg.Deaf(clock.wall(from), clock.wall(to))
	}
	// The gestures of the code being heard, with whether each was heard
	// while the referee's own sound was in the air.
	var pending []heardGesture
	cal := e.calibration()
	cfg := audio.Config{Gap: e.cfg.Gap, Calibration: cal}
	if c, ok := in.(interface{ Channels() []audio.ChannelState }); ok {
		cfg.Channels = c.Channels
	}
	l := audio.NewListener(rate, cfg, func(ev audio.Event) {
		switch v := ev.(type) {
		case *audio.Mic:
			e.mu.Lock()
			e.status.Problems = v.Problems
			e.mu.Unlock()
			e.emit(Event{Kind: "mic", T: at(v.Time), Problems: v.Problems, Wall: clock.wall(v.Time)})
		case *audio.Onset:
			if !v.Kind.IsGesture() {
				return
			}
			masked := deaf(v.Time-gestureReach, v.Time+gestureReach)
			pending = append(pending, heardGesture{t: v.Time, letter: letterOf(v.Kind), masked: masked})
			if len(pending) > maxPending {
				pending = pending[len(pending)-maxPending:]
			}
			if !masked {
				e.emit(Event{Kind: string(v.Kind), T: at(v.Time), Wall: clock.wall(v.Time), Features: v.Features, Band: v.Band})
			}
		case *audio.Retract:
			i := slices.IndexFunc(pending, func(g heardGesture) bool { return g.t == v.Time })
			if i < 0 {
				return
			}
			masked := pending[i].masked
			pending = slices.Delete(pending, i, i+1)
			if !masked {
				e.emit(Event{Kind: "retract", T: at(v.Time), Wall: clock.wall(v.Time)})
			}
		case *audio.Code:
			ev := Event{Kind: "code", T: atSample(v.Emitted), Start: at(v.Start), End: at(v.End), Bangs: v.Bangs, Claps: v.Claps, Order: v.Order, Wall: clock.wall(v.Start)}
			var keep []heardGesture
			keep, pending = codeGestures(pending, v)
			if kept, masked, ok := unmasked(keep, v.Order); ok && masked > 0 {
				if len(kept) == 0 {
					return // nothing but the referee's own sound
				}
				ev.Masked = masked
				ev.Bangs, ev.Claps, ev.Order = 0, 0, ""
				for _, g := range kept {
					ev.Order += string(g.letter)
					if g.letter == 'B' {
						ev.Bangs++
					} else {
						ev.Claps++
					}
				}
				ev.Start, ev.End, ev.Wall = at(kept[0].t), at(kept[len(kept)-1].t), clock.wall(kept[0].t)
			}
			e.emit(ev)
		}
	})
	w := talk.New(rate, talk.Config{MinPause: e.cfg.MinPause, ShoutDB: e.cfg.ShoutDB}, func(ev talk.Event) {
		switch ev.Kind {
		case talk.PauseStart, talk.Pause, talk.ShoutStart, talk.Shout:
			e.emit(Event{Kind: string(ev.Kind), T: atSample(ev.End), Start: atSample(ev.Start), End: atSample(ev.End), DB: round(ev.DB),
				Wall: clock.wall(float64(ev.Start) / float64(rate))})
		}
	})
	buf := make([]float64, e.cfg.Block)
	var read int64
	for {
		n, err := in.Read(buf)
		if n > 0 && !e.stopped() {
			clock.read(read+int64(n), time.Now())
			if c := e.calibration(); c != cal {
				cal = c
				l.SetCalibration(c)
			}
			l.Write(buf[:n])
			if deaf(float64(read)/float64(rate), float64(read+int64(n))/float64(rate)) {
				w.Skip(buf[:n])
			} else {
				w.Write(buf[:n])
			}
			read += int64(n)
		}
		if err != nil {
			if !e.stopped() {
				l.Close()
				w.Close()
			}
			return err
		}
		if e.stopped() {
			return nil
		}
	}
}

// gestureReach is how near the referee's own sound a gesture may start
// and still be its own (seconds either side of its onset).
const gestureReach = 0.03

// maxPending bounds the gestures remembered for codes not yet complete.
const maxPending = 256

// heardGesture is a gesture as the ears heard it: its time in the input,
// its letter (B or C) and whether the referee's own sound was in the air.
type heardGesture struct {
	t      float64
	letter byte
	masked bool
}

func letterOf(k gesture.Kind) byte {
	if k == gesture.Bang {
		return 'B'
	}
	return 'C'
}

// codeGestures splits the gestures heard into those of code c (from its
// first to its last gesture) and those after it; earlier ones are dropped.
func codeGestures(pending []heardGesture, c *audio.Code) (in, after []heardGesture) {
	const eps = 0.0005
	for _, g := range pending {
		switch {
		case g.t < c.Start-eps:
		case g.t <= c.End+eps:
			in = append(in, g)
		default:
			after = append(after, g)
		}
	}
	return in, after
}

// unmasked is the gestures of a code heard while the referee was silent,
// and how many were not. ok is false when the gestures do not spell the
// code's order (the listener left some out): the code is then kept as
// heard.
func unmasked(gs []heardGesture, order string) (kept []heardGesture, masked int, ok bool) {
	if len(gs) != len(order) {
		return nil, 0, false
	}
	for i, g := range gs {
		if g.letter != order[i] {
			return nil, 0, false
		}
		if g.masked {
			masked++
		} else {
			kept = append(kept, g)
		}
	}
	return kept, masked, true
}

// inputClock tells when, by the wall clock, the input heard a sample. A
// sample cannot be read before it was heard, so the earliest any block
// arrives, against its position, is taken as the input's start (allowing
// for the two clocks' drift). The estimate is never earlier than the truth
// and later by no more than the input's buffering: a sound that began at
// some time is never placed before it, and the referee's echo allowance
// covers the rest.
type inputClock struct {
	rate  float64
	start time.Time // wall time of sample 0, as best known
	last  time.Time // when it was last updated
}

// driftAllowance is how fast the estimate of the input's start may move
// later, per second: audio clocks and the wall clock differ by well under
// 0.1 %.
const driftAllowance = 0.001

func newInputClock(rate int) *inputClock { return &inputClock{rate: float64(rate)} }

// read notes that samples up to end had been read at now.
func (c *inputClock) read(end int64, now time.Time) {
	start := now.Add(-time.Duration(float64(end) / c.rate * float64(time.Second)))
	switch {
	case c.start.IsZero() || start.Before(c.start):
		c.start = start
	default:
		creep := time.Duration(float64(now.Sub(c.last)) * driftAllowance)
		c.start = minTime(start, c.start.Add(creep))
	}
	c.last = now
}

// wall is when the input heard the sound at sec seconds of input.
func (c *inputClock) wall(sec float64) time.Time {
	if c.start.IsZero() {
		return time.Now()
	}
	return c.start.Add(time.Duration(sec * float64(time.Second)))
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// Microphone opens a PortAudio input device ("" for the default).
func Microphone(device string) Opener {
	return func() (Input, string, bool, error) {
		m, err := mic.Open(mic.Options{Device: device})
		if err != nil {
			return nil, "", true, err
		}
		return m, m.Name(), true, nil
	}
}

// Recording plays a WAV file as if it were the microphone: in real time.
func Recording(path string) Opener {
	return func() (Input, string, bool, error) {
		w, err := audio.OpenWAV(path)
		if err != nil {
			return nil, "", false, err
		}
		return newPaced(w), path, false, nil
	}
}

// paced delivers a file's samples no faster than real time.
type paced struct {
	w     *audio.WAV
	start time.Time
	read  int64
	shut  chan struct{}
	once  sync.Once
	mu    sync.Mutex // held while reading the file, and to close it
	gone  bool
}

func newPaced(w *audio.WAV) *paced { return &paced{w: w, start: time.Now(), shut: make(chan struct{})} }

func (p *paced) SampleRate() int { return p.w.SampleRate() }

func (p *paced) Read(dst []float64) (int, error) {
	due := p.start.Add(time.Duration(float64(p.read+int64(len(dst))) / float64(p.w.SampleRate()) * float64(time.Second)))
	select {
	case <-p.shut:
		return 0, io.EOF
	case <-time.After(time.Until(due)):
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.gone {
		return 0, io.EOF
	}
	n, err := p.w.Read(dst)
	p.read += int64(n)
	return n, err
}

func (p *paced) Close() error {
	p.once.Do(func() { close(p.shut) })
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.gone {
		return nil
	}
	p.gone = true
	return p.w.Close()
}
