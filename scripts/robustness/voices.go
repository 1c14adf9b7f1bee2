package main

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"sort"
	"sync"
)

// Voices is the babble source: the voices corpus (several people talking
// at once), mixed down to mono, made seamlessly loopable, and resampled on
// demand (cached per rate).
type Voices struct {
	files []voiceFile
	mu    sync.Mutex
	byKey map[[2]int]*voiceOnce // (file, rate)
}

type voiceFile struct {
	name string
	rate int
	loop []float64 // one period of a seamless loop
}

type voiceOnce struct {
	once sync.Once
	x    []float64
	err  error
}

// loopFade is the crossfade that joins a voices file's end to its start.
const loopFade = 0.05

// loadVoices reads every WAV of dir.
func loadVoices(dir string) (*Voices, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.wav"))
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	if len(paths) == 0 {
		return nil, fmt.Errorf("voices %s: no WAV files", dir)
	}
	v := &Voices{byKey: map[[2]int]*voiceOnce{}}
	for _, p := range paths {
		rate, chans, _, err := readWAV(p)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", p, err)
		}
		x := mixdown(chans)
		fade := int(loopFade * float64(rate))
		if len(x) < 4*fade {
			return nil, fmt.Errorf("%s: too short for babble", p)
		}
		v.files = append(v.files, voiceFile{name: filepath.Base(p), rate: rate, loop: seamless(x, fade)})
	}
	return v, nil
}

// seamless returns a loop of x: its last fade samples crossfaded (equal
// power, the voices being uncorrelated) into its first fade samples, so that
// reading it round and round has no click at the seam.
func seamless(x []float64, fade int) []float64 {
	n := len(x) - fade
	out := append([]float64(nil), x[fade:]...)
	for k := 0; k < fade; k++ {
		w := (float64(k) + 0.5) / float64(fade) * math.Pi / 2
		// out ends with x's tail fading out while x's head fades in;
		// the head's next sample, x[fade], is out[0].
		out[n-fade+k] = x[n+k]*math.Cos(w) + x[k]*math.Sin(w)
	}
	return out
}

// at returns voices file i resampled to rate.
func (v *Voices) at(i, rate int) ([]float64, error) {
	v.mu.Lock()
	o := v.byKey[[2]int{i, rate}]
	if o == nil {
		o = &voiceOnce{}
		v.byKey[[2]int{i, rate}] = o
	}
	v.mu.Unlock()
	o.once.Do(func() {
		f := v.files[i]
		// Resample the loop as a loop: pad with its own ends so the
		// filter sees the wrap, then cut one period out.
		pad := min(len(f.loop), f.rate/10)
		ext := make([]float64, 0, len(f.loop)+2*pad)
		ext = append(ext, f.loop[len(f.loop)-pad:]...)
		ext = append(ext, f.loop...)
		ext = append(ext, f.loop[:pad]...)
		y, err := resample(ext, f.rate, rate)
		if err != nil {
			o.err = err
			return
		}
		a := int(math.Round(float64(pad) * float64(rate) / float64(f.rate)))
		b := int(math.Round(float64(pad+len(f.loop)) * float64(rate) / float64(f.rate)))
		o.x = y[a:min(b, len(y))]
	})
	return o.x, o.err
}

// segment returns n samples of babble at rate: a seeded voices file from a
// seeded offset, looping if it is short. Mean removed, unit RMS.
func (v *Voices) segment(n, rate int, rng *rand.Rand) ([]float64, error) {
	if v == nil || len(v.files) == 0 {
		return nil, errors.New("no voices corpus for babble")
	}
	src, err := v.at(rng.IntN(len(v.files)), rate)
	if err != nil {
		return nil, err
	}
	if len(src) == 0 {
		return nil, errors.New("empty voices file")
	}
	off := rng.IntN(len(src))
	out := make([]float64, n)
	for i := range out {
		out[i] = src[(off+i)%len(src)]
	}
	normalise(out, 1)
	return out, nil
}

// gatedNoise makes one gated-noise clip: secs seconds at rate of pink noise
// at −50 dBFS RMS, babble at −30 dBFS RMS and, every 3 to 8 s, a burst of
// louder speech (0.5 to 2 s of another voices segment at −18 dBFS RMS, 30 ms
// fades), all through gate-zero-fast. It holds no gesture: the labels have
// no onsets and one speech span over the whole clip, so that every reported
// gesture counts as false. With gated false the gate is left out (the same
// party heard by an open microphone, for comparison).
func gatedNoise(v *Voices, secs float64, rate int, rng *rand.Rand, gated bool) (*Clip, error) {
	n := int(secs * float64(rate))
	x := pinkNoise(n, rng)
	for i := range x {
		x[i] *= dbToAmp(-50)
	}
	b, err := v.segment(n, rate, rng)
	if err != nil {
		return nil, err
	}
	for i := range x {
		x[i] += b[i] * dbToAmp(-30)
	}
	fade := int(0.03 * float64(rate))
	for t := 1 + 2*rng.Float64(); t < secs-0.5; t += 3 + 5*rng.Float64() {
		d := 0.5 + 1.5*rng.Float64()
		m := min(int(d*float64(rate)), n-int(t*float64(rate)))
		burst, err := v.segment(m, rate, rng)
		if err != nil {
			return nil, err
		}
		a := int(t * float64(rate))
		for i, s := range burst {
			g := dbToAmp(-18)
			if i < fade {
				g *= float64(i) / float64(fade)
			}
			if m-1-i < fade {
				g *= float64(m-1-i) / float64(fade)
			}
			x[a+i] += s * g
		}
	}
	clip1(x)
	ch := [][]float64{x}
	if gated {
		ch = gate(ch, rate, fastGate(math.Inf(-1)))
	}
	lab := &Labels{
		Tier:        "gated-noise",
		Onsets:      []Onset{},
		Codes:       []Code{},
		Distractors: []Distractor{},
		Speech:      [][2]float64{{0, float64(n) / float64(rate)}},
		Condition:   "gated-noise",
	}
	return &Clip{Rate: rate, Ch: ch, Lab: lab, Format: Int16}, nil
}
