package referee

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestASealIsShortAndBindsTheSeedAndTheRoom(t *testing.T) {
	s := Seal("ABCD", 12345)
	assert.Regexp(t, `^[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}$`, s)
	assert.Equal(t, s, Seal("ABCD", 12345), "the same seed and room, the same seal")
	assert.NotEqual(t, s, Seal("ABCD", 12346), "another seed")
	assert.NotEqual(t, s, Seal("ABCE", 12345), "another room")
	assert.NotEqual(t, Seal("AB", 1), Seal("A", 1), "no two inputs read alike")
}
