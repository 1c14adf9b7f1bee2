//go:build unix

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
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/tableref/tableref/audio"
	"github.com/tableref/tableref/audio/mic/vmic"
)

// TestVirtualMicListen is the microphone path end to end: it plays labelled
// corpus recordings into the virtual microphone (shared/tools/virtual-mic,
// beside the repository) while `tableref listen --json` records from the
// default input through PortAudio, and checks that it hears the labelled
// codes, as `tableref listen --json --wav FILE` does.
//
// The microphone's time 0 is when tableref opened it, not when paplay began,
// so codes are compared by their gestures (bangs, claps, order) and by their
// starts relative to the first code's.
//
// A real microphone is never digitally silent: it hears its own noise and
// the room's before anyone plays anything. The virtual one is silent (zero)
// until paplay starts, and the detector takes that for a very quiet room:
// a recording's noise starting out of it is a sudden sound (heard as a bang
// that joins the first code), and the noise's flickers stand out enough from
// the room floor to pass for claps. So, as a real microphone would, the
// virtual one hears a faint noise bed (vmicBedDB, played from before
// tableref opens it until it stops), and each recording fades in over its
// opening noise instead of starting with a step; a --wav control checks that
// the fade changes nothing. TABLEREF_VMIC_RAW=1 plays the files as they are
// into a silent microphone instead.
//
// The script is needed; without it the test skips, unless
// TABLEREF_REQUIRE_MIC=1, when that is a failure. TABLEREF_VMIC_FILES
// (comma-separated corpus file names) replaces the files played.
func TestVirtualMicListen(t *testing.T) {
	root, err := vmic.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	shared := filepath.Join(filepath.Dir(root), "shared")
	script, err := vmic.Script()
	if err != nil {
		vmicUnavailable(t, "no virtual microphone: %v", err)
	}
	files := vmicFiles
	if s := os.Getenv("TABLEREF_VMIC_FILES"); s != "" {
		files = strings.Split(s, ",")
	}
	corpus := filepath.Join(shared, "corpus", "gestures")
	for _, f := range files {
		if _, err := os.Stat(filepath.Join(corpus, f)); err != nil {
			vmicUnavailable(t, "labelled corpus file missing: %v", err)
		}
	}
	raw := os.Getenv("TABLEREF_VMIC_RAW") == "1"

	env := vmicStart(t, script)
	if _, err := exec.LookPath("paplay"); err != nil {
		t.Fatalf("virtual-mic started but paplay is not installed: %v", err)
	}
	bin := vmicBuild(t, root)
	for _, f := range files {
		t.Run(strings.TrimSuffix(f, ".wav"), func(t *testing.T) {
			vmicCheckFile(t, bin, env, filepath.Join(corpus, f), raw)
		})
	}
	// A microphone opened in the middle of a noisy room: the stream starts in
	// digital silence (PortAudio's first buffers, nothing playing) and the
	// room's sound arrives at full level, 0.6 s before the first code. The
	// microphone must hear what --wav hears in the same recording.
	t.Run("mid-room-"+strings.TrimSuffix(vmicMidRoom, ".wav"), func(t *testing.T) {
		vmicCheckFile(t, bin, env, vmicCut(t, filepath.Join(corpus, vmicMidRoom), 0.6), true)
	})
	// A Bluetooth headset in its calling mode: an 8 kHz line, which the sound
	// server resamples up to the microphone's rate. tableref must say so, and
	// hear the codes as the labels say (the line's own network judges them).
	t.Run("telephone-line-"+strings.TrimSuffix(vmicLine, ".wav"), func(t *testing.T) {
		vmicCheckLine(t, bin, env, vmicTo8k(t, filepath.Join(corpus, vmicLine)))
	})
}

// vmicLine is the recording played as a telephone line: noisy, two codes
// that start with claps (the sounds heard before the line is recognised).
const vmicLine = "dev-035.wav"

// vmicTo8k writes file (at a multiple of 8 kHz) at 8 kHz, low-passed under
// 3.6 kHz as a headset's line is, with its labels, and returns the path.
func vmicTo8k(t *testing.T, file string) string {
	t.Helper()
	x, rate := vmicReadWAV(t, file)
	k := rate / 8000
	if k*8000 != rate {
		t.Fatalf("%s: %d Hz is no multiple of 8 kHz", file, rate)
	}
	const half = 64
	fc := 3600.0 / float64(rate)
	h := make([]float64, 2*half*k+1)
	for i := range h {
		m := float64(i - half*k)
		s := 2 * fc
		if m != 0 {
			s = math.Sin(2*math.Pi*fc*m) / (math.Pi * m)
		}
		h[i] = s * (0.54 + 0.46*math.Cos(math.Pi*m/float64(half*k+1)))
	}
	var y []float64
	for j := 0; j < len(x); j += k {
		var acc float64
		for i, c := range h {
			if n := j + i - half*k; n >= 0 && n < len(x) {
				acc += c * x[n]
			}
		}
		y = append(y, acc)
	}
	path := filepath.Join(t.TempDir(), "line-"+filepath.Base(file))
	cliWriteWAV(t, path, 8000, y)
	b, err := os.ReadFile(strings.TrimSuffix(file, ".wav") + ".json")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(strings.TrimSuffix(path, ".wav")+".json", b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// vmicReadLabels reads the labels beside a recording (NAME.json).
func vmicReadLabels(t *testing.T, file string) vmicLabels {
	t.Helper()
	b, err := os.ReadFile(strings.TrimSuffix(file, ".wav") + ".json")
	if err != nil {
		t.Fatal(err)
	}
	var lab vmicLabels
	if err := json.Unmarshal(b, &lab); err != nil {
		t.Fatalf("%s labels: %v", file, err)
	}
	return lab
}

// vmicCheckLine plays an 8 kHz recording into the virtual microphone (no
// noise bed: a headset's own noise comes down its line) and checks that
// listen says the microphone is a telephone line and hears every labelled
// code, as it does from the file.
func vmicCheckLine(t *testing.T, bin string, env []string, file string) {
	lab := vmicReadLabels(t, file)
	wav := vmicListenWAV(t, bin, file)
	played, _ := vmicFadeIn(t, file, lab)
	live := vmicRecord(t, bin, env, played, "")
	t.Logf("recorded at %d Hz; codes %v, --wav %v", live.start.Rate, live.codes, wav.codes)
	if live.start.Rate <= 8000 {
		t.Fatalf("test bug: the microphone opened at %d Hz: no resampling up to test", live.start.Rate)
	}
	assert.Contains(t, live.stdout, `"kind":"narrowband"`, "the microphone is not said to be a telephone line")
	assert.Contains(t, wav.stdout, `"kind":"narrowband"`, "the 8 kHz file is not said to be a telephone line")
	labels := strings.Join(vmicOrders(lab.Codes), ", ")
	assert.Equal(t, labels, strings.Join(vmicOrders(live.codes), ", "), "microphone")
	assert.Equal(t, labels, strings.Join(vmicOrders(wav.codes), ", "), "--wav")
}

// vmicMidRoom is the recording cut for the mid-room test: a party.
const vmicMidRoom = "dev-026.wav"

// vmicCut writes file from lead seconds before its first labelled code on,
// with its labels shifted to match, and returns the new file's path.
func vmicCut(t *testing.T, file string, lead float64) string {
	t.Helper()
	lab := vmicReadLabels(t, file)
	if len(lab.Codes) == 0 {
		t.Fatalf("%s has no labelled codes", file)
	}
	x, rate := vmicReadWAV(t, file)
	from := lab.Codes[0].Start - lead
	if from <= 0 {
		t.Fatalf("%s: its first code starts at %.2f s, too early to cut %.1f s before it", file, lab.Codes[0].Start, lead)
	}
	// labels on the cut's timeline (sounds before the cut are gone)
	var out vmicLabels
	for _, o := range lab.Onsets {
		if o.T >= from {
			o.T -= from
			out.Onsets = append(out.Onsets, o)
		}
	}
	for _, c := range lab.Codes {
		c.Start, c.End = c.Start-from, c.End-from
		out.Codes = append(out.Codes, c)
	}
	for _, d := range lab.Distractors {
		if d.T >= from {
			d.T -= from
			out.Distractors = append(out.Distractors, d)
		}
	}
	for _, sp := range lab.Speech {
		if sp[1] > from {
			out.Speech = append(out.Speech, [2]float64{max(0, sp[0]-from), sp[1] - from})
		}
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "cut-"+filepath.Base(file))
	if err := os.WriteFile(path, vmicWAV24(x[int(from*float64(rate)):], rate), 0o644); err != nil {
		t.Fatal(err)
	}
	jb, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(strings.TrimSuffix(path, ".wav")+".json", jb, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// vmicFiles are played by default: a clean, a noisy and a party recording
// with two codes each, about 11 s long.
var vmicFiles = []string{"dev-015.wav", "dev-035.wav", "dev-012.wav"}

const (
	vmicBedDB        = -85.0 // dBFS, RMS of the microphone's own noise
	vmicBedRate      = 44100
	vmicFade         = 0.5 // seconds, at most, of fade-in
	vmicRelTolerance = 0.1 // seconds, code starts relative to the first code's
	vmicAttempts     = 3   // recordings of a file, if audio is lost
	// vmicTail is how much audio listen must have analysed after paplay
	// has played a file: the last code's gap, and a margin.
	vmicTail = 2 * time.Second
	// The waits below bound a hang: a busy machine is slow, not this slow.
	vmicStartTimeout = 60 * time.Second
	vmicStopTimeout  = 30 * time.Second
	vmicWait         = 60 * time.Second // for what was played to be heard
)

// vmicUnavailable skips the test, or fails it when TABLEREF_REQUIRE_MIC=1.
func vmicUnavailable(t *testing.T, format string, a ...any) {
	t.Helper()
	msg := fmt.Sprintf(format, a...)
	if os.Getenv("TABLEREF_REQUIRE_MIC") == "1" {
		t.Fatalf("TABLEREF_REQUIRE_MIC=1 but %s", msg)
	}
	t.Skip(msg)
}

// vmicStart starts a private virtual microphone server (its own VMIC_DIR, so
// that other tests playing into theirs cannot leak into these recordings)
// and stops it when the test ends. It returns the environment that points
// PulseAudio clients and PortAudio's ALSA at it, for child processes only.
func vmicStart(t *testing.T, script string) []string {
	t.Helper()
	dir, err := os.MkdirTemp("", "tableref-vmic-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute) // it may apt-get install
	defer cancel()
	server, err := vmic.Start(ctx, script, dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := server.Stop(); err != nil {
			t.Error(err)
		}
	})
	env := server.Environ()
	t.Logf("virtual microphone: %s", strings.Join(env, " "))
	return env
}

// vmicBuild builds the tableref command into a temporary directory.
func vmicBuild(t *testing.T, root string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "tableref")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/tableref")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// vmicLabels is the part of a corpus file's labels the test uses.
type vmicLabels struct {
	Onsets []struct {
		T float64 `json:"t"`
	} `json:"onsets"`
	Codes       []vmicCode `json:"codes"`
	Distractors []struct {
		T float64 `json:"t"`
	} `json:"distractors"`
	Speech [][2]float64 `json:"speech"`
}

// vmicCode is a code as labelled or as printed by listen --json.
type vmicCode struct {
	Start, End   float64
	Bangs, Claps int
	Order        string
	At           float64
}

func (c vmicCode) String() string { return fmt.Sprintf("%s@%.3f", c.Order, c.Start) }

func vmicOrders(cs []vmicCode) []string {
	s := make([]string, len(cs))
	for i, c := range cs {
		s[i] = fmt.Sprintf("%dB+%dC %s", c.Bangs, c.Claps, c.Order)
	}
	return s
}

// vmicOutput is one listen --json run's events.
type vmicOutput struct {
	stdout, stderr string
	start          struct {
		Source    string
		Device    string
		Rate      int
		LatencyMs float64 `json:"latency_ms"`
		Gap       float64
	}
	codes  []vmicCode
	levels []float64 // RMS of the level events, dBFS
}

func vmicParse(stdout, stderr string) (*vmicOutput, error) {
	o := &vmicOutput{stdout: stdout, stderr: stderr}
	for i, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		var ev struct{ Event string }
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			return o, fmt.Errorf("line %d: %v: %q", i+1, err, line)
		}
		var err error
		switch ev.Event {
		case "start":
			err = json.Unmarshal([]byte(line), &o.start)
		case "code":
			var c vmicCode
			err = json.Unmarshal([]byte(line), &c)
			o.codes = append(o.codes, c)
		case "level":
			var l struct{ RMS float64 }
			err = json.Unmarshal([]byte(line), &l)
			o.levels = append(o.levels, l.RMS)
		}
		if err != nil {
			return o, fmt.Errorf("line %d: %v: %q", i+1, err, line)
		}
	}
	return o, nil
}

// vmicListenWAV runs `tableref listen --json --wav file`.
func vmicListenWAV(t *testing.T, bin, file string) *vmicOutput {
	t.Helper()
	cmd := exec.Command(bin, "listen", "--json", "--wav", file)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("tableref listen --json --wav %s: %v: %s", file, err, stderr.String())
	}
	o, err := vmicParse(stdout.String(), stderr.String())
	if err != nil {
		t.Fatalf("tableref listen --json --wav %s: %v", file, err)
	}
	return o
}

func vmicCheckFile(t *testing.T, bin string, env []string, file string, raw bool) {
	lab := vmicReadLabels(t, file)
	if len(lab.Codes) == 0 {
		t.Fatalf("%s has no labelled codes", file)
	}

	wav := vmicListenWAV(t, bin, file)
	played, bed := file, ""
	if !raw {
		var seconds float64
		played, seconds = vmicFadeIn(t, file, lab)
		control := vmicListenWAV(t, bin, played)
		if problems := vmicSameCodes(control.codes, wav.codes, 0.001); len(problems) > 0 {
			t.Fatalf("test bug: the fade-in changes what --wav hears:\n%s\n--- faded in:\n%s--- as it is:\n%s",
				strings.Join(problems, "\n"), control.stdout, wav.stdout)
		}
		bed = vmicNoiseBed(t, seconds+20)
	}

	// Audio lost to input overflows (a busy machine) makes the recording
	// useless for comparison: record again, a few times at most.
	var live *vmicOutput
	lost := 0
	for attempt := 1; ; attempt++ {
		began := time.Now()
		live = vmicRecord(t, bin, env, played, bed)
		t.Logf("recorded %s in %v from %q at %d Hz (PortAudio latency %.1f ms); codes %v, --wav %v",
			filepath.Base(file), time.Since(began).Round(time.Millisecond), live.start.Device, live.start.Rate, live.start.LatencyMs,
			live.codes, wav.codes)
		if live.stderr != "" {
			t.Logf("tableref listen stderr: %s", strings.TrimSpace(live.stderr))
		}
		if lost = vmicOverflows(live.stderr); lost == 0 || attempt == vmicAttempts {
			break
		}
		t.Logf("attempt %d lost audio (%d input overflows); recording again", attempt, lost)
	}

	var problems []string
	if lost > 0 {
		problems = append(problems, fmt.Sprintf("the input overflowed (%d times) in each of %d attempts: audio was lost", lost, vmicAttempts))
	}
	if live.start.Source != "microphone" {
		problems = append(problems, fmt.Sprintf("the start event's source is %q, not microphone", live.start.Source))
	}
	if bed != "" && (len(live.levels) == 0 || live.levels[0] < vmicBedDB-15) {
		problems = append(problems, fmt.Sprintf("test bug: the microphone did not hear the noise bed (%.0f dBFS) from the start: levels %v", vmicBedDB, live.levels[:min(len(live.levels), 5)]))
	}
	// The labels: every code, exactly, in order.
	if len(live.codes) != len(lab.Codes) {
		problems = append(problems, fmt.Sprintf("microphone: %d codes, labelled %d", len(live.codes), len(lab.Codes)))
	}
	for i := range min(len(live.codes), len(lab.Codes)) {
		got, want := live.codes[i], lab.Codes[i]
		if got.Bangs != want.Bangs || got.Claps != want.Claps || got.Order != want.Order {
			problems = append(problems, fmt.Sprintf("microphone: code %d is %d bangs + %d claps (%s), labelled %d + %d (%s)",
				i+1, got.Bangs, got.Claps, got.Order, want.Bangs, want.Claps, want.Order))
		}
		rel, wantRel := got.Start-live.codes[0].Start, want.Start-lab.Codes[0].Start
		if math.Abs(rel-wantRel) > vmicRelTolerance {
			problems = append(problems, fmt.Sprintf("microphone: code %d starts %.3f s after the first, labelled %.3f s", i+1, rel, wantRel))
		}
		// Heard live, a code is reported within the gap + 100 ms of audio
		// time after its last gesture.
		if lat := got.At - got.End; lat < 0 || lat > live.start.Gap+0.1 {
			problems = append(problems, fmt.Sprintf("microphone: code %d reported %.3f s after its last gesture", i+1, lat))
		}
	}
	// The same codes as from the file.
	if g, w := strings.Join(vmicOrders(live.codes), ", "), strings.Join(vmicOrders(wav.codes), ", "); g != w {
		problems = append(problems, fmt.Sprintf("microphone and --wav differ:\n  labels:     %s\n  microphone: %s\n  --wav:      %s",
			strings.Join(vmicOrders(lab.Codes), ", "), g, w))
	}
	if len(live.codes) > 0 {
		t.Logf("playback offset on the microphone's timeline: %+.3f s (after the start event)", live.codes[0].Start-lab.Codes[0].Start)
	}
	if len(problems) > 0 {
		t.Errorf("%s\n--- tableref listen --json --levels (microphone, playing %s):\n%s--- stderr:\n%s--- tableref listen --json --wav %s:\n%s",
			strings.Join(problems, "\n"), played, vmicNoLevels(live.stdout), live.stderr, file, wav.stdout)
	}
}

// vmicOverflows reads the overflow count from listen's warning, if any.
func vmicOverflows(stderr string) int {
	m := regexp.MustCompile(`input overflowed (\d+) times`).FindStringSubmatch(stderr)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// vmicNoLevels leaves the level lines out of listen's output.
func vmicNoLevels(out string) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(out, "\n") {
		if !strings.HasPrefix(line, `{"event":"level"`) {
			b.WriteString(line)
		}
	}
	return b.String()
}

// vmicSameCodes compares codes by their gestures, and their starts within tol.
func vmicSameCodes(got, want []vmicCode, tol float64) []string {
	var problems []string
	if len(got) != len(want) {
		problems = append(problems, fmt.Sprintf("%d codes %v, want %d %v", len(got), got, len(want), want))
	}
	for i := range min(len(got), len(want)) {
		g, w := got[i], want[i]
		if g.Bangs != w.Bangs || g.Claps != w.Claps || g.Order != w.Order || math.Abs(g.Start-w.Start) > tol {
			problems = append(problems, fmt.Sprintf("code %d is %v, want %v", i+1, g, w))
		}
	}
	return problems
}

// vmicRecord runs `tableref listen --json --levels` on the virtual
// microphone while paplay plays file into it, stops it with Ctrl-C and
// returns what it printed. If bed is set, that is playing from before the
// microphone opens until it closes.
func vmicRecord(t *testing.T, bin string, env []string, file, bed string) *vmicOutput {
	t.Helper()
	childEnv := append(os.Environ(), env...)
	if bed != "" {
		noise := vmicStartProcess(t, childEnv, "paplay", bed)
		defer noise.stop()
		vmicAwaitSound(t, childEnv, noise) // flowing before the microphone opens
	}

	listen := vmicStartProcess(t, childEnv, bin, "listen", "--json", "--levels")
	// The start event comes once the stream is open.
	select {
	case <-listen.stdout.first:
	case <-listen.exited:
		t.Fatalf("tableref listen --json exited before it started listening: %v\nstdout:\n%s\nstderr:\n%s", listen.err, listen.stdout.String(), listen.stderr.String())
	case <-time.After(vmicStartTimeout):
		t.Fatalf("tableref listen --json printed nothing in %v; stderr:\n%s", vmicStartTimeout, listen.stderr.String())
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	play := exec.CommandContext(ctx, "paplay", file)
	play.Env = childEnv
	if out, err := play.CombinedOutput(); err != nil {
		t.Fatalf("paplay %s: %v: %s", file, err, out)
	}
	// paplay exits once the file has been played: listen has heard it all
	// once it has analysed vmicTail more (its level events say how far it
	// has got), however far behind a busy machine keeps it.
	played := time.Now()
	for deadline := time.Now().Add(vmicWait); !listen.stdout.heardUntil(played.Add(vmicTail)); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) || listen.done() {
			t.Fatalf("tableref listen did not analyse the %v after paplay played %s (within %v); stdout:\n%s\nstderr:\n%s",
				vmicTail, file, vmicWait, listen.stdout.String(), listen.stderr.String())
		}
	}
	if err := listen.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	select {
	case <-listen.exited:
	case <-time.After(vmicStopTimeout):
		t.Fatalf("tableref listen did not exit within %v of Ctrl-C; stdout:\n%s\nstderr:\n%s", vmicStopTimeout, listen.stdout.String(), listen.stderr.String())
	}
	if listen.err != nil {
		t.Fatalf("tableref listen --json: %v (want exit status 0)\nstdout:\n%s\nstderr:\n%s", listen.err, listen.stdout.String(), listen.stderr.String())
	}
	o, err := vmicParse(listen.stdout.String(), listen.stderr.String())
	if err != nil {
		t.Fatalf("tableref listen --json: %v", err)
	}
	return o
}

// vmicProcess is a child process running in the background.
type vmicProcess struct {
	cmd    *exec.Cmd
	stdout *vmicLines
	stderr vmicBuffer
	exited chan struct{} // closed once it has exited; err is then set
	err    error
}

// vmicStartProcess starts a command; it is killed when the test ends if it
// is still running.
func vmicStartProcess(t *testing.T, env []string, name string, args ...string) *vmicProcess {
	t.Helper()
	p := &vmicProcess{cmd: exec.Command(name, args...), stdout: &vmicLines{first: make(chan struct{})}, exited: make(chan struct{})}
	p.cmd.Env = env
	p.cmd.Stdout, p.cmd.Stderr = p.stdout, &p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		p.err = p.cmd.Wait()
		close(p.exited)
	}()
	t.Cleanup(p.stop)
	return p
}

func (p *vmicProcess) done() bool {
	select {
	case <-p.exited:
		return true
	default:
		return false
	}
}

// stop kills the process unless it has exited, and waits for it.
func (p *vmicProcess) stop() {
	if !p.done() {
		p.cmd.Process.Kill()
	}
	<-p.exited
}

// vmicBuffer is a bytes.Buffer safe for a child's output copier and the test.
type vmicBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *vmicBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *vmicBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// Len is the number of bytes written so far.
func (b *vmicBuffer) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Len()
}

// Bytes is a copy of what was written so far.
func (b *vmicBuffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return bytes.Clone(b.b.Bytes())
}

// vmicLines collects output and closes first when the first line is
// complete. It follows listen --json --levels's level events as they come,
// to tell how far into the input listen has got (heardUntil).
type vmicLines struct {
	vmicBuffer
	first chan struct{}
	once  sync.Once

	mu      sync.Mutex
	partial []byte    // the last line, incomplete
	start   time.Time // the latest the input can have started, by the level events
	upTo    float64   // the input time of the last level event, seconds
}

func (l *vmicLines) Write(p []byte) (int, error) {
	now := time.Now()
	n, err := l.vmicBuffer.Write(p)
	if bytes.IndexByte(p, '\n') >= 0 {
		l.once.Do(func() { close(l.first) })
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.partial = append(l.partial, p...)
	for {
		i := bytes.IndexByte(l.partial, '\n')
		if i < 0 {
			break
		}
		line := l.partial[:i]
		l.partial = l.partial[i+1:]
		var ev struct {
			Event string
			T     float64
		}
		if bytes.HasPrefix(line, []byte(`{"event":"level"`)) && json.Unmarshal(line, &ev) == nil {
			// A level event cannot be printed before its input was heard:
			// the earliest one against its time bounds the input's start.
			if s := now.Add(-time.Duration(ev.T * float64(time.Second))); l.start.IsZero() || s.Before(l.start) {
				l.start = s
			}
			l.upTo = max(l.upTo, ev.T)
		}
	}
	return n, err
}

// heardUntil reports whether listen has analysed its input up to the wall
// time at (up to a little later: a level event's delay in coming, at the
// least).
func (l *vmicLines) heardUntil(at time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return !l.start.IsZero() && l.upTo >= at.Sub(l.start).Seconds()
}

// vmicAwaitSound waits until what player (a paplay) plays into the virtual
// microphone is heard on it: parec records its monitor until a sample is
// not silence. A busy machine may take a while to start paplay.
func vmicAwaitSound(t *testing.T, env []string, player *vmicProcess) {
	t.Helper()
	parec := vmicStartProcess(t, env, "parec", "-d", "vmic.monitor", "--rate", strconv.Itoa(vmicBedRate), "--channels", "1",
		"--format", "s16le", "--latency-msec", "20")
	defer parec.stop()
	heard := func() bool {
		b := parec.stdout.Bytes()
		for i := 0; i+1 < len(b); i += 2 {
			if b[i] != 0 || b[i+1] != 0 {
				return true
			}
		}
		return false
	}
	for deadline := time.Now().Add(vmicWait); !heard(); time.Sleep(20 * time.Millisecond) {
		switch {
		case player.done():
			t.Fatalf("%s exited before it was heard: %v: %s", strings.Join(player.cmd.Args, " "), player.err, player.stderr.String())
		case parec.done():
			t.Fatalf("parec exited: %v: %s", parec.err, parec.stderr.String())
		case time.Now().After(deadline):
			t.Fatalf("%s was not heard on the virtual microphone within %v (%d bytes recorded)", strings.Join(player.cmd.Args, " "), vmicWait, parec.stdout.Len())
		}
	}
}

// vmicFadeIn writes file's audio, mixed to mono, fading in (a quarter
// sine) over its opening noise, before any labelled sound, so that it does
// not start with a step out of silence. It returns the path and the length
// in seconds.
func vmicFadeIn(t *testing.T, file string, lab vmicLabels) (string, float64) {
	t.Helper()
	x, rate := vmicReadWAV(t, file)

	first := math.Inf(1)
	for _, o := range lab.Onsets {
		first = min(first, o.T)
	}
	for _, d := range lab.Distractors {
		first = min(first, d.T)
	}
	for _, s := range lab.Speech {
		first = min(first, s[0])
	}
	n := int(min(vmicFade, first-0.05) * float64(rate))
	if n < rate/10 {
		t.Fatalf("%s: only %.3f s before its first labelled sound, too little to fade in; play another file", file, first)
	}
	for i := range n {
		x[i] *= math.Sin(math.Pi / 2 * float64(i) / float64(n))
	}
	path := filepath.Join(t.TempDir(), "faded-"+filepath.Base(file))
	if err := os.WriteFile(path, vmicWAV24(x, rate), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, float64(len(x)) / float64(rate)
}

// vmicReadWAV decodes a whole WAV file to mono samples.
func vmicReadWAV(t *testing.T, file string) ([]float64, int) {
	t.Helper()
	w, err := audio.OpenWAV(file)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	var x []float64
	if err := audio.Drain(w, 8192, func(b []float64) error { x = append(x, b...); return nil }); err != nil {
		t.Fatal(err)
	}
	return x, w.SampleRate()
}

// vmicNoiseBed writes the microphone's own noise: seconds of white noise at
// vmicBedDB dBFS RMS.
func vmicNoiseBed(t *testing.T, seconds float64) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(7, 11))
	amp := math.Pow(10, vmicBedDB/20)
	x := make([]float64, int(seconds*vmicBedRate))
	for i := range x {
		x[i] = amp * rng.NormFloat64()
	}
	path := filepath.Join(t.TempDir(), "bed.wav")
	if err := os.WriteFile(path, vmicWAV24(x, vmicBedRate), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// vmicWAV24 encodes mono samples as a 24-bit PCM WAV file.
func vmicWAV24(x []float64, rate int) []byte {
	data := 3 * len(x)
	le := binary.LittleEndian
	b := make([]byte, 0, 44+data)
	b = append(b, "RIFF"...)
	b = le.AppendUint32(b, uint32(36+data))
	b = append(b, "WAVEfmt "...)
	b = le.AppendUint32(b, 16)
	b = le.AppendUint16(b, 1) // PCM
	b = le.AppendUint16(b, 1) // mono
	b = le.AppendUint32(b, uint32(rate))
	b = le.AppendUint32(b, uint32(3*rate))
	b = le.AppendUint16(b, 3)
	b = le.AppendUint16(b, 24)
	b = append(b, "data"...)
	b = le.AppendUint32(b, uint32(data))
	const full = 1<<23 - 1
	for _, v := range x {
		s := int32(math.Round(max(-1, min(1, v)) * full))
		b = append(b, byte(s), byte(s>>8), byte(s>>16))
	}
	return b
}
