package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

// sliceConditions are the conditions CI checks against the targets
// on a few corpus files: the ones the front end is built to meet (see the
// README's table for all of them, and for those it does not meet yet).
var sliceConditions = []string{
	"plain", "zeros-first", "zeros-between", "fade-in", "dc-0.01", "hum-50Hz-40dB",
	"stereo-inverted", "stereo-delay-3ms", "stereo-dead", "rate-8k", "float32", "clip-12dB",
	"gated-noise", "party-noise",
}

// TestSliceMeetsTheTargets runs a slice of the robustness table (six corpus
// files, one noise clip of 30 s) and wants every condition in it to meet
// the bar for a degraded input: F1 >= 0.97, codes >= 0.85 and at
// most 2 false gestures, plain included (its own bar, codes >= 0.95, is not
// met on recordings the network has not heard yet, so it is not a gate
// here), and no false gesture in the minute of party noise, gated or not
// (the bar).
func TestSliceMeetsTheTargets(t *testing.T) {
	if testing.Short() {
		t.Skip("the robustness slice takes about 20 s; not with -short")
	}
	sharedDir(t, false)
	bin := tableref(t)
	var out, errb bytes.Buffer
	args := []string{"-files", "6", "-noise-clips", "2", "-noise-seconds", "30", "-json", "-bin", bin,
		"-only", strings.Join(sliceConditions, ",")}
	if code := run(context.Background(), args, &out, &errb); code != 0 {
		t.Fatalf("robustness %s: exit %d\n%s", strings.Join(args, " "), code, errb.String())
	}
	seen := 0
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var r struct {
			Condition string  `json:"condition"`
			F1        float64 `json:"f1"`
			Codes     float64 `json:"code_exact"`
			False     int     `json:"false"`
			Gestures  int     `json:"gestures"`
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil || r.Condition == "" {
			continue
		}
		seen++
		t.Logf("%-18s F1 %.3f codes %.3f false %d", r.Condition, r.F1, r.Codes, r.False)
		switch {
		case r.Gestures == 0: // party noise: every gesture is false
			if r.False > 0 {
				t.Errorf("%s: %d false gestures in a minute", r.Condition, r.False)
			}
		case r.F1 < 0.97 || r.Codes < 0.85 || r.False > 2:
			t.Errorf("%s misses the bar: F1 %.3f, codes %.3f, %d false gestures", r.Condition, r.F1, r.Codes, r.False)
		}
	}
	if seen != len(sliceConditions) {
		t.Fatalf("%d conditions reported, want %d:\n%s", seen, len(sliceConditions), out.String())
	}
}
