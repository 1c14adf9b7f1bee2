package gesture

// The classifier is a handful of physical tests, in this order:
//
//  1. A hand gesture starts suddenly: within 3 ms the level jumps well above
//     what was heard just before, and its loudest moment stands far above it.
//     Voices, laughter and the room swell more slowly.
//  2. Bright sounds (spectral centroid at or above ClapMinHz) are claps if
//     they are noise-like and not too bright: a clap is a burst of air noise
//     centred near 1-3 kHz. Glass rings (tonal), and sibilants hiss higher.
//  3. Dark sounds are bangs unless they behave like a voice: a bang peaks
//     within a few milliseconds and dies away; a voice keeps building, or
//     sustains a periodic (pitched) tone. A start so abrupt that no voice
//     could make it (ImpulsiveJump) overrides the voice test, since a table
//     can ring with a pitch too.
//
// The numbers are round values with room on both sides of what hands,
// tables, drums and voices do; see the package tests for each rule.
const (
	MinJump   = 10.0 // dB: the first 3 ms over the 30 ms before the onset
	MinSudden = 15.0 // dB: the loudest millisecond over the 30 ms before

	ClapMinHz    = 1000.0 // centroid dividing bright (clap) from dark (bang)
	ClapMaxHz    = 3500.0 // brighter than this is hiss or glass
	ClapMaxHigh  = 0.5    // share of power above 3 kHz
	ClapMaxPitch = 0.55   // periodicity: claps are noise

	BangMaxAttackMs = 16.5 // a hit peaks early; a voice keeps building
	VoicedPitch     = 0.7  // periodicity of a voiced sound
	VoicedMinDecay  = -1.5 // dB over 25 ms: a voice does not die away
	ImpulsiveJump   = 25.0 // dB in 3 ms: too abrupt for a voice
)

// Classify names an onset from its features.
func Classify(f Features) Kind {
	if f.Jump < MinJump || f.Sudden < MinSudden {
		return Other
	}
	if f.Centroid >= ClapMinHz {
		if f.Centroid > ClapMaxHz || f.High > ClapMaxHigh || f.Pitch > ClapMaxPitch {
			return Other
		}
		return Clap
	}
	if f.AttackMs > BangMaxAttackMs {
		return Other
	}
	if f.Pitch >= VoicedPitch && f.Decay > VoicedMinDecay && f.Jump < ImpulsiveJump {
		return Other
	}
	return Bang
}
