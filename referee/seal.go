package referee

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
)

// Seal is the short commitment to a game's seed that the table shows when
// the game starts, before any card is seen: the first 64 bits of the
// SHA-256 of the room's code and the seed, as four groups of four hex
// digits ("3f9a-c21e-77b0-1d2e"). When the game ends the seed is shown too,
// and anyone can check that it matches the seal and that every shuffle,
// deal and roll of the game follows from it and the moves (tableref
// verify), so the draws could not have been changed mid-game.
func Seal(code string, seed uint64) string {
	sum := sha256.Sum256([]byte("tableref seed " + code + " " + strconv.FormatUint(seed, 10)))
	h := hex.EncodeToString(sum[:8])
	return h[0:4] + "-" + h[4:8] + "-" + h[8:12] + "-" + h[12:16]
}
