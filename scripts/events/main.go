// Command events prints every event an audio.Listener emits for each WAV file
// given, in full: every field of every event (the onset's features too) at
// full precision, one event a line, with a line naming each file before its
// events. It is how scripts/sameevents tells whether a change to the audio
// path left its behaviour exactly as it was: it uses only audio's public
// API, so the same source builds against an older checkout.
//
//	go run ./scripts/events [-live] [-alone] [-block N] [-calibration FILE] FILE...
//
// By default the Listener gives final verdicts (Config.Final), as `tableref
// listen --wav` does; -live hears the file as a microphone is heard
// (gestures at once, Retract events), in blocks of -block samples (256, a
// microphone's buffer, by default with -live; 4096 otherwise);
// -calibration hears with what a microphone check taught (Config.Calibration,
// a file of listen --check --save-calibration). The file is
// read in the calling goroutine, so a stereo file's channel report
// (Config.Channels) is the same on every run.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"

	"github.com/tableref/tableref/audio"
	"github.com/tableref/tableref/audio/gesture"
)

func main() {
	live := flag.Bool("live", false, "hear the file as a live microphone (Config.Final false): gestures at once, and Retract events")
	alone := flag.Bool("alone", false, "keep a gesture that is alone (Config.KeepAlone)")
	block := flag.Int("block", 0, "samples per Write (default 256 with -live, else 4096)")
	calFile := flag.String("calibration", "", "hear with the calibration in this file (listen --check --save-calibration)")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: go run ./scripts/events [-live] [-alone] [-block N] [-calibration FILE] FILE.wav...")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	if *block <= 0 {
		*block = 4096
		if *live {
			*block = 256
		}
	}
	var cal *gesture.Calibration
	if *calFile != "" {
		b, err := os.ReadFile(*calFile)
		if err == nil {
			cal, err = gesture.ParseCalibration(b)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "events: %v\n", err)
			os.Exit(1)
		}
	}
	out := bufio.NewWriterSize(os.Stdout, 1<<16)
	defer out.Flush()
	for _, name := range flag.Args() {
		if err := hear(out, name, *live, *alone, *block, cal); err != nil {
			out.Flush()
			fmt.Fprintf(os.Stderr, "events: %s: %v\n", name, err)
			os.Exit(1)
		}
	}
}

func hear(out *bufio.Writer, name string, live, alone bool, block int, cal *gesture.Calibration) error {
	w, err := audio.OpenWAV(name)
	if err != nil {
		return err
	}
	defer w.Close()
	fmt.Fprintf(out, "== %s rate %d\n", name, w.SampleRate())
	cfg := audio.Config{Final: !live, KeepAlone: alone, Channels: w.Channels, Calibration: cal}
	l := audio.NewListener(w.SampleRate(), cfg, func(ev audio.Event) {
		switch e := ev.(type) {
		case *audio.Onset:
			fmt.Fprintf(out, "onset %+v\n", *e)
		case *audio.Retract:
			fmt.Fprintf(out, "retract %+v\n", *e)
		case *audio.Code:
			fmt.Fprintf(out, "code %+v\n", *e)
		case *audio.Talk:
			fmt.Fprintf(out, "talk %+v\n", *e)
		case *audio.Level:
			fmt.Fprintf(out, "level %+v\n", *e)
		case *audio.Mic:
			fmt.Fprintf(out, "mic %+v\n", *e)
		default:
			fmt.Fprintf(out, "%T %+v\n", ev, ev)
		}
	})
	if err := audio.Drain(w, block, func(x []float64) error { l.Write(x); return nil }); err != nil {
		return err
	}
	l.Close()
	fmt.Fprintf(out, "== end %d\n", l.Position())
	return nil
}
