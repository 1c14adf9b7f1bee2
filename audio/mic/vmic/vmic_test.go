//go:build unix

package vmic

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseExports(t *testing.T) {
	env, err := ParseExports("export PULSE_SERVER=unix:/tmp/v/native ALSA_CONFIG_PATH='/tmp/v/asound.conf'\n\n")
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"PULSE_SERVER": "unix:/tmp/v/native", "ALSA_CONFIG_PATH": "/tmp/v/asound.conf"}, env)
	_, err = ParseExports("virtual-mic: pulseaudio did not start")
	assert.ErrorContains(t, err, "not an export line")
	_, err = ParseExports("export PULSE_SERVER")
	assert.ErrorContains(t, err, "not NAME=value")
}

func TestRunning(t *testing.T) {
	dir := t.TempDir()
	assert.False(t, Running(dir), "no pid file")
	pid := filepath.Join(dir, "pulse.pid")
	require.NoError(t, os.WriteFile(pid, []byte(strconv.Itoa(os.Getpid())+"\n"), 0o644))
	assert.True(t, Running(dir), "this process is alive")
	require.NoError(t, os.WriteFile(pid, []byte("garbage"), 0o644))
	assert.False(t, Running(dir))
}

func TestEnviron(t *testing.T) {
	s := &Server{Env: map[string]string{"PULSE_SERVER": "unix:/x", "ALSA_CONFIG_PATH": "/y", "OTHER": "z"}}
	assert.Equal(t, []string{"ALSA_CONFIG_PATH=/y", "PULSE_SERVER=unix:/x"}, s.Environ())
}

func TestScriptFound(t *testing.T) {
	root, err := ModuleRoot()
	require.NoError(t, err)
	assert.FileExists(t, filepath.Join(root, "go.mod"))
	script, err := Script()
	if err != nil {
		assert.ErrorContains(t, err, "is missing")
		return
	}
	assert.FileExists(t, script)
}
