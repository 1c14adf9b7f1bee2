package game

import "math/rand/v2"

// Rand is a match's seeded source of randomness. It is a plain value: a
// copy (as in State.Clone) continues the same sequence independently, and
// the zero value is usable (seed 0).
type Rand struct {
	src rand.PCG
}

// NewRand returns the source for seed. The same seed always gives the same
// draws, on every machine.
func NewRand(seed uint64) Rand {
	return Rand{src: *rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)}
}

func (r *Rand) r() *rand.Rand { return rand.New(&r.src) }

// IntN returns a number in [0, n); n must be positive.
func (r *Rand) IntN(n int) int { return r.r().IntN(n) }

// Uint64 returns 64 random bits (to seed a sub-source).
func (r *Rand) Uint64() uint64 { return r.src.Uint64() }

// Die rolls one die with the given number of sides: 1..sides.
func (r *Rand) Die(sides int) int { return 1 + r.IntN(sides) }

// Shuffle permutes n items by swapping them (Fisher–Yates).
func (r *Rand) Shuffle(n int, swap func(i, j int)) { r.r().Shuffle(n, swap) }

// Perm is a random permutation of 0..n-1.
func (r *Rand) Perm(n int) []int { return r.r().Perm(n) }

// ShuffleSlice shuffles s in place.
func ShuffleSlice[T any](r *Rand, s []T) {
	r.Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
}
