package voice

// Detector decides whether voices are active. A frame is voiced when it is
// periodic at a voice pitch, carries its power low enough for a voice (glass
// rings higher), and stands clear of the room's noise floor. Voices start
// once Onset of the last Window frames are voiced, and stop after Hangover
// frames with none.
type Detector struct {
	MinPeriodicity float64 // generalised autocorrelation peak
	MinLow         float64 // share of power at 80-1000 Hz
	MinMid         float64 // share of power at 1-3.5 kHz (formants; a drum's ring has none)
	MinAboveFloor  float64 // dB over the room's noise floor
	Window         int     // frames
	Onset          int     // voiced frames within Window that start voices
	Hangover       int     // unvoiced frames that end them
	MaxDecay       float64 // dB: voiced frames falling more than this are a ringing object, not a voice

	an        *Analyzer
	frameLen  int64 // input samples per analysis window
	hop       int64 // input samples per frame
	floorRise float64

	recent []bool
	levels []float64 // level of each recent frame
	voiced int
	active bool
	silent int
	floor  float64
	frames int64
	lastV  int64 // End of the last voiced frame
}

// Change is a change of state: voices started or stopped at input sample At.
type Change struct {
	Active bool
	At     int64
}

// FloorRisePerSecond is how fast the noise floor climbs back after a drop.
const FloorRisePerSecond = 3.0

// NewDetector makes a Detector for input at rate Hz with default settings.
func NewDetector(rate int) *Detector {
	an := NewAnalyzer(rate)
	hop := int64(an.hop * an.factor)
	d := &Detector{
		MinPeriodicity: 0.25,
		MinLow:         0.25,
		MinMid:         0.01,
		MinAboveFloor:  10,
		Window:         8,
		Onset:          3,
		Hangover:       15,
		MaxDecay:       3,
		an:             an,
		frameLen:       int64(len(an.win) * an.factor),
		hop:            hop,
		floorRise:      FloorRisePerSecond * float64(hop) / float64(rate),
	}
	an.Loud = func(l float64) bool { return l >= d.floor+d.MinAboveFloor }
	an.Gate = d.couldBeVoiced
	return d
}

// couldBeVoiced tells the analyzer whether a frame could pass voicedFrame
// whatever its periodicity.
func (d *Detector) couldBeVoiced(f Frame) bool {
	return f.Low >= d.MinLow && f.Mid >= d.MinMid && f.Level >= d.floor+d.MinAboveFloor
}

// LastVoiced is the input sample just after the latest voiced frame (0
// before any).
func (d *Detector) LastVoiced() int64 { return d.lastV }

// Active reports whether voices are active after the samples pushed so far.
func (d *Detector) Active() bool { return d.active }

// Push consumes samples, calling fn for every Frame analysed (fn may be nil)
// and change for every change of state (may be nil).
func (d *Detector) Push(x []float64, fn func(Frame, bool), change func(Change)) {
	d.an.Push(x, func(f Frame) {
		v := d.next(f, change)
		if fn != nil {
			fn(f, v)
		}
	})
}

// ringing reports whether the voiced frames of the window only fall in
// level: a struck table or drum rings with a pitch and dies away, while a
// voice that starts holds or rises.
func (d *Detector) ringing() bool {
	first, last := 0.0, 0.0
	seen := false
	for i, v := range d.recent {
		if !v {
			continue
		}
		if !seen {
			first, seen = d.levels[i], true
		}
		last = d.levels[i]
	}
	return seen && last < first-d.MaxDecay
}

func (d *Detector) voicedFrame(f Frame) bool {
	return f.Periodicity >= d.MinPeriodicity && d.couldBeVoiced(f)
}

func (d *Detector) next(f Frame, change func(Change)) bool {
	if d.frames == 0 || f.Level < d.floor {
		d.floor = f.Level
	} else {
		d.floor += d.floorRise
	}
	d.frames++
	v := d.voicedFrame(f)
	d.recent = append(d.recent, v)
	d.levels = append(d.levels, f.Level)
	if v {
		d.voiced++
		d.lastV = f.End
	}
	if len(d.recent) > d.Window {
		if d.recent[0] {
			d.voiced--
		}
		d.recent = d.recent[1:]
		d.levels = d.levels[1:]
	}
	switch {
	case !d.active && d.voiced >= d.Onset && !d.ringing():
		d.active, d.silent = true, 0
		// Voices began with the oldest voiced frame still in the window.
		back := int64(0)
		for i, r := range d.recent {
			if r {
				back = int64(len(d.recent) - 1 - i)
				break
			}
		}
		if change != nil {
			change(Change{Active: true, At: max(0, f.End-d.frameLen-back*d.hop)})
		}
	case d.active && !v:
		d.silent++
		if d.silent >= d.Hangover {
			d.active = false
			if change != nil {
				change(Change{Active: false, At: d.lastV})
			}
		}
	case d.active:
		d.silent = 0
	}
	return v
}
