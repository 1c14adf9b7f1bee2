// Package sound makes the referee's sounds: an alarm clock, a buzzer, a
// tick and a turn chime, synthesised at any rate (nothing to ship or load),
// and plays them, and spoken announcements, through a Player.
package sound

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// Name is one of the referee's sounds.
type Name string

// The sounds.
const (
	Alarm  Name = "alarm"  // an alarm clock ringing: the Insomnia deck ran out, a timer is up
	Buzzer Name = "buzzer" // a low buzz: a wrong code, a refused move
	Tick   Name = "tick"   // a short tick: a timer's last seconds
	Chime  Name = "chime"  // two rising notes: your turn, guessing opens
)

// Names lists the sounds.
func Names() []Name { return []Name{Alarm, Buzzer, Tick, Chime} }

// Parse reads a sound's name.
func Parse(s string) (Name, error) {
	for _, n := range Names() {
		if strings.EqualFold(s, string(n)) {
			return n, nil
		}
	}
	var all []string
	for _, n := range Names() {
		all = append(all, string(n))
	}
	sort.Strings(all)
	return "", fmt.Errorf("no sound %q (the sounds are %s)", s, strings.Join(all, ", "))
}

// Synth returns the sound as mono samples at rate Hz, in -1..1.
func Synth(n Name, rate int) []float32 {
	r := float64(rate)
	switch n {
	case Alarm:
		// Four quick rings at 2.6 kHz with a beat, three times over.
		var out []float32
		for burst := 0; burst < 3; burst++ {
			for ring := 0; ring < 4; ring++ {
				out = append(out, tone(r, 0.07, 0.5, func(t float64) float64 {
					return 0.6*math.Sin(2*math.Pi*2600*t) + 0.4*math.Sin(2*math.Pi*2640*t)
				})...)
				out = append(out, silence(r, 0.05)...)
			}
			out = append(out, silence(r, 0.35)...)
		}
		return out
	case Buzzer:
		// A rough 150 Hz with odd harmonics, like a quiz show's wrong answer.
		return tone(r, 0.6, 0.45, func(t float64) float64 {
			var s float64
			for h := 1.0; h <= 9; h += 2 {
				s += math.Sin(2*math.Pi*150*h*t) / h
			}
			return s
		})
	case Tick:
		// A 6 ms click of a decaying 3 kHz.
		return tone(r, 0.006, 0.5, func(t float64) float64 {
			return math.Sin(2*math.Pi*3000*t) * math.Exp(-t*600)
		})
	case Chime:
		// E6 then A6, each ringing out like a small bell.
		bell := func(f float64) func(float64) float64 {
			return func(t float64) float64 {
				return (math.Sin(2*math.Pi*f*t) + 0.3*math.Sin(2*math.Pi*2.76*f*t)) * math.Exp(-t*5)
			}
		}
		a := tone(r, 0.25, 0.4, bell(1318.5))
		b := tone(r, 0.6, 0.4, bell(1760))
		return append(a, b...)
	}
	return nil
}

// tone renders f for d seconds at gain, with 3 ms fades so it never clicks.
func tone(rate, d, gain float64, f func(t float64) float64) []float32 {
	n := int(d * rate)
	fade := max(1, int(0.003*rate))
	out := make([]float32, n)
	for i := range out {
		g := gain
		if i < fade {
			g *= float64(i) / float64(fade)
		}
		if j := n - 1 - i; j < fade {
			g *= float64(j) / float64(fade)
		}
		v := g * f(float64(i)/rate)
		out[i] = float32(math.Max(-1, math.Min(1, v)))
	}
	return out
}

func silence(rate, d float64) []float32 { return make([]float32, int(d*rate)) }

// Player plays sounds and says announcements.
type Player interface {
	Play(n Name) error
	Say(text string) error
	Close() error
}

// Silent is a Player that plays nothing: --quiet, or no speaker.
type Silent struct{}

// Play does nothing.
func (Silent) Play(Name) error { return nil }

// Say does nothing.
func (Silent) Say(string) error { return nil }

// Close does nothing.
func (Silent) Close() error { return nil }

// Recorder is a Player that remembers what it was asked to play, for tests
// and for the table screen's log.
type Recorder struct {
	Played []string // "sound:chime", "say:Cart, sit down!"
}

// Play records n.
func (r *Recorder) Play(n Name) error { r.Played = append(r.Played, "sound:"+string(n)); return nil }

// Say records text.
func (r *Recorder) Say(text string) error { r.Played = append(r.Played, "say:"+text); return nil }

// Close does nothing.
func (r *Recorder) Close() error { return nil }
