package webremote

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Names as people write them: up to 24 letters as a reader counts them
// (emoji built of several code points count as one), emoji sequences and
// any script; never a control character or a character that turns the
// text's direction, with a message that says which.
func TestNamesAsPeopleWriteThem(t *testing.T) {
	for _, ok := range []string{
		"Ann", "👨‍🍳", "🏳️‍🌈", "مرحبا", "Zoë", "José María", "王小明", "👍🏽 Bea",
		strings.Repeat("W", 24), strings.Repeat("👨‍👩‍👧‍👦", 24), // 24 families of four
		"🏴󠁧󠁢󠁳󠁣󠁴󠁿", // Scotland's flag: a black flag and tag characters
	} {
		got, err := cleanName(ok)
		if assert.Nil(t, err, "%q refused: %v", ok, err) {
			assert.Equal(t, ok, got)
		}
	}
	for _, c := range []struct{ name, why string }{
		{strings.Repeat("W", 25), "1 to 24 letters"},
		{strings.Repeat("👨‍🍳", 25), "1 to 24 letters"},
		{"e" + strings.Repeat("\u0301", 300), "1 to 24 letters"}, // one letter, 300 accents
		{"Ann\u202eoB", "direction"},
		{"\u2067Ann", "direction"},
		{"Ann\u200f", "direction"},
		{"a\u0000b", "control"},
		{"a\u0007b", "control"},
		{"   ", "give your name"},
	} {
		_, err := cleanName(c.name)
		if assert.NotNil(t, err, "%q accepted", c.name) {
			assert.Contains(t, err.msg, c.why, "%q", c.name)
		}
	}
}
