package rfft

import "math/cmplx"

// cplan is an in-place complex FFT of one power-of-two length, planned
// once: the bit-reversal swaps and every stage's twiddle factors are worked
// out when it is made rather than on every transform.
//
// Its results are those of github.com/argusdusty/gofft, bit for bit, which
// this package ran before (the hearing's events were measured with it and
// must not move): the same radix-2 decimation in time, whose first two
// stages are done four points at a time, and whose later stages' twiddle
// factors are the same numbers, got the same way. gofft makes each stage's
// factor w by a complex square root of the last stage's (from -i) and steps
// through the powers of w by multiplying, again for every block of every
// transform; here the powers are made by that same recurrence once and
// looked up. Every butterfly then computes what gofft's does, in the same
// order, so every rounding is the same (TestPlannedFFTIsGofftBitForBit).
type cplan struct {
	n     int
	swaps []int32      // pairs (i, j), i < j, of the bit-reversal permutation
	tw    []complex128 // stage s (half-span 4<<s) at tw[4<<s-4:]: w^0 ... w^(half-1)
}

func newCPlan(n int) *cplan {
	p := &cplan{n: n}
	if n <= 4 {
		return p
	}
	bits := 0
	for 1<<bits < n {
		bits++
	}
	for i := range n {
		j := 0
		for b := range bits {
			j |= (i >> b & 1) << (bits - 1 - b)
		}
		if i < j {
			p.swaps = append(p.swaps, int32(i), int32(j))
		}
	}
	w := complex(0, -1)
	for half := 4; half < n; half <<= 1 {
		w = cmplx.Sqrt(w)
		wj := complex(1, 0)
		for range half {
			p.tw = append(p.tw, wj)
			wj *= w
		}
	}
	return p
}

// forward transforms x (of the plan's length) in place, unscaled.
func (p *cplan) forward(x []complex128) {
	n := p.n
	x = x[:n]
	switch n {
	case 1:
		return
	case 2:
		x[0], x[1] = x[0]+x[1], x[0]-x[1]
		return
	case 4:
		f := complex(imag(x[1])-imag(x[3]), real(x[3])-real(x[1]))
		x[0], x[1], x[2], x[3] = x[0]+x[1]+x[2]+x[3], x[0]-x[2]+f, x[0]-x[1]+x[2]-x[3], x[0]-x[2]-f
		return
	}
	for k := 0; k+1 < len(p.swaps); k += 2 {
		i, j := p.swaps[k], p.swaps[k+1]
		x[i], x[j] = x[j], x[i]
	}
	// the first two stages, four points at a time
	for i := 0; i+3 < n; i += 4 {
		q := x[i : i+4 : i+4]
		f := complex(imag(q[2])-imag(q[3]), real(q[3])-real(q[2]))
		q[0], q[1], q[2], q[3] = q[0]+q[1]+q[2]+q[3], q[0]-q[1]+f, q[0]-q[2]+q[1]-q[3], q[0]-q[1]-f
	}
	// the later stages: spans of 2·half, the powers of the stage's w
	for half := 4; half < n; half <<= 1 {
		tw := p.tw[half-4 : 2*half-4 : 2*half-4]
		for o := 0; o < n; o += 2 * half {
			a := x[o : o+half : o+half]
			b := x[o+half : o+2*half : o+2*half]
			for k, t := range tw {
				f := t * b[k]
				a[k], b[k] = a[k]+f, a[k]-f
			}
		}
	}
}

// inverse transforms x in place and divides it by its length, as gofft's
// IFFT does: the input reversed (all but its first), transformed forward,
// and multiplied by the complex 1/n.
func (p *cplan) inverse(x []complex128) {
	n := p.n
	x = x[:n]
	for i := 1; i < n/2; i++ {
		j := n - i
		x[i], x[j] = x[j], x[i]
	}
	p.forward(x)
	invN := complex(1.0/float64(n), 0)
	for i := range x {
		x[i] *= invN
	}
}
