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
		fc := cutoff * 0.5 / float64(factor) // cycles per input sample
		d.fir = make([]float64, taps)
		var sum float64
		for i := range d.fir {
			m := float64(i - taps/2)
			s := 2 * fc
			if m != 0 {
				s = math.Sin(2*math.Pi*fc*m) / (math.Pi * m)
			}
			w := 0.54 - 0.46*math.Cos(2*math.Pi*float64(i)/float64(taps-1))
			d.fir[i] = s * w
			sum += d.fir[i]
		}
		for i := range d.fir {
			d.fir[i] /= sum
		}
		d.Delay = taps / 2
	}
	d.tail = make([]float64, len(d.fir)-1)
	return d
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
