//go:build !race

package gametest

const raceDetector = false
