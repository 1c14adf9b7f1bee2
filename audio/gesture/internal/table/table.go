// Package table reads and writes the feature tables the gesture network is
// trained on, and extracts them from labelled recordings.
package table

import (
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/tableref/tableref/audio"
	"github.com/tableref/tableref/audio/gesture"
	"github.com/tableref/tableref/audio/internal/realcorpus"
)

// onsetLabel is a labelled gesture: when, and clap or bang.
type onsetLabel struct {
	T    float64 `json:"t"`
	Kind string  `json:"kind"`
}

// labels is the part of a corpus label file we use.
type labels struct {
	Onsets      []onsetLabel `json:"onsets"`
	Distractors []struct {
		T float64 `json:"t"`
	} `json:"distractors"`
	Speech [][2]float64 `json:"speech"`
	Tier   string       `json:"tier"`
}

// FeatureNames are the CSV columns after file, tier, t, label.
var FeatureNames = func() []string {
	var n []string
	for _, f := range reflect.VisibleFields(reflect.TypeOf(gesture.Features{})) {
		n = append(n, strings.ToLower(f.Name))
	}
	return n
}()

// Extract runs one labelled recording through a Listener and labels every
// onset judged: clap or bang when it matches a labelled gesture (one to one,
// nearest first, within 50 ms), otherwise speech, glass, tail (within half a
// second after a gesture) or none.
func Extract(jf string) ([][]string, error) {
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
	return extract(filepath.Base(jf), lab, src)
}

// extract runs src through a Listener and labels its onsets by lab; each
// row starts with name.
func extract(name string, lab labels, src *audio.WAV) ([][]string, error) {
	// Judge by the labels: the first onset found within 15 ms of a
	// labelled gesture is that gesture (the Listener places onsets within a
	// few ms; a blip before a hit is further off). The features collected
	// then do not depend on any trained network.
	rate := float64(src.SampleRate())
	taken := map[int]bool{}
	oracle := func(at int64, _ gesture.Features) gesture.Kind {
		t := float64(at) / rate
		for i, g := range lab.Onsets {
			if !taken[i] && math.Abs(g.T-t) <= 0.015 {
				taken[i] = true
				return gesture.Kind(g.Kind)
			}
		}
		return gesture.Other
	}
	var onsets []*audio.Onset
	l := audio.NewListener(src.SampleRate(), audio.Config{Judge: oracle}, func(e audio.Event) {
		if o, ok := e.(*audio.Onset); ok && o.Features.Considered() {
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
		row := []string{name, lab.Tier, strconv.FormatFloat(o.Time, 'f', 4, 64), label[j]}
		v := reflect.ValueOf(o.Features)
		for k := range FeatureNames {
			row = append(row, strconv.FormatFloat(v.Field(k).Float(), 'g', 6, 64))
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// Example is one labelled onset.
type Example struct {
	Name  string // table:file@time, for reports
	Label string // clap, bang, speech, glass, tail or none
	F     gesture.Features
	X     []float64 // F.Vector()
	Y     int       // 0 clap, 1 bang, 2 other
	Real  bool      // a row of the real recordings (its tier starts with RealTier)
}

// Read reads feature tables (.csv or .csv.gz).
func Read(paths ...string) ([]Example, error) {
	var out []Example
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return nil, err
		}
		var r io.Reader = f
		if strings.HasSuffix(p, ".gz") {
			zr, err := gzip.NewReader(f)
			if err != nil {
				f.Close()
				return nil, fmt.Errorf("%s: %v", p, err)
			}
			r = zr
		}
		recs, err := csv.NewReader(r).ReadAll()
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
			for k, name := range FeatureNames {
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
			out = append(out, Example{
				Name:  filepath.Base(p) + ":" + rec[col["file"]] + "@" + rec[col["t"]],
				Label: rec[col["label"]], F: ft, X: ft.Vector(), Y: y,
				Real: strings.HasPrefix(rec[col["tier"]], RealTier),
			})
		}
	}
	return out, nil
}

// Write writes a feature table to path, gzipped when the name ends in .gz.
func Write(path string, rows [][]string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	var sink io.Writer = f
	var zw *gzip.Writer
	if strings.HasSuffix(path, ".gz") {
		zw = gzip.NewWriter(f)
		sink = zw
	}
	w := csv.NewWriter(sink)
	w.Write(append([]string{"file", "tier", "t", "label"}, FeatureNames...))
	w.WriteAll(rows)
	if err := w.Error(); err != nil {
		f.Close()
		return err
	}
	if zw != nil {
		if err := zw.Close(); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}

// Kind is the gesture kind a label stands for.
func Kind(label string) gesture.Kind {
	switch label {
	case "clap":
		return gesture.Clap
	case "bang":
		return gesture.Bang
	}
	return gesture.Other
}

// RealTier starts the tier of every row measured on ../shared/corpus/real
// (ExtractReal): "real/SOURCE/CLASS". Those recordings are for measuring
// only; the network is never trained on them (see Trainable).
const RealTier = "real/"

// ExtractReal runs one recording of the real corpus through a Listener, as
// Extract does a labelled one, and labels its onsets by the recording's
// labels.csv row: each hit the row times (approximately: an automatic
// detector's) is a clap or a bang as its class holds, and all of a class
// of laughter or talk is speech.
func ExtractReal(r realcorpus.Recording) ([][]string, error) {
	p, err := realcorpus.ReadFLAC(r.Path)
	if err != nil {
		return nil, err
	}
	src, err := audio.NewWAV(bytes.NewReader(p.WAV()))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", r.Path, err)
	}
	lab := labels{Tier: RealTier + r.Source + "/" + r.Class}
	switch r.Kind {
	case realcorpus.Claps, realcorpus.Bangs:
		for _, t := range r.Label.Times {
			lab.Onsets = append(lab.Onsets, onsetLabel{t, string(r.Kind)})
		}
	default:
		lab.Speech = [][2]float64{{0, p.Seconds()}}
	}
	return extract(r.Source+"/"+r.Class+"/"+r.Name+".flac", lab, src)
}

// Trainable reports an error when a table holds rows of the real
// recordings (RealTier): they measure the network and must not teach it.
func Trainable(ex []Example) error {
	for _, e := range ex {
		if e.Real {
			return fmt.Errorf("%s: a row of the real recordings (tier %s...), which are for measuring only: train on the tables of our own and licensed material", e.Name, RealTier)
		}
	}
	return nil
}
