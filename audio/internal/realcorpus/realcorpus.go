// Package realcorpus scores tableref's hearing on real recordings, in
// process: a folder laid out like ../shared/corpus/real, SOURCE/CLASS/*.flac
// with SOURCE/labels.csv, where people clapped, knocked and laughed into
// their own phones and laptops.
//
// It counts what ../shared/tools/score-real counts, the same way, so the
// two agree: each recording goes through exactly the path `tableref listen
// --json --wav FILE` takes (see Listen), only without sox, a temporary WAV
// file and a process per recording, which makes it quick enough for a test.
//
// Class folders name what their recordings hold: clap* every hit a clap;
// knock*, bang* and slap* every hit a bang; anything else noise (laughter,
// talk) that should give no gesture and no code. A class folder ending in
// _single holds single clips, strung into one stream (StringSingles).
//
// It adds a test score-real does not have: Woodlouse codes built from real
// hits (Options.CodeFiles; see CodeFile), since a recording of a hundred
// claps says little about hearing "3 bangs + 4 claps" between bursts of
// laughter, which is what the game needs.
package realcorpus

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/tableref/tableref/audio"
	"github.com/tableref/tableref/audio/gesture"
)

// Kind is what a class folder's recordings hold.
type Kind string

const (
	Claps Kind = "clap"  // every hit is a clap
	Bangs Kind = "bang"  // every hit is a bang (knock, bang, slap)
	Noise Kind = "noise" // laughter, talk: no gestures at all
)

// ClassKind is what a class folder holds, by its name, as score-real reads
// the names.
func ClassKind(class string) Kind {
	switch {
	case strings.HasPrefix(class, "clap"):
		return Claps
	case strings.HasPrefix(class, "knock"), strings.HasPrefix(class, "bang"), strings.HasPrefix(class, "slap"):
		return Bangs
	}
	return Noise
}

// Options says what to score and how.
type Options struct {
	// Dir is the corpus folder: SOURCE/CLASS/*.flac and SOURCE/labels.csv.
	Dir string
	// Adjust, when not nil, changes the Listener's configuration before
	// each recording is heard (a saved calibration, say). It gets the
	// configuration `tableref listen --wav` would use. Recordings are heard
	// in parallel, so it may be called from several goroutines at once.
	Adjust func(*audio.Config)
	// CodeFiles is how many code recordings to build for each source with
	// claps, knocks and laughter (DefaultCodeFiles is the command's and the
	// test's); 0 builds none.
	CodeFiles int
	// CodesPerFile is how many codes each holds (DefaultCodesPerFile when 0).
	CodesPerFile int
	// Seed seeds the code recordings' draws: the same seed builds the same
	// recordings.
	Seed uint64
	// Workers is how many recordings are heard at once
	// (runtime.GOMAXPROCS(0) when 0). The results do not depend on it.
	Workers int
	// Progress, when not nil, is told after each piece of work how many of
	// how many are done. It is called from one goroutine at a time.
	Progress func(done, total int)
}

// Row is one source's class folder, counted as score-real counts it.
type Row struct {
	Source string `json:"source"`
	Class  string `json:"class"`
	Kind   Kind   `json:"kind"`
	// Files is the recordings heard: a _single class is one (its clips
	// strung together).
	Files   int     `json:"files"`
	Hits    int     `json:"hits"`    // the labels' n_events_auto (a _single class: its clips)
	Seconds float64 `json:"seconds"` // the labels' duration_s (a _single class: the strung stream's)
	Claps   int     `json:"claps"`   // gestures heard as claps
	Bangs   int     `json:"bangs"`   // and as bangs
	// Found is, summed over the recordings, the gestures heard as the
	// class's kind, but no more than the recording's hits.
	Found  int `json:"found"`
	Codes  int `json:"codes"`  // codes heard
	Failed int `json:"failed"` // recordings that could not be read or heard
}

// Right is the share of gestures heard as the class's kind (clap and bang
// classes).
func (r Row) Right() float64 {
	if r.Kind == Claps {
		return ratio(r.Claps, r.Claps+r.Bangs)
	}
	return ratio(r.Bangs, r.Claps+r.Bangs)
}

// FoundRate is the share of hits heard as the class's kind.
func (r Row) FoundRate() float64 { return ratio(r.Found, r.Hits) }

// GesturesPerMinute is the gestures heard a minute (noise classes).
func (r Row) GesturesPerMinute() float64 { return 60 * float64(r.Claps+r.Bangs) / max(1, r.Seconds) }

// CodesPerMinute is the codes heard a minute (noise classes).
func (r Row) CodesPerMinute() float64 { return 60 * float64(r.Codes) / max(1, r.Seconds) }

// ratio is a/b, or a when b is 0 (as score-real's a / max(1, b)).
func ratio(a, b int) float64 { return float64(a) / float64(max(1, b)) }

// Totals are the figures over all sources: score-real's last line, and the
// code test's.
type Totals struct {
	ClapsRight          float64 `json:"claps_right"`  // clap classes: gestures heard as claps ÷ gestures
	ClapsFound          float64 `json:"claps_found"`  // clap classes: found ÷ hits
	KnocksRight         float64 `json:"knocks_right"` // the same for knock, bang and slap classes
	KnocksFound         float64 `json:"knocks_found"` //
	NoiseGesturesPerMin float64 `json:"noise_gestures_per_min"`
	NoiseCodesPerMin    float64 `json:"noise_codes_per_min"`
	NoiseMinutes        float64 `json:"noise_minutes"`
	Failed              int     `json:"failed"`
	// Codes is the code test over every source (zero when none was built).
	Codes CodeScore `json:"codes"`
}

// Result is a scoring run's figures.
type Result struct {
	Rows   []Row     `json:"rows"`
	Totals Totals    `json:"totals"`
	Codes  []CodeRow `json:"code_sources"` // the code test, by source
	Errors []string  `json:"errors"`       // why recordings failed, one line each
	// Seed, CodeFiles and CodesPerFile are what the code test was built from.
	Seed         uint64 `json:"seed"`
	CodeFiles    int    `json:"code_files"`
	CodesPerFile int    `json:"codes_per_file"`
}

// CodeRow is the code test of one source.
type CodeRow struct {
	Source string `json:"source"`
	Rate   int    `json:"rate"`
	CodeScore
}

// Targets are what tableref aims for on real recordings (the and
// score-real's goals).
var Targets = struct {
	ClapsRight, KnocksRight, Found, NoiseGesturesPerMin, NoiseCodesPerMin, CodesExact float64
}{0.95, 0.95, 0.85, 1, 0.2, 0.90}

// classDir is a class folder and its recordings, sorted.
type classDir struct {
	source string
	name   string
	kind   Kind
	single bool
	files  []fileRef
}

type fileRef struct{ name, path string }

type sourceDir struct {
	name    string
	labels  Labels
	classes []*classDir
}

// scan lists the corpus as score-real walks it: sources and their classes
// in sorted order, each class's .flac files sorted.
func scan(dir string) ([]*sourceDir, error) {
	st, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: no such folder", dir)
	}
	if err != nil {
		return nil, err
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("%s: not a folder", dir)
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []*sourceDir
	for _, e := range ents {
		if !isDir(dir, e) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		labels, err := ReadLabels(filepath.Join(p, "labels.csv"))
		if err != nil {
			return nil, err
		}
		s := &sourceDir{name: e.Name(), labels: labels}
		cents, err := os.ReadDir(p)
		if err != nil {
			return nil, err
		}
		for _, c := range cents {
			if !isDir(p, c) {
				continue
			}
			cd := &classDir{source: e.Name(), name: c.Name(), kind: ClassKind(c.Name()), single: strings.HasSuffix(c.Name(), "_single")}
			fents, err := os.ReadDir(filepath.Join(p, c.Name()))
			if err != nil {
				return nil, err
			}
			for _, f := range fents {
				if strings.HasSuffix(f.Name(), ".flac") && !f.IsDir() {
					cd.files = append(cd.files, fileRef{f.Name(), filepath.Join(p, c.Name(), f.Name())})
				}
			}
			s.classes = append(s.classes, cd)
		}
		out = append(out, s)
	}
	// os.ReadDir sorts by name, as Python's sorted() does the same names.
	return out, nil
}

// isDir reports whether the entry is a folder, following a symbolic link
// as Python's os.path.isdir does.
func isDir(parent string, e fs.DirEntry) bool {
	if e.IsDir() {
		return true
	}
	st, err := os.Stat(filepath.Join(parent, e.Name()))
	return err == nil && st.IsDir()
}

// Score scores every recording of the corpus in opt.Dir and, when
// opt.CodeFiles is set, the code recordings built from it.
func Score(opt Options) (*Result, error) {
	sources, err := scan(opt.Dir)
	if err != nil {
		return nil, err
	}
	nfiles := 0
	for _, s := range sources {
		for _, c := range s.classes {
			nfiles += len(c.files)
		}
	}
	if nfiles == 0 {
		return nil, fmt.Errorf("%s: no recordings (SOURCE/CLASS/*.flac)", opt.Dir)
	}
	if opt.CodesPerFile <= 0 {
		opt.CodesPerFile = DefaultCodesPerFile
	}
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	res := &Result{Seed: opt.Seed, CodeFiles: max(0, opt.CodeFiles), CodesPerFile: opt.CodesPerFile, Codes: []CodeRow{}, Errors: []string{}}

	// Every recording, and every single-clip class, is one job with its
	// own slot for what it heard; the rows are summed from the slots in
	// order afterwards, so the figures do not depend on which worker
	// finished first.
	type job struct {
		row    int
		class  *classDir
		file   int // -1: the class's clips strung together
		labels Labels
		out    fileResult
	}
	var jobs []*job
	for _, s := range sources {
		for _, c := range s.classes {
			res.Rows = append(res.Rows, Row{Source: s.name, Class: c.name, Kind: c.kind})
			row := len(res.Rows) - 1
			if c.single {
				jobs = append(jobs, &job{row: row, class: c, file: -1, labels: s.labels})
				continue
			}
			for i := range c.files {
				jobs = append(jobs, &job{row: row, class: c, file: i, labels: s.labels})
			}
		}
	}

	// The code test's sources and plans are made first (from the labels
	// and the FLAC headers), so that their recordings can be decoded, and
	// their hits cut, alongside the corpus's own jobs.
	type codeJob struct {
		cs    *codeSource
		plans []CodeFile
		cuts  map[cutKey][]float32
		mu    sync.Mutex
		fails []string
	}
	var codeJobs []*codeJob
	if opt.CodeFiles > 0 {
		for _, s := range sources {
			cs := newCodeSource(s.name, s.classes, s.labels)
			if cs == nil {
				continue
			}
			codeJobs = append(codeJobs, &codeJob{cs: cs, plans: planCodes(cs, opt.CodeFiles, opt.CodesPerFile, opt.Seed), cuts: map[cutKey][]float32{}})
		}
	}
	type cutJob struct {
		cj   *codeJob
		file int
	}
	var cutJobs []cutJob
	for _, cj := range codeJobs {
		needed := map[int]bool{}
		for _, p := range cj.plans {
			for _, pc := range p.Pieces {
				needed[pc.File] = true
			}
		}
		for f := range cj.cs.files {
			if needed[f] {
				cutJobs = append(cutJobs, cutJob{cj, f})
			}
		}
	}
	ncode := 0
	for _, cj := range codeJobs {
		ncode += len(cj.plans)
	}

	total := len(jobs) + len(cutJobs) + ncode
	var done atomic.Int64
	var progMu sync.Mutex
	tick := func() {
		n := done.Add(1)
		if opt.Progress != nil {
			progMu.Lock()
			defer progMu.Unlock()
			opt.Progress(int(n), total)
		}
	}

	// First the corpus's recordings and the code sources' decoding, the
	// biggest files first so that no long one is left to run alone at the
	// end.
	size := func(path string) int64 {
		st, err := os.Stat(path)
		if err != nil {
			return 0
		}
		return st.Size()
	}
	order := make([]int, len(jobs)+len(cutJobs))
	weight := make([]int64, len(order))
	for i := range order {
		order[i] = i
		switch {
		case i >= len(jobs):
			c := cutJobs[i-len(jobs)]
			weight[i] = size(c.cj.cs.files[c.file])
		case jobs[i].file < 0:
			for _, f := range jobs[i].class.files {
				weight[i] += size(f.path)
			}
		default:
			weight[i] = size(jobs[i].class.files[jobs[i].file].path)
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return weight[order[a]] > weight[order[b]] })
	Parallel(workers, len(order), func(k int) {
		defer tick()
		i := order[k]
		if i < len(jobs) {
			j := jobs[i]
			if j.file < 0 {
				j.out = hearSingles(j.class, j.labels, opt.Adjust)
			} else {
				j.out = hearFile(j.class, j.file, j.labels, opt.Adjust)
			}
			return
		}
		c := cutJobs[i-len(jobs)]
		cs := c.cj.cs
		mono, err := decodeMono(cs.files[c.file], cs.rate)
		if err != nil {
			c.cj.mu.Lock()
			c.cj.fails = append(c.cj.fails, err.Error())
			c.cj.mu.Unlock()
			return
		}
		cuts := map[cutKey][]float32{}
		cutPieces(mono, cs.rate, c.file, c.cj.plans, cuts)
		c.cj.mu.Lock()
		for k, v := range cuts {
			c.cj.cuts[k] = v
		}
		c.cj.mu.Unlock()
	})
	for _, j := range jobs {
		r := &res.Rows[j.row]
		r.Files++
		r.Hits += j.out.hits
		r.Seconds += j.out.seconds
		r.Claps += j.out.claps
		r.Bangs += j.out.bangs
		r.Found += j.out.found
		r.Codes += j.out.codes
		if j.out.err != nil {
			r.Failed++
			res.Errors = append(res.Errors, j.out.err.Error())
		}
	}

	// Then the code recordings: built, heard and scored.
	for _, cj := range codeJobs {
		scores := make([]CodeScore, len(cj.plans))
		errs := make([]error, len(cj.plans))
		Parallel(workers, len(cj.plans), func(i int) {
			defer tick()
			cf := &cj.plans[i]
			if len(cj.fails) > 0 { // a recording it is cut from could not be read
				scores[i] = CodeScore{Files: 1, Failed: 1, Codes: len(cf.Codes)}
				return
			}
			wav := monoWAV(buildCodeFile(cf, i, cj.cs.rate, cj.cuts), cj.cs.rate)
			h, err := Listen(wav, false, opt.Adjust)
			if err != nil {
				scores[i] = CodeScore{Files: 1, Failed: 1, Codes: len(cf.Codes)}
				errs[i] = fmt.Errorf("%s: %w", cf.Name, err)
				return
			}
			scores[i] = ScoreCodes(cf, h)
		})
		row := CodeRow{Source: cj.cs.name, Rate: cj.cs.rate}
		for _, s := range scores {
			row.add(s)
		}
		slices.Sort(cj.fails) // in the order of the files, not of the workers
		res.Errors = append(res.Errors, cj.fails...)
		for _, err := range errs {
			if err != nil {
				res.Errors = append(res.Errors, err.Error())
			}
		}
		res.Codes = append(res.Codes, row)
		res.Totals.Codes.add(row.CodeScore)
	}
	res.Totals.Codes.Misses = nil // they are listed by source
	res.total()
	return res, nil
}

// total sums the rows as score-real's last line does.
func (res *Result) total() {
	var clapOK, clapRep, clapHits, clapFound int
	var bangOK, bangRep, bangHits, bangFound int
	var noiseG, noiseC int
	var noiseS float64
	t := &res.Totals
	for _, r := range res.Rows {
		switch r.Kind {
		case Claps:
			clapOK += r.Claps
			clapRep += r.Claps + r.Bangs
			clapHits += r.Hits
			clapFound += r.Found
		case Bangs:
			bangOK += r.Bangs
			bangRep += r.Claps + r.Bangs
			bangHits += r.Hits
			bangFound += r.Found
		default:
			noiseG += r.Claps + r.Bangs
			noiseC += r.Codes
			noiseS += r.Seconds
		}
		t.Failed += r.Failed
	}
	t.ClapsRight = ratio(clapOK, clapRep)
	t.ClapsFound = ratio(clapFound, clapHits)
	t.KnocksRight = ratio(bangOK, bangRep)
	t.KnocksFound = ratio(bangFound, bangHits)
	t.NoiseGesturesPerMin = 60 * float64(noiseG) / max(1, noiseS)
	t.NoiseCodesPerMin = 60 * float64(noiseC) / max(1, noiseS)
	t.NoiseMinutes = noiseS / 60
}

// fileResult is what one job heard.
type fileResult struct {
	hits, claps, bangs, found, codes int
	seconds                          float64
	err                              error
}

// tally counts what was heard in a recording of a class with hits hits.
func tally(kind Kind, hits int, seconds float64, h *Heard, err error) fileResult {
	r := fileResult{hits: hits, seconds: seconds, err: err}
	if h == nil {
		return r
	}
	r.claps, r.bangs, r.codes = h.count(gesture.Clap), h.count(gesture.Bang), len(h.Codes)
	switch kind {
	case Claps:
		r.found = min(r.claps, hits)
	case Bangs:
		r.found = min(r.bangs, hits)
	}
	return r
}

// hearFile hears one recording of a class. Its hits and seconds are its
// labels' (none when it has no row), as score-real takes them.
func hearFile(c *classDir, i int, labels Labels, adjust func(*audio.Config)) fileResult {
	f := c.files[i]
	lab := labels[c.name+"/"+strings.TrimSuffix(f.name, ".flac")]
	p, err := ReadFLAC(f.path)
	if err != nil {
		return tally(c.kind, lab.Events, lab.Duration, nil, err)
	}
	h, err := Listen(p.WAV(), c.kind != Noise, adjust)
	if err != nil {
		err = fmt.Errorf("%s: %w", f.path, err)
	}
	return tally(c.kind, lab.Events, lab.Duration, h, err)
}

// hearSingles hears a class of single clips strung into one stream: its
// hits are its clips.
func hearSingles(c *classDir, _ Labels, adjust func(*audio.Config)) fileResult {
	clips := make([]*PCM, len(c.files))
	for i, f := range c.files {
		p, err := ReadFLAC(f.path)
		if err != nil {
			return tally(c.kind, len(c.files), 0, nil, err)
		}
		clips[i] = p
	}
	x := StringSingles(clips)
	h, err := Listen(monoWAV(x, SinglesRate), c.kind != Noise, adjust)
	if err != nil {
		err = fmt.Errorf("%s/%s, its clips strung together: %w", c.source, c.name, err)
	}
	return tally(c.kind, len(c.files), float64(len(x))/SinglesRate, h, err)
}

// decodeMono decodes a recording and returns what tableref hears of it
// (PCM.Mono) at rate Hz.
func decodeMono(path string, rate int) ([]float64, error) {
	p, err := ReadFLAC(path)
	if err != nil {
		return nil, err
	}
	m, err := p.Mono()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return Resample(m, p.Rate, rate), nil
}

// Parallel runs fn(0) … fn(n-1) on workers goroutines.
func Parallel(workers, n int, fn func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				fn(i)
			}
		}()
	}
	wg.Wait()
}
