// Package rfft is the real-input FFT the analysers share. It has gonum's
// interface (fourier.FFT's Coefficients and Sequence, with the same scaling)
// and gonum's results, but for lengths that are powers of two, which are
// most of the analysers' lengths, it runs a complex FFT of half the length
// (cplan: github.com/argusdusty/gofft's results, planned) on the samples
// taken in pairs and untangles the two halves: about twice as fast as
// gonum's FFTPACK port at the lengths used here (64 to 4096). Other lengths
// go to gonum.
package rfft

import (
	"math"

	"gonum.org/v1/gonum/dsp/fourier"
)

// FFT transforms real sequences of one length. It holds scratch space, so
// one FFT must not be used by two goroutines at once.
type FFT struct {
	n       int
	slow    *fourier.FFT // lengths that are not a power of two
	z       []complex128 // the half-length complex sequence
	half    *cplan       // its FFT
	twiddle []complex128 // exp(-2πik/n), k < n/2
}

// New makes an FFT for sequences of n samples (n ≥ 1).
func New(n int) *FFT {
	f := &FFT{n: n}
	if n < 8 || n&(n-1) != 0 {
		f.slow = fourier.NewFFT(n)
		return f
	}
	h := n / 2
	f.z = make([]complex128, h)
	f.half = newCPlan(h)
	f.twiddle = make([]complex128, h)
	for k := range f.twiddle {
		s, c := math.Sincos(-2 * math.Pi * float64(k) / float64(n))
		f.twiddle[k] = complex(c, s)
	}
	return f
}

// ready checks a transform's input length (in, of want) and its output
// (dst, of outLen, or nil to be made). A mismatch is a programming error,
// never input-driven: it panics, as gonum's does.
func ready[T any](dst []T, in, want, outLen int) []T {
	if in != want {
		panic("rfft: input length mismatch")
	}
	if dst == nil {
		return make([]T, outLen)
	}
	if len(dst) != outLen {
		panic("rfft: output length mismatch")
	}
	return dst
}

// Len is the sequence length.
func (f *FFT) Len() int { return f.n }

// Coefficients puts the n/2+1 Fourier coefficients of the n real samples of
// seq into dst (allocated when nil) and returns it, as gonum's does.
func (f *FFT) Coefficients(dst []complex128, seq []float64) []complex128 {
	dst = ready(dst, len(seq), f.n, f.n/2+1)
	if f.slow != nil {
		return f.slow.Coefficients(dst, seq)
	}
	h := f.n / 2
	z := f.z
	for m := range z {
		z[m] = complex(seq[2*m], seq[2*m+1])
	}
	f.half.forward(z)
	// z holds E + iO, the spectra of the even and the odd samples, each
	// of length h: E[k] = (Z[k] + Z*[h-k])/2, O[k] = (Z[k] - Z*[h-k])/2i.
	z0 := z[0]
	dst[0] = complex(real(z0)+imag(z0), 0)
	dst[h] = complex(real(z0)-imag(z0), 0)
	for k := 1; k < h; k++ {
		a, b := z[k], z[h-k]
		er, ei := (real(a)+real(b))/2, (imag(a)-imag(b))/2
		or, oi := (imag(a)+imag(b))/2, (real(b)-real(a))/2
		t := f.twiddle[k]
		tr, ti := real(t), imag(t)
		dst[k] = complex(er+tr*or-ti*oi, ei+tr*oi+ti*or)
	}
	return dst
}

// Sequence puts the n real samples whose coefficients are coeff (n/2+1 of
// them) into dst (allocated when nil) and returns it. Like gonum's, it does
// not divide by n: Sequence(Coefficients(x)) is n·x. The imaginary parts of
// coeff[0] and coeff[n/2] are ignored.
func (f *FFT) Sequence(dst []float64, coeff []complex128) []float64 {
	dst = ready(dst, len(coeff), f.n/2+1, f.n)
	if f.slow != nil {
		return f.slow.Sequence(dst, coeff)
	}
	h := f.n / 2
	z := f.z
	// Tangle the spectrum back into E + iO for the half-length inverse:
	// E[k] = (X[k] + X*[h-k])/2, O[k] = (X[k] - X*[h-k])·exp(2πik/n)/2.
	for k := range h {
		a, b := coeff[k], coeff[h-k]
		if k == 0 {
			a, b = complex(real(a), 0), complex(real(b), 0)
		}
		er, ei := (real(a)+real(b))/2, (imag(a)-imag(b))/2
		dr, di := (real(a)-real(b))/2, (imag(a)+imag(b))/2
		t := f.twiddle[k] // conjugated below
		tr, ti := real(t), -imag(t)
		or, oi := dr*tr-di*ti, dr*ti+di*tr
		z[k] = complex(er-oi, ei+or)
	}
	f.half.inverse(z) // divides by h; gonum's inverse does not divide
	for m, v := range z {
		dst[2*m] = 2 * float64(h) * real(v)
		dst[2*m+1] = 2 * float64(h) * imag(v)
	}
	return dst
}
