package rfft

import (
	"math"
	"math/cmplx"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/argusdusty/gofft"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/dsp/fourier"
)

// sizes are the lengths the analysers use, both kinds (powers of two, and
// the 5-smooth lengths of other rates), and the small ones at the edge.
var sizes = []int{1, 2, 4, 6, 8, 16, 64, 96, 192, 256, 288, 384, 512, 1024, 2048, 4096}

func random(rng *rand.Rand, n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	return x
}

// near reports whether a and b agree to 1e-9 of scale.
func near(a, b complex128, scale float64) bool { return cmplx.Abs(a-b) <= 1e-9*scale }

func TestCoefficientsMatchGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range sizes {
		x := random(rng, n)
		want := fourier.NewFFT(n).Coefficients(nil, x)
		got := New(n).Coefficients(nil, x)
		for k := range want {
			if !near(got[k], want[k], float64(n)) {
				t.Fatalf("n=%d: coefficient %d is %v, gonum says %v", n, k, got[k], want[k])
			}
		}
	}
}

func TestSequenceMatchesGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range sizes {
		c := make([]complex128, n/2+1)
		for k := range c {
			c[k] = complex(rng.NormFloat64(), rng.NormFloat64())
		}
		want := fourier.NewFFT(n).Sequence(nil, c)
		got := New(n).Sequence(nil, c)
		for i := range want {
			if math.Abs(got[i]-want[i]) > 1e-9*float64(n) {
				t.Fatalf("n=%d: sample %d is %g, gonum says %g", n, i, got[i], want[i])
			}
		}
	}
}

func TestRoundTripScalesByN(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range sizes {
		f := New(n)
		x := random(rng, n)
		y := f.Sequence(nil, f.Coefficients(nil, x))
		for i := range x {
			if math.Abs(y[i]-float64(n)*x[i]) > 1e-9*float64(n) {
				t.Fatalf("n=%d: sample %d came back %g, want %g", n, i, y[i], float64(n)*x[i])
			}
		}
	}
}

// TestReuse checks that one FFT, used again and again with its own output
// slices, gives each call's answer and not a mix with the last.
func TestReuse(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	f, g := New(256), fourier.NewFFT(256)
	dst := make([]complex128, 129)
	for range 5 {
		x := random(rng, 256)
		f.Coefficients(dst, x)
		want := g.Coefficients(nil, x)
		for k := range want {
			if !near(dst[k], want[k], 256) {
				t.Fatalf("coefficient %d is %v, gonum says %v", k, dst[k], want[k])
			}
		}
	}
}

func TestLengthMismatchPanics(t *testing.T) {
	f := New(64)
	for name, call := range map[string]func(){
		"short sequence":     func() { f.Coefficients(nil, make([]float64, 63)) },
		"short coefficients": func() { f.Coefficients(make([]complex128, 32), make([]float64, 64)) },
		"short inverse in":   func() { f.Sequence(nil, make([]complex128, 32)) },
		"short inverse out":  func() { f.Sequence(make([]float64, 63), make([]complex128, 33)) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			call()
		}()
	}
}

func BenchmarkCoefficients(b *testing.B) {
	for _, n := range []int{256, 1024, 4096} {
		x := random(rand.New(rand.NewPCG(1, 1)), n)
		dst := make([]complex128, n/2+1)
		b.Run("rfft/"+strconv.Itoa(n), func(b *testing.B) {
			f := New(n)
			for b.Loop() {
				f.Coefficients(dst, x)
			}
		})
		b.Run("gonum/"+strconv.Itoa(n), func(b *testing.B) {
			f := fourier.NewFFT(n)
			for b.Loop() {
				f.Coefficients(dst, x)
			}
		})
	}
}

// The planned complex FFT gives github.com/argusdusty/gofft's results bit
// for bit, forward and inverse, at every power of two up to 8192: the
// hearing's events were measured with gofft, and a refactor for speed must
// not move them by a rounding.
func TestPlannedFFTIsGofftBitForBit(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for n := 1; n <= 8192; n *= 2 {
		p := newCPlan(n)
		for trial := range 3 {
			x := make([]complex128, n)
			for i := range x {
				x[i] = complex(rng.NormFloat64(), rng.NormFloat64())
				if trial == 2 && i%3 == 0 {
					x[i] = complex(0, real(x[i])) // exact zeros among them
				}
			}
			for _, inverse := range []bool{false, true} {
				want := append([]complex128(nil), x...)
				got := append([]complex128(nil), x...)
				if inverse {
					require.NoError(t, gofft.IFFT(want))
					p.inverse(got)
				} else {
					require.NoError(t, gofft.FFT(want))
					p.forward(got)
				}
				for i := range want {
					if math.Float64bits(real(got[i])) != math.Float64bits(real(want[i])) ||
						math.Float64bits(imag(got[i])) != math.Float64bits(imag(want[i])) {
						t.Fatalf("n=%d inverse=%v: element %d is %v, gofft's %v", n, inverse, i, got[i], want[i])
					}
				}
			}
		}
	}
}
