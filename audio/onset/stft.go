// Package onset finds the moments a sound starts, as a stream: an STFT cuts
// the samples into overlapping windowed frames, a spectral descriptor turns
// each frame into one number (how much the spectrum just rose), and a peak
// picker with an adaptive threshold marks the peaks. Each piece is a small
// object with explicit state, fed one hop at a time, like aubio's.
package onset

import (
	"math"

	"github.com/tableref/tableref/audio/internal/rfft"
)

// STFT turns a stream of samples into power spectra of Hann-windowed frames of
// N samples taken every Hop samples. The zero value is not usable; call
// NewSTFT.
type STFT struct {
	N, Hop int

	win    []float64
	ring   []float64 // the last N samples, oldest first once full
	filled int       // samples in ring (< N only at the start)
	since  int       // samples pushed since the last frame
	frame  []float64
	fft    *rfft.FFT
	coeffs []complex128
	power  []float64
	frames int64
}

// NewSTFT makes a framer for frames of n samples every hop samples. n must be
// even; hop must be in 1..n.
func NewSTFT(n, hop int) *STFT {
	if n < 2 || n%2 != 0 || hop < 1 || hop > n {
		panic("onset: bad STFT size") // programming error, never input-driven
	}
	s := &STFT{
		N: n, Hop: hop,
		win:    make([]float64, n),
		ring:   make([]float64, n),
		frame:  make([]float64, n),
		fft:    rfft.New(n),
		coeffs: make([]complex128, n/2+1),
		power:  make([]float64, n/2+1),
	}
	for i := range s.win {
		s.win[i] = 0.5 - 0.5*math.Cos(2*math.Pi*float64(i)/float64(n))
	}
	return s
}

// FrameSeconds is the analysis frame length; the hop is a quarter of it.
const FrameSeconds = 0.0116

// FrameSizes picks the analysis frame and hop for a sample rate: the frame
// length nearest FrameSeconds that is a multiple of 4 with no prime factor
// above 5 (so gonum's FFT stays fast), and a hop of a quarter frame. The same durations at
// every rate keep the detector's behaviour independent of it.
func FrameSizes(rate int) (n, hop int) {
	target := float64(rate) * FrameSeconds / 4
	best := 1
	for m := 1; m <= 2*int(target)+2; m++ {
		if smooth(m) && math.Abs(float64(m)-target) < math.Abs(float64(best)-target) {
			best = m
		}
	}
	return 4 * best, best
}

// smooth reports whether m has no prime factor above 5.
func smooth(m int) bool {
	for _, p := range []int{2, 3, 5} {
		for m%p == 0 {
			m /= p
		}
	}
	return m == 1
}

// Push feeds samples and calls fn with the power spectrum (N/2+1 bins) of each
// frame completed. Frame i covers samples [i*Hop, i*Hop+N) of the stream; the
// first frame is emitted once N samples have arrived. The slice passed to fn
// is reused.
func (s *STFT) Push(x []float64, fn func(frame int64, power []float64)) {
	for len(x) > 0 {
		// copy as much as fits before the next frame is due
		need := s.Hop - s.since
		if s.filled < s.N {
			need = s.N - s.filled
		}
		k := min(need, len(x))
		s.append(x[:k])
		x = x[k:]
		if s.filled < s.N {
			continue
		}
		if s.since >= s.Hop {
			s.since = 0
			s.compute()
			fn(s.frames, s.power)
			s.frames++
		}
	}
}

// append shifts the ring left and appends x (len(x) <= N).
func (s *STFT) append(x []float64) {
	k := len(x)
	if s.filled < s.N {
		copy(s.ring[s.filled:], x)
		s.filled += k
		if s.filled == s.N {
			s.since = s.Hop // the first frame is due as soon as the ring is full
		}
		return
	}
	copy(s.ring, s.ring[k:])
	copy(s.ring[s.N-k:], x)
	s.since += k
}

func (s *STFT) compute() {
	for i, v := range s.ring {
		s.frame[i] = v * s.win[i]
	}
	s.fft.Coefficients(s.coeffs, s.frame)
	for i, c := range s.coeffs {
		re, im := real(c), imag(c)
		s.power[i] = re*re + im*im
	}
}
