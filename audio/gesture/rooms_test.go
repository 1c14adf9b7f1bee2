package gesture_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/audio/gesture"
	"github.com/tableref/tableref/audio/gesture/internal/table"
)

// TestTheNetworkOnRealRoomsItNeverHeard scores the shipped quiet-room network
// on testdata/rooms/heldT.csv.gz: 60 recordings of modelled tables (claps of
// modelled hands, knuckle and flat-hand knocks on modelled surfaces and small
// objects, laughter and talk between them) through far-field rooms, phone and
// laptop microphones, gain control, clipping, gates, 8-48 kHz capture and
// lossy codecs, made by scripts/tablecorpus with seed 99 (see its README). No
// network is trained on it: it stands for the real rooms of
// ../shared/corpus/real without being them, and its floors are what the
// shipped network measures on it (2026-11-28), to rise with the work: a
// retraining that loses ground on real rooms fails here even when the
// studio corpus holds.
func TestTheNetworkOnRealRoomsItNeverHeard(t *testing.T) {
	ex, err := table.Read(filepath.Join("testdata", "rooms", "heldT.csv.gz"))
	require.NoError(t, err)
	model := gesture.Model(gesture.Wide)
	var claps, clapsOK, bangs, bangsOK, other, otherBad int
	for _, e := range ex {
		k := model.Classify(e.F)
		switch table.Kind(e.Label) {
		case gesture.Clap:
			claps++
			clapsOK += b2i(k == gesture.Clap)
		case gesture.Bang:
			bangs++
			bangsOK += b2i(k == gesture.Bang)
		default:
			other++
			otherBad += b2i(k.IsGesture())
		}
	}
	require.Positive(t, claps*bangs*other, "claps, bangs and other sounds in the table")
	c, b, o := float64(clapsOK)/float64(claps), float64(bangsOK)/float64(bangs), float64(otherBad)/float64(other)
	t.Logf("modelled real rooms: claps named claps %d/%d (%.3f), bangs named bangs %d/%d (%.3f), other sounds taken for gestures %d/%d (%.3f)",
		clapsOK, claps, c, bangsOK, bangs, b, otherBad, other, o)
	// Measured 2026-11-28 with the shipped weights: 0.434, 0.612, 0.050.
	assert.GreaterOrEqual(t, c, 0.43, "claps named claps")
	assert.GreaterOrEqual(t, b, 0.60, "bangs named bangs")
	assert.LessOrEqual(t, o, 0.052, "other sounds taken for gestures")
}
