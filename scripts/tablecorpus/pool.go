package main

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Recorded sounds stand beside the modelled ones: knocks and impacts on
// real surfaces, real laughter and talk, a room's real noise, all from
// Debian packages (pool.tsv lists them with their licences; fetch.sh
// extracts them), hand claps from drum kits in Debian
// (../synthcorpus/samples.tsv) and the MIT-licensed pwolfe_fpga
// recordings of ../shared/corpus/real.

// pools are the recorded sounds by class: clap, bang, other (sounds a
// table makes that are not gestures: key clicks, steps on gravel), laugh,
// speech, noise.
type pools map[string][]string

func loadPools(poolTSV, debRoot, drumTSV string) (pools, error) {
	p := pools{}
	if debRoot != "" {
		f, err := os.Open(poolTSV)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			line := sc.Text()
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			col := strings.Split(line, "\t")
			if len(col) < 3 {
				return nil, fmt.Errorf("%s: a line with fewer than 3 columns: %q", poolTSV, line)
			}
			path := filepath.Join(debRoot, col[1], col[2])
			if _, err := os.Stat(path); err != nil {
				return nil, fmt.Errorf("%s is missing (run scripts/tablecorpus/fetch.sh %s)", path, debRoot)
			}
			p[col[0]] = append(p[col[0]], path)
		}
		if err := sc.Err(); err != nil {
			return nil, err
		}
	}
	if drumTSV != "" {
		f, err := os.Open(drumTSV)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			col := strings.Split(sc.Text(), "\t")
			if len(col) == 3 && col[0] == "clap" && col[1] == "acoustic" {
				if _, err := os.Stat(col[2]); err == nil {
					p["clap"] = append(p["clap"], col[2])
				}
			}
		}
	}
	for _, v := range p {
		sort.Strings(v)
	}
	return p, nil
}

// pwolfeClaps cuts the claps out of the pwolfe_fpga recordings (MIT), at
// the times its labels.csv gives, as dir/clap_sequence/FILE.flac#T.
func pwolfeClaps(dir string) ([]string, error) {
	f, err := os.Open(filepath.Join(dir, "labels.csv"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, err
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	var out []string
	for _, r := range recs[1:] {
		file := strings.TrimSuffix(r[col["file"]], ".wav") + ".flac"
		for _, t := range strings.Fields(r[col["event_times_auto"]]) {
			out = append(out, filepath.Join(dir, file)+"#"+t)
		}
	}
	return out, nil
}

// load reads a recorded sound as mono at renderRate, peak 1: one event
// (a knock, a clap) from its start to where the next one starts, or the
// whole sound (laughter, talk, noise) up to most seconds.
func load(path string, event bool, most float64) []float64 {
	start := -1.0
	if i := strings.LastIndex(path, "#"); i > 0 {
		start, _ = strconv.ParseFloat(path[i+1:], 64)
		path = path[:i]
	}
	args := []string{"-V1", path, "-t", "raw", "-e", "floating-point", "-b", "32", "-L", "-r", fmt.Sprint(renderRate), "-c", "1", "-"}
	if start >= 0 {
		args = append(args, "trim", fmt.Sprintf("%.4f", math.Max(0, start-0.02)), "0.4")
	} else {
		if event {
			most = 1
		}
		args = append(args, "trim", "0", fmt.Sprintf("%.2f", most))
	}
	o, err := exec.Command("sox", args...).Output()
	if err != nil {
		fail("sox %s: %v", path, err)
	}
	x := fromRaw(o)
	if len(x) == 0 || peakAbs(x) == 0 {
		return nil
	}
	scale(x, 1/peakAbs(x))
	if !event {
		fadeEnds(x, int(0.005*renderRate), int(0.02*renderRate))
		return x
	}
	// the event starts where it first comes within 20 dB of its peak,
	// walked back while it stays above -45 dB
	i := 0
	for i < len(x) && math.Abs(x[i]) < 0.1 {
		i++
	}
	for k := 0; i > 0 && k < renderRate/500 && math.Abs(x[i-1]) > 0.005; k++ {
		i--
	}
	x = x[i:]
	// and ends where another starts, 80 ms on at the soonest (a clap's
	// own bursts and a knock's bounce come sooner): the 2 ms level rises
	// 15 dB over its lowest since the first, to within 12 dB of the peak
	blk := renderRate / 500
	lo := math.Inf(1)
	for s := blk * 10; s+blk <= len(x); s += blk / 2 {
		l := 20 * math.Log10(rms(x[s:s+blk])+1e-9)
		lo = math.Min(lo, l)
		if s >= renderRate*8/100 && l > lo+15 && l > -12 {
			x = x[:s]
			break
		}
	}
	fadeEnds(x, 0, min(len(x)/3, int(0.01*renderRate)))
	return x
}

// loop repeats x (with crossfades) to n samples from a random point.
func loop(r *rand.Rand, x []float64, n int) []float64 {
	out := make([]float64, n)
	fade := min(len(x)/4, renderRate/20)
	at := r.IntN(max(1, len(x)-fade))
	for i := 0; i < n; {
		seg := x[at:]
		for k, v := range seg {
			if i+k >= n {
				break
			}
			g := 1.0
			if k < fade && i > 0 {
				g = float64(k) / float64(fade)
			}
			out[i+k] += g * v
		}
		i += max(1, len(seg)-fade)
		at = 0
	}
	return out
}
