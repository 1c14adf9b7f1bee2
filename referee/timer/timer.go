// Package timer holds the referee's timers: countdowns and sand timers
// that pause and resume, kept as plain data computed from explicit times so
// that they are journalled, survive a restart and replay exactly, and a
// Clock that the referee injects (the real one, or a Fake in tests).
package timer

import (
	"fmt"
	"sync"
	"time"
)

// Timer is a countdown. The zero value is a stopped timer of no length.
type Timer struct {
	Name   string        `json:"name"`
	Length time.Duration `json:"length"`
	// Left is what remained when the timer last stopped or started.
	Left time.Duration `json:"left"`
	// Since is when it last started; zero while it is stopped.
	Since time.Time `json:"since,omitzero"`
}

// New is a stopped timer, full.
func New(name string, length time.Duration) Timer {
	return Timer{Name: name, Length: length, Left: length}
}

// Running reports whether the timer is counting down.
func (t Timer) Running() bool { return !t.Since.IsZero() }

// Remaining is the time left at now (never negative).
func (t Timer) Remaining(now time.Time) time.Duration {
	left := t.Left
	if t.Running() {
		left -= now.Sub(t.Since)
	}
	return max(0, left)
}

// Expired reports whether the timer has run out at now.
func (t Timer) Expired(now time.Time) bool { return t.Length > 0 && t.Remaining(now) == 0 }

// DueAt is when a running timer runs out.
func (t Timer) DueAt() (time.Time, bool) {
	if !t.Running() {
		return time.Time{}, false
	}
	return t.Since.Add(t.Left), true
}

// Start sets a stopped timer running (from where it was paused).
func (t *Timer) Start(now time.Time) {
	if !t.Running() && t.Left > 0 {
		t.Since = now
	}
}

// Pause stops a running timer, keeping what is left.
func (t *Timer) Pause(now time.Time) {
	if t.Running() {
		t.Left = t.Remaining(now)
		t.Since = time.Time{}
	}
}

// Reset stops the timer and fills it again.
func (t *Timer) Reset() {
	t.Left, t.Since = t.Length, time.Time{}
}

// Flip turns a sand timer over: what had run through runs back. A running
// timer keeps running.
func (t *Timer) Flip(now time.Time) {
	running := t.Running()
	left := t.Remaining(now)
	t.Left = t.Length - left
	t.Since = time.Time{}
	if running {
		t.Start(now)
	}
}

// String says it for people: "sand 0:42 (running)".
func (t Timer) String() string { return t.Format(time.Time{}) }

// Format says it at now.
func (t Timer) Format(now time.Time) string {
	left := t.Remaining(now)
	if !t.Running() {
		left = t.Left
	}
	secs := int((left + time.Second - 1) / time.Second)
	state := "stopped"
	switch {
	case t.Running():
		state = "running"
	case left == 0 && t.Length > 0:
		state = "done"
	case left < t.Length:
		state = "paused"
	}
	return fmt.Sprintf("%s %d:%02d (%s)", t.Name, secs/60, secs%60, state)
}

// Clock is time as the referee sees it.
type Clock interface {
	Now() time.Time
	// AfterFunc calls f in its own goroutine after d; the returned stop
	// function cancels it and reports whether it did so in time.
	AfterFunc(d time.Duration, f func()) (stop func() bool)
}

// Real is the wall clock.
type Real struct{}

// Now is time.Now.
func (Real) Now() time.Time { return time.Now() }

// AfterFunc is time.AfterFunc.
func (Real) AfterFunc(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }

// Fake is a clock that moves only when told to (Advance). The zero value
// starts at an arbitrary fixed instant.
type Fake struct {
	mu      sync.Mutex
	now     time.Time
	pending []*fakeTimer
}

type fakeTimer struct {
	at      time.Time
	f       func()
	stopped bool
}

var fakeEpoch = time.Date(2026, 1, 1, 20, 0, 0, 0, time.UTC)

// Now is the fake's current time.
func (c *Fake) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.nowLocked()
}

func (c *Fake) nowLocked() time.Time {
	if c.now.IsZero() {
		c.now = fakeEpoch
	}
	return c.now
}

// AfterFunc schedules f for when Advance passes now+d.
func (c *Fake) AfterFunc(d time.Duration, f func()) func() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	ft := &fakeTimer{at: c.nowLocked().Add(d), f: f}
	c.pending = append(c.pending, ft)
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		was := !ft.stopped
		ft.stopped = true
		return was
	}
}

// Advance moves the clock on by d, calling (synchronously, in time order)
// every function that falls due.
func (c *Fake) Advance(d time.Duration) {
	c.mu.Lock()
	end := c.nowLocked().Add(d)
	for {
		var next *fakeTimer
		for _, ft := range c.pending {
			if !ft.stopped && !ft.at.After(end) && (next == nil || ft.at.Before(next.at)) {
				next = ft
			}
		}
		if next == nil {
			break
		}
		next.stopped = true
		if next.at.After(c.now) {
			c.now = next.at
		}
		c.mu.Unlock()
		next.f()
		c.mu.Lock()
	}
	c.now = end
	kept := c.pending[:0]
	for _, ft := range c.pending {
		if !ft.stopped {
			kept = append(kept, ft)
		}
	}
	c.pending = kept
	c.mu.Unlock()
}
