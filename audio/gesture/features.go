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
	"gonum.org/v1/gonum/dsp/fourier"
)

// SpectralMinSudden is the least Sudden, in dB, for which the spectral
// features are computed; below it a sound is not a hit whatever its spectrum.
const SpectralMinSudden = 8.0

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
}

// Analyzer computes Features; it keeps its FFT and buffers between calls. The
// zero value is ready to use.
type Analyzer struct {
	fft  *fourier.FFT
	n    int
	buf  []float64
	coef []complex128
	pow  []complex128
	acf  []float64
	wlen int // samples in the last spectrum's window
	env  []float64
}

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

	if f.Sudden < SpectralMinSudden {
		return f // no hit starts this gently: Classify needs no more
	}
	a.spectrum(x[max(0, on-ms(1)):on+post], rate, &f)
	var lag int
	f.Pitch, lag = a.periodicity(ms(2.5), ms(12.5))
	if lag > 0 {
		f.Harmonic = a.harmonicity(float64(rate)/float64(lag), float64(rate)/float64(a.n))
	}
	return f
}

// spectrum fills the spectral features from one FFT of the window, tapered
// only at its end so the attack keeps its full weight.
func (a *Analyzer) spectrum(w []float64, rate int, f *Features) {
	n := 64
	for n < 2*len(w) { // room for the autocorrelation without wrap-around
		n *= 2
	}
	if a.n != n {
		a.fft, a.n = fourier.NewFFT(n), n
		a.buf = make([]float64, n)
		a.coef = make([]complex128, n/2+1)
		a.pow = make([]complex128, n/2+1)
		a.acf = make([]float64, n)
	}
	clear(a.buf)
	a.wlen = len(w)
	half := len(w) / 2
	for i, v := range w {
		g := 1.0
		if i >= half {
			g = 0.5 + 0.5*math.Cos(math.Pi*float64(i-half)/float64(len(w)-half))
		}
		a.buf[i] = v * g
	}
	a.fft.Coefficients(a.coef, a.buf)
	bin := float64(rate) / float64(n)
	for k := range a.pow {
		a.pow[k] = 0
	}
	var tot, logc, low, high, formant, flatLog, flatSum float64
	var flatN int
	top := math.Min(8000, 0.45*float64(rate))
	for k := 1; k < len(a.coef); k++ {
		fr := float64(k) * bin
		if fr < 50 {
			continue
		}
		c := a.coef[k]
		p := real(c)*real(c) + imag(c)*imag(c)
		a.pow[k] = complex(p, 0)
		tot += p
		logc += p * math.Log2(fr)
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
			flatLog += math.Log(p + 1e-30)
			flatSum += p
			flatN++
		}
	}
	if tot <= 0 {
		return
	}
	f.Tonal = a.tonality(int(math.Ceil(1000/bin)), int(top/bin))
	f.Centroid = math.Exp2(logc / tot)
	f.Low, f.High = low/tot, high/tot
	f.Formant = level.DB(formant / tot)
	if flatN > 0 && flatSum > 0 {
		f.Flatness = math.Exp(flatLog/float64(flatN)) / (flatSum / float64(flatN))
	}
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
