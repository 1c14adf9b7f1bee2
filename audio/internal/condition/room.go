package condition

import (
	"sort"

	"github.com/tableref/tableref/audio/internal/level"
)

// Room tunables.
const (
	// RoomBlockSeconds is the span the room's level is measured over.
	RoomBlockSeconds = 0.01
	// RoomSeconds is the span over which the room's level is taken: the
	// RoomShare quietest of its blocks lie at or below it (claps and voices
	// come and go above the room; its own hiss is always there). Behind a
	// gate that closes between sounds, it is about the gate's threshold:
	// the quietest the gate lets through.
	RoomSeconds = 2.0
	RoomShare   = 0.2
	// DuckDB: a block this far under the room's level, straight after a
	// block within DuckFromDB of it, is a hole a gate ducked (the room does
	// not fall silent within 10 ms).
	DuckDB     = 15.0
	DuckFromDB = 6.0
	// HoleGuardSeconds: the blocks this close to digital silence, before
	// or after it, say nothing of the room. Behind a gate that closes to
	// zeros they are what the gate let through (the sounds themselves, and
	// the tail of each one), far louder than the room it shut out; only a
	// stretch that stays open longer than twice this is the room.
	HoleGuardSeconds = 0.5
	// OpenSeconds is the span over which the quietest sound let through is
	// taken (the OpenShare quantile of the blocks that hold no zeros): behind
	// a gate, about its threshold, which lies above the room it shuts out.
	OpenSeconds = 10.0
	OpenShare   = 0.05
)

// room follows the level of the room from the blocks of sound that are not
// digital silence, and counts the ducks a gate makes. (A stretch of digital
// silence, and what a gate lets through, are told apart from the room this
// way; what the analysis then does about them is the Listener's business.)
type room struct {
	block   int
	n       int
	sum     float64
	hole    bool      // some of the current block was digital silence
	levels  []float64 // the last RoomSeconds of block levels, a ring
	at      int
	sorted  []float64
	typical float64 // the room's level: the RoomShare quantile of levels
	prev    float64 // the level of the block before
	ducks   int
	samples int64 // samples seen
	blocks  int   // blocks of sound taken for the room
	from    int64 // samples seen when the first block was taken for the room (-1 before)
	// Blocks wait in held, HoleGuardSeconds of them, before they are taken
	// for the room: a hole arriving drops them. After a hole, skip blocks
	// are left out.
	held   []float64
	skip   int
	hold   int
	ducked bool // in a duck: under the room since a block that fell DuckDB at once

	open     []float64 // the last OpenSeconds of levels of blocks with no zeros, a ring
	openAt   int
	openSort []float64
	openFrom int64 // samples seen when the first block went into open (-1 before)
}

func (r *room) init(rate int) {
	r.block = max(1, int(RoomBlockSeconds*float64(rate)))
	r.from, r.openFrom = -1, -1
	r.levels = make([]float64, 0, max(1, int(RoomSeconds/RoomBlockSeconds)))
	r.hold = max(1, int(HoleGuardSeconds/RoomBlockSeconds))
	r.held = make([]float64, 0, r.hold+1)
	r.open = make([]float64, 0, max(1, int(OpenSeconds/RoomBlockSeconds)))
}

// blockEnd takes in the block of samples that has just ended (the
// Conditioner adds them up into n, sum and hole).
func (r *room) blockEnd() {
	l := level.DB(r.sum / float64(r.n))
	hole := r.hole
	r.n, r.sum, r.hole = 0, 0, false
	if hole {
		// zeros in it: says nothing of the room, nor do its neighbours
		r.prev = l
		r.gap()
		return
	}
	if r.openFrom < 0 {
		r.openFrom = r.samples
	}
	r.open, r.openAt = push(r.open, r.openAt, l)
	if len(r.levels) >= cap(r.levels)/4 && l < r.typical-DuckDB && r.prev >= r.typical-DuckFromDB {
		r.ducks++
		r.ducked = true
	}
	r.prev = l
	if r.ducked && l < r.typical-DuckFromDB {
		// still ducked: a hole, for the room's level, like the zeros
		r.gap()
		return
	}
	r.ducked = false
	if r.skip > 0 {
		r.skip--
		return
	}
	r.held = append(r.held, l)
	if len(r.held) <= r.hold {
		return
	}
	l = r.held[0]
	r.held = append(r.held[:0], r.held[1:]...)
	r.take(l)
}

// gap drops the blocks waiting to be taken for the room, and leaves out the
// next HoleGuardSeconds of them: a hole is under way.
func (r *room) gap() {
	r.held = r.held[:0]
	r.skip = r.hold
}

// quiet is the OpenShare quantile of the open blocks' levels (measured
// when asked for: only a sound after digital silence needs it).
func (r *room) quiet() float64 {
	r.openSort = append(r.openSort[:0], r.open...)
	sort.Float64s(r.openSort)
	return r.openSort[int(OpenShare*float64(len(r.openSort)))]
}

// take adds the level of a block to the room's.
func (r *room) take(l float64) {
	if r.from < 0 {
		r.from = r.samples
	}
	r.levels, r.at = push(r.levels, r.at, l)
	// the quantile is taken again every tenth block (and from the first
	// blocks on): the room does not change in 10 ms
	if r.blocks++; r.blocks%10 == 1 || len(r.levels) < 10 {
		r.sorted = append(r.sorted[:0], r.levels...)
		sort.Float64s(r.sorted)
		r.typical = r.sorted[int(RoomShare*float64(len(r.sorted)))]
	}
}

// push puts v into the ring ring (its capacity is its size; at is where the
// oldest value is once it is full) and returns the ring and at.
func push(ring []float64, at int, v float64) ([]float64, int) {
	if len(ring) < cap(ring) {
		return append(ring, v), at
	}
	ring[at] = v
	return ring, (at + 1) % len(ring)
}
