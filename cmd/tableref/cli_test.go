package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/audio"
	"github.com/tableref/tableref/audio/gesture"
)

// The command-line tests build tableref once and run it as a subprocess, so
// that exit statuses, stdout and stderr are the real ones.

// cliBin is the tableref binary TestMain built.
var cliBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "tableref-cli-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "cli_test:", err)
		os.Exit(1)
	}
	cliBin, err = cliBuild(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "cli_test: building tableref:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// cliBuild builds this command into dir, with -race when the test binary
// itself was built with it.
func cliBuild(dir string) (string, error) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		goTool = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	bin := filepath.Join(dir, "tableref")
	args := []string{"build", "-o", bin}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "-race" && s.Value == "true" {
				args = append(args, "-race")
			}
		}
	}
	out, err := exec.Command(goTool, append(args, ".")...).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("%v\n%s", err, out)
	}
	return bin, nil
}

// cliResult is what one run of the binary did.
type cliResult struct {
	args           []string
	stdout, stderr string
	code           int
	took           time.Duration
}

func (r cliResult) String() string {
	return fmt.Sprintf("tableref %s: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(r.args, " "), r.code, r.stdout, r.stderr)
}

// cliRunLimit is how long one run may take before it is killed and fails
// the test: a hang, not a slow machine (a -race build simulating a few dozen
// games takes half a minute on a busy CI machine).
const cliRunLimit = 5 * time.Minute

// cliRun runs tableref with args and the given environment (nil: this
// process's). A run that takes over cliRunLimit is killed and fails the
// test.
func cliRun(t *testing.T, env []string, args ...string) cliResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), cliRunLimit)
	defer cancel()
	cmd := exec.CommandContext(ctx, cliBin, args...)
	if env == nil {
		env = os.Environ()
	}
	// A -race binary sleeps a second at exit (for other goroutines' race
	// reports) unless told not to; a race it finds still goes to stderr and
	// makes the exit status 66.
	gorace := "GORACE=atexit_sleep_ms=0"
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "GORACE="); ok {
			gorace += " " + v
		}
	}
	cmd.Env = append(env, gorace)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	r := cliResult{args: args, stdout: stdout.String(), stderr: stderr.String(), took: time.Since(start)}
	require.NoError(t, ctx.Err(), "tableref %s did not finish within %v", strings.Join(args, " "), cliRunLimit)
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		require.True(t, ok, "running tableref: %v", err)
		r.code = ee.ExitCode()
	}
	return r
}

// cliAssertError checks a failed run: the exit status, exactly one line on
// stderr (containing each of want), nothing on stdout, and no sign of a
// crash.
func cliAssertError(t *testing.T, r cliResult, code int, want ...string) {
	t.Helper()
	assert.Equal(t, code, r.code, "%s", r)
	lines := strings.Split(strings.TrimRight(r.stderr, "\n"), "\n")
	assert.Len(t, lines, 1, "stderr must be one line\n%s", r)
	assert.True(t, strings.HasSuffix(r.stderr, "\n"), "stderr ends with a newline\n%s", r)
	assert.True(t, strings.HasPrefix(r.stderr, "tableref"), "stderr names the program\n%s", r)
	for _, w := range want {
		assert.Contains(t, r.stderr, w, "%s", r)
	}
	for _, bad := range []string{"panic", "goroutine ", "runtime.", "fatal error", "SIGABRT", "SIGSEGV"} {
		assert.NotContains(t, r.stderr, bad, "%s", r)
	}
	assert.Empty(t, r.stdout, "%s", r)
}

func TestCLIUsage(t *testing.T) {
	for _, args := range [][]string{{}, {"--help"}, {"-h"}, {"help"}} {
		r := cliRun(t, nil, args...)
		assert.Equal(t, 0, r.code, "%s", r)
		assert.Empty(t, r.stderr, "%s", r)
		assert.Contains(t, r.stdout, "Usage: tableref COMMAND", "%s", r)
		assert.Equal(t, 1, strings.Count(r.stdout, "Usage:"), "the help is printed once\n%s", r)
		for _, c := range []string{"listen", "decode", "devices"} {
			assert.Contains(t, r.stdout, "\n  "+c+" ", "%s", r)
		}
	}
}

func TestCLICommandHelp(t *testing.T) {
	flags := map[string][]string{
		"listen":   {"-wav", "-device", "-gap", "-json", "-levels", "-v", "-voices", "-pause", "-shout"},
		"decode":   {"-wav", "-order", "-gap", "-json"},
		"devices":  {"-json"},
		"deal":     {"-players", "-cards", "-jokers", "-seed", "-json"},
		"roll":     {"-times", "-seed", "-json"},
		"games":    {"-json"},
		"simulate": {"-games", "-seed", "-players", "-variant", "-option", "-json"},
		"serve":    {"-port", "-host", "-data", "-no-mic"},
		"sound":    {"-say"},
		"loadtest": {"-url", "-rooms", "-clients", "-moves", "-json"},
	}
	for name, want := range flags {
		for _, args := range [][]string{{name, "--help"}, {name, "-h"}, {"help", name}} {
			t.Run(strings.Join(args, " "), func(t *testing.T) {
				r := cliRun(t, nil, args...)
				assert.Equal(t, 0, r.code, "%s", r)
				assert.Empty(t, r.stderr, "%s", r)
				assert.True(t, strings.HasPrefix(r.stdout, "Usage: tableref "+name), "%s", r)
				assert.Equal(t, 1, strings.Count(r.stdout, "Usage:"), "the help is printed once\n%s", r)
				for _, f := range want {
					assert.Regexp(t, `(?m)^  `+f+`(\s|$)`, r.stdout, "%s", r)
				}
			})
		}
	}
	// decode reads files only: it has no --device or --levels.
	r := cliRun(t, nil, "decode", "--help")
	assert.NotContains(t, r.stdout, "-device")
	assert.NotContains(t, r.stdout, "-levels")
}

func TestCLIUnknownCommand(t *testing.T) {
	for _, args := range [][]string{{"frobnicate"}, {"lisen", "--wav", "x.wav"}, {"--wav", "x.wav"}} {
		r := cliRun(t, nil, args...)
		cliAssertError(t, r, 2, fmt.Sprintf("%q", args[0]), "listen", "decode", "devices")
	}
}

func TestCLIErrors(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.wav")
	cliWriteWAV(t, good, 16000, cliClaps(16000, []float64{0.3}, 1.0))

	text := filepath.Join(dir, "notes.txt")
	require.NoError(t, os.WriteFile(text, []byte("Woodlouse Chaos house rules:\n1. No biting.\n"), 0o644))

	full, err := os.ReadFile(good)
	require.NoError(t, err)
	truncated := filepath.Join(dir, "truncated.wav")
	require.NoError(t, os.WriteFile(truncated, full[:len(full)/2], 0o644))

	alaw := filepath.Join(dir, "alaw.wav")
	require.NoError(t, os.WriteFile(alaw, append(cliHeader(6, 1, 8000, 8, 800), make([]byte, 800)...), 0o644))

	empty := filepath.Join(dir, "empty.wav")
	require.NoError(t, os.WriteFile(empty, nil, 0o644))

	missing := filepath.Join(dir, "no-such.wav")
	order := "woodlouse,rat,spider,fly"

	cases := []struct {
		args []string
		code int
		want []string
	}{
		{[]string{"listen", "--wav", missing}, 1, []string{missing, "no such file"}},
		{[]string{"listen", "--wav", text}, 1, []string{text, "not a WAV file"}},
		{[]string{"listen", "--wav", empty}, 1, []string{empty, "not a WAV file"}},
		{[]string{"listen", "--wav", dir}, 1, []string{dir, "directory"}},
		{[]string{"listen", "--wav", truncated}, 1, []string{truncated, "truncated"}},
		{[]string{"listen", "--json", "--wav", truncated}, 1, []string{truncated, "truncated"}},
		{[]string{"listen", "--wav", alaw}, 1, []string{alaw, "unsupported", "A-law"}},
		{[]string{"listen", "--wav", good, "--gap", "0"}, 2, []string{"--gap"}},
		{[]string{"listen", "--wav", good, "--gap", "abc"}, 2, []string{"gap"}},
		{[]string{"listen", "--wav", good, "--gap", "NaN"}, 2, []string{"--gap"}},
		{[]string{"listen", "--wav", good, "--gap", "100"}, 2, []string{"--gap"}},
		{[]string{"listen", "--wav", good, "--device", "0"}, 2, []string{"--wav", "--device"}},
		{[]string{"listen", "--wav", good, "extra"}, 2, []string{`"extra"`}},
		{[]string{"listen", "--bogus"}, 2, []string{"bogus"}},
		{[]string{"decode", "--wav", good}, 2, []string{"--order"}},
		{[]string{"decode", "--wav", good, "--order", "woodlouse,badger,spider"}, 2, []string{"--order", "badger"}},
		{[]string{"decode", "--wav", good, "--order", "woodlouse"}, 2, []string{"--order"}},
		{[]string{"decode", "--order", order}, 2, []string{"--wav"}},
		{[]string{"decode", "--wav", good, "--order", order, "--gap", "0.1"}, 2, []string{"--gap"}},
		{[]string{"decode", "--wav", good, "--order", order, "--device", "0"}, 2, []string{"device"}},
		{[]string{"decode", "--wav", missing, "--order", order}, 1, []string{missing, "no such file"}},
		{[]string{"decode", "--wav", text, "--order", order}, 1, []string{"not a WAV file"}},
		{[]string{"devices", "extra"}, 2, []string{`"extra"`}},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, " "), func(t *testing.T) {
			r := cliRun(t, nil, c.args...)
			cliAssertError(t, r, c.code, c.want...)
			if c.code == 2 {
				assert.Contains(t, r.stderr, "--help", "a usage error points to the help")
			}
		})
	}
}

// A recording whose header never got its length (a recorder writing to a
// pipe, or killed before it closed the file) is read to its end, with a note
// saying so, and heard as if its header were right.
func TestCLIReadsAWAVWhoseHeaderHasNoLength(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.wav")
	cliWriteWAV(t, good, 16000, cliClaps(16000, []float64{0.3, 0.6}, 1.5))
	full, err := os.ReadFile(good)
	require.NoError(t, err)
	at := bytes.Index(full, []byte("data"))
	require.Positive(t, at)
	want := cliRun(t, nil, "listen", "--json", "--wav", good)
	require.Equal(t, 0, want.code, want.stderr)
	assert.NotContains(t, want.stderr, "no length")
	for name, size := range map[string]uint32{"zero": 0, "pipe": 0x7FFFFFFF, "streaming": 0xFFFFFFFF} {
		t.Run(name, func(t *testing.T) {
			b := bytes.Clone(full)
			binary.LittleEndian.PutUint32(b[at+4:], size)
			path := filepath.Join(dir, name+".wav")
			require.NoError(t, os.WriteFile(path, b, 0o644))
			r := cliRun(t, nil, "listen", "--json", "--wav", path)
			require.Equal(t, 0, r.code, r.stderr)
			assert.Contains(t, r.stderr, "no length")
			assert.Equal(t, 1, strings.Count(strings.TrimSpace(r.stderr), "\n")+1, "one line: %q", r.stderr)
			gestures := func(out string) int { return strings.Count(out, `"kind":"clap"`) + strings.Count(out, `"kind":"bang"`) }
			assert.Equal(t, gestures(want.stdout), gestures(r.stdout))
			assert.Equal(t, 2, gestures(r.stdout), r.stdout)
		})
	}
}

// cliNoDeviceEnv is this process's environment with ALSA pointed at a
// configuration whose only device is PulseAudio at a socket that does not
// exist, so that PortAudio finds no input device on a machine without a
// sound card (an empty ALSA configuration is no good: PortAudio's ALSA
// back end fails an assertion on it and aborts).
func cliNoDeviceEnv(t *testing.T) []string {
	t.Helper()
	dir := t.TempDir()
	conf := filepath.Join(dir, "asound.conf")
	require.NoError(t, os.WriteFile(conf, []byte("pcm.!default { type pulse }\nctl.!default { type pulse }\n"), 0o644))
	var env []string
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); k != "ALSA_CONFIG_PATH" && k != "PULSE_SERVER" {
			env = append(env, kv)
		}
	}
	return append(env, "ALSA_CONFIG_PATH="+conf, "PULSE_SERVER=unix:"+filepath.Join(dir, "no-such-socket"))
}

func TestCLINoInputDevice(t *testing.T) {
	env := cliNoDeviceEnv(t)
	r := cliRun(t, env, "devices")
	require.Equal(t, 0, r.code, "%s", r)
	if !strings.HasPrefix(r.stdout, "No audio input devices found") {
		t.Skipf("this machine has an input device that the test environment cannot hide:\n%s", r)
	}
	assert.Empty(t, r.stderr, "%s", r)

	listing := r.took
	r = cliRun(t, env, "devices", "--json")
	assert.Equal(t, 0, r.code, "%s", r)
	assert.Equal(t, "[]\n", r.stdout, "%s", r)
	listing = max(listing, r.took)

	// listen fails at once: about as fast as listing the devices (which
	// looks for them the same way), however busy the machine, and with no
	// waiting or retrying on top.
	for _, args := range [][]string{{"listen"}, {"listen", "--json"}} {
		r = cliRun(t, env, args...)
		cliAssertError(t, r, 1, "no audio input device", "--wav")
		limit := 3*listing + 3*time.Second
		assert.Less(t, r.took, limit, "%s took %v (listing the devices took %v)", r, r.took, listing)
		t.Logf("tableref %s failed in %v (listing the devices took %v)", strings.Join(args, " "), r.took.Round(time.Millisecond), listing.Round(time.Millisecond))
	}

	// Asking for a device by name or number when there is none.
	for _, dev := range []string{"0", "usb"} {
		r = cliRun(t, env, "listen", "--device", dev)
		assert.NotEqual(t, 0, r.code, "%s", r)
		cliAssertError(t, r, r.code, "no audio input device")
	}
}

// cliEvents parses JSON-lines output: every line must be an object with a
// string "event".
func cliEvents(t *testing.T, stdout string) []map[string]any {
	t.Helper()
	require.True(t, strings.HasSuffix(stdout, "\n"), "output ends with a newline: %q", stdout)
	var evs []map[string]any
	for i, line := range strings.Split(strings.TrimSuffix(stdout, "\n"), "\n") {
		var ev map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &ev), "line %d: %s", i+1, line)
		_, ok := ev["event"].(string)
		require.True(t, ok, "line %d has no string \"event\": %s", i+1, line)
		evs = append(evs, ev)
	}
	return evs
}

func cliNumber(t *testing.T, ev map[string]any, key string) float64 {
	t.Helper()
	v, ok := ev[key].(float64)
	require.True(t, ok, "%q is not a number in %v", key, ev)
	return v
}

// cliBurstTimes are the times of the bursts in cliClapFile, seconds.
var cliBurstTimes = []float64{0.5, 0.9, 1.3}

// cliClapFile writes three hand-clap-like bursts 0.4 s apart from 0.5 s,
// then silence long enough to end the code: 3.5 s, 16-bit mono 44.1 kHz.
func cliClapFile(t *testing.T) string {
	path := filepath.Join(t.TempDir(), "claps.wav")
	cliWriteWAV(t, path, 44100, cliClaps(44100, cliBurstTimes, 3.5))
	return path
}

func TestCLIListenJSON(t *testing.T) {
	path := cliClapFile(t)
	r := cliRun(t, nil, "listen", "--json", "--wav", path)
	require.Equal(t, 0, r.code, "%s", r)
	assert.Empty(t, r.stderr, "%s", r)
	evs := cliEvents(t, r.stdout)

	require.GreaterOrEqual(t, len(evs), 2)
	start, end := evs[0], evs[len(evs)-1]
	assert.Equal(t, "start", start["event"])
	assert.Equal(t, "wav", start["source"])
	assert.Equal(t, path, start["file"])
	assert.Equal(t, 44100.0, cliNumber(t, start, "rate"))
	assert.Equal(t, 1.0, cliNumber(t, start, "channels"))
	assert.Equal(t, 16.0, cliNumber(t, start, "bits"))
	assert.InDelta(t, 3.5, cliNumber(t, start, "seconds"), 1e-3)
	assert.Equal(t, 1.5, cliNumber(t, start, "gap"))

	assert.Equal(t, "end", end["event"])
	assert.InDelta(t, 3.5, cliNumber(t, end, "t"), 1e-3)

	var onsets, gestures, codes int
	for i, ev := range evs {
		switch ev["event"] {
		case "start", "end":
			assert.True(t, i == 0 || i == len(evs)-1, "%v in the middle", ev)
		case "onset":
			onsets++
			tt := cliNumber(t, ev, "t")
			near := false
			for _, b := range cliBurstTimes {
				near = near || math.Abs(tt-b) < 0.02
			}
			assert.True(t, near, "onset at %v s, the bursts are at %v s", tt, cliBurstTimes)
			kind, _ := ev["kind"].(string)
			assert.Contains(t, []string{"clap", "bang", "other"}, kind, "%v", ev)
			if kind != "other" {
				gestures++
			}
			cliNumber(t, ev, "strength")
			assert.GreaterOrEqual(t, cliNumber(t, ev, "at"), tt, "emitted before it happened: %v", ev)
		case "code":
			codes++
			s, e := cliNumber(t, ev, "start"), cliNumber(t, ev, "end")
			b, c := cliNumber(t, ev, "bangs"), cliNumber(t, ev, "claps")
			assert.LessOrEqual(t, s, e, "%v", ev)
			assert.GreaterOrEqual(t, b+c, 1.0, "%v", ev)
			order, _ := ev["order"].(string)
			assert.Len(t, order, int(b+c), "%v", ev)
			assert.Equal(t, int(b), strings.Count(order, "B"), "%v", ev)
			assert.Equal(t, int(c), strings.Count(order, "C"), "%v", ev)
			assert.NotContains(t, ev, "card", "listen knows no sequence cards")
		}
	}
	// The three bursts are heard as onsets (how they are named is the
	// classifier's business, tested against a labelled corpus elsewhere).
	assert.Equal(t, 3, onsets, "%s", r.stdout)
	assert.Equal(t, float64(onsets), cliNumber(t, end, "onsets"))
	assert.Equal(t, float64(gestures), cliNumber(t, end, "gestures"))
	assert.Equal(t, float64(codes), cliNumber(t, end, "codes"))
	if gestures > 0 {
		assert.Equal(t, 1, codes, "gestures 0.4 s apart make one code\n%s", r.stdout)
	}
}

// TestCLIListenCode needs a code event whatever the classifier calls the
// synthetic bursts: it looks for one in listen's and decode's output and
// checks its fields. If none of the bursts is a gesture it says so and
// skips (TestCLIListenJSON still checks the onsets).
func TestCLIListenCode(t *testing.T) {
	path := cliClapFile(t)
	r := cliRun(t, nil, "decode", "--wav", path, "--order", "woodlouse,rat,spider,fly", "--json")
	require.Equal(t, 0, r.code, "%s", r)
	assert.Empty(t, r.stderr, "%s", r)
	evs := cliEvents(t, r.stdout)
	require.GreaterOrEqual(t, len(evs), 2)
	assert.Equal(t, "start", evs[0]["event"])
	assert.Equal(t, "end", evs[len(evs)-1]["event"])
	var codes []map[string]any
	for _, ev := range evs {
		if ev["event"] == "code" {
			codes = append(codes, ev)
		}
	}
	if len(codes) == 0 {
		t.Skipf("the classifier heard no gesture in the synthetic bursts:\n%s", r.stdout)
	}
	for _, ev := range codes {
		for _, k := range []string{"start", "end", "bangs", "claps"} {
			cliNumber(t, ev, k)
		}
		card, hasCard := ev["card"].(string)
		msg, hasErr := ev["error"].(string)
		assert.True(t, hasCard != hasErr, "a decoded code has a card or an error: %v", ev)
		if hasCard {
			assert.NotEmpty(t, card)
			assert.Contains(t, []string{"woodlouse", "rat", "spider", "fly"}, ev["species"], "%v", ev)
			assert.GreaterOrEqual(t, cliNumber(t, ev, "count"), 1.0)
		} else {
			assert.NotEmpty(t, msg)
		}
	}
}

func TestCLIListenHuman(t *testing.T) {
	path := cliClapFile(t)
	r := cliRun(t, nil, "listen", "--wav", path)
	require.Equal(t, 0, r.code, "%s", r)
	assert.Empty(t, r.stderr, "%s", r)
	lines := strings.Split(strings.TrimRight(r.stdout, "\n"), "\n")
	require.GreaterOrEqual(t, len(lines), 2, "%s", r)
	assert.True(t, strings.HasPrefix(lines[0], "Listening to "+path), "%s", r)
	last := lines[len(lines)-1]
	assert.True(t, strings.HasPrefix(last, "Heard "), "%s", r)
	assert.Contains(t, last, "in 3.5 s.", "%s", r)
	assert.NotContains(t, r.stdout, "\033[", "no terminal control codes when stdout is not a terminal")

	// The same file decoded for people: it ends the same way.
	r = cliRun(t, nil, "decode", "--wav", path, "--order", "fly,spider,rat,woodlouse")
	require.Equal(t, 0, r.code, "%s", r)
	lines = strings.Split(strings.TrimRight(r.stdout, "\n"), "\n")
	assert.True(t, strings.HasPrefix(lines[len(lines)-1], "Heard "), "%s", r)
}

// cliClaps is seconds of quiet noise (about -66 dBFS) with a hand-clap-like
// burst at each of the given times: 10 ms of white noise under a fast
// decay, band-passed around 1.5 kHz by a two-pole resonator, peaking near
// -6 dBFS.
func cliClaps(rate int, at []float64, seconds float64) []float64 {
	rng := rand.New(rand.NewPCG(11, 12))
	x := make([]float64, int(seconds*float64(rate)))
	for i := range x {
		x[i] = 0.0005 * rng.NormFloat64()
	}
	// RBJ band-pass (0 dB peak gain), f0 1.5 kHz, Q 1.
	w0 := 2 * math.Pi * 1500 / float64(rate)
	alpha := math.Sin(w0) / 2
	a0 := 1 + alpha
	b0, b2 := alpha/a0, -alpha/a0
	a1, a2 := -2*math.Cos(w0)/a0, (1-alpha)/a0
	for _, t0 := range at {
		i0 := int(t0 * float64(rate))
		burst := int(0.010 * float64(rate))
		y := make([]float64, 2*burst) // the burst and its ringing
		var x1, x2, y1, y2 float64
		peak := 0.0
		for k := range y {
			v := 0.0
			if k < burst {
				v = rng.NormFloat64() * math.Exp(-float64(k)/(0.003*float64(rate)))
			}
			out := b0*v + b2*x2 - a1*y1 - a2*y2
			x2, x1 = x1, v
			y2, y1 = y1, out
			y[k] = out
			peak = max(peak, math.Abs(out))
		}
		for k, v := range y {
			if i0+k < len(x) {
				x[i0+k] += 0.5 * v / peak
			}
		}
	}
	return x
}

// cliWriteWAV writes x as 16-bit mono PCM.
func cliWriteWAV(t *testing.T, path string, rate int, x []float64) {
	t.Helper()
	data := make([]byte, 0, 2*len(x))
	for _, v := range x {
		data = binary.LittleEndian.AppendUint16(data, uint16(int16(math.Round(max(-1, min(1, v))*32767))))
	}
	require.NoError(t, os.WriteFile(path, append(cliHeader(1, 1, rate, 16, len(data)), data...), 0o644))
}

// cliHeader is a 44-byte WAV header.
func cliHeader(format, channels, rate, bits, dataBytes int) []byte {
	align := channels * bits / 8
	h := []byte("RIFF")
	h = binary.LittleEndian.AppendUint32(h, uint32(36+dataBytes))
	h = append(h, "WAVEfmt "...)
	h = binary.LittleEndian.AppendUint32(h, 16)
	h = binary.LittleEndian.AppendUint16(h, uint16(format))
	h = binary.LittleEndian.AppendUint16(h, uint16(channels))
	h = binary.LittleEndian.AppendUint32(h, uint32(rate))
	h = binary.LittleEndian.AppendUint32(h, uint32(rate*align))
	h = binary.LittleEndian.AppendUint16(h, uint16(align))
	h = binary.LittleEndian.AppendUint16(h, uint16(bits))
	h = append(h, "data"...)
	return binary.LittleEndian.AppendUint32(h, uint32(dataBytes))
}

// cliWriteFloatWAV writes x as mono IEEE float samples of 32 or 64 bits.
func cliWriteFloatWAV(t *testing.T, path string, rate, bits int, x []float64) {
	t.Helper()
	var data []byte
	for _, v := range x {
		if bits == 32 {
			data = binary.LittleEndian.AppendUint32(data, math.Float32bits(float32(v)))
		} else {
			data = binary.LittleEndian.AppendUint64(data, math.Float64bits(v))
		}
	}
	require.NoError(t, os.WriteFile(path, append(cliHeader(3, 1, rate, bits, len(data)), data...), 0o644))
}

// TestCLIListenFloatWAV: a float WAV (as editors and sox export) is heard
// exactly like the same sound stored as 16-bit integers.
func TestCLIListenFloatWAV(t *testing.T) {
	dir := t.TempDir()
	x := cliClaps(44100, cliBurstTimes, 3.5)
	ints := filepath.Join(dir, "int16.wav")
	cliWriteWAV(t, ints, 44100, x)
	onsets := func(path string) []string {
		r := cliRun(t, nil, "listen", "--json", "--wav", path)
		require.Equal(t, 0, r.code, "%s", r)
		var got []string
		for _, ev := range cliEvents(t, r.stdout) {
			if ev["event"] == "onset" {
				got = append(got, fmt.Sprintf("%.3f %v", cliNumber(t, ev, "t"), ev["kind"]))
			}
		}
		return got
	}
	want := onsets(ints)
	require.Len(t, want, len(cliBurstTimes))
	for _, bits := range []int{32, 64} {
		path := filepath.Join(dir, fmt.Sprintf("float%d.wav", bits))
		cliWriteFloatWAV(t, path, 44100, bits, x)
		assert.Equal(t, want, onsets(path), "%d-bit float", bits)
		r := cliRun(t, nil, "listen", "--wav", path)
		require.Equal(t, 0, r.code, "%s", r)
		assert.Contains(t, r.stdout, fmt.Sprintf("%d-bit float", bits), "%s", r)
	}
}

// TestListenerConfigFinalForFiles: a file is heard for final verdicts only
// (a gesture later taken back as a word's burst is never printed), the
// microphone live (each gesture at once, retract lines after).
func TestListenerConfigFinalForFiles(t *testing.T) {
	lf := listenFlags{gap: 2}
	file := listenerConfig(lf, &input{info: sourceInfo{File: "x.wav"}})
	assert.True(t, file.Final, "a file: final verdicts")
	assert.Equal(t, 2.0, file.Gap)
	mic := listenerConfig(lf, &input{info: sourceInfo{Live: true, Device: "mic"}})
	assert.False(t, mic.Final, "the microphone: every gesture at once")
}

// cliWordFile is 5 s of a quiet room with two thuds (0.5 and 1.0 s) and a
// shouted word at 1.8 s: a burst like the thuds, then a voice at once.
func cliWordFile(rate int) []float64 {
	rng := rand.New(rand.NewPCG(5, 6))
	x := make([]float64, 5*rate)
	for i := range x {
		x[i] = 0.001 * rng.NormFloat64()
	}
	thud := func(at, amp float64) { // 30 ms of noise dying in about 5 ms
		for i := int(at * float64(rate)); i < int((at+0.03)*float64(rate)); i++ {
			x[i] += amp * rng.NormFloat64() * math.Exp(-(float64(i)/float64(rate)-at)/0.005)
		}
	}
	thud(0.5, 0.4)
	thud(1.0, 0.4)
	thud(1.8, 0.2)
	for i := int(1.83 * float64(rate)); i < int(2.4*float64(rate)); i++ { // the voice: 150 Hz and harmonics
		tt := float64(i) / float64(rate)
		v := 0.0
		for h := 1.0; 150*h < float64(rate)/2; h++ {
			v += (1/h + math.Exp(-math.Pow((150*h-700)/200, 2))) * math.Sin(2*math.Pi*150*h*tt)
		}
		x[i] += 0.1 * math.Min(1, math.Min(tt-1.83, 2.4-tt)/0.01) * v
	}
	return x
}

// TestCLIListenFileIsFinal: a word's first burst, which the microphone
// reports as a bang and then takes back, is not printed at all from a file;
// the code is the same.
func TestCLIListenFileIsFinal(t *testing.T) {
	const rate = 44100
	x := cliWordFile(rate)

	// Heard live, the burst is a bang first, then taken back.
	var live []string
	l := audio.NewListener(rate, audio.Config{}, func(e audio.Event) {
		switch v := e.(type) {
		case *audio.Onset:
			if v.Kind.IsGesture() {
				live = append(live, string(v.Kind))
			}
		case *audio.Retract:
			live = append(live, "retract")
		case *audio.Code:
			live = append(live, "code "+v.Order)
		}
	})
	for i := 0; i < len(x); i += 256 {
		l.Write(x[i:min(i+256, len(x))])
	}
	l.Close()
	require.Equal(t, []string{"bang", "bang", "bang", "retract", "code BB"}, live,
		"the test's premise: live, the word's burst is heard as a bang, then taken back")

	path := filepath.Join(t.TempDir(), "word.wav")
	cliWriteWAV(t, path, rate, x)
	r := cliRun(t, nil, "listen", "--json", "--wav", path)
	require.Equal(t, 0, r.code, "%s", r)
	var got []string
	for _, ev := range cliEvents(t, r.stdout) {
		switch ev["event"] {
		case "onset":
			if k := ev["kind"]; k != "other" {
				got = append(got, k.(string))
			}
		case "retract":
			got = append(got, "retract")
		case "code":
			got = append(got, "code "+ev["order"].(string))
		}
	}
	assert.Equal(t, []string{"bang", "bang", "code BB"}, got, "from a file: only what stands")
}

// TestCLIListenAlone: a clap with no other within the gap is no code's, so
// from a file it is not printed; --alone keeps it (a code of its own). Live,
// the retract line says why.
func TestCLIListenAlone(t *testing.T) {
	const rate = 44100
	path := filepath.Join(t.TempDir(), "alone.wav")
	cliWriteWAV(t, path, rate, cliClaps(rate, []float64{0.5, 3.0, 3.4}, 5.5))
	heard := func(args ...string) (gestures []float64, codes []string) {
		r := cliRun(t, nil, append([]string{"listen", "--json", "--wav", path}, args...)...)
		require.Equal(t, 0, r.code, "%s", r)
		for _, ev := range cliEvents(t, r.stdout) {
			switch ev["event"] {
			case "onset":
				if ev["kind"] != "other" {
					gestures = append(gestures, math.Round(cliNumber(t, ev, "t")*10)/10)
				}
			case "code":
				codes = append(codes, ev["order"].(string))
			}
		}
		return gestures, codes
	}
	all, allCodes := heard("--alone")
	require.Equal(t, []float64{0.5, 3.0, 3.4}, all, "the test's premise: with --alone, the three bursts are gestures")
	assert.Len(t, allCodes, 2, "with --alone the clap alone is a code of its own")
	g, codes := heard()
	assert.Equal(t, []float64{3.0, 3.4}, g, "the clap alone is taken back")
	assert.Len(t, codes, 1)

	var out bytes.Buffer
	p := &jsonPrinter{w: &out, rate: rate}
	p.event(&audio.Retract{Time: 0.5, Kind: gesture.Clap, Alone: true})
	p.event(&audio.Retract{Time: 2.41, Kind: gesture.Bang})
	evs := cliEvents(t, out.String())
	require.Len(t, evs, 2)
	assert.Equal(t, "alone", evs[0]["why"])
	assert.Equal(t, "word", evs[1]["why"])
}
