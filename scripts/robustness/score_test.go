package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestMatchAndScore(t *testing.T) {
	// binary fractions, so that distances compare exactly
	lab := &Labels{
		Onsets: []Onset{{T: 1.0, Kind: "clap"}, {T: 1.0625, Kind: "bang"}, {T: 2.0, Kind: "bang"}, {T: 5.0, Kind: "clap"}},
		Codes: []Code{
			{Start: 1.0, End: 2.0, Bangs: 2, Claps: 1},
			{Start: 5.0, End: 5.0, Claps: 1},
		},
		Speech:      [][2]float64{{3, 4}},
		Distractors: []Distractor{{T: 6, Kind: "glass"}},
		Duration:    10,
	}
	rep := Reported{OK: true,
		Gestures: []Onset{
			{T: 1.03125, Kind: "clap"},   // as near 1.0 as 1.0625: the tie goes to the first labelled onset
			{T: 2.0078125, Kind: "clap"}, // matched, wrong class
			{T: 2.0625, Kind: "bang"},    // too far: unmatched, not in speech
			{T: 3.5, Kind: "clap"},       // in speech: false
			{T: 5.9375, Kind: "bang"},    // in the clink's window (5.9 to 6.3): false
			{T: 6.3125, Kind: "clap"},    // after the clink's window: unmatched only
			{T: 4.999, Kind: "clap"},     // matched
		},
		Codes: []Code{
			{Start: 1.03125, End: 2.0625, Bangs: 2, Claps: 1},
			{Start: 4.999, End: 4.999, Bangs: 1, Claps: 0}, // wrong counts
			{Start: 8, End: 9, Claps: 1},                   // extra
		},
	}
	c := scoreFile(lab, rep)
	want := Counts{Files: 1, Gestures: 4, Reported: 7, TP: 3, FP: 4, FN: 1, Cls: 2, Codes: 2, Exact: 1, ExtraCodes: 1, NoiseFP: 2, Seconds: 10}
	if c != want {
		t.Errorf("got  %+v\nwant %+v", c, want)
	}
	pairs, _ := matchOnsets(lab.Onsets, rep.Gestures)
	if fmt.Sprint(pairs) != "[[3 6] [2 1] [0 0]]" {
		t.Errorf("pairs %v", pairs)
	}
	// a failed run: everything missed, counted as failed
	c = scoreFile(lab, Reported{})
	if c.TP != 0 || c.FN != 4 || c.Failed != 1 || c.Exact != 0 {
		t.Errorf("failed run scored %+v", c)
	}
	if f := (Counts{TP: 3, FP: 4, FN: 1}).F1(); math.Abs(f-6.0/11) > 1e-12 {
		t.Errorf("F1 %g", f)
	}
}

func TestParseEvents(t *testing.T) {
	out := `{"event":"start","rate":44100}
not json
{"event":"onset","t":1.5,"kind":"clap","strength":3}
{"event":"onset","t":1.7,"kind":"other"}
{"event":"onset","t":1.9,"kind":"bang"}
{"event":"code","start":1.5,"end":1.9,"bangs":1,"claps":1,"order":"CB"}
{"event":"end","t":3}
`
	r := parseEvents([]byte(out))
	if len(r.Gestures) != 2 || r.Gestures[1] != (Onset{T: 1.9, Kind: "bang"}) || len(r.Codes) != 1 || r.Codes[0].Bangs != 1 || !r.OK {
		t.Errorf("parsed %+v", r)
	}
}

// ---- against the real binary and shared/tools/score-gestures ----

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// sharedDir is ../shared beside the repository, or skips (fails with
// TABLEREF_REQUIRE_SHARED=1) when it or python3 is missing.
func sharedDir(t *testing.T, needPython bool) string {
	t.Helper()
	skip := func(why string) {
		if os.Getenv("TABLEREF_REQUIRE_SHARED") == "1" {
			t.Fatalf("%s (TABLEREF_REQUIRE_SHARED=1)", why)
		}
		t.Skip(why)
	}
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "..", "shared")
	if _, err := os.Stat(filepath.Join(dir, "corpus", "gestures")); err != nil {
		skip("no ../shared/corpus/gestures beside the repository")
	}
	if needPython {
		if _, err := exec.LookPath("python3"); err != nil {
			skip("python3 is not installed")
		}
		if _, err := os.Stat(filepath.Join(dir, "tools", "score-gestures")); err != nil {
			skip("no ../shared/tools/score-gestures")
		}
	}
	return dir
}

// tableref builds the binary once for all tests.
func tableref(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		root, err := repoRoot()
		if err != nil {
			binErr = err
			return
		}
		dir, err := os.MkdirTemp("", "robustness-test-")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "tableref")
		cmd := exec.Command("go", "build", "-o", binPath, "./cmd/tableref")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binPath != "" {
		os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}

// pyScore runs score-gestures on dir and returns its per-tier JSON.
func pyScore(t *testing.T, shared, dir, bin string) map[string]map[string]float64 {
	t.Helper()
	cmd := exec.Command("python3", filepath.Join(shared, "tools", "score-gestures"), dir, "--cmd", bin+" listen --json --wav {}")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("score-gestures: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &raw); err != nil {
		t.Fatalf("score-gestures' last line: %v\n%s", err, out)
	}
	res := map[string]map[string]float64{}
	for k, v := range raw {
		var m map[string]float64
		if json.Unmarshal(v, &m) == nil {
			res[k] = m
		}
	}
	return res
}

// goScore scores dir with our scorer, per tier and "all".
func goScore(t *testing.T, dir, bin string) map[string]Counts {
	t.Helper()
	files, err := listCorpus(dir)
	if err != nil {
		t.Fatal(err)
	}
	res := map[string]Counts{}
	for _, f := range files {
		lab, err := readLabels(f)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := listen(context.Background(), bin, filepath.Join(dir, lab.File))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		c := scoreFile(lab, rep)
		tier := res[lab.Tier]
		tier.add(c)
		res[lab.Tier] = tier
		all := res["all"]
		all.add(c)
		res["all"] = all
	}
	return res
}

func compareScores(t *testing.T, py map[string]map[string]float64, gos map[string]Counts) {
	t.Helper()
	if len(gos) == 0 {
		t.Fatal("nothing scored")
	}
	for tier, c := range gos {
		p, ok := py[tier]
		if !ok {
			t.Errorf("score-gestures has no row %q", tier)
			continue
		}
		near := func(name string, got float64) {
			if math.Abs(got-p[name]) > 0.00005+1e-12 {
				t.Errorf("%s %s: ours %.6f, score-gestures %.4f", tier, name, got, p[name])
			}
		}
		near("f1", c.F1())
		near("cls_acc", c.ClassAcc())
		near("code_exact", c.CodeExact())
		for name, got := range map[string]int{"fp": c.FP, "fn": c.FN, "noise_fp": c.NoiseFP, "extra_codes": c.ExtraCodes, "files": c.Files} {
			if float64(got) != p[name] {
				t.Errorf("%s %s: ours %d, score-gestures %g", tier, name, got, p[name])
			}
		}
		t.Logf("%-6s %s", tier, c)
	}
}

func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestAgainstScoreGestures scores six corpus files with our scorer and with
// score-gestures, the same binary for both, and wants the same figures.
func TestAgainstScoreGestures(t *testing.T) {
	shared := sharedDir(t, true)
	bin := tableref(t)
	src := filepath.Join(shared, "corpus", "gestures")
	files, err := listCorpus(src)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range files[:min(6, len(files))] {
		lab, err := readLabels(f)
		if err != nil {
			t.Fatal(err)
		}
		copyFile(t, f, filepath.Join(dir, filepath.Base(f)))
		copyFile(t, filepath.Join(src, lab.File), filepath.Join(dir, lab.File))
	}
	compareScores(t, pyScore(t, shared, dir, bin), goScore(t, dir, bin))
}

// TestTransformedAgainstScoreGestures runs the command on three files under
// conditions that make false gestures, keeps what it made, and wants
// score-gestures to agree with the figures it printed (so the labels we
// write are the corpus format, shifted correctly).
func TestTransformedAgainstScoreGestures(t *testing.T) {
	shared := sharedDir(t, true)
	bin := tableref(t)
	keep := t.TempDir()
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"-files", "3", "-only", "gate-duck30,zeros-between,rate-8k", "-bin", bin, "-keep", keep, "-json", "-j", "2"}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errb.String())
	}
	rows := map[string]map[string]any{}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("bad JSON line %q", line)
		}
		rows[m["condition"].(string)] = m
	}
	for _, cond := range []string{"gate-duck30", "zeros-between", "rate-8k"} {
		dir := filepath.Join(keep, cond, "gestures")
		py := pyScore(t, shared, dir, bin)["all"]
		r := rows[cond]
		if r == nil {
			t.Fatalf("no row for %s", cond)
		}
		for py1, ours := range map[string]string{"f1": "f1", "cls_acc": "class_acc", "code_exact": "code_exact", "fp": "fp", "fn": "fn", "noise_fp": "false", "extra_codes": "extra_codes", "files": "files"} {
			if math.Abs(py[py1]-r[ours].(float64)) > 1e-9 {
				t.Errorf("%s %s: ours %v, score-gestures %v", cond, py1, r[ours], py[py1])
			}
		}
	}
}

func TestCommandLine(t *testing.T) {
	try := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := run(context.Background(), args, &out, &errb)
		return code, out.String(), errb.String()
	}
	if code, out, _ := try("-list"); code != 0 || !strings.Contains(out, "gate-zero-fast") || strings.Count(out, "\n") != len(conditions()) {
		t.Errorf("-list: exit %d\n%s", code, out)
	}
	if code, out, _ := try("--help"); code != 0 || !strings.Contains(out, "usage:") || !strings.Contains(out, "-only") {
		t.Errorf("--help: exit %d\n%s", code, out)
	}
	for _, args := range [][]string{{"-only", "nope"}, {"-no-default"}, {"-j", "0"}, {"-files", "-1"}, {"-bogus"}, {"extra"}} {
		code, _, errb := try(args...)
		if code != 2 || strings.Count(errb, "\n") != 1 || !strings.HasPrefix(errb, "robustness: ") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errb)
		}
	}
	code, _, errb := try("-no-default", "-corpus", filepath.Join(t.TempDir(), "missing"), "-only", "plain", "-bin", "/bin/true")
	if code != 1 || strings.Count(errb, "\n") != 1 || !strings.Contains(errb, "missing") {
		t.Errorf("missing corpus: exit %d, stderr %q", code, errb)
	}
	// an unreadable WAV: one line naming it
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.json"), []byte(`{"tier":"clean","onsets":[],"codes":[],"file":"a.wav"}`), 0o644)
	os.WriteFile(filepath.Join(dir, "a.wav"), []byte("not a wav"), 0o644)
	code, _, errb = try("-no-default", "-corpus", dir, "-only", "plain", "-bin", "/bin/true")
	if code != 1 || strings.Count(errb, "\n") != 1 || !strings.Contains(errb, "a.wav") {
		t.Errorf("bad WAV: exit %d, stderr %q", code, errb)
	}
	// a binary that fails: a warning per file, counted, no panic
	writeWAV(filepath.Join(dir, "a.wav"), 16000, [][]float64{make([]float64, 16000)}, Int16)
	code, out, errb := try("-no-default", "-corpus", dir, "-only", "plain,dc-0.01", "-bin", "/bin/false", "-strict")
	if code != 1 || !strings.Contains(errb, "tableref failed on") || !strings.Contains(out, "FAIL") {
		t.Errorf("failing binary: exit %d\n%s\n%s", code, out, errb)
	}
	if code, _, errb := try("-only", "plain", "-bin", filepath.Join(dir, "nothing")); code != 1 || strings.Count(errb, "\n") != 1 {
		t.Errorf("missing binary: exit %d, stderr %q", code, errb)
	}
}
