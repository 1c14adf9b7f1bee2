package game

import (
	"strconv"
	"strings"
)

// Seat writes a reference to a seat into an event's or a result's text:
// "{2}". The referee replaces it with the player's name (Names); engines
// never know names.
func Seat(seat int) string { return "{" + strconv.Itoa(seat) + "}" }

// Names replaces every seat reference in text with names[seat], or with
// "player N" (N counted from 1) where no name is given.
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
		j := strings.IndexByte(text[i:], '}')
		if j < 0 {
			break
		}
		n, err := strconv.Atoi(text[i+1 : i+j])
		b.WriteString(text[:i])
		switch {
		case err != nil || n < 0:
			b.WriteString(text[i : i+j+1])
		case n < len(names) && names[n] != "":
			b.WriteString(names[n])
		default:
			b.WriteString("player " + strconv.Itoa(n+1))
		}
		text = text[i+j+1:]
	}
	b.WriteString(text)
	return b.String()
}
