package celestial

import (
	"math/bits"

	"github.com/tableref/tableref/rules/deck"
	"github.com/tableref/tableref/rules/game"
)

// Game is Warriors of the Celestial Emperor in the catalogue.
var Game game.Game = gameImpl{}

// gameImpl is the game. Its flags exist only for the package's own tests,
// which switch them on to prove that the secrecy check notices a leak.
type gameImpl struct {
	leakHands bool // every view shows every hand
	leakPicks bool // every view shows every card laid face down
}

// Option names and values.
const (
	OptClans      = "clans"
	ClansSeats    = "seats"
	ClansRandom   = "random"
	OptQualify    = "qualify"
	QualifyAtMost = "at-most"
	QualifyBelow  = "below"
)

func (gameImpl) Info() game.Info {
	return game.Info{
		ID:         "celestial",
		Name:       "Warriors of the Celestial Emperor",
		Summary:    "Rival martial clans, one suit each, trade blows with cards laid face down; the highest last card covered by its owner's tricks wins.",
		MinPlayers: 2,
		ScoreText:  "tricks taken",
		MaxPlayers: 4,
		Options: []game.Option{
			{Name: OptClans, Label: "Each seat's clan", Default: ClansSeats, Values: []string{ClansSeats, ClansRandom},
				ValueText: map[string]string{ClansSeats: "By seat order", ClansRandom: "Drawn at random"},
				Text:      "Which clan each seat fights for: \"seats\" gives the first seat the Dragon (diamonds), the second the Phoenix (hearts), the third the White Tiger (spades) and the fourth the Tortoise (clubs); \"random\" draws a different clan for each seat from all four."},
			{Name: OptQualify, Label: "A final card is covered when it is", Default: QualifyAtMost, Values: []string{QualifyAtMost, QualifyBelow},
				ValueText: map[string]string{QualifyAtMost: "At most the tricks taken", QualifyBelow: "Below the tricks taken"},
				Text:      "When a final card counts as covered by its tricks: \"at-most\" when its value is no more than the tricks taken (as the rulebook says twice); \"below\" only when it is strictly less (as it says once)."},
		},
		// Who attacks whom, who leaves the fight, who wins.
		Page:   page,
		Spoken: map[string]string{"attack": game.SayClause, "out": game.SayAll, "battle-over": game.SayClause, "champion": game.SayClause},
		Sounds: map[string]string{"turn": game.SoundChime, "attack": game.SoundChime},
	}
}

// The clans, in the order of the attack cycle.
const (
	dragon = iota
	phoenix
	tiger
	tortoise
)

var clanNames = [4]string{"Dragon", "Phoenix", "White Tiger", "Tortoise"}

var clanIDs = [4]string{"dragon", "phoenix", "tiger", "tortoise"}

var clanSuits = [4]deck.Suit{deck.Diamonds, deck.Hearts, deck.Spades, deck.Clubs}

// cards are numbered 0..51: suit (deck order) * 13 + rank - 1.

func cardOf(i int) deck.Card { return deck.Card{Rank: deck.Rank(i%13 + 1), Suit: deck.Suit(i / 13)} }

func indexOf(c deck.Card) int { return int(c.Suit)*13 + int(c.Rank) - 1 }

func rankOf(i int) int { return i%13 + 1 }

var cardNames [52]string

var cardByName map[string]int

func init() {
	cardByName = make(map[string]int, 52)
	for i := range cardNames {
		cardNames[i] = cardOf(i).String()
		cardByName[cardNames[i]] = i
	}
}

// parseCard reads a card name; ok is false when it names no card of the
// standard deck.
func parseCard(s string) (int, bool) {
	if i, ok := cardByName[s]; ok {
		return i, true
	}
	c, err := deck.Parse(s)
	if err != nil || c.IsJoker() {
		return 0, false
	}
	return indexOf(c), true
}

func suitMask(s deck.Suit) uint64 { return uint64(1<<13-1) << (13 * uint(s)) }

func count(m uint64) int { return bits.OnesCount64(m) }

// New sets up a match: each seat takes the thirteen cards of its clan's suit.
func (g gameImpl) New(cfg game.Config) (game.State, error) {
	_, opts, err := g.Info().Resolve(cfg)
	if err != nil {
		return nil, err
	}
	s := &state{g: g, n: cfg.Players, rng: game.NewRand(cfg.Seed), below: opts[OptQualify] == QualifyBelow}
	var clans [4]int
	for i := range clans {
		clans[i] = i
	}
	if opts[OptClans] == ClansRandom {
		game.ShuffleSlice(&s.rng, clans[:])
	}
	for seat := 0; seat < s.n; seat++ {
		s.clan[seat] = int8(clans[seat])
		s.hand[seat] = suitMask(clanSuits[clans[seat]])
	}
	k := 0
	for c := dragon; c <= tortoise; c++ {
		for seat := 0; seat < s.n; seat++ {
			if int(s.clan[seat]) == c {
				s.order[k] = int8(seat)
				k++
			}
		}
	}
	s.pick = [2]int8{-1, -1}
	s.drop = [2]int8{-1, -1}
	s.last = fight{attacker: -1}
	s.winner = -1
	s.keeper = -1
	s.startTurn(0)
	return s, nil
}

// Bot is the game's own player (see bot.go).
func (gameImpl) Bot() game.Bot { return bot{} }
