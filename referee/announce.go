package referee

import (
	"slices"
	"strconv"
	"strings"

	"github.com/tableref/tableref/rules/game"
)

// CodeMove is the move a heard Woodlouse code makes: the "code" move of
// the seat that may give one now (the trainer), or false when no seat is
// waiting to give a code (guessing is under way, another game, the end).
func (m *Match) CodeMove(bangs, claps int) (game.Move, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.s.Over() {
		return game.Move{}, false
	}
	for _, seat := range m.s.Turn() {
		if slices.ContainsFunc(m.s.Legal(seat), func(mv game.Move) bool { return mv.Action == "code" }) {
			return game.M(seat, "code", strconv.Itoa(bangs), strconv.Itoa(claps)), true
		}
	}
	return game.Move{}, false
}

// spoken lists the event types the referee says out loud, with how: "all"
// the first sentence, "clause" up to the first colon, or a fixed phrase put
// before the first clause.
var spoken = map[string]string{
	// Woodlouse Chaos
	"mistake": "Wrong code! ", "guess-right": "all", "kept": "clause", "game-over": "all",
	// The Louse and the Flea ("play" only when someone sits down)
	"called": "clause", "win": "all", "play": "sit",
	// Celestial Emperor
	"attack": "clause", "battle-over": "clause", "champion": "clause",
	// Purse Snatcher
	"challenge-won": "all", "challenge-lost": "all", "arrested": "all", "token-taken": "all", "time": "all", "left": "all",
	// Insomnia
	"silenced": "all", "alarm": "clause", "asleep": "all",
	// Jerks in a Minefield
	"boom": "all", "over": "all",
	// Angry Troll versus Magic Bridge
	"collapse": "clause",
}

// Announcement is what the referee says out loud for an event ("Cart, sit
// down!"), or false for events only shown. Private events are never said.
func Announcement(e Logged) (string, bool) {
	if !e.Public() {
		return "", false
	}
	how, ok := spoken[e.Type]
	if !ok {
		return "", false
	}
	text := strings.TrimSpace(e.Text)
	first := sentence(text)
	switch how {
	case "all":
		return first, first != ""
	case "clause":
		return clause(first), true
	case "sit":
		if !strings.Contains(text, "sit") {
			return "", false
		}
		return first, true
	}
	return how + clause(first), true
}

// sentence is text up to its first full stop, question or exclamation mark
// (kept) that ends a sentence.
func sentence(text string) string {
	for i, r := range text {
		if (r == '.' || r == '!' || r == '?') && (i+1 == len(text) || text[i+1] == ' ') {
			return text[:i+1]
		}
	}
	return text
}

// clause is a sentence up to its first colon or semicolon.
func clause(s string) string {
	if i := strings.IndexAny(s, ":;"); i > 0 {
		return strings.TrimSpace(s[:i]) + "."
	}
	return s
}
