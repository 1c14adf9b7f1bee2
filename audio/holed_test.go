package audio

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/audio/gesture"
)

// A bang of a run lands on the ringing of the last; across digital silence
// (a gate that closed between them) there is none to land on, so an onset
// after silence is never made a bang by the run rule.
func TestNoRepeatedBangAcrossDigitalSilence(t *testing.T) {
	c := judgeContext{Last: lastGesture{on: -1}}
	assert.False(t, mayRepeat(c), "no bang heard yet")
	c.Last = lastGesture{on: 1600, kind: gesture.Bang, level: -20}
	assert.True(t, mayRepeat(c), "after a bang, on its ringing")
	c.Holed = true
	assert.False(t, mayRepeat(c), "after a bang, but across digital silence")
	c.Holed = false
	c.Last.kind = gesture.Clap
	assert.False(t, mayRepeat(c), "after a clap")
}

// heardHit plays a room at -60 dBFS for a second, then, when holed, 0.3 s of
// digital silence (a gate closing), then a hit, and returns the Listener.
func heardHit(t *testing.T, holed bool) *Listener {
	const rate = 16000
	rng := rand.New(rand.NewPCG(5, 6))
	x := make([]float64, rate)
	for i := range x {
		x[i] = 0.001 * rng.NormFloat64()
	}
	if holed {
		x = append(x, make([]float64, rate*3/10)...)
	}
	x = append(x, hit(rng, rate, 0.3, 0)...)
	x = append(x, hit(rng, rate, 0, 0)...) // the room again, for the tail's time
	l, onsets := hearAll(rate, x)
	var kinds []gesture.Kind
	gestures := 0
	for _, o := range onsets {
		kinds = append(kinds, o.Kind)
		if o.Kind.IsGesture() {
			gestures++
		}
	}
	require.Equal(t, 1, gestures, "the hit is heard as a gesture (holed %v): %v", holed, kinds)
	return l
}

// hearAll runs x at rate Hz through a new Listener, to its end, and returns
// the Listener and the onsets it reported.
func hearAll(rate int, x []float64) (*Listener, []*Onset) {
	var onsets []*Onset
	l := NewListener(rate, Config{}, func(e Event) {
		if o, ok := e.(*Onset); ok {
			onsets = append(onsets, o)
		}
	})
	l.Write(x)
	l.Close()
	return l, onsets
}

// A gesture heard over the room tells how the room rings; one after digital
// silence does not (behind a gate, the burst that opened it may be talk, and
// talk goes on where a hall's ringing would be).
func TestOnlyGesturesOverTheRoomTellTheReverberation(t *testing.T) {
	assert.Equal(t, 1, heardHit(t, false).reverb.drops.n, "a hit over the room is measured")
	assert.Zero(t, heardHit(t, true).reverb.drops.n, "a hit after digital silence is not")
}

func TestAfterDigitalSilenceTheReverbMarginDoesNotApply(t *testing.T) {
	l := NewListener(16000, Config{}, func(Event) {})
	hear(&l.reverb, rand.New(rand.NewPCG(3, 4)), 3, 1.0)
	require.Less(t, l.reverb.margin(), gesture.Margin, "a hall")
	f := gesture.Features{Level: -10, Above: 50}
	assert.Less(t, l.context(0, f, false).Margin, gesture.Margin, "over the room, the hall's margin")
	assert.Equal(t, gesture.Margin, l.context(0, f, true).Margin, "after digital silence, the full margin")
}

// A stream that starts behind a closed gate has let no room through when
// its first sound opens it: that sound is judged against RoomUnknownDB, a
// quiet room, not against the digital silence (against which any sound
// stands 100 dB up) nor a room heard later; a sound after a room was heard
// is judged against that room.
func TestTheFirstSoundBehindAClosedGateIsJudgedAgainstAQuietRoom(t *testing.T) {
	const rate = 16000
	rng := rand.New(rand.NewPCG(7, 8))
	heard := func(x []float64) []*Onset {
		_, onsets := hearAll(rate, x)
		require.NotEmpty(t, onsets, "the hit is heard")
		return onsets
	}
	cold := heard(append(make([]float64, rate/2), hit(rng, rate, 0.3, 0)...))[0]
	assert.InDelta(t, cold.Features.Level-RoomUnknownDB, cold.Features.Above, 0.01, "judged against the unknown room")

	warm := make([]float64, rate)
	for i := range warm {
		warm[i] = 0.01 * rng.NormFloat64() // the room at -40 dBFS
	}
	warm = append(warm, make([]float64, rate*3/10)...)
	warm = append(warm, hit(rng, rate, 0.3, 0)...)
	onsets := heard(warm)
	o := onsets[len(onsets)-1]
	assert.InDelta(t, o.Features.Level+40, o.Features.Above, 3, "judged against the room heard before the gate closed")
}
