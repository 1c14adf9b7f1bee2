package troll

import (
	"github.com/tableref/tableref/rules/deck"
)

// View is what the player (and the table) sees: everything face up, and of
// face-down cards only how many lie where. The deck's order and the sleeping
// bricks' faces are never shown.
type View struct {
	Variant     string   `json:"variant"`
	Layout      []int    `json:"layout"` // bricks per position at the start, left to right
	Turn        int      `json:"turn"`
	Deck        int      `json:"deck"` // cards left in the deck of awakening
	LowerColour string   `json:"lower_colour"`
	UpperColour string   `json:"upper_colour"`
	LowerStack  []string `json:"lower_stack"` // played cards, oldest first
	UpperStack  []string `json:"upper_stack"`
	SetAside    []string `json:"set_aside"` // to be played in the next awakening phase, in order
	// Bridge is the two rows, upper first, positions 1 to 6.
	Bridge      [rows][cols]Brick `json:"bridge"`
	Troll       Spot              `json:"troll"`
	Carrying    string            `json:"carrying,omitempty"` // an awake card held, e.g. "7C"
	CarryAsleep bool              `json:"carrying_dormant,omitempty"`
	TheClub     bool              `json:"the_club,omitempty"`
	Diamond     bool              `json:"reusable_diamond,omitempty"`
	ActionsLeft int               `json:"actions_left"`
	Visited     []Spot            `json:"visited"` // stood on this turn, no stepping back
	LastDie     int               `json:"last_die"`
	Over        bool              `json:"over"`
	Won         bool              `json:"won,omitempty"`
	Perfect     bool              `json:"perfect,omitempty"`
	Score       int               `json:"score"` // cards left in the deck: lower is better
	Outcome     string            `json:"outcome,omitempty"`
}

// Brick is one bridge position: how many bricks lie there and, if the top
// one is awake, which card it is.
type Brick struct {
	Bricks int    `json:"bricks"`
	Awake  string `json:"awake,omitempty"`
}

// Spot is a bridge position: row "upper" or "lower", position 1 to 6.
type Spot struct {
	Row string `json:"row"`
	Pos int    `json:"pos"`
}

func names(cards []deck.Card) []string {
	out := make([]string, len(cards))
	for i, c := range cards {
		out[i] = c.String()
	}
	return out
}

// View is the same for the player and the table: a solitaire has no seat
// secrets, only the hidden cards, which nobody sees.
func (s *state) View(seat int) any {
	v := View{
		Variant:     s.variant,
		Turn:        s.turn,
		Deck:        int(s.deck.n),
		LowerColour: colour(s.lowerRed),
		UpperColour: colour(!s.lowerRed),
		LowerStack:  names(s.lowerPad.cards[:s.lowerPad.n]),
		UpperStack:  names(s.upperPad.cards[:s.upperPad.n]),
		SetAside:    names(s.aside.cards[:s.aside.n]),
		Troll:       Spot{Row: rowName(int(s.tr)), Pos: int(s.tc) + 1},
		TheClub:     s.club,
		Diamond:     s.gem,
		ActionsLeft: int(s.actions),
		LastDie:     int(s.lastDie),
		Over:        s.over,
		Won:         s.won,
		Perfect:     s.perfect,
		Score:       int(s.deck.n),
		Outcome:     s.ending,
	}
	for _, n := range s.layout {
		v.Layout = append(v.Layout, int(n))
	}
	for r := range rows {
		for c := range cols {
			sl := &s.bridge[r][c]
			v.Bridge[r][c].Bricks = int(sl.n)
			if sl.awake {
				v.Bridge[r][c].Awake = sl.top().String()
			}
			if !s.over && s.visited&bit(r, c) != 0 {
				v.Visited = append(v.Visited, Spot{Row: rowName(r), Pos: c + 1})
			}
		}
	}
	switch s.holding {
	case holdAwake:
		v.Carrying = s.carry.String()
	case holdDormant:
		v.CarryAsleep = true
	}
	return v
}
