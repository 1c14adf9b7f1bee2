//go:build !race

package audio_test

const raceOn = false
