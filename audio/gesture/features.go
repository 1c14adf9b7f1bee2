// Package gesture tells a hand clap from a flat-hand table bang, and both from
// everything else a party makes (voices, laughter, glasses), using a few
// features of the sound that mean something physically: how suddenly it
// starts, whether it dies away, how bright it is, how noise-like, how much of
// it lies in the low thump band, and whether it rings with a pitch.
//
// It looks only at the Before seconds before an onset and the After seconds
// after it, so a live referee can name a gesture about 25 ms after it starts.
package gesture

import (
	"math"

	"github.com/tableref/tableref/audio/internal/level"
	"github.com/tableref/tableref/audio/internal/rfft"
)

// MinRise is the least rise, in dB, of a sound that may be a gesture: of its
// whole level (Sudden) or of its lows or highs (RiseLow, RiseHigh), since a
// clap landing on a loud drum still ringing barely moves the whole level but
// lifts the highs. Nothing a hand does starts more gently.
const MinRise = 8.0

// Considered reports whether an onset rose enough to be a gesture at all;
// the network judges only these.
func (f Features) Considered() bool {
	return f.Sudden >= MinRise || f.RiseLow >= MinRise || f.RiseHigh >= MinRise
}

// Window lengths around an onset.
const (
	Before = 0.030 // seconds of context before the onset
	After  = 0.025 // seconds analysed after the onset
)

// Features describe one onset. Levels are in dB; times in milliseconds.
type Features struct {
	Level    float64 // peak 1 ms energy after the onset, dBFS
	Above    float64 // Level over the room's noise floor, dB (set by the caller; 0 if unknown)
	Sudden   float64 // peak after the onset over the mean energy just before it, dB
	Jump     float64 // the first 3 ms over the mean energy just before the onset, dB
	Early    float64 // energy of the first 5 ms over the whole After window's mean, dB
	AttackMs float64 // from the onset to the loudest millisecond
	Decay    float64 // energy of the last 10 ms over the first 10 ms after the onset, dB

	Centroid float64 // spectral centroid on a log-frequency scale, Hz
	Flatness float64 // spectral flatness (0 tonal .. 1 white noise) from 300 Hz up
	Low      float64 // share of power below 500 Hz
	High     float64 // share of power above 3 kHz
	Pitch    float64 // strongest normalised autocorrelation at 80-400 Hz (0..1)
	Tonal    float64 // share of the power above 1 kHz held by its 5 strongest spectral peaks
	Formant  float64 // share of the power at 1-3.5 kHz, where a voice has formants and a drum's ring has little, dB
	Harmonic float64 // share of the power above the pitch that lies on its multiples (2-10): high for a voice

	// What the onset brought, against the same span just before it: a clap
	// heard over the ringing of the bang before it is the bright, sudden
	// part of the mix, not the mix.
	Fresh    float64 // share of the power after the onset that is new (not in the span before it), 0..1
	RiseLow  float64 // rise of the power below 500 Hz over the span before, dB (-20..60)
	RiseHigh float64 // rise of the power above 2 kHz over the span before, dB (-20..60)

	// Surprise and SurpriseLow are how much worse the first predictMs after
	// the onset are foreseen than the span before it by a linear predictor
	// fitted to that span, in dB, over the whole band and below 700 Hz
	// (predict.go): a hit landing on a ringing drum is a surprise, the
	// ringing itself is not.
	Surprise    float64
	SurpriseLow float64

	// Voiced is the share of the voice detector's 20 ms frames in the
	// VoicedSeconds before the onset that were voiced: a burst in the middle
	// of a sentence is a consonant. Set by the caller (0 if unknown).
	Voiced float64
}

// VoicedSeconds is how far back before an onset Features.Voiced looks.
const VoicedSeconds = 0.3

// Analyzer computes Features; it keeps its FFT and buffers between calls. The
// zero value is ready to use.
type Analyzer struct {
	fft  *rfft.FFT
	n    int
	buf  []float64
	coef []complex128
	pow  []complex128 // the onset's new power per bin (real parts)
	pre  []float64    // power per bin of the span before the onset
	win  []float64    // the span a predictor is fitted to, windowed
	low  []float64    // the low band, decimated
	acf  []float64
	// log2fr[k] is math.Log2 of bin k's frequency at the rate log2Rate
	// (the spectrum's centroid weighs each bin by it): worked out once per
	// length and rate rather than for every onset.
	log2fr   []float64
	log2Rate int
	wlen     int // samples in the last spectrum's window
	env      []float64
	half     []float64 // the spectrum's span at half the rate

	// Rise, when above zero and under MinRise, is the least rise (Sudden,
	// dB) of an onset measured in full although it was not Considered: a
	// bang of a run, landing on the ringing of the one before, barely
	// lifts the level (see RepeatRise). Zero measures in full only what is
	// Considered.
	Rise float64
}

// floor is the least Sudden for which every feature is measured.
func (a *Analyzer) floor() float64 {
	if a.Rise > 0 && a.Rise < MinRise {
		return a.Rise
	}
	return MinRise
}

// SpectrumHalvedFrom is the rate, in Hz, from which the spectral features
// are measured at half the rate.
const SpectrumHalvedFrom = 32000

// halveTaps is a half-band low-pass (a Blackman-windowed sinc cut at a
// quarter of the rate, 31 taps), for halve.
var halveTaps = func() []float64 {
	const n = 31
	h := make([]float64, n)
	var sum float64
	for i := range h {
		t := float64(i - n/2)
		s := 0.5
		if t != 0 {
			s = math.Sin(math.Pi*t/2) / (math.Pi * t)
		}
		w := 0.42 - 0.5*math.Cos(2*math.Pi*float64(i)/(n-1)) + 0.08*math.Cos(4*math.Pi*float64(i)/(n-1))
		h[i] = s * w
		sum += h[i]
	}
	for i := range h {
		h[i] /= sum
	}
	return h
}()

// halve appends x low-passed and taken every other sample to dst (the
// filter is centred: no delay; beyond x's ends it sees zeros).
func halve(dst, x []float64) []float64 {
	c := len(halveTaps) / 2
	for i := 0; i < len(x); i += 2 {
		var v float64
		for k, h := range halveTaps {
			if j := i + k - c; j >= 0 && j < len(x) {
				v += h * x[j]
			}
		}
		dst = append(dst, v)
	}
	return dst
}

// PreFactor is how much of the power heard just before an onset is taken
// away, bin by bin, from the power after it to leave what the onset brought:
// a little more than all of it, since one short window's estimate of a
// steady sound varies by a few dB.
const PreFactor = 2.0

// Measure computes the features of an onset at index on of x, sampled at
// rate Hz. x must hold Before seconds before on (or start at 0) and After
// seconds after it.
func (a *Analyzer) Measure(x []float64, on int, rate int) Features {
	var f Features
	ms := func(m float64) int { return int(math.Round(m * float64(rate) / 1000)) }
	post := min(ms(After*1000), len(x)-on)
	if post <= ms(2) || on < 0 {
		return f
	}

	// Energy envelope in 1 ms blocks stepped every 0.5 ms.
	blk, step := max(ms(1), 1), max(ms(0.5), 1)
	a.env = a.env[:0]
	peak, peakAt := 0.0, 0
	for s := on; s+blk <= on+post; s += step {
		e := level.MeanSquare(x[s : s+blk])
		a.env = append(a.env, e)
		if e > peak {
			peak, peakAt = e, s-on
		}
	}
	f.Level = level.DB(peak)
	f.AttackMs = 1000 * float64(peakAt) / float64(rate)
	pre := level.MeanSquare(x[max(0, on-ms(Before*1000)):max(0, on-ms(2))])
	f.Sudden = level.DB(peak) - level.DB(pre)
	f.Jump = level.DB(level.MeanSquare(x[on:on+min(ms(3), post)])) - level.DB(pre)
	whole := level.MeanSquare(x[on : on+post])
	f.Early = level.DB(level.MeanSquare(x[on:on+min(ms(5), post)])) - level.DB(whole)
	f.Decay = level.DB(level.MeanSquare(x[on+post-min(ms(10), post/2):on+post])) - level.DB(level.MeanSquare(x[on:on+min(ms(10), post/2)]))

	w0 := max(0, on-ms(1))
	wl := on + post - w0
	if f.Sudden < a.floor() && !mayRise(x[max(0, w0-wl):on+post], w0-max(0, w0-wl), rate) {
		return f // neither the whole level nor its lows or highs rose: not worth a spectrum
	}
	w, before, srate := x[w0:on+post], x[max(0, w0-wl):w0], rate
	if rate >= SpectrumHalvedFrom {
		// The spectrum at half the rate: what is above 10 kHz tells no
		// clap from a bang, and the FFT stays small enough for the cache.
		a.half = halve(a.half[:0], x[max(0, w0-wl):on+post])
		// half[i] is x[2i]; the span before is no longer than the window
		cut := (w0 - max(0, w0-wl) + 1) / 2
		w, before, srate = a.half[cut:], a.half[max(0, 2*cut-len(a.half)):cut], rate/2
	}
	a.spectrum(w, before, srate, &f)
	if !f.Considered() && f.Sudden < a.floor() {
		return f // no hit starts this gently: Classify needs no more
	}
	f.Surprise = f.Sudden
	if s, ok := a.surprise(x[:on+post], 0, on, ms(predictMs), ms(1), predictOrder); ok {
		f.Surprise = s
	}
	f.SurpriseLow = f.Surprise
	if low, k := a.lowBand(x[:on+post], rate); k > 0 {
		lr := float64(rate) / float64(k)
		n := int(math.Round(predictMs * lr / 1000))
		if s, ok := a.surprise(low, int(lr*0.004), on/k, n, int(math.Ceil(lr/1000)), predictOrderLow); ok {
			f.SurpriseLow = s
		}
	}
	var lag int
	f.Pitch, lag = a.periodicity(ms(2.5), ms(12.5))
	if lag > 0 {
		f.Harmonic = a.harmonicity(float64(rate)/float64(lag), float64(rate)/float64(a.n))
	}
	return f
}

// spectrum fills the spectral features from the FFT of the window w after
// the onset, tapered only at its end so the attack keeps its full weight, less
// PreFactor times the power of the span before it (as long as w, or shorter
// at the start of the stream) tapered alike: the spectral features describe
// the sound the onset brought, not the mix it landed in.
func (a *Analyzer) spectrum(w, before []float64, rate int, f *Features) {
	n := 64
	for n < 2*len(w) { // room for the autocorrelation without wrap-around
		n *= 2
	}
	if a.n != n {
		a.fft, a.n = rfft.New(n), n
		a.buf = make([]float64, n)
		a.coef = make([]complex128, n/2+1)
		a.pow = make([]complex128, n/2+1)
		a.pre = make([]float64, n/2+1)
		a.acf = make([]float64, n)
	}
	a.wlen = len(w)
	a.power(before, len(w), len(w)-len(before), true)
	for k, c := range a.coef {
		a.pre[k] = real(c)*real(c) + imag(c)*imag(c)
	}
	a.power(w, len(w), 0, false)
	bin := float64(rate) / float64(n)
	for k := range a.pow {
		a.pow[k] = 0
	}
	if len(a.log2fr) != len(a.coef) || a.log2Rate != rate {
		a.log2fr, a.log2Rate = a.log2fr[:0], rate
		for k := range a.coef {
			a.log2fr = append(a.log2fr, math.Log2(float64(k)*bin))
		}
	}
	var tot, logc, low, high, formant, flatLog, flatSum float64
	var all, allLow, allHigh, preLow, preHigh float64
	var flatN int
	top := math.Min(8000, 0.45*float64(rate))
	for k := 1; k < len(a.coef); k++ {
		fr := float64(k) * bin
		if fr < 50 {
			continue
		}
		c := a.coef[k]
		heard := real(c)*real(c) + imag(c)*imag(c)
		all += heard
		if fr < 500 {
			allLow += heard
			preLow += a.pre[k]
		}
		if fr > 2000 {
			allHigh += heard
			preHigh += a.pre[k]
		}
		p := math.Max(0, heard-PreFactor*a.pre[k])
		a.pow[k] = complex(p, 0)
		tot += p
		logc += p * a.log2fr[k]
		if fr < 500 {
			low += p
		}
		if fr > 3000 {
			high += p
		}
		if fr >= 1000 && fr <= 3500 {
			formant += p
		}
		if fr >= 300 && fr <= top {
			flatSum += p
		}
	}
	rise := func(now, then float64) float64 {
		return math.Max(-20, math.Min(60, level.DB(now/float64(len(w)))-level.DB(then/float64(len(w)))))
	}
	f.RiseLow, f.RiseHigh = rise(allLow, preLow), rise(allHigh, preHigh)
	if tot <= 0 || all <= 0 {
		return
	}
	f.Fresh = tot / all
	// Bins the span before drowned hold nothing new; flatness counts them
	// as a trace rather than as silence.
	trace := 1e-4 * tot / float64(len(a.coef))
	for k := 1; k < len(a.coef); k++ {
		if fr := float64(k) * bin; fr >= 300 && fr <= top {
			flatLog += math.Log(real(a.pow[k]) + trace)
			flatN++
		}
	}
	f.Tonal = a.tonality(int(math.Ceil(1000/bin)), int(top/bin))
	f.Centroid = math.Exp2(logc / tot)
	f.Low, f.High = low/tot, high/tot
	f.Formant = level.DB(formant / tot)
	if flatN > 0 && flatSum > 0 {
		f.Flatness = math.Exp(flatLog/float64(flatN)) / (flatSum / float64(flatN))
	}
}

// Prescreen settles most onsets that are not Considered without a spectrum:
// the rise of the lows and of the highs is first estimated with
// second-order filters, and only a rise within PrescreenSlack dB of MinRise calls for the
// spectrum that measures RiseLow and RiseHigh properly.
const PrescreenSlack = 6.0

// mayRise reports whether the power below 500 Hz or above 2 kHz of x[split:]
// may stand MinRise over that of x[:split], by the rough estimate of
// second-order filters.
func mayRise(x []float64, split, rate int) bool {
	if split <= 0 || split >= len(x) {
		return true
	}
	low, high := newBiquad(500, rate, false, math.Sqrt2), newBiquad(2000, rate, true, math.Sqrt2)
	var pl, ph [2]float64
	for i, v := range x {
		k := 0
		if i >= split {
			k = 1
		}
		l, h := low.next(v), high.next(v)
		pl[k] += l * l
		ph[k] += h * h
	}
	n0, n1 := float64(split), float64(len(x)-split)
	rise := func(p [2]float64) float64 { return level.DB(p[1]/n1) - level.DB(p[0]/n0) }
	return math.Max(rise(pl), rise(ph)) >= MinRise-PrescreenSlack
}

// biquad is a second-order low- or high-pass section (transposed direct
// form II): a Butterworth filter alone, a part of a higher-order one with
// other dampings.
type biquad struct{ b0, b1, b2, a1, a2, z1, z2 float64 }

// newBiquad makes a section with corner hz and damping 1/Q (math.Sqrt2 for
// a second-order Butterworth filter).
func newBiquad(hz float64, rate int, highPass bool, damping float64) biquad {
	w := math.Tan(math.Pi * math.Min(hz, 0.45*float64(rate)) / float64(rate))
	norm := 1 / (1 + damping*w + w*w)
	q := biquad{a1: 2 * (w*w - 1) * norm, a2: (1 - damping*w + w*w) * norm}
	if highPass {
		q.b0, q.b1, q.b2 = norm, -2*norm, norm
	} else {
		q.b0, q.b1, q.b2 = w*w*norm, 2*w*w*norm, w*w*norm
	}
	return q
}

func (q *biquad) next(v float64) float64 {
	y := q.b0*v + q.z1
	q.z1 = q.b1*v - q.a1*y + q.z2
	q.z2 = q.b2*v - q.a2*y
	return y
}

// power puts x, placed at offset off of a window of length n, through the
// FFT into a.coef. The window is flat over the half nearest the onset and
// tapers away from it: at its end for the span after the onset, at its start
// (mirrored) for the span before, so both weigh most the moments either side
// of the onset.
func (a *Analyzer) power(x []float64, n, off int, before bool) {
	clear(a.buf)
	half := n / 2
	for i, v := range x {
		j := i + off
		d := j // distance into the taper's direction
		if before {
			d = n - 1 - j
		}
		g := 1.0
		if d >= half {
			g = 0.5 + 0.5*math.Cos(math.Pi*float64(d-half)/float64(n-half))
		}
		a.buf[j] = v * g
	}
	a.fft.Coefficients(a.coef, a.buf)
}

// tonality is the share of the power in bins [lo, hi) of the last spectrum
// held by its five strongest local peaks (each with its two neighbours): near
// 1 for a ringing glass, low for noise such as a clap.
func (a *Analyzer) tonality(lo, hi int) float64 {
	lo, hi = max(lo, 1), min(hi, len(a.pow)-1)
	var total float64
	var peaks [5]float64
	for k := lo; k < hi; k++ {
		p := real(a.pow[k])
		total += p
		if p > real(a.pow[k-1]) && p >= real(a.pow[k+1]) {
			e := p + real(a.pow[k-1]) + real(a.pow[k+1])
			for i := range peaks { // keep the five largest, descending
				if e > peaks[i] {
					copy(peaks[i+1:], peaks[i:4])
					peaks[i] = e
					break
				}
			}
		}
	}
	if total <= 0 {
		return 0
	}
	var top float64
	for _, e := range peaks {
		top += e
	}
	return math.Min(1, top/total)
}

// periodicity is the largest autocorrelation, relative to lag 0, at lags in
// [lo, hi] of the last windowed spectrum (above 50 Hz), obtained from its
// power spectrum: near 1 for a voiced or ringing sound, low for noise.
func (a *Analyzer) periodicity(lo, hi int) (float64, int) {
	a.fft.Sequence(a.acf, a.pow)
	if a.acf[0] <= 0 {
		return 0, 0
	}
	best, at := 0.0, 0
	for lag := lo; lag <= hi && lag < a.wlen/2; lag++ {
		// undo the bias of a finite window: fewer products at longer lags
		r := a.acf[lag] / a.acf[0] * float64(a.wlen) / float64(a.wlen-lag)
		if r > best {
			best, at = r, lag
		}
	}
	return best, at
}

// harmonicity is the share of the last spectrum's power above 1.5 times the
// pitch f0 that lies within a bin of its multiples 2 to 10.
func (a *Analyzer) harmonicity(f0, bin float64) float64 {
	var on, all float64
	lo := int(1.5 * f0 / bin)
	hi := min(len(a.pow)-1, int(10.5*f0/bin))
	for k := lo; k <= hi; k++ {
		all += real(a.pow[k])
	}
	for h := 2; h <= 10; h++ {
		c := int(math.Round(float64(h) * f0 / bin))
		for k := max(c-1, lo); k <= min(c+1, hi); k++ {
			on += real(a.pow[k])
		}
	}
	if all <= 0 {
		return 0
	}
	return math.Min(1, on/all)
}
