package gesture

import "math"

// Surprise: a table or drum struck a moment ago still rings as a few decaying
// resonances, which a short linear predictor fitted to the sound just before
// an onset foresees almost exactly. A new hit landing on that ringing is the
// part the predictor cannot foresee, however loud the ringing; a flicker of
// the ringing itself is foreseen. The features compare the one-step
// prediction error after the onset with the error on the span the predictor
// was fitted to, in dB.

// Predictor settings.
const (
	predictOrder    = 16   // coefficients of the full-band predictor
	predictOrderLow = 8    // of the low-band one
	predictMs       = 10.0 // the span after the onset that is predicted
	lowRate         = 2400 // Hz, about: the low band is decimated to this
	lowCutHz        = 700.0
)

// surprise is the mean square one-step prediction error of x[on:on+n] over
// that of x[skip:on-gap] by a predictor of order p fitted to x[skip:on-gap],
// in dB. It returns ok false when the span before is too short to fit.
func (a *Analyzer) surprise(x []float64, skip, on, n, gap, p int) (float64, bool) {
	if skip+4*p > on-gap || on+n > len(x) || n <= 0 {
		return 0, false
	}
	x = x[skip:]
	on -= skip
	fit := x[:on-gap]
	coef := a.lpc(fit, p)
	errAt := func(i int) float64 {
		e := x[i]
		for k, c := range coef {
			e -= c * x[i-1-k]
		}
		return e * e
	}
	var before, after float64
	for i := p; i < len(fit); i++ {
		before += errAt(i)
	}
	for i := on; i < on+n; i++ {
		after += errAt(i)
	}
	before /= float64(len(fit) - p)
	after /= float64(n)
	return 10*math.Log10(after+1e-15) - 10*math.Log10(before+1e-15), true
}

// lpc fits a linear predictor of order p to x (autocorrelation method with
// a Hann window and Levinson-Durbin). It returns c with x[i] ≈ Σ c[k]·x[i-1-k].
func (a *Analyzer) lpc(x []float64, p int) []float64 {
	a.win = a.win[:0]
	for i, v := range x {
		a.win = append(a.win, v*(0.5-0.5*math.Cos(2*math.Pi*(float64(i)+0.5)/float64(len(x)))))
	}
	r := make([]float64, p+1)
	for lag := range r {
		var s float64
		for i := lag; i < len(a.win); i++ {
			s += a.win[i] * a.win[i-lag]
		}
		r[lag] = s
	}
	r[0] *= 1 + 1e-6 // a trace of white noise keeps the recursion stable
	if r[0] <= 0 {
		return make([]float64, p)
	}
	c := make([]float64, p)
	prev := make([]float64, p)
	e := r[0]
	for i := 0; i < p; i++ {
		acc := r[i+1]
		for k := 0; k < i; k++ {
			acc -= c[k] * r[i-k]
		}
		refl := acc / e
		copy(prev, c[:i])
		c[i] = refl
		for k := 0; k < i; k++ {
			c[k] = prev[k] - refl*prev[i-1-k]
		}
		e *= 1 - refl*refl
		if e <= 0 {
			break
		}
	}
	return c
}

// lowBand low-passes x at lowCutHz (a fourth-order Butterworth filter, as
// two second-order sections) and keeps every factor-th sample, for a rate
// near lowRate; it returns the decimated samples and the factor.
func (a *Analyzer) lowBand(x []float64, rate int) ([]float64, int) {
	factor := max(1, rate/lowRate)
	a.low = append(a.low[:0], x...)
	// The two sections of a fourth-order Butterworth low-pass: Q = 0.541, 1.307.
	for _, q := range [...]float64{0.5412, 1.3066} {
		s := newBiquad(lowCutHz, rate, false, 1/q)
		for i, v := range a.low {
			a.low[i] = s.next(v)
		}
	}
	n := 0
	for i := 0; i < len(a.low); i += factor {
		a.low[n] = a.low[i]
		n++
	}
	return a.low[:n], factor
}
