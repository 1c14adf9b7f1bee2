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
	ring   []float64 // recent input stored twice so the last len(fir) are contiguous
	at     int
	phase  int
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
	d.ring = make([]float64, 2*len(d.fir))
	return d
}

// Process filters in and appends the kept samples to out, which it returns.
func (d *Decimator) Process(in, out []float64) []float64 {
	if d.Factor == 1 {
		return append(out, in...)
	}
	taps := len(d.fir)
	for _, v := range in {
		d.ring[d.at] = v
		d.ring[d.at+taps] = v
		d.at++
		if d.at == taps {
			d.at = 0
		}
		d.phase++
		if d.phase < d.Factor {
			continue
		}
		d.phase = 0
		var y float64
		for i, w := range d.ring[d.at : d.at+taps] { // oldest first
			y += d.fir[i] * w
		}
		out = append(out, y)
	}
	return out
}
