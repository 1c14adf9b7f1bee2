package mic

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrNoDevice reports that there is no audio input device at all.
var ErrNoDevice = errors.New("no audio input device")

// Device describes one audio device as PortAudio sees it.
type Device struct {
	Index       int     // PortAudio's device index, usable as Options.Device ("3")
	Name        string  // e.g. "pulse", "default", "HDA Intel PCH: ALC257 Analog (hw:0,0)"
	HostAPI     string  // e.g. "ALSA"
	Channels    int     // maximum input channels (0 for an output-only device)
	DefaultRate float64 // the device's default sample rate in Hz
	Default     bool    // PortAudio's default input device
}

func (d Device) String() string { return fmt.Sprintf("%d %q", d.Index, d.Name) }

// selectDevice picks the input device that spec names among devs, which may
// also hold output-only devices (Channels == 0). It is pure, so the rules can
// be tested without hardware:
//
//   - "" is the default input device (the first input device if none is
//     marked default);
//   - a decimal number is a device index;
//   - anything else is a name: an exact case-insensitive match first, else a
//     unique case-insensitive substring.
func selectDevice(devs []Device, spec string) (Device, error) {
	inputs := inputDevices(devs)
	if len(inputs) == 0 {
		return Device{}, fmt.Errorf("%w (PortAudio found none; is a microphone connected?)", ErrNoDevice)
	}
	spec = strings.TrimSpace(spec)
	if spec == "" {
		for _, d := range inputs {
			if d.Default {
				return d, nil
			}
		}
		return inputs[0], nil
	}
	if idx, err := strconv.Atoi(spec); err == nil {
		for _, d := range devs {
			if d.Index != idx {
				continue
			}
			if d.Channels <= 0 {
				return Device{}, fmt.Errorf("device %d (%q) has no input channels; input devices: %s", idx, d.Name, list(inputs))
			}
			return d, nil
		}
		return Device{}, fmt.Errorf("device %d not found; input devices: %s", idx, list(inputs))
	}
	var exact, partial []Device
	want := strings.ToLower(spec)
	for _, d := range inputs {
		name := strings.ToLower(d.Name)
		if name == want {
			exact = append(exact, d)
		} else if strings.Contains(name, want) {
			partial = append(partial, d)
		}
	}
	switch {
	case len(exact) == 1:
		return exact[0], nil
	case len(exact) > 1:
		return Device{}, fmt.Errorf("device %q is ambiguous (give an index); matches: %s", spec, list(exact))
	case len(partial) == 1:
		return partial[0], nil
	case len(partial) > 1:
		return Device{}, fmt.Errorf("device %q is ambiguous (give an index or a longer name); matches: %s", spec, list(partial))
	}
	return Device{}, fmt.Errorf("device %q not found; input devices: %s", spec, list(inputs))
}

func inputDevices(devs []Device) []Device {
	var in []Device
	for _, d := range devs {
		if d.Channels > 0 {
			in = append(in, d)
		}
	}
	return in
}

// list renders devices as `0 "pulse", 1 "default"`.
func list(devs []Device) string {
	s := make([]string, len(devs))
	for i, d := range devs {
		s[i] = d.String()
	}
	return strings.Join(s, ", ")
}
