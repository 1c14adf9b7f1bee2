// Package talk follows a table of talking voices for the Insomnia voices
// timer: it hears when the whole table falls silent (a pause) and when one
// voice rises far above the room (a shout).
//
// Everything is measured on 20 ms frames, against references the watcher
// learns as it goes, so it needs no calibration and holds in a quiet flat,
// a noisy bar or beside a fan:
//
//   - the background: the quietest frame of the last minute, the steady
//     noise of the room (a fan, a fridge, the microphone's own hiss). It is
//     taken out of the loudness before a shout is judged, and a window well
//     above it is talk whatever else is believed.
//   - the floor: the quietest the input gets, following every fall at once
//     and creeping back up by 3 dB a second, so it tracks the background
//     of pauses and, before any pause, the dips between words.
//   - the room level: the 30th percentile of half-second windows of talk
//     over the last minute. With several voices at once it is steady.
//
// Talk and pauses are judged on the signal above 80 Hz (voices have next
// to nothing below it; a fan's rumble and a table's thumps do): a frame is
// silent when it is nearer the floor than the room level (below their
// midpoint), and a pause is a run of silent frames, broken by no more than
// 60 ms of sound, lasting at least Config.MinPause.
//
// Shouts are judged on the whole signal, by the loudness of the louder half
// of each half-second window (the syllables, not the gaps between a
// shouter's words), with the background taken out, against the room's
// usual value of the same: a shout is a stretch of windows more than
// Config.ShoutDB above it. One voice about 12 dB louder than it talks
// otherwise lifts that by 4 to 10 dB, depending on how many others talk,
// while ordinary talk stays within about 3 dB. Shouts are only judged once
// 3 s of talk have made the room level; what was heard before, and (for
// the first 30 s) whatever a room level that later settles lower reveals,
// is judged again and reported late, with its own times.
package talk

import (
	"math"
	"sort"
)

// Defaults.
const (
	DefaultMinPause = 1.0 // seconds
	DefaultShoutDB  = 4.0 // dB above the room level
)

// Frame and window lengths.
const (
	frameSeconds    = 0.020
	framesPerSecond = 50
	windowFrames    = 25   // half a second
	loudFrames      = 12   // the louder half of a window
	historyFrames   = 3000 // one minute of windows, for the room level
	roomQuantile    = 0.30
	floorRise       = 3.0 * frameSeconds // dB per frame
	bridgeFrames    = 3                  // sound shorter than this does not end a pause
	shoutMinimum    = 15                 // frames above the line before a shout is called (0.3 s)
	shoutRelease    = 1.5                // dB: a shout ends below ShoutDB minus this
	silentDB        = -100.0
	freshDB         = 4.0  // a room level this near the floor is background noise
	bootWindows     = 25   // windows that make the first room level (for pauses)
	warmWindows     = 150  // windows of talk (3 s) before shouts are judged
	warmFrames      = 50   // and frames of talk
	talkOverNoise   = 10.0 // dB: a window this far above the background is talk
	noiseBlocks     = 60   // seconds over which the background is the quietest frame
	earlyFrames     = 1500 // the first 30 s, judged again while the room level settles
	rescanDB        = 1.0  // the room level falling this far since the start was judged judges it again
	highPassHz      = 80   // talk and pauses are judged above this
)

// Config tunes a Watcher; the zero value takes the defaults.
type Config struct {
	MinPause float64 // seconds of silence that make a pause
	ShoutDB  float64 // dB above the room level that make a shout
}

// Kind names an Event.
type Kind string

// The kinds of Event.
const (
	// PauseStart: the table has been silent for MinPause (Start is when it
	// fell silent; End is now). A Pause follows when the talk resumes.
	PauseStart Kind = "pause-start"
	Pause      Kind = "pause"
	// ShoutStart: a shout is under way (Start); a Shout follows when it ends.
	ShoutStart Kind = "shout-start"
	Shout      Kind = "shout"
	// Level is sent every frame: the frame's loudness, the room level and
	// whether the table is talking.
	Level Kind = "level"
)

// Event is something the watcher heard. Start and End are sample positions
// in the input.
type Event struct {
	Kind    Kind
	Start   int64
	End     int64
	DB      float64 // the frame's loudness (Level) or the shout's peak above the room (Shout)
	RoomDB  float64 // the room level when it happened
	Talking bool    // Level: is anyone talking
}

// Watcher follows a stream of samples. Feed it with Write; it calls emit
// from inside Write and Close.
type Watcher struct {
	rate    int
	frame   int // samples per frame
	cfg     Config
	emit    func(Event)
	minRun  int // frames of silence that make a pause
	hp      biquad
	acc     float64 // this frame's energy above highPassHz
	accAll  float64 // and of the whole signal
	n       int
	pos     int64 // samples consumed
	frameNo int64

	// Talk and pauses (above highPassHz).
	floor      float64
	noise      background
	hist       quantile
	win        [windowFrames]float64 // energies of the last frames
	wi         int
	wsum       float64
	wsil       int // silent frames in the window
	wasSilent  [windowFrames]bool
	room       float64
	talk       int     // frames of talk seen (for the warm-up)
	lastSilent bool    // the last frame judged
	lastLevel  float64 // and its loudness

	silentRun  int   // current run of silent frames (bridged)
	soundRun   int   // consecutive sounding frames inside a silent run
	runStart   int64 // first sample of the run
	pauseShown bool

	// Shouts (the whole signal).
	loudWin   [windowFrames]float64
	loudNoise background
	loudHist  quantile
	loudRoom  float64
	warm      bool // the room level is known: shouts are judged
	shout     shoutState
	early     []earlyFrame // the first earlyFrames frames
	earlyFrom int64        // frames up to this one are not judged again (a fresh start)
	scanned   float64      // the loud room level the early frames were last judged against
	reported  [][2]int64   // shouts reported in the first earlyFrames
}

// New makes a Watcher for input at rate Hz.
func New(rate int, cfg Config, emit func(Event)) *Watcher {
	if cfg.MinPause <= 0 {
		cfg.MinPause = DefaultMinPause
	}
	if cfg.ShoutDB <= 0 {
		cfg.ShoutDB = DefaultShoutDB
	}
	if emit == nil {
		emit = func(Event) {}
	}
	frame := max(1, int(math.Round(frameSeconds*float64(rate))))
	w := &Watcher{rate: rate, frame: frame, cfg: cfg, emit: emit, floor: math.NaN(), room: math.NaN(), loudRoom: math.NaN(),
		hp: highPass(float64(rate), highPassHz), noise: newBackground(), loudNoise: newBackground()}
	w.minRun = int(math.Round(cfg.MinPause / frameSeconds))
	w.hist.init(historyFrames)
	w.loudHist.init(historyFrames)
	return w
}

// SampleRate is the input's rate.
func (w *Watcher) SampleRate() int { return w.rate }

// Write consumes samples (any scale; full scale is 1).
func (w *Watcher) Write(x []float64) {
	for _, v := range x {
		y := w.hp.next(v)
		w.acc += y * y
		w.accAll += v * v
		w.n++
		if w.n == w.frame {
			w.pos += int64(w.n)
			w.step(w.acc/float64(w.n), w.accAll/float64(w.n))
			w.acc, w.accAll, w.n = 0, 0, 0
		}
	}
}

// Skip consumes samples that are not the table's to judge (the referee's
// own alarm or announcement, heard by the microphone beside the speaker):
// time goes on, but nothing is learnt or judged from them. The table keeps
// the state it was in: a pause under way goes on through them, talk stays
// talk, and no shout starts, grows or ends in them.
func (w *Watcher) Skip(x []float64) {
	for range x {
		w.n++
		if w.n == w.frame {
			w.pos += int64(w.n)
			w.hold()
			w.acc, w.accAll, w.n = 0, 0, 0
		}
	}
}

// hold is a frame that is not the table's.
func (w *Watcher) hold() {
	w.frameNo++
	if w.frameNo <= earlyFrames {
		w.early = append(w.early, earlyFrame{pos: w.pos, held: true})
	}
	w.emit(Event{Kind: Level, Start: w.pos - int64(w.frame), End: w.pos, DB: w.lastLevel, RoomDB: w.room, Talking: !w.lastSilent})
	w.pauses(w.lastSilent)
}

// Close ends the input: a pause or a shout still open is reported as
// ending here. An input too short to finish the warm-up is judged against
// what room level there is.
func (w *Watcher) Close() {
	w.pos += int64(w.n)
	w.n = 0
	end := w.pos
	if w.silentRun-w.soundRun >= w.minRun {
		w.emit(Event{Kind: Pause, Start: w.runStart, End: end - int64(w.soundRun*w.frame), RoomDB: w.room})
	}
	w.silentRun, w.soundRun = 0, 0
	if !w.warm && !math.IsNaN(w.loudRoom) {
		w.warm = true
		w.scanEarly(true)
	}
	if w.shout.on {
		w.emit(Event{Kind: Shout, Start: w.shout.from, End: end, DB: w.shout.peak, RoomDB: w.loudRoom})
		w.shout = shoutState{}
	}
}

func db(energy float64) float64 {
	if energy <= 1e-10 {
		return silentDB
	}
	return 10 * math.Log10(energy)
}

// step takes one frame's mean energy above highPassHz, e, and of the
// whole signal, all.
func (w *Watcher) step(e, all float64) {
	w.frameNo++
	lv := db(e)
	switch {
	case math.IsNaN(w.floor) || lv < w.floor:
		w.floor = lv
	default:
		w.floor += floorRise
	}
	w.noise.add(lv)
	w.loudNoise.add(db(all))
	silent := w.silent(lv)
	w.lastSilent, w.lastLevel = silent, lv

	// The half-second windows, and the room levels from windows of talk.
	w.wsum += e - w.win[w.wi]
	if w.wsum < 0 {
		w.wsum = 0
	}
	if w.wasSilent[w.wi] {
		w.wsil--
	}
	if silent {
		w.wsil++
	}
	w.win[w.wi], w.wasSilent[w.wi], w.loudWin[w.wi] = e, silent, all
	w.wi = (w.wi + 1) % windowFrames
	winDB := db(w.wsum / windowFrames)
	loud := w.louderHalf()
	if !silent {
		w.talk++
	}
	// A window of talk: few of its frames silent (at first, before
	// anything can be judged silent, every window), or well above the
	// background whatever the room level says, so that a room level learnt
	// too high (from a shout at the very start) comes down again.
	if w.frameNo >= windowFrames && (w.wsil*5 <= windowFrames || winDB > w.noise.level()+talkOverNoise) {
		// A room level no louder than the floor was learnt from background
		// noise before anyone spoke: the first window well above it starts
		// the history afresh.
		if !math.IsNaN(w.room) && w.room < w.floor+freshDB && winDB > w.room+freshDB+6 {
			w.hist.reset()
			w.loudHist.reset()
			w.room, w.loudRoom = math.NaN(), math.NaN()
			w.talk, w.warm, w.earlyFrom = 0, false, w.frameNo-1
			w.reported = nil
		}
		w.hist.add(winDB)
		w.loudHist.add(db(loud))
		if w.hist.total >= bootWindows {
			w.room = w.hist.at(roomQuantile)
			w.loudRoom = w.loudHist.at(roomQuantile)
		}
	}
	w.emit(Event{Kind: Level, Start: w.pos - int64(w.frame), End: w.pos, DB: lv, RoomDB: w.room, Talking: !silent})

	w.pauses(silent)
	if w.frameNo <= earlyFrames {
		w.early = append(w.early, earlyFrame{pos: w.pos, loud: loud, silent: silent})
	}
	switch {
	case !w.warm && w.hist.total >= warmWindows && w.talk >= warmFrames:
		// The room level is known now: judge what was heard while it was
		// learnt, and from here on as it comes.
		w.warm = true
		w.scanEarly(true)
	case w.warm && w.frameNo <= earlyFrames+windowFrames && w.loudRoom < w.scanned-rescanDB:
		// The room level has settled lower than when the start was last
		// judged (a shout at the very start had lifted it): judge it again.
		w.scanEarly(false)
	}
	if w.warm {
		w.shouts(loud, silent)
	}
}

// louderHalf is the mean power of the louder half of the window's frames.
func (w *Watcher) louderHalf() float64 {
	v := w.loudWin
	sort.Float64s(v[:])
	var s float64
	for _, x := range v[windowFrames-loudFrames:] {
		s += x
	}
	return s / loudFrames
}

// above is how far a window's loudness stands above the room's usual
// loudness, in dB, once the steady background is taken out of both: a
// shout is a voice's loudness against the others', not against the fan.
func (w *Watcher) above(loud float64) float64 {
	room := math.Pow(10, w.loudRoom/10)
	n := 0.0
	if nz := w.loudNoise.level(); !math.IsInf(nz, 1) {
		n = min(math.Pow(10, nz/10), room/2) // a background as loud as the talk is talk
	}
	if loud-n <= 0 {
		return silentDB
	}
	return db(loud-n) - db(room-n)
}

// silent judges a frame against the floor and the room level.
func (w *Watcher) silent(lv float64) bool {
	if lv <= silentDB+1 {
		return true
	}
	if math.IsNaN(w.room) {
		// No talk heard yet, so nothing to be silent against: only
		// digital silence counts.
		return false
	}
	return lv < (w.floor+w.room)/2
}

func (w *Watcher) pauses(silent bool) {
	frameStart := w.pos - int64(w.frame)
	switch {
	case silent:
		if w.silentRun == 0 {
			w.runStart = frameStart
		}
		w.silentRun++
		w.soundRun = 0
	case w.silentRun > 0:
		w.soundRun++
		w.silentRun++
		if w.soundRun < bridgeFrames {
			return
		}
		// The talk is back: the pause ended where the sound began.
		length := w.silentRun - w.soundRun
		if length >= w.minRun {
			end := w.pos - int64(w.soundRun*w.frame)
			w.emit(Event{Kind: Pause, Start: w.runStart, End: end, RoomDB: w.room})
		}
		w.silentRun, w.soundRun, w.pauseShown = 0, 0, false
		return
	default:
		return
	}
	if !w.pauseShown && w.silentRun >= w.minRun {
		w.pauseShown = true
		w.emit(Event{Kind: PauseStart, Start: w.runStart, End: w.pos, RoomDB: w.room})
	}
}

func (w *Watcher) shouts(loud float64, silent bool) {
	if math.IsNaN(w.loudRoom) {
		return
	}
	half := int64(windowFrames * w.frame / 2)
	switch started, ended, end := w.shout.feed(w.pos, w.above(loud), silent, w.cfg.ShoutDB, half); {
	case started:
		w.emit(Event{Kind: ShoutStart, Start: w.shout.from, End: w.pos, DB: w.shout.peak, RoomDB: w.loudRoom})
	case ended:
		w.emit(Event{Kind: Shout, Start: w.shout.from, End: end, DB: w.shout.peak, RoomDB: w.loudRoom})
		if w.frameNo <= earlyFrames+windowFrames {
			w.reported = append(w.reported, [2]int64{w.shout.from, end})
		}
		w.shout = shoutState{}
	}
}

// shoutState follows one shout: a run of windows above the line, called a
// shout once it has lasted shoutMinimum frames, and over when the windows
// fall shoutRelease below the line.
type shoutState struct {
	on   bool
	run  int
	from int64 // where it began
	peak float64
}

// feed takes a window ending at pos, above dB over the room: it reports
// whether the shout was called now, or ended (where).
func (s *shoutState) feed(pos int64, above float64, silent bool, line float64, half int64) (started, ended bool, end int64) {
	if !s.on {
		if above > line && !silent {
			if s.run == 0 {
				// The window that crossed the line reaches back half a
				// second; the shout began about there.
				s.from, s.peak = max(0, pos-half), above
			}
			s.run++
			s.peak = max(s.peak, above)
			if s.run >= shoutMinimum {
				s.on = true
				return true, false, 0
			}
		} else {
			s.run = 0
		}
		return false, false, 0
	}
	s.peak = max(s.peak, above)
	if above < line-shoutRelease {
		return false, true, max(s.from, pos-half)
	}
	return false, false, 0
}

// earlyFrame is a frame of the first earlyFrames, kept to be judged again
// once the room level is known.
type earlyFrame struct {
	pos    int64   // the input position at its end
	loud   float64 // the loudness of the window ending with it
	silent bool
	held   bool // not the table's (Skip)
}

// scanEarly judges the frames kept from the start against the room level
// as now known, and reports the shouts found there that were not reported
// yet, late but with their own times. At the end of the warm-up (handOver)
// a shout still going on is handed to the live watch; later, the frames of
// the live watch's own run are left to it.
func (w *Watcher) scanEarly(handOver bool) {
	w.scanned = w.loudRoom
	half := int64(windowFrames * w.frame / 2)
	var s shoutState
	for i, f := range w.early {
		if int64(i)+1 <= w.earlyFrom || f.held {
			continue
		}
		if w.reportedAt(f.pos) || !handOver && w.shout.run > 0 && f.pos > w.shout.from {
			s = shoutState{}
			continue
		}
		started, ended, end := s.feed(f.pos, w.above(f.loud), f.silent, w.cfg.ShoutDB, half)
		if started && handOver && i == len(w.early)-1 {
			break // the live watch calls it
		}
		if ended {
			w.emit(Event{Kind: ShoutStart, Start: s.from, End: w.pos, DB: s.peak, RoomDB: w.loudRoom})
			w.emit(Event{Kind: Shout, Start: s.from, End: end, DB: s.peak, RoomDB: w.loudRoom})
			w.reported = append(w.reported, [2]int64{s.from, end})
			s = shoutState{}
		}
	}
	if handOver && s.run > 0 {
		w.shout = s
		if s.on {
			w.emit(Event{Kind: ShoutStart, Start: s.from, End: w.pos, DB: s.peak, RoomDB: w.loudRoom})
		}
	}
}

// reportedAt reports whether a shout already reported covers input
// position pos.
func (w *Watcher) reportedAt(pos int64) bool {
	for _, r := range w.reported {
		if pos >= r[0] && pos <= r[1]+int64(windowFrames*w.frame/2) {
			return true
		}
	}
	return false
}

// background follows the steady background: the quietest frame of the
// last noiseBlocks seconds. Digital silence is no background.
type background struct {
	ring   [noiseBlocks]float64 // the quietest frame of each second
	i      int
	filled int
	cur    float64 // the quietest frame of this second so far
	n      int
}

func newBackground() background { return background{cur: math.Inf(1)} }

func (b *background) add(lv float64) {
	if lv > silentDB+1 {
		b.cur = min(b.cur, lv)
	}
	b.n++
	if b.n >= framesPerSecond {
		b.ring[b.i] = b.cur
		b.i = (b.i + 1) % noiseBlocks
		b.filled = min(b.filled+1, noiseBlocks)
		b.cur, b.n = math.Inf(1), 0
	}
}

// level is the background in dB (+Inf before any is heard).
func (b *background) level() float64 {
	l := b.cur
	for _, v := range b.ring[:b.filled] {
		l = min(l, v)
	}
	return l
}

// biquad is a second-order filter section.
type biquad struct{ b0, b1, b2, a1, a2, x1, x2, y1, y2 float64 }

func (f *biquad) next(x float64) float64 {
	y := f.b0*x + f.b1*f.x1 + f.b2*f.x2 - f.a1*f.y1 - f.a2*f.y2
	f.x2, f.x1, f.y2, f.y1 = f.x1, x, f.y1, y
	return y
}

// highPass is a second-order Butterworth high-pass at fc Hz.
func highPass(rate, fc float64) biquad {
	w0 := 2 * math.Pi * min(fc, rate/4) / rate
	alpha := math.Sin(w0) / math.Sqrt2
	c := math.Cos(w0)
	a0 := 1 + alpha
	return biquad{b0: (1 + c) / 2 / a0, b1: -(1 + c) / a0, b2: (1 + c) / 2 / a0, a1: -2 * c / a0, a2: (1 - alpha) / a0}
}

// quantile keeps the last n values and answers quantiles of them, on a
// histogram of 0.25 dB bins from -100 to 0 dB.
type quantile struct {
	ring  []float64
	next  int
	full  bool
	count [400]int
	total int
}

func (q *quantile) init(n int) { q.ring = make([]float64, n) }

func bin(v float64) int {
	b := int((v + 100) * 4)
	return min(max(b, 0), 399)
}

func (q *quantile) reset() {
	q.next, q.full, q.total = 0, false, 0
	q.count = [400]int{}
}

func (q *quantile) add(v float64) {
	if q.full {
		q.count[bin(q.ring[q.next])]--
		q.total--
	}
	q.ring[q.next] = v
	q.count[bin(v)]++
	q.total++
	q.next++
	if q.next == len(q.ring) {
		q.next, q.full = 0, true
	}
}

func (q *quantile) at(p float64) float64 {
	want := int(p * float64(q.total))
	seen := 0
	for b, c := range q.count {
		seen += c
		if seen > want {
			return float64(b)/4 - 100 + 0.125
		}
	}
	return 0
}

// Position is the number of samples consumed.
func (w *Watcher) Position() int64 { return w.pos + int64(w.n) }
