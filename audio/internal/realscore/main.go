// Command realscore scores tableref's hearing on real recordings, in
// process, as ../shared/tools/score-real does with the built binary (see
// package realcorpus), and adds Woodlouse codes built from real hits:
//
//	go run ./audio/internal/realscore [-dir ../shared/corpus/real] [-json] [-codes N] [-seed S]
//	go run ./audio/internal/realscore -calibrate [-source sharwin_cs496_own] [-taught N] [-dir DIR] [-json]
//
// With -calibrate it measures what the microphone check's calibration
// gains instead (realcorpus.Calibrate): each clap recording and knock
// recording of a source in turn play the check, and the source's other
// recordings are scored with what it learned and without.
//
// Progress goes to stderr, the table (or with -json one JSON object) to
// stdout. The exit status is 0 whatever the figures, 1 when the corpus
// cannot be read, 2 for a bad flag.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/tableref/tableref/audio/internal/realcorpus"
	"github.com/tableref/tableref/audio/mic/vmic"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("realscore", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("dir", "", "the corpus `folder`, SOURCE/CLASS/*.flac with SOURCE/labels.csv (default ../shared/corpus/real beside the repository)")
	asJSON := fs.Bool("json", false, "print one JSON object instead of the table")
	codes := fs.Int("codes", realcorpus.DefaultCodeFiles, fmt.Sprintf("code recordings (of %d codes each) to build from each source with claps, knocks and laughter; 0 for none", realcorpus.DefaultCodesPerFile))
	seed := fs.Uint64("seed", 1, "seed of the code recordings' draws")
	calibrate := fs.Bool("calibrate", false, "measure what the microphone check's calibration gains instead: each clap and knock recording of a source in turn plays the check, the source's other recordings are scored with what it learned and without")
	source := fs.String("source", "sharwin_cs496_own", "with -calibrate: the source (one person, one phone) to measure on; \"\" for every source with clap and knock recordings")
	taught := fs.Int("taught", realcorpus.DefaultTaught, "with -calibrate: the gestures of each kind the check learns from")
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), "usage: go run ./audio/internal/realscore [-dir DIR] [-json] [-codes N] [-seed S]\n"+
			"       go run ./audio/internal/realscore -calibrate [-source NAME] [-taught N] [-dir DIR] [-json]\n\n"+
			"Runs every real recording through tableref's Listener as `tableref listen --json --wav FILE` would\n"+
			"and prints what ../shared/tools/score-real prints (each source and class, then the totals against\n"+
			"the goals), then the score of Woodlouse codes built from real hits, laughter between them.\n"+
			"With -calibrate: what the microphone check's calibration gains on one person's recordings, a line\n"+
			"per play of the check and the mean, least and greatest over them.\n"+
			"Progress goes to stderr. Exit status 0 whatever the figures; 1 when the corpus cannot be read;\n2 for a bad flag.\n\nflags:\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "realscore: unexpected argument %q (flags only; see -h)\n", fs.Arg(0))
		return 2
	}
	if *taught < 1 || *taught > 8 {
		fmt.Fprintf(stderr, "realscore: -taught must be from 1 to 8, got %d\n", *taught)
		return 2
	}
	if *codes < 0 {
		fmt.Fprintf(stderr, "realscore: -codes must be 0 or more, got %d\n", *codes)
		return 2
	}
	if *dir == "" {
		shared, err := vmic.Shared()
		if err != nil {
			fmt.Fprintf(stderr, "realscore: %v; give the corpus with -dir\n", err)
			return 1
		}
		*dir = filepath.Join(shared, "corpus", "real")
		if _, err := os.Stat(*dir); err != nil {
			fmt.Fprintf(stderr, "realscore: the real recordings are not at %s (../shared beside the repository); give them with -dir\n", *dir)
			return 1
		}
	}

	start := time.Now()
	last := -1
	progress := func(done, total int) {
		// a line at every tenth of the work, and at the end
		if pct := 10 * done / total; pct != last || done == total {
			last = pct
			fmt.Fprintf(stderr, "realscore: %d of %d steps done (%.0f s)\n", done, total, time.Since(start).Seconds())
		}
	}
	if *calibrate {
		return runCalibrate(realcorpus.CalibrateOptions{Dir: *dir, Source: *source, Taught: *taught, Progress: progress}, *asJSON, stdout, stderr, start)
	}
	res, err := realcorpus.Score(realcorpus.Options{
		Dir:       *dir,
		CodeFiles: *codes,
		Seed:      *seed,
		Progress:  progress,
	})
	if err != nil {
		fmt.Fprintf(stderr, "realscore: %v\n", err)
		return 1
	}
	for _, e := range res.Errors {
		fmt.Fprintf(stderr, "realscore: failed: %s\n", e)
	}
	if *asJSON {
		b, err := res.JSON()
		if err != nil {
			fmt.Fprintf(stderr, "realscore: %v\n", err)
			return 1
		}
		fmt.Fprintf(stdout, "%s\n", b)
	} else if err := res.Print(stdout); err != nil {
		fmt.Fprintf(stderr, "realscore: %v\n", err)
		return 1
	}
	fmt.Fprintf(stderr, "realscore: done in %.1f s\n", time.Since(start).Seconds())
	return 0
}

// runCalibrate measures what the check's calibration gains and prints it.
func runCalibrate(opt realcorpus.CalibrateOptions, asJSON bool, stdout, stderr io.Writer, start time.Time) int {
	res, err := realcorpus.Calibrate(opt)
	if err != nil {
		fmt.Fprintf(stderr, "realscore: %v\n", err)
		return 1
	}
	if asJSON {
		b, err := json.Marshal(res)
		if err != nil {
			fmt.Fprintf(stderr, "realscore: %v\n", err)
			return 1
		}
		fmt.Fprintf(stdout, "%s\n", b)
	} else if err := res.Print(stdout); err != nil {
		fmt.Fprintf(stderr, "realscore: %v\n", err)
		return 1
	}
	fmt.Fprintf(stderr, "realscore: done in %.1f s\n", time.Since(start).Seconds())
	return 0
}
