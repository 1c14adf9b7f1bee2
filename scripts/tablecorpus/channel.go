package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
)

// room is a shoebox room with a sound source in it and a microphone at some
// distance: its impulse response has the direct sound, the early
// reflections of the walls, floor, ceiling and table top (image sources),
// and a diffuse tail that decays at the room's reverberation time, longer
// in the lows than in the highs.
type room struct {
	dims     [3]float64 // m
	rt60     float64    // s, mid frequencies
	distance float64    // source to microphone, m
	onTable  bool       // the microphone lies on the struck table (the table carries the sound)
}

func newRoom(r *rand.Rand) room {
	return room{
		dims:     [3]float64{uni(r, 2.5, 9), uni(r, 3, 12), uni(r, 2.3, 3.6)},
		rt60:     logUni(r, 0.15, 1.2),
		distance: logUni(r, 0.15, 4),
		onTable:  r.Float64() < 0.3,
	}
}

func (m room) String() string {
	return fmt.Sprintf("room %.1fx%.1fx%.1f m RT60 %.2f s at %.2f m%s", m.dims[0], m.dims[1], m.dims[2], m.rt60, m.distance,
		map[bool]string{true: " (microphone on the table)"}[m.onTable])
}

// impulse renders the room's response from a source at the given distance
// (the hands, or a laugher) to the microphone, at rate.
func (m room) impulse(r *rand.Rand, dist float64, rate int) []float64 {
	fs := float64(rate)
	const c = 343.0
	// absorption from Sabine's formula, the same on every surface
	v := m.dims[0] * m.dims[1] * m.dims[2]
	s := 2 * (m.dims[0]*m.dims[1] + m.dims[1]*m.dims[2] + m.dims[0]*m.dims[2])
	alpha := math.Min(0.95, 0.161*v/(s*m.rt60))
	refl := math.Sqrt(1 - alpha)
	// source and microphone about table height, somewhere in the room
	src := [3]float64{uni(r, 0.8, m.dims[0]-0.8), uni(r, 0.8, m.dims[1]-0.8), uni(r, 0.7, 1.0)}
	dir := uni(r, 0, 2*math.Pi)
	mic := [3]float64{src[0] + dist*math.Cos(dir), src[1] + dist*math.Sin(dir), src[2] + uni(r, -0.1, 0.5)}
	for k := range mic {
		mic[k] = math.Max(0.1, math.Min(m.dims[k]-0.1, mic[k]))
	}
	direct := math.Max(0.1, math.Sqrt(sq(mic[0]-src[0])+sq(mic[1]-src[1])+sq(mic[2]-src[2])))
	n := int((m.rt60*1.2 + direct/c + 0.05) * fs)
	h := make([]float64, n)
	put := func(d, g float64) {
		t := d / c * fs
		i := int(t)
		if i+1 < n {
			f := t - float64(i)
			h[i] += g * (1 - f)
			h[i+1] += g * f
		}
	}
	// image sources up to the third order
	const order = 3
	for nx := -order; nx <= order; nx++ {
		for ny := -order; ny <= order; ny++ {
			for nz := -order; nz <= order; nz++ {
				o := abs(nx) + abs(ny) + abs(nz)
				if o > order {
					continue
				}
				img := [3]float64{image(src[0], m.dims[0], nx), image(src[1], m.dims[1], ny), image(src[2], m.dims[2], nz)}
				d := math.Sqrt(sq(img[0]-mic[0]) + sq(img[1]-mic[1]) + sq(img[2]-mic[2]))
				put(d, math.Pow(refl, float64(o))*direct/d)
			}
		}
	}
	// the table top: a strong, early reflection (or, for a microphone
	// lying on the table, the table's own vibration arriving first)
	if m.onTable {
		put(direct*uni(r, 0.3, 0.9), uni(r, 0.3, 1.2))
	} else if r.Float64() < 0.6 {
		put(direct+uni(r, 0.1, 0.6), uni(r, 0.4, 0.9))
	}
	// the diffuse tail: decaying noise from the mixing time on, its energy
	// set by the critical distance (where direct and reverberant sound are
	// equally loud)
	rc := 0.057 * math.Sqrt(v/m.rt60)
	mix := direct/c + uni(r, 0.01, 0.04)
	start := int(mix * fs)
	tail := make([]float64, n)
	bands := []struct {
		lo, hi, rt float64
	}{{0, 400, m.rt60 * uni(r, 1.0, 1.5)}, {400, 3000, m.rt60}, {3000, fs / 2, m.rt60 * uni(r, 0.4, 0.8)}}
	for _, b := range bands {
		x := make([]float64, n)
		for i := start; i < n; i++ {
			t := float64(i-start) / fs
			x[i] = r.NormFloat64() * math.Exp(-6.91*t/b.rt) * math.Min(1, float64(i-start)/(0.01*fs))
		}
		if b.lo > 0 {
			filter(x, highPass(b.lo, 0.7, rate), highPass(b.lo, 0.7, rate))
		}
		if b.hi < fs/2 {
			filter(x, lowPass(b.hi, 0.7, rate), lowPass(b.hi, 0.7, rate))
		}
		for i := range tail {
			tail[i] += x[i]
		}
	}
	// energy of the tail against the direct sound's (1 at distance direct)
	var e float64
	for _, v := range tail {
		e += v * v
	}
	g := (direct / rc) * math.Sqrt(1/math.Max(e, 1e-12)) * uni(r, 0.7, 1.4)
	for i := range h {
		h[i] += g * tail[i]
	}
	// the time of flight is no part of what a hit sounds like
	first := int(direct/c*fs) - 2
	if m.onTable {
		first = int(direct*0.3/c*fs) - 2
	}
	first = max(0, first)
	return h[first:]
}

func image(p, size float64, n int) float64 {
	if n%2 == 0 {
		return float64(n)*size + p
	}
	return float64(n+1)*size - p
}

func sq(x float64) float64 { return x * x }

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// mic is a microphone and what the device does to its signal before an app
// hears it.
type mic struct {
	kind       string // phone, laptop, headset, usb
	hpHz       float64
	hpOrder    int
	lpHz       float64
	eqHz, eqDB []float64 // its colour
	clipDB     float64   // how far the loudest hit is driven over full scale at the converter (<= 0: no clipping)
	softClip   bool
	agc        *agc
	gate       *gate
	rate       int      // the rate it captures at
	codec      []string // ffmpeg format and arguments (nil: none)
	dc         float64
}

func newMic(r *rand.Rand) mic {
	m := mic{}
	switch p := r.Float64(); {
	case p < 0.55:
		m.kind = "phone"
		m.hpHz, m.hpOrder, m.lpHz = logUni(r, 60, 300), 1+r.IntN(2), logUni(r, 6000, 20000)
		if r.Float64() < 0.25 {
			// a voice-call path's high-pass: the lows of a hit are gone,
			// what tells a clap from a knock must be heard above them
			m.hpHz, m.hpOrder = logUni(r, 250, 700), 2+r.IntN(2)
		}
	case p < 0.8:
		m.kind = "laptop"
		m.hpHz, m.hpOrder, m.lpHz = logUni(r, 120, 500), 1+r.IntN(3), logUni(r, 5000, 12000)
	case p < 0.9:
		m.kind = "headset"
		m.hpHz, m.hpOrder, m.lpHz = logUni(r, 100, 300), 1+r.IntN(2), logUni(r, 3400, 8000)
	default:
		m.kind = "usb"
		m.hpHz, m.hpOrder, m.lpHz = logUni(r, 30, 100), 1, logUni(r, 12000, 20000)
	}
	// its colour: a tilt (a microphone's own, and the distance's loss
	// of the highs) and bumps; brightness says little of what was struck
	tilt := uni(r, -5, 4) // dB an octave, about 1 kHz
	for hz := 150.0; hz < 16000; hz *= 2 {
		f := hz * uni(r, 0.8, 1.25)
		m.eqHz = append(m.eqHz, f)
		m.eqDB = append(m.eqDB, tilt*math.Log2(f/1000)+r.NormFloat64()*4.5)
	}
	if r.Float64() < 0.4 {
		m.clipDB = uni(r, 1, 20)
		m.softClip = r.Float64() < 0.4
	}
	if r.Float64() < 0.5 {
		m.agc = &agc{attack: logUni(r, 0.001, 0.02), release: logUni(r, 0.3, 3), targetDB: uni(r, -20, -6), maxGainDB: uni(r, 6, 35)}
	}
	if r.Float64() < 0.22 {
		m.gate = newGate(r)
	}
	switch m.kind {
	case "headset":
		m.rate = []int{8000, 16000}[r.IntN(2)]
	case "laptop":
		m.rate = []int{16000, 44100, 48000, 48000}[r.IntN(4)]
	default:
		m.rate = []int{8000, 16000, 16000, 22050, 44100, 44100, 48000, 48000, 48000}[r.IntN(9)]
	}
	if r.Float64() < 0.3 {
		m.codec = pickCodec(r, m.rate)
	}
	if r.Float64() < 0.1 {
		m.dc = uni(r, -0.02, 0.02)
	}
	return m
}

func (m mic) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s mic hp %.0f Hz/%d lp %.0f Hz, %d Hz", m.kind, m.hpHz, m.hpOrder, m.lpHz, m.rate)
	if m.clipDB > 0 {
		fmt.Fprintf(&b, ", clipped %.1f dB (soft %v)", m.clipDB, m.softClip)
	}
	if m.agc != nil {
		fmt.Fprintf(&b, ", agc %+v", *m.agc)
	}
	if m.gate != nil {
		fmt.Fprintf(&b, ", gate %+v", *m.gate)
	}
	if m.codec != nil {
		fmt.Fprintf(&b, ", codec %v", m.codec)
	}
	return b.String()
}

func pickCodec(r *rand.Rand, rate int) []string {
	switch {
	case rate == 8000:
		return [][]string{
			{"gsm", "-c:a", "libgsm", "-f", "gsm"},
			{"ogg", "-c:a", "libopus", "-b:a", "12k"},
			{"spx", "-c:a", "libspeex", "-f", "ogg"},
		}[r.IntN(3)]
	case rate == 16000:
		return [][]string{
			{"ogg", "-c:a", "libopus", "-b:a", fmt.Sprintf("%dk", 16+8*r.IntN(3))},
			{"spx", "-c:a", "libspeex", "-f", "ogg"},
			{"m4a", "-c:a", "aac", "-b:a", "32k"},
		}[r.IntN(3)]
	}
	return [][]string{
		{"ogg", "-c:a", "libopus", "-b:a", fmt.Sprintf("%dk", 24+16*r.IntN(3))},
		{"m4a", "-c:a", "aac", "-b:a", fmt.Sprintf("%dk", 48+32*r.IntN(3))},
		{"mp3", "-c:a", "libmp3lame", "-b:a", fmt.Sprintf("%dk", 64+32*r.IntN(3))},
		{"oga", "-c:a", "libvorbis", "-q:a", fmt.Sprint(1 + r.IntN(4))},
	}[r.IntN(4)]
}

// colour applies the microphone's band and colour to x at rate.
func (m mic) colour(x []float64, rate int) []float64 {
	y := spectralShape(x, rate, m.eqHz, m.eqDB)
	for k := 0; k < m.hpOrder; k++ {
		filter(y, highPass(m.hpHz, 0.707, rate))
	}
	filter(y, lowPass(m.lpHz, 0.707, rate), lowPass(m.lpHz, 0.707, rate))
	return y
}

// convert is the converter: the signal x, scaled so that its loudest hit
// (at peak) lands clipDB over full scale, clipped there.
func (m mic) convert(x []float64, peak float64) {
	if m.clipDB <= 0 {
		return
	}
	g := dbToAmp(m.clipDB) / math.Max(peak, 1e-9)
	for i, v := range x {
		v *= g
		if m.softClip {
			v = math.Tanh(v)
		} else {
			v = math.Max(-1, math.Min(1, v))
		}
		x[i] = v
	}
}

// agc is an automatic gain control: it follows the level with an attack
// and a release and turns quiet input up, loud input down, toward a target.
type agc struct {
	attack, release float64 // s
	targetDB        float64
	maxGainDB       float64
}

func (a agc) run(x []float64, rate int) {
	fs := float64(rate)
	// the level is followed by a peak detector; the gain (in dB) falls
	// at the attack's pace and climbs back at the release's, up to its
	// most, toward the gain that puts the level at the target
	kp := math.Exp(-1 / (0.05 * fs))
	ka, kr := math.Exp(-1/(a.attack*fs)), math.Exp(-1/(a.release*fs))
	env := 0.0
	gdb := 0.0
	for i, v := range x {
		env = math.Max(math.Abs(v), kp*env)
		want := math.Min(a.maxGainDB, a.targetDB-20*math.Log10(math.Max(env, 1e-6)))
		if want < gdb {
			gdb = ka*gdb + (1-ka)*want
		} else {
			gdb = kr*gdb + (1-kr)*want
		}
		y := v * dbToAmp(gdb)
		x[i] = math.Max(-1, math.Min(1, y)) // the limiter after it
	}
}

// gate is a noise gate (or a phone's noise suppression at its crudest): it
// opens when the level passes a threshold, looking ahead a little or
// reacting late, holds, and closes to silence or to a deep duck.
type gate struct {
	leadMs, holdMs, releaseMs, attackMs float64
	overNoiseDB                         float64 // threshold over the noise floor
	floorDB                             float64 // -inf: digital silence
}

func newGate(r *rand.Rand) *gate {
	g := &gate{leadMs: uni(r, -12, 4), holdMs: logUni(r, 10, 250), releaseMs: logUni(r, 3, 150), attackMs: logUni(r, 0.2, 8),
		overNoiseDB: uni(r, 6, 20), floorDB: math.Inf(-1)}
	if r.Float64() < 0.4 {
		g.floorDB = uni(r, -45, -20)
	}
	return g
}

func (g gate) run(x []float64, rate int, noiseRMS float64) {
	fs := float64(rate)
	thr := noiseRMS * dbToAmp(g.overNoiseDB)
	blk := max(1, rate/1000)
	n := len(x)
	open := make([]bool, n/blk+1)
	for b := range open {
		lo, hi := b*blk, min(n, (b+1)*blk)
		open[b] = hi > lo && rms(x[lo:hi]) > thr
	}
	// reaction: shift by the lead (negative = opens early, looking ahead)
	shift := int(g.leadMs)
	want := make([]bool, len(open))
	hold := int(g.holdMs)
	last := -1 << 30
	for b := range open {
		src := b + shift
		if src >= 0 && src < len(open) && open[src] {
			last = b
		}
		want[b] = b-last <= hold
	}
	floor := 0.0
	if !math.IsInf(g.floorDB, -1) {
		floor = dbToAmp(g.floorDB)
	}
	ka := math.Exp(-1 / (g.attackMs / 1000 * fs))
	kr := math.Exp(-1 / (g.releaseMs / 1000 * fs))
	gain := floor
	for i := range x {
		if want[i/blk] {
			gain = ka*gain + (1-ka)*1
		} else {
			gain = kr*gain + (1-kr)*floor
			if floor == 0 && gain < 1e-5 {
				gain = 0
			}
		}
		x[i] *= gain
	}
}

// background is the room's own sound.
func background(r *rand.Rand, n, rate int) ([]float64, string) {
	fs := float64(rate)
	switch p := r.Float64(); {
	case p < 0.3:
		return pink(r, n), "pink noise"
	case p < 0.5:
		// traffic: a low rumble swelling and fading
		x := brown(r, n, rate)
		f := uni(r, 0.03, 0.3)
		for i := range x {
			x[i] *= 0.6 + 0.4*math.Sin(2*math.Pi*f*float64(i)/fs)
		}
		return x, "traffic"
	case p < 0.7:
		// a fan: broadband air noise and its blade tone's harmonics
		x := pink(r, n)
		filter(x, lowPass(logUni(r, 1500, 6000), 0.7, rate))
		f := uni(r, 40, 160)
		for h := 1; h <= 4; h++ {
			a := uni(r, 0.05, 0.4) / float64(h)
			for i := range x {
				x[i] += a * math.Sin(2*math.Pi*f*float64(h)*float64(i)/fs)
			}
		}
		scale(x, 1/rms(x))
		return x, "fan"
	case p < 0.85:
		// a room's hiss: the microphone's own noise, white
		x := make([]float64, n)
		for i := range x {
			x[i] = r.NormFloat64()
		}
		return x, "hiss"
	default:
		// mains hum
		x := pink(r, n)
		scale(x, 0.3)
		f := []float64{50, 60}[r.IntN(2)]
		for h := 1; h <= 5; h += 2 {
			a := uni(r, 0.2, 1) / float64(h)
			for i := range x {
				x[i] += a * math.Sin(2*math.Pi*f*float64(h)*float64(i)/fs)
			}
		}
		scale(x, 1/rms(x))
		return x, "hum"
	}
}
