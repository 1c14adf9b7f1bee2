package onset

import "sort"

// Picker marks peaks of an onset detection function, one value per frame. A
// frame is a peak when it is a local maximum (checked one frame later, so the
// picker adds one hop of delay), exceeds Threshold, and exceeds the running
// median of the previous Window frames by Ratio times. After a peak, no other
// peak is accepted for Refractory frames.
type Picker struct {
	Threshold  float64
	Ratio      float64
	Window     int
	Refractory int

	hist  []float64 // previous values, oldest first, at most Window
	sort  []float64
	prev  float64 // value of the frame before the candidate
	cand  float64 // value of the candidate frame (the last one seen)
	n     int64
	quiet int64 // frames left in the refractory period
}

// Next consumes the value of frame n (frames are numbered from 0 in the order
// given) and reports whether frame n-1 was a peak, with its value.
func (p *Picker) Next(v float64) (peak bool, value float64) {
	defer func() {
		if p.n >= 2 { // prev is a real frame from the third call on
			p.push(p.prev)
		}
		p.prev, p.cand = p.cand, v
		p.n++
	}()
	if p.quiet > 0 {
		p.quiet--
		return false, 0
	}
	c := p.cand
	if p.n < 2 || c < p.Threshold || c <= p.prev || c < v { // the first frame of a flat top
		return false, 0
	}
	if p.Ratio > 0 && c <= p.Ratio*p.median() {
		return false, 0
	}
	p.quiet = int64(p.Refractory)
	return true, c
}

func (p *Picker) push(v float64) {
	if p.Window <= 0 {
		return
	}
	if len(p.hist) == p.Window {
		copy(p.hist, p.hist[1:])
		p.hist = p.hist[:len(p.hist)-1]
	}
	p.hist = append(p.hist, v)
}

func (p *Picker) median() float64 {
	if len(p.hist) == 0 {
		return 0
	}
	p.sort = append(p.sort[:0], p.hist...)
	sort.Float64s(p.sort)
	return p.sort[len(p.sort)/2]
}
