package condition

import (
	"math/rand"
	"testing"
)

// BenchmarkConditioner: ten seconds of room noise with knocks at 44.1 kHz,
// in blocks of 4096.
func BenchmarkConditioner(b *testing.B) {
	const r = 44100
	rng := rand.New(rand.NewSource(1))
	x := make([]float64, 10*r)
	for i := range x {
		x[i] = 0.002 * rng.NormFloat64()
	}
	for at := r / 2; at < len(x); at += r / 3 {
		for i := 0; i < 2000 && at+i < len(x); i++ {
			x[at+i] += 0.3 * rng.NormFloat64() * float64(2000-i) / 2000
		}
	}
	out := make([]float64, 0, 4096)
	b.SetBytes(int64(8 * len(x)))
	b.ResetTimer()
	for range b.N {
		c := New(r)
		for i := 0; i < len(x); i += 4096 {
			out = c.Process(out[:0], x[i:min(i+4096, len(x))])
		}
	}
	b.ReportMetric(float64(b.N*len(x))/b.Elapsed().Seconds()/1e6, "Msamples/s")
}
