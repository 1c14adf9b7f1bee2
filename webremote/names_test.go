package webremote

import (
	"fmt"
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
		{"\u200d", "a character that shows"},
		{"\ufe0f\u200d\ufe0f", "a character that shows"},
		{"\u3164", "a character that shows"}, // a Hangul filler
	} {
		_, err := cleanName(c.name)
		if assert.NotNil(t, err, "%q accepted", c.name) {
			assert.Contains(t, err.msg, c.why, "%q", c.name)
		}
	}
}

// Names that look the same on a screen are one name: a lookalike of a
// name taken is refused as taken. Letters of other scripts that look like
// Latin ones (UTS #39 confusables), case, width, compatibility forms and
// invisible characters make no new name; names that look different stay
// apart.
func TestLookalikeNamesAreOneName(t *testing.T) {
	for _, c := range [][2]string{
		{"Zoe", "\u0396oe"},           // Greek capital zeta
		{"Zoe", "zoe"},                // case
		{"Zoe", "ZOE"},                // case
		{"Anna", "Ann\u0430"},         // Cyrillic small a
		{"Anna", "\u0410nna"},         // Cyrillic capital A
		{"Ann", "\uff21nn"},           // fullwidth A
		{"Ann", "\uff41\uff4e\uff4e"}, // fullwidth ann
		{"fin", "\ufb01n"},            // the ligature fi: a compatibility form
		{"Bea", "Bea\u200d"},          // a joiner after it
		{"Bea", "Bea\ufe0f"},          // a variation selector after it
		{"Bea", "Be\u0061\U000E0041"}, // a tag character after it
		{"Al", "AI"},                  // l and capital I
		{"Zoë", "Zoe\u0308"},          // composed and decomposed
		{"{0}", "{0}"},
	} {
		assert.Equal(t, lookalike(c[0]), lookalike(c[1]), "%q and %q", c[0], c[1])
	}
	for _, c := range [][2]string{
		{"Zoe", "Zoë"}, {"Ann", "Anne"}, {"Ann", "Bob"}, {"{0}", "{1}"}, {"王小明", "王小朋"},
		{"👨‍🍳", "👩‍🍳"}, {"Ann", "Ann 2"},
	} {
		assert.NotEqual(t, lookalike(c[0]), lookalike(c[1]), "%q and %q", c[0], c[1])
	}
}

// A name that looks like one taken in the room is refused as taken, saying
// which it looks like (blank-looking characters included: "Anna" with a
// braille blank after it is no third "Anna"); a name that looks different
// joins.
func TestALookalikeOfANameTakenIsRefused(t *testing.T) {
	s := newTestServer(t, Config{})
	code, _ := createRoom(t, s, map[string]any{"game": "deck", "players": 6})
	joinRoom(t, s, code, "Zoe")
	joinRoom(t, s, code, "Anna")
	joinRoom(t, s, code, "Bo Lee")
	for _, c := range []struct{ name, like string }{
		{"\u0396oe", "Zoe"},        // Greek capital zeta
		{"zoe", "Zoe"},             // case
		{"ZOE", "Zoe"},             // case
		{"\uff3aoe", "Zoe"},        // fullwidth Z
		{"Ann\u0430", "Anna"},      // Cyrillic a
		{"\u0410nn\u0430", "Anna"}, // Cyrillic A and a
		{"Anna\u200d", "Anna"},     // an invisible joiner after it
		// Characters that draw no ink read as spaces: no third "Anna".
		{"Anna\u2800", "Anna"}, {"\u2800Anna", "Anna"}, {"\u2800Anna\u2800\u2800", "Anna"}, // the braille blank
		{"Anna\u3164", "Anna"}, {"Anna\u115f", "Anna"}, {"Anna\uffa0", "Anna"}, // Hangul fillers
		{"A\u034fnna", "Anna"}, {"Anna\U0001D159", "Anna"}, {"\uff21\uff4e\uff4e\uff41", "Anna"}, {"ANNA", "Anna"},
		{"Bo\u2800Lee", "Bo Lee"}, {"Bo \u2800 Lee", "Bo Lee"}, {"Bo\u3164Lee", "Bo Lee"},
	} {
		r := call(t, s, "POST", "/api/rooms/"+code+"/join", "", map[string]string{"name": c.name})
		if assert.Equal(t, 409, r.status, "%q: %s", c.name, r.body) {
			assert.Equal(t, fmt.Sprintf("the name %q looks like %q, already taken in room %s: choose another", c.name, c.like, code), r.errorText(t))
		}
	}
	r := call(t, s, "POST", "/api/rooms/"+code+"/join", "", map[string]string{"name": "Zoe"})
	assert.Equal(t, 409, r.status, "%s", r.body)
	assert.Equal(t, fmt.Sprintf("the name %q is taken in room %s: choose another", "Zoe", code), r.errorText(t))
	for _, ok := range []string{"Zoë", "Annabel", "{0}"} {
		joinRoom(t, s, code, ok)
	}
}

// A name that reads as blank is refused, whatever it is made of: the
// braille blank, the Hangul fillers, zero-width characters, variation
// selectors or combining marks alone, or a mix of them with spaces.
func TestANameThatReadsAsBlankIsRefused(t *testing.T) {
	s := newTestServer(t, Config{})
	code, _ := createRoom(t, s, map[string]any{"game": "deck", "players": 6})
	for _, name := range []string{
		"\u2800", "\u2800\u2800", "\u2800 \u2800", // the braille blank
		"\u3164", "\u115f", "\u1160", "\uffa0", // Hangul fillers
		"\u200b", "\u2060", "\ufeff", // zero-width ones
		"\ufe0f", "\ufe0e\ufe0f", "\U000E0101", // variation selectors
		"\u0301", "\u0301\u0308", "\u20dd", "\u2800\u0301", // combining marks alone
		"\U0001D159",                      // the musical null notehead
		"\u3164\u200b\u2800 \u115f\ufe0f", // all of them
	} {
		r := call(t, s, "POST", "/api/rooms/"+code+"/join", "", map[string]string{"name": name})
		if assert.Equal(t, 400, r.status, "%+q: %s", name, r.body) {
			assert.Equal(t, "a name needs a character that shows: give your name", r.errorText(t), "%+q", name)
		}
	}
	for _, ok := range []string{"Zoë", "e\u0301", "Ann\u0301"} { // a mark on a letter shows
		joinRoom(t, s, code, ok)
	}
}
