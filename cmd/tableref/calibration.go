package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tableref/tableref/audio/gesture"
)

// The microphone check teaches tableref the table (gesture.Calibration):
// it asked for two claps, then two bangs, so it knows which of the four
// gestures it heard were meant as claps and which as bangs, whatever the
// network named them. `listen --check --save-calibration FILE` keeps what
// it learned; `listen --calibration FILE` and `serve --calibration FILE`
// use it; `serve` learns it from the check on its table screen and keeps
// it under --data for the night.

// micCheckMaxGap is the longest time, in seconds, between two gestures of
// one check: four gestures further apart are not two claps and two bangs
// made in a row, and teach nothing.
const micCheckMaxGap = 4.0

// learnTable learns the table from what a check heard: its gestures by
// their place in what it asked for (micCheckWant: the first two are
// claps, the next two bangs). It needs exactly four, in a row; say tells,
// in a sentence, what was learned or why nothing was. A calibration is
// returned when the gestures are usable, even when it has nothing to
// correct (the network hears this table rightly), so that a server need
// not ask again.
func learnTable(g *checkGestures, now time.Time) (c *gesture.Calibration, say string) {
	n := len(g.letters)
	switch {
	case n == 0:
		return nil, "Learned nothing: it heard no gesture."
	case n < len(micCheckWant):
		return nil, fmt.Sprintf("Learned nothing: it heard %s of the four gestures, and cannot tell which was missed.", countWord(n))
	case n > len(micCheckWant):
		return nil, fmt.Sprintf("Learned nothing: it heard %s gestures for four, and cannot tell which were the claps and which the bangs.", countWord(n))
	}
	for i := 1; i < n; i++ {
		if gap := g.times[i] - g.times[i-1]; gap > micCheckMaxGap {
			return nil, fmt.Sprintf("Learned nothing: %.0f seconds passed between two of the gestures, which is no clap, clap, bang, bang in a row.", gap)
		}
	}
	for _, b := range g.bands[1:] {
		if b != g.bands[0] {
			return nil, "Learned nothing: the microphone changed during the check."
		}
	}
	var claps, bangs []gesture.Features
	for i, f := range g.feats {
		if micCheckWant[i] == 'C' {
			claps = append(claps, f)
		} else {
			bangs = append(bangs, f)
		}
	}
	c, err := gesture.Learn(g.bands[0], claps, bangs)
	if err != nil {
		return nil, "Learned nothing: " + err.Error() + "."
	}
	c.Learned = now
	mc, mb := c.Misnamed()
	switch {
	case !c.Consistent():
		return nil, "Learned nothing: what it heard does not sound like two claps and then two bangs (a clap sounded like the bangs, or a bang like the claps); try again."
	case mc+mb == 0:
		return c, "Nothing to correct: it names your claps and your bangs rightly already."
	}
	var took []string
	switch {
	case mc == 1:
		took = append(took, "a clap of yours for a bang")
	case mc > 1:
		took = append(took, "your claps for bangs")
	}
	switch {
	case mb == 1:
		took = append(took, "a bang of yours for a clap")
	case mb > 1:
		took = append(took, "your bangs for claps")
	}
	return c, "Learned this table: it had taken " + strings.Join(took, " and ") + "; from now on a sound like your claps is a clap and a sound like your bangs is a bang."
}

// countWord is n in words, for the small numbers a check hears.
func countWord(n int) string {
	if n >= 0 && n < 10 {
		return [...]string{"none", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"}[n]
	}
	return fmt.Sprint(n)
}

// readCalibration reads a calibration file. Its error is one line that
// names the file.
func readCalibration(path string) (*gesture.Calibration, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fileError(path, err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, gesture.MaxCalibrationBytes+1))
	if err != nil {
		return nil, fileError(path, err)
	}
	c, err := gesture.ParseCalibration(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return c, nil
}

// writeCalibration saves c to path whole or not at all (a new file renamed
// over the old one).
func writeCalibration(path string, c *gesture.Calibration) error {
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("cannot write the calibration to %s: %v", path, pathReason(err))
	}
	_, err = tmp.Write(append(b, '\n'))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("cannot write the calibration to %s: %v", path, pathReason(err))
	}
	return nil
}

// fileError words a file that cannot be read for a person.
func fileError(path string, err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s: no such file", path)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("%s: permission denied", path)
	}
	return fmt.Errorf("%s: %v", path, pathReason(err))
}

// pathReason is the innermost cause of a file error, without the
// operation and the path it repeats.
func pathReason(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
