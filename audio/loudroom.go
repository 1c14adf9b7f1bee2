package audio

import "github.com/tableref/tableref/audio/gesture"

// In a room loud with a steady noise (a fan, music, a crowd further off) the
// hands stand less far above the room than in a quiet one, and the network,
// which has learned that a hit stands far above the room, hesitates over
// hits it would name at once in a quiet room. The Listener follows how far
// the gestures it hears stand above the room's noise floor (Above) and
// lowers the classifier's margin in a loud room: at the median Above of
// the last LoudGestures gestures, the full gesture.Margin at QuietAboveDB
// or more, none at LoudAboveDB or less, in between in proportion. It moves
// once LoudMinHeard gestures have been heard. The thresholds were chosen on
// heldJ-M through pink noise at 20 dB under the gestures (gestures there
// stand 15-30 dB above the room; in the dev corpus as recorded, mostly
// 40-60 dB).
const (
	LoudGestures = 8
	LoudMinHeard = 2
	QuietAboveDB = 40.0
	LoudAboveDB  = 25.0
)

// loudRoom follows how far the gestures stand above the room. Make it with
// newLoudRoom.
type loudRoom struct {
	above ring // the last LoudGestures gestures' Above
}

func newLoudRoom() loudRoom { return loudRoom{above: newRing(LoudGestures)} }

// heard takes a gesture's Above.
func (r *loudRoom) heard(above float64) { r.above.add(above) }

// margin is the classifier's margin for the room as heard so far.
func (r *loudRoom) margin() float64 {
	if r.above.n < LoudMinHeard {
		return gesture.Margin
	}
	return gesture.Margin * min(1, max(0, (r.above.median()-LoudAboveDB)/(QuietAboveDB-LoudAboveDB)))
}
