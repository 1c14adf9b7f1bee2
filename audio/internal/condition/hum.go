package condition

import (
	"math"
	"math/cmplx"

	"github.com/tableref/tableref/audio/internal/level"
)

// Hum tunables.
const (
	// HumHarmonics is the highest harmonic of the mains looked for.
	HumHarmonics = 7
	// HumWindow is the span, in seconds, searched for lines.
	HumWindow = 0.5
	// HumFirstWindow is the span, in seconds, of the first search; until
	// HumWindow seconds have been heard the search runs every HumEvery/2
	// seconds over all there is.
	HumFirstWindow = 0.25
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
	// HumRampSeconds is how long a canceller that starts at full strength
	// (on a steady line) takes to fade in, along a raised cosine: starting
	// at once, it would cut a loud hum off in one sample, a click the
	// onset detector hears as a clap.
	HumRampSeconds = 0.03
	// HumPhasorErr is how far, as a share of its size, a line's phasor may
	// stray from the one the search before foresaw and still count as the
	// same steady sinusoid: a canceller starts at once only on such a line
	// (on a guess thrown off by a knock it would add a tone of its own).
	HumPhasorErr = 0.15
)

// hum finds mains lines and cancels them.
type hum struct {
	rate     int
	box      int     // input samples summed into one search sample
	sr       float64 // the search rate
	acc      float64
	k        int
	ring     []float64 // the last HumWindow seconds, at the search rate
	at       int       // next write position in ring
	total    int64     // search samples so far
	every    int64
	win      []float64 // Hann window
	short    []float64 // room for the shorter windows of the first searches
	wsum     float64   // the sum of the window of the search under way
	early    int64     // search samples before the first search
	last     int64     // when the last search ran, in search samples
	lin      []float64 // the ring in time order, windowed, for one search
	lines    []line
	mu       float64
	rampStep float64 // a fade-in's progress per input sample
	active   bool    // some line is cancelled
}

type line struct {
	hz         float64
	mains      float64 // 50 or 60
	hits, miss int
	on         bool
	db         float64
	onDB       float64 // its level when last seen clear of its sides while cancelled
	lo, hi     float64 // the line's level over its hits
	// the canceller: an oscillator and the sinusoid's estimated
	// coefficients, hum = a·cos + b·sin
	c, s, rc, rs float64
	a, b         float64
	// how far the canceller's fade-in has gone, 0..1 (1: in full)
	ramp float64
	// the line's phasor at the last search that found it (see phasor), and
	// that search's time in search samples (0: none)
	z   complex128
	zAt int64
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
	h.short = make([]float64, n)
	h.every = max(2, int64(HumEvery*h.sr))
	h.early = max(1, int64(HumFirstWindow*h.sr))
	h.mu = 2 / (HumNotchSeconds * float64(rate))
	h.rampStep = 1 / (HumRampSeconds * float64(rate))
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
	n := int64(len(h.ring))
	switch {
	case h.total >= n:
		if (h.total-n)%h.every == 0 {
			h.search(int(n))
		}
	case h.total >= h.early && (h.total-h.early)%(h.every/2) == 0:
		// before the ring is full, a shorter window: the hum of a stream
		// is cancelled from its first half second
		h.search(int(h.total))
	}
}

// search looks for stationary lines in the last m samples of the ring.
func (h *hum) search(m int) {
	n := len(h.ring)
	win := h.win
	if m < n {
		win = hann(h.short[:m])
	}
	// power of a windowed sinusoid of amplitude 1, to report line levels
	// as the RMS of the sinusoid in the input
	var wsum float64
	for _, w := range win {
		wsum += w
	}
	h.wsum = wsum
	ref := wsum * wsum / 4
	h.lin = h.lin[:m]
	for i := range h.lin {
		h.lin[i] = h.ring[(h.at+n-m+i)%n] * win[i]
	}
	// the sides are as many bins away in a shorter window
	sideHz := HumSideHz * float64(n) / float64(m)
	for i := range h.lines {
		l := &h.lines[i]
		x := h.goertzel(l.hz)
		p := power(x)
		l.db = level.DB(p/ref) - 3 // amplitude² → RMS²
		found := false
		if l.db >= HumFloorDB { // (the sides are looked at only then: this runs on every stream)
			side := 0.5 * (power(h.goertzel(l.hz-sideHz)) + power(h.goertzel(l.hz+sideHz)))
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
			z := h.phasor(x, l.hz)
			if l.hits >= HumOnAfter && !l.on {
				l.on = true
				l.ramp = 1 // a canceller starting from nothing fades in as it learns
				if h.steady(l, z) {
					// the canceller starts where it would have converged
					// to, with its oscillator at phase 0 on the ring's last
					// sample (the next one it cancels), fading in
					l.c, l.s = 1, 0
					l.a, l.b = real(z), -imag(z)
					l.ramp = 0
				}
			}
			l.z, l.zAt = z, h.total
			if l.on {
				l.onDB = l.db // its level when last seen clearly
			}
		} else if l.on && l.db >= l.onDB-HumSteadyDB {
			// A line being cancelled that no longer stands clear of its
			// sides, at its level still: a knock or a voice spreads over
			// them. The mains is still there; dropping its canceller now
			// would bring the hum back at once, a sudden tone.
			l.hits = 0
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
	h.last = h.total
}

// hann fills w with a Hann window of its length and returns it.
func hann(w []float64) []float64 {
	for i := range w {
		w[i] = 0.5 - 0.5*math.Cos(2*math.Pi*(float64(i)+0.5)/float64(len(w)))
	}
	return w
}

// phasor is a line's complex amplitude at the last input sample of the
// ring, from its Fourier coefficient x at hz over the windowed ring: the
// input there carries about real(z·e^{iωk}) k samples later.
func (h *hum) phasor(x complex128, hz float64) complex128 {
	// the ring's samples are means of box input samples: a line at hz comes
	// through them smaller by g, and late by half a box
	w := 2 * math.Pi * hz / float64(h.rate)
	g := 1.0
	if b := float64(h.box); b > 1 {
		g = math.Sin(w*b/2) / (b * math.Sin(w/2))
	}
	amp := 2 * cmplx.Abs(x) / h.wsum / g
	// input sample j of the ring (0 = its first) carries amp·cos(w·j + phase)
	phase := cmplx.Phase(x) - w*(float64(h.box)-1)/2
	return cmplx.Rect(amp, phase+w*float64(len(h.lin)*h.box-1))
}

// steady reports whether the line's phasor z, found by this search, is the
// one the search before found, carried forward by the time between them:
// a stationary sinusoid (the mains), not a tone that came and went.
func (h *hum) steady(l *line, z complex128) bool {
	if l.zAt == 0 || l.zAt != h.last {
		return false // not found by the search before
	}
	w := 2 * math.Pi * l.hz / float64(h.rate)
	want := l.z * cmplx.Rect(1, w*float64((h.total-l.zAt)*int64(h.box)))
	return cmplx.Abs(z-want) <= HumPhasorErr*cmplx.Abs(z)
}

// goertzel is the Fourier coefficient at hz of the windowed ring (lin),
// Σ lin[m]·e^{-iθm}.
func (h *hum) goertzel(hz float64) complex128 {
	w := 2 * math.Pi * hz / h.sr
	cw := 2 * math.Cos(w)
	var s1, s2 float64
	for _, x := range h.lin {
		s1, s2 = x+cw*s1-s2, s1
	}
	// s1 - e^{-iθ}·s2 is the coefficient turned by θ(n-1)
	y := complex(s1-math.Cos(w)*s2, math.Sin(w)*s2)
	return y * cmplx.Rect(1, -w*float64(len(h.lin)-1))
}

// power is |x|².
func power(x complex128) float64 { return real(x)*real(x) + imag(x)*imag(x) }

// cancel subtracts the lines being cancelled from v. A canceller still
// fading in subtracts only part of its line, but learns from what full
// cancellation would leave.
func (h *hum) cancel(v float64) float64 {
	e, out := v, v
	any := false
	for i := range h.lines {
		l := &h.lines[i]
		if l.on {
			est := l.a*l.c + l.b*l.s
			e -= est
			g := 1.0
			if l.ramp < 1 {
				g = 0.5 - 0.5*math.Cos(math.Pi*l.ramp)
				l.ramp = math.Min(1, l.ramp+h.rampStep)
			}
			out -= g * est
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
	return out
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
		// the level it was last seen clearly at: while a knock hides it, a
		// search can measure it far off
		if lines == 0 || l.onDB > db {
			db = l.onDB
		}
		lines++
		if p := math.Pow(10, l.onDB/10); l.mains == 50 {
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
