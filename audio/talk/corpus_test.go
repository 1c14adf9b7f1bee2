package talk_test

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/audio"
	"github.com/tableref/tableref/audio/talk"
)

// voicesLabel is a label of ../shared/corpus/voices (its README).
type voicesLabel struct {
	File   string       `json:"file"`
	Pauses [][2]float64 `json:"pauses"`
	Shouts []struct {
		Start, End float64
	} `json:"shouts"`
	Duration float64 `json:"duration"`
}

// TestTheVoicesCorpusMeetsTheTargets scores the watcher as
// ../shared/tools/score-voices does: a labelled pause is found when a
// reported pause starts within 0.3 s of it; a shout when a reported shout
// overlaps it; a reported pause overlapping no labelled one is false.
// Targets: 95 % of pauses and of shouts found, at most one false pause a
// minute. A reported shout overlapping no labelled one is a false shout.
func TestTheVoicesCorpusMeetsTheTargets(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "corpus", "voices")
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(files) == 0 {
		if os.Getenv("TABLEREF_REQUIRE_CORPUS") == "1" {
			t.Fatal("the labelled voices are not at ../shared/corpus/voices (../shared beside the repository)")
		}
		t.Skip("the labelled voices are not at ../shared/corpus/voices (../shared beside the repository)")
	}
	var pauses, pausesFound, shouts, shoutsFound, falsePauses, falseShouts int
	var minutes float64
	for _, f := range files {
		if filepath.Base(f) == "manifest.json" {
			continue
		}
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		var lab voicesLabel
		require.NoError(t, json.Unmarshal(b, &lab))
		got := heard(t, filepath.Join(dir, lab.File))
		minutes += lab.Duration / 60
		for _, p := range lab.Pauses {
			pauses++
			for _, g := range got[talk.Pause] {
				if math.Abs(g[0]-p[0]) <= 0.3 {
					pausesFound++
					break
				}
			}
		}
		for _, g := range got[talk.Pause] {
			hit := false
			for _, p := range lab.Pauses {
				hit = hit || (g[0] < p[1] && g[1] > p[0])
			}
			if !hit {
				falsePauses++
				t.Logf("%s: a false pause %.2f-%.2f", lab.File, g[0], g[1])
			}
		}
		for _, s := range lab.Shouts {
			shouts++
			for _, g := range got[talk.Shout] {
				if g[0] < s.End && g[1] > s.Start {
					shoutsFound++
					break
				}
			}
		}
		for _, g := range got[talk.Shout] {
			hit := false
			for _, s := range lab.Shouts {
				hit = hit || (g[0] < s.End && g[1] > s.Start)
			}
			if !hit {
				falseShouts++
				t.Logf("%s: a false shout %.2f-%.2f", lab.File, g[0], g[1])
			}
		}
	}
	t.Logf("pauses %d/%d, shouts %d/%d, false pauses %d, false shouts %d in %.1f min", pausesFound, pauses, shoutsFound, shouts, falsePauses, falseShouts, minutes)
	// Not a target of the issue, but a shout the table did not make is a
	// wrong accusation: at most one every two minutes (7 in 5.15 min before
	// the room level was warmed up before judging).
	assert.LessOrEqual(t, float64(falseShouts), minutes/2)
	assert.GreaterOrEqual(t, float64(pausesFound), 0.95*float64(pauses))
	assert.GreaterOrEqual(t, float64(shoutsFound), 0.95*float64(shouts))
	assert.LessOrEqual(t, float64(falsePauses), minutes)
}

// heard runs a WAV file through a Watcher, block by block as if live, and
// returns the pauses and shouts as [start, end] seconds.
func heard(t *testing.T, path string) map[talk.Kind][][2]float64 {
	w, err := audio.OpenWAV(path)
	require.NoError(t, err)
	defer w.Close()
	rate := float64(w.SampleRate())
	got := map[talk.Kind][][2]float64{}
	tw := talk.New(w.SampleRate(), talk.Config{}, func(e talk.Event) {
		if e.Kind == talk.Pause || e.Kind == talk.Shout {
			got[e.Kind] = append(got[e.Kind], [2]float64{float64(e.Start) / rate, float64(e.End) / rate})
		}
	})
	require.NoError(t, audio.Drain(w, 4096, func(x []float64) error { tw.Write(x); return nil }))
	tw.Close()
	return got
}
