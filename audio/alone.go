package audio

import "github.com/tableref/tableref/audio/gesture"

// A trainer's code is at least two gestures (a bang for the species and a
// clap for each animal), and inside a code they come well under the gap
// apart. A gesture with no other within the gap before or after it is no
// code's: a knock, a glass set down, a word's first burst through a noise
// gate. Unless Config.KeepAlone is set, such a gesture is taken back once
// the gap after it has passed (a Retract event that says Alone), and it is
// in no code.
//
// Only gestures that stayed gestures count as company: a word's first burst
// taken back (see WordWatch) keeps nobody company. Nor do two gestures
// closer than CompanyFrom seconds keep each other company: nobody claps or
// bangs twice in a tenth of a second, so they are one sound heard twice (a
// word's burst and its next syllable, a thing dropped and bouncing).
const CompanyFrom = 0.1

// loneWatch follows the gestures kept so far, for the ones still alone.
type loneWatch struct {
	gap, from int64
	recent    []int64 // the gestures kept within the gap before the last
	alone     []aloneGesture
}

// aloneGesture is a gesture kept with no company yet.
type aloneGesture struct {
	on   int64
	kind gesture.Kind
}

func newLoneWatch(gap, from int64) loneWatch {
	return loneWatch{gap: gap, from: from}
}

// company reports whether gestures at samples a <= b keep each other
// company.
func (w *loneWatch) company(a, b int64) bool {
	return b-a >= w.from && b-a < w.gap
}

// kept records that the gesture at sample on, of kind, stays a gesture
// (gestures come in time order). It returns the gestures that now have
// company (on itself, and those alone before it) and those left alone for
// good: alone more than the gap before on.
func (w *loneWatch) kept(on int64, kind gesture.Kind) (company []int64, lone []aloneGesture) {
	with := false
	for _, r := range w.recent {
		with = with || w.company(r, on)
	}
	still := w.alone[:0]
	for _, a := range w.alone {
		switch {
		case w.company(a.on, on):
			company = append(company, a.on)
		case on-a.on >= w.gap:
			lone = append(lone, a)
		default:
			still = append(still, a)
		}
	}
	w.alone = still
	if with {
		company = append(company, on)
	} else {
		w.alone = append(w.alone, aloneGesture{on, kind})
	}
	k := 0
	for k < len(w.recent) && on-w.recent[k] >= w.gap {
		k++
	}
	w.recent = append(w.recent[:0], w.recent[k:]...)
	w.recent = append(w.recent, on)
	return company, lone
}

// due returns the first gesture alone for good at sample now, if any: the
// gap after it has passed and no sound that started within the gap is still
// being judged (first is the earliest onset still waiting for its verdict,
// -1 if none). It is forgotten.
func (w *loneWatch) due(now, first int64) (aloneGesture, bool) {
	if len(w.alone) == 0 {
		return aloneGesture{}, false
	}
	a := w.alone[0]
	if now < a.on+w.gap || (first >= 0 && first < a.on+w.gap) {
		return aloneGesture{}, false
	}
	w.alone = w.alone[1:]
	return a, true
}

// waiting is the first gesture still alone, or -1.
func (w *loneWatch) waiting() int64 {
	if len(w.alone) == 0 {
		return -1
	}
	return w.alone[0].on
}

// end returns every gesture still alone (nothing more can come) and
// forgets them.
func (w *loneWatch) end() []aloneGesture {
	a := w.alone
	w.alone = nil
	return a
}
