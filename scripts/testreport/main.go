// Command testreport turns `go test -json` into what a person running the
// suite wants to see: one line per package as it finishes, a word every
// half minute about what is still running, the output of every failed test,
// and at the end what was not tested (every skipped test, grouped by its
// reason) and the slowest tests.
//
//	go test -json ./... | go run ./scripts/testreport -step "go test" -record results.jsonl
//	go run ./scripts/testreport -summary results.jsonl [-no-skips]
//
// A step is one `go test -json` run; -record appends its results to a file
// so that -summary can report on several steps at once. The step exits 1
// when a test or a build failed (so does -summary, and -no-skips makes a
// skipped test a failure too: CI must not skip anything). We write our own
// rather than use gotestsum because what we need from it is its least part
// (the JSON events are a documented, stable format: go doc test2json) and
// what matters here is not in it: skips grouped by reason, forbidden in CI,
// and a heartbeat while one long package runs.
package main

import (
	"bufio"
	"cmp"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"
)

func main() {
	step := flag.String("step", "go test", "the name of this step, in the lines it prints and its record")
	record := flag.String("record", "", "append this step's results (JSON lines) to `FILE`")
	summary := flag.String("summary", "", "print the summary of the results recorded in `FILE` instead of reading a step")
	noSkips := flag.Bool("no-skips", false, "with -summary: a skipped test fails the run")
	heartbeat := flag.Duration("heartbeat", 30*time.Second, "say what is still running after this long without news")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: go test -json ... | testreport [-step NAME] [-record FILE]\n       testreport -summary FILE [-no-skips]\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	if *summary != "" {
		f, err := os.Open(*summary)
		if err != nil {
			fmt.Fprintf(os.Stderr, "testreport: %v\n", err)
			os.Exit(2)
		}
		defer f.Close()
		results, err := readResults(f)
		if err != nil {
			fmt.Fprintf(os.Stderr, "testreport: %s: %v\n", *summary, err)
			os.Exit(2)
		}
		if !summarize(os.Stdout, results, *noSkips) {
			os.Exit(1)
		}
		return
	}
	r := newRun(*step, os.Stdout, time.Now)
	ok := r.follow(os.Stdin, *heartbeat)
	if *record != "" {
		if err := r.save(*record); err != nil {
			fmt.Fprintf(os.Stderr, "testreport: %v\n", err)
			os.Exit(2)
		}
	}
	if !ok {
		os.Exit(1)
	}
}

// event is one line of `go test -json` (go doc test2json).
type event struct {
	Time        time.Time
	Action      string
	Package     string
	ImportPath  string // of build-output and build-fail: "PKG" or "PKG [PKG.test]"
	Test        string
	Elapsed     float64
	Output      string
	FailedBuild string // of a package's fail: the package that did not build
}

// Result is what a step records of one test (or of a package that failed
// outside its tests, with Test empty).
type Result struct {
	Step    string  `json:"step"`
	Package string  `json:"package"`
	Test    string  `json:"test,omitempty"`
	Action  string  `json:"action"` // pass, fail, skip
	Seconds float64 `json:"seconds"`
	Reason  string  `json:"reason,omitempty"` // why it was skipped
}

// run follows one step's events.
type run struct {
	step    string
	out     io.Writer
	now     func() time.Time
	began   time.Time
	news    time.Time           // when a line was last printed
	output  map[string][]string // package\x00test -> its output lines
	started map[string]time.Time
	running map[string]map[string]time.Time // package -> test -> started
	done    map[string]bool
	results []Result
	failed  bool
	pkgs    int
}

func newRun(step string, out io.Writer, now func() time.Time) *run {
	t := now()
	return &run{step: step, out: out, now: now, began: t, news: t,
		output: map[string][]string{}, started: map[string]time.Time{}, running: map[string]map[string]time.Time{}, done: map[string]bool{}}
}

// follow reads events until in ends, printing as it goes, and says whether
// everything passed. Lines that are not JSON (a build error printed before
// the events) are passed through.
func (r *run) follow(in io.Reader, heartbeat time.Duration) bool {
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(in)
		sc.Buffer(make([]byte, 0, 64*1024), 16*1024*1024)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		select {
		case line, more := <-lines:
			if !more {
				r.finish()
				return !r.failed
			}
			r.line(line)
		case <-tick.C:
			if heartbeat > 0 && r.now().Sub(r.news) >= heartbeat {
				r.stillRunning()
			}
		}
	}
}

func (r *run) say(format string, args ...any) {
	fmt.Fprintf(r.out, format+"\n", args...)
	r.news = r.now()
}

func (r *run) line(line string) {
	var e event
	if !strings.HasPrefix(strings.TrimSpace(line), "{") || json.Unmarshal([]byte(line), &e) != nil || e.Action == "" {
		if strings.TrimSpace(line) != "" {
			r.say("%s", line)
		}
		return
	}
	r.event(e)
}

func key(pkg, test string) string { return pkg + "\x00" + test }

func (r *run) event(e event) {
	k := key(e.Package, e.Test)
	switch e.Action {
	case "start":
		r.started[e.Package] = r.now()
	case "run":
		if r.running[e.Package] == nil {
			r.running[e.Package] = map[string]time.Time{}
		}
		r.running[e.Package][e.Test] = r.now()
	case "output":
		r.output[k] = append(r.output[k], e.Output)
	case "build-output":
		k = key("build", e.ImportPath)
		r.output[k] = append(r.output[k], e.Output)
	case "build-fail":
		r.failed = true
		pkg, _, _ := strings.Cut(e.ImportPath, " ")
		r.say("  FAIL  %s does not build:", short(pkg))
		r.dump("build", e.ImportPath)
	case "pass", "fail", "skip":
		if e.Test == "" {
			r.packageDone(e)
			return
		}
		delete(r.running[e.Package], e.Test)
		res := Result{Step: r.step, Package: e.Package, Test: e.Test, Action: e.Action, Seconds: e.Elapsed}
		if e.Action == "skip" {
			res.Reason = skipReason(r.output[k])
		}
		if e.Action == "fail" {
			r.failed = true
			// A parent fails with its failed subtest: show the subtest only.
			if !r.failedChild(e.Package, e.Test) {
				r.say("  FAIL  %s %s (%.1f s):", short(e.Package), e.Test, e.Elapsed)
				r.dump(e.Package, e.Test)
			}
		}
		if e.Action != "fail" {
			delete(r.output, k) // keep memory small: only failures are shown
		}
		r.results = append(r.results, res)
	}
}

// failedChild says whether a subtest of test has failed already.
func (r *run) failedChild(pkg, test string) bool {
	for _, res := range r.results {
		if res.Package == pkg && res.Action == "fail" && strings.HasPrefix(res.Test, test+"/") {
			return true
		}
	}
	return false
}

func (r *run) dump(pkg, test string) {
	for _, l := range r.output[key(pkg, test)] {
		fmt.Fprint(r.out, "        ", strings.TrimPrefix(l, "    "))
	}
	r.news = r.now()
}

func (r *run) packageDone(e event) {
	r.done[e.Package] = true
	delete(r.running, e.Package)
	var tests, skipped, failed int
	for _, res := range r.results {
		if res.Package != e.Package || res.Test == "" {
			continue
		}
		tests++
		switch res.Action {
		case "skip":
			skipped++
		case "fail":
			failed++
		}
	}
	out := r.output[key(e.Package, "")]
	if e.Action == "skip" || (tests == 0 && noTestFiles(out)) {
		return // no test files: nothing to say
	}
	r.pkgs++
	note := fmt.Sprintf("%d test%s", tests, plural(tests))
	if skipped > 0 {
		note += fmt.Sprintf(", %d skipped", skipped)
	}
	if e.Action == "fail" {
		r.failed = true
		if failed > 0 {
			note += fmt.Sprintf(", %d failed", failed)
		}
		if e.FailedBuild != "" {
			note = "did not build"
		}
		r.say("  FAIL  %-40s %6.1f s  %s  [%s]", short(e.Package), e.Elapsed, note, r.clock())
		if failed == 0 { // it failed outside its tests: a panic, a timeout, a build
			if e.FailedBuild == "" {
				r.dump(e.Package, "")
			}
			r.results = append(r.results, Result{Step: r.step, Package: e.Package, Action: "fail", Seconds: e.Elapsed})
		}
		return
	}
	r.say("  ok    %-40s %6.1f s  %s  [%s]", short(e.Package), e.Elapsed, note, r.clock())
	delete(r.output, key(e.Package, ""))
}

func noTestFiles(out []string) bool {
	for _, l := range out {
		if strings.Contains(l, "[no test files]") {
			return true
		}
	}
	return false
}

func (r *run) clock() string { return round(r.now().Sub(r.began)).String() }

func round(d time.Duration) time.Duration {
	if d > time.Minute {
		return d.Round(time.Second)
	}
	return d.Round(100 * time.Millisecond)
}

// stillRunning says which packages are running and their longest test.
func (r *run) stillRunning() {
	var parts []string
	for pkg, began := range r.started {
		if r.done[pkg] {
			continue
		}
		part := fmt.Sprintf("%s (%s)", short(pkg), round(r.now().Sub(began)))
		longest, since := "", r.now()
		for test, at := range r.running[pkg] {
			if at.Before(since) || (at.Equal(since) && test < longest) {
				longest, since = test, at
			}
		}
		if longest != "" {
			part = fmt.Sprintf("%s (%s; %s for %s)", short(pkg), round(r.now().Sub(began)), longest, round(r.now().Sub(since)))
		}
		parts = append(parts, part)
	}
	if len(parts) == 0 {
		r.say("  …     building  [%s]", r.clock())
		return
	}
	slices.Sort(parts)
	r.say("  …     still running: %s  [%s]", strings.Join(parts, ", "), r.clock())
}

func (r *run) finish() {
	// A package that started and never ended: the stream was cut (killed).
	for pkg := range r.started {
		if !r.done[pkg] {
			r.failed = true
			r.say("  FAIL  %s did not finish", short(pkg))
			r.dump(pkg, "")
			r.results = append(r.results, Result{Step: r.step, Package: pkg, Action: "fail"})
		}
	}
	var pass, fail, skip int
	for _, res := range r.results {
		switch {
		case res.Test == "":
		case res.Action == "pass":
			pass++
		case res.Action == "fail":
			fail++
		case res.Action == "skip":
			skip++
		}
	}
	status := "ok"
	if r.failed {
		status = "FAILED"
	}
	r.say("  %s: %s — %d passed, %d failed, %d skipped in %d package%s, %s", r.step, status, pass, fail, skip, r.pkgs, plural(r.pkgs), r.clock())
}

func (r *run) save(path string) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	for _, res := range r.results {
		if err := enc.Encode(res); err != nil {
			f.Close()
			return err
		}
	}
	return f.Close()
}

// skipReason is what a skipped test said last (t.Skip's message, with the
// lines it may run on), without go test's own lines and the file:line
// prefix of the message.
func skipReason(lines []string) string {
	var said []string
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "=== ") || strings.HasPrefix(t, "--- ") {
			continue
		}
		if i := strings.Index(t, ": "); i > 0 && strings.Contains(t[:i], ".go:") && !strings.Contains(t[:i], " ") {
			said = []string{t[i+2:]} // a new message: the last one is the reason
			continue
		}
		said = append(said, t)
	}
	if len(said) == 0 {
		return "(no reason given)"
	}
	return strings.Join(said, " ")
}

func readResults(in io.Reader) ([]Result, error) {
	var out []Result
	dec := json.NewDecoder(in)
	for {
		var r Result
		err := dec.Decode(&r)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
}

// summarize prints the whole run's totals, every skipped test grouped by
// its reason, and the slowest tests; it says whether the run passed.
func summarize(w io.Writer, results []Result, noSkips bool) bool {
	var pass, fail, skip int
	var failed []string
	reasons := map[string][]string{}
	var order []string
	for _, r := range results {
		name := short(r.Package)
		if r.Test != "" {
			name += " " + r.Test
		}
		switch r.Action {
		case "pass":
			pass++
		case "fail":
			if r.Test != "" {
				fail++
			}
			failed = append(failed, name+" ("+r.Step+")")
		case "skip":
			skip++
			if _, seen := reasons[r.Reason]; !seen {
				order = append(order, r.Reason)
			}
			reasons[r.Reason] = append(reasons[r.Reason], name)
		}
	}
	fmt.Fprintf(w, "\n== Summary: %d passed, %d failed, %d skipped\n", pass, fail, skip)
	if len(failed) > 0 {
		fmt.Fprintf(w, "Failed:\n")
		for _, f := range failed {
			fmt.Fprintf(w, "  %s\n", f)
		}
	}
	if skip > 0 {
		fmt.Fprintf(w, "Not tested (%d skipped):\n", skip)
		for _, reason := range order {
			names := reasons[reason]
			fmt.Fprintf(w, "  %d skipped: %s\n", len(names), reason)
			const most = 6
			for i, n := range names {
				if i == most {
					fmt.Fprintf(w, "      … and %d more\n", len(names)-most)
					break
				}
				fmt.Fprintf(w, "      %s\n", n)
			}
		}
	} else {
		fmt.Fprintf(w, "Nothing was skipped.\n")
	}
	slow := slowest(results, 5)
	if len(slow) > 0 {
		fmt.Fprintf(w, "Slowest tests:\n")
		for _, r := range slow {
			fmt.Fprintf(w, "  %6.1f s  %s %s\n", r.Seconds, short(r.Package), r.Test)
		}
	}
	ok := len(failed) == 0
	if noSkips && skip > 0 {
		fmt.Fprintf(w, "Skipped tests are failures here (TABLEREF_REQUIRE_SHARED=1): install what they need, or run them in a step of their own.\n")
		ok = false
	}
	return ok
}

// slowest is the n slowest top-level tests.
func slowest(results []Result, n int) []Result {
	var top []Result
	for _, r := range results {
		if r.Test == "" || strings.Contains(r.Test, "/") || r.Action == "skip" || r.Seconds < 0.1 {
			continue
		}
		top = append(top, r)
	}
	slices.SortStableFunc(top, func(a, b Result) int { return cmp.Compare(b.Seconds, a.Seconds) })
	if len(top) > n {
		top = top[:n]
	}
	return top
}

const module = "github.com/tableref/tableref/"

// short is a package's path within the module.
func short(pkg string) string {
	if s := strings.TrimPrefix(pkg, module); s != pkg {
		return s
	}
	if pkg == strings.TrimSuffix(module, "/") {
		return "."
	}
	return pkg
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
