package audio

import (
	"sync"

	"github.com/tableref/tableref/audio/internal/mixdown"
)

// Mixdown folds a source's interleaved channels into mono so that an
// inverted, delayed or dead channel can neither cancel nor dilute the
// others, and keeps what it found about each channel for Channels, which may
// be called from another goroutine than the one mixing. Make one with
// NewMixdown; WAV files and the microphone each use one.
type Mixdown struct {
	mix   *mixdown.Mixer // by the mixing goroutine only
	multi bool

	mu     sync.Mutex
	states []ChannelState // as of the last mix
}

// NewMixdown makes a Mixdown for the given number of interleaved channels
// at rate Hz.
func NewMixdown(channels, rate int) *Mixdown {
	return &Mixdown{mix: mixdown.New(channels, rate), multi: channels > 1}
}

// Mix appends to dst the mono samples for the interleaved frames of in and
// returns it. The mixer may hold the first frame of a sound back until it
// knows how to mix it, so the samples out need not match the frames in one
// for one; Flush gives up what is held.
func Mix[T float32 | float64](m *Mixdown, dst []float64, in []T) []float64 {
	dst = mixdown.Mix(m.mix, dst, in)
	if m.multi {
		st := m.mix.State()
		m.mu.Lock()
		m.states = m.states[:0]
		for i, c := range st.Channels {
			m.states = append(m.states, ChannelState{Level: c.Level, Reference: i == st.Loudest, Dead: c.Dead, Inverted: c.Inverted, Apart: c.Apart})
		}
		m.mu.Unlock()
	}
	return dst
}

// Flush appends what the mixer still holds to dst (at the end of the
// input) and returns it.
func (m *Mixdown) Flush(dst []float64) []float64 { return m.mix.Flush(dst) }

// Channels reports what mixing found about each channel, as of the last
// Mix (nil for a mono source).
func (m *Mixdown) Channels() []ChannelState {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]ChannelState(nil), m.states...)
}
