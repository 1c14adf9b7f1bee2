package realcorpus

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strconv"
	"strings"
)

// Label is one row of a source's labels.csv (the columns are documented in
// each SOURCE.md). Only the columns the scoring needs are kept.
type Label struct {
	File     string    // CLASS/NAME.wav: the file as it was before it was stored as FLAC
	Duration float64   // duration_s
	Events   int       // n_events_auto: the hits an automatic transient detector found
	Times    []float64 // event_times_auto: when, in seconds (approximate, not hand-checked)
}

// Labels maps CLASS/NAME, without the extension, to its row: the stored
// file is CLASS/NAME.flac while the row names CLASS/NAME.wav.
type Labels map[string]Label

// ReadLabels reads SOURCE/labels.csv. A source without one has no labels
// (no hits and no durations, as score-real counts it), which is no error.
func ReadLabels(file string) (Labels, error) {
	f, err := os.Open(file)
	if errors.Is(err, fs.ErrNotExist) {
		return Labels{}, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	l, err := parseLabels(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return l, nil
}

func parseLabels(r io.Reader) (Labels, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	head, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("no header: %w", err)
	}
	col := map[string]int{}
	for i, h := range head {
		col[strings.TrimSpace(h)] = i
	}
	if _, ok := col["file"]; !ok {
		return nil, errors.New(`no "file" column`)
	}
	get := func(rec []string, name string) string {
		if i, ok := col[name]; ok && i < len(rec) {
			return strings.TrimSpace(rec[i])
		}
		return ""
	}
	out := Labels{}
	for line := 2; ; line++ {
		rec, err := cr.Read()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		var l Label
		l.File = get(rec, "file")
		// Empty fields count as zero, as score-real's `or 0` has them.
		if v := get(rec, "duration_s"); v != "" {
			if l.Duration, err = strconv.ParseFloat(v, 64); err != nil {
				return nil, fmt.Errorf("line %d: duration_s %q: %w", line, v, err)
			}
		}
		if v := get(rec, "n_events_auto"); v != "" {
			if l.Events, err = strconv.Atoi(v); err != nil {
				return nil, fmt.Errorf("line %d: n_events_auto %q: %w", line, v, err)
			}
		}
		for _, v := range strings.Fields(get(rec, "event_times_auto")) {
			t, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return nil, fmt.Errorf("line %d: event_times_auto %q: %w", line, v, err)
			}
			l.Times = append(l.Times, t)
		}
		out[strings.TrimSuffix(l.File, path.Ext(l.File))] = l
	}
}
