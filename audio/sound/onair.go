package sound

import (
	"sync"
	"time"
)

// DefaultEcho is how long after the referee's own sound leaves the speaker
// its ears still do not trust what they hear: the room's echo, and the
// difference between when the speaker and the microphone say a sound was.
const DefaultEcho = 300 * time.Millisecond

// airKept is how long spans are remembered: longer than any code takes to
// be judged.
const airKept = 2 * time.Minute

// OnAir records when the referee's own sounds are in the air (its alarms,
// buzzer, chimes, ticks and spoken announcements), so that its ears can
// tell them from the table's: a microphone beside the speaker hears them
// too. A Player that plays through a speaker marks each sound from when it
// starts until its last sample has left the speaker. Safe for concurrent
// use; the zero value is ready.
type OnAir struct {
	// Echo is how long after a sound its echo may still be heard
	// (DefaultEcho when zero).
	Echo time.Duration

	mu    sync.Mutex
	spans []airSpan // in the order they began
	next  uint64
}

type airSpan struct {
	id       uint64
	from, to time.Time // to is zero while the sound plays
}

// Begin marks a sound as starting at from; the function it returns marks
// where it ended (when its last sample left the speaker).
func (a *OnAir) Begin(from time.Time) (end func(to time.Time)) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.next++
	id := a.next
	a.spans = append(a.spans, airSpan{id: id, from: from})
	return func(to time.Time) {
		a.mu.Lock()
		defer a.mu.Unlock()
		for j := range a.spans {
			if a.spans[j].id == id && a.spans[j].to.IsZero() {
				a.spans[j].to = to
				break
			}
		}
		a.pruneLocked(to)
	}
}

// Mark records a sound that was in the air from from to to.
func (a *OnAir) Mark(from, to time.Time) {
	a.Begin(from)(to)
}

// During reports whether the referee's own sound, or its echo, was in the
// air at any moment from from to to.
func (a *OnAir) During(from, to time.Time) bool {
	if a == nil {
		return false
	}
	echo := a.Echo
	if echo <= 0 {
		echo = DefaultEcho
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, s := range a.spans {
		if s.from.After(to) {
			continue
		}
		if s.to.IsZero() || !s.to.Add(echo).Before(from) {
			return true
		}
	}
	return false
}

// pruneLocked forgets sounds that ended long before now.
func (a *OnAir) pruneLocked(now time.Time) {
	keep := a.spans[:0]
	for _, s := range a.spans {
		if s.to.IsZero() || now.Sub(s.to) < airKept {
			keep = append(keep, s)
		}
	}
	clear(a.spans[len(keep):])
	a.spans = keep
}
