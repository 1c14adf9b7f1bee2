//go:build race

package gametest

// raceDetector: the race detector makes playouts ten times slower and finds
// nothing in an engine, which runs on one goroutine; Run plays fewer.
const raceDetector = true
