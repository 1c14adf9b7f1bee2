package realcorpus

import (
	"math"
	"math/rand/v2"
)

// Pink is n samples of pink noise (power falling 3 dB an octave, like a
// room's hiss) scaled to the given RMS, full scale ±1. The same seed gives
// the same noise. It is white noise from a seeded PCG through Paul
// Kellett's pinking filter, a sum of first-order low-passes that follows
// -3 dB/octave within 0.05 dB above about 10 Hz.
func Pink(n int, rms float64, seed uint64) []float64 {
	rng := rand.New(rand.NewPCG(seed, 0x70696e6b)) // "pink"
	out := make([]float64, n)
	var b0, b1, b2, b3, b4, b5, b6 float64
	var sum float64
	for i := range out {
		w := 2*rng.Float64() - 1
		b0 = 0.99886*b0 + w*0.0555179
		b1 = 0.99332*b1 + w*0.0750759
		b2 = 0.96900*b2 + w*0.1538520
		b3 = 0.86650*b3 + w*0.3104856
		b4 = 0.55000*b4 + w*0.5329522
		b5 = -0.7616*b5 - w*0.0168980
		out[i] = b0 + b1 + b2 + b3 + b4 + b5 + b6 + w*0.5362
		b6 = w * 0.115926
		sum += out[i] * out[i]
	}
	if sum > 0 {
		g := rms / math.Sqrt(sum/float64(n))
		for i := range out {
			out[i] *= g
		}
	}
	return out
}

// Resample converts x from rate from to rate to with a windowed-sinc
// (Kaiser) low-pass: it keeps the band below 95 % of the lower of the two
// Nyquist frequencies and removes what would alias by about 80 dB. The
// output has round(len(x)·to/from) samples, sample i at the time of input
// sample i·from/to; the input is taken as silent beyond its ends.
//
// The filter is tabulated for the phases an output sample can fall at: the
// exact set when the rates' ratio reduces to a denominator of at most
// maxPhases (44.1 from 48 kHz has 147), otherwise maxPhases steps of a
// sample, close enough (a 10 kHz tone's phase is off by under 2e-4 rad).
func Resample(x []float64, from, to int) []float64 {
	if from == to || len(x) == 0 {
		return append([]float64(nil), x...)
	}
	const (
		zeros     = 32 // zero crossings of the sinc on each side
		beta      = 8.0
		maxPhases = 4096
	)
	fc := 0.95 * math.Min(1, float64(to)/float64(from)) // cut-off, in units of the input's Nyquist
	half := int(math.Ceil(zeros / fc))                  // taps each side, input samples
	g := gcd(from, to)
	phases := to / g
	if phases > maxPhases {
		phases = maxPhases
	}
	// table[p][k]: the weight of input sample k0-half+1+k for an output
	// sample falling p/phases of a sample after input sample k0.
	taps := 2 * half
	table := make([]float64, phases*taps)
	i0 := besselI0(beta)
	for p := range phases {
		frac := float64(p) / float64(phases)
		row := table[p*taps : (p+1)*taps]
		var sum float64
		for k := range taps {
			d := float64(k-half+1) - frac // input sample's distance from the output time
			u := d / float64(half)
			if u <= -1 || u >= 1 {
				continue
			}
			w := besselI0(beta*math.Sqrt(1-u*u)) / i0
			row[k] = fc * sinc(fc*d) * w
			sum += row[k]
		}
		for k := range row { // unity gain at DC, whatever the phase
			row[k] /= sum
		}
	}
	n := int(math.Round(float64(len(x)) * float64(to) / float64(from)))
	out := make([]float64, n)
	for i := range out {
		pos := int64(i) * int64(from) // the output time, in units of 1/to of an input sample
		k0 := int(pos / int64(to))
		p := int(pos % int64(to) * int64(phases) / int64(to))
		row := table[p*taps : (p+1)*taps]
		var s float64
		for k, w := range row {
			j := k0 - half + 1 + k
			if j >= 0 && j < len(x) {
				s += w * x[j]
			}
		}
		out[i] = s
	}
	return out
}

func sinc(x float64) float64 {
	if x == 0 {
		return 1
	}
	return math.Sin(math.Pi*x) / (math.Pi * x)
}

// besselI0 is the modified Bessel function of the first kind, order 0, for
// the Kaiser window.
func besselI0(x float64) float64 {
	sum, term := 1.0, 1.0
	for k := 1; k < 500; k++ {
		term *= (x / (2 * float64(k))) * (x / (2 * float64(k)))
		sum += term
		if term < sum*1e-17 {
			break
		}
	}
	return sum
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// addFaded adds src into dst starting at dst[at], rising over the first
// fadeIn samples and falling over the last fadeOut (raised-cosine ramps, so
// that the cut's edges make no click of their own). What falls outside dst
// is dropped.
func addFaded(dst []float64, at int, src []float64, fadeIn, fadeOut int) {
	n := len(src)
	for i, v := range src {
		j := at + i
		if j < 0 || j >= len(dst) {
			continue
		}
		g := 1.0
		if i < fadeIn {
			g = ramp(float64(i) / float64(fadeIn))
		}
		if k := n - 1 - i; k < fadeOut {
			g = math.Min(g, ramp(float64(k)/float64(fadeOut)))
		}
		dst[j] += g * v
	}
}

// ramp rises from 0 at x=0 to 1 at x=1 along half a cosine.
func ramp(x float64) float64 { return 0.5 - 0.5*math.Cos(math.Pi*x) }
