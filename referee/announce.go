package referee

import (
	"errors"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/tableref/tableref/rules/game"
	"github.com/tableref/tableref/rules/woodlouse"
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

// CodeFits checks a heard code against the sequence cards on the table: it
// returns why it fits no card (no bangs, more bangs than sequence cards, no
// claps or more than a card shows), or nil. Such a code is more likely
// misheard than miscounted. Games without codes fit none.
func (m *Match) CodeFits(bangs, claps int) error {
	m.mu.Lock()
	v, ok := m.s.View(game.Table).(woodlouse.View)
	m.mu.Unlock()
	if !ok {
		return errors.New("this game has no codes")
	}
	_, err := woodlouse.Order(v.Order).Decode(bangs, claps)
	return err
}

// spoken lists the event types the referee says out loud, with how: "all"
// the first sentence, "clause" up to the first colon, a rule of its own
// ("sits", "fatal"), or a fixed phrase put before the first clause. Each
// game says who must sit, who attacks whom and who died.
var spoken = map[string]string{
	// Woodlouse Chaos
	"mistake": "Wrong code! ", "guess-right": "all", "kept": "clause", "game-over": "all",
	// The Louse and the Flea: who is called on (to answer or sit down),
	// and a play only when its player sits down.
	"called": "clause", "win": "all", "play": "sits",
	// Celestial Emperor: who attacks whom, who leaves the fight, who wins.
	"attack": "clause", "out": "all", "battle-over": "clause", "champion": "clause",
	// Purse Snatcher
	"challenge-won": "all", "challenge-lost": "all", "arrested": "all", "token-taken": "all", "time": "all", "left": "all",
	"ordered": "all", // told to leave (the meeting's time is up, or the officer says so)
	// Insomnia
	"silenced": "all", "alarm": "clause", "asleep": "all",
	// Jerks in a Minefield: whose token is blown up, who becomes a ghost,
	// who misses a turn, who wins.
	"boom": "all", "ghost": "all", "sit-out": "all", "over": "all",
	// Angry Troll versus Magic Bridge: how the bridge or the troll falls.
	"collapse": "all", "fly": "fatal",
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
	var said string
	switch how {
	case "all":
		said = first
	case "clause":
		said = clause(first)
	case "sits":
		// "Ann cannot answer the call, sits down, and plays cart.", not
		// "nobody sits for it" on a free turn nor "no need to sit".
		if !sitsDown.MatchString(text) {
			return "", false
		}
		said = first
	case "fatal":
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
