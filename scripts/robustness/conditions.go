package main

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
)

// Clip is audio on its way through a condition: samples per channel in
// [-1, 1], the rate, the labels (times in seconds) and the format it will be
// written in.
type Clip struct {
	Rate   int
	Ch     [][]float64
	Lab    *Labels
	Format Format
}

func (c *Clip) frames() int { return len(c.Ch[0]) }

func (c *Clip) seconds() float64 { return float64(c.frames()) / float64(c.Rate) }

// mono is the clip's first channel (every condition starts from a mono
// mixdown; the stereo conditions only make channels at the end).
func (c *Clip) mono() []float64 { return c.Ch[0] }

// Env is what the conditions share: the babble source.
type Env struct {
	Voices *Voices // nil when no voices corpus was found
}

// Condition is a named, deterministic transform of a recording.
type Condition struct {
	Name string
	Desc string
	// Apply transforms the clip; rng is seeded from the file and condition names.
	Apply func(c *Clip, rng *rand.Rand, env *Env) (*Clip, error)
	// NeedsVoices marks the conditions that use the voices corpus.
	NeedsVoices bool
	// NoGestures marks gated-noise and party-noise: their clips are made,
	// not taken from the corpus.
	NoGestures bool
	// Ungated leaves the gate out of a NoGestures clip.
	Ungated bool
}

// seedFor gives each (file, condition) its own random stream.
func seedFor(base uint64, file, cond string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(file))
	h.Write([]byte{0})
	h.Write([]byte(cond))
	return rand.New(rand.NewPCG(h.Sum64(), base))
}

// conditions lists every condition, in table order.
func conditions() []Condition {
	var cs []Condition
	add := func(name, desc string, f func(*Clip, *rand.Rand, *Env) (*Clip, error)) {
		cs = append(cs, Condition{Name: name, Desc: desc, Apply: f})
	}
	add("plain", "the recording mixed down to mono, written 16-bit", func(c *Clip, _ *rand.Rand, _ *Env) (*Clip, error) { return c, nil })

	gates := []struct {
		name, desc string
		p          GateParams
	}{
		{"gate-zero-fast", "noise gate to exact zeros (threshold 20th-pct 10 ms level + 12 dB, 5 ms RMS, opens 1 ms late over 1.5 ms, hold 50 ms, release 5 ms)", fastGate(math.Inf(-1))},
		{"gate-zero-slow", "noise gate to exact zeros, hold 300 ms, release 100 ms", slowGate(math.Inf(-1))},
		{"gate-duck30", "noise gate that ducks by 30 dB (not zeros), hold 50 ms, release 5 ms", fastGate(-30)},
		{"gate-duck30-slow", "noise gate that ducks by 30 dB, hold 300 ms, release 100 ms", slowGate(-30)},
	}
	for _, g := range gates {
		p := g.p
		add(g.name, g.desc, func(c *Clip, _ *rand.Rand, _ *Env) (*Clip, error) {
			c.Ch = gate(c.Ch, c.Rate, p)
			return c, nil
		})
	}

	add("zeros-first", "1 s of exact zeros before the recording (labels shifted)", func(c *Clip, _ *rand.Rand, _ *Env) (*Clip, error) {
		return insertZeros(c, []float64{0}, 1.0), nil
	})
	add("zeros-between", "0.5 s of exact zeros in the middle of each gap between codes (never inside a gesture, speech or clink)", func(c *Clip, _ *rand.Rand, _ *Env) (*Clip, error) {
		return insertZeros(c, betweenCodes(c.Lab), 0.5), nil
	})
	add("fade-in", "1 s of exact zeros, then the first 2 s fade in linearly from silence", func(c *Clip, _ *rand.Rand, _ *Env) (*Clip, error) {
		fade := min(c.frames(), 2*c.Rate)
		for _, ch := range c.Ch {
			for i := 0; i < fade; i++ {
				ch[i] *= float64(i) / float64(2*c.Rate)
			}
		}
		return insertZeros(c, []float64{0}, 1.0), nil
	})

	for _, dc := range []float64{0.003, 0.01, 0.03} {
		add(fmt.Sprintf("dc-%g", dc), fmt.Sprintf("DC offset of %g added (then clipped to ±1)", dc), func(c *Clip, _ *rand.Rand, _ *Env) (*Clip, error) {
			for _, ch := range c.Ch {
				for i := range ch {
					ch[i] += dc
				}
				clip1(ch)
			}
			return c, nil
		})
	}

	hums := []struct {
		f, db float64
		harm  bool
	}{{50, -40, false}, {50, -30, false}, {50, -20, false}, {60, -30, false}, {50, -30, true}, {60, -20, true}}
	for _, h := range hums {
		name := fmt.Sprintf("hum-%gHz-%gdB", h.f, -h.db)
		desc := fmt.Sprintf("%g Hz mains hum (pure sine), peak −%g dBFS", h.f, -h.db)
		if h.harm {
			name = fmt.Sprintf("hum-%gHz-harm-%gdB", h.f, -h.db)
			desc = fmt.Sprintf("%g Hz mains hum with harmonics 2-7 (random phases), peak −%g dBFS", h.f, -h.db)
		}
		add(name, desc, func(c *Clip, rng *rand.Rand, _ *Env) (*Clip, error) {
			addHum(c, h.f, h.db, h.harm, rng)
			return c, nil
		})
	}

	add("stereo-inverted", "two channels: x and −x (a mic pair with one channel wired backwards)", func(c *Clip, _ *rand.Rand, _ *Env) (*Clip, error) {
		x := c.mono()
		r := make([]float64, len(x))
		for i, v := range x {
			r[i] = -v
		}
		c.Ch = [][]float64{x, r}
		return c, nil
	})
	for _, ms := range []float64{0.5, 3} {
		add(fmt.Sprintf("stereo-delay-%gms", ms), fmt.Sprintf("two channels, the right one %g ms late (rounded to whole samples)", ms), func(c *Clip, _ *rand.Rand, _ *Env) (*Clip, error) {
			c.Ch = [][]float64{c.mono(), delayed(c.mono(), int(math.Round(ms/1000*float64(c.Rate))))}
			return c, nil
		})
	}
	add("stereo-dead", "two channels, the right one digital zeros", func(c *Clip, _ *rand.Rand, _ *Env) (*Clip, error) {
		c.Ch = [][]float64{c.mono(), make([]float64, c.frames())}
		return c, nil
	})
	add("stereo-dead-noise", "two channels, the right one only faint white noise at −70 dBFS RMS", func(c *Clip, rng *rand.Rand, _ *Env) (*Clip, error) {
		n := whiteNoise(c.frames(), rng)
		k := dbToAmp(-70)
		for i := range n {
			n[i] *= k
		}
		c.Ch = [][]float64{c.mono(), n}
		return c, nil
	})

	for _, r := range []int{8000, 16000, 48000, 96000} {
		add(fmt.Sprintf("rate-%dk", r/1000), fmt.Sprintf("resampled to %d Hz (Kaiser-windowed sinc polyphase, low-pass at 0.45 × the lower rate)", r), func(c *Clip, _ *rand.Rand, _ *Env) (*Clip, error) {
			return toRate(c, r)
		})
	}

	for _, f := range []Format{{Bits: 24}, {Bits: 32}, {Bits: 32, Float: true}, {Bits: 64, Float: true}} {
		add(f.String(), describeFormat(f), func(c *Clip, _ *rand.Rand, _ *Env) (*Clip, error) {
			c.Format = f
			return c, nil
		})
	}

	// Noise at an SNR measured two ways: against the gestures (the 50 ms
	// after each onset), and, with "-file", against the whole recording's
	// mean power, as most tools that add noise at an SNR do. A recording's
	// mean power sits well under its gestures' (most of it is room and
	// talk), so the "-file" conditions are the gentler.
	type snrWay struct {
		suffix, against string
		add             func(c *Clip, noise []float64, snr float64)
	}
	ways := []snrWay{
		{"", "the 50 ms after each onset", addAtSNR},
		{"-file", "the whole recording's mean power", addAtFileSNR},
	}
	for _, w := range ways {
		for _, snr := range []float64{20, 10} {
			add(fmt.Sprintf("pink-%gdB%s", snr, w.suffix), fmt.Sprintf("pink noise (Voss-McCartney) at %g dB SNR (signal: %s)", snr, w.against), func(c *Clip, rng *rand.Rand, _ *Env) (*Clip, error) {
				w.add(c, pinkNoise(c.frames(), rng), snr)
				return c, nil
			})
		}
	}
	for _, w := range ways {
		for _, snr := range []float64{20, 10} {
			cs = append(cs, Condition{
				Name:        fmt.Sprintf("babble-%gdB%s", snr, w.suffix),
				Desc:        fmt.Sprintf("babble from the voices corpus at %g dB SNR (signal: %s); the whole file counts as speech", snr, w.against),
				NeedsVoices: true,
				Apply: func(c *Clip, rng *rand.Rand, env *Env) (*Clip, error) {
					b, err := env.Voices.segment(c.frames(), c.Rate, rng)
					if err != nil {
						return nil, err
					}
					w.add(c, b, snr)
					// Babble is speech everywhere: a reported gesture that
					// matches no onset is a false alarm, as score-gestures
					// counts those in speech spans.
					c.Lab.Speech = [][2]float64{{0, c.seconds()}}
					return c, nil
				},
			})
		}
	}

	cs = append(cs, Condition{
		Name:        "babble-gate",
		Desc:        "babble-20dB, then gate-zero-fast: a call app's gate opening on the talk as on the gestures; the whole file counts as speech",
		NeedsVoices: true,
		Apply: func(c *Clip, rng *rand.Rand, env *Env) (*Clip, error) {
			b, err := env.Voices.segment(c.frames(), c.Rate, rng)
			if err != nil {
				return nil, err
			}
			addAtSNR(c, b, 20)
			c.Lab.Speech = [][2]float64{{0, c.seconds()}}
			c.Ch = gate(c.Ch, c.Rate, fastGate(math.Inf(-1)))
			return c, nil
		},
	})
	add("reverb", "room reverb: synthetic impulse response, RT60 0.6 s, early reflections, direct-to-reverberant 0 dB", func(c *Clip, rng *rand.Rand, _ *Env) (*Clip, error) {
		h := roomIR(c.Rate, 0.6, rng)
		for i, ch := range c.Ch {
			c.Ch[i] = convolve(ch, h)
		}
		if p := peak(c.Ch[0]); p > 0.98 {
			for _, ch := range c.Ch {
				for i := range ch {
					ch[i] *= 0.98 / p
				}
			}
		}
		return c, nil
	})
	add("clip-12dB", "gain +12 dB, hard clipped at ±1", func(c *Clip, _ *rand.Rand, _ *Env) (*Clip, error) {
		k := dbToAmp(12)
		for _, ch := range c.Ch {
			for i := range ch {
				ch[i] *= k
			}
			clip1(ch)
		}
		return c, nil
	})
	add("laptop-8k-gate", "rate-8k, then gate-zero-fast", func(c *Clip, _ *rand.Rand, _ *Env) (*Clip, error) {
		c, err := toRate(c, 8000)
		if err != nil {
			return nil, err
		}
		c.Ch = gate(c.Ch, c.Rate, fastGate(math.Inf(-1)))
		return c, nil
	})
	add("rate-8k-up", "rate-8k, then resampled up to 48 kHz (a Bluetooth headset's 8 kHz line, which the sound server hands on at its own rate)", func(c *Clip, _ *rand.Rand, _ *Env) (*Clip, error) {
		c, err := toRate(c, 8000)
		if err != nil {
			return nil, err
		}
		return toRate(c, 48000)
	})
	add("zeros-first-hum", "1 s of exact zeros, then the recording with 50 Hz hum at −30 dBFS peak (the hum starts when the zeros end)", func(c *Clip, rng *rand.Rand, _ *Env) (*Clip, error) {
		addHum(c, 50, -30, false, rng)
		return insertZeros(c, []float64{0}, 1.0), nil
	})
	cs = append(cs, Condition{
		Name:        "gated-noise",
		Desc:        "no gestures: 60 s of party noise (pink −50 dBFS, babble −30 dBFS, louder speech bursts) through gate-zero-fast; false gestures per minute",
		NeedsVoices: true,
		NoGestures:  true,
	}, Condition{
		Name:        "party-noise",
		Desc:        "the same party noise as gated-noise without the gate (an open microphone): false gestures per minute",
		NeedsVoices: true,
		NoGestures:  true,
		Ungated:     true,
	})
	return cs
}

func describeFormat(f Format) string {
	if f.Float {
		return fmt.Sprintf("the plain audio written as %d-bit IEEE float", f.Bits)
	}
	return fmt.Sprintf("the plain audio written as %d-bit integer PCM", f.Bits)
}

// toRate resamples every channel to rate r.
func toRate(c *Clip, r int) (*Clip, error) {
	for i, ch := range c.Ch {
		y, err := resample(ch, c.Rate, r)
		if err != nil {
			return nil, err
		}
		c.Ch[i] = y
	}
	c.Rate = r
	return c, nil
}

// delayed returns x delayed by d samples (zeros first), same length.
func delayed(x []float64, d int) []float64 {
	y := make([]float64, len(x))
	if d < len(x) {
		copy(y[d:], x[:len(x)-d])
	}
	return y
}

// addHum adds hum to every channel.
func addHum(c *Clip, f, db float64, harm bool, rng *rand.Rand) {
	h := hum(c.frames(), c.Rate, f, db, harm, rng)
	for _, ch := range c.Ch {
		for i, v := range h {
			ch[i] += v
		}
		clip1(ch)
	}
}

// addAtSNR scales noise so that the clip's gesture power over the noise's
// mean power is snr dB, adds it to every channel and clips.
func addAtSNR(c *Clip, noise []float64, snr float64) {
	addScaled(c, noise, gesturePower(c.mono(), c.Rate, c.Lab.Onsets), snr)
}

// addAtFileSNR scales noise so that the clip's mean power over the noise's
// mean power is snr dB, adds it to every channel and clips.
func addAtFileSNR(c *Clip, noise []float64, snr float64) {
	addScaled(c, noise, meanPower(c.mono()), snr)
}

// addScaled adds noise to every channel at snr dB under signal power ps, and clips.
func addScaled(c *Clip, noise []float64, ps, snr float64) {
	pn := meanPower(noise)
	if pn == 0 {
		return
	}
	k := math.Sqrt(ps / (pn * math.Pow(10, snr/10)))
	for _, ch := range c.Ch {
		for i, v := range noise {
			ch[i] += k * v
		}
		clip1(ch)
	}
}

// insertZeros inserts d seconds of exact zeros at each of the given times
// (seconds in the clip as it is), shifting the labels after each.
func insertZeros(c *Clip, at []float64, d float64) *Clip {
	nz := int(math.Round(d * float64(c.Rate)))
	dz := float64(nz) / float64(c.Rate)
	idx := make([]int, len(at))
	for i, t := range at {
		idx[i] = min(max(int(math.Round(t*float64(c.Rate))), 0), c.frames())
	}
	for ci, ch := range c.Ch {
		out := make([]float64, 0, len(ch)+nz*len(at))
		prev := 0
		for _, k := range idx {
			out = append(out, ch[prev:k]...)
			out = append(out, make([]float64, nz)...)
			prev = k
		}
		c.Ch[ci] = append(out, ch[prev:]...)
	}
	// shift from the last point back so that earlier shifts do not move later points
	for i := len(idx) - 1; i >= 0; i-- {
		shiftLabels(c.Lab, float64(idx[i])/float64(c.Rate), dz)
	}
	return c
}

// betweenCodes picks, in each gap between consecutive codes, the point
// nearest the gap's middle that lies in no protected span: 50 ms before to
// 250 ms after an onset (the hit and its ring), a speech span widened by
// 50 ms, or a clink (100 ms before to 300 ms after, as score-gestures has
// it). A gap with no free point gets no zeros. Points are ascending.
func betweenCodes(l *Labels) []float64 {
	var prot [][2]float64
	for _, o := range l.Onsets {
		prot = append(prot, [2]float64{o.T - 0.05, o.T + 0.25})
	}
	for _, s := range l.Speech {
		prot = append(prot, [2]float64{s[0] - 0.05, s[1] + 0.05})
	}
	for _, x := range l.Distractors {
		prot = append(prot, [2]float64{x.T - 0.1, x.T + 0.3})
	}
	free := func(t float64) bool {
		for _, p := range prot {
			if t >= p[0] && t <= p[1] {
				return false
			}
		}
		return true
	}
	codes := append([]Code(nil), l.Codes...)
	sortCodes(codes)
	var pts []float64
	for i := 0; i+1 < len(codes); i++ {
		lo, hi := codes[i].End+0.25, codes[i+1].Start-0.05
		if hi <= lo {
			continue
		}
		mid := (codes[i].End + codes[i+1].Start) / 2
		for step := 0; ; step++ {
			d := float64(step) * 0.01
			if mid-d < lo && mid+d > hi {
				break
			}
			if t := mid - d; t >= lo && t <= hi && free(t) {
				pts = append(pts, t)
				break
			}
			if t := mid + d; t >= lo && t <= hi && free(t) {
				pts = append(pts, t)
				break
			}
		}
	}
	return pts
}

func sortCodes(c []Code) {
	for i := 1; i < len(c); i++ {
		for j := i; j > 0 && c[j].Start < c[j-1].Start; j-- {
			c[j], c[j-1] = c[j-1], c[j]
		}
	}
}
