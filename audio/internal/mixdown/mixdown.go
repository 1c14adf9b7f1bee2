// Package mixdown folds interleaved channels into the one mono stream the
// analysis hears, so that no single channel can cancel or dilute the others.
//
// Averaging channels, as a plain mixdown does, fails on real microphones: a
// laptop's mic pair with one channel inverted averages to nothing, a dead
// channel halves every sound, and a channel that lags the other turns the
// average into a comb filter. A Mixer watches how the channels relate and
// mixes by that:
//
//   - a channel more than DeadBelow dB under the loudest (dead) does not
//     count in the average, so the live channels keep their level;
//
//   - a channel whose samples run against the loudest one's (correlation
//     at or below -Related) is turned over before it is added (inverted).
//
//   - a live channel that does not line up with the loudest is left out
//     (apart): the loudest channel is picked rather than averaged with a
//     shifted copy of itself, which would comb filter it. A channel does
//     not line up when it barely correlates with the loudest (correlation
//     between -Related and Together: delayed by more than a moment, or a
//     different microphone), or when it correlates better, either way round,
//     shifted by one of Lags than as it stands (delayed by a little: a pair
//     a few centimetres apart, or half a millisecond, still correlates well
//     on a low thump, or even runs against it, but its average notches out
//     the kilohertz that tell a clap). A delayed channel is left out, never
//     turned over.
//
// The channels left are then averaged. What the Mixer
// decided is available from State, for telling the user about the
// microphone.
//
// The statistics decay with a time constant of Memory seconds and the mix
// changes only at frame boundaries counted from the start of the stream
// (crossfading over one frame), so the output does not depend on the size
// of the blocks it is fed in: a file read in blocks of 4096 and a
// microphone delivering 256 frames at a time mix identically.
package mixdown

import (
	"math"

	"github.com/tableref/tableref/audio/internal/level"
)

const (
	// DeadBelow is how far under the loudest channel, in dB, a channel is
	// taken for dead.
	DeadBelow = 40.0
	// Related is the correlation with the loudest channel at or below
	// -Related that marks a channel as inverted.
	Related = 0.3
	// Together is the least correlation with the loudest channel of a
	// channel that is averaged in (unless it is inverted): less means the
	// two do not line up (one is delayed, or they are different
	// microphones), and it is left out.
	Together = 0.5
	// LagSlack is how much better, in correlation (its size, either sign),
	// the channel must line up with the loudest when shifted by one of Lags
	// than as it stands to be taken for delayed.
	LagSlack = 0.01
	// Memory is the time constant of the statistics, in seconds.
	Memory = 2.0
	// FrameSeconds is how often the mix is reconsidered.
	FrameSeconds = 0.01
)

// Lags are the shifts, in seconds, at which a channel is compared with the
// loudest, either way round, besides one sample: from a microphone pair a
// few centimetres apart to 4 ms. A low thump's correlation falls off slowly
// with the shift, so a shift near the channel's true delay lines it up
// better than none does.
var Lags = []float64{0.0000625, 0.000125, 0.00025, 0.0005, 0.001, 0.002, 0.004}

// Channel is what the Mixer knows about one input channel.
type Channel struct {
	Level       float64 // mean power in dB (about the last Memory seconds)
	Correlation float64 // with the loudest channel (1 for the loudest itself)
	Dead        bool    // too quiet to be a microphone: not counted in the average
	Inverted    bool    // runs against the loudest channel: turned over
	Apart       bool    // live but not in line with the loudest (delayed, another mic): left out
	Used        bool    // counted in the average now
}

// State is the Mixer's current view of its input.
type State struct {
	Loudest  int       // index of the loudest channel
	Channels []Channel // one per input channel
}

// Mixer folds interleaved channels into mono. Make one with New.
type Mixer struct {
	n       int
	frame   int // samples per frame
	at      int // samples into the current frame
	decay   float64
	energy  []float64 // decayed sums of squares, per channel
	cross   []float64 // decayed sums of x[a]*x[b], a < b, row by row
	lags    []int     // the shifts compared, in samples: 1, then Lags
	early   []float64 // per pair, per lag: decayed sums of x[a] times x[b] lag samples earlier
	late    []float64 // the same of x[a] lag samples earlier times x[b]
	hist    []float64 // the last maxLag samples of each channel, a ring per channel
	hAt     int       // where the next sample goes in each ring
	maxLag  int
	ref     int       // the loudest channel, decided at the last boundary
	weight  []float64 // the mix in force
	prev    []float64 // the mix before it, faded out over the frame
	fading  bool
	state   State
	started bool      // a frame with sound has been judged
	held    []float64 // the first sound's frame so far, interleaved
	flip    []bool    // channels turned over at the last boundary
	w       []float64 // scratch for the new mix
}

// New makes a Mixer for channels interleaved channels at rate Hz.
func New(channels, rate int) *Mixer {
	channels = max(channels, 1)
	frame := max(int(FrameSeconds*float64(rate)), 1)
	lags := []int{1}
	for _, sec := range Lags {
		if l := int(math.Round(sec * float64(rate))); l > lags[len(lags)-1] {
			lags = append(lags, l)
		}
	}
	pairs := channels * (channels - 1) / 2
	maxLag := lags[len(lags)-1]
	m := &Mixer{
		n:      channels,
		frame:  frame,
		decay:  math.Exp(-float64(frame) / (Memory * float64(rate))),
		energy: make([]float64, channels),
		cross:  make([]float64, pairs),
		lags:   lags,
		early:  make([]float64, pairs*len(lags)),
		late:   make([]float64, pairs*len(lags)),
		hist:   make([]float64, channels*maxLag),
		maxLag: maxLag,
		weight: make([]float64, channels),
		prev:   make([]float64, channels),
		flip:   make([]bool, channels),
		w:      make([]float64, channels),
	}
	for i := range m.weight {
		m.weight[i] = 1 / float64(channels)
	}
	m.state.Channels = make([]Channel, channels)
	for i := range m.state.Channels {
		m.state.Channels[i].Used = true
		m.state.Channels[i].Correlation = 1
	}
	return m
}

// State reports what the Mixer has decided so far (a copy).
func (m *Mixer) State() State {
	s := m.state
	s.Channels = append([]Channel(nil), m.state.Channels...)
	return s
}

// Mix appends the mono mix of the interleaved samples in to dst. A trailing
// partial frame of in (fewer samples than channels) is ignored.
func Mix[T float32 | float64](m *Mixer, dst []float64, in []T) []float64 {
	n := m.n
	if n == 1 {
		for _, v := range in {
			dst = append(dst, float64(v))
		}
		return dst
	}
	nl, ml := len(m.lags), m.maxLag
	for i := 0; i+n <= len(in); i += n {
		x := in[i : i+n]
		k := 0
		quiet := true
		for a, v := range x {
			f := float64(v)
			quiet = quiet && f*f == 0 // adds no energy (a tiny float too): nothing to judge by
			m.energy[a] += f * f
			ha := m.hist[a*ml : (a+1)*ml]
			for b, u := range x[a+1:] {
				g := float64(u)
				m.cross[k] += f * g
				hb := m.hist[(a+1+b)*ml : (a+2+b)*ml]
				early, late := m.early[k*nl:(k+1)*nl], m.late[k*nl:(k+1)*nl]
				for j, l := range m.lags {
					at := m.hAt - l
					if at < 0 {
						at += ml
					}
					early[j] += f * hb[at]
					late[j] += ha[at] * g
				}
				k++
			}
		}
		for a, v := range x {
			m.hist[a*ml+m.hAt] = float64(v)
		}
		if m.hAt++; m.hAt == ml {
			m.hAt = 0
		}
		switch {
		case !m.started && len(m.held) == 0 && quiet:
			// digital silence before any sound: mixed as it stands
			var out float64
			for c, v := range x {
				out += m.weight[c] * float64(v)
			}
			dst = append(dst, clamp(out))
		case !m.started:
			// the first sound: held to the end of its frame, so that it is
			// mixed the way that frame shows (an inverted pair averaged
			// would start the stream with its cancellation)
			for _, v := range x {
				m.held = append(m.held, float64(v))
			}
		case m.fading:
			// linear crossfade from the old mix to the new over one frame
			g := float64(m.at+1) / float64(m.frame)
			var out float64
			for c, v := range x {
				out += (g*m.weight[c] + (1-g)*m.prev[c]) * float64(v)
			}
			dst = append(dst, clamp(out))
		default:
			var out float64
			for c, v := range x {
				out += m.weight[c] * float64(v)
			}
			dst = append(dst, clamp(out))
		}
		m.at++
		if m.at == m.frame {
			m.at = 0
			m.decide()
			m.decayAll()
			dst = m.release(dst)
		}
	}
	return dst
}

// Flush appends what the Mixer still holds (the start of a stream's first
// sound, when the stream ends within that sound's first frame).
func (m *Mixer) Flush(dst []float64) []float64 {
	if len(m.held) > 0 {
		m.decide()
	}
	return m.release(dst)
}

// release appends the held samples mixed by the mix now decided.
func (m *Mixer) release(dst []float64) []float64 {
	if !m.started {
		return dst
	}
	for i := 0; i+m.n <= len(m.held); i += m.n {
		var out float64
		for c, v := range m.held[i : i+m.n] {
			out += m.weight[c] * v
		}
		dst = append(dst, clamp(out))
	}
	m.held = m.held[:0]
	return dst
}

// decide reconsiders the mix at the end of a frame.
func (m *Mixer) decide() {
	m.fading = false
	loud := 0
	for c, e := range m.energy {
		if e > m.energy[loud] {
			loud = c
		}
	}
	if m.energy[loud] <= 0 {
		return // digital silence so far: nothing to judge by
	}
	first := !m.started
	if first || m.energy[loud] > 1.4*m.energy[m.ref] {
		// a new loudest channel (by more than 1.5 dB, so that two equal
		// channels do not keep trading places)
		m.ref = loud
	}
	m.started = true
	ref := m.ref
	eRef := m.energy[ref]
	w := m.w
	for c := range w {
		w[c] = 0
	}
	used := 0
	for c := range m.n {
		ch := &m.state.Channels[c]
		e := m.energy[c]
		ch.Level = level.DB(e / (float64(m.frame) / (1 - m.decay)))
		ch.Dead = c != ref && e < eRef*math.Pow(10, -DeadBelow/10)
		corr, shifted := 1.0, 0.0
		if c != ref {
			corr = 0
			if e > 0 {
				k := m.index(c, ref)
				norm := math.Sqrt(e * eRef)
				corr = m.cross[k] / norm
				nl := len(m.lags)
				for j := range nl {
					shifted = math.Max(shifted, math.Max(math.Abs(m.early[k*nl+j]), math.Abs(m.late[k*nl+j]))/norm)
				}
			}
		}
		ch.Correlation = corr
		// delayed: a shift lines it up better (either sign) by LagSlack;
		// still delayed until no shift does
		delayed := shifted > math.Abs(corr)+LagSlack
		if ch.Apart {
			delayed = shifted > math.Abs(corr)
		}
		// turned over at -Related, back only above -Related+0.1, so that a
		// correlation hovering near the line does not flip the mix each
		// frame; never a delayed channel, whose average would comb filter
		m.flip[c] = c != ref && !ch.Dead && !delayed && (corr <= -Related || m.flip[c] && corr < -Related+0.1)
		ch.Inverted = m.flip[c]
		// a live channel that does not line up with the loudest (delayed,
		// or another microphone) is left out: averaged in, it would comb
		// filter the sound; out at Together, back in above Together+0.1
		apart := corr < Together || delayed
		if ch.Apart {
			apart = corr < Together+0.1 || delayed
		}
		ch.Apart = c != ref && !ch.Dead && !m.flip[c] && apart
		switch {
		case ch.Apart:
			w[c] = 0
		case m.flip[c]:
			w[c] = -1
		default:
			w[c] = 1
		}
		if !ch.Dead && !ch.Apart {
			used++
		}
	}
	// Dead channels stay in the sum, but the sum is divided among the live
	// ones only: they carry next to nothing, so the live sound keeps its
	// level, and one that wakes up is heard at once, not a frame later.
	changed := false
	for c := range w {
		w[c] /= float64(used)
		m.state.Channels[c].Used = !m.state.Channels[c].Dead && !m.state.Channels[c].Apart
		if w[c] != m.weight[c] {
			changed = true
		}
	}
	m.state.Loudest = ref
	if changed {
		copy(m.prev, m.weight)
		copy(m.weight, w)
		m.fading = !first // nothing was heard through the old mix
	}
}

// index is where the pair a, b (a != b) is kept in cross, early and late.
func (m *Mixer) index(a, b int) int {
	if a > b {
		a, b = b, a
	}
	// rows 0..a-1 hold n-1, n-2, ... pairs
	return a*(2*m.n-a-1)/2 + (b - a - 1)
}

func (m *Mixer) decayAll() {
	for c := range m.energy {
		m.energy[c] *= m.decay
	}
	for k := range m.cross {
		m.cross[k] *= m.decay
	}
	for k := range m.early {
		m.early[k] *= m.decay
		m.late[k] *= m.decay
	}
}

// clamp keeps a mix in [-1, 1]: a dead channel's remainder, counted in the
// sum but not in the average, can carry a full-scale sample just past it.
func clamp(x float64) float64 { return math.Max(-1, math.Min(1, x)) }
