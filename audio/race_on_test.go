//go:build race

package audio_test

// raceOn: the race detector slows the analysis about tenfold, and the
// tests that only compute (the microphone conditions) look at fewer
// recordings under it.
const raceOn = true
