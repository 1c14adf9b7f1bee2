package audio

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/audio/gesture"
	"github.com/tableref/tableref/audio/voice"
)

// TestAHallNamesALateHitAsADryRoomWould: once the room is found
// reverberant, a sound that peaks late and holds in the few milliseconds
// the network hears (as a hall's reflections make any hit do) is named as
// the same sound peaking at HallAttackMs and not holding would be. The
// bangs of the corpus, given a hall's late peak and hold, are the test:
// the dry room's judgement changes for many of them, the hall's must not.
func TestAHallNamesALateHitAsADryRoomWould(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "shared", "corpus", "gestures", "*.wav"))
	if len(files) == 0 {
		if os.Getenv("TABLEREF_REQUIRE_CORPUS") == "1" {
			t.Fatal("the labelled recordings are not at ../shared/corpus/gestures")
		}
		t.Skip("the labelled recordings are not at ../shared/corpus/gestures")
	}
	var bangs []gesture.Features
	for _, f := range files[:min(len(files), 12)] {
		w, err := OpenWAV(f)
		require.NoError(t, err)
		l := NewListener(w.SampleRate(), Config{}, func(e Event) {
			if o, ok := e.(*Onset); ok && o.Kind == gesture.Bang {
				bangs = append(bangs, o.Features)
			}
		})
		require.NoError(t, Drain(w, 4096, func(x []float64) error { l.Write(x); return nil }))
		l.Close()
	}
	judge := func(f gesture.Features, wet float64) gesture.Kind {
		c := judgeContext{Band: gesture.Wide, Wet: wet, Margin: marginToward(WetMargin, wet), Last: lastGesture{on: -1}}
		return (&shippedJudge{}).judge(f, c).Kind
	}
	changed := 0
	for _, f := range bangs {
		late, dry := f, f
		late.AttackMs, late.Decay = 22, 3 // a hall's build-up
		dry.AttackMs, dry.Decay = HallAttackMs, HallDecayDB
		if judge(late, 0) != judge(dry, 0) {
			changed++
		}
		assert.Equal(t, judge(dry, 1), judge(late, 1), "in a hall, a late peak and a hold change nothing (bang at %.1f dBFS)", f.Level)
	}
	t.Logf("%d bangs; a late peak and a hold change the dry room's judgement of %d", len(bangs), changed)
	require.GreaterOrEqual(t, changed, 5, "the test's premise: in a dry room, a late peak and a hold make many a bang something else")
}

// TestAHallsGestureIsAWordAtItsFirstVoicedFrame: a gesture named only as
// heard in a hall is taken back at the first voiced frame of its watch; any
// other gesture needs a word's growth or its voice going on.
func TestAHallsGestureIsAWordAtItsFirstVoicedFrame(t *testing.T) {
	const rate = 16000
	x := make([]float64, int(WordWatch*rate))
	for i := range x {
		x[i] = 0.3 * math.Exp(-float64(i)/(0.02*rate)) * math.Sin(float64(i)) // a hit dying away
	}
	for _, hall := range []bool{false, true} {
		w := newWordWatch(rate)
		w.start(0, gesture.Bang, x, nil)
		w.hall = hall
		w.voiceFrame(voice.Frame{End: int64(0.2*rate) + w.frame}, true) // one voiced frame, 0.2 s on
		assert.Equal(t, hall, w.word(int64(len(x)), rate), "hall %v", hall)
	}
}
