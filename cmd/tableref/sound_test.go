package main

import (
	"bytes"
	"encoding/binary"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/audio/mic/vmic"
)

// TestSoundPlaysThroughTheDefaultOutput plays the buzzer into the virtual
// microphone's speaker and records what comes out of it with parec: about
// 0.6 s of a low buzz.
func TestSoundPlaysThroughTheDefaultOutput(t *testing.T) {
	script, err := vmic.Script()
	if err != nil {
		vmicUnavailable(t, "no virtual microphone: %v", err)
	}
	env := append(os.Environ(), vmicStart(t, script)...)
	if _, err := exec.LookPath("parec"); err != nil {
		t.Fatalf("virtual-mic started but parec is not installed: %v", err)
	}
	const rate = 44100
	var rec bytes.Buffer
	parec := exec.Command("parec", "-d", "vmic.monitor", "--rate", "44100", "--channels", "1", "--format", "s16le", "--latency-msec", "20")
	parec.Env, parec.Stdout = env, &rec
	require.NoError(t, parec.Start())
	time.Sleep(300 * time.Millisecond)
	r := cliRun(t, env, "sound", "buzzer")
	time.Sleep(300 * time.Millisecond)
	parec.Process.Kill()
	parec.Wait()
	require.Equal(t, 0, r.code, r.String())
	assert.Contains(t, r.stdout, "Playing the buzzer.")

	x := make([]int16, rec.Len()/2)
	require.NoError(t, binary.Read(bytes.NewReader(rec.Bytes()[:2*len(x)]), binary.LittleEndian, x))
	// The loud stretch, in 10 ms blocks.
	const blk = rate / 100
	first, last := -1, -1
	for i := 0; i+blk <= len(x); i += blk {
		var peak int16
		for _, v := range x[i : i+blk] {
			peak = max(peak, v, -v)
		}
		if peak > 3000 {
			if first < 0 {
				first = i
			}
			last = i + blk
		}
	}
	require.True(t, first >= 0, "nothing was heard from the speaker (%d samples recorded)", len(x))
	seconds := float64(last-first) / rate
	assert.InDelta(t, 0.6, seconds, 0.1, "the buzzer lasts 0.6 s")
	crossings := 0
	for i := first + 1; i < last; i++ {
		if x[i-1] < 0 && x[i] >= 0 {
			crossings++
		}
	}
	assert.InDelta(t, 150, float64(crossings)/seconds, 45, "the buzz is low")
}

func TestSoundRefusesAnUnknownSound(t *testing.T) {
	r := cliRun(t, nil, "sound", "gong")
	cliAssertError(t, r, 2, "no sound \"gong\"", "alarm, buzzer, chime, tick")
}
