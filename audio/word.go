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
const (
	WordWatch        = 0.4
	WordBurst        = 0.05
	WordVoicedBy     = 0.15
	WordVoicedFrames = 5
	WordLouder       = 3.0
)

// wordWatch follows the last gesture reported.
type wordWatch struct {
	on    int64 // the gesture's first sample; -1 when nothing is watched
	kind  gesture.Kind
	hall  bool  // a gesture only as heard in a hall: the first voiced frame makes it a word
	blk   int64 // samples per 10 ms block
	frame int64 // samples in a voice analysis window

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
	}
}

// start watches a gesture of kind k that began at sample on. The samples
// from on to the stream's position so far are x.
func (w *wordWatch) start(on int64, k gesture.Kind, x []float64) {
	w.on, w.kind = on, k
	w.sum, w.filled = 0, 0
	w.blocks, w.frames = w.blocks[:0], w.frames[:0]
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
	if w.on >= 0 && f.End-w.frame >= w.on {
		w.frames = append(w.frames, voicedFrame{f.End, voiced})
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
			if f.end <= end && f.voiced {
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
