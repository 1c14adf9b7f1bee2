package realcorpus

// SinglesRate is the rate single clips are strung together at, as
// score-real strings them.
const SinglesRate = 44100

// SinglesGapRMS is the level of the quiet pink noise before each single clip
// and after the last: what score-real's `sox -n ... synth 1.0 pinknoise vol
// 0.002` makes (measured: RMS 0.00044, peaks near 0.0016 of full scale,
// about -67 dBFS), so that a clip starts out of a quiet room rather than out
// of digital silence, and the strung stream sounds as score-real's does.
const SinglesGapRMS = 0.00044

// singlesGapSeed seeds the gap's noise. It is fixed, not the code test's
// seed, so that the clip classes' scores do not change with -seed; every
// gap is the same second of noise, as score-real's (one file, sox -R).
const singlesGapSeed = 1

// StringSingles strings single clips into one mono stream at SinglesRate:
// one second of quiet pink noise (SinglesGapRMS) before each clip and
// after the last. Each clip is mixed down by averaging its channels and
// resampled to SinglesRate when it has another rate, as score-real's sox
// commands do. The stream's hits are the clips: one each.
func StringSingles(clips []*PCM) []float64 {
	gap := Pink(SinglesRate, SinglesGapRMS, singlesGapSeed)
	n := len(gap)
	mono := make([][]float64, len(clips))
	for i, c := range clips {
		mono[i] = Resample(c.averageMono(), c.Rate, SinglesRate)
		n += len(mono[i]) + len(gap)
	}
	out := make([]float64, 0, n)
	for _, m := range mono {
		out = append(out, gap...)
		out = append(out, m...)
	}
	return append(out, gap...)
}
