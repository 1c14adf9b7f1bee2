// Package mic is tableref's live microphone input: a mono stream of float64
// samples read from a PortAudio input device through
// github.com/gordonklaus/portaudio.
//
// A *Mic satisfies audio.Source (SampleRate and Read) without importing it.
// A goroutine per Mic reads PortAudio's blocking input stream in small
// buffers (256 frames by default, at the device's low input latency), mixes
// them down to mono and queues them for Read; if Read falls behind by more
// than about a second the oldest buffers are dropped and counted in
// Overflows rather than failing.
//
// PortAudio is initialised by Open and Devices and terminated by Close and at
// the end of Devices; PortAudio (and the binding) count these calls, and
// this package serialises its calls into the binding, so Devices, Open and
// Close may be used together from any goroutines. While PortAudio
// initialises, the ALSA probe messages it prints to stderr are discarded
// (see quietStderr).
//
// One process should open one stream at a time, and ideally one stream in
// all: see openStream for the binding's bug that makes every further stream
// crash a program built with -race (or -d=checkptr).
package mic

import (
	"errors"
	"fmt"
	"io"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gordonklaus/portaudio"

	"github.com/tableref/tableref/audio"
)

// DefaultFramesPerBuffer is the PortAudio buffer size used when
// Options.FramesPerBuffer is 0: 256 frames is about 6 ms at 44.1 kHz.
const DefaultFramesPerBuffer = 256

// stallTimeout is how long Read waits for the device's next buffer before it
// reports the device as gone. A running input stream delivers a buffer every
// few milliseconds, even in silence.
var stallTimeout = 5 * time.Second

// Options selects and configures the input device.
type Options struct {
	// Device is "" for the default input device, a decimal index ("3") as
	// listed by Devices, or a name: an exact case-insensitive match first,
	// else a unique case-insensitive substring ("usb" for "USB Audio: ...").
	Device string
	// FramesPerBuffer is the PortAudio buffer size in frames; 0 means
	// DefaultFramesPerBuffer.
	FramesPerBuffer int
	// Rate is the sample rate in Hz; 0 means the device's default rate.
	Rate int
}

// Mic is an open input stream. Read, SampleRate, Name, Latency and Overflows
// may be called from one goroutine while Close is called from another.
type Mic struct {
	name     string
	rate     int
	channels int            // channels delivered by PortAudio, mixed down to mono
	mix      *audio.Mixdown // mixes on the reader goroutine
	fpb      int
	latency  time.Duration

	full   chan []float64 // mono buffers from the reader, oldest first
	free   chan []float64 // consumed buffers for the reader to reuse
	done   chan struct{}  // closed by Close
	failed chan struct{}  // closed by the reader when the device fails
	err    error          // why, set before failed is closed

	overflows atomic.Int64

	readMu sync.Mutex
	cur    []float64 // unread rest of the buffer Read is working through
	curBuf []float64 // that whole buffer, to recycle

	closeOnce  sync.Once
	closeErr   error
	stream     *portaudio.Stream
	in         []float32     // the stream's buffer: fpb × channels interleaved samples
	readerDone chan struct{} // closed when the reader goroutine has returned
}

// paMu serialises this package's calls into PortAudio (other than the
// blocking reads of open streams): initialisation, device queries, opening
// and closing streams. The binding keeps its initialisation count and device
// list in unsynchronised package variables, so this lock is also what keeps
// those race-free.
var paMu sync.Mutex

// closeWait bounds how long Close waits for the reader goroutine to finish
// its current PortAudio read (normally one buffer, a few milliseconds).
var closeWait = 2 * time.Second

// openStream is portaudio.OpenStream. The tests replace it to make sure they
// open at most one stream per test binary, for this reason:
//
// The binding's OpenStream (v0.0.0-20250206071425-98a94950218b) hands
// PortAudio the stream's number as its userData pointer,
// unsafe.Pointer(s.id), to find the Stream again in callbacks. The numbers
// start at 0 and grow with every OpenStream call in the process, failed
// ones included (the number is taken before anything is checked). Number 0
// is the nil pointer, but 1, 2, ... are invalid pointers, and checkptr,
// which -race (like -msan and -asan) turns on in every package it builds,
// catches the conversion: every OpenStream after the first in a process
// dies with "fatal error: checkptr: pointer arithmetic computed bad pointer
// value". Built without checkptr the conversion does no harm in practice
// (the values lie far below the Go heap, and PortAudio only hands them back
// to stream callbacks, which blocking streams do not have).
//
// So tableref opens one stream per process; Open checks everything it can
// (device, input channels, rate and format) before it calls OpenStream, so
// that its errors do not use up a number; and this package's tests open one
// stream in all. Test commands may add
// -gcflags=github.com/gordonklaus/portaudio=-d=checkptr=0 besides.
var openStream = portaudio.OpenStream

// initialize initialises PortAudio with stderr silenced (see quietStderr).
// PortAudio counts initialisations; each success needs one terminate.
// paMu must be held.
func initialize() error {
	restore := quietStderr()
	err := portaudio.Initialize()
	restore()
	if err != nil {
		return fmt.Errorf("initializing PortAudio: %w", err)
	}
	return nil
}

// terminate undoes one initialize. paMu must be held.
func terminate() error {
	if err := portaudio.Terminate(); err != nil {
		return fmt.Errorf("terminating PortAudio: %w", err)
	}
	return nil
}

// Devices lists the audio input devices (those with input channels), in
// PortAudio's order. It returns an empty list, not an error, when there are
// none. While a Mic is open PortAudio stays initialised, so the list is the
// one PortAudio saw when it was first initialised.
func Devices() ([]Device, error) {
	paMu.Lock()
	defer paMu.Unlock()
	if err := initialize(); err != nil {
		return nil, err
	}
	_, devs, err := devices()
	if terr := terminate(); err == nil {
		err = terr
	}
	if err != nil {
		return nil, err
	}
	return inputDevices(devs), nil
}

// devices lists all devices, inputs and outputs, in PortAudio's order
// (devs[i].Index == i), with the binding's description of each alongside.
// PortAudio must be initialised and paMu held.
func devices() ([]*portaudio.DeviceInfo, []Device, error) {
	infos, err := portaudio.Devices()
	if err != nil {
		return nil, nil, fmt.Errorf("listing audio devices: %w", err)
	}
	def := -1
	if d, err := portaudio.DefaultInputDevice(); err == nil {
		def = d.Index
	} else if !errors.Is(err, portaudio.NoDefaultInputDevice) {
		return nil, nil, fmt.Errorf("finding the default input device: %w", err)
	}
	devs := make([]Device, len(infos))
	for i, info := range infos {
		if info.Index != i {
			return nil, nil, fmt.Errorf("listing audio devices: device %d of %d has index %d", i, len(infos), info.Index)
		}
		host := ""
		if info.HostApi != nil {
			host = info.HostApi.Name
		}
		devs[i] = Device{
			Index:       i,
			Name:        info.Name,
			HostAPI:     host,
			Channels:    info.MaxInputChannels,
			DefaultRate: info.DefaultSampleRate,
			Default:     i == def && info.MaxInputChannels > 0,
		}
	}
	return infos, devs, nil
}

// Open starts recording from the input device opt selects. The stream runs
// until Close; the caller must Close it.
func Open(opt Options) (*Mic, error) {
	fpb := opt.FramesPerBuffer
	if fpb == 0 {
		fpb = DefaultFramesPerBuffer
	}
	if fpb < 0 {
		return nil, fmt.Errorf("invalid frames per buffer %d", opt.FramesPerBuffer)
	}
	if opt.Rate < 0 {
		return nil, fmt.Errorf("invalid sample rate %d Hz", opt.Rate)
	}

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

	// Everything that can fail is checked before openStream (see there).
	infos, devs, err := devices()
	if err != nil {
		return nil, err
	}
	d, err := selectDevice(devs, opt.Device)
	if err != nil {
		return nil, err
	}
	info := infos[d.Index]
	rate := opt.Rate
	if rate == 0 {
		rate = int(math.Round(d.DefaultRate))
	}
	if rate <= 0 {
		return nil, fmt.Errorf("device %s reports no default sample rate; set one", d)
	}
	channels, err := channelCount(info, rate)
	if err != nil {
		return nil, fmt.Errorf("device %s cannot record at %d Hz: %w", d, rate, err)
	}
	in := make([]float32, fpb*channels)
	s, err := openStream(streamParams(info, channels, rate, fpb), in)
	if err != nil {
		return nil, fmt.Errorf("opening input stream on device %s at %d Hz: %w", d, rate, err)
	}
	if err := s.Start(); err != nil {
		_ = s.Close()
		return nil, fmt.Errorf("starting input stream on device %s at %d Hz: %w", d, rate, err)
	}
	m := newMic(d.Name, rate, channels, fpb)
	m.stream = s
	m.in = in
	if si := s.Info(); si != nil {
		m.latency = si.InputLatency
	}
	m.readerDone = make(chan struct{})
	go m.run()
	ok = true
	return m, nil
}

// MinHostLatency is the least input buffering asked of the host audio
// system. The device's "low latency" default (often ~10 ms) overflows as soon
// as the machine is busy for a moment; 50 ms rides that out. The detector's
// latency is counted in audio heard, so this delays events on screen by at
// most that much and changes nothing else.
const MinHostLatency = 50 * time.Millisecond

// streamParams describes a float32 input-only stream on dev.
func streamParams(dev *portaudio.DeviceInfo, channels, rate, fpb int) portaudio.StreamParameters {
	return portaudio.StreamParameters{
		Input: portaudio.StreamDeviceParameters{
			Device:   dev,
			Channels: channels,
			Latency:  max(dev.DefaultLowInputLatency, MinHostLatency),
		},
		SampleRate:      float64(rate),
		FramesPerBuffer: fpb,
	}
}

// channelCount is 1 if the device can record mono at rate, else the
// smallest channel count it accepts (the samples are then averaged).
// portaudio.IsFormatSupported, unlike OpenStream, takes no stream number.
// paMu must be held.
func channelCount(dev *portaudio.DeviceInfo, rate int) (int, error) {
	if dev.MaxInputChannels <= 0 { // selectDevice already refuses these
		return 0, fmt.Errorf("no input channels")
	}
	var first error
	for _, ch := range []int{1, 2, dev.MaxInputChannels} {
		if ch > dev.MaxInputChannels {
			continue
		}
		err := portaudio.IsFormatSupported(streamParams(dev, ch, rate, DefaultFramesPerBuffer), []float32(nil))
		if err == nil {
			return ch, nil
		}
		if first == nil {
			first = err
		}
	}
	return 0, first
}

func newMic(name string, rate, channels, fpb int) *Mic {
	// Queue about a second of audio; beyond that the reader has fallen
	// behind and the oldest audio is dropped.
	depth := rate/fpb + 2
	return &Mic{
		name:     name,
		rate:     rate,
		channels: channels,
		mix:      audio.NewMixdown(channels, rate),
		fpb:      fpb,
		full:     make(chan []float64, depth),
		free:     make(chan []float64, depth),
		done:     make(chan struct{}),
		failed:   make(chan struct{}),
	}
}

// run reads the stream buffer by buffer until Close or a device error.
func (m *Mic) run() {
	defer close(m.readerDone)
	for {
		select {
		case <-m.done:
			return
		default:
		}
		// Read fills m.in, the buffer given to OpenStream. An input overflow
		// comes as an error, but the buffer is still good.
		err := m.stream.Read()
		overflowed := errors.Is(err, portaudio.InputOverflowed)
		if err != nil && !overflowed {
			m.err = fmt.Errorf("reading from input device %q: %w", m.name, err)
			close(m.failed)
			return
		}
		m.deliver(m.in, overflowed)
	}
}

// Channels reports what mixing the input's channels down found about each
// (nil for a mono input), for audio.Config.Channels.
func (m *Mic) Channels() []audio.ChannelState { return m.mix.Channels() }

// deliver queues one buffer of interleaved samples as mono. It never blocks.
func (m *Mic) deliver(in []float32, overflowed bool) {
	if overflowed {
		m.overflows.Add(1)
	}
	var buf []float64
	select {
	case buf = <-m.free:
	default:
		buf = make([]float64, 0, m.fpb)
	}
	buf = audio.Mix(m.mix, buf[:0], in)
	if len(buf) == 0 { // the mixer holds the start of the first sound
		m.recycle(buf)
		return
	}
	m.push(buf)
}

// push queues one mono buffer, dropping the oldest queued one (and counting
// an overflow) when the queue is full. It is called by one goroutine only.
func (m *Mic) push(buf []float64) {
	for {
		select {
		case m.full <- buf:
			return
		default:
		}
		select {
		case old := <-m.full:
			m.overflows.Add(1)
			m.recycle(old)
		default:
		}
	}
}

func (m *Mic) recycle(buf []float64) {
	if cap(buf) == 0 {
		return
	}
	select {
	case m.free <- buf[:0]:
	default:
	}
}

// SampleRate is the stream's rate in Hz.
func (m *Mic) SampleRate() int { return m.rate }

// Name is the PortAudio name of the device being recorded.
func (m *Mic) Name() string { return m.name }

// Latency is the input latency PortAudio reports for the open stream.
func (m *Mic) Latency() time.Duration { return m.latency }

// Overflows counts input overflows so far: buffers PortAudio reported as
// overflowed plus buffers dropped because Read fell more than about a second
// behind. They are not errors; the stream goes on.
func (m *Mic) Overflows() int { return int(m.overflows.Load()) }

// Read fills dst with the next mono samples in [-1, 1], blocking until it is
// full, so a long dst blocks for len(dst)/SampleRate seconds. Close unblocks
// it: once the Mic is closed, Read returns what it had and io.EOF. If the
// device delivers nothing for several seconds (unplugged), Read returns an
// error saying so.
func (m *Mic) Read(dst []float64) (int, error) {
	m.readMu.Lock()
	defer m.readMu.Unlock()
	n := 0
	for n < len(dst) {
		if len(m.cur) == 0 {
			m.recycle(m.curBuf)
			m.curBuf, m.cur = nil, nil
			buf, err := m.next()
			if err != nil {
				return n, err
			}
			m.curBuf, m.cur = buf, buf
		}
		c := copy(dst[n:], m.cur)
		m.cur = m.cur[c:]
		n += c
	}
	return n, nil
}

// next waits for the reader's next buffer.
func (m *Mic) next() ([]float64, error) {
	select {
	case <-m.done:
		return nil, io.EOF
	default:
	}
	select {
	case buf := <-m.full:
		return buf, nil
	default:
	}
	t := time.NewTimer(stallTimeout)
	defer t.Stop()
	select {
	case buf := <-m.full:
		return buf, nil
	case <-m.done:
		return nil, io.EOF
	case <-m.failed:
		select { // what was read before the failure comes first
		case buf := <-m.full:
			return buf, nil
		default:
			return nil, m.err
		}
	case <-t.C:
		return nil, fmt.Errorf("input device %q delivered no audio for %v (disconnected?)", m.name, stallTimeout)
	}
}

// Close stops the stream and releases the device. It may be called more
// than once and from any goroutine, also while Read is blocked, which then
// returns io.EOF. It waits for the current PortAudio read to finish (one
// buffer); should the device hang there for longer than 2 s, Close leaves
// the stream open rather than close it under a running read, and says so.
func (m *Mic) Close() error {
	m.closeOnce.Do(func() {
		close(m.done)
		if m.stream == nil {
			return
		}
		select {
		case <-m.readerDone:
		case <-time.After(closeWait):
			m.closeErr = fmt.Errorf("closing input stream on %q: a read did not return within %v; stream left open", m.name, closeWait)
			return
		}
		// The reader has returned, so no Read is in progress: the binding's
		// Stream must not be read and closed at the same time.
		paMu.Lock()
		defer paMu.Unlock()
		err := m.stream.Abort()
		if errors.Is(err, portaudio.StreamIsStopped) {
			err = nil
		}
		if cerr := m.stream.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			m.closeErr = fmt.Errorf("closing input stream on %q: %w", m.name, err)
		}
		if err := terminate(); err != nil && m.closeErr == nil {
			m.closeErr = err
		}
	})
	return m.closeErr
}
