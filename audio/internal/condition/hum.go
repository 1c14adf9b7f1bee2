package condition

import (
	"math"

	"github.com/tableref/tableref/audio/internal/level"
)

// Hum tunables.
const (
	// HumHarmonics is the highest harmonic of the mains looked for.
	HumHarmonics = 7
	// HumWindow is the span, in seconds, searched for lines.
	HumWindow = 0.5
	// HumEvery is how often, in seconds, the search runs.
	HumEvery = 0.2
	// HumLineDB is how far, in dB, a line must stand above the spectrum
	// HumSideHz each side of it.
	HumLineDB = 15.0
	// HumSideHz is where, each side of a line, its background is measured.
	HumSideHz = 7.0
	// HumFloorDB is the weakest line, in dBFS (RMS), worth cancelling: far
	// under the quietest room.
	HumFloorDB = -80.0
	// HumOnAfter and HumOffAfter are how many searches in a row must find
	// (or miss) a line before it is cancelled (or left alone).
	HumOnAfter, HumOffAfter = 3, 3
	// HumSteadyDB is how much a line's level may vary over the searches
	// that find it before it counts as mains hum: a drum's ringing tone
	// dies away, the mains does not.
	HumSteadyDB = 4.0
	// HumNotchSeconds is the time constant of a line's canceller: how fast
	// it follows the line's amplitude and phase.
	HumNotchSeconds = 0.1
	// humSearchRate is about the rate the search looks at (the input summed
	// in blocks).
	humSearchRate = 1000
)

// hum finds mains lines and cancels them.
type hum struct {
	rate   int
	box    int     // input samples summed into one search sample
	sr     float64 // the search rate
	acc    float64
	k      int
	ring   []float64 // the last HumWindow seconds, at the search rate
	at     int       // next write position in ring
	total  int64     // search samples so far
	every  int64
	win    []float64 // Hann window
	lin    []float64 // the ring in time order, windowed, for one search
	lines  []line
	mu     float64
	active bool // some line is cancelled
}

type line struct {
	hz         float64
	mains      float64 // 50 or 60
	hits, miss int
	on         bool
	db         float64
	lo, hi     float64 // the line's level over its hits
	// the canceller: an oscillator and the sinusoid's estimated
	// coefficients, hum = a·cos + b·sin
	c, s, rc, rs float64
	a, b         float64
}

func (h *hum) init(rate int) {
	h.rate = rate
	h.box = max(1, int(math.Round(float64(rate)/humSearchRate)))
	h.sr = float64(rate) / float64(h.box)
	n := int(HumWindow * h.sr)
	h.ring = make([]float64, n)
	h.win = make([]float64, n)
	h.lin = make([]float64, n)
	for i := range h.win {
		h.win[i] = 0.5 - 0.5*math.Cos(2*math.Pi*(float64(i)+0.5)/float64(n))
	}
	h.every = max(1, int64(HumEvery*h.sr))
	h.mu = 2 / (HumNotchSeconds * float64(rate))
	seen := map[float64]bool{}
	for _, mains := range []float64{50, 60} {
		for k := 1; k <= HumHarmonics; k++ {
			hz := mains * float64(k)
			if seen[hz] || hz+HumSideHz >= 0.45*h.sr {
				continue
			}
			seen[hz] = true
			w := 2 * math.Pi * hz / float64(rate)
			h.lines = append(h.lines, line{hz: hz, mains: mains, c: 1, rc: math.Cos(w), rs: math.Sin(w), db: math.Inf(-1)})
		}
	}
}

// push ends one search sample (the sum of box input samples in acc).
func (h *hum) push() {
	h.ring[h.at] = h.acc / float64(h.box)
	h.acc, h.k = 0, 0
	h.at = (h.at + 1) % len(h.ring)
	h.total++
	if h.total >= int64(len(h.ring)) && h.total%h.every == 0 {
		h.search()
	}
}

// search looks for stationary lines in the ring.
func (h *hum) search() {
	n := len(h.ring)
	// power of a windowed sinusoid of amplitude 1, to report line levels
	// as the RMS of the sinusoid in the input
	var wsum float64
	for _, w := range h.win {
		wsum += w
	}
	ref := wsum * wsum / 4
	for i := range h.lin {
		h.lin[i] = h.ring[(h.at+i)%n] * h.win[i]
	}
	for i := range h.lines {
		l := &h.lines[i]
		p := h.goertzel(l.hz, n)
		l.db = level.DB(p/ref) - 3 // amplitude² → RMS²
		found := false
		if l.db >= HumFloorDB { // (the sides are looked at only then: this runs on every stream)
			side := 0.5 * (h.goertzel(l.hz-HumSideHz, n) + h.goertzel(l.hz+HumSideHz, n))
			found = level.DB(p)-level.DB(side) >= HumLineDB
		}
		if found {
			if l.hits == 0 {
				l.lo, l.hi = l.db, l.db
			}
			l.lo, l.hi = math.Min(l.lo, l.db), math.Max(l.hi, l.db)
			l.hits++
			l.miss = 0
			if l.hi-l.lo > HumSteadyDB {
				l.hits, l.lo, l.hi = 1, l.db, l.db // not steady: count again from here
			}
			if l.hits >= HumOnAfter {
				l.on = true
			}
		} else {
			l.miss++
			l.hits = 0
			if l.miss >= HumOffAfter && l.on {
				l.on = false
				l.a, l.b = 0, 0
			}
		}
	}
	h.active = false
	for _, l := range h.lines {
		h.active = h.active || l.on
	}
}

// goertzel is the power at hz of the windowed ring (lin).
func (h *hum) goertzel(hz float64, n int) float64 {
	w := 2 * math.Pi * hz / h.sr
	cw := 2 * math.Cos(w)
	var s1, s2 float64
	for _, x := range h.lin[:n] {
		s1, s2 = x+cw*s1-s2, s1
	}
	return s1*s1 + s2*s2 - cw*s1*s2
}

// cancel subtracts the lines being cancelled from v.
func (h *hum) cancel(v float64) float64 {
	e := v
	any := false
	for i := range h.lines {
		l := &h.lines[i]
		if l.on {
			e -= l.a*l.c + l.b*l.s
			any = true
		}
	}
	if !any {
		return v
	}
	for i := range h.lines {
		l := &h.lines[i]
		if l.on {
			l.a += h.mu * e * l.c
			l.b += h.mu * e * l.s
			l.turn()
		}
	}
	return e
}

func (l *line) turn() {
	l.c, l.s = l.c*l.rc-l.s*l.rs, l.s*l.rc+l.c*l.rs
	// keep the oscillator on the unit circle
	if g := 1.5 - 0.5*(l.c*l.c+l.s*l.s); g != 1 {
		l.c *= g
		l.s *= g
	}
}

func (h *hum) state() (hz, db float64, lines int) {
	var p50, p60 float64 // the power of the lines cancelled, per mains frequency
	for _, l := range h.lines {
		if !l.on {
			continue
		}
		if lines == 0 || l.db > db {
			db = l.db
		}
		lines++
		if p := math.Pow(10, l.db/10); l.mains == 50 {
			p50 += p
		} else {
			p60 += p
		}
	}
	switch {
	case lines == 0:
	case p50 >= p60:
		hz = 50
	default:
		hz = 60
	}
	return hz, db, lines
}
