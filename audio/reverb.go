package audio

import (
	"slices"

	"github.com/tableref/tableref/audio/gesture"
	"github.com/tableref/tableref/audio/internal/level"
)

// A hard-walled room draws every sound out: a hit no longer dies within the
// few milliseconds the classifier hears, and the network hesitates between
// "bang" and "other" over hits it would name at once in a dry room. The
// Listener measures how reverberant the room is from the gestures it hears
// over the room (not after digital silence: see Listener.margin), by how far
// each one's sound has fallen TailFrom to TailTo seconds after
// it (its drop, dB under its loudest 10 ms), and lowers the classifier's
// margin in a reverberant room: at the median drop of the last
// ReverbGestures gestures, the full gesture.Margin at DryDropDB or more,
// WetMargin at WetDropDB or less, in between in proportion. WetMargin is
// under zero: in a hard-walled room a hit is named even when the network
// gives "other" a little more (on heldJ-M through reverb, a margin of -0.1
// there gained 5 codes of 338 for 2 false gestures, -0.2 gained 7 for 2
// and lost more in babble). The thresholds were
// read off the dev corpus and heldJ (per-file median drops: 11-33 dB as
// recorded, 8-19 dB through a room of RT60 0.6 s); a single gesture moves
// the margin, since the misses a reverberant room causes come mostly in the
// first code.
const (
	TailFrom, TailTo = 0.10, 0.20
	ReverbGestures   = 8
	ReverbMinHeard   = 1 // gestures measured before the margin moves: the first code counts most
	DryDropDB        = 18.0
	WetDropDB        = 15.0
	WetMargin        = -0.1
	// TailOverRoomDB: a tail less than this over the room's noise floor has
	// fallen into the noise, as a sound does in a dry room; its drop tells
	// only how loud the gesture was, and counts as dry.
	TailOverRoomDB = 6.0
)

// In a hall, a hit's reflections build up over its first 5 to 20 ms: it
// peaks late in the few milliseconds the network hears and does not die
// away in them, so its AttackMs and Decay tell of the room, not of the
// hand, and the network, which has learnt that a late peak and a sound that
// holds are a voice's or a glass's, names "other" many a clear bang. Once
// the reverb watch has found the room reverberant (the median drop at
// WetDropDB or less), every onset but one after digital silence is named
// with its AttackMs at most HallAttackMs and its Decay at most HallDecayDB,
// as a dry room gives a hit (this also keeps a bang's late peak from making
// it a clap). A voice's onset in a hall looks the same, so a sound that is
// a gesture only so is taken back at the first voiced frame of its word
// watch (see wordWatch).
//
// On the corpus through a room of RT60 0.6 s, heard by a network trained
// without it, this took codes exact from 80 to 90 of 102 (scripts/synthcorpus
// README, "Estimating accuracy").
const (
	HallAttackMs = 10.0
	HallDecayDB  = 0.0
)

// reverbWatch follows the room's reverberation. Make it with newReverbWatch.
type reverbWatch struct {
	on    int64   // the gesture whose tail is awaited, or -1
	drops ring    // the last ReverbGestures drops
	wet   float64 // 0 (dry) to 1 (reverberant), from the drops
}

func newReverbWatch() reverbWatch { return reverbWatch{on: -1, drops: newRing(ReverbGestures)} }

// start awaits the tail of the gesture at sample on. A tail already
// awaited is given up: the new gesture sounds in it.
func (r *reverbWatch) start(on int64) { r.on = on }

// giveUp stops awaiting a tail: a gesture sounds in it whose own tail is
// not to be measured.
func (r *reverbWatch) giveUp() { r.on = -1 }

// dueAt is the sample by which the awaited tail has been heard.
func (r *reverbWatch) dueAt(rate int) int64 { return r.on + int64(TailTo*float64(rate)) }

// measure takes the awaited gesture's sound x (from its onset to TailTo
// seconds after it) in a room whose noise floor is floorDB.
func (r *reverbWatch) measure(x []float64, rate int, floorDB float64) {
	r.on = -1
	blk := max(rate/100, 1)
	from, to := int(TailFrom*float64(rate)), int(TailTo*float64(rate))
	if len(x) < to || from >= to {
		return
	}
	var peak float64
	for i := 0; i+blk <= 3*blk; i += max(blk/2, 1) {
		peak = max(peak, level.MeanSquare(x[i:i+blk]))
	}
	tail := level.DB(level.MeanSquare(x[from:to]))
	drop := level.DB(peak) - tail
	if tail-floorDB < TailOverRoomDB {
		drop = max(drop, DryDropDB)
	}
	r.drops.add(drop)
	if r.drops.n < ReverbMinHeard {
		return
	}
	med := r.drops.median()
	r.wet = min(1, max(0, (DryDropDB-med)/(DryDropDB-WetDropDB)))
}

// margin is the classifier's margin for the room as heard so far.
func (r *reverbWatch) margin() float64 { return marginToward(WetMargin, r.wet) }

// marginToward is the classifier's margin a share w (0 to 1) of the way from
// the full gesture.Margin down to floor.
func marginToward(floor, w float64) float64 { return gesture.Margin*(1-w) + floor*w }

// median of x (not empty), leaving x as it was.
func median(x []float64) float64 {
	s := slices.Clone(x)
	slices.Sort(s)
	n := len(s)
	return (s[(n-1)/2] + s[n/2]) / 2
}
