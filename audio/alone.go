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
// taken back (see WordWatch) keeps nobody company.

// loneWatch follows the gestures kept so far, for the one still alone.
type loneWatch struct {
	gap  int64
	last int64 // the last gesture kept (-1 before any)
	// alone is the last gesture kept, while no other came within the gap
	// before it and none has come after it yet (-1 when there is none).
	alone     int64
	aloneKind gesture.Kind
}

func newLoneWatch(gap int64) loneWatch {
	return loneWatch{gap: gap, last: -1, alone: -1}
}

// kept records that the gesture at sample on, of kind, stays a gesture. It
// returns the gestures that now have company (on itself, and the one alone
// before it) and the gesture left alone for good, with its kind (-1 if
// none): one alone more than the gap before on.
func (w *loneWatch) kept(on int64, kind gesture.Kind) (company []int64, lone int64, loneKind gesture.Kind) {
	lone = -1
	if w.last >= 0 && on-w.last < w.gap {
		if w.alone >= 0 {
			company = append(company, w.alone)
		}
		company = append(company, on)
		w.alone = -1
	} else {
		lone, loneKind = w.alone, w.aloneKind
		w.alone, w.aloneKind = on, kind
	}
	w.last = on
	return company, lone, loneKind
}

// due reports whether the gesture alone (if any) is alone for good at
// sample now: the gap after it has passed and no sound that started within
// the gap is still being judged (first is the earliest onset still waiting
// for its verdict, -1 if none).
func (w *loneWatch) due(now, first int64) bool {
	if w.alone < 0 || now < w.alone+w.gap {
		return false
	}
	return first < 0 || first >= w.alone+w.gap
}

// take forgets the gesture alone and returns its sample and kind.
func (w *loneWatch) take() (int64, gesture.Kind) {
	on := w.alone
	w.alone = -1
	return on, w.aloneKind
}
