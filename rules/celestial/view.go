package celestial

import (
	"github.com/tableref/tableref/rules/deck"
	"github.com/tableref/tableref/rules/game"
)

// View is what one seat (or the table) may know of the battle.
type View struct {
	Seat      int          `json:"seat"`       // the viewer, -1 for the table
	Phase     string       `json:"phase"`      // attack, play, discard, keep or over
	Players   []PlayerView `json:"players"`    // by seat
	Order     []int        `json:"order"`      // seats in the order of the attack cycle
	SettingBy int          `json:"setting_by"` // the seat who describes where the fight takes place
	Attacker  int          `json:"attacker"`   // -1 when nobody is attacking
	Defender  int          `json:"defender"`   // -1 until a target is named
	Keeper    int          `json:"keeper"`     // the seat discarding down at the end, or -1
	LastFight *FightView   `json:"last_fight,omitempty"`
	Tied      []deck.Card  `json:"tied"`    // cards discarded face up after ties
	Battles   int          `json:"battles"` // exchanges fought so far
	// The viewer's own secrets (absent for the table).
	Hand    []deck.Card `json:"hand,omitempty"`    // by rank, ace first
	Pick    *deck.Card  `json:"pick,omitempty"`    // the card the viewer laid face down
	Discard *deck.Card  `json:"discard,omitempty"` // the card the viewer discarded, before the trick is taken
	// Once over.
	Winners []int  `json:"winners,omitempty"`
	Result  string `json:"result,omitempty"`
}

// PlayerView is what everyone knows of one seat.
type PlayerView struct {
	Seat      int    `json:"seat"`
	Clan      string `json:"clan"` // dragon, phoenix, tiger, tortoise
	ClanName  string `json:"clan_name"`
	Suit      string `json:"suit"`
	Cards     int    `json:"cards"`     // in hand, not counting one laid face down
	Tricks    int    `json:"tricks"`    // tricks taken
	Out       bool   `json:"out"`       // down to one card
	Picked    bool   `json:"picked"`    // has laid a card face down in this fight
	Discarded bool   `json:"discarded"` // has discarded after this exchange
	// Final is the last card, turned over at the end.
	Final *deck.Card `json:"final,omitempty"`
	// Leak is set only by a deliberately broken engine in the package's
	// tests, to prove that the secrecy check notices.
	Leak []deck.Card `json:"leak,omitempty"`
}

// FightView is the last exchange turned over.
type FightView struct {
	Attacker     int       `json:"attacker"`
	Defender     int       `json:"defender"`
	AttackerCard deck.Card `json:"attacker_card"`
	DefenderCard deck.Card `json:"defender_card"`
	Winner       int       `json:"winner"` // -1: a tie, both cards discarded
}

// handCards lists the cards of m by rank, ace first, then by suit.
func handCards(m uint64) []deck.Card {
	cs := make([]deck.Card, 0, count(m))
	for r := 0; r < 13; r++ {
		for su := 0; su < 4; su++ {
			if i := su*13 + r; m&(1<<uint(i)) != 0 {
				cs = append(cs, cardOf(i))
			}
		}
	}
	return cs
}

func cardPtr(i int8) *deck.Card {
	if i < 0 {
		return nil
	}
	c := cardOf(int(i))
	return &c
}

func (s *state) View(seat int) any {
	seat = game.ViewSeat(seat, s.n)
	v := View{Seat: seat, Phase: phaseNames[s.phase], Attacker: int(s.attacker), Defender: int(s.defender),
		Keeper: int(s.keeper), Tied: handCards(s.discards), Battles: s.battles, SettingBy: -1}
	if seat < 0 || seat >= s.n {
		v.Seat = game.Table
	}
	best := -1
	for p := 0; p < s.n; p++ {
		if int(s.clan[p]) > best && s.clan[p] != dragon {
			best, v.SettingBy = int(s.clan[p]), p
		}
		side := s.side(p)
		pv := PlayerView{Seat: p, Clan: clanIDs[s.clan[p]], ClanName: clanNames[s.clan[p]], Suit: clanSuits[s.clan[p]].String(),
			Cards: count(s.hand[p]), Tricks: s.tricks(p), Out: s.out[p]}
		if side >= 0 && (s.phase == phasePlay || s.phase == phaseDiscard) {
			pv.Picked = s.pick[side] >= 0
			pv.Discarded = s.drop[side] >= 0
		}
		if s.phase == phaseOver {
			pv.Final = cardPtr(int8(s.finalCard(p)))
		}
		if s.g.leakHands {
			pv.Leak = handCards(s.hand[p])
		}
		if s.g.leakPicks && side >= 0 && s.pick[side] >= 0 {
			pv.Leak = []deck.Card{cardOf(int(s.pick[side]))}
		}
		v.Players = append(v.Players, pv)
		v.Order = append(v.Order, int(s.order[p]))
	}
	if s.last.attacker >= 0 {
		v.LastFight = &FightView{Attacker: int(s.last.attacker), Defender: int(s.last.defender),
			AttackerCard: cardOf(int(s.last.aCard)), DefenderCard: cardOf(int(s.last.dCard)), Winner: int(s.last.winner)}
	}
	if v.Seat != game.Table {
		v.Hand = handCards(s.hand[seat])
		if side := s.side(seat); side >= 0 && (s.phase == phasePlay || s.phase == phaseDiscard) {
			v.Pick = cardPtr(s.pick[side])
			v.Discard = cardPtr(s.drop[side])
		}
	}
	if s.phase == phaseOver {
		v.Winners = []int{int(s.winner)}
		v.Result = s.resultText()
	}
	return v
}
