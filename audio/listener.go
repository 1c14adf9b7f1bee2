package audio

import (
	"math"

	"github.com/tableref/tableref/audio/gesture"
	"github.com/tableref/tableref/audio/internal/condition"
	"github.com/tableref/tableref/audio/internal/level"
	"github.com/tableref/tableref/audio/voice"
)

// DefaultGap is the silence, in seconds, that ends a trainer code.
const DefaultGap = 1.5

// Config tunes a Listener. The zero value gives the defaults.
type Config struct {
	// Gap is the silence in seconds after the last gesture that ends a code
	// (DefaultGap when zero).
	Gap float64
	// Threshold is the smallest onset strength (mean dB rise per band) that
	// is looked at (DefaultThreshold when zero).
	Threshold float64
	// Channels, when set, reports what the source found about its channels
	// while mixing them down (WAV.Channels, the microphone's Channels), so
	// that a dead or inverted channel is reported with the other problems
	// of the input (Mic events). It is called from Write.
	Channels func() []ChannelState
	// Judge names each onset, given the input sample where it starts
	// (gesture.Classify of its features when nil). Training tools judge by
	// the labels instead, so that the features they collect do not depend
	// on the classifier being trained.
	Judge func(sample int64, f gesture.Features) gesture.Kind
	// Final reports only final verdicts, for input nobody waits on (a
	// file): each gesture is held until what follows has shown whether it
	// began a word (up to WordWatch seconds, with the events after it), a
	// gesture taken back is never reported, and there are no Retract
	// events. Live, a gesture is reported at once and may be retracted.
	// With Final, a gesture waits for the gap after it too (see loneWatch).
	Final bool
	// KeepAlone keeps a gesture that no other comes within Gap of: by
	// default it is taken back, as no code is one gesture (see loneWatch).
	KeepAlone bool
	// Calibration, when set, is what the microphone check taught about
	// this table: the shipped network's claps and bangs are named as it
	// says (gesture.Calibration.Name), in the band it was taught in.
	// SetCalibration changes it while the Listener runs.
	Calibration *gesture.Calibration
}

// AnalysisRate is the lowest rate, in Hz, at which onsets are sought: faster
// input is decimated by an integer factor to at least this (a hand clap has
// little above 10 kHz), which halves the work at 44.1 and 48 kHz.
const AnalysisRate = 20000

// DefaultThreshold is the default onset strength threshold.
const DefaultThreshold = 0.5

// RefineRange is how far below its peak, in dB, a sound's start is sought.
const RefineRange = 25.0

// RefineGapMs is the longest dip under the threshold, in milliseconds, that
// the search for a sound's start walks over (see refine).
const RefineGapMs = 3.0

// MinRise is how far, in dB, the level must rise over the previous 30 ms
// for a sound to be reported as an onset at all.
const MinRise = 6.0

// MinTalk is how long, in seconds, voices must go on before they count as
// the table talking (a knocked table can ring with a pitch for a moment).
const MinTalk = 0.35

// TalkCutBefore is how long before the voices a gesture is taken to belong
// to them: the burst of a shouted word's first consonant comes before its
// voice.
const TalkCutBefore = 0.15

// TalkUnderGestureDB is how far, in dB, the talk's loudest moment (a 40 ms
// window's level) may lie under a gesture's peak (its loudest millisecond)
// for the talk to end the gesture's code or take the gesture for a word's
// first burst. Only talk about as loud as the hands is the table talking
// over its code (a shouted guess, a word starting through a closing noise
// gate); the chatter of a party room lies 20-40 dB under the gestures, and
// when it counted, it cut codes in two and swallowed their gestures.
const TalkUnderGestureDB = 6.0

// MinGestureDB is the least peak level, in dBFS, of a gesture: a hand on
// the table or a clap near the microphone is far louder (the quietest in
// our recordings are about -35 dBFS).
const MinGestureDB = -60.0

// The stream's first sound (an onset within FirstSpan seconds of the first
// sample that is not zero) is judged after FirstWait seconds rather than
// gesture.After (sooner if a stronger sound starts, or one after it has died
// away), and is a gesture only if its quietest 10 ms by then are FirstDecayDB
// under its peak or digital silence came back behind it (a gate closing):
// with nothing heard before it, only its dying away tells a clap from the
// room's own sound arriving.
//
// A first sound whose loudest millisecond reaches FirstLoudDB dBFS is judged
// after gesture.After like any other: no room's hiss is that loud, and a
// clean recording that starts in digital silence keeps its latency.
const (
	FirstSpan    = 0.1
	FirstWait    = 0.15
	FirstDecayDB = 15.0
	FirstLoudDB  = -25.0
)

// RoomUnknownDB is the level, in dBFS, taken for the room before any of it
// has been heard: a quiet room. (-60 took 4 of 25 false gestures out of an
// hour of gated party noise, but the gesture network's tables are measured
// at -70, and a network retrained on tables made at -60 did worse.)
const RoomUnknownDB = -70.0

// silenceRun is how many exact zeros in a row are digital silence, for the
// Listener (a quiet signal crosses zero, but not for this long).
const silenceRun = 16

// MinSpacing is the shortest time between two onsets, in seconds: sightings
// of a sound closer than this to an earlier one are the same sound (nobody
// claps twice in 50 ms).
const MinSpacing = 0.05

// Listener turns a stream of mono samples into Events: every onset with its
// kind, every completed code, and input levels. It is fed block by block with
// Write, exactly the same way for a live microphone and a file, and calls emit
// synchronously as soon as each event is known. Memory is constant in the
// length of the stream.
//
// It is a pipeline of stages, each with its own state, that hand each other
// what they found:
//
//	raw samples ─ meter, doctor ─────────────────────────────► Level, Mic
//	  │
//	conditioning (condition.Conditioner: DC, hum, holes)
//	  │ clean samples ─► history; roomFloor; voice.Detector ─► voicedFrames,
//	  │                  wordWatch, grouper (talk) ──────────► Talk
//	onsetStage (decimate, STFT, band flux, picker, refine)
//	  │ analysis frames ─► bandWatch (a microphone or a telephone line)
//	  │ sightings
//	candidates (one per sound; the stream's first sound heard out)
//	  │ a candidate due
//	featureStage (gesture.Analyzer; the room behind digital silence; a
//	  │ telephone line brought down) ─► gesture.Features
//	judge (judgeContext: band, after silence, how reverberant and how loud
//	  │ the room, the margin, the last gesture; the shipped judge's
//	  │ option: the table's calibration) ─► judgement
//	the first sound's and faintness rules ───────────────────► Onset
//	  │ a gesture
//	wordWatch (a word's first burst), loneWatch (a gesture alone),
//	  │ finalQueue (Config.Final) ───────────────────────────► Retract
//	grouper ─────────────────────────────────────────────────► Code
//
// The Listener itself only carries each stage's output to the next
// (decide) and tells the watches what was judged.
type Listener struct {
	rate int
	cfg  Config
	emit func(Event)
	pos  int64 // samples consumed

	// conditioning, and what follows the raw or clean samples as they come
	cond   *condition.Conditioner // DC, hum and holes removed before anything else
	clean  []float64              // the conditioned samples of the current chunk
	hist   history                // the latest conditioned samples
	meter  meter
	doc    doctor
	voices *voice.Detector
	onVoc  func(voice.Frame, bool) // voiced.add, word.voiceFrame and codes.voiced

	// onsets, features and the judge
	onsets   *onsetStage
	frameFn  func([]float64) // band.frame
	sightFn  func(sighting)  // sighted
	cands    candidates
	features *featureStage
	judge    judge

	// what the judge is told of an onset's surroundings (see context)
	room   roomFloor    // the room's quiet level
	band   bandWatch    // a microphone heard in full or a telephone line
	voiced voicedFrames // which of the latest voice frames were voiced
	reverb reverbWatch  // how reverberant the room is
	loud   loudRoom     // how far the hands stand over the room, and how loud they are
	last   lastGesture  // the last gesture reported

	// the watches on each gesture, and the codes
	word  wordWatch
	alone loneWatch
	final *finalQueue // with Config.Final: what waits on a gesture's verdict
	codes grouper
}

// NewListener makes a Listener for a stream at rate Hz.
func NewListener(rate int, cfg Config, emit func(Event)) *Listener {
	if cfg.Gap <= 0 {
		cfg.Gap = DefaultGap
	}
	if cfg.Threshold <= 0 {
		cfg.Threshold = DefaultThreshold
	}
	l := &Listener{
		rate:     rate,
		cfg:      cfg,
		emit:     emit,
		cond:     condition.New(rate),
		hist:     history{keep: int(0.25 * float64(rate))},
		voices:   voice.NewDetector(rate),
		onsets:   newOnsetStage(rate, cfg.Threshold),
		cands:    newCandidates(rate),
		features: newFeatureStage(rate),
		judge:    &shippedJudge{cal: cfg.Calibration},
		reverb:   newReverbWatch(),
		loud:     newLoudRoom(),
		last:     lastGesture{on: -1},
		word:     newWordWatch(rate),
	}
	if cfg.Judge != nil {
		l.judge = funcJudge(cfg.Judge)
	}
	if cfg.Final {
		l.final = &finalQueue{out: emit}
		l.emit = l.final.emit
	}
	arate, n, hop := l.onsets.analysis()
	l.band = newBandWatch(rate, arate, n, hop)
	l.frameFn = l.band.frame
	l.sightFn = l.sighted
	l.codes.gap = int64(cfg.Gap * float64(rate))
	l.alone = newLoneWatch(l.codes.gap, int64(CompanyFrom*float64(rate)))
	l.codes.current = -1
	l.codes.minTalk = int64(MinTalk * float64(rate))
	l.codes.cutBefore = int64(TalkCutBefore * float64(rate))
	l.codes.quietBy = TalkUnderGestureDB
	l.voiced.keep = int64(gesture.VoicedSeconds * float64(rate))
	l.onVoc = func(f voice.Frame, v bool) {
		if v {
			l.codes.voiced(f.End, f.Level)
		}
		l.voiced.add(f, v)
		l.word.voiceFrame(f, v)
	}
	l.meter.span = max(rate/10, 1)
	l.doc = newDoctor(float64(l.meter.span)/float64(rate), cfg.Channels)
	return l
}

// SetCalibration makes c the Listener's calibration (Config.Calibration)
// from the next sound judged on; nil drops it. It is the shipped judge's:
// a Config.Judge is not changed by it. Call it from the goroutine that calls
// Write.
func (l *Listener) SetCalibration(c *gesture.Calibration) {
	l.cfg.Calibration = c
	if s, ok := l.judge.(*shippedJudge); ok {
		s.cal = c
	}
}

// SampleRate is the rate the Listener was made for.
func (l *Listener) SampleRate() int { return l.rate }

// Position is the number of samples consumed so far.
func (l *Listener) Position() int64 { return l.pos }

// Write consumes samples. Events are emitted during the call.
//
// The samples are conditioned first, a hop at a time (see
// audio/internal/condition): DC and mains hum are removed and holes cut by
// noise suppression are filled with the room's sound. What the Conditioner
// knows when a sound is judged is thus what it had heard by then, whatever
// the size of the blocks written. Until the stream carries anything but
// exact zeros (a microphone's first buffers, a muted input), it is metered
// but not analysed: the onset analysis starts at the first sound, as it does
// at the start of a file, so the room's hiss arriving is not a sound
// starting.
func (l *Listener) Write(x []float64) {
	l.cands.heard(x, l.pos)
	hop := l.onsets.hop()
	for len(x) > 0 {
		k := min(hop, len(x))
		// stop exactly where the waiting onset is due, so it is judged
		// (and emitted) the moment enough of it is heard
		if at := l.cands.next(); at >= 0 {
			if due := at - l.pos; due > 0 && due < int64(k) {
				k = int(due)
			}
		}
		l.clean = l.cond.Process(l.clean[:0], x[:k])
		chunk := l.clean
		l.hist.append(chunk)
		l.pos += int64(k)
		l.meter.add(x[:k], l.pos, l.rate, l.span)
		x = x[k:]
		l.room.add(chunk, l.rate)
		l.word.samples(chunk)
		l.voices.Push(chunk, l.onVoc, l.talk)
		l.onsets.push(chunk, &l.hist, l.frameFn, l.sightFn)
		l.settle()
	}
}

// Close ends the stream: a pending onset is classified with what there is,
// and an open code is emitted.
func (l *Listener) Close() {
	if p := l.cands.take(); p != nil {
		l.decide(p)
	}
	l.endWatch(l.pos)
	for _, a := range l.alone.end() {
		l.takeBack(a.on, a.kind, true) // nothing more can come
	}
	if l.codes.talking {
		l.codes.talk(false, l.pos)
	}
	for c := l.codes.flush(l.rate); c != nil; c = l.codes.flush(l.rate) {
		c.Emitted = l.pos
		l.emit(c)
	}
}

// sighted takes a sound the onset stage saw starting.
func (l *Listener) sighted(s sighting) {
	if p := l.cands.sight(s, l.stays); p != nil {
		l.decide(p)
	}
}

// settle emits what is due at the current position: the pending onset once
// After seconds of it have been heard, and a code once the gap has passed.
func (l *Listener) settle() {
	if p := l.cands.due(l.pos, l.firstLevel); p != nil {
		l.decide(p)
	}
	if l.word.on >= 0 && l.pos >= l.word.dueAt(l.rate) {
		l.endWatch(l.pos)
	}
	if r := &l.reverb; r.on >= 0 && l.pos >= r.dueAt(l.rate) {
		r.measure(l.hist.slice(r.on, r.dueAt(l.rate)), l.rate, l.room.floor)
	}
	l.codes.tick(l.voices.LastVoiced())
	hold := l.cands.waiting()
	if l.word.on >= 0 && (hold < 0 || l.word.on < hold) {
		hold = l.word.on // it may yet leave the code
	}
	for a, ok := l.alone.due(l.pos, hold); ok; a, ok = l.alone.due(l.pos, hold) {
		l.takeBack(a.on, a.kind, true)
	}
	if a := l.alone.waiting(); a >= 0 && (hold < 0 || a < hold) {
		hold = a // it may yet be taken back
	}
	for c := l.codes.due(l.pos, hold, l.rate); c != nil; c = l.codes.due(l.pos, hold, l.rate) {
		c.Emitted = l.pos
		l.emit(c)
	}
}

// decide measures candidate p, has it judged, and reports it: the feature
// stage measures it in its surroundings, the judge names it in its context,
// the first sound's and faintness rules have their say, and a gesture goes
// to its watches and to the codes.
func (l *Listener) decide(p *candidate) {
	from := max(p.on-int64(gesture.Before*float64(l.rate)), l.hist.start)
	snd := l.features.hear(l.hist.slice(from, l.pos), int(p.on-from), from, l.cond.BehindSilence)
	fc := featureContext{Floor: l.room.floor, Narrow: l.band.band == gesture.Narrow, Voiced: l.voiced.share(p.on)}
	feat := l.features.measure(snd, fc, 0)
	ctx := l.context(p.on, feat, snd.holed)
	ctx.Remeasure = func(rise float64) gesture.Features { return l.features.measure(snd, fc, rise) }
	j := l.judge.judge(feat, ctx)
	feat, kind := j.Features, j.Kind
	if p.first && kind.IsGesture() && l.staysAt(p, feat.Level) {
		// The stream's first sound: the room arriving (a microphone
		// starting) or a gesture (a gate opening for it). A gesture dies
		// away; the room stays.
		kind = gesture.Other
	}
	if kind.IsGesture() && feat.Level < MinGestureDB {
		kind = gesture.Other // too faint to be a hand on a table or a clap near it
	}
	l.cands.judged(kind.IsGesture())
	if kind == gesture.Other && feat.Sudden < MinRise {
		return // the level barely moved: a flicker of a sound already going, not an onset
	}
	o := &Onset{
		Sample:   p.on,
		Time:     float64(p.on) / float64(l.rate),
		Kind:     kind,
		Strength: p.strength,
		Features: feat,
		Talking:  l.codes.talking,
		Emitted:  l.pos,
		Band:     l.band.band,
	}
	if !o.Kind.IsGesture() {
		l.emit(o)
		return
	}
	// The last gesture's watch ends where this one starts: said first, so
	// that a retraction comes before the gesture that ended its watch.
	l.endWatch(o.Sample)
	if l.final != nil {
		l.final.hold(o)
	} else {
		l.emit(o)
	}
	l.codes.add(o.Sample, o.Kind.Letter(), feat.Level)
	l.last = lastGesture{o.Sample, o.Kind, feat.Level}
	l.word.start(o.Sample, o.Kind, l.hist.slice(o.Sample, l.pos), l.voiced.frames)
	l.word.hall = j.Hall
	if snd.holed {
		// A gate opening on talk after digital silence names a burst whose
		// "tail" is the talk going on: taken for a reverberant room's, it
		// lowered the margin for the next gate opening. Only gestures heard
		// over the room tell how it rings.
		l.reverb.giveUp()
	} else {
		l.reverb.start(o.Sample)
	}
	// How loud the room is, only a gesture named with the full margin
	// over the room itself (not after digital silence) tells: see loudRoom.
	l.loud.heard(feat.Above, feat.Level, l.judge.sure(feat, ctx))
}

// context is what the judge goes by for the onset at sample on, with
// features f (holed: measured after digital silence), besides f itself: the
// stream's band, the room as heard so far, the margin and the last gesture.
//
// The margin is lowered in a reverberant or a loud room and raised for a
// sound faint beside the hands heard (its loudest millisecond is f.Level).
// A reverberant room's lower margin does not apply after digital silence:
// behind a gate, what opens it on talk is named under the full margin, as
// the reverb watch (which hears only gestures over the room) cannot tell a
// gate's talk from a hall's ringing.
func (l *Listener) context(on int64, f gesture.Features, holed bool) judgeContext {
	rev := l.reverb.margin()
	if holed {
		rev = gesture.Margin
	}
	return judgeContext{
		On:     on,
		Band:   l.band.band,
		Holed:  holed,
		Wet:    l.reverb.wet,
		Noisy:  l.loud.noisy(f.Above, holed),
		Margin: min(rev, l.loud.margin()) + l.loud.faint(f.Level),
		Last:   l.last,
		Since:  float64(on-l.last.on) / float64(l.rate),
	}
}

// endWatch ends the watch on the last gesture at sample end (the next
// gesture's onset, the end of the watch or of the stream), and takes the
// gesture back if it was a word's first burst.
func (l *Listener) endWatch(end int64) {
	w := &l.word
	if w.on < 0 {
		return
	}
	on, kind := w.on, w.kind
	word := w.word(end, l.rate)
	w.on = -1
	if !word {
		l.kept(on, kind)
		return
	}
	l.takeBack(on, kind, false)
}

// kept follows a gesture that stayed one after its word watch: it waits for
// company, unless Config.KeepAlone.
func (l *Listener) kept(on int64, kind gesture.Kind) {
	if l.cfg.KeepAlone {
		if l.final != nil {
			l.final.keep(on)
		}
		return
	}
	company, lone := l.alone.kept(on, kind)
	for _, a := range lone {
		l.takeBack(a.on, a.kind, true)
	}
	if l.final != nil {
		for _, c := range company {
			l.final.keep(c)
		}
	}
}

// takeBack takes back the gesture at sample on: it leaves its code, and is
// retracted (live) or never reported (Config.Final).
func (l *Listener) takeBack(on int64, kind gesture.Kind, alone bool) {
	l.codes.remove(on)
	if l.last.on == on {
		l.last.on = -1
	}
	if l.final != nil {
		l.final.drop(on) // never reported
		return
	}
	l.emit(&Retract{Sample: on, Time: float64(on) / float64(l.rate), Kind: kind, Alone: alone, Emitted: l.pos})
}

// stays reports whether the stream's first sound p, as heard so far, has
// stayed rather than died away (see staysAt).
func (l *Listener) stays(p *candidate) bool {
	return l.staysAt(p, l.firstLevel(p))
}

// firstLevel is the loudest millisecond, dBFS, of the stream's first sound
// p as heard so far (as it is, with no silence filled).
func (l *Listener) firstLevel(p *candidate) float64 {
	from := max(p.on-int64(gesture.Before*float64(l.rate)), l.hist.start)
	return l.features.measureAsIs(l.hist.slice(from, l.pos), int(p.on-from)).Level
}

// staysAt reports whether the stream's first sound p, whose loudest
// millisecond is at peak dBFS, has stayed: the quietest 10 ms heard of it
// (after gesture.After, up to its FirstWait, leaving out digital silence)
// are within FirstDecayDB of the peak. A gesture dies away, or a gate
// closes behind it; the room arriving stays. Less than 20 ms of it to go by
// says nothing: it has not stayed.
func (l *Listener) staysAt(p *candidate, peak float64) bool {
	end := min(p.on+p.wait, l.pos)
	begin := p.on + l.cands.after
	blk := max(int64(l.rate)/100, 1)
	if end-begin < 2*blk {
		return false
	}
	quiet := math.Inf(1)
	for s := begin; s+blk <= end; s += blk / 2 {
		x := l.hist.slice(s, s+blk)
		if afterSilence(x) {
			continue
		}
		quiet = min(quiet, level.DB(level.MeanSquare(x)))
	}
	return quiet > peak-FirstDecayDB
}

// history keeps the most recent samples of the stream, at least keep of them.
type history struct {
	keep  int
	buf   []float64
	start int64 // stream index of buf[0]
}

// end is the stream index just after the last sample kept.
func (h *history) end() int64 { return h.start + int64(len(h.buf)) }

func (h *history) append(x []float64) {
	if len(h.buf)+len(x) > 2*h.keep+len(x) {
		drop := len(h.buf) - h.keep
		h.buf = append(h.buf[:0], h.buf[drop:]...)
		h.start += int64(drop)
	}
	h.buf = append(h.buf, x...)
}

// slice returns samples [from, to) of the stream, clipped to what is kept.
func (h *history) slice(from, to int64) []float64 {
	from = max(from, h.start)
	to = min(to, h.start+int64(len(h.buf)))
	if to <= from {
		return nil
	}
	return h.buf[from-h.start : to-h.start]
}

// voicedFrames remembers which of the voice detector's recent frames were
// voiced.
type voicedFrames struct {
	keep   int64 // samples of frames to remember
	frames []voicedFrame
}

type voicedFrame struct {
	end    int64
	voiced bool
	// what the voice analyzer measured of it (voice.Frame)
	level, periodicity, low float64
}

func newVoicedFrame(f voice.Frame, voiced bool) voicedFrame {
	return voicedFrame{end: f.End, voiced: voiced, level: f.Level, periodicity: f.Periodicity, low: f.Low}
}

func (v *voicedFrames) add(f voice.Frame, voiced bool) {
	if len(v.frames) > 0 && v.frames[0].end < f.End-2*v.keep {
		n := 0
		for n < len(v.frames) && v.frames[n].end < f.End-v.keep {
			n++
		}
		v.frames = append(v.frames[:0], v.frames[n:]...)
	}
	v.frames = append(v.frames, newVoicedFrame(f, voiced))
}

// share is the share of the frames that ended in the keep samples before
// sample at that were voiced (0 when there are none).
func (v *voicedFrames) share(at int64) float64 {
	var n, voiced int
	for _, f := range v.frames {
		if f.end <= at && f.end > at-v.keep {
			n++
			if f.voiced {
				voiced++
			}
		}
	}
	if n == 0 {
		return 0
	}
	return float64(voiced) / float64(n)
}

// meter measures the raw input every span samples.
type meter struct {
	span int
	n    int
	sum  float64
	peak float64
	clip int // samples at ClipLevel or beyond
}

// add measures x, the samples that end at pos, and calls done at the end of
// each span.
func (m *meter) add(x []float64, pos int64, rate int, done func(*Level, int)) {
	for i, v := range x {
		m.sum += v * v
		a := math.Abs(v)
		if a > m.peak {
			m.peak = a
		}
		if a >= ClipLevel {
			m.clip++
		}
		m.n++
		if m.n == m.span {
			end := pos - int64(len(x)-1-i)
			done(&Level{Time: float64(end) / float64(rate), RMS: level.DB(m.sum / float64(m.n)), Peak: 20 * math.Log10(m.peak+1e-6)}, m.clip)
			m.n, m.sum, m.peak, m.clip = 0, 0, 0, 0
		}
	}
}

// span handles the end of a meter span: the level is emitted, and the input
// is diagnosed.
func (l *Listener) span(lv *Level, clipped int) {
	l.emit(lv)
	if m := l.doc.feed(lv.Time, lv.Peak, clipped, l.cond.State(), l.band.band == gesture.Narrow); m != nil {
		l.emit(m)
	}
}

// roomFloor tracks the quiet level of the room: the level of 10 ms blocks,
// following every drop at once and climbing back slowly (RoomRisePerSecond),
// so it settles on the pauses between sounds.
type roomFloor struct {
	n     int
	sum   float64
	floor float64
	init  bool
	zeros int  // the current run of exact zeros
	holed bool // the current block holds digital silence (a run of silenceRun zeros)
}

// silentDB is the level of a 10 ms block, in dBFS, at or below which it is
// digital silence rather than a quiet room (a 16-bit file's quietest hiss is
// about -100 dBFS).
const silentDB = -115.0

// RoomRisePerSecond is how fast, in dB per second, the room floor climbs.
const RoomRisePerSecond = 3.0

func (r *roomFloor) add(x []float64, rate int) {
	span := max(rate/100, 1)
	for _, v := range x {
		r.sum += v * v
		r.n++
		if v == 0 {
			if r.zeros++; r.zeros >= silenceRun {
				r.holed = true
			}
		} else {
			r.zeros = 0
		}
		if r.n < span {
			continue
		}
		l := level.DB(r.sum / float64(r.n))
		holed := r.holed
		r.n, r.sum, r.holed = 0, 0, false
		switch {
		case l <= silentDB || holed:
			// digital silence says nothing of the room, nor does a block
			// a gate closed or opened in (its fade is no room either)
		case !r.init:
			r.floor, r.init = l, true
		case l < r.floor:
			r.floor = l
		default:
			r.floor += RoomRisePerSecond / 100
		}
	}
}

// talk handles a change in the voices heard.
func (l *Listener) talk(c voice.Change) {
	l.codes.talk(c.Active, c.At)
	t := &Talk{Start: float64(l.codes.start) / float64(l.rate), End: -1, Emitted: l.pos}
	if !c.Active {
		t.End = float64(c.At) / float64(l.rate)
	}
	l.emit(t)
}
