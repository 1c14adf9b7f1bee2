package realcorpus

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestStringSingles(t *testing.T) {
	a := &PCM{Rate: 44100, Channels: 1, Bits: 16, Samples: testSignal(44100, 1, 16, 22050, 1)} // 0.5 s
	b := &PCM{Rate: 48000, Channels: 2, Bits: 16, Samples: testSignal(48000, 2, 16, 12000, 2)} // 0.25 s, stereo
	c := &PCM{Rate: 44100, Channels: 1, Bits: 24, Samples: testSignal(44100, 1, 24, 4410, 3)}  // 0.1 s, 24-bit
	x := StringSingles([]*PCM{a, b, c})
	gap := SinglesRate
	require.Len(t, x, 4*gap+22050+11025+4410, "a second before each clip and after the last; 48 kHz resampled")

	// The gaps are one second of the same quiet noise, at the level
	// score-real's sox command makes.
	g := x[:gap]
	require.InDelta(t, SinglesGapRMS, rms(g), 1e-9)
	at := gap + 22050
	require.Equal(t, g, x[at:at+gap])
	at += gap + 11025
	require.Equal(t, g, x[at:at+gap])
	require.Equal(t, g, x[len(x)-gap:])

	// A clip at the stream's rate is laid in sample for sample.
	for i, s := range a.Samples {
		require.Equal(t, float64(s)/32768, x[gap+i])
	}
	require.InDelta(t, float64(c.Samples[100])/(1<<23), x[len(x)-gap-4410+100], 1e-12)
	// The stereo clip is averaged and resampled: its two tones (440 and
	// 880 Hz, each at 0.5) are both there at half the level.
	mid := x[2*gap+22050+2000 : 2*gap+22050+9000]
	require.InDelta(t, 0.25, toneAt(mid, 440, SinglesRate), 0.01)
	require.InDelta(t, 0.25, toneAt(mid, 880, SinglesRate), 0.01)

	// No clips: a single second of quiet, as score-real strings an empty class.
	require.Len(t, StringSingles(nil), gap)
}
