// This file covers the trainer's code. The sequence cards lie in a row, and
// the card next to the box is position 1. To show a drawn animal card without
// speaking, the trainer bangs a flat hand on the table once per position of
// the card's species in that row, and claps once per animal on the card, in
// any mixed order. A card shows 1 to 5 animals of one species.

package woodlouse

import (
	"errors"
	"fmt"
	"strings"
)

// Species is a kind of animal on the cards.
type Species string

// The five species of the game.
const (
	Woodlouse Species = "woodlouse"
	Spider    Species = "spider"
	Fly       Species = "fly"
	Rat       Species = "rat"
	Snail     Species = "snail"
)

// AllSpecies lists every species, in no particular order of play.
var AllSpecies = []Species{Woodlouse, Spider, Fly, Rat, Snail}

var plurals = map[Species]string{
	Woodlouse: "woodlice",
	Spider:    "spiders",
	Fly:       "flies",
	Rat:       "rats",
	Snail:     "snails",
}

// Plural is the species' plural name.
func (s Species) Plural() string { return plurals[s] }

// ParseSpecies reads a species name, singular or plural, in any case.
func ParseSpecies(name string) (Species, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	for _, s := range AllSpecies {
		if n == string(s) || n == s.Plural() {
			return s, nil
		}
	}
	return "", fmt.Errorf("unknown animal %q (the animals are %s)", name, speciesList())
}

func speciesList() string {
	names := make([]string, len(AllSpecies))
	for i, s := range AllSpecies {
		names[i] = string(s)
	}
	return strings.Join(names, ", ")
}

// Card limits and table sizes.
const (
	MinAnimals  = 1 // animals on a card
	MaxAnimals  = 5
	MinSequence = 3 // sequence cards on the table (easier variant)
	MaxSequence = 5 // (harder variant); the basic game uses 4
)

// Order is the row of sequence cards; Order[0] is position 1, next to the box.
type Order []Species

// ParseOrder reads a comma-separated row such as "woodlouse,rat,spider,fly":
// 3 to 5 different species.
func ParseOrder(s string) (Order, error) {
	parts := strings.Split(s, ",")
	if strings.TrimSpace(s) == "" {
		parts = nil
	}
	if len(parts) < MinSequence || len(parts) > MaxSequence {
		return nil, fmt.Errorf("the sequence needs %d to %d animals, comma-separated (e.g. woodlouse,rat,spider,fly); got %d",
			MinSequence, MaxSequence, len(parts))
	}
	o := make(Order, len(parts))
	seen := map[Species]bool{}
	for i, p := range parts {
		sp, err := ParseSpecies(p)
		if err != nil {
			return nil, err
		}
		if seen[sp] {
			return nil, fmt.Errorf("%s appears twice in the sequence", sp)
		}
		seen[sp] = true
		o[i] = sp
	}
	return o, nil
}

// String is the row as ParseOrder reads it.
func (o Order) String() string {
	names := make([]string, len(o))
	for i, s := range o {
		names[i] = string(s)
	}
	return strings.Join(names, ",")
}

// Card is what an animal card shows.
type Card struct {
	Species Species
	Count   int
}

// String reads like the card: "1 spider", "4 spiders", "2 woodlice".
func (c Card) String() string {
	if c.Count == 1 {
		return fmt.Sprintf("1 %s", c.Species)
	}
	return fmt.Sprintf("%d %s", c.Count, c.Species.Plural())
}

// ErrNoCard reports a code that matches no card; errors from Decode wrap it.
var ErrNoCard = errors.New("no card matches this code")

// Decode reads a code: bangs give the position of the species in the row,
// claps the number of animals. A code that fits no card gets an error
// naming every problem with it.
func (o Order) Decode(bangs, claps int) (Card, error) {
	var probs []string
	switch {
	case bangs <= 0:
		probs = append(probs, "no bangs, so no position")
	case bangs > len(o):
		probs = append(probs, fmt.Sprintf("%d bangs, but only %d sequence cards are on the table", bangs, len(o)))
	}
	switch {
	case claps <= 0:
		probs = append(probs, "no claps, and a card shows at least 1 animal")
	case claps > MaxAnimals:
		probs = append(probs, fmt.Sprintf("%d claps, and a card shows at most %d animals", claps, MaxAnimals))
	}
	if len(probs) > 0 {
		return Card{}, fmt.Errorf("%w: %s", ErrNoCard, strings.Join(probs, "; "))
	}
	return Card{Species: o[bangs-1], Count: claps}, nil
}
