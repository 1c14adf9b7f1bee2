package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Labels is one recording's truth, in the format of shared/corpus/README.md.
type Labels struct {
	Tier        string       `json:"tier"`
	LaptopMic   bool         `json:"laptop_mic"`
	Onsets      []Onset      `json:"onsets"`
	Codes       []Code       `json:"codes"`
	Distractors []Distractor `json:"distractors"`
	Speech      [][2]float64 `json:"speech"`
	File        string       `json:"file"`
	SampleRate  int          `json:"sample_rate"`
	Channels    int          `json:"channels"`
	Bits        int          `json:"bits"`
	Duration    float64      `json:"duration"`
	// Condition names the transform that made the file (ours, not the corpus's).
	Condition string `json:"condition,omitempty"`
}

// Onset is a labelled gesture.
type Onset struct {
	T    float64 `json:"t"`
	Kind string  `json:"kind"`
}

// Code is a labelled trainer code.
type Code struct {
	Start float64 `json:"start"`
	End   float64 `json:"end"`
	Bangs int     `json:"bangs"`
	Claps int     `json:"claps"`
	Order string  `json:"order"`
}

// Distractor is a labelled glass clink (not a gesture).
type Distractor struct {
	T    float64 `json:"t"`
	Kind string  `json:"kind"`
}

// clone returns a deep copy, with empty (not nil) lists so that the JSON we
// write always has them.
func (l *Labels) clone() *Labels {
	c := *l
	c.Onsets = append(make([]Onset, 0, len(l.Onsets)), l.Onsets...)
	c.Codes = append(make([]Code, 0, len(l.Codes)), l.Codes...)
	c.Distractors = append(make([]Distractor, 0, len(l.Distractors)), l.Distractors...)
	c.Speech = append(make([][2]float64, 0, len(l.Speech)), l.Speech...)
	return &c
}

// shift moves every labelled time at or after `at` seconds later by d seconds.
func (l *Labels) shift(at, d float64) {
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
	return l.clone(), nil
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
