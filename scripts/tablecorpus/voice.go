package main

import (
	"math"
	"math/rand/v2"
)

// A burst of laughter is a run of "ha" syllables, three to six a second:
// each a breathy "h" (air through the open vocal tract) and a voiced vowel
// (the glottis pulsing at the laugher's pitch, shaped by the mouth's
// formants), some starting softly, some with a hard glottal attack.

// laugher is one person's laugh.
type laugher struct {
	f0               float64    // pitch at the start of a laugh
	formants         [3]float64 // Hz
	bandwidths       [3]float64
	breathy          float64 // noise share in the vowel
	hardAttackChance float64
}

func newLaugher(r *rand.Rand) laugher {
	return laugher{
		f0:               logUni(r, 110, 420),
		formants:         [3]float64{uni(r, 550, 1000), uni(r, 1000, 1800), uni(r, 2200, 3200)},
		bandwidths:       [3]float64{uni(r, 60, 140), uni(r, 80, 180), uni(r, 120, 260)},
		breathy:          uni(r, 0.02, 0.4),
		hardAttackChance: uni(r, 0, 0.5),
	}
}

// laugh renders one burst of laughter at rate.
func (l laugher) laugh(r *rand.Rand, rate int, near bool) []float64 {
	fs := float64(rate)
	syl := 2 + r.IntN(8)
	per := 1 / uni(r, 3.2, 6.5)
	total := int((float64(syl)*per + 0.2) * fs)
	src := make([]float64, total)    // glottal source
	breath := make([]float64, total) // aspiration
	f0 := l.f0 * math.Exp(r.NormFloat64()*0.1)
	at := int(uni(r, 0.01, 0.05) * fs)
	phase := 0.0
	for s := 0; s < syl; s++ {
		d := per * uni(r, 0.8, 1.2)
		hDur := uni(r, 0.015, 0.07)
		vDur := math.Max(0.04, d*uni(r, 0.45, 0.8)-hDur)
		hard := r.Float64() < l.hardAttackChance
		if hard {
			hDur *= 0.3
		}
		amp := uni(r, 0.5, 1) * math.Pow(0.93, float64(s))
		hn := int(hDur * fs)
		for i := 0; i < hn && at+i < total; i++ {
			breath[at+i] += 0.5 * amp * float64(i) / float64(hn) * r.NormFloat64()
		}
		vn := int(vDur * fs)
		attack := uni(r, 0.008, 0.035)
		if hard {
			attack = uni(r, 0.002, 0.006)
		}
		pf := f0 * math.Pow(0.97, float64(s))
		for i := 0; i < vn && at+hn+i < total; i++ {
			t := float64(i) / fs
			e := math.Min(1, t/attack) * math.Min(1, (vDur-t)/0.03)
			f := pf * (1 + 0.02*r.NormFloat64()) * (1 + 0.08*math.Sin(math.Pi*t/vDur))
			phase += f / fs
			if phase >= 1 {
				phase--
				src[at+hn+i] += amp * e // a glottal pulse
			}
			breath[at+hn+i] += l.breathy * amp * e * 0.3 * r.NormFloat64()
		}
		at += int(d * fs)
	}
	// the glottal pulses' spectrum falls about 12 dB an octave
	filter(src, lowPass(f0*1.5, 0.7, rate))
	scale(src, 1/math.Max(peakAbs(src), 1e-9))
	for i := range src {
		src[i] += breath[i] * 0.3
	}
	out := make([]float64, total)
	// the lowest harmonics pass the mouth too (the formant filters
	// alone would take them away)
	low := append([]float64(nil), src...)
	filter(low, lowPass(l.formants[0], 0.7, rate))
	g0 := uni(r, 0.3, 1.5)
	for i := range out {
		out[i] += g0 * low[i]
	}
	for k, f := range l.formants {
		y := append([]float64(nil), src...)
		filter(y, bandPass(f, f/l.bandwidths[k], rate))
		g := []float64{1, 0.6, 0.3}[k]
		for i := range out {
			out[i] += g * y[i]
		}
	}
	filter(out, highPass(80, 0.7, rate))
	scale(out, 1/math.Max(peakAbs(out), 1e-9))
	if near && r.Float64() < 0.6 {
		// each "ha" puffs air at a microphone near the laugher: a low thump
		puff := uni(r, 0.3, 2)
		fc := logUni(r, 80, 400)
		for at := int(0.01 * fs); at < total; at += int(per * uni(r, 0.8, 1.2) * fs) {
			n := int(uni(r, 0.02, 0.08) * fs)
			y := make([]float64, n)
			for i := range y {
				y[i] = r.NormFloat64() * math.Min(1, float64(i)/(0.004*fs)) * math.Exp(-float64(i)/(0.3*float64(n)))
			}
			filter(y, lowPass(fc, 0.7, rate), lowPass(fc, 0.7, rate))
			scale(y, puff/math.Max(peakAbs(y), 1e-9))
			for i, v := range y {
				if at+i < total {
					out[at+i] += v
				}
			}
		}
		scale(out, 1/math.Max(peakAbs(out), 1e-9))
	}
	fadeEnds(out, int(0.005*fs), int(0.02*fs))
	return out
}
