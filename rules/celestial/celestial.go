package celestial

import (
	"fmt"
	"math/bits"
	"slices"

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
			{Name: OptClans, Label: "Dealing the clans", Default: ClansSeats, Values: []string{ClansSeats, ClansRandom},
				ValueText: map[string]string{ClansSeats: "By seat order", ClansRandom: "Drawn at random"},
				Text:      "Which clan each seat fights for: \"seats\" gives the first seat the Dragon (diamonds), the second the Phoenix (hearts), the third the White Tiger (spades) and the fourth the Tortoise (clubs); \"random\" draws a different clan for each seat from all four."},
			clanOption(1), clanOption(2), clanOption(3), clanOption(4),
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

// ClanDealt is a seat's clan option when the players leave it to the deal
// (the clans option: by seat order or at random).
const ClanDealt = "deal"

// clanOption is seat's clan as the players choose it at the table (seat
// counts from 1, as the lobby shows the order of play).
func clanOption(seat int) game.Option {
	o := game.Option{Name: fmt.Sprintf("clan-%d", seat), Label: fmt.Sprintf("Clan of the %s player", ordinals[seat-1]), Default: ClanDealt,
		Values:    []string{ClanDealt, clanIDs[dragon], clanIDs[phoenix], clanIDs[tiger], clanIDs[tortoise]},
		ValueText: map[string]string{ClanDealt: "Dealt", clanIDs[dragon]: "Dragon (diamonds)", clanIDs[phoenix]: "Phoenix (hearts)", clanIDs[tiger]: "White Tiger (spades)", clanIDs[tortoise]: "Tortoise (clubs)"},
		Text:      fmt.Sprintf("The %s player in the order of play may choose a clan at the table (each clan fights once), or be dealt one of those left.", ordinals[seat-1])}
	if seat > 2 {
		o.MinPlayers = seat
	}
	return o
}

var ordinals = [4]string{"first", "second", "third", "fourth"}

// dealClans gives each seat its clan: the one its player chose at the
// table, else one of those left, in clan order or at random (the clans
// option). Two seats may not choose one clan.
func dealClans(players int, opts map[string]string, rng *game.Rand) ([4]int, error) {
	var clans [4]int
	chosen := [4]int{-1, -1, -1, -1}
	some := false
	for seat := 0; seat < players; seat++ {
		want := opts[fmt.Sprintf("clan-%d", seat+1)]
		if want == "" || want == ClanDealt {
			continue
		}
		c := slices.Index(clanIDs[:], want)
		if o := slices.Index(chosen[:], c); o >= 0 {
			return clans, fmt.Errorf("the %s and the %s player both chose the %s clan: each clan fights once", ordinals[o], ordinals[seat], clanNames[c])
		}
		chosen[seat], some = c, true
	}
	for i := range clans {
		clans[i] = i
	}
	if !some { // as before the choice: the same seed deals the same clans
		if opts[OptClans] == ClansRandom {
			game.ShuffleSlice(rng, clans[:])
		}
		return clans, nil
	}
	var left []int
	for c := range clanIDs {
		if !slices.Contains(chosen[:], c) {
			left = append(left, c)
		}
	}
	if opts[OptClans] == ClansRandom {
		game.ShuffleSlice(rng, left)
	}
	for seat := range clans {
		if chosen[seat] >= 0 {
			clans[seat] = chosen[seat]
		} else {
			clans[seat], left = left[0], left[1:]
		}
	}
	return clans, nil
}

// New sets up a match: each seat takes the thirteen cards of its clan's suit.
func (g gameImpl) New(cfg game.Config) (game.State, error) {
	_, opts, err := g.Info().Resolve(cfg)
	if err != nil {
		return nil, err
	}
	s := &state{g: g, n: cfg.Players, rng: game.NewRand(cfg.Seed), below: opts[OptQualify] == QualifyBelow}
	clans, err := dealClans(cfg.Players, opts, &s.rng)
	if err != nil {
		return nil, err
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
