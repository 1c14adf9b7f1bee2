package referee

import (
	"errors"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/tableref/tableref/rules/game"
)

// CodeMove is the move a heard code makes in a game played with codes
// (game.Hearing.CodeAction): that move, with the code's bangs and claps, of
// the seat that may make it now (Woodlouse Chaos: the trainer), or false
// when the game takes no codes or no seat is waiting to give one (guessing
// is under way, the end).
func (m *Match) CodeMove(bangs, claps int) (game.Move, bool) {
	action := m.info.Hears.CodeAction
	m.mu.Lock()
	defer m.mu.Unlock()
	if action == "" || m.s.Over() {
		return game.Move{}, false
	}
	for _, seat := range m.s.Turn() {
		if slices.ContainsFunc(m.s.Legal(seat), func(mv game.Move) bool { return mv.Action == action }) {
			return game.M(seat, action, strconv.Itoa(bangs), strconv.Itoa(claps)), true
		}
	}
	return game.Move{}, false
}

// CodeFits checks a heard code against the table (game.CodeChecker): it
// returns why it fits nothing there (Woodlouse Chaos: no bangs, more bangs
// than sequence cards, no claps or more than a card shows), or nil. Such a
// code is more likely misheard than miscounted. Games without codes fit
// none.
func (m *Match) CodeFits(bangs, claps int) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	c, ok := m.s.(game.CodeChecker)
	if !ok {
		return errors.New("this game has no codes")
	}
	return c.CheckCode(bangs, claps)
}

// Announcement is what the referee says out loud for an event of a game
// whose catalogue entry is info ("Cart, sit down!"), or false for events
// only shown: the game says which of its events are spoken, and how
// (game.Info.Spoken). Private events are never said.
func Announcement(info game.Info, e Logged) (string, bool) {
	if !e.Public() {
		return "", false
	}
	how, ok := info.Spoken[e.Type]
	if !ok {
		return "", false
	}
	text := strings.TrimSpace(e.Text)
	first := sentence(text)
	var said string
	switch how {
	case game.SayAll:
		said = first
	case game.SayClause:
		said = clause(first)
	case game.SaySitsDown:
		// "Ann cannot answer the call, sits down, and plays cart.", not
		// "nobody sits for it" on a free turn nor "no need to sit".
		if !sitsDown.MatchString(text) {
			return "", false
		}
		said = first
	case game.SayIfWon:
		// An event that usually passes in silence, said when it ends the
		// game ("... flies off into the sky, taking the troll with it.").
		if !strings.Contains(text, " wins") {
			return "", false
		}
		said = first
	default:
		said = how + clause(first)
	}
	said = speakable(said)
	return said, said != ""
}

// sitsDown matches a player sitting down, and not "nobody sits".
var sitsDown = regexp.MustCompile(`\b(sits|sit) down\b`)

// sentence is text up to its first full stop, question or exclamation mark
// (kept) that ends a sentence. A one-word exclamation ("BOOM!") is not a
// headline on its own: the sentence after it is kept with it.
func sentence(text string) string {
	from := 0
	for i, r := range text {
		if i < from {
			continue
		}
		if (r == '.' || r == '!' || r == '?') && (i+1 == len(text) || text[i+1] == ' ') {
			if !strings.Contains(strings.TrimSpace(text[:i]), " ") && i+1 < len(text) {
				from = i + 1
				continue
			}
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

// countNoun is "1 minutes", "5 voice(s)", "1 card(s)": a count and a noun
// whose plural the engine's text left to the reader.
var countNoun = regexp.MustCompile(`\b(\d+) (minute|second|card|voice|trick|token|bang|clap)(s|\(s\))`)

// speakable is text as it should be said: counts agree with their nouns
// ("1 minute", "5 voices") and the sentence ends with a full stop.
func speakable(text string) string {
	text = countNoun.ReplaceAllStringFunc(text, func(m string) string {
		sub := countNoun.FindStringSubmatch(m)
		if sub[1] == "1" {
			return sub[1] + " " + sub[2]
		}
		return sub[1] + " " + sub[2] + "s"
	})
	text = strings.TrimSpace(text)
	if text != "" && !strings.ContainsAny(text[len(text)-1:], ".!?\"") {
		text += "."
	}
	return text
}
