package louseflea

import "github.com/tableref/tableref/rules/game"

// View is what one seat (or the table) sees.
type View struct {
	Seat    int      `json:"seat"` // game.Table for the shared screen
	Players []Player `json:"players"`
	// Hand is the viewing seat's own hand; absent in the table's view.
	Hand        *Hand  `json:"hand,omitempty"`
	DrawPile    int    `json:"draw_pile"`    // cards left to draw
	DiscardPile int    `json:"discard_pile"` // cards on the discard pile
	LastPlayed  string `json:"last_played,omitempty"`
	Turn        int    `json:"turn"` // turns so far, the first is 1
	// Called is the identity whose turn it is, and ToAct its player (or
	// the player who must discard first, when Discarding).
	Called string `json:"called,omitempty"`
	ToAct  int    `json:"to_act"`
	// Threatened: the called card was played on its player, who must play
	// it or the next one in the story to stand, or else sit. Otherwise the
	// turn is free: nobody sits for it.
	Threatened bool `json:"threatened"`
	Discarding bool `json:"discarding"`
	// Story is the identities in use, in story order.
	Story   []string `json:"story"`
	Over    bool     `json:"over"`
	Winners []int    `json:"winners,omitempty"`
	Result  string   `json:"result,omitempty"`
}

// Player is what everyone may know of a seat.
type Player struct {
	Seat       int      `json:"seat"`
	Identities []string `json:"identities"`
	Standing   bool     `json:"standing"`
	Cards      int      `json:"cards"`      // cards in hand
	HandLimit  int      `json:"hand_limit"` // 4, less one per bug in front
	Louse      bool     `json:"louse,omitempty"`
	Flea       bool     `json:"flea,omitempty"`
	// CanPass lists the bugs in front of the seat that may be attached
	// now (they have stayed a full turn).
	CanPass []string `json:"can_pass,omitempty"`
}

// Hand is one seat's hand, sorted in story order with springs last.
type Hand struct {
	Owner int      `json:"owner"`
	Cards []string `json:"cards"`
}

func (s *state) handOf(seat int) *Hand {
	h := &Hand{Owner: seat, Cards: []string{}}
	for k := 0; k < nKinds; k++ {
		for i := 0; i < int(s.hand[seat][k]); i++ {
			h.Cards = append(h.Cards, kindNames[k])
		}
	}
	return h
}

func (s *state) View(seat int) any {
	seat = game.ViewSeat(seat, s.n)
	v := View{
		Seat:        seat,
		DrawPile:    len(s.draw),
		DiscardPile: len(s.discard),
		Turn:        int(s.turnNo),
		ToAct:       -1,
		Over:        s.phase == phaseOver,
	}
	if seat >= 0 && seat < s.n {
		v.Hand = s.handOf(seat)
	} else {
		v.Seat = game.Table
	}
	if s.last >= 0 {
		v.LastPlayed = kindNames[s.last]
	}
	for id := 0; id < s.ids; id++ {
		v.Story = append(v.Story, kindNames[id])
	}
	switch s.phase {
	case phasePlay:
		v.ToAct = int(s.owner[s.called])
	case phaseDiscard:
		v.ToAct = int(s.discarder)
		v.Discarding = true
	case phaseOver:
		v.Winners = append([]int{}, s.winners...)
		v.Result = s.endText
	}
	if s.started && s.phase != phaseOver {
		v.Called = kindNames[s.called]
		v.Threatened = s.threatened
	}
	for p := 0; p < s.n; p++ {
		pl := Player{Seat: p, Standing: s.standing[p], Cards: s.count(p), HandLimit: int(s.limit[p]),
			Louse: int(s.bug[0]) == p, Flea: int(s.bug[1]) == p, Identities: []string{}}
		for id := 0; id < s.ids; id++ {
			if int(s.owner[id]) == p {
				pl.Identities = append(pl.Identities, kindNames[id])
			}
		}
		for b := 0; b < 2; b++ {
			if s.canAttach(p, b) {
				pl.CanPass = append(pl.CanPass, kindNames[louse+b])
			}
		}
		v.Players = append(v.Players, pl)
	}
	return v
}
