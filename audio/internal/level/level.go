// Package level measures how loud a stretch of samples is.
package level

import "math"

// MeanSquare is the mean power of x (0 for no samples).
func MeanSquare(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	var s float64
	for _, v := range x {
		s += v * v
	}
	return s / float64(len(x))
}

// DB converts a power to decibels, with a floor of -120 dB so silence stays finite.
func DB(power float64) float64 { return 10 * math.Log10(power+1e-12) }
