// Package talk follows a table of talking voices for the Insomnia voices
// timer: it hears when the whole table falls silent (a pause) and when one
// voice rises far above the room (a shout).
//
// Everything is measured on the loudness of 20 ms frames, against two
// running references the watcher learns as it goes, so it needs no
// calibration and holds in a quiet flat or a noisy bar:
//
//   - the room level: the 30th percentile of the loudness of half-second
//     windows of talk over the last minute. With several voices at once
//     this is steady; one voice about 12 dB louder than the others lifts a
//     half-second window by 5 dB or more, while ordinary talk stays within
//     3 dB of it.
//   - the floor: the quietest the input gets, following every fall at once
//     and creeping back up by 3 dB a second, so it tracks the background
//     noise of pauses and, before any pause, the dips between words.
//
// A frame is silent when it is nearer the floor than the room level (below
// their midpoint). A pause is a run of silent frames, broken by no more than
// 60 ms of sound, lasting at least Config.MinPause. A shout is a stretch of
// half-second windows more than Config.ShoutDB above the room level.
package talk

import (
	"math"
)

// Defaults.
const (
	DefaultMinPause = 1.0 // seconds
	DefaultShoutDB  = 4.0 // dB above the room level
)

// Frame and window lengths.
const (
	frameSeconds  = 0.020
	windowFrames  = 25   // half a second
	historyFrames = 3000 // one minute of windows, for the room level
	roomQuantile  = 0.30
	floorRise     = 3.0 * frameSeconds // dB per frame
	bridgeFrames  = 3                  // sound shorter than this does not end a pause
	shoutMinimum  = 15                 // frames above the line before a shout is called (0.3 s)
	shoutRelease  = 1.5                // dB: a shout ends below ShoutDB minus this
	warmFrames    = 50                 // frames of talk before the room level is trusted
	silentDB      = -100.0
	freshDB       = 4.0 // a room level this near the floor is background noise
	bootWindows   = 25  // windows that make the first room level
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
	acc     float64
	n       int
	pos     int64 // samples consumed
	frameNo int64

	floor      float64
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

	shoutOn   bool
	shoutRun  int
	shoutFrom int64
	shoutPeak float64
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
	w := &Watcher{rate: rate, frame: frame, cfg: cfg, emit: emit, floor: math.NaN(), room: math.NaN()}
	w.minRun = int(math.Round(cfg.MinPause / frameSeconds))
	w.hist.init(historyFrames)
	return w
}

// SampleRate is the input's rate.
func (w *Watcher) SampleRate() int { return w.rate }

// Write consumes samples (any scale; full scale is 1).
func (w *Watcher) Write(x []float64) {
	for _, v := range x {
		w.acc += v * v
		w.n++
		if w.n == w.frame {
			w.pos += int64(w.n)
			w.step(w.acc / float64(w.n))
			w.acc, w.n = 0, 0
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
			w.acc, w.n = 0, 0
		}
	}
}

// hold is a frame that is not the table's.
func (w *Watcher) hold() {
	w.frameNo++
	w.emit(Event{Kind: Level, Start: w.pos - int64(w.frame), End: w.pos, DB: w.lastLevel, RoomDB: w.room, Talking: !w.lastSilent})
	w.pauses(w.lastSilent)
}

// Close ends the input: a pause or a shout still open is reported as
// ending here.
func (w *Watcher) Close() {
	w.pos += int64(w.n)
	w.n = 0
	end := w.pos
	if w.silentRun-w.soundRun >= w.minRun {
		w.emit(Event{Kind: Pause, Start: w.runStart, End: end - int64(w.soundRun*w.frame), RoomDB: w.room})
	}
	w.silentRun, w.soundRun = 0, 0
	if w.shoutOn {
		w.emit(Event{Kind: Shout, Start: w.shoutFrom, End: end, DB: w.shoutPeak, RoomDB: w.room})
		w.shoutOn = false
	}
}

func db(energy float64) float64 {
	if energy <= 1e-10 {
		return silentDB
	}
	return 10 * math.Log10(energy)
}

// step takes one frame's mean energy.
func (w *Watcher) step(e float64) {
	w.frameNo++
	lv := db(e)
	switch {
	case math.IsNaN(w.floor) || lv < w.floor:
		w.floor = lv
	default:
		w.floor += floorRise
	}
	silent := w.silent(lv)
	w.lastSilent, w.lastLevel = silent, lv

	// The half-second window, and the room level from windows of talk.
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
	w.win[w.wi], w.wasSilent[w.wi] = e, silent
	w.wi = (w.wi + 1) % windowFrames
	winDB := db(w.wsum / windowFrames)
	if !silent {
		w.talk++
	}
	if w.frameNo >= windowFrames && w.wsil*5 <= windowFrames {
		// A window of talk (at first, before anything can be judged
		// silent, every window). A room level no louder than the floor
		// was learnt from background noise before anyone spoke: the
		// first window well above it starts the history afresh.
		if !math.IsNaN(w.room) && w.room < w.floor+freshDB && winDB > w.room+freshDB+6 {
			w.hist.reset()
			w.room = math.NaN()
			w.talk = 0
		}
		w.hist.add(winDB)
		if w.hist.total >= bootWindows {
			w.room = w.hist.at(roomQuantile)
		}
	}
	w.emit(Event{Kind: Level, Start: w.pos - int64(w.frame), End: w.pos, DB: lv, RoomDB: w.room, Talking: !silent})

	w.pauses(silent)
	w.shouts(winDB, silent)
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

func (w *Watcher) shouts(winDB float64, silent bool) {
	if math.IsNaN(w.room) || w.talk < warmFrames {
		return
	}
	above := winDB - w.room
	if !w.shoutOn {
		if above > w.cfg.ShoutDB && !silent {
			if w.shoutRun == 0 {
				// The window that crossed the line reaches back half a
				// second; the shout began about there.
				w.shoutFrom = max(0, w.pos-int64(windowFrames*w.frame/2))
				w.shoutPeak = above
			}
			w.shoutRun++
			w.shoutPeak = max(w.shoutPeak, above)
			if w.shoutRun >= shoutMinimum {
				w.shoutOn = true
				w.emit(Event{Kind: ShoutStart, Start: w.shoutFrom, End: w.pos, DB: w.shoutPeak, RoomDB: w.room})
			}
		} else {
			w.shoutRun = 0
		}
		return
	}
	w.shoutPeak = max(w.shoutPeak, above)
	if above < w.cfg.ShoutDB-shoutRelease {
		end := max(w.shoutFrom, w.pos-int64(windowFrames*w.frame/2))
		w.emit(Event{Kind: Shout, Start: w.shoutFrom, End: end, DB: w.shoutPeak, RoomDB: w.room})
		w.shoutOn, w.shoutRun = false, 0
	}
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
