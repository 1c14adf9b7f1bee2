// Package voice tells when people are talking. A voice is a periodic sound
// with a pitch between about 70 and 500 Hz, sustained for longer than any
// knock or clap rings; the detector measures that periodicity every 20 ms on
// a 40 ms window of the signal decimated to about 8 kHz (where voices keep
// their pitch and hiss no longer matters).
package voice

import (
	"math"

	"github.com/tableref/tableref/audio/internal/decimate"
	"github.com/tableref/tableref/audio/internal/level"
	"github.com/tableref/tableref/audio/internal/rfft"
)

// Analysis parameters.
const (
	analysisRate = 8000  // Hz, approximately: the input is decimated by an integer
	FrameSeconds = 0.040 // analysis window
	HopSeconds   = 0.020 // one Frame every hop
	MinPitchHz   = 70
	MaxPitchHz   = 500
)

// Frame is the analysis of one hop.
type Frame struct {
	End         int64   // input sample just after the window
	Level       float64 // dBFS of the window
	Periodicity float64 // 0 (noise) .. 1 (perfectly periodic) at a voice pitch
	PitchHz     float64 // the pitch found, when periodic
	Low         float64 // share of the window's power at 80-1000 Hz, where voices carry their pitch
	Mid         float64 // share at 1-3.5 kHz, where a voice's formants are and a drum's ring is not
}

// Analyzer turns a stream of samples at some rate into Frames.
type Analyzer struct {
	rate   int
	factor int // decimation
	dec    *decimate.Decimator
	out    []float64 // decimated samples of the current Push
	nout   int64     // decimated samples taken so far

	win     []float64 // decimated window, oldest first
	filled  int
	hop     int
	pending []float64 // decimated samples not yet shifted into win
	taper   []float64
	corr    []float64 // the taper's own normalised autocorrelation by lag
	fft     *rfft.FFT
	buf     []float64
	coef    []complex128
	acf     []float64
	minLag  int
	maxLag  int

	// Loud and Gate, when set, are asked before a frame is analysed
	// further: Loud with its level alone (a refused frame gets no spectrum
	// at all), Gate with its level and band shares (a refused frame gets no
	// periodicity). Frames that could not be a voice thus cost little.
	Loud func(level float64) bool
	Gate func(f Frame) bool
}

// NewAnalyzer makes an Analyzer for input at rate Hz.
func NewAnalyzer(rate int) *Analyzer {
	factor := max(1, rate/analysisRate)
	ar := float64(rate) / float64(factor)
	n := int(math.Round(FrameSeconds * ar))
	maxLag := int(ar / MinPitchHz)
	// The circular autocorrelation of the zero-padded window is exact up to
	// lag size-n, which must cover the longest pitch period.
	size := 1
	for size < n+maxLag+1 {
		size *= 2
	}
	a := &Analyzer{
		rate:   rate,
		factor: factor,
		dec:    decimate.New(factor, 0.8),
		win:    make([]float64, n),
		hop:    int(math.Round(HopSeconds * ar)),
		taper:  make([]float64, n),
		fft:    rfft.New(size),
		buf:    make([]float64, size),
		coef:   make([]complex128, size/2+1),
		acf:    make([]float64, size),
		minLag: int(ar / MaxPitchHz),
		maxLag: maxLag,
	}
	for i := range a.taper {
		a.taper[i] = 0.5 - 0.5*math.Cos(2*math.Pi*(float64(i)+0.5)/float64(n))
	}
	a.corr = make([]float64, maxLag+1)
	for lag := range a.corr {
		a.corr[lag] = taperCorr(lag, n)
	}
	return a
}

// Push consumes samples and calls fn for every completed Frame.
func (a *Analyzer) Push(x []float64, fn func(Frame)) {
	a.out = a.dec.Process(x, a.out[:0])
	for _, y := range a.out {
		a.nout++
		a.take(y, fn)
	}
}

func (a *Analyzer) take(y float64, fn func(Frame)) {
	n := len(a.win)
	if a.filled < n {
		a.win[a.filled] = y
		a.filled++
		if a.filled == n {
			fn(a.frame())
		}
		return
	}
	a.pending = append(a.pending, y)
	if len(a.pending) == a.hop {
		copy(a.win, a.win[a.hop:])
		copy(a.win[n-a.hop:], a.pending)
		a.pending = a.pending[:0]
		fn(a.frame())
	}
}

// frame measures the current window.
func (a *Analyzer) frame() Frame {
	// The decimated sample just taken stands for the input sample
	// nout*factor, delayed by the filter.
	end := max(0, a.nout*int64(a.factor)-int64(a.dec.Delay))
	f := Frame{End: end, Level: level.DB(level.MeanSquare(a.win))}
	if a.Loud != nil && !a.Loud(f.Level) {
		return f
	}
	clear(a.buf)
	for i, v := range a.win {
		a.buf[i] = v * a.taper[i]
	}
	a.fft.Coefficients(a.coef, a.buf)
	ar := float64(a.rate) / float64(a.factor)
	bin := ar / float64(len(a.buf))
	var tot, low, mid float64
	for k, c := range a.coef {
		p := real(c)*real(c) + imag(c)*imag(c)
		tot += p
		switch fr := float64(k) * bin; {
		case fr >= 80 && fr <= 1000:
			low += p
		case fr > 1000 && fr <= 3500:
			mid += p
		}
	}
	if tot > 0 {
		f.Low, f.Mid = low/tot, mid/tot
	}
	if a.Gate != nil && !a.Gate(f) {
		return f
	}
	// A generalised autocorrelation (Tolonen and Karjalainen): the
	// spectrum's magnitude is raised to the power 2/3 rather than squared,
	// which flattens the low-frequency tilt of noise and formants so only a
	// real pitch stands out. |X|^(2/3) is the cube root of |X|^2.
	for k, c := range a.coef {
		a.coef[k] = complex(math.Cbrt(real(c)*real(c)+imag(c)*imag(c)), 0)
	}
	a.fft.Sequence(a.acf, a.coef)
	if a.acf[0] <= 0 {
		return f
	}
	// The windowed autocorrelation of a periodic signal falls with lag as
	// the window's own autocorrelation does; divide that out.
	n := len(a.win)
	best, at := 0.0, 0
	for lag := a.minLag; lag <= a.maxLag && lag < n/2; lag++ {
		r := a.acf[lag] / a.acf[0] / a.corr[lag]
		if r > best {
			best, at = r, lag
		}
	}
	f.Periodicity = math.Min(best, 1)
	if at > 0 {
		f.PitchHz = float64(a.rate) / float64(a.factor) / float64(at)
	}
	return f
}

// taperCorr is the normalised autocorrelation at lag of a Hann window of n
// samples (computed in closed form).
func taperCorr(lag, n int) float64 {
	t := float64(lag) / float64(n)
	x := 2 * math.Pi * t
	// (1/N) sum w(i)w(i+lag) / (1/N) sum w(i)^2 for a Hann window, continuous form.
	v := ((1-t)*(2+math.Cos(x)) + 3*math.Sin(x)/(2*math.Pi)) / 3
	return math.Max(v, 1e-3)
}
