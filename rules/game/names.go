package game

import (
	"strconv"
	"strings"
)

// Seat writes a reference to a seat into an event's or a result's text:
// "{2}". The referee replaces it with the player's name (Names); engines
// never know names.
func Seat(seat int) string { return "{" + strconv.Itoa(seat) + "}" }

// Names replaces every seat reference in text (a brace, decimal digits and
// a brace: "{2}") with names[seat], or with "player N" (N counted from 1)
// where no name is given. It reads text once, left to right: a name put in
// is data and is never read again, so a player called "{0}" is "{0}" in the
// text, not seat 0's name. A text once named is shown as it is: it is
// never named again, here or by the pages.
func Names(text string, names []string) string {
	if !strings.Contains(text, "{") {
		return text
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(text, '{')
		if i < 0 {
			break
		}
		b.WriteString(text[:i])
		j := i + 1
		for j < len(text) && text[j] >= '0' && text[j] <= '9' {
			j++
		}
		if j == i+1 || j == len(text) || text[j] != '}' {
			// Not a seat reference: the brace is text, and what follows
			// it is read on (a "{{0}" holds one).
			b.WriteByte('{')
			text = text[i+1:]
			continue
		}
		n, err := strconv.Atoi(text[i+1 : j])
		switch {
		case err != nil: // too many digits for a seat
			b.WriteString(text[i : j+1])
		case n < len(names) && names[n] != "":
			b.WriteString(names[n])
		default:
			b.WriteString("player " + strconv.Itoa(n+1))
		}
		text = text[j+1:]
	}
	b.WriteString(text)
	return b.String()
}
