package main

import (
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// babble is a table of talking voices (harmonic tones rising and falling
// like syllables) over hiss; silent(t) stops them all, loud(t) makes the
// first voice 12 dB louder than the rest.
func babble(rate int, seconds float64, silent, loud func(float64) bool) []float64 {
	x := make([]float64, int(seconds*float64(rate)))
	pitches := []float64{110, 145, 190, 230}
	seed := uint32(1)
	for i := range x {
		seed = seed*1664525 + 1013904223
		x[i] = 0.0005 * (float64(seed>>8)/float64(1<<24) - 0.5)
		t := float64(i) / float64(rate)
		if silent(t) {
			continue
		}
		for v, p := range pitches {
			g := 0.02 * (0.55 + 0.45*math.Sin(2*math.Pi*(3+float64(v))*t+float64(v)))
			if v == 0 && loud(t) {
				g *= 4
			}
			for h := 1.0; h <= 5; h++ {
				x[i] += g * math.Sin(2*math.Pi*p*h*t) / h
			}
		}
	}
	return x
}

func TestListenVoicesReportsPausesAndShoutsAsJSONLines(t *testing.T) {
	const rate = 16000
	path := filepath.Join(t.TempDir(), "table.wav")
	cliWriteWAV(t, path, rate, babble(rate, 16,
		func(t float64) bool { return t >= 6 && t < 7.5 },
		func(t float64) bool { return t >= 10 && t < 12.5 }))
	r := cliRun(t, nil, "listen", "--voices", "--json", "--wav", path)
	require.Equal(t, 0, r.code, r.String())
	var pauses, shouts []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var ev map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &ev), line)
		switch ev["event"] {
		case "pause":
			pauses = append(pauses, ev)
		case "shout":
			shouts = append(shouts, ev)
		case "onset", "code":
			t.Errorf("--voices printed a gesture event: %s", line)
		}
	}
	require.Len(t, pauses, 1, r.stdout)
	assert.InDelta(t, 6.0, pauses[0]["start"], 0.2)
	assert.InDelta(t, 7.5, pauses[0]["end"], 0.2)
	require.Len(t, shouts, 1, r.stdout)
	assert.Less(t, shouts[0]["start"], 12.5)
	assert.Greater(t, shouts[0]["end"], 10.0)

	// The same file, for people.
	r = cliRun(t, nil, "listen", "--voices", "--wav", path)
	require.Equal(t, 0, r.code, r.String())
	assert.Contains(t, r.stdout, "PAUSE of 1.5 s")
	assert.Contains(t, r.stdout, "Heard 1 pause and 1 shout")

	// A longer --pause ignores it.
	r = cliRun(t, nil, "listen", "--voices", "--json", "--pause", "2", "--wav", path)
	require.Equal(t, 0, r.code, r.String())
	assert.NotContains(t, r.stdout, `"event":"pause"`)
}

func TestListenVoicesRefusesSettingsOutOfRange(t *testing.T) {
	for _, args := range [][]string{
		{"listen", "--voices", "--pause", "0", "--wav", "x.wav"},
		{"listen", "--voices", "--pause", "nan", "--wav", "x.wav"},
		{"listen", "--voices", "--shout", "90", "--wav", "x.wav"},
	} {
		r := cliRun(t, nil, args...)
		assert.Equal(t, 2, r.code, r.String())
		assert.Equal(t, 1, strings.Count(strings.TrimSpace(r.stderr), "\n")+1, r.String())
		assert.Contains(t, r.stderr, "--", r.String())
	}
}
