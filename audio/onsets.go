package audio

import (
	"math"
	"sort"

	"github.com/tableref/tableref/audio/gesture"
	"github.com/tableref/tableref/audio/internal/decimate"
	"github.com/tableref/tableref/audio/internal/level"
	"github.com/tableref/tableref/audio/onset"
)

// onsetStage finds where sounds start in the conditioned stream, as aubio's
// onset objects do: the samples are decimated to the analysis rate (see
// AnalysisRate), an STFT frames them, the band flux (onset.BandFlux) rises
// when a sound starts and a peak picker marks its peaks. Each peak is then
// placed in the waveform to about a millisecond (refine) and handed on as a
// sighting. It keeps only its own state: the samples it refines in are
// the history it is given.
type onsetStage struct {
	rate    int
	dec     *decimate.Decimator // to the onset analysis rate
	down    []float64           // decimated samples of the current chunk
	stft    *onset.STFT
	flux    *onset.BandFlux
	pick    onset.Picker
	scratch []float64
}

// sighting is a sound seen starting: its first sample, and the onset
// strength (the band flux) at its peak.
type sighting struct {
	on       int64
	strength float64
}

// newOnsetStage makes the onset stage for a stream at rate Hz, marking
// peaks of the band flux from threshold up.
func newOnsetStage(rate int, threshold float64) *onsetStage {
	dec := decimate.New(max(1, rate/AnalysisRate), 0.9)
	arate := rate / dec.Factor
	n, hop := onset.FrameSizes(arate)
	return &onsetStage{
		rate: rate,
		dec:  dec,
		stft: onset.NewSTFT(n, hop),
		flux: onset.NewBandFlux(arate, n, hop),
		pick: onset.Picker{Threshold: threshold},
	}
}

// hop is how many input samples an analysis frame moves on by.
func (s *onsetStage) hop() int { return s.stft.Hop * s.dec.Factor }

// analysis is the analysis rate in Hz and the STFT's frame and hop in
// samples at that rate.
func (s *onsetStage) analysis() (rate, n, hop int) {
	return s.rate / s.dec.Factor, s.stft.N, s.stft.Hop
}

// push takes the next conditioned samples, chunk, which the history h ends
// with. It hands each analysis frame's power spectrum to frame and each
// sound seen starting to sighted, in the order they come.
func (s *onsetStage) push(chunk []float64, h *history, frame func(power []float64), sighted func(sighting)) {
	s.down = s.dec.Process(chunk, s.down[:0])
	s.stft.Push(s.down, func(f int64, power []float64) {
		frame(power)
		peak, strength := s.pick.Next(s.flux.Next(power))
		if !peak {
			return
		}
		// The peak was the previous frame; map its span back to input
		// samples (the decimator delays its output) and widen it by a hop
		// each side.
		fac, delay := int64(s.dec.Factor), int64(s.dec.Delay)
		hop, n := int64(s.stft.Hop)*fac, int64(s.stft.N)*fac
		start := (f-1)*hop - delay
		sighted(sighting{on: s.refine(h, start-hop-delay, start+n+hop+delay), strength: strength})
	})
}

// refine finds where the sound that peaked in [a, b) of the history h
// starts: the loudest millisecond of the span, then back while the level
// stays well above the background heard just before the span.
func (s *onsetStage) refine(h *history, a, b int64) int64 {
	rate, end := int64(s.rate), h.end()
	blk, step := max(rate/1000, 1), max(rate/2000, 1)
	a = max(a, h.start)
	b = min(b, end)
	env := func(at int64) float64 { return level.DB(level.MeanSquare(h.slice(at, min(at+blk, end)))) }
	if b-a < blk {
		return max(a, 0)
	}
	pk, at := math.Inf(-1), a
	for t := a; t+blk <= b; t += step {
		if e := env(t); e > pk {
			pk, at = e, t
		}
	}
	s.scratch = s.scratch[:0]
	for t := max(a-rate/50, h.start); t+blk <= a; t += step {
		s.scratch = append(s.scratch, env(t))
	}
	bg := pk - 30
	if len(s.scratch) > 0 {
		sort.Float64s(s.scratch)
		bg = s.scratch[len(s.scratch)/2]
	}
	// The start is where the level first stands well above the background,
	// and within RefineRange dB of the peak: a faint lead-in of a drum
	// sample or the tail of the room is not the hit.
	thr := math.Max(bg+math.Max(6, 0.25*(pk-bg)), pk-RefineRange)
	// A low thump's millisecond level dips at each zero crossing of its
	// waveform: the walk goes on over dips of up to RefineGapMs, and ends
	// at the earliest millisecond above the threshold.
	on, gap := at, max(int64(RefineGapMs*float64(rate)/1000), step)
	for t := at - step; t >= max(a-rate*3/100, h.start) && on-t <= gap; t -= step {
		if env(t) > thr {
			on = t
		}
	}
	return on
}

// candidate is a sound to be judged.
type candidate struct {
	on       int64
	strength float64
	wait     int64 // samples of it to hear before it is judged
	first    bool  // it starts the stream's sound (see FirstWait)
	looked   bool  // a first sound's loudness has been looked at (see FirstLoudDB)
}

// due is the sample at which p is next looked at: judged, or, for the
// stream's first sound, measured after the usual wait (after samples).
func (p *candidate) due(after int64) int64 {
	if p.first && !p.looked {
		return p.on + min(after, p.wait)
	}
	return p.on + p.wait
}

// candidates turns sightings into the sounds to judge, one at a time: a
// sound seen twice is judged once, a sound is judged once gesture.After of
// it has been heard (the stream's first sound later: see FirstWait), and a
// new sound seen starting has the one waiting judged at once. It is told
// each verdict (judged), since after a gesture nothing close behind it is
// a new sound.
type candidates struct {
	after     int64 // samples of a sound heard before it is judged
	firstSpan int64 // FirstSpan, in samples
	firstWait int64 // FirstWait, in samples
	spacing   int64 // MinSpacing, in samples
	first     int64 // the stream's first sample that is not zero (-1 before it)

	pending *candidate // the sound waiting to be judged
	decided candidate  // the last candidate judged (on -1 before any)
	wasGest bool       // whether it was judged a gesture
}

func newCandidates(rate int) candidates {
	r := float64(rate)
	return candidates{
		after:     int64(gesture.After * r),
		firstSpan: int64(FirstSpan * r),
		firstWait: int64(FirstWait * r),
		spacing:   int64(MinSpacing * r),
		first:     -1,
		decided:   candidate{on: -1},
	}
}

// heard takes the raw samples x, which start at sample pos of the stream,
// for where its sound starts.
func (q *candidates) heard(x []float64, pos int64) {
	if q.first >= 0 {
		return
	}
	for i, v := range x {
		if v != 0 {
			q.first = pos + int64(i)
			return
		}
	}
}

// sight takes a sound seen starting. It returns the candidate to judge now,
// if any: the one that was waiting, when s is another sound. stays reports
// whether the stream's first sound, as heard so far, has stayed rather
// than died away (see Listener.staysAt).
func (q *candidates) sight(s sighting, stays func(*candidate) bool) (judge *candidate) {
	c := candidate{on: s.on, strength: s.strength, wait: q.after}
	if q.first >= 0 && c.on-q.first < q.firstSpan {
		c.first, c.wait = true, q.firstWait
	}
	if d := q.decided; d.on >= 0 && c.on < d.on+q.spacing && (q.wasGest || c.strength <= d.strength) {
		// A later sighting of a sound already judged. After a mere blip, a
		// stronger sound is a new one; after a gesture, nothing is.
		return nil
	}
	if p := q.pending; p != nil {
		if p.first && c.on < p.on+p.wait && c.strength <= p.strength && stays(p) {
			// A weaker sound while the stream's first is being heard out,
			// which has not died away yet: part of it (the second burst of
			// a bang, its rattle), not a reason to judge it early.
			return nil
		}
		if abs64(c.on-p.on) < q.spacing {
			// One sound, seen twice (a noise blip before it, a second burst
			// of a clap): keep the stronger sighting.
			if c.strength > p.strength {
				q.pending = &c
			}
			return nil
		}
		judge = q.take()
	}
	q.pending = &c
	return judge
}

// next is the sample at which the waiting candidate is next looked at (see
// candidate.due), or -1 when none waits.
func (q *candidates) next() int64 {
	if q.pending == nil {
		return -1
	}
	return q.pending.due(q.after)
}

// waiting is the onset of the candidate waiting, or -1.
func (q *candidates) waiting() int64 {
	if q.pending == nil {
		return -1
	}
	return q.pending.on
}

// due returns the waiting candidate if it is to be judged at sample pos,
// taking it. The stream's first sound is heard out longer, unless it is
// far louder than any room's hiss: level is its loudest millisecond as
// heard so far.
func (q *candidates) due(pos int64, level func(*candidate) float64) *candidate {
	p := q.pending
	if p == nil {
		return nil
	}
	if p.first && !p.looked && pos >= p.due(q.after) {
		p.looked = true
		if level(p) >= FirstLoudDB {
			p.wait = min(p.wait, q.after)
		}
	}
	if pos < p.on+p.wait {
		return nil
	}
	return q.take()
}

// take takes the waiting candidate (nil if none) to be judged.
func (q *candidates) take() *candidate {
	p := q.pending
	if p == nil {
		return nil
	}
	q.pending = nil
	q.decided = *p
	return p
}

// judged tells whether the candidate last taken was judged a gesture.
func (q *candidates) judged(gesture bool) { q.wasGest = gesture }

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}
