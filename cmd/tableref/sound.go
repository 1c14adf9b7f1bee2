package main

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/tableref/tableref/audio/mic"
	"github.com/tableref/tableref/audio/sound"
)

func runSound(e *env, args []string) error {
	fs := newFlags("sound", "[alarm|buzzer|tick|chime|all] [--say TEXT]",
		"Plays the referee's sounds on the default output device, to check the speakers before a game:\n"+
			"alarm (a timer is up, the Insomnia deck ran out), buzzer (a wrong code), tick (a timer's last\n"+
			"seconds) and chime (your turn). --say speaks a sentence through espeak-ng when it is installed\n"+
			"(apt-get install espeak-ng); without it announcements are shown as text only.", e.stdout)
	say := fs.String("say", "", "speak this sentence (through espeak-ng)")
	pos, err := parseMixed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 1 {
		return usagef("one sound at a time, or all (got %s)", strings.Join(pos, " "))
	}
	names := []sound.Name{}
	switch {
	case len(pos) == 0 && *say == "":
		names = sound.Names()
	case len(pos) == 1 && pos[0] == "all":
		names = sound.Names()
	case len(pos) == 1:
		n, err := sound.Parse(pos[0])
		if err != nil {
			return usageError{err.Error()}
		}
		names = []sound.Name{n}
	}
	sp, err := mic.OpenSpeaker()
	if errors.Is(err, mic.ErrNoOutput) {
		return errors.New("no audio output device found (are speakers or headphones connected?)")
	}
	if err != nil {
		return err
	}
	defer sp.Close()
	var total time.Duration
	for _, n := range names {
		fmt.Fprintf(e.stdout, "Playing the %s.\n", n)
		if err := sp.Play(n); err != nil {
			return err
		}
		total += time.Duration(len(sound.Synth(n, sp.SampleRate()))) * time.Second / time.Duration(sp.SampleRate())
	}
	if *say != "" {
		if !sp.CanSpeak() {
			fmt.Fprintf(e.stdout, "Announcement (text only: espeak-ng is not installed): %s\n", *say)
		} else {
			fmt.Fprintf(e.stdout, "Saying %q.\n", *say)
			if err := sp.Say(*say); err != nil {
				return err
			}
			total += 5 * time.Second
		}
	}
	sp.Drain(total + 2*time.Second)
	return nil
}
