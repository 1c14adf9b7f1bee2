package mic

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gordonklaus/portaudio"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tableref/tableref/audio/mic/vmic"
)

// The live tests record from a headless PulseAudio "virtual microphone"
// (shared/tools/virtual-mic, beside the repository): whatever paplay plays
// into its null sink is what PortAudio's default input device records.
//
// They use a private server, in a directory of their own (as cmd/tableref's
// tests do), so that other test binaries playing into theirs at the same
// time (go test runs packages side by side, and two runs may share a
// machine) cannot leak into these recordings or stop the server under them;
// they stop it and remove the directory afterwards.

var vmicState struct {
	once   sync.Once
	dir    string
	server *vmic.Server
	err    error
	skip   string
}

// streamsOpened counts the streams this test binary has opened (or tried
// to): see openStream for why there may be one at most.
var streamsOpened atomic.Int32

// streamTestRuns counts runs of TestStream, which -count=N repeats.
var streamTestRuns atomic.Int32

func TestMain(m *testing.M) {
	open := openStream
	openStream = func(p portaudio.StreamParameters, args ...any) (*portaudio.Stream, error) {
		if n := streamsOpened.Add(1); n > 1 {
			return nil, fmt.Errorf("test bug: PortAudio stream #%d in this test binary; github.com/gordonklaus/portaudio crashes from the second on under -race (see openStream), so the tests must open one in all", n)
		}
		return open(p, args...)
	}
	code := m.Run()
	if s := vmicState.server; s != nil && s.Started {
		_ = s.Stop()
	}
	if vmicState.dir != "" {
		os.RemoveAll(vmicState.dir)
	}
	os.Exit(code)
}

// virtualMic starts the virtual microphone (once per process) and points
// PortAudio's ALSA-over-PulseAudio at it. It skips the test if the script is
// not there, unless TABLEREF_REQUIRE_MIC=1, when that is a failure.
func virtualMic(t *testing.T) {
	t.Helper()
	vmicState.once.Do(startVirtualMic)
	if vmicState.skip != "" {
		if os.Getenv("TABLEREF_REQUIRE_MIC") == "1" {
			t.Fatalf("TABLEREF_REQUIRE_MIC=1 but %s", vmicState.skip)
		}
		t.Skip(vmicState.skip)
	}
	require.NoError(t, vmicState.err, "starting the virtual microphone")
}

func startVirtualMic() {
	script, err := vmic.Script()
	if err != nil {
		vmicState.skip = "no virtual microphone: " + err.Error()
		return
	}
	dir, err := os.MkdirTemp("", "tableref-vmic-mic-")
	if err != nil {
		vmicState.err = err
		return
	}
	vmicState.dir = dir
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute) // it may apt-get install
	defer cancel()
	vmicState.server, vmicState.err = vmic.Start(ctx, script, dir)
	if vmicState.err != nil {
		return
	}
	// Before PortAudio (and so alsa-lib) is first initialised in this process.
	for k, v := range vmicState.server.Env {
		os.Setenv(k, v)
	}
}

// writeToneWAV writes 16-bit mono PCM: silence, then a sine tone, then a
// little silence.
func writeToneWAV(t *testing.T, path string, rate int, silence, tone time.Duration, freq, amp float64) {
	t.Helper()
	nSil := int(silence.Seconds() * float64(rate))
	nTone := int(tone.Seconds() * float64(rate))
	samples := make([]int16, nSil+nTone+rate/5)
	for i := range nTone {
		samples[nSil+i] = int16(math.Round(amp * 32767 * math.Sin(2*math.Pi*freq*float64(i)/float64(rate))))
	}
	data := 2 * len(samples)
	b := make([]byte, 0, 44+data)
	le := binary.LittleEndian
	b = append(b, "RIFF"...)
	b = le.AppendUint32(b, uint32(36+data))
	b = append(b, "WAVEfmt "...)
	b = le.AppendUint32(b, 16) // fmt chunk size
	b = le.AppendUint16(b, 1)  // PCM
	b = le.AppendUint16(b, 1)  // mono
	b = le.AppendUint32(b, uint32(rate))
	b = le.AppendUint32(b, uint32(2*rate)) // bytes per second
	b = le.AppendUint16(b, 2)              // bytes per frame
	b = le.AppendUint16(b, 16)             // bits per sample
	b = append(b, "data"...)
	b = le.AppendUint32(b, uint32(data))
	for _, v := range samples {
		b = le.AppendUint16(b, uint16(v))
	}
	require.NoError(t, os.WriteFile(path, b, 0o644))
}

// paTerminated reports whether PortAudio is not initialised, i.e. every
// initialisation this package made has been undone.
func paTerminated() bool {
	paMu.Lock()
	defer paMu.Unlock()
	_, err := portaudio.Devices()
	return errors.Is(err, portaudio.NotInitialized)
}

func TestDevicesLive(t *testing.T) {
	virtualMic(t)
	devs, err := Devices()
	require.NoError(t, err)
	require.NotEmpty(t, devs, "the virtual microphone is an input device")
	defaults := 0
	for _, d := range devs {
		assert.Positive(t, d.Channels, "%s", d)
		assert.Positive(t, d.DefaultRate, "%s", d)
		assert.NotEmpty(t, d.HostAPI, "%s", d)
		if d.Default {
			defaults++
		}
	}
	assert.Equal(t, 1, defaults, "exactly one default input in %v", devs)
	t.Logf("input devices: %+v", devs)
	assert.True(t, paTerminated(), "Devices terminates PortAudio again")
}

// TestOpenErrors checks that Open's errors come before it opens a stream:
// they must not use up one of the binding's stream numbers (see openStream).
func TestOpenErrors(t *testing.T) {
	virtualMic(t)
	opened := streamsOpened.Load()

	m, err := Open(Options{Device: "nonexistent-xyz"})
	require.Error(t, err)
	assert.Nil(t, m)
	assert.Contains(t, err.Error(), `device "nonexistent-xyz" not found; input devices: `)
	assert.Contains(t, err.Error(), `"default"`)
	assert.NotContains(t, err.Error(), "\n")

	_, err = Open(Options{Device: "99999"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "device 99999 not found; input devices: ")

	_, err = Open(Options{Rate: 10_000_000})
	require.Error(t, err)
	assert.Regexp(t, `^device \d+ ".*" cannot record at 10000000 Hz: `, err.Error())

	// Output-only devices, if this machine has any.
	paMu.Lock()
	require.NoError(t, initialize())
	_, all, err := devices()
	require.NoError(t, terminate())
	paMu.Unlock()
	require.NoError(t, err)
	for _, d := range all {
		if d.Channels > 0 {
			continue
		}
		_, err = Open(Options{Device: strconv.Itoa(d.Index)})
		require.Error(t, err, "%s", d)
		assert.Contains(t, err.Error(), "has no input channels", "%s", d)
	}

	_, err = Open(Options{FramesPerBuffer: -1})
	assert.EqualError(t, err, "invalid frames per buffer -1")
	_, err = Open(Options{Rate: -1})
	assert.EqualError(t, err, "invalid sample rate -1 Hz")

	assert.Equal(t, opened, streamsOpened.Load(), "a failed Open called OpenStream")
	assert.True(t, paTerminated(), "failed Opens terminate PortAudio again")
}

func TestChannelCountNoInput(t *testing.T) {
	// No PortAudio needed: a device without input channels is refused
	// before PortAudio is asked.
	_, err := channelCount(&portaudio.DeviceInfo{Name: "hdmi", MaxInputChannels: 0}, 44100)
	assert.EqualError(t, err, "no input channels")
}

// TestStream is the only test that opens a PortAudio stream (see
// openStream): everything that needs a live stream is checked on this one.
// It records from the default device at 48 kHz.
func TestStream(t *testing.T) {
	virtualMic(t)
	if streamTestRuns.Add(1) > 1 {
		t.Skip("this test binary has opened its one PortAudio stream already (go test -count > 1)")
	}
	require.Zero(t, streamsOpened.Load(), "another test opened a PortAudio stream; only TestStream may")
	m, err := Open(Options{Rate: 48000})
	require.NoError(t, err)
	defer m.Close()
	assert.Equal(t, int32(1), streamsOpened.Load())
	assert.Equal(t, 48000, m.SampleRate())
	assert.Equal(t, "default", m.Name(), "the virtual microphone's default device")
	assert.Positive(t, m.Latency())
	assert.False(t, paTerminated(), "an open Mic keeps PortAudio initialised")
	t.Logf("recording from %q at %d Hz in %d channel(s), PortAudio input latency %v", m.Name(), m.SampleRate(), m.channels, m.Latency())

	t.Run("DevicesAndOpenWhileOpen", func(t *testing.T) {
		// PortAudio's initialisation count must stay balanced.
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				devs, err := Devices()
				assert.NoError(t, err)
				assert.NotEmpty(t, devs)
			})
			wg.Go(func() {
				_, err := Open(Options{Device: "nonexistent-xyz"})
				assert.ErrorContains(t, err, "not found")
			})
		}
		wg.Wait()
		assert.False(t, paTerminated(), "the Mic still holds PortAudio")
		buf := make([]float64, 2048)
		n, err := m.Read(buf)
		require.NoError(t, err, "the Mic still records")
		assert.Equal(t, len(buf), n)
	})

	t.Run("RecordsTone", func(t *testing.T) { recordsTone(t, m) })

	t.Run("CloseDuringRead", func(t *testing.T) {
		type result struct {
			n   int
			err error
		}
		got := make(chan result, 1)
		// Buffers queue up while nobody reads; once Read has emptied the
		// queue it has read some, and Close must not lose them.
		waitUntil(t, "a buffer queued", func() bool { return len(m.full) > 0 })
		go func() {
			n, err := m.Read(make([]float64, 10*m.SampleRate()))
			got <- result{n, err}
		}()
		waitUntil(t, "Read to empty the queue", func() bool { return len(m.full) == 0 })
		time.Sleep(300 * time.Millisecond) // reading on, most likely waiting for the device
		closed := time.Now()
		require.NoError(t, m.Close())
		select {
		case r := <-got:
			t.Logf("Read returned %d samples %v after Close", r.n, time.Since(closed).Round(time.Microsecond))
			assert.ErrorIs(t, r.err, io.EOF)
			assert.Positive(t, r.n)
		case <-time.After(30 * time.Second):
			t.Fatal("Read did not return after Close")
		}
		assert.NoError(t, m.Close(), "second Close")
		n, err := m.Read(make([]float64, 10))
		assert.Equal(t, 0, n)
		assert.ErrorIs(t, err, io.EOF)

		assert.True(t, paTerminated(), "Close terminates PortAudio")
		devs, err := Devices()
		require.NoError(t, err, "PortAudio initialises afresh")
		assert.NotEmpty(t, devs)
	})
}

// recordsTone plays 1 s of silence then a 0.3 s 1 kHz tone into the
// virtual microphone and checks that m hears exactly that. A recording that
// lost audio to input overflows (a machine too busy to read in time) says
// nothing about the tone: it is made again, a few times at most.
func recordsTone(t *testing.T, m *Mic) {
	rate := m.SampleRate()
	wav := filepath.Join(t.TempDir(), "tone.wav")
	const toneStart, toneLen, freq = time.Second, 300 * time.Millisecond, 1000.0
	const after = 200 * time.Millisecond // the silence writeToneWAV puts after the tone
	writeToneWAV(t, wav, 44100, toneStart, toneLen, freq, 0.5)

	const attempts = 3
	var rec []float64
	var played time.Duration
	for attempt := 1; ; attempt++ {
		var lost int
		rec, played, lost = recordPlaying(t, m, wav)
		if lost == 0 {
			break
		}
		require.Less(t, attempt, attempts, "the input overflowed (%d times) in each of %d attempts: audio was lost", lost, attempts)
		t.Logf("attempt %d lost audio (%d input overflows); recording again", attempt, lost)
	}

	// Where is it loud? 10 ms blocks.
	block := rate / 100
	first, last := -1, -1
	for b := 0; (b+1)*block <= len(rec); b++ {
		if rms(rec[b*block:(b+1)*block]) > 0.05 {
			if first < 0 {
				first = b
			}
			last = b
		}
	}
	require.GreaterOrEqual(t, first, 0, "no tone recorded (peak %.4f)", peak(rec))
	onset := time.Duration(first) * 10 * time.Millisecond
	length := time.Duration(last-first+1) * 10 * time.Millisecond
	t.Logf("tone heard from %v for %v (played at %v for %v; paplay exited %v into the recording)", onset, length, toneStart, toneLen, played.Round(time.Millisecond))

	// It cannot come before the file's second of silence has been played;
	// paplay's start-up and PulseAudio's latency delay it, by as much as a
	// busy machine takes to start paplay. paplay exits once the whole file
	// has been played, the tone and the silence after it: the tone had
	// reached the microphone by then, but for the input's latency (the
	// silence after the tone is left as a margin).
	assert.GreaterOrEqual(t, onset, toneStart-200*time.Millisecond)
	assert.LessOrEqual(t, onset+toneLen, played+m.Latency(), "the tone ended %v after paplay exited, having played it and %v of silence after it", onset+toneLen-played, after)
	assert.InDelta(t, toneLen.Seconds(), length.Seconds(), 0.06)
	assert.Less(t, peak(rec[:first*block]), 0.01, "silence before the tone")
	assert.Less(t, peak(rec[(last+1)*block:]), 0.01, "silence after the tone")

	tone := rec[(first+2)*block : (last-1)*block] // trim the edges
	assert.InDelta(t, 0.5/math.Sqrt2, rms(tone), 0.1, "tone level")
	crossings := 0
	for i := 1; i < len(tone); i++ {
		if (tone[i-1] < 0) != (tone[i] < 0) {
			crossings++
		}
	}
	hz := float64(crossings) / 2 / (float64(len(tone)) / float64(rate))
	t.Logf("tone frequency by zero crossings: %.1f Hz", hz)
	assert.InDelta(t, freq, hz, 20)
}

// recordPlaying records from m while paplay plays wav into the virtual
// microphone, from just before paplay starts until a second after it has
// exited. It returns the recording, the time from its start to paplay's
// exit, and the input overflows meanwhile (audio lost).
func recordPlaying(t *testing.T, m *Mic, wav string) (rec []float64, played time.Duration, lost int) {
	t.Helper()
	rate := m.SampleRate()
	buf := make([]float64, 1024)
	// What the microphone queued before is not this recording's.
	for len(m.full) > 0 {
		_, err := m.Read(buf)
		require.NoError(t, err)
	}
	overflows := m.Overflows()
	began := time.Now()

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	play := exec.CommandContext(ctx, "paplay", wav) // PULSE_SERVER comes from the environment
	var playErr bytes.Buffer
	play.Stderr = &playErr
	require.NoError(t, play.Start(), "starting paplay")
	exited := make(chan error, 1)
	go func() { exited <- play.Wait() }()

	more := -1 // samples still to read once paplay has exited
	for more != 0 {
		n, err := m.Read(buf)
		require.NoError(t, err)
		require.Equal(t, len(buf), n)
		rec = append(rec, buf...)
		if more > 0 {
			more = max(0, more-n)
			continue
		}
		select {
		case err := <-exited:
			played = time.Since(began)
			require.NoError(t, err, "paplay: %s", playErr.String())
			more = rate
		default:
		}
	}
	lost = m.Overflows() - overflows
	t.Logf("read %.2f s of audio in %v; paplay exited after %v; %d input overflows",
		float64(len(rec))/float64(rate), time.Since(began).Round(time.Millisecond), played.Round(time.Millisecond), lost)
	return rec, played, lost
}

func rms(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	s := 0.0
	for _, v := range x {
		s += v * v
	}
	return math.Sqrt(s / float64(len(x)))
}

func peak(x []float64) float64 {
	p := 0.0
	for _, v := range x {
		p = max(p, math.Abs(v))
	}
	return p
}

// waitUntil polls cond until it holds, failing the test after 30 s.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited 30 s in vain for %s", what)
		}
	}
}
