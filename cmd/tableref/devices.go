package main

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/tableref/tableref/audio/mic"
)

func runDevices(e *env, args []string) error {
	var asJSON bool
	fs := newFlags("devices", "[--json]", "Lists the audio input devices tableref can listen to, with the index and name that\n`tableref listen --device` accepts.", e.stdout)
	fs.BoolVar(&asJSON, "json", false, "print a JSON array")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	devs, err := mic.Devices()
	if err != nil && !errors.Is(err, mic.ErrNoDevice) {
		return err
	}
	if asJSON {
		type jd struct {
			Index    int     `json:"index"`
			Name     string  `json:"name"`
			HostAPI  string  `json:"host_api"`
			Channels int     `json:"channels"`
			Rate     float64 `json:"default_rate"`
			Default  bool    `json:"default"`
		}
		out := []jd{}
		for _, d := range devs {
			out = append(out, jd{d.Index, d.Name, d.HostAPI, d.Channels, d.DefaultRate, d.Default})
		}
		b, _ := json.Marshal(out)
		fmt.Fprintln(e.stdout, string(b))
		return nil
	}
	if len(devs) == 0 {
		fmt.Fprintln(e.stdout, "No audio input devices found: connect a microphone, or use tableref listen --wav FILE.")
		return nil
	}
	fmt.Fprintf(e.stdout, "%5s  %-40s %8s  %s\n", "index", "name", "channels", "default rate")
	for _, d := range devs {
		mark := ""
		if d.Default {
			mark = "  (default)"
		}
		fmt.Fprintf(e.stdout, "%5d  %-40s %8d  %.0f Hz%s\n", d.Index, d.Name, d.Channels, d.DefaultRate, mark)
	}
	return nil
}
