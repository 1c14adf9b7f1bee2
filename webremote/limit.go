package webremote

import (
	"sync"
	"time"
)

// limiter is a token bucket per key (a known token, or an address): each
// bucket holds up to rate requests and refills at rate per second. It is
// written here rather than taken from fiber's limiter middleware so that the
// websocket's frames can be counted against the same buckets as requests.
type limiter struct {
	rate float64
	now  func() time.Time

	mu      sync.Mutex
	buckets map[string]*bucket
	swept   time.Time
}

type bucket struct {
	tokens float64
	last   time.Time
}

func newLimiter(rate int, now func() time.Time) *limiter {
	return &limiter{rate: float64(rate), now: now, buckets: map[string]*bucket{}, swept: now()}
}

// allow takes one request from key's bucket; false means over the limit.
func (l *limiter) allow(key string) bool {
	if l == nil {
		return true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	if now.Sub(l.swept) > time.Minute {
		// Forget buckets that are full again, so that the map stays small.
		for k, b := range l.buckets {
			if now.Sub(b.last).Seconds()*l.rate+b.tokens >= l.rate {
				delete(l.buckets, k)
			}
		}
		l.swept = now
	}
	b, ok := l.buckets[key]
	if !ok {
		b = &bucket{tokens: l.rate, last: now}
		l.buckets[key] = b
	}
	b.tokens = min(l.rate, b.tokens+now.Sub(b.last).Seconds()*l.rate)
	b.last = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// limitKey is a websocket frame's bucket: its token's, or for a screen
// that watches without one, its address's.
func limitKey(tok, ip string) string {
	if tok == "" {
		return "a:" + ip
	}
	return "t:" + tok
}
