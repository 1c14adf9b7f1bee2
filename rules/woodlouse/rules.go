package woodlouse

import (
	"fmt"
	"maps"
	"slices"

	"github.com/tableref/tableref/rules/game"
)

// Variant ids.
const (
	Basic      = "basic"
	Harder     = "harder"
	Easier     = "easier"
	EvenEasier = "even-easier"
)

// Option names and values.
const (
	OptAfterLastCard = "after-last-card"
	FreeGuess        = "free-guess" // default
	Stop             = "stop"

	OptEvenEasierCards = "even-easier-cards"

	// OptLeftOut is the animal the players leave in the box, or
	// LeftOutRandom (the default) for the draw to decide.
	OptLeftOut    = "left-out"
	LeftOutRandom = "random"
	// OptLeftOutToo is, in a game of three animals, the second animal the
	// players leave in the box (LeftOutRandom: the draw decides).
	OptLeftOutToo = "left-out-too"
)

// Game is Woodlouse Chaos in the catalogue.
var Game game.Game = Rules{}

// Rules is the type of Game; it also offers the game's own bot.
type Rules struct{}

var info = game.Info{
	ID:         "woodlouse",
	Name:       "Woodlouse Chaos",
	Summary:    "The trainer drums and claps a code for a secret animal card; the first to call the right animal and number wins it.",
	MinPlayers: 3,
	ScoreText:  "score cards at the end",
	MaxPlayers: 6,
	Variants: []game.Variant{
		{ID: Basic, Name: "Basic", Text: "Four of the five animals (40 cards); the players choose the animal left out, or leave it to the draw."},
		{ID: Harder, Name: "Harder", Text: "All five animals (50 cards) and five sequence cards."},
		{ID: Easier, Name: "Easier", Text: "Three animals (30 cards) and a draw pile of 12 cards."},
		{ID: EvenEasier, Name: "Even easier", Text: "The easier game (or the basic or harder one, by option), and the sequence cards keep their order all game."},
	},
	Options: []game.Option{
		{Name: OptAfterLastCard, Label: "After paying your last card", Default: FreeGuess, Values: []string{FreeGuess, Stop},
			ValueText: map[string]string{FreeGuess: "One free guess on that card", Stop: "Done guessing on that card"},
			Text:      "A guesser who pays away their last score card: may still make one free guess on that card (free-guess), or is done guessing on that card (stop)."},
		{Name: OptEvenEasierCards, Label: "Cards in the even easier game", Default: "30", Values: []string{"30", "40", "50"},
			ValueText: map[string]string{"30": "30 cards, three animals", "40": "40 cards, four animals", "50": "50 cards, all five animals"},
			Variants:  []string{EvenEasier},
			Text:      "Cards used in the even-easier variant: 30 (three animals, 12-card pile, as the easier game), 40 (four animals, as the basic game) or 50 (all five, as the harder game)."},
		{Name: OptLeftOut, Label: "The animal left in the box", Default: LeftOutRandom,
			Values: []string{LeftOutRandom, string(Woodlouse), string(Spider), string(Fly), string(Rat), string(Snail)},
			ValueText: map[string]string{LeftOutRandom: "Drawn at random", string(Woodlouse): "The woodlice", string(Spider): "The spiders",
				string(Fly): "The flies", string(Rat): "The rats", string(Snail): "The snails"},
			Variants: []string{Basic, Easier, EvenEasier},
			Text: "Which animal's cards stay in the box: the players choose it together, or leave it to the draw. " +
				"In a game of three animals two stay in the box: this one and the next option's."},
		{Name: OptLeftOutToo, Label: "The second animal left in the box", Default: LeftOutRandom,
			Values: []string{LeftOutRandom, string(Woodlouse), string(Spider), string(Fly), string(Rat), string(Snail)},
			ValueText: map[string]string{LeftOutRandom: "Drawn at random", string(Woodlouse): "The woodlice", string(Spider): "The spiders",
				string(Fly): "The flies", string(Rat): "The rats", string(Snail): "The snails"},
			Variants: []string{Easier, EvenEasier},
			Text: "In a game of three animals (the easier game, and the even easier one with 30 cards) two animals stay in the box: " +
				"the one above and this one, chosen together or left to the draw. It must differ from the first."},
	},
	// The trainer's codes are heard at the table: each becomes a "code"
	// move (bangs, claps).
	Page:  page,
	Hears: game.Hearing{Gestures: true, CodeAction: "code", WithoutMic: "the trainer enters each code on the phone"},
	Spoken: map[string]string{
		"mistake": "Wrong code! ", "guess-right": game.SayAll, "kept": game.SayClause, "game-over": game.SayAll,
	},
	Sounds: map[string]string{
		"mistake": game.SoundBuzzer, "guess-wrong": game.SoundBuzzer,
		"guess-right": game.SoundChime, "trainer": game.SoundChime,
	},
}

// Info is the catalogue entry.
func (Rules) Info() game.Info {
	in := info
	in.Variants = slices.Clone(info.Variants)
	in.Options = slices.Clone(info.Options)
	in.Spoken = maps.Clone(info.Spoken)
	in.Sounds = maps.Clone(info.Sounds)
	for i := range in.Options {
		in.Options[i] = info.Options[i].Clone()
	}
	return in
}

// Bot is the game's own bot: a trainer who always gives the right code and
// guessers who sometimes decode it wrong.
func (Rules) Bot() game.Bot { return DefaultBot }

// PileSize is the number of cards in the draw pile at the start, by the
// number of players, for the basic and harder games (the easier game uses 12).
func PileSize(players int) int {
	switch players {
	case 3, 5:
		return 15
	case 4:
		return 16
	case 6:
		return 18
	}
	return 0
}

// ScoreCardsEach is the number of face-down score cards dealt to each player.
const ScoreCardsEach = 3

// EasierPile is the draw pile of the easier game.
const EasierPile = 12

// CardsPerSpecies is the number of animal cards of each species: two each
// of 1 to 5 animals.
const CardsPerSpecies = 10

// New sets up a match: it picks the animals in play, lays out the sequence
// cards, deals three face-down score cards each and the draw pile, and has
// seat 0 (the youngest player) draw the first card as trainer.
func (Rules) New(cfg game.Config) (game.State, error) {
	variant, opts, err := info.Resolve(cfg)
	if err != nil {
		return nil, err
	}
	n, pile := 4, PileSize(cfg.Players)
	fixed := false
	switch variant {
	case Harder:
		n = 5
	case Easier:
		n, pile = 3, EasierPile
	case EvenEasier:
		fixed = true
		switch opts[OptEvenEasierCards] {
		case "30":
			n, pile = 3, EasierPile
		case "50":
			n = 5
		}
	}
	out, outToo := opts[OptLeftOut], opts[OptLeftOutToo]
	if n == 3 && out != LeftOutRandom && out == outToo {
		return nil, fmt.Errorf("%s and %s are both %s: the two animals left in the box must differ", OptLeftOut, OptLeftOutToo, out)
	}
	s := &State{
		players: cfg.Players,
		variant: variant,
		fixed:   fixed,
		stop:    opts[OptAfterLastCard] == Stop,
		rng:     game.NewRand(cfg.Seed),
	}
	// The animals in play: n of the five, the rest go back in the box
	// (the one the players chose among them).
	perm := s.rng.Perm(len(AllSpecies))
	leave := []string{out}
	if n == 3 {
		leave = append(leave, outToo)
	}
	for _, o := range leave {
		if o != LeftOutRandom && n < len(AllSpecies) {
			i := slices.Index(AllSpecies, Species(o))
			perm = append(slices.DeleteFunc(perm, func(p int) bool { return p == i }), i)
		}
	}
	inPlay := perm[:n]
	slices.Sort(inPlay)
	s.order = make(Order, n)
	for i, sp := range inPlay {
		s.order[i] = AllSpecies[sp]
	}
	game.ShuffleSlice(&s.rng, s.order)
	cards := make([]uint8, 0, n*CardsPerSpecies)
	for _, sp := range inPlay {
		for k := range CardsPerSpecies {
			cards = append(cards, uint8(sp*CardsPerSpecies+k))
		}
	}
	game.ShuffleSlice(&s.rng, cards)
	s.scores = make([][]uint8, cfg.Players)
	for i := range s.scores {
		s.scores[i] = slices.Clone(cards[:ScoreCardsEach])
		cards = cards[ScoreCardsEach:]
	}
	s.pile = slices.Clone(cards[:pile])
	s.box = slices.Clone(cards[pile:])
	s.boxSize = len(s.box)
	s.tries = make([]uint8, cfg.Players)
	s.free = make([]bool, cfg.Players)
	s.passed = make([]bool, cfg.Players)
	s.last = -1
	s.draw()
	return s, nil
}
