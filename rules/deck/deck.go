// Package deck is the standard 52-card deck, with jokers if wanted: cards,
// their names, and seeded shuffling and dealing.
package deck

import (
	"fmt"
	"strings"

	"github.com/tableref/tableref/rules/game"
)

// Suit is a card's suit.
type Suit uint8

// The four suits, in bridge order, then the jokers' pseudo-suit.
const (
	Clubs Suit = iota
	Diamonds
	Hearts
	Spades
	NoSuit // jokers
)

// Suits lists the four real suits.
var Suits = []Suit{Clubs, Diamonds, Hearts, Spades}

var suitLetters = "CDHS"

var suitNames = []string{"clubs", "diamonds", "hearts", "spades", "joker"}

// String is the suit's name: "clubs".
func (s Suit) String() string {
	if int(s) < len(suitNames) {
		return suitNames[s]
	}
	return fmt.Sprintf("Suit(%d)", s)
}

// Red reports whether the suit is red (diamonds, hearts).
func (s Suit) Red() bool { return s == Diamonds || s == Hearts }

// Rank is a card's rank: Ace 1, 2..10, Jack 11, Queen 12, King 13; jokers
// have rank 0.
type Rank uint8

// The named ranks.
const (
	Joker Rank = 0
	Ace   Rank = 1
	Jack  Rank = 11
	Queen Rank = 12
	King  Rank = 13
)

var rankNames = []string{"joker", "ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king"}

// String is the rank's name: "ace", "7", "queen".
func (r Rank) String() string {
	if int(r) < len(rankNames) {
		return rankNames[r]
	}
	return fmt.Sprintf("Rank(%d)", r)
}

// Card is one card. Jokers are Rank Joker, Suit NoSuit, told apart by
// Index (1 and 2, the first red and the second black).
type Card struct {
	Rank  Rank
	Suit  Suit
	Index uint8 // jokers only
}

// IsJoker reports whether c is a joker.
func (c Card) IsJoker() bool { return c.Rank == Joker }

// Red reports whether the card is red (a red suit, or the first joker).
func (c Card) Red() bool {
	if c.IsJoker() {
		return c.Index == 1
	}
	return c.Suit.Red()
}

// String is the card's short name: "AS", "10H", "QC", "7D"; jokers are
// "RJ" (red) and "BJ" (black).
func (c Card) String() string {
	if c.IsJoker() {
		if c.Index == 1 {
			return "RJ"
		}
		return "BJ"
	}
	if c.Suit >= NoSuit || c.Rank > King {
		return fmt.Sprintf("Card(%d,%d)", c.Rank, c.Suit)
	}
	r := rankNames[c.Rank]
	switch c.Rank {
	case Ace, Jack, Queen, King:
		r = strings.ToUpper(r[:1])
	}
	return r + suitLetters[c.Suit:c.Suit+1]
}

// Name is the card in words: "ace of spades", "red joker".
func (c Card) Name() string {
	if c.IsJoker() {
		if c.Index == 1 {
			return "red joker"
		}
		return "black joker"
	}
	return c.Rank.String() + " of " + c.Suit.String()
}

// MarshalText writes the short name, so cards read well in JSON.
func (c Card) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText reads a short name.
func (c *Card) UnmarshalText(b []byte) error {
	p, err := Parse(string(b))
	if err != nil {
		return err
	}
	*c = p
	return nil
}

// Parse reads a card's short name, in any case: "AS", "10h", "td" (T for
// ten), "qc", "RJ"/"BJ" for the jokers; the suit may also be ♣ ♦ ♥ ♠.
func Parse(s string) (Card, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	switch t {
	case "RJ":
		return Card{Rank: Joker, Suit: NoSuit, Index: 1}, nil
	case "BJ":
		return Card{Rank: Joker, Suit: NoSuit, Index: 2}, nil
	}
	var suit Suit
	found := false
	for i, sym := range []string{"♣", "♦", "♥", "♠"} {
		if strings.HasSuffix(t, sym) {
			suit, t, found = Suit(i), strings.TrimSuffix(t, sym), true
			break
		}
	}
	if !found {
		if t == "" {
			return Card{}, fmt.Errorf("card %q: empty", s)
		}
		i := strings.IndexByte(suitLetters, t[len(t)-1])
		if i < 0 {
			return Card{}, fmt.Errorf("card %q: the suit must be C, D, H or S", s)
		}
		suit, t = Suit(i), t[:len(t)-1]
	}
	var rank Rank
	switch t {
	case "A", "1":
		rank = Ace
	case "J":
		rank = Jack
	case "Q":
		rank = Queen
	case "K":
		rank = King
	case "T", "10":
		rank = 10
	default:
		if len(t) == 1 && t[0] >= '2' && t[0] <= '9' {
			rank = Rank(t[0] - '0')
		} else {
			return Card{}, fmt.Errorf("card %q: the rank must be A, 2 to 10, J, Q or K", s)
		}
	}
	return Card{Rank: rank, Suit: suit}, nil
}

// New returns a fresh deck in order (clubs ace to king, then diamonds,
// hearts, spades), followed by jokers (0, 1 or 2).
func New(jokers int) []Card {
	d := make([]Card, 0, 52+jokers)
	for _, s := range Suits {
		for r := Ace; r <= King; r++ {
			d = append(d, Card{Rank: r, Suit: s})
		}
	}
	for i := 1; i <= jokers && i <= 2; i++ {
		d = append(d, Card{Rank: Joker, Suit: NoSuit, Index: uint8(i)})
	}
	return d
}

// SuitCards returns the thirteen cards of one suit, ace to king.
func SuitCards(s Suit) []Card {
	d := make([]Card, 0, 13)
	for r := Ace; r <= King; r++ {
		d = append(d, Card{Rank: r, Suit: s})
	}
	return d
}

// Shuffle shuffles cards in place with the match's Rand.
func Shuffle(r *game.Rand, cards []Card) { game.ShuffleSlice(r, cards) }

// Deal deals n cards to each of players hands, one at a time round the
// table from the top (index 0) of cards, and returns the hands and what is
// left.
func Deal(cards []Card, players, n int) (hands [][]Card, rest []Card, err error) {
	if players < 1 || players > max(len(cards), 1) {
		return nil, nil, fmt.Errorf("deal to %d players: need 1 to %d", players, max(len(cards), 1))
	}
	// n ≤ len/players is players*n ≤ len without the product, which can
	// overflow for absurd counts.
	if n < 0 || n > len(cards)/players {
		return nil, nil, fmt.Errorf("deal %d cards to each of %d players: the deck has %d", n, players, len(cards))
	}
	hands = make([][]Card, players)
	for p := range hands {
		hands[p] = make([]Card, 0, n)
	}
	for i := 0; i < n*players; i++ {
		hands[i%players] = append(hands[i%players], cards[i])
	}
	return hands, append([]Card(nil), cards[n*players:]...), nil
}
