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

func (c *collector) waitFor(t *testing.T, what string, ok func([]Event) bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
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
			t.Fatalf("corpus file missing: %v", err)
		}
		t.Skipf("corpus file missing: %v", err)
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
	assert.Contains(t, s[0], "no microphone (no input device); enter codes on the phones")
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
