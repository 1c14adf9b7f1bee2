package gesture_test

import (
	"encoding/json"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/audio/gesture"
	"github.com/tableref/tableref/audio/gesture/internal/table"
)

// devGestures are the development corpus's claps and bangs that the
// network names rightly, by recording.
func devGestures(t testing.TB) map[string][]table.Example {
	t.Helper()
	ex, err := table.Read("testdata/dev.csv.gz")
	require.NoError(t, err)
	out := map[string][]table.Example{}
	for _, e := range ex {
		if k := table.Kind(e.Label); k.IsGesture() && gesture.Classify(e.F) == k {
			file, _, _ := strings.Cut(e.Name, "@")
			out[file] = append(out[file], e)
		}
	}
	require.NotEmpty(t, out)
	return out
}

// firstOf is the features of the first n gestures of kind k.
func firstOf(ex []table.Example, k gesture.Kind, n int) []gesture.Features {
	var out []gesture.Features
	for _, e := range ex {
		if table.Kind(e.Label) == k && len(out) < n {
			out = append(out, e.F)
		}
	}
	return out
}

func TestTheCalibrationsUnitsAreTheCorpusSpread(t *testing.T) {
	ex, err := table.Read("testdata/dev.csv.gz")
	require.NoError(t, err)
	var sum, sq []float64
	n := 0
	for _, e := range ex {
		if !table.Kind(e.Label).IsGesture() {
			continue
		}
		p := gesture.CalibPoint(e.F)
		if sum == nil {
			sum, sq = make([]float64, len(p)), make([]float64, len(p))
		}
		for i, v := range p {
			sum[i] += v
			sq[i] += v * v
		}
		n++
	}
	require.Len(t, gesture.CalibScale, len(sum))
	for i := range sum {
		mean := sum[i] / float64(n)
		sd := math.Sqrt(sq[i]/float64(n) - mean*mean)
		assert.InEpsilon(t, sd, gesture.CalibScale[i], 0.02, "feature %d: the spread of the corpus's claps and bangs", i)
	}
}

func TestACalibrationThatAgreesWithTheNetworkChangesNothing(t *testing.T) {
	files := devGestures(t)
	checked := 0
	for name, ex := range files {
		claps, bangs := firstOf(ex, gesture.Clap, 2), firstOf(ex, gesture.Bang, 2)
		if len(claps) < 2 || len(bangs) < 2 {
			continue
		}
		c, err := gesture.Learn(gesture.Wide, claps, bangs)
		require.NoError(t, err)
		mc, mb := c.Misnamed()
		require.Equal(t, [2]int{0, 0}, [2]int{mc, mb}, name)
		require.False(t, c.Teaches(), name)
		for _, e := range ex {
			for _, k := range []gesture.Kind{gesture.Clap, gesture.Bang, gesture.Other} {
				require.Equal(t, k, c.Name(e.F, k), "%s: %s", name, e.Name)
			}
		}
		checked++
	}
	require.Greater(t, checked, 10)
	var none *gesture.Calibration
	assert.Equal(t, gesture.Bang, none.Name(gesture.Features{}, gesture.Bang), "no calibration changes nothing")
}

// A table whose bangs the check was told were claps (and the other way
// round) teaches the calibration to name them so: the table's own gestures
// are named as the check learned them, whatever the network says.
func TestACalibrationTaughtBackwardsNamesBackwards(t *testing.T) {
	files := devGestures(t)
	var swapped, kept, taught int
	for name, ex := range files {
		claps, bangs := firstOf(ex, gesture.Clap, 2), firstOf(ex, gesture.Bang, 2)
		if len(claps) < 2 || len(bangs) < 2 {
			continue
		}
		c, err := gesture.Learn(gesture.Wide, bangs, claps)
		require.NoError(t, err)
		mc, mb := c.Misnamed()
		require.Equal(t, [2]int{2, 2}, [2]int{mc, mb}, name)
		if !c.Consistent() {
			require.False(t, c.Teaches(), "%s: gestures that disagree teach nothing", name)
			continue
		}
		require.True(t, c.Teaches(), name)
		taught++
		for _, f := range bangs {
			require.Equal(t, gesture.Clap, c.Name(f, gesture.Bang), "%s: a bang taught as a clap", name)
		}
		for _, f := range claps {
			require.Equal(t, gesture.Bang, c.Name(f, gesture.Clap), "%s: a clap taught as a bang", name)
		}
		for _, e := range ex {
			k := table.Kind(e.Label)
			require.Equal(t, gesture.Other, c.Name(e.F, gesture.Other), "what the network does not take for a gesture stays so")
			switch c.Name(e.F, k) {
			case k:
				kept++
			default:
				swapped++
			}
		}
	}
	require.Greater(t, taught, 10)
	t.Logf("%d recordings taught backwards: %d of their gestures named backwards, %d left to the network", taught, swapped, kept)
	assert.Greater(t, swapped, 2*kept, "most of a recording's gestures sound like its first ones")
}

func TestClapsAloneTeachWhatAClapIs(t *testing.T) {
	files := devGestures(t)
	taught := 0
	for name, ex := range files {
		bangs := firstOf(ex, gesture.Bang, 2)
		claps := firstOf(ex, gesture.Clap, 2)
		if len(bangs) < 2 || len(claps) < 1 {
			continue
		}
		// the table's "claps" are what the network takes for bangs
		c, err := gesture.Learn(gesture.Wide, bangs, nil)
		require.NoError(t, err)
		nc, nb := c.Taught()
		require.Equal(t, [2]int{2, 0}, [2]int{nc, nb})
		if !c.Teaches() {
			require.False(t, c.Consistent(), name)
			continue
		}
		taught++
		for _, f := range bangs {
			require.Equal(t, gesture.Clap, c.Name(f, gesture.Bang), name)
		}
		require.Equal(t, gesture.Clap, c.Name(claps[0], gesture.Clap), "%s: a clap stays a clap: claps alone say nothing of bangs", name)
	}
	require.Greater(t, taught, 10)

	// Claps the network names rightly teach nothing.
	for _, ex := range files {
		if claps := firstOf(ex, gesture.Clap, 2); len(claps) == 2 {
			c, err := gesture.Learn(gesture.Wide, claps, nil)
			require.NoError(t, err)
			require.False(t, c.Teaches())
		}
	}
}

func TestGesturesThatDisagreeTeachNothing(t *testing.T) {
	files := devGestures(t)
	found := false
	for _, ex := range files {
		claps, bangs := firstOf(ex, gesture.Clap, 2), firstOf(ex, gesture.Bang, 3)
		if len(claps) < 2 || len(bangs) < 3 {
			continue
		}
		// a "clap" that is a bang, among two real claps: the network
		// misnames it, but it is no clap like the others
		c, err := gesture.Learn(gesture.Wide, append(claps, bangs[2]), bangs[:2])
		require.NoError(t, err)
		mc, _ := c.Misnamed()
		require.Equal(t, 1, mc)
		if !c.Consistent() {
			require.False(t, c.Teaches())
			found = true
		}
	}
	require.True(t, found, "a bang among claps disagrees with them")
}

func TestLearnRefusesWhatIsNoGesture(t *testing.T) {
	f := gesture.Features{Level: -10, Sudden: 30}
	_, err := gesture.Learn(gesture.Wide, nil, []gesture.Features{f})
	require.ErrorContains(t, err, "no clap")
	_, err = gesture.Learn(gesture.Wide, make([]gesture.Features, gesture.MaxTaught+1), nil)
	require.ErrorContains(t, err, "more than 8")
	bad := f
	bad.Decay = math.NaN()
	_, err = gesture.Learn(gesture.Wide, []gesture.Features{f, bad}, nil)
	require.ErrorContains(t, err, "decay is NaN")
	_, err = gesture.Learn(gesture.Band(7), []gesture.Features{f}, nil)
	require.Error(t, err)
}

// savedCalibration is a calibration as a file holds it, from the corpus's
// first recording.
func savedCalibration(t testing.TB) []byte {
	t.Helper()
	files := devGestures(t)
	names := slices.Sorted(maps.Keys(files))
	var c *gesture.Calibration
	for _, name := range names {
		ex := files[name]
		var err error
		c, err = gesture.Learn(gesture.Wide, firstOf(ex, gesture.Bang, 2), firstOf(ex, gesture.Clap, 2))
		if err == nil && c.Teaches() { // claps taught as bangs, bangs as claps
			break
		}
	}
	require.True(t, c.Teaches())
	c.Learned = time.Date(2026, 11, 28, 21, 4, 33, 0, time.UTC)
	b, err := json.Marshal(c)
	require.NoError(t, err)
	return b
}

func TestACalibrationIsSavedAndReadBack(t *testing.T) {
	b := savedCalibration(t)
	c, err := gesture.ParseCalibration(b)
	require.NoError(t, err)
	assert.Equal(t, time.Date(2026, 11, 28, 21, 4, 33, 0, time.UTC), c.Learned)
	assert.Equal(t, gesture.Wide, c.Band())
	assert.True(t, c.Teaches())
	again, err := json.Marshal(c)
	require.NoError(t, err)
	assert.JSONEq(t, string(b), string(again))
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m))
	assert.Equal(t, 1.0, m["version"])
	assert.Equal(t, "wide", m["band"])
	assert.Contains(t, m["claps"].([]any)[0], "attackms", "features by the names of the feature tables' columns")
}

func TestABadCalibrationFileIsOneClearError(t *testing.T) {
	good := string(savedCalibration(t))
	edit := func(from, to string) string {
		require.Contains(t, good, from)
		return strings.Replace(good, from, to, 1)
	}
	for _, c := range []struct{ in, err string }{
		{"", "not a calibration"},
		{"RIFF....WAVEfmt ", "not a calibration"},
		{`{"claps": []}`, "not a calibration"},
		{`[1, 2]`, "not a calibration"},
		{edit(`"version":1`, `"version":2`), "version 2, and this tableref reads version 1: run the microphone check again"},
		{edit(`"version":1`, `"version":"1"`), "not a calibration"},
		{edit(`"band":"wide"`, `"band":"fm"`), `unknown band "fm"`},
		{edit(`"learned":"2026-11-28T21:04:33Z"`, `"learned":"yesterday"`), `learned at "yesterday", which is no time`},
		{edit(`"attackms"`, `"attack"`), "clap 1 of the calibration has no attackms: it was made by another version of tableref"},
		{edit(`"band":"wide"`, `"band":"wide","colour":"red"`), `unknown field "colour"`},
		{edit(`"attackms":`, `"loudness":3,"attackms":`), `clap 1 of the calibration has an unknown feature "loudness"`},
		{edit(`"attackms":`, `"attackms":"x","a":`), "not a calibration"},
		{good + "{}", "not a calibration"},
		{`{"version": 1, "band": "wide", "claps": [], "bangs": []}`, "teaches nothing: no clap"},
		{`{"version": 1, "band": "wide", "claps": null}`, "teaches nothing: no clap"},
		{`{"version": 1, "band": "wide", "claps": [null]}`, "has no"},
		{`{"version": 1, "band": "wide", "claps": [{},{},{},{},{},{},{},{},{}]}`, "9 claps (at most 8)"},
		{edit(`"level":`, `"level":1e999,"x":`), "not a calibration"},
		{strings.Repeat(" ", gesture.MaxCalibrationBytes+1), "larger than"},
	} {
		_, err := gesture.ParseCalibration([]byte(c.in))
		require.Error(t, err, "%.80q", c.in)
		assert.Contains(t, err.Error(), c.err, "%.80q", c.in)
		assert.NotContains(t, err.Error(), "\n", "one line")
	}
}

// FuzzParseCalibration: any bytes are read without a panic, and what is
// read is saved as a file that reads back the same.
func FuzzParseCalibration(f *testing.F) {
	good := savedCalibration(f)
	f.Add(good)
	f.Add([]byte(`{"version": 1, "band": "narrow", "claps": [{}]}`))
	f.Add([]byte(`{"version": 2}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := gesture.ParseCalibration(b)
		if err != nil {
			if c != nil || strings.Contains(err.Error(), "\n") {
				t.Fatalf("a refused file gives no calibration and one line: %v", err)
			}
			return
		}
		saved, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		again, err := gesture.ParseCalibration(saved)
		if err != nil {
			t.Fatalf("a saved calibration does not read back: %v\n%s", err, saved)
		}
		resaved, _ := json.Marshal(again)
		if string(resaved) != string(saved) {
			t.Fatalf("read back differently:\n%s\n%s", saved, resaved)
		}
		if again.Teaches() != c.Teaches() || again.Consistent() != c.Consistent() {
			t.Fatal("read back teaching differently")
		}
	})
}

// TestACalibrationFromEachRecordingsOwnGesturesHurtsLittle: every
// recording of the development corpus and of the synthetic sets the
// network was trained on (testdata) is a table whose check is played by
// its first two claps and two bangs (those the network takes for
// gestures, whatever it names them). Its other gestures are named with
// what that check taught and without.
func TestACalibrationFromEachRecordingsOwnGesturesHurtsLittle(t *testing.T) {
	paths, err := filepath.Glob("testdata/*.csv.gz")
	require.NoError(t, err)
	var tables []string
	for _, p := range paths {
		if b := filepath.Base(p); b == "dev.csv.gz" || strings.HasPrefix(b, "held") {
			tables = append(tables, p)
		}
	}
	require.NotEmpty(t, tables)
	m := gesture.Model(gesture.Wide)
	var recordings, teach, gestures, wrongBefore, wrongAfter, changed int
	for _, p := range tables {
		ex, err := table.Read(p)
		require.NoError(t, err)
		byFile := map[string][]table.Example{}
		var order []string
		for _, e := range ex {
			k := table.Kind(e.Label)
			if !k.IsGesture() || !m.Classify(e.F).IsGesture() {
				continue
			}
			file, _, _ := strings.Cut(e.Name, "@")
			if byFile[file] == nil {
				order = append(order, file)
			}
			byFile[file] = append(byFile[file], e)
		}
		for _, file := range order {
			ex := byFile[file]
			claps, bangs := firstOf(ex, gesture.Clap, 2), firstOf(ex, gesture.Bang, 2)
			if len(claps) < 2 || len(bangs) < 2 {
				continue
			}
			recordings++
			c, err := gesture.Learn(gesture.Wide, claps, bangs)
			require.NoError(t, err)
			if c.Teaches() {
				teach++
			}
			taught := 0
			for _, e := range ex {
				want := table.Kind(e.Label)
				if taught < 4 && (slices.Contains(claps, e.F) || slices.Contains(bangs, e.F)) {
					taught++
					continue
				}
				k := m.Classify(e.F)
				after := c.Name(e.F, k)
				gestures++
				if k != want {
					wrongBefore++
				}
				if after != want {
					wrongAfter++
				}
				if after != k {
					changed++
				}
			}
		}
	}
	t.Logf("%d recordings (%d of whose checks teach), %d other gestures: %d named wrongly without the calibration, %d with it (%d renamed)",
		recordings, teach, gestures, wrongBefore, wrongAfter, changed)
	require.Greater(t, recordings, 500)
	assert.LessOrEqual(t, wrongAfter-wrongBefore, gestures/1000, "at most one gesture in a thousand more named wrongly")
}
