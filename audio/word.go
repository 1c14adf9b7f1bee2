package audio

import (
	"math"

	"github.com/tableref/tableref/audio/gesture"
	"github.com/tableref/tableref/audio/voice"
)

// A shouted word often starts with a burst (a plosive, a hard vowel onset)
// that, in the 25 ms the classifier hears, is a bang or a clap. What follows
// tells them apart: a hand's sound dies away, or rings and dies away, while
// a word goes on voiced at once and grows louder than its first burst. So
// every gesture is watched for WordWatch seconds after it, or until the next
// gesture: it is taken back (a Retract event, and it leaves its code) when
//
//   - voice frames begin within WordVoicedBy seconds of its onset (a word
//     spoken after a bang begins later, once the bang has died away), and
//     WordVoicedFrames of them (100 ms of voice) are voiced in the watch, and
//   - the sound after its first WordBurst seconds grows at least as loud as
//     those first WordBurst seconds were;
//
// or when voice frames begin as early and the sound grows WordLouder dB
// louder than its first burst, however little of the watch is voiced (a
// word chopped by a noise gate, or voiced only at its start).
//
// A drum or a table rings with a pitch too, but never grows louder than the
// hit that set it ringing.
//
// A gesture named only as heard in a hall (see HallAttackMs) is a word as
// soon as one voice frame in its watch, after its first burst, is voiced: a
// voice's onset in a hall looks like such a hit.
//
// A laugh ("ha-ha-ha") is a train of syllables, and so is talk: each
// starts with a breath ("h") or a plosive that rises fast enough to pass
// for a hand's sound, but what it starts is a voice, and a voice is neither
// a hand's noise nor a struck object's ring. So a gesture is taken back too
// when its onset was a syllable's (see syllable), by two things a voice
// does and a hand's sound does not:
//
//   - it is periodic at a voice pitch from its start: the loudest of the
//     voice frames that hold the onset (their windows start at most one
//     hop, 20 ms, before or after it) is periodic (SyllablePeriodicity)
//     with at least SyllableLow of its power at 80-1000 Hz. The vocal folds
//     open and close at 80-500 Hz from the vowel's first periods, and a
//     vowel's fundamental and first formant lie under 1 kHz. A clap, and a
//     knuckle's or a palm's slap, is noise, with no period; a knock on
//     glass, ceramic or stone that rings with a pitch rings above 1 kHz,
//     where a voice carries little.
//   - and it stops faster than it began to fall: the frame after the
//     onset's (its window starts 20-40 ms after the onset) is d dB under
//     the loudest of the onset's frames, and within SyllableCutHops hops
//     after it a frame is at least SyllableCutHops×d + SyllableBeatDB,
//     and at least SyllableCutDB, under it. A syllable is held by the
//     breath and ends when the breath stops (a laugh's "ha" lasts 60-120
//     ms, 4-6 of them a second). A table or a drum that rings at a low
//     pitch is periodic too, but its ring is a sum of decaying modes, whose
//     level in dB falls ever more slowly as the quickest modes die first:
//     having lost d dB in its first hop or two, it loses at most d in each
//     hop after.
//     SyllableBeatDB leaves room for two modes beating, and a room's
//     reverberation decays the same way.
//
// A clap with talk right after it is kept: the loudest frame at its onset
// is the clap's noise, which is not periodic. Talk that starts later is for
// the word watch above.
const (
	WordWatch        = 0.4
	WordBurst        = 0.05
	WordVoicedBy     = 0.15
	WordVoicedFrames = 5
	WordLouder       = 3.0

	SyllablePeriodicity = 0.2
	SyllableLow         = 0.5
	SyllableCutHops     = 3
	SyllableBeatDB      = 3.0
	SyllableCutDB       = 12.0
)

// wordWatch follows the last gesture reported.
type wordWatch struct {
	on    int64 // the gesture's first sample; -1 when nothing is watched
	kind  gesture.Kind
	hall  bool  // a gesture only as heard in a hall: the first voiced frame makes it a word
	blk   int64 // samples per 10 ms block
	frame int64 // samples in a voice analysis window
	hop   int64 // samples from one voice frame to the next

	sum    float64   // energy of the block being filled
	filled int64     // samples in it
	blocks []float64 // mean square of each complete block since on
	frames []voicedFrame
}

func newWordWatch(rate int) wordWatch {
	return wordWatch{
		on:    -1,
		blk:   max(int64(rate)/100, 1),
		frame: int64(math.Round(voice.FrameSeconds * float64(rate))),
		hop:   int64(math.Round(voice.HopSeconds * float64(rate))),
	}
}

// start watches a gesture of kind k that began at sample on. The samples
// from on to the stream's position so far are x; recent are the voice
// frames heard so far, oldest first (those that hold the onset may be
// among them).
func (w *wordWatch) start(on int64, k gesture.Kind, x []float64, recent []voicedFrame) {
	w.on, w.kind = on, k
	w.sum, w.filled = 0, 0
	w.blocks, w.frames = w.blocks[:0], w.frames[:0]
	for _, f := range recent {
		if f.end-w.frame >= w.on-w.hop {
			w.frames = append(w.frames, f)
		}
	}
	w.samples(x)
}

// samples adds the samples that follow those already seen.
func (w *wordWatch) samples(x []float64) {
	if w.on < 0 {
		return
	}
	for _, v := range x {
		w.sum += v * v
		if w.filled++; w.filled == w.blk {
			w.blocks = append(w.blocks, w.sum/float64(w.blk))
			w.sum, w.filled = 0, 0
		}
	}
}

// voiceFrame adds one frame of the voice detector.
func (w *wordWatch) voiceFrame(f voice.Frame, voiced bool) {
	if w.on >= 0 && f.End-w.frame >= w.on-w.hop {
		w.frames = append(w.frames, newVoicedFrame(f, voiced))
	}
}

// dueAt is the sample at which the watch ends by itself, once the voice
// frames up to its end have come in.
func (w *wordWatch) dueAt(rate int) int64 {
	return w.on + int64((WordWatch+voice.HopSeconds)*float64(rate))
}

// word reports whether what was heard from the gesture's onset up to sample
// end (the next gesture, or the end of the watch) makes it a word's first
// burst.
func (w *wordWatch) word(end int64, rate int) bool {
	end = min(end, w.on+int64(WordWatch*float64(rate)))
	if w.syllable(end) {
		return true
	}
	burst := int64(WordBurst * float64(rate))
	nb := int((burst + w.blk - 1) / w.blk)
	last := min(int((end-w.on)/w.blk), len(w.blocks)) // blocks wholly before end
	if last <= nb {
		return false
	}
	first := 0.0
	for _, e := range w.blocks[:nb] {
		first = math.Max(first, e)
	}
	later := 0.0
	for _, e := range w.blocks[nb:last] {
		later = math.Max(later, e)
	}
	if w.hall {
		for _, f := range w.frames {
			if f.end-w.frame >= w.on && f.end <= end && f.voiced {
				return true
			}
		}
	}
	if first <= 0 || later < first {
		return false
	}
	voiced, early := 0, false
	by := w.on + int64(WordVoicedBy*float64(rate))
	for _, f := range w.frames {
		from := f.end - w.frame
		if from < w.on+burst || f.end > end || !f.voiced {
			continue
		}
		voiced++
		if from <= by {
			early = true
		}
	}
	return early && (voiced >= WordVoicedFrames || later >= first*math.Pow(10, WordLouder/10))
}

// syllable reports whether the gesture's onset, as heard up to sample end
// (the next gesture, or the end of the watch), was a syllable's: the
// loudest voice frame that holds the onset is periodic at a voice pitch
// with its power low, and the sound then stops faster than it began to
// fall (see SyllablePeriodicity). The voice analyzer measures periodicity
// only in frames that the voice detector could take for a voice (loud
// enough over the room, with power both low and at a formant's 1-3.5 kHz);
// in the others it is 0.
func (w *wordWatch) syllable(end int64) bool {
	onset, periodic := math.Inf(-1), false
	next, nextFrom, heard := 0.0, int64(0), false
	cut := math.Inf(1)
	for _, f := range w.frames {
		from := f.end - w.frame
		if f.end > end {
			break
		}
		switch {
		case from < w.on-w.hop:
		case from <= w.on+w.hop: // the onset's frames
			if f.level > onset {
				onset = f.level
				periodic = f.periodicity >= SyllablePeriodicity && f.low >= SyllableLow
			}
		case !heard: // the next
			next, nextFrom, heard = f.level, from, true
		case from <= nextFrom+SyllableCutHops*w.hop:
			cut = math.Min(cut, f.level)
		}
	}
	if !periodic || !heard {
		return false
	}
	fell := math.Max(onset-next, 0)
	return next-cut >= math.Max(SyllableCutDB, SyllableCutHops*fell+SyllableBeatDB)
}
