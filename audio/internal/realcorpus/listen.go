package realcorpus

import (
	"bytes"

	"github.com/tableref/tableref/audio"
	"github.com/tableref/tableref/audio/gesture"
)

// Heard is what the Listener reported for one recording.
type Heard struct {
	Gestures []Gesture    // onsets heard as a clap or a bang, in time order
	Codes    []audio.Code // codes, in time order
}

// Gesture is one onset heard as a clap or a bang.
type Gesture struct {
	Time float64      // seconds from the start of the recording
	Kind gesture.Kind // gesture.Clap or gesture.Bang
	// Features are what the Listener measured of it, in Band: what a
	// microphone check that heard it would learn from (see Calibrate).
	Features gesture.Features
	Band     gesture.Band
}

// count is how many of the gestures are of kind k.
func (h *Heard) count(k gesture.Kind) int {
	n := 0
	for _, g := range h.Gestures {
		if g.Kind == k {
			n++
		}
	}
	return n
}

// Listen runs a WAV file (its bytes) through a Listener exactly as
// `tableref listen --json --wav FILE` does (add --alone for keepAlone): the
// WAV is read by audio.NewWAV, so the channels are mixed down the same way,
// and the Listener has the configuration the command gives a file (see
// listenerConfig in cmd/tableref/listen.go: final verdicts only, the
// default gap, the file's channel report). adjust, when not nil, may change
// that configuration before the Listener is made (a saved calibration, say).
//
// The command prints every onset whose kind is clap or bang and every code;
// Heard keeps exactly those.
func Listen(wav []byte, keepAlone bool, adjust func(*audio.Config)) (*Heard, error) {
	w, err := audio.NewWAV(bytes.NewReader(wav))
	if err != nil {
		return nil, err
	}
	cfg := audio.Config{Gap: audio.DefaultGap, Final: true, KeepAlone: keepAlone, Channels: w.Channels}
	if adjust != nil {
		adjust(&cfg)
	}
	h := &Heard{}
	l := audio.NewListener(w.SampleRate(), cfg, func(ev audio.Event) {
		switch e := ev.(type) {
		case *audio.Onset:
			if e.Kind.IsGesture() {
				h.Gestures = append(h.Gestures, Gesture{Time: e.Time, Kind: e.Kind, Features: e.Features, Band: e.Band})
			}
		case *audio.Code:
			h.Codes = append(h.Codes, *e)
		}
	})
	err = audio.Drain(w, 4096, func(x []float64) error {
		l.Write(x)
		return nil
	})
	l.Close()
	return h, err
}
