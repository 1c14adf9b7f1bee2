package main

import (
	"github.com/tableref/tableref/scripts/internal/corpuslabel"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkConditions times each transform plus the WAV writing on one
// corpus file (the part of a run that is not the binary's).
//
//	go test -run xxx -bench Conditions ./scripts/robustness
func BenchmarkConditions(b *testing.B) {
	root, err := repoRoot()
	if err != nil {
		b.Fatal(err)
	}
	shared := filepath.Join(root, "..", "shared", "corpus")
	rec, err := loadRecording("gestures", filepath.Join(shared, "gestures", "dev-003.json"))
	if err != nil {
		b.Skip("no corpus:", err)
	}
	voices, err := loadVoices(filepath.Join(shared, "voices"))
	if err != nil {
		b.Skip("no voices:", err)
	}
	env := &Env{Voices: voices}
	out := filepath.Join(b.TempDir(), "x.wav")
	for _, c := range conditions() {
		if c.NoGestures {
			continue
		}
		b.Run(c.Name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				clip := &Clip{Rate: rec.Rate, Ch: [][]float64{append([]float64(nil), rec.Mono...)}, Lab: corpuslabel.Clone(rec.Lab), Format: Int16}
				clip, err := c.Apply(clip, seedFor(1, rec.Name, c.Name), env)
				if err != nil {
					b.Fatal(err)
				}
				if err := writeWAV(out, clip.Rate, clip.Ch, clip.Format); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(rec.Mono))/float64(rec.Rate)*float64(b.N)/b.Elapsed().Seconds(), "x-realtime")
		})
	}
	os.Remove(out)
}
