package main

import (
	"fmt"
	"math"
	"math/bits"
	"math/cmplx"
	"math/rand/v2"
	"sort"
	"sync"

	"gonum.org/v1/gonum/dsp/fourier"
)

// ---- levels ----

func dbToAmp(db float64) float64 { return math.Pow(10, db/20) }

func powerDB(p float64) float64 {
	if p <= 0 {
		return math.Inf(-1)
	}
	return 10 * math.Log10(p)
}

// meanPower is the mean of x².
func meanPower(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	s := 0.0
	for _, v := range x {
		s += v * v
	}
	return s / float64(len(x))
}

// gesturePower is the mean power of the gesture windows: the 50 ms after
// each labelled onset (a window counts once per onset, overlaps included).
// A file without onsets falls back on its whole mean power.
func gesturePower(x []float64, rate int, onsets []Onset) float64 {
	win := int(math.Round(0.05 * float64(rate)))
	s, n := 0.0, 0
	for _, o := range onsets {
		a := int(math.Round(o.T * float64(rate)))
		for i := max(a, 0); i < min(a+win, len(x)); i++ {
			s += x[i] * x[i]
			n++
		}
	}
	if n == 0 {
		return meanPower(x)
	}
	return s / float64(n)
}

func clip1(x []float64) {
	for i, v := range x {
		if v > 1 {
			x[i] = 1
		} else if v < -1 {
			x[i] = -1
		}
	}
}

func peak(x []float64) float64 {
	p := 0.0
	for _, v := range x {
		p = max(p, math.Abs(v))
	}
	return p
}

// ---- noise gate ----

// GateParams describes a noise gate.
type GateParams struct {
	Hold, Release float64 // seconds
	ClosedDB      float64 // gain when closed; -Inf for exact zeros
	OverDB        float64 // threshold above the file's 20th-percentile 10 ms level
	Delay, Attack float64 // the gate opens Delay seconds after the level crosses, over Attack seconds
}

func fastGate(closedDB float64) GateParams {
	return GateParams{Hold: 0.05, Release: 0.005, ClosedDB: closedDB, OverDB: 12, Delay: 0.001, Attack: 0.0015}
}

func slowGate(closedDB float64) GateParams {
	return GateParams{Hold: 0.3, Release: 0.1, ClosedDB: closedDB, OverDB: 12, Delay: 0.001, Attack: 0.0015}
}

// gateThresholdDB is the 20th percentile of the file's 10 ms block levels
// (dB of mean power over the channels) plus over dB. Blocks of digital
// silence are left out: they are not the room's noise floor.
func gateThresholdDB(chans [][]float64, rate int, over float64) float64 {
	blk := max(1, rate/100)
	n := len(chans[0])
	var lv []float64
	for s := 0; s+blk <= n; s += blk {
		p := 0.0
		for _, c := range chans {
			for _, v := range c[s : s+blk] {
				p += v * v
			}
		}
		if p > 0 {
			lv = append(lv, powerDB(p/float64(blk*len(chans))))
		}
	}
	if len(lv) == 0 {
		return math.Inf(1)
	}
	sort.Float64s(lv)
	return lv[int(0.2*float64(len(lv)-1))] + over
}

// gate applies a noise gate to every channel alike (the channels share one
// envelope, as a stereo gate's link does). The level is the RMS over the
// last 5 ms; the gate starts opening Delay after it crosses the threshold,
// opens over Attack, stays open for Hold after the level last was above,
// then closes over Release. Closed with ClosedDB = -Inf means exact zeros.
func gate(chans [][]float64, rate int, p GateParams) [][]float64 {
	n := len(chans[0])
	thr := gateThresholdDB(chans, rate, p.OverDB)
	thrPow := math.Pow(10, thr/10) * float64(len(chans)) // compared with the sum of squares over channels
	win := max(1, int(math.Round(0.005*float64(rate))))
	delay := int(math.Round(p.Delay * float64(rate)))
	hold := int(math.Round(p.Hold * float64(rate)))
	floor := 0.0
	if !math.IsInf(p.ClosedDB, -1) {
		floor = dbToAmp(p.ClosedDB)
	}
	attackStep := (1 - floor) / max(1, p.Attack*float64(rate))
	releaseStep := (1 - floor) / max(1, p.Release*float64(rate))

	out := make([][]float64, len(chans))
	for c := range out {
		out[c] = make([]float64, n)
	}
	const (
		closed = iota
		opening
		open
		closing
	)
	mode := closed
	g := floor
	openAt := -1
	holdEnd := -1
	sum := 0.0 // sum of squares over the window, all channels
	for i := 0; i < n; i++ {
		for _, c := range chans {
			sum += c[i] * c[i]
			if i >= win {
				sum -= c[i-win] * c[i-win]
			}
		}
		if sum < 0 {
			sum = 0
		}
		above := sum/float64(min(i+1, win)) > thrPow
		if above {
			holdEnd = i + hold
			if (mode == closed || mode == closing) && openAt < 0 {
				openAt = i + delay
			}
		}
		if openAt >= 0 && i >= openAt {
			mode = opening
			openAt = -1
		}
		switch mode {
		case opening:
			g += attackStep
			if g >= 1 {
				g, mode = 1, open
			}
		case open:
			if i >= holdEnd {
				mode = closing
			}
		case closing:
			g -= releaseStep
			if g <= floor {
				g, mode = floor, closed
			}
		}
		if g == 0 {
			continue // exact zeros (out is zeroed)
		}
		for c := range chans {
			out[c][i] = chans[c][i] * g
		}
	}
	return out
}

// ---- resampling ----

// polyphase is a rational resampler by L/M with a Kaiser-windowed sinc
// low-pass at 0.45 × the lower of the two rates, zero delay.
type polyphase struct {
	L, M int
	half int         // the filter spans half input samples each side
	taps [][]float64 // taps[phase][k], to multiply x[j-2·half+k]
}

const (
	resampleAttenDB  = 90.0 // stop-band attenuation
	resampleTransit  = 0.08 // transition band, as a fraction of the lower rate (0.41 to 0.49)
	resampleCutoff   = 0.45 // −6 dB point, as a fraction of the lower rate
	maxPolyphaseSize = 4096 // L beyond this means a pathological rate pair
)

var (
	polyMu    sync.Mutex
	polyCache = map[[2]int]*polyphase{}
)

// resampler returns the (shared, read-only) resampler from fin to fout Hz.
func resampler(fin, fout int) (*polyphase, error) {
	polyMu.Lock()
	defer polyMu.Unlock()
	if p, ok := polyCache[[2]int{fin, fout}]; ok {
		return p, nil
	}
	p, err := newPolyphase(fin, fout)
	if err != nil {
		return nil, err
	}
	polyCache[[2]int{fin, fout}] = p
	return p, nil
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// besselI0 is the modified Bessel function of the first kind, order 0.
func besselI0(x float64) float64 {
	sum, term := 1.0, 1.0
	for k := 1; k < 200; k++ {
		term *= (x / (2 * float64(k))) * (x / (2 * float64(k)))
		sum += term
		if term < sum*1e-17 {
			break
		}
	}
	return sum
}

func newPolyphase(fin, fout int) (*polyphase, error) {
	if fin <= 0 || fout <= 0 {
		return nil, fmt.Errorf("bad rates %d → %d", fin, fout)
	}
	g := gcd(fin, fout)
	L, M := fout/g, fin/g
	if L > maxPolyphaseSize || M > maxPolyphaseSize*64 {
		return nil, fmt.Errorf("cannot resample %d → %d Hz (ratio %d/%d too fine)", fin, fout, L, M)
	}
	low := float64(min(fin, fout))
	fu := float64(L) * float64(fin) // the upsampled rate
	// Kaiser's formulas: length for the attenuation and transition width.
	dw := 2 * math.Pi * resampleTransit * low / fu
	length := (resampleAttenDB - 8) / (2.285 * dw)
	half := int(math.Ceil(length / 2 / float64(L)))
	beta := 0.1102 * (resampleAttenDB - 8.7)
	K := 2*half + 1
	c := half * L // centre, in upsampled samples
	fc := resampleCutoff * low / fu
	h := make([]float64, K*L)
	sum := 0.0
	i0b := besselI0(beta)
	for n := range h {
		d := float64(n - c)
		r := d / float64(half*L)
		if r < -1 || r > 1 {
			continue
		}
		s := 2 * fc
		if d != 0 {
			s = math.Sin(2*math.Pi*fc*d) / (math.Pi * d)
		}
		h[n] = s * besselI0(beta*math.Sqrt(1-r*r)) / i0b
		sum += h[n]
	}
	p := &polyphase{L: L, M: M, half: half, taps: make([][]float64, L)}
	for ph := 0; ph < L; ph++ {
		t := make([]float64, K)
		for i := 0; i < K; i++ {
			// y[m] = Σ_i h[ph+i·L]·x[j-i]; stored reversed to run forward over x.
			t[K-1-i] = h[ph+i*L] * float64(L) / sum
		}
		p.taps[ph] = t
	}
	return p, nil
}

// apply resamples x; the output has ceil(len(x)·L/M) samples and the same
// timing (the filter is centred).
func (p *polyphase) apply(x []float64) []float64 {
	if p.L == 1 && p.M == 1 {
		return append([]float64(nil), x...)
	}
	n := len(x)
	nout := int((int64(n)*int64(p.L) + int64(p.M) - 1) / int64(p.M))
	y := make([]float64, nout)
	K := 2*p.half + 1
	c := int64(p.half) * int64(p.L)
	for m := range y {
		pos := int64(m)*int64(p.M) + c
		j := int(pos / int64(p.L))
		t := p.taps[pos%int64(p.L)]
		lo := j - (K - 1)
		s := 0.0
		if lo >= 0 && j < n {
			xs := x[lo : lo+K]
			for k, v := range t {
				s += v * xs[k]
			}
		} else {
			for k, v := range t {
				if idx := lo + k; idx >= 0 && idx < n {
					s += v * x[idx]
				}
			}
		}
		y[m] = s
	}
	return y
}

// resample converts x from fin to fout Hz.
func resample(x []float64, fin, fout int) ([]float64, error) {
	if fin == fout {
		return append([]float64(nil), x...), nil
	}
	p, err := resampler(fin, fout)
	if err != nil {
		return nil, err
	}
	return p.apply(x), nil
}

// ---- generators ----

// pinkNoise is Voss-McCartney pink noise: 16 rows of held uniform values,
// row k renewed every 2^k samples (staggered by the trailing zeros of the
// sample index), plus a white row; mean removed, unit RMS.
func pinkNoise(n int, rng *rand.Rand) []float64 {
	const rows = 16
	var r [rows]float64
	total := 0.0
	for k := range r {
		r[k] = rng.Float64()*2 - 1
		total += r[k]
	}
	out := make([]float64, n)
	for i := range out {
		if i > 0 {
			k := bits.TrailingZeros64(uint64(i))
			if k < rows {
				total -= r[k]
				r[k] = rng.Float64()*2 - 1
				total += r[k]
			}
		}
		out[i] = total + rng.Float64()*2 - 1
	}
	normalise(out, 1)
	return out
}

// whiteNoise is Gaussian noise of unit RMS.
func whiteNoise(n int, rng *rand.Rand) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = rng.NormFloat64()
	}
	normalise(out, 1)
	return out
}

// normalise removes the mean and scales x to the given RMS.
func normalise(x []float64, rms float64) {
	if len(x) == 0 {
		return
	}
	m := 0.0
	for _, v := range x {
		m += v
	}
	m /= float64(len(x))
	for i := range x {
		x[i] -= m
	}
	p := meanPower(x)
	if p == 0 {
		return
	}
	k := rms / math.Sqrt(p)
	for i := range x {
		x[i] *= k
	}
}

// humAmps are the relative amplitudes of a hum's harmonics 1..7.
var humAmps = []float64{1, .5, .35, .25, .18, .12, .08}

// hum is mains hum at f Hz whose samples peak at exactly peakDB dBFS: a pure
// sine, or with harmonics 2..7 (random phase each).
func hum(n, rate int, f, peakDB float64, harmonics bool, rng *rand.Rand) []float64 {
	amps := humAmps[:1]
	if harmonics {
		amps = humAmps
	}
	// each harmonic is a phasor turned by a fixed rotation every sample
	// (renormalised now and then), which is much cheaper than sin per sample
	z := make([]complex128, len(amps))
	rot := make([]complex128, len(amps))
	for k := range z {
		z[k] = cmplx.Rect(1, rng.Float64()*2*math.Pi)
		rot[k] = cmplx.Rect(1, 2*math.Pi*f*float64(k+1)/float64(rate))
	}
	out := make([]float64, n)
	for i := range out {
		s := 0.0
		for k, a := range amps {
			s += a * imag(z[k])
			z[k] *= rot[k]
		}
		out[i] = s
		if i&1023 == 1023 {
			for k := range z {
				z[k] /= complex(cmplx.Abs(z[k]), 0)
			}
		}
	}
	if p := peak(out); p > 0 {
		k := dbToAmp(peakDB) / p
		for i := range out {
			out[i] *= k
		}
	}
	return out
}

// ---- reverb ----

// roomIR is a synthetic room impulse response: the direct path at t = 0, six
// early reflections between 2 and 30 ms, and a tail of Gaussian noise
// decaying by 60 dB in rt60 seconds that builds up between 5 and 15 ms. The
// reverberant part (everything after the direct path) carries as much
// energy as the direct path (a direct-to-reverberant ratio of 0 dB), 30 % of
// it in the early reflections; the whole has unit energy.
func roomIR(rate int, rt60 float64, rng *rand.Rand) []float64 {
	n := int(1.5 * rt60 * float64(rate)) // down 90 dB at the end
	h := make([]float64, n)
	early := make([]float64, n)
	for k := 0; k < 6; k++ {
		d := int((0.002 + 0.028*rng.Float64()) * float64(rate))
		a := 0.3 + 0.4*rng.Float64()
		if rng.IntN(2) == 0 {
			a = -a
		}
		early[d] += a
	}
	tail := make([]float64, n)
	for i := range tail {
		t := float64(i) / float64(rate)
		if t < 0.005 {
			continue
		}
		build := min(1, (t-0.005)/0.01)
		tail[i] = rng.NormFloat64() * build * math.Pow(10, -3*t/rt60)
	}
	ee, et := meanPower(early)*float64(n), meanPower(tail)*float64(n)
	ke, kt := math.Sqrt(0.3/ee), math.Sqrt(0.7/et)
	for i := range h {
		h[i] = early[i]*ke + tail[i]*kt
	}
	// where reflections and tail overlap their energies do not simply add:
	// scale the whole reverberant part to exactly the direct path's energy
	kr := 1 / math.Sqrt(meanPower(h)*float64(n))
	for i := range h {
		h[i] *= kr
	}
	h[0] += 1
	k := 1 / math.Sqrt(2) // direct 1 + reverberant 1 → unit energy
	for i := range h {
		h[i] *= k
	}
	return h
}

// convolve returns the first len(x) samples of x * h, by FFT overlap-add.
func convolve(x, h []float64) []float64 {
	y := make([]float64, len(x))
	if len(x) == 0 || len(h) == 0 {
		return y
	}
	nfft := 1
	for nfft < 2*len(h) {
		nfft <<= 1
	}
	nfft = max(nfft, 1024)
	blk := nfft - len(h) + 1
	fft := fourier.NewFFT(nfft)
	buf := make([]float64, nfft)
	copy(buf, h)
	H := fft.Coefficients(nil, buf)
	X := make([]complex128, len(H))
	scale := 1 / float64(nfft)
	for start := 0; start < len(x); start += blk {
		end := min(start+blk, len(x))
		clear(buf)
		copy(buf, x[start:end])
		fft.Coefficients(X, buf)
		for k := range X {
			X[k] *= H[k]
		}
		fft.Sequence(buf, X)
		for k, v := range buf {
			i := start + k
			if i >= len(y) {
				break
			}
			y[i] += v * scale
		}
	}
	return y
}
