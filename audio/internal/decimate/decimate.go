// Package decimate lowers a stream's sample rate by an integer factor, with a
// windowed-sinc low-pass filter against aliasing.
package decimate

import "math"

// Decimator keeps one output sample in Factor, filtered. Its output lags the
// input by Delay input samples. The zero value is not usable; call New.
type Decimator struct {
	Factor int
	Delay  int
	fir    []float64
	tail   []float64 // the last len(fir)-1 input samples, oldest first
	work   []float64 // tail followed by the block being filtered
	phase  int       // input samples since the last one kept
}

// New makes a Decimator by factor (1 passes samples through) whose filter
// keeps frequencies up to cutoff times the output Nyquist frequency
// (0 < cutoff < 1; 0.8 is a good default).
func New(factor int, cutoff float64) *Decimator {
	factor = max(factor, 1)
	d := &Decimator{Factor: factor}
	if factor == 1 {
		d.fir = []float64{1}
	} else {
		taps := 8*factor + 1
		d.fir = LowPass(taps/2, cutoff*0.5/float64(factor))
		d.Delay = taps / 2
	}
	d.tail = make([]float64, len(d.fir)-1)
	return d
}

// LowPass is a windowed-sinc low-pass filter of 2*half+1 taps (a Hamming
// window) cut at fc cycles per sample, scaled to unit gain at DC.
func LowPass(half int, fc float64) []float64 {
	taps := 2*half + 1
	h := make([]float64, taps)
	var sum float64
	for i := range h {
		m := float64(i - half)
		s := 2 * fc
		if m != 0 {
			s = math.Sin(2*math.Pi*fc*m) / (math.Pi * m)
		}
		w := 0.54 - 0.46*math.Cos(2*math.Pi*float64(i)/float64(taps-1))
		h[i] = s * w
		sum += h[i]
	}
	for i := range h {
		h[i] /= sum
	}
	return h
}

// Process filters in and appends the kept samples to out, which it returns.
func (d *Decimator) Process(in, out []float64) []float64 {
	if d.Factor == 1 {
		return append(out, in...)
	}
	if len(in) == 0 {
		return out
	}
	taps := len(d.fir)
	// the block behind the samples before it, so that the len(fir) inputs
	// ending at any sample of the block are contiguous
	d.work = append(append(d.work[:0], d.tail...), in...)
	for j := d.Factor - d.phase - 1; j < len(in); j += d.Factor {
		var y float64
		for i, w := range d.work[j : j+taps] { // oldest first
			y += d.fir[i] * w
		}
		out = append(out, y)
	}
	d.phase = (d.phase + len(in)) % d.Factor
	copy(d.tail, d.work[len(d.work)-(taps-1):])
	return out
}
