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
	const blk = rate / 100 // 10 ms
	// samples is what parec has recorded so far; loud finds the loud
	// stretch in it, in 10 ms blocks (first < 0: none).
	samples := func(b []byte) []int16 {
		x := make([]int16, len(b)/2)
		require.NoError(t, binary.Read(bytes.NewReader(b[:2*len(x)]), binary.LittleEndian, x))
		return x
	}
	loud := func(x []int16) (first, last int) {
		first, last = -1, -1
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
		return first, last
	}
	parec := vmicStartProcess(t, env, "parec", "-d", "vmic.monitor", "--rate", "44100", "--channels", "1", "--format", "s16le", "--latency-msec", "20")
	// Recording (its first bytes have come) before the buzzer sounds.
	for deadline := time.Now().Add(vmicWait); parec.stdout.Len() == 0; time.Sleep(10 * time.Millisecond) {
		require.False(t, parec.done(), "parec exited: %v: %s", parec.err, parec.stderr.String())
		require.True(t, time.Now().Before(deadline), "parec recorded nothing in %v", vmicWait)
	}
	r := cliRun(t, env, "sound", "buzzer")
	require.Equal(t, 0, r.code, r.String())
	assert.Contains(t, r.stdout, "Playing the buzzer.")
	// Recording on until the buzz has been followed by 300 ms of quiet (the
	// speaker's buffering, and PulseAudio's and parec's, delay its end).
	for deadline := time.Now().Add(vmicWait); ; time.Sleep(20 * time.Millisecond) {
		x := samples(parec.stdout.Bytes())
		if first, last := loud(x); first >= 0 && len(x)-last >= 30*blk {
			break
		}
		require.False(t, parec.done(), "parec exited: %v: %s", parec.err, parec.stderr.String())
		if time.Now().After(deadline) {
			break // what was recorded is checked below
		}
	}
	parec.stop()

	x := samples(parec.stdout.Bytes())
	first, last := loud(x)
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
