package main

import (
	"math"
	"math/rand/v2"
)

// The hits are modelled from how they make sound, not copied from
// recordings, so that they can be varied along every physical dimension
// a real table, real hands and a real microphone vary along.
//
// A clap is a burst of air squeezed out between the palms: a noise burst a
// millisecond or two long, coloured by the cavity the hands form (a
// resonance from about 300 Hz for cupped hands to about 2.5 kHz for flat
// ones, damped within a few milliseconds), with some of the burst
// unresonated, and near a microphone a low pressure pulse (the air pushed
// at it). Nothing in it rings for long: the hands are soft and open.
//
// A knock or a bang is a hand striking a solid: a contact force of some
// duration (a knuckle about a millisecond, a flat hand or a fist several)
// excites the surface's modes, which ring at their own frequencies and die
// away at a rate set by the material's internal loss (wood and plastic
// lose about a hundredth of their energy a cycle, stone and ceramic far
// less). A long contact passes only the low modes (the table's thump); a
// flat hand also squeezes air out between palm and table (a slap's burst,
// like a clap's) and then rests on the surface, damping it.

func uni(r *rand.Rand, a, b float64) float64 { return a + (b-a)*r.Float64() }

func logUni(r *rand.Rand, a, b float64) float64 {
	return math.Exp(uni(r, math.Log(a), math.Log(b)))
}

// hands is one person's way of clapping: each clap varies around it.
type hands struct {
	// the cavity's resonance and its sharpness: a clap's spectrum has a
	// broad peak, not a ring (real claps' spectral flatness is 0.1-0.3 in
	// the listener's measure, a knuckle's knock under 0.07)
	fc, q      float64
	broadDB    float64 // the unresonated share of the burst, mostly above the resonated
	tauMs      float64 // the burst's decay
	popDB      float64 // the low pressure pulse near the microphone (-inf: none)
	popHz      float64
	doubleProb float64 // how often the fingers meet just before the palms
}

func newHands(r *rand.Rand, near bool) hands {
	h := hands{
		fc:         logUni(r, 300, 2800),
		q:          uni(r, 0.7, 2.5),
		broadDB:    uni(r, 2, 18),
		tauMs:      uni(r, 0.4, 2.5),
		popDB:      math.Inf(-1),
		popHz:      logUni(r, 50, 400),
		doubleProb: uni(r, 0, 0.6),
	}
	switch {
	case near && r.Float64() < 0.85:
		h.popDB = uni(r, -14, 8)
	case r.Float64() < 0.7:
		// far off, the room's lowest modes answer the clap's pulse
		h.popDB = uni(r, -22, 2)
	}
	return h
}

// clap renders one clap of these hands at rate, about 120 ms long.
func (h hands) clap(r *rand.Rand, rate int) []float64 {
	fs := float64(rate)
	n := int(0.12 * fs)
	burst := make([]float64, n)
	fc := h.fc * math.Exp(r.NormFloat64()*0.12)
	q := math.Max(1, h.q*math.Exp(r.NormFloat64()*0.15))
	tau := h.tauMs * math.Exp(r.NormFloat64()*0.2) / 1000
	attack := uni(r, 0.05, 0.6) / 1000
	add := func(at, gain float64) {
		for i := int(at * fs); i < n; i++ {
			t := float64(i)/fs - at
			e := math.Exp(-t / tau)
			if t < attack {
				e = t / attack
			}
			if e < 1e-4 && t > attack {
				break
			}
			burst[i] += gain * e * r.NormFloat64()
		}
	}
	if r.Float64() < h.doubleProb {
		// the fingers meet before the palms
		add(0, uni(r, 0.1, 0.6))
		add(logUni(r, 0.3, 8)/1000, 1)
	} else {
		add(0, 1)
	}
	res := append([]float64(nil), burst...)
	filter(res, bandPass(fc, q, rate))
	scale(res, 1/math.Max(peakAbs(res), 1e-9))
	broad := append([]float64(nil), burst...)
	filter(broad, highPass(200, 0.7, rate))
	scale(broad, dbToAmp(h.broadDB+r.NormFloat64()*2)/math.Max(peakAbs(broad), 1e-9))
	out := make([]float64, n)
	for i := range out {
		out[i] = res[i] + broad[i]
	}
	if !math.IsInf(h.popDB, -1) {
		// one cycle of a low tone under a Gaussian: the air pushed out
		f := h.popHz * math.Exp(r.NormFloat64()*0.1)
		w := 0.5 / f
		g := dbToAmp(h.popDB + r.NormFloat64()*2)
		for i := range out {
			t := float64(i) / fs
			out[i] += g * math.Sin(2*math.Pi*f*t) * math.Exp(-0.5*math.Pow((t-w/2)/(w/2), 2))
		}
	}
	scale(out, 1/math.Max(peakAbs(out), 1e-9))
	fadeEnds(out, 0, int(0.01*fs))
	return out
}

// material is what a surface is made of and how it is built.
type material struct {
	name         string
	etaLo, etaHi float64 // loss factor: decay rate = pi * f * eta
	f0Lo, f0Hi   float64 // the lowest mode
	fMax         float64 // the highest mode that matters
	nLo, nHi     int     // how many modes
	sparse       bool    // a small solid (a mug, a tile) with few, spread modes
	bodyDB       float64 // how much the whole thing thumps under a heavy blow (-inf: a small thing on a heavy one)
}

var materials = []material{
	{"wood table", 0.01, 0.05, 60, 250, 5000, 15, 40, false, 0},
	{"chipboard table", 0.02, 0.07, 60, 220, 4000, 15, 35, false, 0},
	{"plastic table", 0.02, 0.08, 80, 300, 4000, 12, 30, false, 0},
	{"wooden door", 0.015, 0.04, 50, 150, 3000, 15, 35, false, -3},
	{"glass table", 0.001, 0.005, 150, 500, 7000, 10, 30, false, -3},
	{"metal table", 0.0005, 0.003, 80, 300, 6000, 12, 30, false, 0},
	{"stone slab", 0.002, 0.012, 250, 1200, 9000, 8, 25, true, -12},
	{"ceramic", 0.001, 0.006, 700, 3000, 10000, 5, 15, true, math.Inf(-1)},
	{"hardwood desk", 0.005, 0.02, 100, 400, 9000, 20, 50, false, -3},
	{"tiled counter", 0.002, 0.01, 400, 2000, 10000, 8, 25, true, -15},
	{"wooden box", 0.015, 0.05, 80, 180, 4000, 10, 30, false, 3},
	{"book", 0.04, 0.12, 150, 600, 4000, 8, 20, true, math.Inf(-1)},
	{"cardboard box", 0.05, 0.15, 90, 300, 3000, 10, 25, false, -6},
	{"plastic case", 0.02, 0.06, 300, 1500, 8000, 6, 18, true, math.Inf(-1)},
	{"cutting board", 0.01, 0.04, 250, 1000, 7000, 8, 25, true, math.Inf(-1)},
	{"laptop lid", 0.005, 0.03, 200, 900, 8000, 8, 25, true, -12},
}

// striker is what hits the surface.
type striker struct {
	name       string
	tcLo, tcHi float64 // contact time, ms
	slapLo     float64 // the slap's burst, dB under the strike (-inf: none)
	slapHi     float64
	restLo     float64 // the hand resting on the surface damps it: extra decay time, s (0: no rest)
	restHi     float64
	knuckles   bool // two or three knuckles land a little apart
}

var strikers = []striker{
	{"knuckle", 0.15, 1.4, math.Inf(-1), math.Inf(-1), 0, 0, true},
	{"fist", 1.5, 5, -30, -15, 0.03, 0.15, false},
	{"flat hand", 2.5, 9, -26, -8, 0.01, 0.06, false},
	{"fingertips", 0.6, 2.5, -30, -18, 0.02, 0.1, false},
	{"fingernail", 0.08, 0.3, math.Inf(-1), math.Inf(-1), 0, 0, false},
}

// table is one surface as it sounds under a hand: its modes are fixed, the
// strike varies.
type table struct {
	mat   material
	freqs []float64
	amps  []float64
	taus  []float64
	// the table's body as a whole (top, legs, frame) moving under a heavy
	// blow: one or two low resonances, strong for a flat hand or a fist
	bodyHz, bodyTau []float64
}

func newTable(r *rand.Rand, m material) table {
	t := table{mat: m}
	n := m.nLo + r.IntN(m.nHi-m.nLo+1)
	f0 := logUni(r, m.f0Lo, m.f0Hi)
	eta := logUni(r, m.etaLo, m.etaHi)
	support := logUni(r, 0.05, 1.0) // energy leaving through the legs and the floor
	// A plate's bending waves radiate poorly below its coincidence
	// frequency (the radiation efficiency rises with about the square of
	// the frequency up to it), so what is heard of a knock weighs the
	// middle and high modes far more than the modes ring.
	coincidence := logUni(r, 400, 5000)
	radiation := uni(r, 1, 2)
	tilt := uni(r, -0.3, 0.8)
	for k := 0; k < n; k++ {
		var f float64
		switch {
		case k == 0:
			f = f0
		case m.sparse:
			// a free beam's or block's modes spread apart: about 2.8, 5.4, 8.9...
			f = f0 * math.Pow(float64(k)+1, uni(r, 1.3, 1.9)) * uni(r, 0.9, 1.1)
		default:
			// a plate's modes are about evenly dense in frequency
			f = f0 + (m.fMax-f0)*math.Pow(r.Float64(), uni(r, 1, 2))
		}
		if f > m.fMax*1.2 {
			continue
		}
		e := eta * logUni(r, 0.6, 1.7)
		tau := 1 / (math.Pi*f*e + 1/support)
		t.freqs = append(t.freqs, f)
		t.taus = append(t.taus, tau)
		a := logUni(r, 0.1, 1) * math.Pow(f/f0, -tilt)
		if f < coincidence {
			a *= math.Pow(f/coincidence, radiation/2)
		}
		t.amps = append(t.amps, a)
	}
	for k := 0; k < 1+r.IntN(2) && !math.IsInf(m.bodyDB, -1); k++ {
		t.bodyHz = append(t.bodyHz, logUni(r, 45, 250))
		t.bodyTau = append(t.bodyTau, logUni(r, 0.008, 0.08))
	}
	return t
}

// strike renders the table struck by s at rate, up to about 0.5 s.
func (t table) strike(r *rand.Rand, s striker, rate int) []float64 {
	fs := float64(rate)
	tc := logUni(r, s.tcLo, s.tcHi) / 1000
	rest := 0.0
	if s.restHi > 0 {
		rest = logUni(r, s.restLo, s.restHi)
	}
	longest := 0.0
	for _, tau := range t.taus {
		longest = math.Max(longest, tau)
	}
	n := int(math.Min(0.5, 6*longest+tc+0.02) * fs)
	n = max(n, int(0.08*fs))
	ir := make([]float64, n)
	for k, f := range t.freqs {
		if f >= 0.45*fs {
			continue
		}
		tau := t.taus[k]
		if rest > 0 {
			tau = 1 / (1/tau + 1/rest)
		}
		a := t.amps[k] * logUni(r, 0.5, 1.5) // where on the surface the hand lands
		ph := uni(r, 0, 2*math.Pi)
		w := 2 * math.Pi * f / fs
		d := math.Exp(-1 / (tau * fs))
		g := a
		for i := range ir {
			ir[i] += g * math.Sin(w*float64(i)+ph*0.1)
			g *= d
			if g < a*1e-4 {
				break
			}
		}
	}
	// the body's thump: the longer the contact, the more of it (a flat
	// hand or a fist moves the whole table; a knuckle barely does)
	var plate float64
	for _, v := range ir {
		plate = math.Max(plate, math.Abs(v))
	}
	body := plate * dbToAmp(t.mat.bodyDB+uni(r, -6, 12)+20*math.Log10(math.Min(1, tc/0.004)))
	for k, f := range t.bodyHz {
		w := 2 * math.Pi * f / fs
		tau := t.bodyTau[k]
		if rest > 0 {
			tau = 1 / (1/tau + 1/rest)
		}
		g := body * logUni(r, 0.3, 1)
		d := math.Exp(-1 / (tau * fs))
		for i := range ir {
			ir[i] += g * math.Sin(w*float64(i))
			g *= d
		}
	}
	// the contact force: a half sine of the contact time (two or three,
	// a little apart, for knuckles)
	// (a skin-covered bone on a hard surface: the force rises more
	// sharply than a half sine, and brings more of the highs)
	force := make([]float64, int(tc*fs)+1)
	sharp := uni(r, 0.4, 1.2)
	for i := range force {
		force[i] = math.Pow(math.Sin(math.Pi*float64(i)/float64(len(force))), sharp)
	}
	if s.knuckles && r.Float64() < 0.5 {
		gap := int(uni(r, 0.4, 3) / 1000 * fs)
		f2 := make([]float64, len(force)+gap)
		copy(f2, force)
		g := uni(r, 0.3, 1)
		for i, v := range force {
			f2[i+gap] += g * v
		}
		force = f2
	}
	out := convolve(ir, force)[:n]
	scale(out, 1/math.Max(peakAbs(out), 1e-9))
	// the contact itself: a click, louder for a hard striker
	{
		nc := max(2, int(uni(r, 0.05, 0.4)/1000*fs))
		g := dbToAmp(uni(r, -36, -14))
		if tc < 1.5e-3 {
			g = dbToAmp(uni(r, -30, -8))
		}
		for i := 0; i < nc && i < n; i++ {
			out[i] += g * r.NormFloat64() * (1 - float64(i)/float64(nc))
		}
	}
	// a flat hand's slap: air squeezed out from under the palm
	if !math.IsInf(s.slapHi, -1) {
		slap := hands{fc: logUni(r, 500, 3500), q: uni(r, 0.8, 4), broadDB: uni(r, -12, 0), tauMs: uni(r, 0.3, 1.5), popDB: math.Inf(-1)}.clap(r, rate)
		g := dbToAmp(uni(r, s.slapLo, s.slapHi))
		at := int(uni(r, 0, 0.6) * tc * fs)
		for i, v := range slap {
			if at+i < n {
				out[at+i] += g * v
			}
		}
	}
	// things on the table jump and land again
	if r.Float64() < 0.15 {
		for k := 0; k < 1+r.IntN(3); k++ {
			at := int(uni(r, 0.005, 0.06) * fs)
			g := dbToAmp(uni(r, -32, -16))
			f := logUni(r, 1500, 6000)
			for i := 0; at+i < n && i < int(0.01*fs); i++ {
				out[at+i] += g * math.Exp(-float64(i)/(0.0015*fs)) * math.Sin(2*math.Pi*f*float64(i)/fs)
			}
		}
	}
	scale(out, 1/math.Max(peakAbs(out), 1e-9))
	fadeEnds(out, 0, int(0.02*fs))
	return out
}
