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
	blocks  int   // blocks of sound seen
	from    int64 // samples seen when the first block of sound ended (-1 before)
}

func (r *room) init(rate int) {
	r.block = max(1, int(RoomBlockSeconds*float64(rate)))
	r.from = -1
	r.levels = make([]float64, 0, max(1, int(RoomSeconds/RoomBlockSeconds)))
}

// blockEnd takes in the block of samples that has just ended (the
// Conditioner adds them up into n, sum and hole).
func (r *room) blockEnd() {
	l := level.DB(r.sum / float64(r.n))
	hole := r.hole
	r.n, r.sum, r.hole = 0, 0, false
	if hole {
		r.prev = l
		return // zeros in it: says nothing of the room
	}
	if len(r.levels) >= cap(r.levels)/4 && l < r.typical-DuckDB && r.prev >= r.typical-DuckFromDB {
		r.ducks++
	}
	r.prev = l
	if r.from < 0 {
		r.from = r.samples
	}
	if len(r.levels) < cap(r.levels) {
		r.levels = append(r.levels, l)
	} else {
		r.levels[r.at] = l
		r.at = (r.at + 1) % len(r.levels)
	}
	// the quantile is taken again every tenth block (and from the first
	// blocks on): the room does not change in 10 ms
	if r.blocks++; r.blocks%10 == 1 || len(r.levels) < 10 {
		r.sorted = append(r.sorted[:0], r.levels...)
		sort.Float64s(r.sorted)
		r.typical = r.sorted[int(RoomShare*float64(len(r.sorted)))]
	}
}
