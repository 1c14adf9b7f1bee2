package mic

import (
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// These tests drive a Mic without PortAudio: the test delivers buffers the
// way the reader goroutine does.

func TestMixdown(t *testing.T) {
	assert.Equal(t, []float64{0.5, -0.25}, mixdown(nil, []float32{0.5, -0.25}, 1))
	assert.Equal(t, []float64{0.5, 0, -1}, mixdown(nil, []float32{0.25, 0.75, 1, -1, -1, -1}, 2))
	assert.Equal(t, []float64{0.5}, mixdown(nil, []float32{0.5, 0.5, 0.5, 0.5}, 4))
}

func TestReadFillsAcrossBuffersAndKeepsLeftover(t *testing.T) {
	m := newMic("fake", 8000, 2, 4)
	// Two stereo buffers of 4 frames: mono 0..7.
	for b := range 2 {
		in := make([]float32, 8)
		for f := range 4 {
			v := float32(b*4+f) / 10
			in[2*f], in[2*f+1] = v-0.05, v+0.05
		}
		m.deliver(in, false)
	}
	dst := make([]float64, 6)
	n, err := m.Read(dst)
	require.NoError(t, err)
	require.Equal(t, 6, n)
	assert.InDeltaSlice(t, []float64{0, 0.1, 0.2, 0.3, 0.4, 0.5}, dst, 1e-6)

	// The leftover 2 samples come first, then a new buffer.
	m.deliver([]float32{0.8, 0.8, 0.9, 0.9, 1, 1, -1, -1}, false)
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
