// Package condition cleans what a real microphone adds to the table's sound
// before any of it is analysed: a DC offset, mains hum, and the holes that
// noise suppression and muting cut into the stream.
//
// A Conditioner is one small object with explicit state, fed mono samples in
// blocks of any size; its output does not depend on the block sizes, since
// every decision is taken at sample counts measured from the stream's start.
//
//   - DC: the offset is measured (over the last two seconds, from the means
//     of 0.1 s blocks); while it is DCOn or more, a high-pass filter at HighPassHz
//     (second-order Butterworth) removes it and the slow drift below
//     hearing that cheap microphones and codecs add. A microphone without
//     an offset passes untouched: the filter would shift the start of a
//     thump a little, for nothing.
//   - Hum: every HumEvery seconds the last HumWindow seconds are searched for
//     stationary lines at the mains frequencies (50 and 60 Hz) and their
//     harmonics up to HumHarmonics (in the first half second, all there is,
//     from HumFirstWindow on); each line found is cancelled by an adaptive
//     sinusoid (a notch that follows the line's amplitude and phase), which
//     starts where the search saw the line when that was a steady sinusoid,
//     and goes on while the line keeps its level even when a knock hides it.
//     Nothing is touched while no line is found, so a clean recording passes
//     unchanged.
//   - Holes: runs of exact zeros (digital silence: a muted microphone, a
//     noise gate closing, the first buffers of a stream) pass as zeros, but
//     are counted, and the room's level is followed from the stretches of
//     sound well away from them (State.RoomDB), so that the Listener can
//     judge a sound after a hole against the room rather than against
//     nothing (BehindSilence; behind a gate that opens only for sounds,
//     under the quietest sound it lets through). Sudden drops far below the
//     room's level (a gate that ducks) are counted too.
package condition

import (
	"math"
	"sort"
)

// Tunables.
const (
	// HighPassHz is the corner of the high-pass that removes DC and drift:
	// below the lowest thump of a table (a bang is loud from about 40 Hz).
	HighPassHz = 20.0
	// DCOn is the DC offset from which it is filtered out, DCOff the one
	// below which the filter is taken away again. (Recordings carry a slow
	// drift whose two-second means reach 0.005 of full scale; that is left
	// alone.)
	DCOn, DCOff = 0.006, 0.003
	// DCSeconds is the span over which the DC offset is measured: the mean
	// of the middle half of the means of its blocks of DCBlockSeconds (a
	// clap's lopsided waveform moves a few of them; a block holds whole
	// periods of 50 and 60 Hz, so hum adds nothing to it).
	DCSeconds      = 2.0
	DCBlockSeconds = 0.1
	// DCTellSeconds is the time constant of the offset told to the user
	// (State.DC): long enough for a slow drift to average out.
	DCTellSeconds = 10.0
	// ZeroRunSeconds is how long a run of exact zeros must last to be taken
	// for digital silence (a quiet 16-bit signal crosses zero often, but
	// not for this long).
	ZeroRunSeconds = 0.002
)

// State is what the Conditioner knows about its input, for telling the user
// about the microphone.
type State struct {
	DC        float64 // the input's DC offset (a running mean over about DCTellSeconds)
	HumHz     float64 // the mains frequency whose lines are cancelled (0: none)
	HumDB     float64 // the strongest hum line's level, dBFS (RMS of the sinusoid)
	HumLines  int     // how many lines are cancelled now
	Silent    bool    // the input is digitally silent now (a run of exact zeros)
	Heard     bool    // a sample other than zero has been seen
	SilentFor float64 // seconds of digital silence so far (all runs)
	SilentRun float64 // seconds of the current run of digital silence (0 when there is sound)
	Holes     int     // holes cut into the sound so far: runs of zeros and ducks after it started
	RoomDB    float64 // the room's level (dBFS, 10 ms blocks) over the last seconds of sound; RoomKnown says whether any was heard
	RoomKnown bool
}

// GateMarginDB is how far under the quietest sound a gate lets through the
// room it shuts out is taken to be (gates open some 10-20 dB over the room).
const GateMarginDB = 10.0

// GatedSpreadDB: when the room's level (taken from stretches long open)
// stands more than this over the quietest sound let through, what was open
// was sounds, not the room: a gate shuts the room out.
const GatedSpreadDB = 8.0

// BehindSilence is the level, in dBFS, of the room a sound that follows
// digital silence is to be judged against, from what was heard before
// sample from, and whether anything was: the room's level when it has been
// heard, or, behind a gate that lets only sounds through, GateMarginDB
// under the quietest of them (the OpenShare quantile of the 10 ms blocks
// with no zeros over the last OpenSeconds: about the gate's threshold).
func (c *Conditioner) BehindSilence(from int64) (float64, bool) {
	r := &c.room
	room := len(r.levels) > 0 && r.from >= 0 && r.from <= from
	if len(r.open) == 0 || r.openFrom < 0 || r.openFrom > from {
		return r.typical, room
	}
	quiet := r.quiet()
	if room && r.typical-quiet <= GatedSpreadDB {
		return r.typical, true
	}
	return quiet - GateMarginDB, true
}

// Conditioner conditions one mono stream. Make it with New.
type Conditioner struct {
	rate int

	// DC
	dcSum    float64
	dcN      int
	dcBlock  int
	dcMeans  []float64 // block means, a ring
	dcAt     int
	hp       highPass
	hpOn     bool
	dcSlow   float64 // the offset over DCTellSeconds, to tell the user
	dcSorted []float64

	// digital silence
	zeroRun  int
	minZeros int
	heard    bool
	silent   int64 // samples in zero runs
	holes    int   // zero runs after the first sound

	hum  hum
	room room
}

// New makes a Conditioner for a stream at rate Hz.
func New(rate int) *Conditioner {
	rate = max(rate, 1)
	c := &Conditioner{
		rate:     rate,
		dcBlock:  max(int(DCBlockSeconds*float64(rate)), 1),
		dcMeans:  make([]float64, 0, int(DCSeconds/DCBlockSeconds)),
		minZeros: max(int(ZeroRunSeconds*float64(rate)), 8),
		hp:       newHighPass(HighPassHz, rate),
	}
	c.hum.init(rate)
	c.room.init(rate)
	return c
}

// Process appends the conditioned samples of x to dst and returns it.
// (One loop with the rare work, at the end of blocks, in calls: this runs
// on every sample of every stream.)
func (c *Conditioner) Process(dst, x []float64) []float64 {
	h, r := &c.hum, &c.room
	for _, v := range x {
		if v == 0 {
			if c.zeroRun++; c.zeroRun == c.minZeros && c.heard {
				c.holes++
			}
		} else {
			if !c.heard || c.zeroRun >= c.minZeros {
				// sound starts (again): as if it had always been there,
				// so that an offset does not ring the filter
				c.hp.settle(v)
				c.heard = true
			}
			c.zeroRun = 0
		}
		h.acc += v
		if h.k++; h.k == h.box {
			h.push()
		}
		silent := c.zeroRun >= c.minZeros
		var y float64
		if silent {
			c.silent++
		} else {
			c.dcSum += v
			if c.dcN++; c.dcN == c.dcBlock {
				c.dcBlockEnd(v)
			}
			y = v
			if c.hpOn {
				y = c.hp.next(v)
			}
			if h.active {
				y = h.cancel(y)
			}
		}
		r.samples++
		r.hole = r.hole || silent
		r.sum += y * y
		if r.n++; r.n == r.block {
			r.blockEnd()
		}
		dst = append(dst, y)
	}
	return dst
}

// dcBlockEnd measures the offset at the end of a block and turns the
// high-pass on or off; v is the block's last sample.
func (c *Conditioner) dcBlockEnd(v float64) {
	m := c.dcSum / float64(c.dcN)
	if len(c.dcMeans) < cap(c.dcMeans) {
		c.dcMeans = append(c.dcMeans, m)
	} else {
		c.dcMeans[c.dcAt] = m
		c.dcAt = (c.dcAt + 1) % len(c.dcMeans)
	}
	c.dcSum, c.dcN = 0, 0
	if len(c.dcMeans) == 1 {
		c.dcSlow = m
	}
	c.dcSlow += (m - c.dcSlow) * DCBlockSeconds / DCTellSeconds
	if len(c.dcMeans) < 3 {
		return
	}
	dc := math.Abs(c.dcNow())
	switch {
	case !c.hpOn && dc >= DCOn:
		c.hpOn = true
		c.hp.settle(v)
	case c.hpOn && dc < DCOff:
		c.hpOn = false
	}
}

// highPass is a second-order Butterworth high-pass (direct form I).
type highPass struct {
	b0, b1, b2, a1, a2 float64
	x1, x2, y1, y2     float64
}

func newHighPass(hz float64, rate int) highPass {
	w := 2 * math.Pi * math.Min(hz, 0.45*float64(rate)) / float64(rate)
	alpha := math.Sin(w) / math.Sqrt2 // Q = 1/sqrt(2)
	cw := math.Cos(w)
	a0 := 1 + alpha
	return highPass{
		b0: (1 + cw) / 2 / a0, b1: -(1 + cw) / a0, b2: (1 + cw) / 2 / a0,
		a1: -2 * cw / a0, a2: (1 - alpha) / a0,
	}
}

// settle sets the filter as if v had been its input for ever.
func (h *highPass) settle(v float64) { h.x1, h.x2, h.y1, h.y2 = v, v, 0, 0 }

func (h *highPass) next(x float64) float64 {
	y := h.b0*x + h.b1*h.x1 + h.b2*h.x2 - h.a1*h.y1 - h.a2*h.y2
	h.x2, h.x1 = h.x1, x
	h.y2, h.y1 = h.y1, y
	return y
}

// dc is the DC offset to tell the user: 0 until a second of sound has been
// heard (the few blocks a gate lets through are claps, lopsided ones).
func (c *Conditioner) dc() float64 {
	if len(c.dcMeans) < cap(c.dcMeans)/2 {
		return 0
	}
	return c.dcSlow
}

// dcNow is the mean of the middle half of the recent block means: a clap's
// lopsided blocks fall outside it, and a slow drift (a few Hz, which a
// block's mean follows) averages out over the span, where a true offset
// does not.
func (c *Conditioner) dcNow() float64 {
	c.dcSorted = append(c.dcSorted[:0], c.dcMeans...)
	sort.Float64s(c.dcSorted)
	n := len(c.dcSorted)
	mid := c.dcSorted[n/4 : n-n/4]
	var sum float64
	for _, m := range mid {
		sum += m
	}
	return sum / float64(len(mid))
}

// State reports what the Conditioner knows now.
func (c *Conditioner) State() State {
	s := State{
		DC:        c.dc(),
		Silent:    c.zeroRun >= c.minZeros,
		Heard:     c.heard,
		SilentFor: float64(c.silent) / float64(c.rate),
		Holes:     c.holes + c.room.ducks,
		RoomDB:    c.room.typical,
		RoomKnown: len(c.room.levels) > 0,
	}
	if s.Silent {
		s.SilentRun = float64(c.zeroRun) / float64(c.rate)
	}
	s.HumHz, s.HumDB, s.HumLines = c.hum.state()
	return s
}
