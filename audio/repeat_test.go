package audio

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/tableref/tableref/audio/gesture"
)

// A bang of a run lands on the ringing of the last; across digital silence
// (a gate that closed between them) there is none to land on, so an onset
// after silence is never made a bang by the run rule.
func TestNoRepeatedBangAcrossDigitalSilence(t *testing.T) {
	l := NewListener(16000, Config{}, func(Event) {})
	assert.False(t, l.mayRepeat(false), "no bang heard yet")
	l.lastGest = lastGesture{on: 1600, kind: gesture.Bang, level: -20}
	assert.True(t, l.mayRepeat(false), "after a bang, on its ringing")
	assert.False(t, l.mayRepeat(true), "after a bang, but across digital silence")
	l.lastGest.kind = gesture.Clap
	assert.False(t, l.mayRepeat(false), "after a clap")
	judged := NewListener(16000, Config{Judge: func(int64, gesture.Features) gesture.Kind { return gesture.Other }}, func(Event) {})
	judged.lastGest = lastGesture{on: 1600, kind: gesture.Bang, level: -20}
	assert.False(t, judged.mayRepeat(false), "another judge than the shipped network")
}
