package audio

import (
	"math"

	"github.com/tableref/tableref/audio/gesture"
)

// featureStage measures a candidate's features (gesture.Analyzer) from the
// samples around it, with what the rest of the Listener knows of its
// surroundings (featureContext): a sound after digital silence is measured
// against the room as last heard, the silence filled, for measuring only,
// with quiet noise at the room's level; a telephone line the sound server
// resampled up is measured as the line itself sounds (brought down to about
// 8 kHz); and the features the Analyzer cannot know (Above, Voiced) are
// filled in. Its own state is its buffers and the noise generator.
type featureStage struct {
	rate   int
	an     gesture.Analyzer
	line   lineDown
	filled []float64 // a sound's samples with the digital silence before it filled
	noise  uint64    // state of the noise that stands in for digital silence
}

func newFeatureStage(rate int) *featureStage {
	return &featureStage{rate: rate, line: newLineDown(rate)}
}

// featureContext is what measuring a sound needs beyond its samples.
type featureContext struct {
	// Floor is the room's noise floor, dBFS (roomFloor): Above is measured
	// against it, unless the sound came after digital silence.
	Floor float64
	// Narrow: the stream is heard as a telephone line (bandWatch).
	Narrow bool
	// Voiced is the share of voiced frames before the sound
	// (voicedFrames.share).
	Voiced float64
}

// sound is a candidate's samples as they are measured.
type sound struct {
	x      []float64 // from up to gesture.Before ahead of the onset to the stream's position
	at     int       // the onset's index in x
	holed  bool      // digital silence came before it (see afterSilence)
	roomDB float64   // when holed, the room it is measured against, dBFS
}

// hear prepares a sound for measuring: x holds its samples, from sample
// from of the stream, with its onset at index at. When digital silence
// comes before the onset (a gate that was closed, a stream not yet
// started), which is no room at all and against which any sound rises by
// 100 dB, the sound is measured against the room as it was last heard
// (behind: the Conditioner's BehindSilence, or RoomUnknownDB when it knows
// none): the silence is replaced, for measuring only, by quiet noise at
// that level. x is not changed.
func (s *featureStage) hear(x []float64, at int, from int64, behind func(int64) (float64, bool)) sound {
	snd := sound{x: x, at: at}
	if !afterSilence(x[:at]) {
		return snd
	}
	snd.holed = true
	snd.roomDB = RoomUnknownDB
	if db, ok := behind(from); ok {
		snd.roomDB = db
	}
	s.filled = append(s.filled[:0], x...)
	s.fillSilence(s.filled[:at], snd.roomDB)
	snd.x = s.filled
	return snd
}

// measure measures snd's features in context c. rise, when above zero, is
// the least rise of a sound that is measured in full (gesture.Analyzer.Rise;
// the repeat rule asks for it), zero the Analyzer's own.
func (s *featureStage) measure(snd sound, c featureContext, rise float64) gesture.Features {
	s.an.Rise = rise
	var f gesture.Features
	if k := s.line.factor; k > 1 && c.Narrow {
		// A telephone line the sound server resampled up: measured as the
		// line itself sounds, at about 8 kHz, as the network for such
		// lines was taught.
		f = s.an.Measure(s.line.down(snd.x, snd.at), snd.at/k, s.rate/k)
	} else {
		f = s.an.Measure(snd.x, snd.at, s.rate)
	}
	s.an.Rise = 0
	f.Above = f.Level - c.Floor
	if snd.holed {
		f.Above = f.Level - snd.roomDB // the same room it was judged against
	}
	f.Voiced = c.Voiced
	return f
}

// measureAsIs measures the sound at index at of x as it is: no silence
// filled, at the stream's own rate, and with nothing of its surroundings
// (Above and Voiced are zero). The stream's first sound is looked at so.
func (s *featureStage) measureAsIs(x []float64, at int) gesture.Features {
	return s.an.Measure(x, at, s.rate)
}

// fillSilence replaces each run of digital silence in x (exact zeros, at
// least silenceRun samples) by noise at db dBFS.
func (s *featureStage) fillSilence(x []float64, db float64) {
	amp := math.Pow(10, db/20) * math.Sqrt(3) // uniform noise of that RMS
	for i := 0; i < len(x); {
		j := i
		for j < len(x) && x[j] == 0 {
			j++
		}
		if j-i >= silenceRun {
			for k := i; k < j; k++ {
				s.noise = s.noise*6364136223846793005 + 1442695040888963407
				x[k] = amp * (float64(s.noise>>11)/(1<<53)*2 - 1)
			}
		}
		i = max(j, i+1)
	}
}

// afterSilence reports whether the samples just before an onset hold digital
// silence (a run of at least silenceRun exact zeros).
func afterSilence(before []float64) bool {
	run := 0
	for _, v := range before {
		if v == 0 {
			run++
			if run >= silenceRun {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
}
