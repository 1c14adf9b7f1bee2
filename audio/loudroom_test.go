package audio

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/tableref/tableref/audio/gesture"
)

func TestAQuietRoomKeepsTheFullMargin(t *testing.T) {
	r := newLoudRoom()
	assert.Equal(t, gesture.Margin, r.margin(), "nothing heard yet")
	for _, a := range []float64{55, 48, 61, 40, 52} {
		r.heard(a)
	}
	assert.Equal(t, gesture.Margin, r.margin())
}

func TestALoudRoomLowersTheMargin(t *testing.T) {
	r := newLoudRoom()
	r.heard(20)
	assert.Equal(t, gesture.Margin, r.margin(), "one gesture does not move it")
	r.heard(20)
	assert.Zero(t, r.margin(), "hands at 20 dB over the room: no margin")
	h := newLoudRoom()
	mid := (QuietAboveDB + LoudAboveDB) / 2
	h.heard(mid)
	h.heard(mid)
	assert.InDelta(t, gesture.Margin/2, h.margin(), 1e-9, "half way, half the margin")
}

func TestALoudRoomFollowsTheLastGestures(t *testing.T) {
	r := newLoudRoom()
	for range LoudGestures {
		r.heard(20) // a fan was on
	}
	assert.Zero(t, r.margin())
	for range LoudGestures/2 + 1 {
		r.heard(50) // and is off
	}
	assert.Equal(t, gesture.Margin, r.margin(), "the median of the last %d", LoudGestures)
	assert.Equal(t, LoudGestures, r.above.n)
}
