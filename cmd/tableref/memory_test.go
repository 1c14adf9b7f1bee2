//go:build linux

package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestMemoryConstantInLength checks the promise that memory is constant in
// the length of the input (a one-hour file is never loaded whole): the peak
// resident memory of `tableref listen --json --wav F` on a one-hour file
// must be within memSlackKB of that on a one-minute file made the same way,
// and below memLimitKB. Maxrss is in kilobytes, as Linux reports it.
//
// The files are 16-bit mono 8 kHz (the hour is 57.6 MB), written a second
// at a time. tableref is built without -race, so its memory is what users
// get. The hour takes about 6 s to analyse; the whole test about 10 s.
//
// On Linux a child's Maxrss is never below the peak RSS of the process that
// started it: the kernel carries the spawner's high-water mark across
// vfork+exec. Started straight from this -race test binary (about 23 MB),
// tableref would report the test's peak for both files and a growth of
// 10 MB would go unseen. So tableref is started by a tiny non-race spawner
// (built here from spawnerSource) that reads the child's
// ProcessState.SysUsage().(*syscall.Rusage).Maxrss and hands it back.
func TestMemoryConstantInLength(t *testing.T) {
	if testing.Short() {
		t.Skip("builds tableref and analyses an hour of audio; skipped with -short")
	}
	const (
		rate       = 8000
		memSlackKB = 16 << 10  // 16 MB
		memLimitKB = 100 << 10 // 100 MB
	)
	dir := t.TempDir()
	bin := goBuild(t, ".", filepath.Join(dir, "tableref"))
	src := filepath.Join(dir, "spawner.go")
	if err := os.WriteFile(src, []byte(spawnerSource), 0o644); err != nil {
		t.Fatal(err)
	}
	spawner := goBuild(t, src, filepath.Join(dir, "spawner"))

	minute := filepath.Join(dir, "minute.wav")
	hour := filepath.Join(dir, "hour.wav")
	writeClapWAV(t, minute, rate, 60)
	writeClapWAV(t, hour, rate, 3600)
	if st, err := os.Stat(hour); err != nil || st.Size() != 44+3600*rate*2 {
		t.Fatalf("hour file: %v, %v", st, err)
	}

	short := runForMaxRSS(t, spawner, bin, minute)
	long := runForMaxRSS(t, spawner, bin, hour)
	for _, r := range []listenRun{short, long} {
		t.Logf("%-10s Maxrss %6d KB (%.1f MB), %4d onsets, %v (spawner's own peak %d KB; Maxrss seen from this test process %d KB)",
			r.name, r.maxRSS, float64(r.maxRSS)/1024, r.onsets, r.took, r.floor, r.direct)
	}

	// The files must really have been analysed: two bursts every 2.5-4.5 s.
	if short.onsets < 60/4 || long.onsets < 3600/4 {
		t.Errorf("too few onsets heard (%d in a minute, %d in an hour): the test signal is not exercising the analysis", short.onsets, long.onsets)
	}
	if long.maxRSS >= short.maxRSS+memSlackKB {
		t.Errorf("peak memory grows with the input's length: %d KB for an hour against %d KB for a minute (allowed: +%d KB)",
			long.maxRSS, short.maxRSS, memSlackKB)
	}
	if long.maxRSS >= memLimitKB {
		t.Errorf("peak memory for an hour of audio is %d KB, over %d KB", long.maxRSS, memLimitKB)
	}
}

// goBuild builds pkg (a directory or a .go file) into out.
func goBuild(t *testing.T, pkg, out string) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH")
	}
	cmd := exec.Command(goTool, "build", "-o", out, pkg)
	if filepath.Ext(pkg) == ".go" {
		cmd.Dir = filepath.Dir(pkg) // a lone file, outside the module
		cmd.Env = append(os.Environ(), "GOFLAGS=", "GOWORK=off")
	}
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, b)
	}
	return out
}

// spawnerSource runs the command in os.Args[2:] with its own stdout and
// stderr, then writes to the file os.Args[1] the child's Maxrss and the
// spawner's own peak RSS (VmHWM, the floor under the child's figure), and
// exits with the child's status.
const spawnerSource = `package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
)

func main() {
	cmd := exec.Command(os.Args[2], os.Args[3:]...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	err := cmd.Run()
	if cmd.ProcessState == nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(125)
	}
	hwm := "0"
	if b, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmHWM:" {
				hwm = f[1]
			}
		}
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if err := os.WriteFile(os.Args[1], []byte(fmt.Sprintf("%d %s\n", ru.Maxrss, hwm)), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(125)
	}
	os.Exit(cmd.ProcessState.ExitCode())
}
`

type listenRun struct {
	name   string
	maxRSS int64 // tableref's Maxrss, KB
	floor  int64 // the spawner's peak RSS, KB: Maxrss cannot read lower
	direct int64 // the spawner's Maxrss as this process sees it, KB
	onsets int
	took   time.Duration
}

// runForMaxRSS runs `tableref listen --json --wav path` through the
// spawner, discarding its output except for counting onset lines, and
// returns tableref's peak resident memory.
func runForMaxRSS(t *testing.T, spawner, bin, path string) listenRun {
	t.Helper()
	res := path + ".rusage"
	var stderr bytes.Buffer
	lines := &onsetCounter{}
	cmd := exec.Command(spawner, res, bin, "listen", "--json", "--wav", path)
	cmd.Stdout = lines
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("tableref listen --json --wav %s: %v\n%s", filepath.Base(path), err, stderr.Bytes())
	}
	r := listenRun{name: filepath.Base(path), onsets: lines.onsets, took: time.Since(start).Round(time.Millisecond)}
	b, err := os.ReadFile(res)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fmt.Sscan(string(b), &r.maxRSS, &r.floor); err != nil {
		t.Fatalf("spawner's report %q: %v", b, err)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.direct = int64(ru.Maxrss)
	}
	return r
}

// onsetCounter counts the JSON lines that are onset events and keeps nothing
// else.
type onsetCounter struct {
	partial []byte // the start of a line split across writes
	onsets  int
}

func (c *onsetCounter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			c.partial = append(c.partial, p...)
			break
		}
		line := p[:i]
		if len(c.partial) > 0 {
			line = append(c.partial, line...)
			c.partial = c.partial[:0]
		}
		if bytes.Contains(line, []byte(`"event":"onset"`)) {
			c.onsets++
		}
		p = p[i+1:]
	}
	return n, nil
}

// writeClapWAV streams sec seconds of 16-bit mono audio at rate to path, a
// second at a time: low noise (about -50 dBFS) with a pair of clap-like
// bursts (15 ms of loud, decaying noise, half a second apart: a code, as a
// gesture alone is taken back) every 2.5 to 4.5 seconds.
func writeClapWAV(t *testing.T, path string, rate, sec int) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<16)
	data := uint32(sec * rate * 2)
	var h [44]byte
	copy(h[0:], "RIFF")
	binary.LittleEndian.PutUint32(h[4:], 36+data)
	copy(h[8:], "WAVEfmt ")
	binary.LittleEndian.PutUint32(h[16:], 16)
	binary.LittleEndian.PutUint16(h[20:], 1) // PCM
	binary.LittleEndian.PutUint16(h[22:], 1) // mono
	binary.LittleEndian.PutUint32(h[24:], uint32(rate))
	binary.LittleEndian.PutUint32(h[28:], uint32(2*rate))
	binary.LittleEndian.PutUint16(h[32:], 2)
	binary.LittleEndian.PutUint16(h[34:], 16)
	copy(h[36:], "data")
	binary.LittleEndian.PutUint32(h[40:], data)
	w.Write(h[:])

	rng := rand.New(rand.NewPCG(7, uint64(sec)))
	burstLen := rate * 15 / 1000
	nextBurst := rate // the first at 1 s
	burstAt, amp, second := -burstLen, 0.0, false
	block := make([]byte, 2*rate)
	for s := 0; s < sec; s++ {
		for i := range rate {
			n := s*rate + i
			if n == nextBurst {
				burstAt, amp = n, 0.3+0.4*rng.Float64()
				if second = !second; second {
					nextBurst += rate / 2
				} else {
					nextBurst += 2*rate + rng.IntN(2*rate)
				}
			}
			v := 0.003 * (2*rng.Float64() - 1)
			if k := n - burstAt; k < burstLen {
				v += amp * math.Exp(-5*float64(k)/float64(burstLen)) * (2*rng.Float64() - 1)
			}
			binary.LittleEndian.PutUint16(block[2*i:], uint16(int16(max(-32768, min(32767, math.Round(v*32767))))))
		}
		if _, err := w.Write(block); err != nil {
			f.Close()
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
