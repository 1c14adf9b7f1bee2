package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/audio/gesture"
)

// codeOf is the one code heard in listen --json's events.
func codeOf(t *testing.T, stdout string) string {
	t.Helper()
	var codes []string
	for _, ev := range cliEvents(t, stdout) {
		if ev["event"] == "code" {
			codes = append(codes, ev["order"].(string))
		}
	}
	require.Len(t, codes, 1, "%s", stdout)
	return codes[0]
}

// TestCLIMicCheckTeachesTheTable: a check whose two "claps" were bangs and
// whose two "bangs" were claps teaches tableref that this table's claps
// are the bangs and its bangs the claps, and listen --calibration hears
// the table so.
func TestCLIMicCheckTeachesTheTable(t *testing.T) {
	dir := t.TempDir()
	cal := filepath.Join(dir, "table.json")
	r := cliRun(t, nil, "listen", "--check", "--save-calibration", cal, "--wav", checkFile(t, "BBCC"))
	require.Equal(t, 0, r.code, "%s", r)
	assert.Contains(t, r.stdout, "Heard bang, bang, clap, clap (asked for clap, clap, bang, bang)", "%s", r)
	assert.Contains(t, r.stdout, "Learned this table: it had taken your claps for bangs and your bangs for claps; from now on a sound like your claps is a clap and a sound like your bangs is a bang. Saved to "+cal+".", "%s", r)
	c, err := readCalibration(cal)
	require.NoError(t, err)
	require.True(t, c.Teaches())
	assert.WithinDuration(t, time.Now(), c.Learned, time.Minute)

	plain := checkFile(t, "CCBB")
	r = cliRun(t, nil, "listen", "--json", "--wav", plain)
	require.Equal(t, 0, r.code, "%s", r)
	require.Equal(t, "CCBB", codeOf(t, r.stdout))
	r = cliRun(t, nil, "listen", "--json", "--calibration", cal, "--wav", plain)
	require.Equal(t, 0, r.code, "%s", r)
	require.Equal(t, "BBCC", codeOf(t, r.stdout), "this table's claps are its bangs")
	r = cliRun(t, nil, "decode", "--json", "--calibration", cal, "--order", "woodlouse,rat,spider,fly", "--wav", plain)
	require.Equal(t, 0, r.code, "%s", r)
	require.Equal(t, "BBCC", codeOf(t, r.stdout), "decode hears with it too")

	// In JSON, what it learned is an event after the check's.
	cal2 := filepath.Join(dir, "again.json")
	r = cliRun(t, nil, "listen", "--check", "--json", "--save-calibration", cal2, "--wav", checkFile(t, "BBCC"))
	require.Equal(t, 0, r.code, "%s", r)
	evs := cliEvents(t, r.stdout)
	require.Len(t, evs, 2, "%s", r)
	assert.Equal(t, "check", evs[0]["event"])
	assert.Equal(t, false, evs[0]["ok"])
	learned := evs[1]
	assert.Equal(t, "calibration", learned["event"])
	assert.Equal(t, true, learned["learned"])
	assert.Equal(t, true, learned["teaches"])
	assert.Equal(t, cal2, learned["file"])
	assert.Equal(t, 2.0, learned["claps"])
	assert.Equal(t, 2.0, learned["bangs"])
	assert.Equal(t, 2.0, learned["misnamed_claps"])
	assert.Equal(t, 2.0, learned["misnamed_bangs"])
	assert.Contains(t, learned["say"], "Learned this table")
	require.FileExists(t, cal2)

	// A check heard rightly has nothing to correct; it is saved all the
	// same, and changes nothing.
	right := filepath.Join(dir, "right.json")
	r = cliRun(t, nil, "listen", "--check", "--save-calibration", right, "--wav", plain)
	require.Equal(t, 0, r.code, "%s", r)
	assert.Contains(t, r.stdout, "All right: heard clap, clap, bang, bang.", "%s", r)
	assert.Contains(t, r.stdout, "Nothing to correct: it names your claps and your bangs rightly already. Saved to "+right+".", "%s", r)
	r = cliRun(t, nil, "listen", "--json", "--calibration", right, "--wav", plain)
	require.Equal(t, "CCBB", codeOf(t, r.stdout))
}

func TestCLIMicCheckLearnsOnlyFromFourGestures(t *testing.T) {
	dir := t.TempDir()
	// (A fifth gesture, heard within the moment the check waits after the
	// fourth, is in TestLearnTableByThePlaceOfEachGesture.)
	for order, say := range map[string]string{
		"CCB": "Learned nothing: it heard three of the four gestures, and cannot tell which was missed.",
		"":    "Learned nothing: it heard no gesture.",
	} {
		cal := filepath.Join(dir, order+".json")
		r := cliRun(t, nil, "listen", "--check", "--save-calibration", cal, "--wav", checkFile(t, order))
		assert.Equal(t, 1, r.code, "%s", r)
		assert.Contains(t, r.stdout, say, "%s", r)
		assert.Equal(t, "tableref listen: the microphone check learned nothing; "+cal+" was not written\n", r.stderr)
		assert.NoFileExists(t, cal)
	}
}

func TestCLICalibrationFlagsAndBadFiles(t *testing.T) {
	dir := t.TempDir()
	wav := checkFile(t, "CCBB")
	cliAssertError(t, cliRun(t, nil, "listen", "--save-calibration", filepath.Join(dir, "x.json"), "--wav", wav), 2, "--save-calibration", "goes with --check")
	cliAssertError(t, cliRun(t, nil, "listen", "--voices", "--calibration", filepath.Join(dir, "x.json"), "--wav", wav), 2, "--voices hears no gestures")
	cliAssertError(t, cliRun(t, nil, "listen", "--calibration", filepath.Join(dir, "nope.json"), "--wav", wav), 1, "nope.json: no such file")
	bad := filepath.Join(dir, "bad.json")
	require.NoError(t, os.WriteFile(bad, []byte("RIFF....WAVEfmt "), 0o644))
	cliAssertError(t, cliRun(t, nil, "listen", "--calibration", bad, "--wav", wav), 1, "bad.json: not a calibration")
	newer := filepath.Join(dir, "newer.json")
	require.NoError(t, os.WriteFile(newer, []byte(`{"version": 9, "band": "wide"}`), 0o644))
	cliAssertError(t, cliRun(t, nil, "listen", "--calibration", newer, "--wav", wav), 1, "a calibration of version 9", "run the microphone check again")
	cliAssertError(t, cliRun(t, nil, "serve", "--no-mic", "--calibration", bad), 2, "--calibration", "--no-mic")
	cliAssertError(t, cliRun(t, nil, "serve", "--port", "0", "--data", dir, "--calibration", bad), 1, "bad.json: not a calibration")

	// Where it cannot be written, it says so, and nothing is left behind.
	r := cliRun(t, nil, "listen", "--check", "--save-calibration", filepath.Join(dir, "no", "such", "x.json"), "--wav", checkFile(t, "BBCC"))
	assert.Equal(t, 1, r.code, "%s", r)
	assert.Contains(t, r.stderr, "cannot write the calibration to "+filepath.Join(dir, "no", "such", "x.json")+": no such file or directory", "%s", r)
	assert.Equal(t, 1, strings.Count(r.stderr, "\n"), "%s", r)
}

// gestures4 is what a check heard: letters with their times, each clap
// with the features of a clap and each bang with a bang's.
func gestures4(letters string, times ...float64) *checkGestures {
	clap := gesture.Features{Level: -8, Sudden: 35, Jump: 30, AttackMs: 2, Decay: -25, Early: 4, Centroid: 2500, Flatness: 0.4, Low: 0.05, High: 0.3, Pitch: 0.1, Tonal: 0.15, Formant: -3, Harmonic: 0.2, Fresh: 1, RiseLow: 10, RiseHigh: 40, Surprise: 30, SurpriseLow: 10}
	bang := gesture.Features{Level: -10, Sudden: 35, Jump: 30, AttackMs: 6, Decay: -6, Early: 1, Centroid: 250, Flatness: 0.002, Low: 0.8, High: 0.002, Pitch: 0.5, Tonal: 0.45, Formant: -18, Harmonic: 0.45, Fresh: 1, RiseLow: 40, RiseHigh: 10, Surprise: 25, SurpriseLow: 40}
	g := &checkGestures{}
	for i, l := range []byte(letters) {
		f := clap
		if l == 'B' {
			f = bang
		}
		g.add(l, times[i], f, gesture.Wide)
	}
	return g
}

func TestLearnTableByThePlaceOfEachGesture(t *testing.T) {
	now := time.Date(2026, 11, 28, 21, 0, 0, 0, time.UTC)
	c, say := learnTable(gestures4("CCBB", 1, 1.5, 2, 2.5), now)
	require.NotNil(t, c)
	assert.Equal(t, now, c.Learned)
	assert.NotContains(t, say, "Learned nothing") // whatever the network makes of made-up features, they are learned
	claps, bangs := c.Taught()
	assert.Equal(t, [2]int{2, 2}, [2]int{claps, bangs})

	c, say = learnTable(gestures4("CCBB", 1, 1.5, 6.5, 7), now)
	assert.Nil(t, c)
	assert.Equal(t, "Learned nothing: 5 seconds passed between two of the gestures, which is no clap, clap, bang, bang in a row.", say)

	// A "clap" that sounds like the bangs: the four disagree.
	c, say = learnTable(gestures4("CBBB", 1, 1.5, 2, 2.5), now)
	assert.Nil(t, c)
	assert.Contains(t, say, "does not sound like two claps and then two bangs")

	g := gestures4("CCBB", 1, 1.5, 2, 2.5)
	g.bands[3] = gesture.Narrow
	c, say = learnTable(g, now)
	assert.Nil(t, c)
	assert.Equal(t, "Learned nothing: the microphone changed during the check.", say)

	c, say = learnTable(gestures4("CCBBB", 1, 1.5, 2, 2.5, 2.8), now)
	assert.Nil(t, c)
	assert.Equal(t, "Learned nothing: it heard five gestures for four, and cannot tell which were the claps and which the bangs.", say)

	// A gesture taken back (a word's first burst) is no longer the check's.
	g = gestures4("CCBBB", 1, 1.5, 1.7, 2, 2.5)
	require.True(t, g.retract(1.7))
	c, _ = learnTable(g, now)
	require.NotNil(t, c)
	b, err := json.Marshal(c)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"bangs":[{`)
}
