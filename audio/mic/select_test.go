package mic

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeDevices looks like a laptop with a USB microphone under ALSA.
var fakeDevices = []Device{
	{Index: 0, Name: "HDA Intel PCH: ALC257 Analog (hw:0,0)", HostAPI: "ALSA", Channels: 2, DefaultRate: 44100},
	{Index: 1, Name: "HDA Intel PCH: HDMI 0 (hw:0,3)", HostAPI: "ALSA", Channels: 0, DefaultRate: 44100},
	{Index: 2, Name: "USB Audio Device: USB Audio (hw:1,0)", HostAPI: "ALSA", Channels: 1, DefaultRate: 48000},
	{Index: 3, Name: "pulse", HostAPI: "ALSA", Channels: 32, DefaultRate: 44100},
	{Index: 4, Name: "default", HostAPI: "ALSA", Channels: 32, DefaultRate: 44100, Default: true},
}

func TestSelectDevice(t *testing.T) {
	cases := []struct {
		spec string
		want int
	}{
		{"", 4},              // the default input
		{"  ", 4},            // blank is the default too
		{"2", 2},             // by index
		{"0", 0},             // index 0 is not "default"
		{"pulse", 3},         // exact
		{"PULSE", 3},         // exact, case-insensitive
		{"Default", 4},       // exact beats the substring in nothing else
		{"usb", 2},           // unique substring
		{"alc257", 0},        // unique substring, case-insensitive
		{"(hw:1,0)", 2},      // substring with punctuation
		{" usb audio ", 2},   // trimmed
		{"usb audio dev", 2}, // longer substring
		{"hda intel pch", 0}, // the HDMI device matches too, but has no input
	}
	for _, c := range cases {
		d, err := selectDevice(fakeDevices, c.spec)
		if assert.NoError(t, err, "spec %q", c.spec) {
			assert.Equal(t, c.want, d.Index, "spec %q", c.spec)
		}
	}
}

func TestSelectDeviceExactBeatsSubstring(t *testing.T) {
	devs := []Device{
		{Index: 0, Name: "mic (front)", Channels: 1},
		{Index: 1, Name: "mic", Channels: 1},
	}
	d, err := selectDevice(devs, "MIC")
	require.NoError(t, err)
	assert.Equal(t, 1, d.Index)
}

func TestSelectDeviceErrors(t *testing.T) {
	cases := []struct {
		spec, msg string
	}{
		{"foo", `device "foo" not found; input devices: 0 "HDA Intel PCH: ALC257 Analog (hw:0,0)", 2 "USB Audio Device: USB Audio (hw:1,0)", 3 "pulse", 4 "default"`},
		{"7", `device 7 not found; input devices: 0 "HDA Intel PCH: ALC257 Analog (hw:0,0)", 2 "USB Audio Device: USB Audio (hw:1,0)", 3 "pulse", 4 "default"`},
		{"-1", `device -1 not found; input devices:`},
		{"1", `device 1 ("HDA Intel PCH: HDMI 0 (hw:0,3)") has no input channels; input devices: 0 "HDA`},
		{"hdmi", `device "hdmi" not found; input devices:`}, // output-only devices are not candidates
	}
	for _, c := range cases {
		_, err := selectDevice(fakeDevices, c.spec)
		if assert.Error(t, err, "spec %q", c.spec) {
			assert.Contains(t, err.Error(), c.msg, "spec %q", c.spec)
			assert.NotContains(t, err.Error(), "\n")
			assert.False(t, errors.Is(err, ErrNoDevice), "spec %q", c.spec)
		}
	}
	// Three devices contain "(hw:", two of them inputs.
	_, err := selectDevice(fakeDevices, "(HW:")
	require.Error(t, err)
	assert.Equal(t, `device "(HW:" is ambiguous (give an index or a longer name); matches: 0 "HDA Intel PCH: ALC257 Analog (hw:0,0)", 2 "USB Audio Device: USB Audio (hw:1,0)"`, err.Error())
}

func TestSelectDeviceAmbiguousExact(t *testing.T) {
	devs := []Device{
		{Index: 0, Name: "USB Mic", HostAPI: "ALSA", Channels: 1},
		{Index: 5, Name: "usb mic", HostAPI: "JACK", Channels: 1},
	}
	_, err := selectDevice(devs, "usb mic")
	require.Error(t, err)
	assert.Equal(t, `device "usb mic" is ambiguous (give an index); matches: 0 "USB Mic", 5 "usb mic"`, err.Error())
	d, err := selectDevice(devs, "5")
	require.NoError(t, err)
	assert.Equal(t, "JACK", d.HostAPI)
}

func TestSelectDeviceNoDefault(t *testing.T) {
	devs := []Device{
		{Index: 0, Name: "hdmi", Channels: 0},
		{Index: 1, Name: "line in", Channels: 2},
		{Index: 2, Name: "mic", Channels: 1},
	}
	d, err := selectDevice(devs, "")
	require.NoError(t, err)
	assert.Equal(t, 1, d.Index, "first input device when none is the default")
}

func TestSelectDeviceNone(t *testing.T) {
	for _, devs := range [][]Device{nil, {{Index: 0, Name: "hdmi", Channels: 0}}} {
		for _, spec := range []string{"", "0", "pulse"} {
			_, err := selectDevice(devs, spec)
			require.Error(t, err)
			assert.ErrorIs(t, err, ErrNoDevice)
			assert.Equal(t, "no audio input device (PortAudio found none; is a microphone connected?)", err.Error())
		}
	}
}

func TestInputDevices(t *testing.T) {
	in := inputDevices(fakeDevices)
	var idx []int
	for _, d := range in {
		idx = append(idx, d.Index)
	}
	assert.Equal(t, []int{0, 2, 3, 4}, idx)
}
