// Package vmic drives the headless "virtual microphone" that tests record
// from: shared/tools/virtual-mic, checked out beside the repository, runs a
// private PulseAudio server whose null sink is what PortAudio's default input
// records, so what a test plays with paplay is what tableref hears.
//
// It is a helper for tests (as net/http/httptest is), kept out of _test
// files so that every package recording from the microphone shares one
// implementation.
package vmic

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Required lists the variables the script must print: together they point
// PulseAudio clients and PortAudio's ALSA at the private server.
var Required = []string{"PULSE_SERVER", "ALSA_CONFIG_PATH"}

// ModuleRoot walks up from the working directory to the one holding go.mod.
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("go.mod not found above the working directory")
		}
		dir = parent
	}
}

// Shared returns the shared/ directory checked out beside the module.
func Shared() (string, error) {
	root, err := ModuleRoot()
	if err != nil {
		return "", err
	}
	return filepath.Join(filepath.Dir(root), "shared"), nil
}

// Script returns the path of the virtual-mic script, or an error saying it
// is missing.
func Script() (string, error) {
	shared, err := Shared()
	if err != nil {
		return "", err
	}
	script := filepath.Join(shared, "tools", "virtual-mic")
	if _, err := os.Stat(script); err != nil {
		return "", fmt.Errorf("%s is missing (the repository's shared/ must be checked out beside it)", script)
	}
	return script, nil
}

// Server is a started virtual microphone.
type Server struct {
	Script  string            // the virtual-mic script
	Dir     string            // its VMIC_DIR: socket, pid file, log
	Env     map[string]string // the variables it printed (see Required)
	Started bool              // Start started it; it was not already running
}

// Start runs `virtual-mic start` with VMIC_DIR=dir (the script may apt-get
// install what it needs, so give ctx minutes) and reads the variables it
// prints. A server already running in dir is reused.
func Start(ctx context.Context, script, dir string) (*Server, error) {
	s := &Server{Script: script, Dir: dir}
	was := Running(dir)
	cmd := exec.CommandContext(ctx, "sh", script, "start")
	cmd.Env = s.scriptEnv()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if log, lerr := os.ReadFile(filepath.Join(dir, "pulse.log")); lerr == nil && len(log) > 0 {
			msg += "\npulse.log:\n" + string(log)
		}
		return nil, fmt.Errorf("%s start: %v: %s", script, err, msg)
	}
	s.Started = !was
	env, err := ParseExports(string(out))
	if err != nil {
		return nil, err
	}
	for _, k := range Required {
		if env[k] == "" {
			return nil, fmt.Errorf("virtual-mic start printed no %s: %q", k, out)
		}
	}
	s.Env = env
	return s, nil
}

// Environ returns the Required variables as NAME=value, sorted, to append to
// a child process's environment.
func (s *Server) Environ() []string {
	var env []string
	for _, k := range Required {
		env = append(env, k+"="+s.Env[k])
	}
	sort.Strings(env)
	return env
}

// Stop runs `virtual-mic stop` and waits (up to 5 s) for the server to exit,
// since it still writes into Dir as it goes.
func (s *Server) Stop() error {
	pid := pidOf(s.Dir)
	cmd := exec.Command("sh", s.Script, "stop")
	cmd.Env = s.scriptEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("virtual-mic stop: %v: %s", err, bytes.TrimSpace(out))
	}
	for deadline := time.Now().Add(5 * time.Second); pid > 0 && syscall.Kill(pid, 0) == nil && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	return nil
}

func (s *Server) scriptEnv() []string {
	return append(os.Environ(), "VMIC_DIR="+s.Dir)
}

// Running reports whether dir's pulse.pid names a live process.
func Running(dir string) bool {
	pid := pidOf(dir)
	return pid > 0 && syscall.Kill(pid, 0) == nil
}

func pidOf(dir string) int {
	b, err := os.ReadFile(filepath.Join(dir, "pulse.pid"))
	if err != nil {
		return 0
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		return 0
	}
	return pid
}

// ParseExports reads the script's output: lines like `export A=x B=y`.
func ParseExports(s string) (map[string]string, error) {
	env := map[string]string{}
	for _, line := range strings.Split(s, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		rest, ok := strings.CutPrefix(line, "export ")
		if !ok {
			return nil, fmt.Errorf("virtual-mic start printed %q, not an export line", line)
		}
		for _, kv := range strings.Fields(rest) {
			k, v, ok := strings.Cut(kv, "=")
			if !ok {
				return nil, fmt.Errorf("virtual-mic start printed %q, not NAME=value", kv)
			}
			env[k] = strings.Trim(v, `"'`)
		}
	}
	return env, nil
}
