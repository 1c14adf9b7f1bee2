package webremote

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gofiber/fiber/v2"
	"github.com/mtibben/confusables"
	"github.com/rivo/uniseg"
	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// A player's name is data: it is checked here when a phone joins, put into
// the texts of events, results and refusals once, by the referee
// (game.Names), and shown as it is everywhere after that, never read as a
// template again ("{0}" is a name like any other).

// cleanName checks a player's name as people write it: 1 to 24 letters as
// a reader counts them (grapheme clusters: 👨‍🍳 is one), in any script, with
// emoji sequences (joiners, variation selectors, a flag's tag characters);
// no control character and no character that turns the text's direction,
// which could make a name read as another's; and something that shows.
func cleanName(name string) (string, *apiError) {
	name = strings.Join(strings.Fields(name), " ")
	if name == "" {
		return "", fail(fiber.StatusBadRequest, `give your name: {"name":"Ann"}`)
	}
	if !fitsLetters(name, maxName) {
		return "", fail(fiber.StatusBadRequest, fmt.Sprintf("a name is 1 to %d letters", maxName))
	}
	if !shows(name) {
		// Only spaces, invisible characters, characters that draw no
		// ink (the braille blank, a Hangul filler) and marks on none of
		// them: a name nobody can read.
		return "", fail(fiber.StatusBadRequest, "a name needs a character that shows: give your name")
	}
	for _, r := range name {
		switch {
		case unicode.Is(unicode.Bidi_Control, r):
			return "", fail(fiber.StatusBadRequest, "a name may not hold characters that change the text's direction")
		case unicode.IsControl(r):
			return "", fail(fiber.StatusBadRequest, "a name may not hold control characters")
		case unicode.IsPrint(r), emojiPart(r):
		default:
			return "", fail(fiber.StatusBadRequest, fmt.Sprintf("a name may hold only letters, marks, digits, punctuation, symbols and emoji (not %U)", r))
		}
	}
	return name, nil
}

// fitsLetters reports whether s, valid UTF-8, is at most max letters as a
// reader counts them (grapheme clusters: 👨‍🍳 is one), none of them a
// letter under a pile of accents (maxLetterBytes), and at most
// maxNameBytes in all.
func fitsLetters(s string, max int) bool {
	if !utf8.ValidString(s) || len(s) > maxNameBytes {
		return false
	}
	letters := 0
	for g := uniseg.NewGraphemes(s); g.Next(); letters++ {
		if len(g.Str()) > maxLetterBytes || letters >= max {
			return false
		}
	}
	return true
}

// inkless reports whether r, a character of its own, draws nothing where a
// letter would be: the braille blank, the Hangul fillers and the musical
// null notehead. A name reads them as spaces.
func inkless(r rune) bool {
	switch r {
	case '\u2800', '\u3164', '\uffa0', '\u115f', '\u1160', '\U0001D159':
		return true
	}
	return false
}

// invisible reports whether r is not seen at all: a part of an emoji
// sequence, a format character (a zero-width space or joiner) or another
// default-ignorable one.
func invisible(r rune) bool {
	return emojiPart(r) || unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) || unicode.Is(unicode.Cf, r)
}

// shows reports whether name holds a character that a reader sees: not a
// space, invisible or inkless, nor a mark (a mark shows only on what it
// is put on, and on nothing it reads as blank or as a stray dot).
func shows(name string) bool {
	for _, r := range norm.NFKC.String(name) {
		if !unicode.IsSpace(r) && !invisible(r) && !inkless(r) && !unicode.Is(unicode.M, r) {
			return true
		}
	}
	return false
}

// emojiPart reports whether r is an invisible part of an emoji sequence: a
// zero-width joiner (👨‍🍳), a variation selector (🏳️), or a tag character
// (a region's flag, 🏴󠁧󠁢󠁳󠁣󠁴󠁿).
func emojiPart(r rune) bool {
	return r == '\u200d' || unicode.Is(unicode.Variation_Selector, r) || (r >= 0xE0020 && r <= 0xE007F)
}

// lookalike is the key under which names that look the same on a screen
// are one name: compatibility forms and widths made plain (NFKC: "Ａnn",
// "ﬁ"), invisible characters dropped (joiners, variation selectors, tag
// characters and other default-ignorable ones: "Ann" and "Ann" with a
// joiner after it), inkless ones read as spaces and the spaces as one
// ("Ann" and "Ann" with a braille blank after it, "Bo Lee" and "Bo", a
// Hangul filler, "Lee"), the Unicode confusables mapped to one prototype
// (UTS #39 skeleton: Greek "Ζ" and Latin "Z", Cyrillic "а" and Latin "a",
// "l" and "I") and case folded ("ann", "ANN"). The skeleton is taken
// before and after folding: a capital's lowercase may be no lookalike of
// the Latin letter its capital is (Greek "Ζ" is "Z", its "ζ" is no "z").
// Two emoji that differ only by their invisible parts share a key too:
// many screens show them alike.
func lookalike(name string) string {
	s := strings.Map(func(r rune) rune {
		switch {
		case inkless(r):
			return ' '
		case invisible(r):
			return -1
		}
		return r
	}, norm.NFKC.String(name))
	s = strings.Join(strings.Fields(s), " ")
	s = confusables.Skeleton(s)
	s = cases.Fold().String(s) // a Caser is not safe for concurrent use: one per call
	return confusables.Skeleton(s)
}

// lookalikeTaken is the player among seats, other than a seat left empty
// during play, whose name looks like name (lookalike), or nil. The key of
// each name is computed once.
func lookalikeTaken(seats []*player, name string) *player {
	key := lookalike(name)
	for _, p := range seats {
		if p != nil && p.token != "" && lookalike(p.name) == key {
			return p
		}
	}
	return nil
}

// nameTaken is the refusal of name, which looks like the name taken of
// the room called code.
func nameTaken(name, taken, code string) *apiError {
	if name == taken {
		return fail(fiber.StatusConflict, fmt.Sprintf("the name %q is taken in room %s: choose another", name, code))
	}
	return fail(fiber.StatusConflict, fmt.Sprintf("the name %q looks like %q, already taken in room %s: choose another", name, taken, code))
}
