// Command robustness measures how well `tableref listen --json --wav FILE`
// hears gestures under the conditions a real party microphone produces
// (noise gates, digital silence, DC, hum, odd stereo pairs, other rates and
// formats, noise, babble, reverb, clipping), by transforming the labelled
// corpus deterministically, running the binary on every transformed file and
// scoring it as shared/tools/score-gestures does.
//
//	go run ./scripts/robustness [-files N] [-only a,b] [-j N] [-keep DIR] [-json] [-strict]
//	go run ./scripts/robustness -list
//
// See scripts/README.md.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"github.com/tableref/tableref/scripts/internal/corpuslabel"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/tableref/tableref/audio/mic/vmic"
)

// Targets from the issue.
const (
	plainF1, plainCodes = 0.99, 0.95
	otherF1, otherCodes = 0.97, 0.85
	otherMaxFalse       = 2
	noiseMaxPerMin      = 0.0
)

// issueFiles is the number of recordings the issue's "at most otherMaxFalse
// false gestures" was set on. A suite of more files may have proportionally
// more: the target is a rate, 2 in 60 recordings. A suite of fewer is held
// to the issue's count, never to less.
const issueFiles = 60

// maxFalse is how many false gestures a condition over files recordings may
// have.
func maxFalse(files int) float64 {
	return otherMaxFalse * max(1, float64(files)/issueFiles)
}

type options struct {
	corpora    []string
	noDefault  bool
	voices     string
	bin        string
	files      int
	only       []string
	jobs       int
	keep       string
	json       bool
	list       bool
	strict     bool
	seed       uint64
	noiseClips int
	noiseSecs  float64
}

// usageError is a bad command line: one line on stderr, exit 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// listFlag collects repeatable, comma-separated values.
type listFlag struct{ v *[]string }

func (l listFlag) String() string {
	if l.v == nil {
		return ""
	}
	return strings.Join(*l.v, ",")
}

func (l listFlag) Set(s string) error {
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			*l.v = append(*l.v, p)
		}
	}
	return nil
}

func parseFlags(args []string, stdout io.Writer) (*options, error) {
	o := &options{}
	fs := flag.NewFlagSet("robustness", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Var(listFlag{&o.corpora}, "corpus", "another labelled corpus `DIR` (NAME.wav + NAME.json, the format of shared/corpus) to add to ../shared/corpus/gestures; repeatable or comma-separated")
	fs.BoolVar(&o.noDefault, "no-default", false, "leave out ../shared/corpus/gestures: use only the -corpus directories")
	fs.StringVar(&o.voices, "voices", "", "voices corpus `DIR` for babble (default ../shared/corpus/voices beside the repository)")
	fs.StringVar(&o.bin, "bin", "", "tableref binary to test (default: go build ./cmd/tableref into a temporary directory)")
	fs.IntVar(&o.files, "files", 0, "use only the first `N` files of each corpus, sorted (default all)")
	fs.Var(listFlag{&o.only}, "only", "run only these conditions (comma-separated `names`; see -list)")
	fs.IntVar(&o.jobs, "j", runtime.NumCPU(), "parallel workers")
	fs.StringVar(&o.keep, "keep", "", "keep the generated WAVs and JSON labels in `DIR` (DIR/CONDITION/CORPUS/NAME.wav); default: a temporary directory, removed")
	fs.BoolVar(&o.json, "json", false, "print one JSON object per condition instead of the table")
	fs.BoolVar(&o.list, "list", false, "list the conditions and exit")
	fs.BoolVar(&o.strict, "strict", false, "exit 1 when any condition misses its target")
	fs.Uint64Var(&o.seed, "seed", 1, "base seed of every random choice")
	fs.IntVar(&o.noiseClips, "noise-clips", 20, "number of gated-noise clips")
	fs.Float64Var(&o.noiseSecs, "noise-seconds", 60, "length of each gated-noise clip, seconds")
	printUsage := func() {
		fmt.Fprintf(stdout, "usage: go run ./scripts/robustness [flags]\n\n"+
			"Transforms the labelled corpus under the conditions a party microphone produces, runs\n"+
			"`tableref listen --json --wav FILE` on every file and prints condition × F1, class accuracy,\n"+
			"codes exact and false gestures, scored as shared/tools/score-gestures does, then a verdict per\n"+
			"condition. Exit 0 (1 with -strict when a target is missed; 2 on a usage error).\n\nflags:\n")
		fs.SetOutput(stdout)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
	fs.Usage = func() {} // flag would print it on every error
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			printUsage()
			return nil, err
		}
		return nil, usageError{err.Error()}
	}
	if fs.NArg() > 0 {
		return nil, usageError{fmt.Sprintf("unexpected argument %q (corpora go with -corpus)", fs.Arg(0))}
	}
	if o.noDefault && len(o.corpora) == 0 {
		return nil, usageError{"-no-default needs at least one -corpus DIR"}
	}
	if o.files < 0 {
		return nil, usageError{"-files must be 0 (all) or more"}
	}
	if o.jobs < 1 {
		return nil, usageError{"-j must be at least 1"}
	}
	if o.noiseClips < 0 || o.noiseClips > 100 {
		return nil, usageError{"-noise-clips must be between 0 and 100"}
	}
	if !(o.noiseSecs >= 1 && o.noiseSecs <= 3600) {
		return nil, usageError{"-noise-seconds must be between 1 and 3600"}
	}
	known := map[string]bool{}
	for _, c := range conditions() {
		known[c.Name] = true
	}
	for _, n := range o.only {
		if !known[n] {
			return nil, usageError{fmt.Sprintf("unknown condition %q in -only (see -list)", n)}
		}
	}
	return o, nil
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	o, err := parseFlags(args, stdout)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	var ue usageError
	if errors.As(err, &ue) {
		fmt.Fprintf(stderr, "robustness: %s (see -help)\n", ue.msg)
		return 2
	}
	if o.list {
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
		for _, c := range conditions() {
			fmt.Fprintf(tw, "%s\t%s\n", c.Name, c.Desc)
		}
		tw.Flush()
		return 0
	}
	res, err := measure(ctx, o, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "robustness: %v\n", err)
		return 1
	}
	failed := report(res, o.json, stdout)
	if o.strict && failed > 0 {
		return 1
	}
	return 0
}

// repoRoot is the directory holding go.mod, above the working directory.
var repoRoot = vmic.ModuleRoot

// Row is one condition's result.
type Row struct {
	Cond    Condition
	Counts  Counts
	Seconds float64 // wall time from its first file started to its last finished
	Errors  []string
}

// corpusSet is one corpus directory's recordings.
type corpusSet struct {
	dir, name string
	recs      []*Recording
}

func measure(ctx context.Context, o *options, stderr io.Writer) ([]*Row, error) {
	t0 := time.Now()
	logf := func(format string, a ...any) {
		fmt.Fprintf(stderr, "robustness: "+format+"\n", a...)
	}
	conds := conditions()
	if len(o.only) > 0 {
		// in the order -only lists them
		byName := map[string]Condition{}
		for _, c := range conds {
			byName[c.Name] = c
		}
		var sel []Condition
		for _, n := range o.only {
			if c, ok := byName[n]; ok {
				sel = append(sel, c)
				delete(byName, n) // once each
			}
		}
		conds = sel
	}
	needVoices, needCorpus := false, false
	for _, c := range conds {
		needVoices = needVoices || c.NeedsVoices
		needCorpus = needCorpus || !c.NoGestures
	}

	root, rootErr := repoRoot()
	beside := func(rel string) (string, error) {
		if rootErr != nil {
			return "", rootErr
		}
		return filepath.Join(root, "..", "shared", "corpus", rel), nil
	}

	// a -bin that is not there fails before any work
	bin := o.bin
	if bin != "" {
		if st, err := os.Stat(bin); err != nil || st.IsDir() || st.Mode()&0o111 == 0 {
			return nil, fmt.Errorf("-bin %s: not an executable file", bin)
		}
		if abs, err := filepath.Abs(bin); err == nil {
			bin = abs
		}
	}

	// corpora: every directory listed first (a missing one fails at once), then decoded
	var sets []*corpusSet
	if needCorpus {
		var dirs []string
		if !o.noDefault {
			d, err := beside("gestures")
			if err != nil {
				return nil, err
			}
			dirs = append(dirs, d)
		}
		dirs = append(dirs, o.corpora...)
		seen := map[string]int{}
		var lists [][]string
		for _, d := range dirs {
			name := filepath.Base(filepath.Clean(d))
			if seen[name]++; seen[name] > 1 {
				name = fmt.Sprintf("%s-%d", name, seen[name])
			}
			files, err := listCorpus(d)
			if err != nil {
				return nil, err
			}
			if o.files > 0 && len(files) > o.files {
				files = files[:o.files]
			}
			sets = append(sets, &corpusSet{dir: d, name: name, recs: make([]*Recording, len(files))})
			lists = append(lists, files)
		}
		for k, s := range sets {
			if err := parallel(o.jobs, len(lists[k]), func(i int) error {
				r, err := loadRecording(s.name, lists[k][i])
				s.recs[i] = r
				return err
			}); err != nil {
				return nil, err
			}
			logf("corpus %s: %d files (%s)", s.name, len(s.recs), s.dir)
		}
	}
	var voices *Voices
	if needVoices {
		dir := o.voices
		if dir == "" {
			var err error
			if dir, err = beside("voices"); err != nil {
				return nil, err
			}
		}
		var err error
		if voices, err = loadVoices(dir); err != nil {
			return nil, fmt.Errorf("%v (babble and gated-noise need the voices corpus; -voices DIR, or leave them out with -only)", err)
		}
	}
	env := &Env{Voices: voices}

	// binary
	if bin == "" {
		if rootErr != nil {
			return nil, rootErr
		}
		bdir, err := os.MkdirTemp("", "robustness-bin-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(bdir)
		bin = filepath.Join(bdir, "tableref")
		logf("building ./cmd/tableref")
		cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/tableref")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			// the first line that says what is wrong (not a "# package" heading)
			msg := err.Error()
			for _, l := range strings.Split(string(out), "\n") {
				if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
					msg = l
					break
				}
			}
			return nil, fmt.Errorf("go build ./cmd/tableref failed: %s", msg)
		}
	}

	// work directory
	work := o.keep
	if work == "" {
		tmp, err := os.MkdirTemp("", "robustness-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		work = tmp
	} else if err := os.MkdirAll(work, 0o755); err != nil {
		return nil, err
	}

	// jobs, condition by condition
	type job struct {
		cond int
		set  string
		rec  *Recording // nil for a gated-noise clip
		clip int
	}
	nfiles := 0
	for _, s := range sets {
		nfiles += len(s.recs)
	}
	rows := make([]*Row, len(conds))
	var jobs []job
	first := make([]int, len(conds)) // each condition's jobs are jobs[first[ci]:first[ci]+count[ci]]
	count := make([]int, len(conds))
	for ci, c := range conds {
		rows[ci] = &Row{Cond: c}
		first[ci] = len(jobs)
		if c.NoGestures {
			for k := 0; k < o.noiseClips; k++ {
				jobs = append(jobs, job{cond: ci, set: "noise", clip: k})
			}
		} else {
			for _, s := range sets {
				for _, r := range s.recs {
					jobs = append(jobs, job{cond: ci, set: s.name, rec: r})
				}
			}
		}
		count[ci] = len(jobs) - first[ci]
	}
	extra := ""
	for _, c := range conds {
		if c.NoGestures {
			extra = fmt.Sprintf(" (gated-noise: %d clips of %g s)", o.noiseClips, o.noiseSecs)
		}
	}
	logf("%d conditions × %d files%s, %d workers, files in %s", len(conds), nfiles, extra, o.jobs, work)

	var mu sync.Mutex
	results := make([]Counts, len(jobs))
	errs := make([]string, len(jobs))
	left := append([]int(nil), count...)
	started := make([]time.Time, len(conds))
	warned := make([]int, len(conds))
	done := 0
	// finish adds a condition's results up in job order (so that the sums
	// do not depend on which worker finished first) and reports progress.
	finish := func(ci int) {
		done++
		r := rows[ci]
		for i := first[ci]; i < first[ci]+count[ci]; i++ {
			r.Counts.add(results[i])
			if errs[i] != "" {
				r.Errors = append(r.Errors, errs[i])
			}
		}
		if !started[ci].IsZero() {
			r.Seconds = time.Since(started[ci]).Seconds()
		}
		logf("[%2d/%d] %-20s %3d files  %6.1f s  (elapsed %.1f s)", done, len(conds), r.Cond.Name, r.Counts.Files, r.Seconds, time.Since(t0).Seconds())
	}
	for ci := range conds {
		if count[ci] == 0 {
			finish(ci)
		}
	}
	noiseRates := []int{44100, 16000, 48000, 22050}
	err := parallel(o.jobs, len(jobs), func(i int) error {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		j := jobs[i]
		cond := conds[j.cond]
		mu.Lock()
		if started[j.cond].IsZero() {
			started[j.cond] = time.Now()
		}
		mu.Unlock()

		var clip *Clip
		var name string
		var err error
		if j.rec == nil {
			name = fmt.Sprintf("noise-%02d", j.clip)
			rng := seedFor(o.seed, name, cond.Name)
			clip, err = gatedNoise(env.Voices, o.noiseSecs, noiseRates[j.clip%len(noiseRates)], rng, !conds[j.cond].Ungated)
		} else {
			name = j.rec.Name
			rng := seedFor(o.seed, j.set+"/"+j.rec.Name, cond.Name)
			clip = &Clip{Rate: j.rec.Rate, Ch: [][]float64{append([]float64(nil), j.rec.Mono...)}, Lab: corpuslabel.Clone(j.rec.Lab), Format: Int16}
			clip, err = cond.Apply(clip, rng, env)
		}
		if err != nil {
			return fmt.Errorf("%s on %s/%s: %v", cond.Name, j.set, name, err)
		}
		dir := filepath.Join(work, cond.Name, j.set)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		wavPath := filepath.Join(dir, name+".wav")
		lab := clip.Lab
		lab.File = name + ".wav"
		lab.SampleRate, lab.Channels, lab.Bits = clip.Rate, len(clip.Ch), clip.Format.Bits
		lab.Duration = roundTo(clip.seconds(), 4)
		lab.Condition = cond.Name
		if err := writeWAV(wavPath, clip.Rate, clip.Ch, clip.Format); err != nil {
			return fmt.Errorf("writing %s: %v", wavPath, err)
		}
		clip = nil // let the samples go before the binary runs
		if o.keep != "" {
			if err := writeLabels(filepath.Join(dir, name+".json"), lab); err != nil {
				return err
			}
		}
		rep, rerr := listen(ctx, bin, wavPath)
		if o.keep == "" {
			os.Remove(wavPath)
		}
		if rerr != nil && ctx.Err() != nil {
			return ctx.Err()
		}
		results[i] = scoreFile(lab, rep)
		mu.Lock()
		defer mu.Unlock()
		if rerr != nil {
			errs[i] = fmt.Sprintf("%s: tableref failed on %s/%s: %v", cond.Name, j.set, name, rerr)
			if warned[j.cond]++; warned[j.cond] <= 3 {
				logf("%s", errs[i])
			}
		}
		left[j.cond]--
		if left[j.cond] == 0 {
			finish(j.cond)
		}
		return nil
	})
	if err != nil {
		if ctx.Err() != nil {
			return nil, errors.New("interrupted")
		}
		return nil, err
	}
	logf("done in %.1f s", time.Since(t0).Seconds())
	return rows, nil
}

// parallel runs f(0..n-1) on k workers, in order of i; the first error
// stops the handing out of further work and is returned.
func parallel(k, n int, f func(i int) error) error {
	var (
		mu    sync.Mutex
		next  int
		first error
		wg    sync.WaitGroup
	)
	for w := 0; w < min(k, n); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				if first != nil || next >= n {
					mu.Unlock()
					return
				}
				i := next
				next++
				mu.Unlock()
				if err := f(i); err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
					return
				}
			}
		}()
	}
	wg.Wait()
	return first
}

func roundTo(x float64, digits int) float64 {
	p, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', digits, 64), 64)
	return p
}

// verdict checks a row against the issue's targets.
func verdict(r *Row) (pass bool, why []string) {
	c := r.Counts
	switch {
	case r.Cond.NoGestures:
		if c.FalsePerMin() > noiseMaxPerMin {
			why = append(why, fmt.Sprintf("%.2f false gestures per minute > %g", c.FalsePerMin(), noiseMaxPerMin))
		}
	case r.Cond.Name == "plain":
		if c.F1() < plainF1 {
			why = append(why, fmt.Sprintf("F1 %.3f < %.2f", c.F1(), plainF1))
		}
		if c.CodeExact() < plainCodes {
			why = append(why, fmt.Sprintf("codes %.3f < %.2f", c.CodeExact(), plainCodes))
		}
	default:
		if c.F1() < otherF1 {
			why = append(why, fmt.Sprintf("F1 %.3f < %.2f", c.F1(), otherF1))
		}
		if c.CodeExact() < otherCodes {
			why = append(why, fmt.Sprintf("codes %.3f < %.2f", c.CodeExact(), otherCodes))
		}
		if lim := maxFalse(c.Files); float64(c.NoiseFP) > lim {
			why = append(why, fmt.Sprintf("%d false gestures > %.1f (%d per %d files)", c.NoiseFP, lim, otherMaxFalse, issueFiles))
		}
	}
	if c.Failed > 0 {
		why = append(why, fmt.Sprintf("tableref failed on %d files", c.Failed))
	}
	if c.Files == 0 {
		why = append(why, "no files")
	}
	return len(why) == 0, why
}

// report prints the table (or JSON lines) and returns how many conditions failed.
func report(rows []*Row, asJSON bool, w io.Writer) int {
	failed := 0
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		for _, r := range rows {
			pass, why := verdict(r)
			if !pass {
				failed++
			}
			c := r.Counts
			obj := struct {
				Condition string `json:"condition"`
				Counts
				F1          float64  `json:"f1"`
				ClassAcc    float64  `json:"class_acc"`
				CodeExact   float64  `json:"code_exact"`
				FalsePerMin *float64 `json:"false_per_min,omitempty"`
				Pass        bool     `json:"pass"`
				Why         []string `json:"why,omitempty"`
				Wall        float64  `json:"wall_s"`
			}{Condition: r.Cond.Name, Counts: c, F1: roundTo(c.F1(), 4), ClassAcc: roundTo(c.ClassAcc(), 4),
				CodeExact: roundTo(c.CodeExact(), 4), Pass: pass, Why: why, Wall: roundTo(r.Seconds, 2)}
			obj.Counts.Seconds = roundTo(c.Seconds, 3)
			if r.Cond.NoGestures {
				v := roundTo(c.FalsePerMin(), 3)
				obj.FalsePerMin = &v
			}
			enc.Encode(obj)
		}
		return failed
	}
	const rowFmt = "%-20s %5s %8s %6s %9s  %-17s %7s %9s\n"
	fmt.Fprintf(w, rowFmt, "condition", "files", "gestures", "F1", "class acc", "codes exact", "false", "unmatched")
	for _, r := range rows {
		c := r.Counts
		if r.Cond.NoGestures {
			fmt.Fprintf(w, rowFmt, r.Cond.Name, strconv.Itoa(c.Files), strconv.Itoa(c.Gestures), "-", "-", "-",
				fmt.Sprintf("%.2f/min", c.FalsePerMin()), strconv.Itoa(c.FP))
			continue
		}
		fmt.Fprintf(w, rowFmt, r.Cond.Name, strconv.Itoa(c.Files), strconv.Itoa(c.Gestures),
			fmt.Sprintf("%.3f", c.F1()), fmt.Sprintf("%.3f", c.ClassAcc()),
			fmt.Sprintf("%.3f (%d/%d)", c.CodeExact(), c.Exact, c.Codes), strconv.Itoa(c.NoiseFP), strconv.Itoa(c.FP))
	}
	files := 0
	for _, r := range rows {
		if !r.Cond.NoGestures {
			files = max(files, r.Counts.Files)
		}
	}
	fmt.Fprintf(w, "\nverdicts (plain: F1 ≥ %.2f, codes ≥ %.2f; others: F1 ≥ %.2f, codes ≥ %.2f, false ≤ %d per %d files, so ≤ %.1f for %d; gated-noise: %g false/min)\n",
		plainF1, plainCodes, otherF1, otherCodes, otherMaxFalse, issueFiles, maxFalse(files), files, noiseMaxPerMin)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, r := range rows {
		pass, why := verdict(r)
		mark := "PASS"
		if !pass {
			mark = "FAIL"
			failed++
		}
		if len(why) == 0 {
			fmt.Fprintf(tw, "%s\t%s\n", r.Cond.Name, mark)
		} else {
			fmt.Fprintf(tw, "%s\t%s\t%s\n", r.Cond.Name, mark, strings.Join(why, "; "))
		}
	}
	tw.Flush()
	fmt.Fprintf(w, "%d of %d conditions pass\n", len(rows)-failed, len(rows))
	return failed
}
