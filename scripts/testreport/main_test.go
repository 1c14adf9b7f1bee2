package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fixtureJSON runs the real go test -json on testdata/fixture: a package
// that passes with skips, one with failures, one that does not build and
// one without tests.
func fixtureJSON(t *testing.T) []byte {
	t.Helper()
	cmd := exec.Command("go", "test", "-count=1", "-json", "./...")
	cmd.Dir = filepath.Join("testdata", "fixture")
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GOWORK=off")
	out, err := cmd.CombinedOutput()
	require.Error(t, err, "the fixture has failing tests")
	return out
}

func TestAStepReportsPackagesFailuresAndRecordsSkips(t *testing.T) {
	var out bytes.Buffer
	r := newRun("fixture", &out, time.Now)
	ok := r.follow(bytes.NewReader(fixtureJSON(t)), 0)
	assert.False(t, ok)
	text := out.String()
	assert.Regexp(t, `(?m)^  ok    fixture/good\s.*7 tests, 4 skipped`, text)
	assert.Regexp(t, `(?m)^  FAIL  fixture/bad\s.*5 tests, 3 failed`, text)
	assert.Contains(t, text, "  FAIL  fixture/broken does not build:")
	assert.Contains(t, text, "undefined: undefinedThing")
	assert.Contains(t, text, "  FAIL  fixture/bad TestFails")
	assert.Contains(t, text, "bad_test.go:7: wanted 2, got 3")
	assert.Contains(t, text, "  FAIL  fixture/bad TestHasAFailedSubtest/broken")
	assert.Contains(t, text, "the subtest's own words")
	assert.NotContains(t, text, "FAIL  fixture/bad TestHasAFailedSubtest (", "the parent of a failed subtest is not shown again")
	assert.NotContains(t, text, "fixture/empty", "a package without tests says nothing")
	assert.Contains(t, text, "fixture: FAILED — 5 passed, 3 failed, 4 skipped")

	file := filepath.Join(t.TempDir(), "results.jsonl")
	require.NoError(t, r.save(file))
	f, err := os.Open(file)
	require.NoError(t, err)
	defer f.Close()
	results, err := readResults(f)
	require.NoError(t, err)
	reasons := map[string]string{}
	for _, res := range results {
		if res.Action == "skip" {
			reasons[res.Test] = res.Reason
		}
	}
	assert.Equal(t, map[string]string{
		"TestNeedsTheCorpus":     "the labelled recordings are not here",
		"TestAlsoNeedsTheCorpus": "the labelled recordings are not here",
		"TestNeedsABrowser":      "no Chromium found",
		"TestHasSubtests/two":    "not today",
	}, reasons)

	var sum bytes.Buffer
	assert.False(t, summarize(&sum, results, false), "failures fail the summary")
	s := sum.String()
	assert.Contains(t, s, "== Summary: 5 passed, 3 failed, 4 skipped")
	assert.Contains(t, s, "Not tested (4 skipped):\n  2 skipped: the labelled recordings are not here\n      fixture/good TestNeedsTheCorpus\n      fixture/good TestAlsoNeedsTheCorpus\n  1 skipped: no Chromium found")
	assert.Contains(t, s, "fixture/broken (fixture)", "the package that did not build is listed as failed")
}

func TestSkipsFailTheSummaryOnlyWhenForbidden(t *testing.T) {
	results := []Result{
		{Step: "s", Package: module + "audio", Test: "TestA", Action: "pass", Seconds: 2},
		{Step: "s", Package: module + "audio", Test: "TestB", Action: "skip", Reason: "no corpus"},
	}
	var out bytes.Buffer
	assert.True(t, summarize(&out, results, false))
	assert.Contains(t, out.String(), "1 skipped: no corpus\n      audio TestB")
	out.Reset()
	assert.False(t, summarize(&out, results, true))
	assert.Contains(t, out.String(), "Skipped tests are failures here")
	out.Reset()
	assert.True(t, summarize(&out, results[:1], true))
	assert.Contains(t, out.String(), "Nothing was skipped.")
}

// A package that runs for a long time without news is named, with its
// longest-running test, once the heartbeat's time has passed.
func TestTheHeartbeatSaysWhatIsStillRunning(t *testing.T) {
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	var out bytes.Buffer
	r := newRun("s", &out, func() time.Time { return now })
	r.line(`{"Action":"start","Package":"github.com/tableref/tableref/webremote/e2e"}`)
	r.line(`{"Action":"run","Package":"github.com/tableref/tableref/webremote/e2e","Test":"TestAHost"}`)
	now = now.Add(45 * time.Second)
	r.stillRunning()
	assert.Equal(t, "  …     still running: webremote/e2e (45s; TestAHost for 45s)  [45s]\n", out.String())
	out.Reset()
	r.line(`{"Action":"pass","Package":"github.com/tableref/tableref/webremote/e2e","Test":"TestAHost","Elapsed":45}`)
	r.line(`{"Action":"pass","Package":"github.com/tableref/tableref/webremote/e2e","Elapsed":45.2}`)
	r.finish()
	assert.Contains(t, out.String(), "  ok    webremote/e2e")
	assert.Contains(t, out.String(), "s: ok — 1 passed, 0 failed, 0 skipped in 1 package, 45s")
}

// A stream cut short (go test killed) fails the packages it left running,
// and lines that are not events are passed through.
func TestACutStreamFails(t *testing.T) {
	var out bytes.Buffer
	r := newRun("s", &out, time.Now)
	ok := r.follow(strings.NewReader("go: downloading example.com/x v1.0.0\n"+
		`{"Action":"start","Package":"p"}`+"\n"+`{"Action":"output","Package":"p","Output":"panic: test timed out after 10m0s\n"}`+"\n"), 0)
	assert.False(t, ok)
	assert.Contains(t, out.String(), "go: downloading example.com/x v1.0.0\n")
	assert.Contains(t, out.String(), "  FAIL  p did not finish")
	assert.Contains(t, out.String(), "panic: test timed out")
}

// FuzzFollow: any input, however mangled, is reported without a panic.
func FuzzFollow(f *testing.F) {
	f.Add([]byte(`{"Action":"start","Package":"p"}` + "\n" + `{"Action":"skip","Package":"p","Test":"T"}`))
	f.Add([]byte(`{"Action":"fail","Package":"p","Test":"T/x"}` + "\n" + `{"Action":"fail","Package":"p","Test":"T"}` + "\n{"))
	f.Add([]byte(`{"ImportPath":"a [a.test]","Action":"build-fail"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var out bytes.Buffer
		r := newRun("fuzz", &out, time.Now)
		r.follow(bytes.NewReader(data), 0)
		summarize(&out, r.results, true)
	})
}
