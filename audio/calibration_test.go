package audio_test

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/audio"
	"github.com/tableref/tableref/audio/gesture"
)

// heardWith runs a recording through a Listener with cfg and returns the
// gestures it heard, with what it measured of them.
func heardWith(t *testing.T, wav string, cfg audio.Config) []*audio.Onset {
	t.Helper()
	src, err := audio.OpenWAV(wav)
	require.NoError(t, err)
	defer src.Close()
	var out []*audio.Onset
	l := audio.NewListener(src.SampleRate(), cfg, func(e audio.Event) {
		if o, ok := e.(*audio.Onset); ok && o.Kind.IsGesture() {
			out = append(out, o)
		}
	})
	require.NoError(t, audio.Drain(src, 4096, func(x []float64) error { l.Write(x); return nil }))
	l.Close()
	return out
}

// taughtBy is what a microphone check would learn from the first n claps
// and n bangs of a labelled recording, as the Listener heard them (the
// labels say which is which; the check knows it by their place).
func taughtBy(t *testing.T, heard []*audio.Onset, lab label, n int) (claps, bangs []gesture.Features, band gesture.Band) {
	t.Helper()
	for _, g := range lab.Onsets {
		for _, o := range heard {
			if math.Abs(o.Time-g.T) > 0.05 {
				continue
			}
			if g.Kind == "clap" && len(claps) < n {
				claps = append(claps, o.Features)
				band = o.Band
			} else if g.Kind == "bang" && len(bangs) < n {
				bangs = append(bangs, o.Features)
			}
			break
		}
	}
	return claps, bangs, band
}

// TestTheShippedJudgeHearsWithTheCalibration: a calibration taught that a
// recording's bangs are claps and its claps bangs (as a check whose claps
// and bangs were made the other way round would be) names them so, in the
// band it was taught in only, and SetCalibration changes it mid-stream.
func TestTheShippedJudgeHearsWithTheCalibration(t *testing.T) {
	dir := corpusDir(t)
	wav := filepath.Join(dir, "dev-015.wav")
	b, err := os.ReadFile(strings.TrimSuffix(wav, ".wav") + ".json")
	require.NoError(t, err)
	var lab label
	require.NoError(t, json.Unmarshal(b, &lab))
	plain := heardWith(t, wav, audio.Config{})
	claps, bangs, band := taughtBy(t, plain, lab, 2)
	require.Len(t, claps, 2)
	require.Len(t, bangs, 2)
	backwards, err := gesture.Learn(band, bangs, claps)
	require.NoError(t, err)
	require.True(t, backwards.Teaches(), "the network names these rightly; taught backwards, it is corrected")

	count := func(gs []*audio.Onset) (same, swapped int) {
		for _, o := range gs {
			for _, p := range plain {
				if p.Sample == o.Sample {
					if p.Kind == o.Kind {
						same++
					} else {
						swapped++
					}
				}
			}
		}
		return
	}
	same, swapped := count(heardWith(t, wav, audio.Config{Calibration: backwards}))
	t.Logf("taught backwards: %d gestures named the other way round, %d as before", swapped, same)
	assert.Greater(t, swapped, 3*same, "the recording's gestures sound like its first ones, and are named as the check taught")

	narrow, err := gesture.Learn(gesture.Narrow, bangs, claps)
	require.NoError(t, err)
	same, swapped = count(heardWith(t, wav, audio.Config{Calibration: narrow}))
	assert.Equal(t, 0, swapped, "a calibration taught on a telephone line does not name a microphone's sounds")
	assert.Positive(t, same)

	// From its middle on, the Listener hears with the calibration.
	src, err := audio.OpenWAV(wav)
	require.NoError(t, err)
	defer src.Close()
	half := int64(src.Info().Seconds() / 2 * float64(src.SampleRate()))
	var late []*audio.Onset
	var early int
	l := audio.NewListener(src.SampleRate(), audio.Config{}, func(e audio.Event) {
		if o, ok := e.(*audio.Onset); ok && o.Kind.IsGesture() {
			if o.Sample < half-int64(src.SampleRate()) {
				for _, p := range plain {
					if p.Sample == o.Sample && p.Kind == o.Kind {
						early++
					}
				}
			} else if o.Sample > half+int64(src.SampleRate()) {
				late = append(late, o)
			}
		}
	})
	require.NoError(t, audio.Drain(src, 4096, func(x []float64) error {
		if l.Position() >= half {
			l.SetCalibration(backwards)
		}
		l.Write(x)
		return nil
	}))
	l.Close()
	assert.Positive(t, early, "before, as the network hears them")
	same, swapped = count(late)
	assert.Greater(t, swapped, 3*same, "after, as the check taught")
}

// TestACalibrationFromTheCorpusOwnGesturesHurtsNothing: each labelled
// recording of the corpus is a table whose check is played by its own
// first two claps and two bangs. Where the network named them rightly, the
// calibration changes nothing at all; over the corpus the gestures and
// codes are heard as well as without it.
func TestACalibrationFromTheCorpusOwnGesturesHurtsNothing(t *testing.T) {
	dir := corpusDir(t)
	files, err := filepath.Glob(filepath.Join(dir, "dev-*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	var without, with score
	teach := 0
	for _, jf := range files {
		b, err := os.ReadFile(jf)
		require.NoError(t, err)
		var lab label
		require.NoError(t, json.Unmarshal(b, &lab))
		wav := strings.TrimSuffix(jf, ".json") + ".wav"
		claps, bangs, band := taughtBy(t, heardWith(t, wav, audio.Config{}), lab, 2)
		if len(claps) < 2 || len(bangs) < 2 {
			continue
		}
		c, err := gesture.Learn(band, claps, bangs)
		require.NoError(t, err)
		var a, b2 score
		scoreFile(t, wav, lab, &a)
		scoreFileWith(t, wav, lab, audio.Config{Calibration: c}, &b2)
		if c.Teaches() {
			teach++
			t.Logf("%s: the network misnamed a gesture of its check: class right %d -> %d of %d, codes exact %d -> %d of %d",
				filepath.Base(wav), a.cls, b2.cls, a.tp, a.exact, b2.exact, a.codes)
		} else {
			require.Equal(t, a, b2, "%s: a calibration that agrees with the network changes nothing", filepath.Base(wav))
		}
		for _, p := range []struct{ from, into *score }{{&a, &without}, {&b2, &with}} {
			p.into.tp += p.from.tp
			p.into.fp += p.from.fp
			p.into.fn += p.from.fn
			p.into.cls += p.from.cls
			p.into.codes += p.from.codes
			p.into.exact += p.from.exact
			p.into.extra += p.from.extra
		}
	}
	t.Logf("%d recordings, %d of whose checks teach: class %.3f -> %.3f, codes exact %.3f -> %.3f, extra codes %d -> %d",
		len(files), teach, without.classAcc(), with.classAcc(), without.codeExact(), with.codeExact(), without.extra, with.extra)
	assert.GreaterOrEqual(t, with.cls, without.cls, "gestures of the right kind")
	assert.GreaterOrEqual(t, with.exact, without.exact, "codes heard exactly")
	assert.LessOrEqual(t, with.extra, without.extra, "extra codes")
}
