package game

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// A name is data: the seat references of a text are replaced once, left to
// right, and a name put in is never read again as a seat reference, however
// much it looks like one.
func TestANamePutIntoATextIsNeverReadAgain(t *testing.T) {
	text := Seat(0) + " passes a card to " + Seat(1) + "; " + Seat(1) + " wins."
	for _, c := range []struct {
		names []string
		want  string
	}{
		{[]string{"{1}", "Bob"}, "{1} passes a card to Bob; Bob wins."},
		{[]string{"Ann", "{0}"}, "Ann passes a card to {0}; {0} wins."},
		{[]string{"{0}", "{1}"}, "{0} passes a card to {1}; {1} wins."},
		{[]string{"{99}", "x"}, "{99} passes a card to x; x wins."},
		{[]string{"}{0", "{"}, "}{0 passes a card to {; { wins."},
		{[]string{"{", "1}"}, "{ passes a card to 1}; 1} wins."}, // a brace opened by one name, closed by the next
		{[]string{"Ann", "}{0}{"}, "Ann passes a card to }{0}{; }{0}{ wins."},
	} {
		assert.Equal(t, c.want, Names(text, c.names), "names %q", c.names)
	}
	// Every name, however many seats: one pass, so the text's length is
	// the template's with each reference swapped for its name.
	names := []string{"{1}", "{2}", "{0}"}
	assert.Equal(t, "{1} {2} {0}", Names(Seat(0)+" "+Seat(1)+" "+Seat(2), names))
}

// A seat reference is a brace, decimal digits and a brace, as the pages
// read them; anything else in braces is text ("{+1}", "{-0}", "{ 1}"), and
// a stray brace before a reference does not hide it.
func TestASeatReferenceIsDigitsInBraces(t *testing.T) {
	names := []string{"Ann", "Bob"}
	for text, want := range map[string]string{
		"{+1} {-0} { 1} {1 } {1a} {}":       "{+1} {-0} { 1} {1 } {1a} {}",
		"{{0}":                              "{Ann",
		"{x}{1}":                            "{x}Bob",
		"{0}}":                              "Ann}",
		"{00}{01}":                          "AnnBob",
		strings.Repeat("9", 30):             strings.Repeat("9", 30),
		"{" + strings.Repeat("9", 30) + "}": "{" + strings.Repeat("9", 30) + "}",
		"{5}":                               "player 6",
	} {
		assert.Equal(t, want, Names(text, names), "%q", text)
	}
}
