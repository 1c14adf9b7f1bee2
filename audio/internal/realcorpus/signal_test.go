package realcorpus

import (
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

func rms(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v * v
	}
	return math.Sqrt(s / float64(max(1, len(x))))
}

func sine(freq float64, rate, n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = math.Sin(2 * math.Pi * freq * float64(i) / float64(rate))
	}
	return x
}

// toneAt is the amplitude and phase of x at freq (a single-bin DFT).
func toneAt(x []float64, freq float64, rate int) float64 {
	var re, im float64
	for i, v := range x {
		a := 2 * math.Pi * freq * float64(i) / float64(rate)
		re += v * math.Cos(a)
		im -= v * math.Sin(a)
	}
	return 2 * math.Hypot(re, im) / float64(len(x))
}

func TestPink(t *testing.T) {
	a := Pink(44100, 0.002, 5)
	require.Equal(t, a, Pink(44100, 0.002, 5), "the same seed gives the same noise")
	require.NotEqual(t, a, Pink(44100, 0.002, 6))
	require.InDelta(t, 0.002, rms(a), 1e-12)
	// Pink, not white: neighbouring samples are alike (white noise's
	// lag-one correlation is 0), and a difference filter, which tilts the
	// spectrum up 6 dB an octave, leaves far less of it than of white.
	var c, d float64
	for i := 1; i < len(a); i++ {
		c += a[i] * a[i-1]
		d += (a[i] - a[i-1]) * (a[i] - a[i-1])
	}
	require.Greater(t, c/float64(len(a)-1)/(0.002*0.002), 0.5)
	require.Less(t, math.Sqrt(d/float64(len(a)-1)), 0.002)
}

func TestResample(t *testing.T) {
	for _, tc := range []struct{ from, to int }{{48000, 44100}, {22050, 44100}, {16000, 44100}, {35467, 44100}, {44100, 48000}} {
		x := sine(1000, tc.from, tc.from) // one second of 1 kHz
		y := Resample(x, tc.from, tc.to)
		require.Len(t, y, tc.to, "%d→%d", tc.from, tc.to)
		// away from the ends the tone is the same tone, at the same level
		mid := y[tc.to/4 : 3*tc.to/4]
		require.InDelta(t, 1, toneAt(mid, 1000, tc.to), 0.002, "%d→%d", tc.from, tc.to)
		require.InDelta(t, 1/math.Sqrt2, rms(mid), 0.002, "%d→%d", tc.from, tc.to)
		// and sample for sample: y[i] is x at time i/to
		for i := tc.to / 4; i < 3*tc.to/4; i += 997 {
			require.InDelta(t, math.Sin(2*math.Pi*1000*float64(i)/float64(tc.to)), y[i], 0.002, "%d→%d sample %d", tc.from, tc.to, i)
		}
	}
	// Downsampling removes what the new rate cannot hold rather than
	// folding it down: 23 kHz at 48 kHz would alias to 21.1 kHz at 44.1.
	y := Resample(sine(23000, 48000, 48000), 48000, 44100)
	require.Less(t, rms(y[11025:33075]), 0.001)
	// The same rate is a copy.
	x := []float64{1, 2, 3}
	z := Resample(x, 8000, 8000)
	require.Equal(t, x, z)
	z[0] = 9
	require.Equal(t, 1.0, x[0])
}

func TestAddFaded(t *testing.T) {
	dst := make([]float64, 10)
	addFaded(dst, 2, []float64{1, 1, 1, 1, 1, 1}, 2, 3)
	want := []float64{0, 0, 0, 0.5, 1, 0.75, 0.25, 0, 0, 0}
	for i := range want {
		require.InDelta(t, want[i], dst[i], 1e-12, "sample %d", i)
	}
	// what falls outside is dropped, not wrapped or panicking
	addFaded(dst, 8, []float64{1, 1, 1, 1}, 0, 0)
	addFaded(dst, -2, []float64{1, 1, 1}, 0, 0)
	require.Equal(t, 1.0, dst[0])
	require.Equal(t, 1.0, dst[9])
}
