package mic

import (
	"os/exec"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestResamplingKeepsDurationAndShape(t *testing.T) {
	x := []float32{0, 1, 0, -1, 0, 1, 0, -1}
	y := resample(x, 8000, 16000)
	require.Len(t, y, 16)
	assert.Equal(t, float32(0.5), y[1], "halfway between 0 and 1")
	assert.Equal(t, x, resample(x, 8000, 8000))
	assert.Len(t, resample(x, 16000, 8000), 4)
	assert.Empty(t, resample(nil, 8000, 48000))
}

func TestSpeakRendersASentenceAtTheSpeakersRate(t *testing.T) {
	espeak, err := exec.LookPath("espeak-ng")
	if err != nil {
		t.Skip("espeak-ng is not installed (announcements are then text only)")
	}
	x, err := Speak(espeak, "Cart, sit down!", 48000)
	require.NoError(t, err)
	seconds := float64(len(x)) / 48000
	assert.Greater(t, seconds, 0.5)
	assert.Less(t, seconds, 4.0)
	var peak float32
	for _, v := range x {
		peak = max(peak, v, -v)
	}
	assert.Greater(t, peak, float32(0.05), "it is audible")
	assert.LessOrEqual(t, peak, float32(1))

	// Text that looks like an option is still just text.
	_, err = Speak(espeak, "--version", 48000)
	require.NoError(t, err)
}
