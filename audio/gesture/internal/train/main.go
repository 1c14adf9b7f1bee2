// Command train builds the gesture classifier from labelled recordings.
//
//	train features -corpus DIR -out FILE.csv   run the Listener over a labelled corpus (format:
//	                                           ../shared/corpus/README.md) and write every onset's
//	                                           features with its true label
//	train fit -out weights.go FILE.csv...      train the network ensemble on feature tables
//	train eval FILE.csv...                     score the shipped network on feature tables
//
// Training is deterministic: the same tables give the same weights.
package main

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/tableref/tableref/audio"
	"github.com/tableref/tableref/audio/gesture"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: train features|fit|eval ...")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "features":
		err = runFeatures(os.Args[2:])
	case "fit":
		err = runFit(os.Args[2:])
	case "eval":
		err = runEval(os.Args[2:])
	default:
		err = fmt.Errorf("unknown subcommand %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "train:", err)
		os.Exit(1)
	}
}

// labels is the part of a corpus label file we use.
type labels struct {
	Onsets []struct {
		T    float64 `json:"t"`
		Kind string  `json:"kind"`
	} `json:"onsets"`
	Distractors []struct {
		T float64 `json:"t"`
	} `json:"distractors"`
	Speech [][2]float64 `json:"speech"`
	Tier   string       `json:"tier"`
}

// featureNames are the CSV columns after file, tier, t, label.
var featureNames = func() []string {
	var n []string
	for _, f := range reflect.VisibleFields(reflect.TypeOf(gesture.Features{})) {
		n = append(n, strings.ToLower(f.Name))
	}
	return n
}()

func runFeatures(args []string) error {
	fs := flag.NewFlagSet("features", flag.ContinueOnError)
	dir := fs.String("corpus", "", "labelled corpus directory")
	out := fs.String("out", "", "CSV to write")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dir == "" || *out == "" {
		return errors.New("features needs -corpus and -out")
	}
	files, err := filepath.Glob(filepath.Join(*dir, "*.json"))
	if err != nil {
		return err
	}
	sort.Strings(files)
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	w := csv.NewWriter(f)
	w.Write(append([]string{"file", "tier", "t", "label"}, featureNames...))
	for _, jf := range files {
		if strings.HasSuffix(jf, "manifest.json") {
			continue
		}
		rows, err := corpusFile(jf)
		if err != nil {
			return err
		}
		for _, r := range rows {
			w.Write(r)
		}
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return err
	}
	return f.Close()
}

// corpusFile runs one labelled recording through a Listener and labels every
// onset judged: clap or bang when it matches a labelled gesture (one to one,
// nearest first, within 50 ms), otherwise speech, glass, tail (within half a
// second after a gesture) or none.
func corpusFile(jf string) ([][]string, error) {
	var lab labels
	b, err := os.ReadFile(jf)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &lab); err != nil {
		return nil, fmt.Errorf("%s: %v", jf, err)
	}
	src, err := audio.OpenWAV(strings.TrimSuffix(jf, ".json") + ".wav")
	if err != nil {
		return nil, err
	}
	defer src.Close()
	var onsets []*audio.Onset
	l := audio.NewListener(src.SampleRate(), audio.Config{}, func(e audio.Event) {
		if o, ok := e.(*audio.Onset); ok && o.Features.Sudden >= gesture.SpectralMinSudden {
			onsets = append(onsets, o)
		}
	})
	if err := audio.Drain(src, 4096, func(x []float64) error { l.Write(x); return nil }); err != nil {
		return nil, err
	}
	l.Close()
	label := make([]string, len(onsets))
	type pair struct {
		d    float64
		i, j int
	}
	var pairs []pair
	for i, g := range lab.Onsets {
		for j, o := range onsets {
			if d := math.Abs(o.Time - g.T); d <= 0.05 {
				pairs = append(pairs, pair{d, i, j})
			}
		}
	}
	sort.Slice(pairs, func(a, b int) bool { return pairs[a].d < pairs[b].d })
	used := map[int]bool{}
	for _, p := range pairs {
		if !used[p.i] && label[p.j] == "" {
			used[p.i], label[p.j] = true, lab.Onsets[p.i].Kind
		}
	}
	var rows [][]string
	for j, o := range onsets {
		if label[j] == "" {
			label[j] = "none"
			for _, g := range lab.Onsets {
				if o.Time > g.T && o.Time-g.T < 0.5 {
					label[j] = "tail"
				}
			}
			for _, d := range lab.Distractors {
				if o.Time >= d.T-0.1 && o.Time <= d.T+0.3 {
					label[j] = "glass"
				}
			}
			for _, s := range lab.Speech {
				if o.Time >= s[0]-0.02 && o.Time <= s[1] {
					label[j] = "speech"
				}
			}
		}
		row := []string{filepath.Base(jf), lab.Tier, strconv.FormatFloat(o.Time, 'f', 4, 64), label[j]}
		v := reflect.ValueOf(o.Features)
		for k := range featureNames {
			row = append(row, strconv.FormatFloat(v.Field(k).Float(), 'g', 6, 64))
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// example is one labelled onset.
type example struct {
	name  string // file@time, for reports
	label string
	f     gesture.Features
	x     []float64
	y     int // 0 clap, 1 bang, 2 other
}

func readTables(paths []string) ([]example, error) {
	var out []example
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return nil, err
		}
		recs, err := csv.NewReader(f).ReadAll()
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %v", p, err)
		}
		if len(recs) == 0 {
			continue
		}
		col := map[string]int{}
		for i, h := range recs[0] {
			col[h] = i
		}
		for _, rec := range recs[1:] {
			var ft gesture.Features
			v := reflect.ValueOf(&ft).Elem()
			for k, name := range featureNames {
				i, ok := col[name]
				if !ok {
					return nil, fmt.Errorf("%s: no column %q (regenerate the table)", p, name)
				}
				x, err := strconv.ParseFloat(rec[i], 64)
				if err != nil {
					return nil, fmt.Errorf("%s: %v", p, err)
				}
				v.Field(k).SetFloat(x)
			}
			y := 2
			switch rec[col["label"]] {
			case "clap":
				y = 0
			case "bang":
				y = 1
			}
			out = append(out, example{
				name:  filepath.Base(p) + ":" + rec[col["file"]] + "@" + rec[col["t"]],
				label: rec[col["label"]], f: ft, x: ft.Vector(), y: y,
			})
		}
	}
	return out, nil
}

// Training settings.
const (
	members = 5
	hidden  = 16
	epochs  = 150
	batch   = 64
	l2      = 1e-4
	rate    = 0.01
	seed    = 1
)

func runFit(args []string) error {
	fs := flag.NewFlagSet("fit", flag.ContinueOnError)
	out := fs.String("out", "", "Go file to write the weights to")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *out == "" || fs.NArg() == 0 {
		return errors.New("fit needs -out and feature tables")
	}
	ex, err := readTables(fs.Args())
	if err != nil {
		return err
	}
	var trainable []example
	for _, e := range ex {
		if e.f.Sudden >= gesture.SpectralMinSudden {
			trainable = append(trainable, e)
		}
	}
	var ens gesture.Ensemble
	for m := range members {
		ens = append(ens, fit(trainable, int64(seed+m)))
	}
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	writeWeights(f, ens, fs.Args())
	if err := f.Close(); err != nil {
		return err
	}
	report(os.Stdout, "training set", ens, ex)
	return nil
}

// fit trains one network with Adam on mini-batches (softmax cross-entropy,
// L2 weight decay).
func fit(ex []example, seed int64) *gesture.Net {
	rng := rand.New(rand.NewSource(seed))
	d := gesture.Inputs
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
	step := 0
	for range epochs {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		for s := 0; s < len(order); s += batch {
			clear(grad)
			part := order[s:min(s+batch, len(order))]
			for _, k := range part {
				e := ex[k]
				for j := range h {
					z := n.B1[j]
					for i, v := range e.x {
						z += n.W1[j][i] * v
					}
					h[j] = math.Tanh(z)
				}
				p := (&gesture.Net{W1: n.W1, B1: n.B1, W2: n.W2, B2: n.B2}).Probs(e.x)
				var dout [3]float64
				for c := range dout {
					dout[c] = p[c]
					if c == e.y {
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
					for _, v := range e.x {
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
				gi := grad[i]/float64(len(part)) + l2**p
				m1[i] = 0.9*m1[i] + 0.1*gi
				m2[i] = 0.999*m2[i] + 0.001*gi*gi
				*p -= rate * (m1[i] / c1) / (math.Sqrt(m2[i]/c2) + 1e-8)
			}
		}
	}
	return n
}

func writeWeights(w io.Writer, ens gesture.Ensemble, tables []string) {
	fmt.Fprintf(w, "// Code generated by audio/gesture/internal/train fit from %s. DO NOT EDIT.\n\n", strings.Join(baseNames(tables), ", "))
	fmt.Fprintf(w, "package gesture\n\nvar model = Ensemble{\n")
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

func baseNames(p []string) []string {
	out := make([]string, len(p))
	for i, s := range p {
		out[i] = filepath.Base(s)
	}
	return out
}

func floats(v []float64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.FormatFloat(x, 'g', 8, 64)
	}
	return strings.Join(s, ", ")
}

func runEval(args []string) error {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	verbose := fs.Bool("v", false, "list every mistake")
	if err := fs.Parse(args); err != nil {
		return err
	}
	for _, p := range fs.Args() {
		ex, err := readTables([]string{p})
		if err != nil {
			return err
		}
		report(os.Stdout, filepath.Base(p), nil, ex)
		if *verbose {
			for _, e := range ex {
				k := gesture.Classify(e.f)
				if want := kindOf(e.label); k != want && (want.IsGesture() || k.IsGesture()) {
					fmt.Printf("  %s: %s heard as %s\n", e.name, e.label, k)
				}
			}
		}
	}
	return nil
}

func kindOf(label string) gesture.Kind {
	switch label {
	case "clap":
		return gesture.Clap
	case "bang":
		return gesture.Bang
	}
	return gesture.Other
}

// report prints the confusion of ens (the shipped model when nil) on ex.
func report(w io.Writer, name string, ens gesture.Ensemble, ex []example) {
	classify := gesture.Classify
	if ens != nil {
		classify = ens.Classify
	}
	count := map[string]map[gesture.Kind]int{}
	for _, e := range ex {
		g := e.label
		if g != "clap" && g != "bang" {
			g = "other"
		}
		if count[g] == nil {
			count[g] = map[gesture.Kind]int{}
		}
		count[g][classify(e.f)]++
	}
	total := func(g string) int { return count[g][gesture.Clap] + count[g][gesture.Bang] + count[g][gesture.Other] }
	fmt.Fprintf(w, "%s: claps %d/%d (as bang %d), bangs %d/%d (as clap %d), other sounds heard as gestures %d/%d\n", name,
		count["clap"][gesture.Clap], total("clap"), count["clap"][gesture.Bang],
		count["bang"][gesture.Bang], total("bang"), count["bang"][gesture.Clap],
		count["other"][gesture.Clap]+count["other"][gesture.Bang], total("other"))
}
