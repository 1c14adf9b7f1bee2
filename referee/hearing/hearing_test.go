package hearing

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-audio/audio"
	"github.com/go-audio/wav"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	tra "github.com/tableref/tableref/audio"
	"github.com/tableref/tableref/audio/gesture"
)

// collector gathers events safely.
type collector struct {
	mu  sync.Mutex
	evs []Event
}

func (c *collector) add(e Event) { c.mu.Lock(); c.evs = append(c.evs, e); c.mu.Unlock() }

func (c *collector) all() []Event {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Event(nil), c.evs...)
}

func (c *collector) kinds(k string) []Event {
	var out []Event
	for _, e := range c.all() {
		if e.Kind == k {
			out = append(out, e)
		}
	}
	return out
}

// waitFor waits until ok holds for the events so far. The deadline is for a
// hang: under -race on a busy machine the ears may take several times the
// length of a recording to analyse it.
func (c *collector) waitFor(t *testing.T, what string, ok func([]Event) bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if ok(c.all()) {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("waited in vain for %s; events: %+v", what, c.all())
}

func statuses(evs []Event) []string {
	var out []string
	for _, e := range evs {
		if e.Kind == "status" {
			out = append(out, e.Status)
		}
	}
	return out
}

// fileNow opens a WAV without pacing (a recording that is not live).
func fileNow(path string) Opener {
	return func() (Input, string, bool, error) {
		w, err := tra.OpenWAV(path)
		if err != nil {
			return nil, "", false, err
		}
		return w, filepath.Base(path), false, nil
	}
}

func TestTheEarsHearTheCodesOfARecording(t *testing.T) {
	path := filepath.Join("..", "..", "..", "shared", "corpus", "gestures", "dev-015.wav")
	if _, err := os.Stat(path); err != nil {
		if os.Getenv("TABLEREF_REQUIRE_CORPUS") == "1" {
			t.Fatalf("%s: %v", noCorpus, err)
		}
		t.Skip(noCorpus)
	}
	var c collector
	e := Start(fileNow(path), Config{}, c.add)
	c.waitFor(t, "the end of the recording", func(evs []Event) bool {
		s := statuses(evs)
		return len(s) > 0 && strings.Contains(s[len(s)-1], "has ended")
	})
	e.Close()
	codes := c.kinds("code")
	require.Len(t, codes, 2)
	assert.Equal(t, []int{3, 5}, []int{codes[0].Bangs, codes[0].Claps})
	assert.Equal(t, "CCCCCBBB", codes[0].Order)
	assert.Equal(t, []int{1, 1}, []int{codes[1].Bangs, codes[1].Claps})
	assert.Len(t, c.kinds("clap"), 6)
	assert.Len(t, c.kinds("bang"), 4)
	assert.Equal(t, "listening to dev-015.wav", statuses(c.all())[0])
	assert.False(t, e.Status().Listening)
}

// flaky is an input whose opening fails the first times, and which then
// delivers quiet noise until it is unplugged.
type flaky struct {
	mu       sync.Mutex
	opens    int
	failOpen int
	reads    int
	unplugAt int
}

type flakyInput struct {
	f      *flaky
	closed chan struct{}
	once   sync.Once
}

func (f *flaky) opener() Opener {
	return func() (Input, string, bool, error) {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.opens++
		if f.opens <= f.failOpen {
			return nil, "", true, errors.New("no input device")
		}
		return &flakyInput{f: f, closed: make(chan struct{})}, "Test Mic", true, nil
	}
}

func (in *flakyInput) SampleRate() int { return 8000 }

func (in *flakyInput) Read(dst []float64) (int, error) {
	select {
	case <-in.closed:
		return 0, errors.New("stream closed")
	case <-time.After(time.Millisecond):
	}
	in.f.mu.Lock()
	defer in.f.mu.Unlock()
	in.f.reads++
	if in.f.reads == in.f.unplugAt {
		return 0, errors.New("device unplugged")
	}
	for i := range dst {
		dst[i] = 0.0001 * float64(i%7-3)
	}
	return len(dst), nil
}

func (in *flakyInput) Close() error { in.once.Do(func() { close(in.closed) }); return nil }

func TestAMissingOrLostMicrophoneIsSaidAndRetried(t *testing.T) {
	f := &flaky{failOpen: 2, unplugAt: 20}
	var c collector
	e := Start(f.opener(), Config{Retry: 10 * time.Millisecond, Block: 256}, c.add)
	c.waitFor(t, "listening again after the unplugging", func(evs []Event) bool {
		n := 0
		for _, s := range statuses(evs) {
			if s == "listening to Test Mic" {
				n++
			}
		}
		return n == 2
	})
	e.Close()
	s := statuses(c.all())
	require.GreaterOrEqual(t, len(s), 4, "%q", s)
	assert.Contains(t, s[0], "no microphone (no input device); trying again every")
	assert.Equal(t, "listening to Test Mic", s[1])
	assert.Contains(t, s[2], "lost the microphone (device unplugged)")
	assert.Equal(t, "listening to Test Mic", s[3])
	assert.True(t, e.Status().Listening)
}

func TestNothingIsEmittedAfterClose(t *testing.T) {
	f := &flaky{}
	var c collector
	e := Start(f.opener(), Config{Block: 64}, c.add)
	c.waitFor(t, "listening", func(evs []Event) bool { return len(statuses(evs)) > 0 })
	e.Close()
	n := len(c.all())
	time.Sleep(50 * time.Millisecond)
	assert.Equal(t, n, len(c.all()))
	e.Close() // twice is fine
}

func TestARecordingPlaysInRealTime(t *testing.T) {
	path := filepath.Join(t.TempDir(), "quiet.wav")
	f, err := os.Create(path)
	require.NoError(t, err)
	enc := wav.NewEncoder(f, 8000, 16, 1, 1)
	data := make([]int, 4000) // half a second
	for i := range data {
		data[i] = (i % 5) - 2
	}
	require.NoError(t, enc.Write(&audio.IntBuffer{Format: &audio.Format{NumChannels: 1, SampleRate: 8000}, Data: data, SourceBitDepth: 16}))
	require.NoError(t, enc.Close())
	require.NoError(t, f.Close())

	var c collector
	began := time.Now()
	e := Start(Recording(path), Config{Block: 400}, c.add)
	c.waitFor(t, "the end", func(evs []Event) bool {
		s := statuses(evs)
		return len(s) > 1 && strings.Contains(s[len(s)-1], "has ended")
	})
	took := time.Since(began)
	e.Close()
	assert.GreaterOrEqual(t, took, 450*time.Millisecond, "not faster than the recording itself")
}

// TestGesturesHeardWhileTheRefereeSoundsAreNotTheTables plays a labelled
// recording in real time while the referee's own sound is "in the air"
// over one clap of its first code and over the whole of its second: the
// clap is left out of the code, which says one gesture was masked, and
// the second code, all the referee's own, is not heard at all.
//
// The sounds in the air are placed by the wall clock, against when the
// recording started as its reads show it (arrivals): a busy machine that
// delivers the blocks late moves the recording later on the wall clock, for
// the ears and for the referee's sounds alike, and the ears must never place
// it earlier than it was opened.
func TestGesturesHeardWhileTheRefereeSoundsAreNotTheTables(t *testing.T) {
	t.Parallel()
	path := filepath.Join("..", "..", "..", "shared", "corpus", "gestures", "dev-015.wav")
	if _, err := os.Stat(path); err != nil {
		if os.Getenv("TABLEREF_REQUIRE_CORPUS") == "1" {
			t.Fatalf("%s: %v", noCorpus, err)
		}
		t.Skip(noCorpus)
	}
	var mu sync.Mutex
	var opening time.Time // before the recording started to play
	var in *arrivals
	open := func() (Input, string, bool, error) {
		mu.Lock()
		defer mu.Unlock()
		opening = time.Now()
		rec, name, live, err := Recording(path)()
		if err != nil {
			return nil, name, live, err
		}
		in = &arrivals{Input: rec, rate: float64(rec.SampleRate())}
		return in, name, live, err
	}
	// Labelled: claps at 0.68, 1.28, 1.77, 2.36, 2.88, bangs at 3.32, 3.68,
	// 4.13; then a bang at 7.42 and a clap at 7.70.
	air := [][2]float64{{1.6, 1.9}, {7.2, 7.9}}
	deaf := func(from, to time.Time) bool {
		mu.Lock()
		t0 := in.started()
		mu.Unlock()
		a, b := from.Sub(t0).Seconds(), to.Sub(t0).Seconds()
		for _, s := range air {
			if a < s[1] && b > s[0] {
				return true
			}
		}
		return false
	}
	var c collector
	e := Start(open, Config{Deaf: deaf}, c.add)
	c.waitFor(t, "the end of the recording", func(evs []Event) bool {
		s := statuses(evs)
		return len(s) > 0 && strings.Contains(s[len(s)-1], "has ended")
	})
	e.Close()
	codes := c.kinds("code")
	require.Len(t, codes, 1, "the second code was all the referee's: %+v", codes)
	assert.Equal(t, []int{3, 4, 1}, []int{codes[0].Bangs, codes[0].Claps, codes[0].Masked})
	assert.Equal(t, "CCCCBBB", codes[0].Order)
	assert.Len(t, c.kinds("clap"), 4, "the masked claps are not shown")
	assert.Len(t, c.kinds("bang"), 3)
	// The code's time of day: its first clap, 0.68 s into the recording,
	// never before the recording was opened, and no later than its reads
	// allow.
	started := in.started()
	t.Logf("recording opened at %v, its reads place its start %v later; the code at %v",
		opening.Format("15:04:05.000"), started.Sub(opening), codes[0].Wall.Format("15:04:05.000"))
	assert.False(t, codes[0].Wall.Before(opening.Add(650*time.Millisecond)), "the code is placed before it was played: %v, opened at %v", codes[0].Wall, opening)
	assert.WithinDuration(t, started.Add(680*time.Millisecond), codes[0].Wall, 150*time.Millisecond, "the code's time of day")
}

// arrivals is an input that notes when its samples arrive. A sample cannot
// arrive before it was heard, so the earliest any block arrives, against
// its position, is the latest time the input can have started.
type arrivals struct {
	Input
	rate float64

	mu    sync.Mutex
	read  int64
	start time.Time
}

func (a *arrivals) Read(dst []float64) (int, error) {
	n, err := a.Input.Read(dst)
	now := time.Now()
	a.mu.Lock()
	defer a.mu.Unlock()
	if n > 0 {
		a.read += int64(n)
		if s := now.Add(-time.Duration(float64(a.read) / a.rate * float64(time.Second))); a.start.IsZero() || s.Before(a.start) {
			a.start = s
		}
	}
	return n, err
}

// started is the latest time the input can have started, by the samples
// read so far (the zero time before the first).
func (a *arrivals) started() time.Time {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.start
}

func TestTheInputClockIsNeverEarlyAndIgnoresBacklogs(t *testing.T) {
	t0 := time.Date(2026, 11, 24, 21, 0, 0, 0, time.UTC)
	c := newInputClock(1000)
	// Blocks of 100 samples arrive every 100 ms, 20 to 60 ms after they end.
	for i := int64(1); i <= 10; i++ {
		c.read(i*100, t0.Add(time.Duration(i*100+20+(i%3)*20)*time.Millisecond))
	}
	assert.WithinDuration(t, t0.Add(20*time.Millisecond), c.wall(0), time.Millisecond, "the earliest arrival")
	// The reader stalls for half a second, then catches up at once.
	c.read(1500, t0.Add(1520*time.Millisecond+500*time.Millisecond))
	c.read(1600, t0.Add(1520*time.Millisecond+501*time.Millisecond))
	assert.WithinDuration(t, t0.Add(1520*time.Millisecond), c.wall(1.5), 5*time.Millisecond,
		"a late read does not move the samples later")
}

func TestACodesMaskedGesturesAreLeftOut(t *testing.T) {
	gs := []heardGesture{{t: 0.5, letter: 'C'}, {t: 1, letter: 'C'}, {t: 1.5, letter: 'B', masked: true}, {t: 2, letter: 'C'}, {t: 9, letter: 'B'}}
	in, after := codeGestures(gs, &tra.Code{Start: 1, End: 2, Order: "CBC"})
	assert.Len(t, in, 3)
	assert.Equal(t, []heardGesture{{t: 9, letter: 'B'}}, after)
	kept, masked, ok := unmasked(in, "CBC")
	require.True(t, ok)
	assert.Equal(t, 1, masked)
	assert.Len(t, kept, 2)
	_, _, ok = unmasked(in, "CC")
	assert.False(t, ok, "gestures that do not spell the code leave it as heard")
}

// noCorpus is why a test that needs the labelled recordings did not run.
const noCorpus = "the labelled recordings are not at ../shared/corpus/gestures (../shared beside the repository)"

// firstRead is an input that calls f on its first read.
type firstRead struct {
	Input
	once sync.Once
	f    func()
}

func (r *firstRead) Read(dst []float64) (int, error) {
	r.once.Do(r.f)
	return r.Input.Read(dst)
}

// TestTheEarsHearWithWhatTheCheckTaught: the ears hear with the
// calibration they start with, and with the one SetCalibration gives them
// while they listen. Taught that the recording's claps are bangs and its
// bangs claps, they hear its codes so.
func TestTheEarsHearWithWhatTheCheckTaught(t *testing.T) {
	path := filepath.Join("..", "..", "..", "shared", "corpus", "gestures", "dev-015.wav")
	if _, err := os.Stat(path); err != nil {
		if os.Getenv("TABLEREF_REQUIRE_CORPUS") == "1" {
			t.Fatalf("%s: %v", noCorpus, err)
		}
		t.Skip(noCorpus)
	}
	hear := func(cfg Config, during func(*Ears)) *collector {
		var c collector
		var e *Ears
		started := make(chan struct{})
		open := func() (Input, string, bool, error) {
			in, name, live, err := fileNow(path)()
			<-started
			return &firstRead{Input: in, f: func() { during(e) }}, name, live, err
		}
		e = Start(open, cfg, c.add)
		close(started)
		c.waitFor(t, "the end of the recording", func(evs []Event) bool {
			s := statuses(evs)
			return len(s) > 0 && strings.Contains(s[len(s)-1], "has ended")
		})
		e.Close()
		return &c
	}
	plain := hear(Config{}, func(*Ears) {})
	var claps, bangs []gesture.Features
	for _, ev := range plain.all() {
		if ev.Kind == "clap" && len(claps) < 2 {
			claps = append(claps, ev.Features)
		}
		if ev.Kind == "bang" && len(bangs) < 2 {
			bangs = append(bangs, ev.Features)
		}
		if ev.Kind == "clap" || ev.Kind == "bang" {
			assert.Equal(t, gesture.Wide, ev.Band)
			assert.NotZero(t, ev.Features.Level, "a gesture comes with what was measured of it")
		}
	}
	backwards, err := gesture.Learn(gesture.Wide, bangs, claps)
	require.NoError(t, err)
	require.True(t, backwards.Teaches())

	orders := func(c *collector) []string {
		var out []string
		for _, ev := range c.kinds("code") {
			out = append(out, ev.Order)
		}
		return out
	}
	require.Equal(t, []string{"CCCCCBBB", "BC"}, orders(plain))
	assert.Equal(t, []string{"BBBBBCCC", "CB"}, orders(hear(Config{Calibration: backwards}, func(*Ears) {})))
	assert.Equal(t, []string{"BBBBBCCC", "CB"}, orders(hear(Config{}, func(e *Ears) { e.SetCalibration(backwards) })))
	assert.Equal(t, []string{"CCCCCBBB", "BC"}, orders(hear(Config{Calibration: backwards}, func(e *Ears) { e.SetCalibration(nil) })))
}
