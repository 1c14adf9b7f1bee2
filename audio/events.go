package audio

import "github.com/tableref/tableref/audio/gesture"

// Event is something the Listener heard: *Onset, *Retract, *Code, *Talk or
// *Level.
type Event interface{ isEvent() }

// Onset is one sound that started: a clap, a bang, or something else.
type Onset struct {
	Sample   int64        // first sample of the sound, counted from the start of the input
	Time     float64      // Sample in seconds
	Kind     gesture.Kind // clap, bang or other
	Strength float64      // onset detection function at the peak (mean dB rise per band)
	Features gesture.Features
	Talking  bool  // voices were active when the onset was judged
	Emitted  int64 // samples consumed when the event was emitted (latency = Emitted - Sample)
	// Band is how much of the spectrum the stream carried when the onset
	// was judged (the network that judged it, the band a calibration
	// taught by it holds for).
	Band gesture.Band
}

// Retract takes back a gesture reported earlier: what followed it showed
// it was the first burst of a shouted word (see WordWatch), or no other
// gesture came within the gap of it (Alone; see loneWatch). It is not
// counted in any code.
type Retract struct {
	Sample  int64        // the gesture's Onset.Sample
	Time    float64      // Sample in seconds
	Kind    gesture.Kind // the kind it was reported as
	Alone   bool         // taken back for being alone, not as a word
	Emitted int64        // samples consumed when the event was emitted
}

// Code is a Woodlouse Chaos trainer code: the gestures heard together, ended
// by a silence of at least the gap.
type Code struct {
	Start, End   float64 // times of its first and last gesture, seconds
	Bangs, Claps int
	Order        string // one letter per gesture in time order: B bang, C clap
	Emitted      int64  // samples consumed when the code was emitted
}

// Talk reports voices: when they start (End < 0) and when they stop.
type Talk struct {
	Start, End float64 // seconds; End is -1 while the voices go on
	Emitted    int64
}

// Level reports the input level for meters, a few times a second.
type Level struct {
	Time float64 // end of the measured span, seconds
	RMS  float64 // dBFS over the span
	Peak float64 // dBFS, the loudest sample of the span
}

func (*Onset) isEvent()   {}
func (*Code) isEvent()    {}
func (*Retract) isEvent() {}
func (*Level) isEvent()   {}
func (*Talk) isEvent()    {}
