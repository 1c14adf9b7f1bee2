package mic

import (
	"io"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// These tests drive a Mic without PortAudio: the test delivers buffers the
// way the reader goroutine does.

// TestInvertedPairIsHeard: a laptop's mic pair with one channel inverted
// (a known quirk) is heard as the sound, not averaged to nothing.
func TestInvertedPairIsHeard(t *testing.T) {
	const rate, fpb = 8000, 256
	m := newMic("fake", rate, 2, fpb)
	var want []float64
	var bufs [][]float32
	for b := range rate / fpb { // a second of audio
		in := make([]float32, 2*fpb)
		for f := range fpb {
			i := b*fpb + f
			v := float32(0.3 * math.Sin(float64(i)*0.7) * math.Sin(float64(i)*0.013))
			in[2*f], in[2*f+1] = v, -v
			want = append(want, float64(v))
		}
		bufs = append(bufs, in)
	}
	go func() {
		for _, in := range bufs {
			m.deliver(in, false)
		}
	}()
	got := make([]float64, len(want))
	for n := 0; n < len(got); {
		k, err := m.Read(got[n:])
		require.NoError(t, err)
		n += k
	}
	var diff, sig float64
	for i := rate / 4; i < len(got); i++ {
		diff += (got[i] - want[i]) * (got[i] - want[i])
		sig += want[i] * want[i]
	}
	assert.Less(t, diff/sig, 1e-6, "after a quarter second the mix is the sound itself")
}

func TestReadFillsAcrossBuffersAndKeepsLeftover(t *testing.T) {
	m := newMic("fake", 8000, 1, 4)
	// Two buffers of 4 frames: 0..7 (mixing stereo is TestInvertedPairIsHeard's).
	for b := range 2 {
		in := make([]float32, 4)
		for f := range 4 {
			in[f] = float32(b*4+f) / 10
		}
		m.deliver(in, false)
	}
	dst := make([]float64, 6)
	n, err := m.Read(dst)
	require.NoError(t, err)
	require.Equal(t, 6, n)
	assert.InDeltaSlice(t, []float64{0, 0.1, 0.2, 0.3, 0.4, 0.5}, dst, 1e-6)

	// The leftover 2 samples come first, then a new buffer.
	m.deliver([]float32{0.8, 0.9, 1, -1}, false)
	n, err = m.Read(dst[:4])
	require.NoError(t, err)
	require.Equal(t, 4, n)
	assert.InDeltaSlice(t, []float64{0.6, 0.7, 0.8, 0.9}, dst[:4], 1e-6)
	assert.Equal(t, 0, m.Overflows())

	n, err = m.Read(nil)
	assert.NoError(t, err)
	assert.Equal(t, 0, n)
}

func TestReadWaitsForData(t *testing.T) {
	m := newMic("fake", 8000, 1, 2)
	go func() {
		for i := range 5 {
			time.Sleep(2 * time.Millisecond)
			m.deliver([]float32{float32(i), float32(i)}, false)
		}
	}()
	dst := make([]float64, 10)
	n, err := m.Read(dst)
	require.NoError(t, err)
	assert.Equal(t, 10, n)
	assert.Equal(t, []float64{0, 0, 1, 1, 2, 2, 3, 3, 4, 4}, dst)
}

func TestOverflowDropsOldest(t *testing.T) {
	m := newMic("fake", 40, 1, 4) // queue depth 40/4+2 = 12 buffers
	depth := cap(m.full)
	require.Equal(t, 12, depth)
	for i := range depth + 3 {
		m.deliver([]float32{float32(i), 0, 0, 0}, false)
	}
	assert.Equal(t, 3, m.Overflows())
	dst := make([]float64, 4)
	_, err := m.Read(dst)
	require.NoError(t, err)
	assert.Equal(t, 3.0, dst[0], "the three oldest buffers were dropped")

	m.deliver([]float32{0, 0, 0, 0}, true)
	assert.Equal(t, 4, m.Overflows(), "PortAudio's own overflow flag counts too")
}

func TestCloseUnblocksRead(t *testing.T) {
	m := newMic("fake", 8000, 1, 4)
	m.deliver([]float32{1, 2, 3, 4}, false)
	type result struct {
		n   int
		err error
	}
	got := make(chan result)
	go func() {
		n, err := m.Read(make([]float64, 100))
		got <- result{n, err}
	}()
	// Close once Read has taken the buffer (and, most likely, waits for the
	// next): closed before, it would rightly read nothing.
	for deadline := time.Now().Add(30 * time.Second); len(m.full) > 0; time.Sleep(time.Millisecond) {
		require.True(t, time.Now().Before(deadline), "Read never took the buffer delivered")
	}
	time.Sleep(20 * time.Millisecond)
	require.NoError(t, m.Close())
	select {
	case r := <-got:
		assert.Equal(t, 4, r.n, "what was read before Close is returned")
		assert.ErrorIs(t, r.err, io.EOF)
	case <-time.After(30 * time.Second):
		t.Fatal("Read did not return after Close")
	}
	require.NoError(t, m.Close(), "Close is idempotent")
	n, err := m.Read(make([]float64, 3))
	assert.Equal(t, 0, n)
	assert.ErrorIs(t, err, io.EOF)
	// A late delivery after Close must not block or panic.
	m.deliver([]float32{1, 2, 3, 4}, false)
}

func TestReadReportsStall(t *testing.T) {
	old := stallTimeout
	stallTimeout = 30 * time.Millisecond
	defer func() { stallTimeout = old }()
	m := newMic("USB Mic", 8000, 1, 4)
	m.deliver([]float32{1, 2, 3, 4}, false)
	n, err := m.Read(make([]float64, 8))
	assert.Equal(t, 4, n)
	require.Error(t, err)
	assert.Equal(t, `input device "USB Mic" delivered no audio for 30ms (disconnected?)`, err.Error())
}
