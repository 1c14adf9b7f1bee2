package audio

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/tableref/tableref/audio/internal/condition"
)

// Mic reports what is wrong with the input, each time that changes: the
// Listener emits one when a problem appears or goes away. No problems means
// the input is fine (again).
type Mic struct {
	Time     float64 // seconds from the start of the input
	Problems []MicProblem
}

// MicProblem is one thing wrong with the input.
type MicProblem struct {
	Kind string // one of the Mic* kinds
	Say  string // what to tell the user, one plain sentence or two
}

func (*Mic) isEvent() {}

// The kinds of MicProblem.
const (
	MicSilent   = "silent"  // nothing but digital zeros: muted, off, or held by another program
	MicGated    = "gated"   // the sound keeps dropping to digital silence: noise suppression
	MicClipped  = "clipped" // samples at full scale
	MicQuiet    = "quiet"   // nothing loud for a long time
	MicDC       = "dc"      // a DC offset
	MicHum      = "hum"     // mains hum
	MicDead     = "dead-channel"
	MicInverted = "inverted-channel"
	MicApart    = "apart-channel"
	MicNarrow   = "narrowband" // only the telephone band: a Bluetooth headset calling
)

// ChannelState is what a multi-channel source found about one channel while
// mixing it down (see WAV.Channels and the microphone's).
type ChannelState struct {
	Level     float64 // dBFS, the last few seconds
	Reference bool    // the channel the others are judged against (the loudest, kept until another is clearly louder)
	Dead      bool    // far quieter than the loudest channel: left out
	Inverted  bool    // runs against the loudest channel: turned over
	Apart     bool    // does not line up with the loudest channel: left out
}

// Diagnosis thresholds.
const (
	// ClipLevel is the sample magnitude counted as clipped.
	ClipLevel = 0.999
	// ClipCount is how many clipped samples in ClipSeconds make the input
	// clipped.
	ClipCount   = 3
	ClipSeconds = 5.0
	// QuietPeakDB: no sample louder than this for QuietSeconds is a
	// microphone turned too low.
	QuietPeakDB  = -50.0
	QuietSeconds = 20.0
	// SilentSeconds of nothing but zeros is a silent input.
	SilentSeconds = 1.0
	// GatedHoles holes in GatedSeconds are a noise gate at work.
	GatedHoles   = 2
	GatedSeconds = 20.0
	// DCWarn is the DC offset worth mentioning: from where it is removed
	// (condition.DCOn; recordings drift by less than that).
	DCWarn = 0.006
	// ChannelSettleSeconds is how long a multi-channel input is heard
	// before its channels are judged (their statistics need it).
	ChannelSettleSeconds = 3.0
	// DiagnoseSeconds is how often the input is looked at.
	DiagnoseSeconds = 0.5
)

// doctor watches the input for the problems a real microphone has. It is fed
// once per meter span (a tenth of a second) and diagnoses every
// DiagnoseSeconds.
type doctor struct {
	span     float64 // seconds per feed
	peaks    ring    // peak per span, dBFS
	clips    ring    // clipped samples per span
	holes    ring    // holes seen so far, per span
	fed      int
	every    int
	last     string
	channels func() []ChannelState
	reported bool // a problem was reported (so its end is news)
	dcOn     bool
}

type ring struct {
	v  []float64
	at int
	n  int
}

func newRing(n int) ring { return ring{v: make([]float64, max(n, 1))} }

func (r *ring) add(x float64) {
	r.v[r.at] = x
	r.at = (r.at + 1) % len(r.v)
	r.n = min(r.n+1, len(r.v))
}

// oldest is the oldest value kept (0 when empty).
func (r *ring) oldest() float64 {
	if r.n < len(r.v) {
		return r.v[0]
	}
	return r.v[r.at]
}

func (r *ring) max() float64 {
	m := math.Inf(-1)
	for i := 0; i < r.n; i++ {
		m = math.Max(m, r.v[i])
	}
	return m
}

// median is the median of the values kept (r must hold one at least).
func (r *ring) median() float64 { return median(r.v[:r.n]) }

func (r *ring) sum() float64 {
	var s float64
	for i := 0; i < r.n; i++ {
		s += r.v[i]
	}
	return s
}

func newDoctor(span float64, channels func() []ChannelState) doctor {
	return doctor{
		span:     span,
		peaks:    newRing(int(QuietSeconds / span)),
		clips:    newRing(int(ClipSeconds / span)),
		holes:    newRing(int(GatedSeconds / span)),
		every:    max(1, int(math.Round(DiagnoseSeconds/span))),
		channels: channels,
	}
}

// feed takes one span's peak (dBFS) and clipped samples, with the
// conditioner's state after it and whether the stream is heard as a
// telephone line, and returns a report when the diagnosis changed.
func (d *doctor) feed(t, peakDB float64, clipped int, s condition.State, narrow bool) *Mic {
	d.peaks.add(peakDB)
	d.clips.add(float64(clipped))
	d.holes.add(float64(s.Holes))
	d.fed++
	if d.fed%d.every != 0 {
		return nil
	}
	var p []MicProblem
	add := func(kind, format string, a ...any) {
		p = append(p, MicProblem{Kind: kind, Say: fmt.Sprintf(format, a...)})
	}
	switch {
	case s.SilentRun >= SilentSeconds:
		add(MicSilent, "The microphone sends pure digital silence: it is muted, switched off, or another program holds it.")
	case float64(s.Holes)-d.holes.oldest() >= GatedHoles:
		add(MicGated, "The sound keeps dropping to digital silence: noise suppression seems on. Turn it off for this app in the sound settings: a quiet gesture can be lost in the gaps.")
	}
	if c := d.clips.sum(); c >= ClipCount {
		add(MicClipped, "The sound clips (%d samples at full scale in %.0f s): turn the microphone's input volume down.", int(c), ClipSeconds)
	}
	if s.Heard && s.SilentRun < SilentSeconds && float64(d.peaks.n)*d.span >= QuietSeconds {
		if pk := d.peaks.max(); pk < QuietPeakDB {
			add(MicQuiet, "The microphone is very quiet (nothing louder than %.0f dBFS in %.0f s): turn its input volume up or put it nearer the table.", pk, QuietSeconds)
		}
	}
	// a DC offset is named from DCWarn and forgotten below half of it
	if dc := math.Abs(s.DC); dc >= DCWarn || (d.dcOn && dc >= DCWarn/2) {
		d.dcOn = true
		add(MicDC, "The microphone adds a DC offset (%.3f of full scale); tableref removes it.", s.DC)
	} else {
		d.dcOn = false
	}
	if s.HumLines > 0 {
		add(MicHum, "Mains hum at %.0f Hz (%.0f dBFS); tableref removes it. A laptop charger or a ground loop causes it: running on battery may help.", s.HumHz, s.HumDB)
	}
	if narrow {
		add(MicNarrow, "The microphone carries only the telephone band (nothing above 4 kHz), as a Bluetooth headset does during calls: claps and bangs are told apart less surely. A laptop's own microphone or a USB one hears them better.")
	}
	if d.channels != nil && float64(d.fed)*d.span >= ChannelSettleSeconds {
		ch := d.channels()
		// the others are named against the channel the source judged them
		// by: two equal channels trade places by level from moment to moment
		loud := slices.IndexFunc(ch, func(c ChannelState) bool { return c.Reference })
		if loud < 0 { // a source that does not say: the loudest live channel
			for i, c := range ch {
				if !c.Dead && (loud < 0 || c.Level > ch[loud].Level) {
					loud = i
				}
			}
		}
		for i, c := range ch {
			switch {
			case c.Dead && loud >= 0:
				add(MicDead, "Channel %d of %d is silent (dead); only the others are used.", i+1, len(ch))
			case c.Inverted && loud >= 0:
				add(MicInverted, "Channel %d is wired back to front against channel %d (together they would cancel); tableref turns it over.", i+1, loud+1)
			case c.Apart && loud >= 0:
				add(MicApart, "Channel %d does not line up with channel %d (the microphones are far apart, or one lags); only the loudest channel is used.", i+1, loud+1)
			}
		}
	}
	var kinds []string
	for _, q := range p {
		kinds = append(kinds, q.Kind)
	}
	sig := strings.Join(kinds, ",")
	if sig == d.last {
		return nil
	}
	d.last = sig
	if len(p) == 0 && !d.reported {
		return nil
	}
	d.reported = true
	return &Mic{Time: t, Problems: p}
}
