package insomnia

import (
	"fmt"
	"math/bits"

	"github.com/tableref/tableref/rules/deck"
	"github.com/tableref/tableref/rules/game"
)

// Game is Insomnia in the catalogue.
var Game game.Game = gameImpl{}

// gameImpl is the game. Its flag exists only for the package's own tests,
// which switch it on to prove that the secrecy check notices a leak.
type gameImpl struct {
	leak bool // every view shows every voice's card, the sleeper's card and the deck
}

// Option names and values.
const (
	OptAces  = "aces"
	AcesLow  = "low"
	AcesHigh = "high"

	OptNotes = "notes"
	NotesYes = "yes"
	NotesNo  = "no"

	OptShown     = "shown"
	ShownPrivate = "private"
	ShownPublic  = "public"
)

// Fixed numbers of the game.
const (
	// Sleeper is the seat of the sleeper; every other seat speaks for voices.
	Sleeper = 0
	// Voices is the number of voices, whatever the number of players.
	Voices = 6
	// MinutesPerCard is the sleep each card left in the deck is worth.
	MinutesPerCard = 10
	// PileSize is the deck the sleeper draws from once the voices have
	// their cards: 52 - 6 = 46.
	PileSize = 52 - Voices
)

func (gameImpl) Info() game.Info {
	return game.Info{
		ID:         "insomnia",
		Name:       "Insomnia",
		Summary:    "Six voices with secret cards keep a sleeper awake; the sleeper quiets each by showing it the card of the same number and colour, and every card left over buys ten minutes of rest.",
		MinPlayers: 4,
		MaxPlayers: 7,
		Roles:      []string{"sleeper", "voices"},
		ScoreText:  "minutes of sleep (the sleeper's; 10 for each card left)",
		Options: []game.Option{
			{Name: OptAces, Label: "Aces rank", Default: AcesLow, Values: []string{AcesLow, AcesHigh},
				ValueText: map[string]string{AcesLow: "Low, below the 2", AcesHigh: "High, above the king"},
				Text:      "Where an ace stands when a voice says higher or lower: \"low\" (below the 2) or \"high\" (above the king)."},
			{Name: OptNotes, Label: "The voices' past answers", Default: NotesYes, Values: []string{NotesYes, NotesNo},
				ValueText: map[string]string{NotesYes: "Listed on every screen", NotesNo: "Not kept: memory only"},
				Text:      "Whether the screens keep the voices' past answers: \"yes\" lists them for everyone; \"no\" leaves them to the sleeper's memory, as the rulebook expects."},
			{Name: OptShown, Label: "Who sees the cards shown", Default: ShownPrivate, Values: []string{ShownPrivate, ShownPublic},
				ValueText: map[string]string{ShownPrivate: "Sleeper and that voice", ShownPublic: "Everyone"},
				Text:      "Who sees the card the sleeper shows, and a silenced voice's card: \"private\", only the sleeper and the voice's player (the others hear the answer), as the rulebook has it; \"public\", everyone, as if each shown card were laid face up."},
		},
		// The referee follows the voices' talk: pauses and shouts.
		Page:   page,
		Hears:  game.Hearing{Voices: true, WithoutMic: "the voices' pauses and shouts are not timed, so the table watches them itself"},
		Spoken: map[string]string{"silenced": game.SayAll, "alarm": game.SayClause, "asleep": game.SayAll},
		Sounds: map[string]string{"alarm": game.SoundAlarm},
	}
}

// Bot is the game's own player (see bot.go).
func (gameImpl) Bot() game.Bot { return bot{} }

func (g gameImpl) New(cfg game.Config) (game.State, error) {
	_, opts, err := g.Info().Resolve(cfg)
	if err != nil {
		return nil, err
	}
	r := game.NewRand(cfg.Seed)
	cards := deck.New(0)
	deck.Shuffle(&r, cards)
	return g.arranged(cfg.Players, opts, r, cards)
}

// arranged sets up a match from a chosen order of the 52 cards: the first
// six go to voices 1 to 6, the rest are the sleeper's deck, top first.
// New calls it after shuffling; the tests call it to stage situations.
func (g gameImpl) arranged(players int, opts map[string]string, r game.Rand, cards []deck.Card) (*state, error) {
	if err := g.Info().CheckPlayers(players); err != nil {
		return nil, err
	}
	if len(cards) != 52 {
		return nil, fmt.Errorf("insomnia needs all 52 cards, not %d", len(cards))
	}
	var seen uint64
	for _, c := range cards {
		if c.IsJoker() || c.Rank < deck.Ace || c.Rank > deck.King || c.Suit > deck.Spades {
			return nil, fmt.Errorf("insomnia has no card %s", c)
		}
		if seen&bit(c) != 0 {
			return nil, fmt.Errorf("card %s twice", c)
		}
		seen |= bit(c)
	}
	s := &state{
		g:       g,
		rng:     r,
		players: players,
		aceHigh: opts[OptAces] == AcesHigh,
		notes:   opts[OptNotes] != NotesNo,
		public:  opts[OptShown] == ShownPublic,
		asked:   -1,
	}
	for v := 0; v < Voices; v++ {
		vc := &s.voices[v]
		vc.seat, vc.hand = seatOf(players, v)
		vc.card = cards[v]
		s.known[v] = all52
	}
	copy(s.pile[:], cards[Voices:])
	s.draw()
	return s, nil
}

// Card masks: bit suit*13 + rank-1 stands for a card.
const all52 = uint64(1)<<52 - 1

func index(c deck.Card) int { return int(c.Suit)*13 + int(c.Rank) - 1 }

func bit(c deck.Card) uint64 { return 1 << uint(index(c)) }

// twin is the other card of the same number and colour: the only card that
// can silence a voice holding c.
func twin(c deck.Card) deck.Card {
	t := c
	switch c.Suit {
	case deck.Clubs:
		t.Suit = deck.Spades
	case deck.Spades:
		t.Suit = deck.Clubs
	case deck.Diamonds:
		t.Suit = deck.Hearts
	case deck.Hearts:
		t.Suit = deck.Diamonds
	}
	return t
}

// matches reports whether a shown card silences a voice's card: the same
// number and the same colour.
func matches(shown, voice deck.Card) bool {
	return shown.Rank == voice.Rank && shown.Red() == voice.Red()
}

var (
	redMask   uint64
	blackMask uint64
	// above[h][v] and below[h][v]: the cards whose value is above or below
	// v, with aces low (h 0) or high (h 1).
	above, below [2][15]uint64
	rankMask     [14]uint64
)

func init() {
	for _, c := range deck.New(0) {
		if c.Red() {
			redMask |= bit(c)
		} else {
			blackMask |= bit(c)
		}
		rankMask[c.Rank] |= bit(c)
		for h := 0; h < 2; h++ {
			cv := value(c, h == 1)
			for v := 1; v <= 14; v++ {
				if cv > v {
					above[h][v] |= bit(c)
				}
				if cv < v {
					below[h][v] |= bit(c)
				}
			}
		}
	}
}

func value(c deck.Card, aceHigh bool) int {
	if aceHigh && c.Rank == deck.Ace {
		return 14
	}
	return int(c.Rank)
}

func count(m uint64) int { return bits.OnesCount64(m) }
