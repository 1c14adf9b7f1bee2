package decimate

import (
	"math/rand/v2"
	"testing"
)

// reference filters the whole of x at once: output k is the filter over the
// len(fir) inputs ending at input k·factor + factor-1, with zeros before the
// stream's start.
func reference(d *Decimator, x []float64) []float64 {
	taps := len(d.fir)
	var out []float64
	for end := d.Factor - 1; end < len(x); end += d.Factor {
		var y float64
		for i := range taps {
			if j := end - (taps - 1) + i; j >= 0 {
				y += d.fir[i] * x[j]
			}
		}
		out = append(out, y)
	}
	return out
}

func TestBlocksOfAnySizeGiveTheWholeStreamsOutput(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	x := make([]float64, 5000)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	for _, factor := range []int{1, 2, 3, 5, 6} {
		want := reference(New(factor, 0.8), x)
		if factor == 1 {
			want = x
		}
		for _, block := range []int{1, 2, 7, 64, 441, 5000} {
			d := New(factor, 0.8)
			var got []float64
			for i := 0; i < len(x); i += block {
				got = d.Process(x[i:min(i+block, len(x))], got)
				got = d.Process(nil, got) // an empty block changes nothing
			}
			if len(got) != len(want) {
				t.Fatalf("factor %d, blocks of %d: %d samples out, want %d", factor, block, len(got), len(want))
			}
			for k := range want {
				if d := got[k] - want[k]; d > 1e-12 || d < -1e-12 {
					t.Fatalf("factor %d, blocks of %d: sample %d is %v, want %v", factor, block, k, got[k], want[k])
				}
			}
		}
	}
}
