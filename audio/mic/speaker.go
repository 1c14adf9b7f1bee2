package mic

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os/exec"
	"sync"
	"time"

	"github.com/go-audio/wav"
	"github.com/gordonklaus/portaudio"

	"github.com/tableref/tableref/audio/sound"
)

// ErrNoOutput reports that there is no audio output device.
var ErrNoOutput = errors.New("no audio output device")

// Speaker plays the referee's sounds and spoken announcements on the
// default output device. Play and Say return at once: sounds queue and play
// one after another in their own goroutine (a full queue drops the newest,
// since a late alarm is worse than none). It satisfies sound.Player.
type Speaker struct {
	rate   int
	stream *portaudio.Stream
	out    []float32
	queue  chan []float32
	done   chan struct{}
	played chan struct{} // closed when the player goroutine ends
	once   sync.Once
	busy   sync.WaitGroup // one per queued sound until it has been written
	lag    time.Duration  // the device's output latency
	cache  map[sound.Name][]float32
	// espeak is the espeak-ng program, "" when it is not installed:
	// announcements are then text only.
	espeak string
	air    *sound.OnAir
}

// speakerBuffer is the output buffer in frames.
const speakerBuffer = 1024

// OpenSpeaker opens the default output device. Say speaks through espeak-ng
// when it is installed.
func OpenSpeaker() (*Speaker, error) {
	paMu.Lock()
	defer paMu.Unlock()
	if err := initialize(); err != nil {
		return nil, err
	}
	ok := false
	defer func() {
		if !ok {
			_ = terminate()
		}
	}()
	dev, err := portaudio.DefaultOutputDevice()
	if err != nil || dev == nil || dev.MaxOutputChannels < 1 {
		return nil, ErrNoOutput
	}
	rate := int(math.Round(dev.DefaultSampleRate))
	if rate <= 0 {
		rate = 48000
	}
	p := portaudio.StreamParameters{
		Output:          portaudio.StreamDeviceParameters{Device: dev, Channels: 1, Latency: dev.DefaultHighOutputLatency},
		SampleRate:      float64(rate),
		FramesPerBuffer: speakerBuffer,
	}
	if err := portaudio.IsFormatSupported(p, []float32(nil)); err != nil {
		return nil, fmt.Errorf("output device %q cannot play mono at %d Hz: %w", dev.Name, rate, err)
	}
	out := make([]float32, speakerBuffer)
	s, err := openStream(p, out)
	if err != nil {
		return nil, fmt.Errorf("opening output device %q: %w", dev.Name, err)
	}
	if err := s.Start(); err != nil {
		_ = s.Close()
		return nil, fmt.Errorf("starting output device %q: %w", dev.Name, err)
	}
	sp := &Speaker{rate: rate, stream: s, out: out, queue: make(chan []float32, 8),
		done: make(chan struct{}), played: make(chan struct{}), cache: map[sound.Name][]float32{}, air: &sound.OnAir{}}
	if si := s.Info(); si != nil {
		sp.lag = si.OutputLatency
	}
	for _, n := range sound.Names() {
		sp.cache[n] = sound.Synth(n, rate)
	}
	sp.espeak, _ = exec.LookPath("espeak-ng")
	go sp.run()
	ok = true
	return sp, nil
}

// OnAir records when the speaker's sounds are in the air, from when the
// first of a sound's samples is written until the last has left the device,
// so that the referee's ears can ignore its own voice.
func (s *Speaker) OnAir() *sound.OnAir { return s.air }

// SampleRate is the output rate.
func (s *Speaker) SampleRate() int { return s.rate }

// CanSpeak reports whether announcements are spoken (espeak-ng found).
func (s *Speaker) CanSpeak() bool { return s.espeak != "" }

// Play queues one of the referee's sounds.
func (s *Speaker) Play(n sound.Name) error {
	x, ok := s.cache[n]
	if !ok {
		_, err := sound.Parse(string(n))
		return err
	}
	return s.enqueue(x)
}

// Samples queues mono samples at the speaker's rate.
func (s *Speaker) Samples(x []float32) error { return s.enqueue(x) }

func (s *Speaker) enqueue(x []float32) error {
	select {
	case <-s.done:
		return errors.New("the speaker is closed")
	default:
	}
	s.busy.Add(1)
	select {
	case s.queue <- x:
		return nil
	default:
		s.busy.Done()
		return errors.New("the speaker is busy; sound dropped")
	}
}

// Say speaks text through espeak-ng, or does nothing when it is missing.
func (s *Speaker) Say(text string) error {
	if s.espeak == "" || text == "" {
		return nil
	}
	x, err := Speak(s.espeak, text, s.rate)
	if err != nil {
		return err
	}
	return s.enqueue(x)
}

// Speak renders text with espeak-ng (at the path given) as mono samples at
// rate Hz.
func Speak(espeak, text string, rate int) ([]float32, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	// "--" keeps a text starting with "-" from reading as an option.
	out, err := exec.CommandContext(ctx, espeak, "--stdout", "-s", "165", "--", text).Output()
	if err != nil {
		return nil, fmt.Errorf("espeak-ng: %w", err)
	}
	d := wav.NewDecoder(bytes.NewReader(out))
	buf, err := d.FullPCMBuffer()
	if err != nil {
		return nil, fmt.Errorf("espeak-ng's audio: %w", err)
	}
	ch := max(1, buf.Format.NumChannels)
	scale := float32(math.Pow(2, float64(d.BitDepth-1)))
	mono := make([]float32, len(buf.Data)/ch)
	for i := range mono {
		mono[i] = float32(buf.Data[i*ch]) / scale
	}
	return resample(mono, buf.Format.SampleRate, rate), nil
}

// resample converts by linear interpolation: plenty for speech and beeps.
func resample(x []float32, from, to int) []float32 {
	if from == to || from <= 0 || len(x) == 0 {
		return x
	}
	n := int(int64(len(x)) * int64(to) / int64(from))
	out := make([]float32, n)
	step := float64(from) / float64(to)
	for i := range out {
		p := float64(i) * step
		j := int(p)
		f := float32(p - float64(j))
		a := x[min(j, len(x)-1)]
		b := x[min(j+1, len(x)-1)]
		out[i] = a + (b-a)*f
	}
	return out
}

func (s *Speaker) run() {
	defer close(s.played)
	for {
		select {
		case <-s.done:
			return
		case x := <-s.queue:
			end := s.air.Begin(time.Now())
			s.write(x)
			// What was written is still in the device's queue: it is in
			// the air until the device has played it.
			end(time.Now().Add(s.lag + 2*time.Duration(speakerBuffer)*time.Second/time.Duration(s.rate)))
			s.busy.Done()
		}
	}
}

// write plays x to its end (or until Close).
func (s *Speaker) write(x []float32) {
	for len(x) > 0 {
		n := copy(s.out, x)
		clear(s.out[n:])
		x = x[n:]
		if err := s.stream.Write(); err != nil && !errors.Is(err, portaudio.OutputUnderflowed) {
			return
		}
		select {
		case <-s.done:
			return
		default:
		}
	}
}

// Drain waits (up to timeout) until everything queued has been played out
// of the device.
func (s *Speaker) Drain(timeout time.Duration) {
	idle := make(chan struct{})
	go func() { s.busy.Wait(); close(idle) }()
	select {
	case <-idle:
		// The last buffers are still in the device's own queue.
		time.Sleep(s.lag + 2*time.Duration(speakerBuffer)*time.Second/time.Duration(s.rate))
	case <-time.After(timeout):
	}
}

// Close stops playing and releases the device.
func (s *Speaker) Close() error {
	var err error
	s.once.Do(func() {
		close(s.done)
		select {
		case <-s.played:
		case <-time.After(closeWait):
		}
		paMu.Lock()
		defer paMu.Unlock()
		_ = s.stream.Stop()
		err = s.stream.Close()
		if terr := terminate(); err == nil {
			err = terr
		}
	})
	return err
}
