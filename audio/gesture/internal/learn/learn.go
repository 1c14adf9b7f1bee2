// Package learn trains the gesture network: an ensemble of small networks
// fitted with Adam on mini-batches (softmax cross-entropy, L2 weight decay,
// Gaussian noise on the inputs), deterministic for given settings and data.
package learn

import (
	"fmt"
	"io"
	"math"
	"math/rand"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/tableref/tableref/audio/gesture"
	"github.com/tableref/tableref/audio/gesture/internal/table"
)

// Settings of a training run.
type Settings struct {
	Members int     // networks in the ensemble
	Hidden  int     // hidden units
	Epochs  int     // passes over the data
	Batch   int     // examples per step
	L2      float64 // weight decay
	Rate    float64 // Adam step size
	Noise   float64 // standard deviation of noise added to the inputs
	// Swap is the chance that each input of an example is replaced, for
	// one step, by the same input of another example drawn at random: the
	// network cannot then lean on any one feature, and what a recording
	// does to one of them (a microphone's colour to the centroid, say)
	// cannot alone turn its verdict.
	Swap float64
	Seed int64 // of the first member; member m uses Seed+m
	// Ignore lists inputs (indices into gesture.Features.Vector) the
	// network does not see: held at zero while it trains, and their
	// first-layer weights written as zero, so that no value of theirs
	// changes a verdict. A microphone's colour moves the spectral balance
	// (the centroid, the low and high shares) more than a clap differs
	// from a bang; a network that ignores those inputs judges by what a
	// microphone leaves alone.
	Ignore []int
}

// Shipped are the settings of the network tableref ships.
var Shipped = Settings{Members: 5, Hidden: 32, Epochs: 150, Batch: 64, L2: 1e-4, Rate: 0.01, Noise: 0.2, Seed: 1}

// Fit trains an ensemble on the examples that reach the network (those that
// are Considered). Every class must be present.
func Fit(ex []table.Example, s Settings) (gesture.Ensemble, error) {
	var use []table.Example
	var seen [3]int
	for _, e := range ex {
		if e.F.Considered() {
			use = append(use, e)
			seen[e.Y]++
		}
	}
	for _, i := range s.Ignore {
		if i < 0 || i >= gesture.Inputs {
			return nil, fmt.Errorf("no input %d to ignore: the network has %d", i, gesture.Inputs)
		}
	}
	if seen[0] == 0 || seen[1] == 0 || seen[2] == 0 {
		return nil, fmt.Errorf("need claps, bangs and other sounds that reach the network; have %d, %d and %d", seen[0], seen[1], seen[2])
	}
	// The members are independent (each has its own seed and reads the
	// examples only): they train side by side, one per core, and come out
	// exactly as one after the other.
	ens := make(gesture.Ensemble, s.Members)
	slots := make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))
	var wg sync.WaitGroup
	for m := range s.Members {
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer func() { <-slots; wg.Done() }()
			ens[m] = fit(use, s, s.Seed+int64(m))
		}()
	}
	wg.Wait()
	return ens, nil
}

// fit trains one network with Adam on mini-batches (softmax cross-entropy,
// L2 weight decay).
func fit(ex []table.Example, s Settings, seed int64) *gesture.Net {
	rng := rand.New(rand.NewSource(seed))
	d := gesture.Inputs
	hidden := s.Hidden
	n := &gesture.Net{W1: make([][]float64, hidden), B1: make([]float64, hidden)}
	for j := range n.W1 {
		n.W1[j] = make([]float64, d)
		for i := range n.W1[j] {
			n.W1[j][i] = rng.NormFloat64() / math.Sqrt(float64(d))
		}
	}
	for c := range n.W2 {
		n.W2[c] = make([]float64, hidden)
		for j := range n.W2[c] {
			n.W2[c][j] = rng.NormFloat64() / math.Sqrt(float64(hidden))
		}
	}
	// parameters and their gradients, flattened for Adam
	params := []*float64{}
	for j := range n.W1 {
		for i := range n.W1[j] {
			params = append(params, &n.W1[j][i])
		}
		params = append(params, &n.B1[j])
	}
	for c := range n.W2 {
		for j := range n.W2[c] {
			params = append(params, &n.W2[c][j])
		}
		params = append(params, &n.B2[c])
	}
	grad := make([]float64, len(params))
	m1 := make([]float64, len(params))
	m2 := make([]float64, len(params))
	order := rng.Perm(len(ex))
	h := make([]float64, hidden)
	x := make([]float64, d)
	step := 0
	for range s.Epochs {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for at := 0; at < len(order); at += s.Batch {
			clear(grad)
			part := order[at:min(at+s.Batch, len(order))]
			for _, k := range part {
				e := ex[k]
				copy(x, e.X)
				if s.Swap > 0 {
					for i := range x {
						if rng.Float64() < s.Swap {
							x[i] = ex[rng.Intn(len(ex))].X[i]
						}
					}
				}
				if s.Noise > 0 {
					for i := range x {
						x[i] += s.Noise * rng.NormFloat64()
					}
				}
				for _, i := range s.Ignore {
					x[i] = 0
				}
				for j := range h {
					z := n.B1[j]
					for i, v := range x {
						z += n.W1[j][i] * v
					}
					h[j] = math.Tanh(z)
				}
				p := n.Probs(x)
				var dout [3]float64
				for c := range dout {
					dout[c] = p[c]
					if c == e.Y {
						dout[c]--
					}
				}
				g := 0
				for j := range n.W1 {
					var dh float64
					for c := range dout {
						dh += dout[c] * n.W2[c][j]
					}
					dh *= 1 - h[j]*h[j]
					for _, v := range x {
						grad[g] += dh * v
						g++
					}
					grad[g] += dh
					g++
				}
				for c := range n.W2 {
					for j := range n.W2[c] {
						grad[g] += dout[c] * h[j]
						g++
					}
					grad[g] += dout[c]
					g++
				}
			}
			step++
			c1 := 1 - math.Pow(0.9, float64(step))
			c2 := 1 - math.Pow(0.999, float64(step))
			for i, p := range params {
				gi := grad[i]/float64(len(part)) + s.L2**p
				m1[i] = 0.9*m1[i] + 0.1*gi
				m2[i] = 0.999*m2[i] + 0.001*gi*gi
				*p -= s.Rate * (m1[i] / c1) / (math.Sqrt(m2[i]/c2) + 1e-8)
			}
		}
	}
	for _, i := range s.Ignore {
		for j := range n.W1 {
			n.W1[j][i] = 0
		}
	}
	return n
}

// WriteGo writes the ensemble as the gesture package's variable name (model:
// the network for a microphone heard in full; narrowModel: for a telephone
// line).
func WriteGo(w io.Writer, name string, ens gesture.Ensemble, sources []string) {
	fmt.Fprintf(w, "// Code generated by audio/gesture/internal/train fit from %s. DO NOT EDIT.\n\n", strings.Join(sources, ", "))
	fmt.Fprintf(w, "package gesture\n\nvar %s = Ensemble{\n", name)
	for _, n := range ens {
		fmt.Fprintf(w, "\t{\n\t\tW1: [][]float64{\n")
		for _, row := range n.W1 {
			fmt.Fprintf(w, "\t\t\t{%s},\n", floats(row))
		}
		fmt.Fprintf(w, "\t\t},\n\t\tB1: []float64{%s},\n\t\tW2: [3][]float64{\n", floats(n.B1))
		for _, row := range n.W2 {
			fmt.Fprintf(w, "\t\t\t{%s},\n", floats(row))
		}
		fmt.Fprintf(w, "\t\t},\n\t\tB2: [3]float64{%s},\n\t},\n", floats(n.B2[:]))
	}
	fmt.Fprintf(w, "}\n")
}

func floats(v []float64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.FormatFloat(x, 'g', 8, 64)
	}
	return strings.Join(s, ", ")
}
