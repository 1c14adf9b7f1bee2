package louseflea

import (
	"fmt"
	"maps"
	"slices"

	"github.com/tableref/tableref/rules/game"
)

// Card kinds. The six object kinds share their numbers with the identities
// they name, in story order.
const (
	door = iota
	broom
	cart
	ash
	tree
	girl
	louse
	flea
	spring
	nKinds
)

const (
	nIdent      = 6  // identities, in story order
	maxSeats    = 6  // players
	fullHand    = 4  // the hand limit without bugs
	perIdentity = 10 // object cards per identity
	nSprings    = 3
)

var kindNames = [nKinds]string{"door", "broom", "cart", "ash", "tree", "girl", "louse", "flea", "spring"}

// Option names and values.
const (
	OptSmallTable    = "small-table"
	SmallTableDeal   = "deal"
	SmallTableRemove = "remove"

	OptDeckOut       = "deck-out"
	DeckOutReshuffle = "reshuffle"
	DeckOutEnd       = "end"

	OptStand    = "stand"
	StandMust   = "must"
	StandChoice = "choice"

	OptStartSpecials     = "start-specials"
	StartSpecialsDiscard = "discard"
	StartSpecialsShuffle = "shuffle"
)

// Game is The Louse and the Flea.
var Game game.Game = gameImpl{}

type gameImpl struct{}

var info = game.Info{
	ID:         "louseflea",
	Name:       "The Louse and the Flea",
	Summary:    "Each player is a thing from the Grimm tale; a card naming you makes you sit unless you answer with your own card or the next one in the story. Last one standing wins.",
	MinPlayers: 3,
	MaxPlayers: 6,
	Options: []game.Option{
		{
			Name:  OptSmallTable,
			Label: "With fewer than six players",
			Text: "With fewer than six players: deal (all six identity cards go round the table in story order, so some players are two things at once) " +
				"or remove (only as many identities as players are used, and the other identities' object cards leave the deck; long games at 3 or 4 players).",
			Default: SmallTableDeal,
			Values:  []string{SmallTableDeal, SmallTableRemove},
			ValueText: map[string]string{
				SmallTableDeal:   "Deal all six identities",
				SmallTableRemove: "One each (4 or 5 players)",
			},
			MaxPlayers: 5,
		},
		{
			Name:    OptDeckOut,
			Label:   "When the draw pile runs out",
			Text:    "When a card must be drawn from an empty draw pile: reshuffle (the discard pile is shuffled into a new draw pile) or end (the game ends and everyone still standing shares the win).",
			Default: DeckOutReshuffle,
			Values:  []string{DeckOutReshuffle, DeckOutEnd},
			ValueText: map[string]string{
				DeckOutReshuffle: "Reshuffle the discards",
				DeckOutEnd:       "End the game",
			},
		},
		{
			Name:    OptStand,
			Label:   "Holding a card that answers",
			Text:    "A player whose card was played and who holds their own card or the next one: must (has to play one and stay standing) or choice (may sit down on purpose and play any other card).",
			Default: StandMust,
			Values:  []string{StandMust, StandChoice},
			ValueText: map[string]string{
				StandMust:   "Must play it and stand",
				StandChoice: "May sit down instead",
			},
		},
		{
			Name:    OptStartSpecials,
			Label:   "Specials turned up at the start",
			Text:    "Louse, flea and spring cards turned up while looking for the start card: discard (they go on the discard pile) or shuffle (they are shuffled back into the draw pile).",
			Default: StartSpecialsDiscard,
			Values:  []string{StartSpecialsDiscard, StartSpecialsShuffle},
			ValueText: map[string]string{
				StartSpecialsDiscard: "Discard them",
				StartSpecialsShuffle: "Shuffle them back in",
			},
		},
	},
	// Who is called on (to answer or sit down), and a play only when its
	// player sits down.
	Page:   page,
	Spoken: map[string]string{"called": game.SayClause, "win": game.SayAll, "play": game.SaySitsDown},
	Sounds: map[string]string{"turn": game.SoundChime},
}

func (gameImpl) Info() game.Info {
	i := info
	i.Options = slices.Clone(info.Options)
	for k := range i.Options {
		i.Options[k] = info.Options[k].Clone()
	}
	i.Spoken = maps.Clone(info.Spoken)
	i.Sounds = maps.Clone(info.Sounds)
	return i
}

func (gameImpl) Bot() game.Bot { return bot }

type opts struct {
	remove      bool // fewer than six players: unused identities leave the game
	endOnEmpty  bool // an empty draw pile ends the game
	choice      bool // a called player may sit on purpose
	shuffleBack bool // specials turned up at the start go back into the draw pile
}

const (
	phasePlay uint8 = iota
	phaseDiscard
	phaseOver
)

// state is one match. Hands are counts per kind: cards of a kind are alike.
type state struct {
	rng game.Rand
	o   opts
	n   int // players
	ids int // identities in use

	owner    [nIdent]int8            // seat of each identity, -1 when unused
	hand     [maxSeats][nKinds]uint8 // cards in hand, per kind
	limit    [maxSeats]uint8         // hand limit: 4 less one per bug in front
	standing [maxSeats]bool

	bug      [2]int8  // seat with the louse, the flea in front of them; -1 when in a pile
	bugSince [2]int32 // the first full turn the bug spends in front of its holder

	draw    []uint8 // the draw pile, top last
	discard []uint8 // the discard pile, top last

	turnNo     int32 // turns so far; the first is 1
	called     int8  // identity whose turn it is
	threatened bool  // the called identity's card was played on it: stand or sit
	last       int8  // last object card played (or turned up), -1 before any

	phase       uint8
	discarder   int8  // seat that must discard in phaseDiscard
	refill      int8  // seat still to be refilled once the discard is made, or -1
	refillSince int32 // bugSince for a bug drawn in that refill
	owed        int8  // seat owing a discard for an attached bug, or -1
	bare        int8  // seat given a bug with no card in hand, to draw before it plays, or -1
	dealt       int8  // seats dealt so far during the set-up
	started     bool  // the start card is turned up

	winners []int
	endText string
}

func (gameImpl) New(cfg game.Config) (game.State, error) {
	_, o, err := info.Resolve(cfg)
	if err != nil {
		return nil, err
	}
	if o[OptSmallTable] == SmallTableRemove && cfg.Players < 4 {
		return nil, fmt.Errorf("%s: the %s=%s option needs 4 or more players; with 3, nearly every card keeps its player standing and the game hardly ends (use %s=%s)",
			info.Name, OptSmallTable, SmallTableRemove, OptSmallTable, SmallTableDeal)
	}
	s := newState(cfg.Players, opts{
		remove:      o[OptSmallTable] == SmallTableRemove,
		endOnEmpty:  o[OptDeckOut] == DeckOutEnd,
		choice:      o[OptStand] == StandChoice,
		shuffleBack: o[OptStartSpecials] == StartSpecialsShuffle,
	}, cfg.Seed)
	s.draw = append(s.draw, fullDeck(s.ids)...)
	game.ShuffleSlice(&s.rng, s.draw)
	s.advance(nil)
	return s, nil
}

// newState sets up seats and identities, with empty piles and hands.
func newState(players int, o opts, seed uint64) *state {
	s := &state{rng: game.NewRand(seed), o: o, n: players, ids: nIdent,
		bug: [2]int8{-1, -1}, turnNo: 1, last: -1, refill: -1, owed: -1, bare: -1, discarder: -1}
	if o.remove {
		s.ids = players
	}
	for i := range s.owner {
		s.owner[i] = -1
		if i < s.ids {
			s.owner[i] = int8(i % players)
		}
	}
	for p := 0; p < players; p++ {
		s.limit[p] = fullHand
		s.standing[p] = true
	}
	s.draw = make([]uint8, 0, perIdentity*nIdent+5)
	s.discard = make([]uint8, 0, perIdentity*nIdent+5)
	return s
}

// fullDeck lists every card of a game with ids identities, in kind order.
func fullDeck(ids int) []uint8 {
	var d []uint8
	for k := 0; k < ids; k++ {
		for i := 0; i < perIdentity; i++ {
			d = append(d, uint8(k))
		}
	}
	d = append(d, louse, flea)
	for i := 0; i < nSprings; i++ {
		d = append(d, spring)
	}
	return d
}

func (s *state) next(id int) int { return (id + 1) % s.ids }

func (s *state) count(seat int) int {
	n := 0
	for _, c := range s.hand[seat] {
		n += int(c)
	}
	return n
}

func (s *state) standingCount() int {
	n := 0
	for p := 0; p < s.n; p++ {
		if s.standing[p] {
			n++
		}
	}
	return n
}

// parseKind reads a card name in any case.
func parseKind(w string) int {
	for k, name := range kindNames {
		if len(w) == len(name) && (w == name || equalFold(w, name)) {
			return k
		}
	}
	return -1
}

func equalFold(a, b string) bool {
	for i := 0; i < len(a); i++ {
		c := a[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != b[i] {
			return false
		}
	}
	return true
}

func (s *state) Clone() game.State {
	c := *s
	c.draw = slices.Clone(s.draw)
	c.discard = slices.Clone(s.discard)
	c.winners = slices.Clone(s.winners)
	return &c
}

func (s *state) Over() bool { return s.phase == phaseOver }

func (s *state) Turn() []int {
	switch s.phase {
	case phasePlay:
		return []int{int(s.owner[s.called])}
	case phaseDiscard:
		return []int{int(s.discarder)}
	}
	return nil
}

func (s *state) Result() game.Result {
	if s.phase != phaseOver {
		return game.Result{Text: "The game is still going."}
	}
	return game.Result{Winners: slices.Clone(s.winners), Text: s.endText}
}

// Audit checks that every card is in exactly one place and that counts and
// turn markers make sense.
func (s *state) Audit() error {
	if s.n < info.MinPlayers || s.n > info.MaxPlayers {
		return fmt.Errorf("%d players", s.n)
	}
	var seen [nKinds]int
	for _, k := range s.draw {
		if k >= nKinds {
			return fmt.Errorf("draw pile holds card kind %d", k)
		}
		seen[k]++
	}
	for _, k := range s.discard {
		if k >= nKinds {
			return fmt.Errorf("discard pile holds card kind %d", k)
		}
		seen[k]++
	}
	for p := 0; p < maxSeats; p++ {
		if p >= s.n {
			if s.hand[p] != [nKinds]uint8{} || s.standing[p] {
				return fmt.Errorf("empty seat %d has cards or stands", p)
			}
			continue
		}
		if s.hand[p][louse] != 0 || s.hand[p][flea] != 0 {
			return fmt.Errorf("seat %d holds a bug in hand", p)
		}
		for k, c := range s.hand[p] {
			seen[k] += int(c)
		}
		bugs := 0
		for b := range s.bug {
			if int(s.bug[b]) == p {
				bugs++
			}
		}
		if int(s.limit[p]) != fullHand-bugs {
			return fmt.Errorf("seat %d has hand limit %d with %d bugs in front", p, s.limit[p], bugs)
		}
		extra := 0
		if s.phase == phaseDiscard && int(s.discarder) == p || int(s.owed) == p {
			extra = 1 // a bug just arrived: the discard is due
		}
		if c := s.count(p); c > int(s.limit[p])+extra && s.phase != phaseOver {
			return fmt.Errorf("seat %d holds %d cards over a limit of %d", p, c, s.limit[p])
		}
	}
	for b, h := range s.bug {
		switch {
		case h >= 0 && int(h) < s.n:
			seen[louse+b]++
		case h != -1:
			return fmt.Errorf("%s held by seat %d", kindNames[louse+b], h)
		}
	}
	for k := 0; k < nKinds; k++ {
		want := 0
		switch {
		case k < s.ids:
			want = perIdentity
		case k == louse, k == flea:
			want = 1
		case k == spring:
			want = nSprings
		}
		if seen[k] != want {
			return fmt.Errorf("%d %s cards in play, want %d", seen[k], kindNames[k], want)
		}
	}
	for id := 0; id < nIdent; id++ {
		if (id < s.ids) != (s.owner[id] >= 0) || int(s.owner[id]) >= s.n {
			return fmt.Errorf("identity %s has owner %d", kindNames[id], s.owner[id])
		}
	}
	switch s.phase {
	case phasePlay, phaseDiscard:
		if s.standingCount() < 2 {
			return fmt.Errorf("game goes on with %d standing", s.standingCount())
		}
		if s.phase == phasePlay && (!s.started || int(s.called) >= s.ids || s.called < 0) {
			return fmt.Errorf("play with called identity %d (started %v)", s.called, s.started)
		}
		if s.phase == phaseDiscard && (s.discarder < 0 || int(s.discarder) >= s.n || s.count(int(s.discarder)) == 0) {
			return fmt.Errorf("seat %d must discard from an empty hand", s.discarder)
		}
	case phaseOver:
		if len(s.winners) == 0 || s.endText == "" {
			return fmt.Errorf("over without winners or text")
		}
	default:
		return fmt.Errorf("phase %d", s.phase)
	}
	return nil
}
