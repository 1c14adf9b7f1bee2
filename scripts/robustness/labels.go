package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tableref/tableref/scripts/internal/corpuslabel"
)

// The labels' types (shared/corpus/README.md's format) are corpuslabel's.
type (
	Labels     = corpuslabel.Labels
	Onset      = corpuslabel.Onset
	Code       = corpuslabel.Code
	Distractor = corpuslabel.Distractor
)

// shiftLabels moves every labelled time of l at or after `at` seconds later
// by d seconds.
func shiftLabels(l *Labels, at, d float64) {
	mv := func(t float64) float64 {
		if t >= at {
			return t + d
		}
		return t
	}
	for i := range l.Onsets {
		l.Onsets[i].T = mv(l.Onsets[i].T)
	}
	for i := range l.Codes {
		l.Codes[i].Start = mv(l.Codes[i].Start)
		l.Codes[i].End = mv(l.Codes[i].End)
	}
	for i := range l.Distractors {
		l.Distractors[i].T = mv(l.Distractors[i].T)
	}
	for i := range l.Speech {
		l.Speech[i][0] = mv(l.Speech[i][0])
		l.Speech[i][1] = mv(l.Speech[i][1])
	}
}

// Recording is one labelled corpus file, decoded and mixed down to mono.
type Recording struct {
	Set  string // the corpus it came from (its directory's base name, made unique)
	Name string // file name without .wav
	Path string
	Rate int
	Mono []float64
	Lab  *Labels
}

// listCorpus returns the label files of a corpus directory, sorted, as
// score-gestures takes them (every *.json but manifest.json).
func listCorpus(dir string) ([]string, error) {
	st, err := os.Stat(dir)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("corpus %s: %v", dir, err)
	}
	if !st.IsDir() {
		return nil, fmt.Errorf("corpus %s: not a directory", dir)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, f := range files {
		if !strings.HasSuffix(f, "manifest.json") {
			out = append(out, f)
		}
	}
	sort.Strings(out)
	if len(out) == 0 {
		return nil, fmt.Errorf("corpus %s: no labelled recordings (NAME.json + NAME.wav)", dir)
	}
	return out, nil
}

// readLabels reads one label file.
func readLabels(path string) (*Labels, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var l Labels
	if err := json.Unmarshal(raw, &l); err != nil {
		return nil, fmt.Errorf("%s: bad labels: %v", path, err)
	}
	if l.File == "" {
		l.File = strings.TrimSuffix(filepath.Base(path), ".json") + ".wav"
	}
	return corpuslabel.Clone(&l), nil
}

// loadRecording reads a label file and its WAV.
func loadRecording(set, jsonPath string) (*Recording, error) {
	lab, err := readLabels(jsonPath)
	if err != nil {
		return nil, err
	}
	wavPath := filepath.Join(filepath.Dir(jsonPath), lab.File)
	rate, chans, _, err := readWAV(wavPath)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", wavPath, err)
	}
	return &Recording{
		Set:  set,
		Name: strings.TrimSuffix(lab.File, filepath.Ext(lab.File)),
		Path: wavPath,
		Rate: rate,
		Mono: mixdown(chans),
		Lab:  lab,
	}, nil
}

// writeLabels writes labels as indented JSON.
func writeLabels(path string, l *Labels) error {
	raw, err := json.MarshalIndent(l, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(raw, '\n'), 0o644)
}
