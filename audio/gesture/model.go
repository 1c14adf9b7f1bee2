package gesture

import "math"

// The classifier is a small neural network over the physical features,
// trained on labelled recordings (see internal/train). It sees only the
// features, each scaled to a unit a person can read:
//
//	Jump, Sudden, Above, Decay, Early in tens of dB; AttackMs in 10 ms;
//	the centroid in octaves from 1 kHz; Formant in 20 dB; shares and
//	periodicities times 5; RiseLow and RiseHigh in tens of dB; Fresh and
//	Voiced times 5; Surprise and SurpriseLow in tens of dB.
//
// Onsets that rose less than MinRise (Features.Considered) are never
// gestures (nothing a hand does starts that gently) and do not reach the
// network.

// Inputs is the length of Vector.
const Inputs = 20

// InputNames name Vector's inputs, in its order (the Features fields they
// come from, lower case).
var InputNames = [Inputs]string{
	"jump", "sudden", "above", "attackms", "decay", "early",
	"centroid", "flatness", "low", "high", "pitch",
	"tonal", "formant", "harmonic",
	"fresh", "riselow", "risehigh", "voiced",
	"surprise", "surpriselow",
}

// Input is the index in Vector of the input named name (see InputNames), or
// -1.
func Input(name string) int {
	for i, n := range InputNames {
		if n == name {
			return i
		}
	}
	return -1
}

// Vector is the network's view of the features.
func (f Features) Vector() []float64 {
	return []float64{
		f.Jump / 10, f.Sudden / 10, math.Min(f.Above, 80) / 10, f.AttackMs / 10, f.Decay / 10, f.Early / 10,
		math.Log2(math.Max(f.Centroid, 20) / 1000), f.Flatness * 5, f.Low * 5, f.High * 5, f.Pitch * 5,
		f.Tonal * 5, math.Max(f.Formant, -60) / 20, f.Harmonic * 5,
		f.Fresh * 5, f.RiseLow / 10, f.RiseHigh / 10, f.Voiced * 5,
		math.Max(-20, math.Min(f.Surprise, 80)) / 10, math.Max(-20, math.Min(f.SurpriseLow, 80)) / 10,
	}
}

// Net is one network: Inputs -> Hidden (tanh) -> 3 (softmax over clap, bang,
// other).
type Net struct {
	W1 [][]float64 // [hidden][Inputs]
	B1 []float64
	W2 [3][]float64 // [class][hidden]
	B2 [3]float64
}

// Probs returns the probabilities of clap, bang and other for input x.
func (n *Net) Probs(x []float64) [3]float64 {
	var o [3]float64
	h := make([]float64, len(n.B1))
	for j := range h {
		s := n.B1[j]
		for i, v := range x {
			s += n.W1[j][i] * v
		}
		h[j] = math.Tanh(s)
	}
	top := math.Inf(-1)
	for c := range o {
		s := n.B2[c]
		for j, v := range h {
			s += n.W2[c][j] * v
		}
		o[c] = s
		top = math.Max(top, s)
	}
	var z float64
	for c := range o {
		o[c] = math.Exp(o[c] - top)
		z += o[c]
	}
	for c := range o {
		o[c] /= z
	}
	return o
}

// Ensemble averages several networks trained from different starts; the
// average is steadier than any one of them.
type Ensemble []*Net

// Probs is the mean of the members' probabilities.
func (e Ensemble) Probs(x []float64) [3]float64 {
	var p [3]float64
	for _, n := range e {
		q := n.Probs(x)
		for c := range p {
			p[c] += q[c] / float64(len(e))
		}
	}
	return p
}

// Margin is how much more likely than "other" a clap or bang must be: a
// sound the network hesitates over is not counted as a gesture.
const Margin = 0.2

// Band is how much of the spectrum a stream carries; it decides which
// shipped network judges its sounds.
type Band int

const (
	// Wide is a microphone heard in full (sampled at 16 kHz or more, and
	// carrying sound above 4 kHz).
	Wide Band = iota
	// Narrow is a telephone line: nothing above 4 kHz, as from a Bluetooth
	// headset's microphone (sampled at 8 kHz, perhaps resampled up by the
	// sound server). A clap has lost its brightness there, and the network
	// for it was trained on recordings heard that way.
	Narrow
)

func (b Band) String() string {
	if b == Narrow {
		return "narrow"
	}
	return "wide"
}

// NarrowBelow is the sample rate, in Hz, under which a stream is Narrow
// whatever it carries: it cannot carry much above 4-5 kHz.
const NarrowBelow = 12000

// BandOfRate is the band a stream sampled at rate is taken for until its
// sound says otherwise.
func BandOfRate(rate int) Band {
	if rate < NarrowBelow {
		return Narrow
	}
	return Wide
}

// Model is the shipped network for streams of band b.
func Model(b Band) Ensemble {
	if b == Narrow {
		return narrowModel
	}
	return model
}

// In a room loud with a steady noise (a fan, music, a crowd further off)
// the hands stand only 15-30 dB above the room, and the network for a quiet
// room, which has learned that a hit stands far above it, takes many of
// them for "other". NoisyModel was trained on the same tables and also on
// the same recordings through pink noise 10 dB under the gestures
// (testdata/noisy). It has NoisyMembers networks (three train in about 1.5
// minutes on two cores, against 2.5 for five, and named as many codes right
// on the held-out sets).
//
// Once the gestures heard stand less than NoisyAboveDB over the room (and,
// before two have been heard, for a sound that itself stands less than that
// over it), the Listener asks LoudRoomModel: both networks, each with half
// the say. Alone, the loud room's network took more words and chatter for
// gestures: behind a gate over babble, 50 false gestures on heldN-Q and dev
// against 33 before it. With half the say it took 39, and through pink
// noise 20 dB under the onsets it still named 379 codes of 443 right,
// against 387 alone and 362 before it (both measured before the rule for a
// loud room's first gestures).
const (
	NoisyAboveDB = 35.0
	NoisyMembers = 3
)

// NoisyModel is the network trained with loud rooms too.
func NoisyModel() Ensemble { return noisyModel }

// loudRoomModel is Blend(model, noisyModel), made once.
var loudRoomModel = Blend(model, noisyModel)

// LoudRoomModel is the shipped judge for a microphone heard in full in a
// loud room: the quiet room's network and NoisyModel, each with half the say.
func LoudRoomModel() Ensemble { return loudRoomModel }

// Blend is one ensemble in which a and b have an equal say, however many
// members each has: a's members are repeated len(b) times and b's len(a)
// times.
func Blend(a, b Ensemble) Ensemble {
	e := make(Ensemble, 0, 2*len(a)*len(b))
	for range len(b) {
		e = append(e, a...)
	}
	for range len(a) {
		e = append(e, b...)
	}
	return e
}

// Classify names an onset from its features with the shipped network (for a
// microphone heard in full).
func Classify(f Features) Kind {
	return model.Classify(f)
}

// Classify names an onset with e.
func (e Ensemble) Classify(f Features) Kind { return e.ClassifyWith(f, Margin) }

// ClassifyWith names an onset with e, asking a clap or bang to be margin
// more likely than "other".
func (e Ensemble) ClassifyWith(f Features, margin float64) Kind {
	if !f.Considered() || len(e) == 0 {
		return Other
	}
	p := e.Probs(f.Vector())
	switch {
	case p[0] >= p[1] && p[0] >= p[2]+margin:
		return Clap
	case p[1] > p[0] && p[1] >= p[2]+margin:
		return Bang
	}
	return Other
}

// A trainer bangs a run of bangs at about the same force; the later ones
// land on the ringing of the earlier, where the network, which has heard
// many a drum's second bounce there, hesitates over them, and where a bang
// may lift the level by less than MinRise. An onset it did not take for a
// gesture is another bang of the run when it comes RepeatMin to RepeatMax
// seconds after a bang, at most RepeatUnderDB under that bang's level or
// RepeatOverDB over it, rose by RepeatRise at least (measured in full: see
// Analyzer.Rise), and the network gives it at least RepeatProb of being a
// bang (and more than of being a clap). A bounce is far weaker than its
// bang, or sooner.
const (
	RepeatMin, RepeatMax = 0.15, 1.0
	RepeatUnderDB        = 6.0
	RepeatOverDB         = 5.0
	RepeatRise           = 6.0
	RepeatProb           = 0.2
)

// Repeats reports whether an onset judged Other by the shipped network (for
// a microphone heard in full), with features f, is another bang after the
// one heard since seconds before it at level dBFS.
func Repeats(f Features, since, level float64) bool { return model.Repeats(f, since, level) }

// Repeats is the package's Repeats with e's judgement.
func (e Ensemble) Repeats(f Features, since, level float64) bool {
	if !(f.Considered() || f.Sudden >= RepeatRise) || since < RepeatMin || since > RepeatMax ||
		f.Level-level > RepeatOverDB || level-f.Level > RepeatUnderDB {
		return false
	}
	p := e.Probs(f.Vector())
	return p[1] >= RepeatProb && p[1] > p[0]
}

// ModelProbs exposes the shipped network's probabilities (clap, bang,
// other), for tools and tests.
func ModelProbs(f Features) [3]float64 { return model.Probs(f.Vector()) }
