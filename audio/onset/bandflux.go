package onset

import "math"

// BandFlux is a spectral onset descriptor. It sums the power spectrum into
// bands a third of an octave wide, in decibels, and reports the mean rise of
// the bands since the louder of the two previous frames. Log-spaced bands give
// a low drum thump (a few bands near 100 Hz) as much say as a bright clap, and
// comparing with two frames back ignores slow swells such as a vowel.
//
// A band only counts as far as it stands above its own noise floor, a slowly
// tracked minimum, so steady noise (fans, hiss, a busy room) does not flicker
// the descriptor.
type BandFlux struct {
	edges  []int        // band b covers bins [edges[b], edges[b+1])
	prev   [2][]float64 // band levels (dB) one and two frames back
	floor  []float64    // per-band noise floor (dB)
	smooth []float64    // per-band power, smoothed over SmoothSeconds
	cur    []float64
	alpha  float64 // smoothing coefficient per frame
	n      int64
	rise   float64 // floor rise per frame (dB)
}

// Floor parameters: the floor follows a drop at once and climbs back
// FloorRisePerSecond dB per second, so it settles on the quiet moments between
// sounds. A rise counts from FloorMargin dB above the floor.
const (
	FloorRisePerSecond = 6.0
	FloorMargin        = 6.0
	SmoothSeconds      = 0.03
	minBandBins        = 2
	minBandHz          = 50
	maxBandHz          = 16000
	bandsPerOctave     = 3
)

// NewBandFlux makes the descriptor for frames of n samples at rate Hz taken
// every hop samples.
func NewBandFlux(rate, n, hop int) *BandFlux {
	bin := float64(rate) / float64(n)
	top := math.Min(maxBandHz, 0.47*float64(rate))
	var edges []int
	last := 0
	for f := float64(minBandHz); f <= top; f *= math.Pow(2, 1.0/bandsPerOctave) {
		k := int(math.Round(f / bin))
		if k < 1 {
			k = 1
		}
		if len(edges) == 0 || k >= last+minBandBins {
			edges = append(edges, k)
			last = k
		}
	}
	if kTop := int(math.Round(top / bin)); kTop >= last+minBandBins {
		edges = append(edges, kTop)
	}
	nb := len(edges) - 1
	b := &BandFlux{
		edges:  edges,
		floor:  make([]float64, nb),
		smooth: make([]float64, nb),
		cur:    make([]float64, nb),
		alpha:  1 - math.Exp(-float64(hop)/(SmoothSeconds*float64(rate))),
		rise:   FloorRisePerSecond * float64(hop) / float64(rate),
	}
	for i := range b.prev {
		b.prev[i] = make([]float64, nb)
	}
	return b
}

// Bands is the number of bands.
func (b *BandFlux) Bands() int { return len(b.edges) - 1 }

// Next consumes one power spectrum and returns the descriptor: the mean over
// bands of the rise in dB, counted above the noise margin. Zero means nothing
// started; a hand clap in a quiet room gives tens.
func (b *BandFlux) Next(power []float64) float64 {
	for i := range b.cur {
		var e float64
		for _, p := range power[b.edges[i]:b.edges[i+1]] {
			e += p
		}
		b.cur[i] = 10 * math.Log10(e+1e-12)
		if b.n == 0 {
			b.smooth[i] = e
		} else {
			b.smooth[i] += b.alpha * (e - b.smooth[i])
		}
	}
	var sum float64
	for i, l := range b.cur {
		sl := 10 * math.Log10(b.smooth[i]+1e-12)
		if b.n == 0 {
			b.floor[i] = sl
		}
		ref := math.Max(b.prev[0][i], b.prev[1][i])
		base := math.Max(ref, b.floor[i]+FloorMargin)
		if b.n >= 2 && l > base {
			sum += l - base
		}
		if sl < b.floor[i] {
			b.floor[i] = sl
		} else {
			b.floor[i] += b.rise
		}
	}
	b.prev[1], b.prev[0] = b.prev[0], b.prev[1]
	copy(b.prev[0], b.cur)
	b.n++
	return sum / float64(len(b.cur))
}

// Floor returns the noise floor of band i in dB (for tests and meters).
func (b *BandFlux) Floor(i int) float64 { return b.floor[i] }
