//go:build !race

package troll

const raceOn = false
