package insomnia

import (
	"github.com/tableref/tableref/rules/deck"
	"github.com/tableref/tableref/rules/game"
)

// View is what one seat (or the table, Seat -1) may see.
type View struct {
	Seat    int    `json:"seat"`
	Sleeper int    `json:"sleeper"`
	Phase   string `json:"phase"` // "show", "answer" or "over"
	// Mine lists the voices (1 to 6) this seat speaks for.
	Mine []int `json:"mine,omitempty"`
	// Card is the sleeper's freshly drawn card, in the sleeper's view only,
	// until it is shown.
	Card *deck.Card `json:"card,omitempty"`
	// Shown is the card being shown to voice Asked, waiting for its answer:
	// in the views of the sleeper and of the voice's player (everyone's
	// with shown=public). Asked is public.
	Shown *deck.Card `json:"shown,omitempty"`
	Asked int        `json:"asked,omitempty"`
	// Deck counts the cards still to draw; Sleep is what they would be
	// worth in minutes if every voice fell silent now.
	Deck   int         `json:"deck"`
	Sleep  int         `json:"sleep_minutes"`
	Silent int         `json:"silent"`
	Voices []VoiceView `json:"voices"`
	// Discards are the cards already shown that this seat saw: all of them
	// for the sleeper (and everyone with shown=public), those shown to its
	// own voices for a voice's player, none for the table. ShownCount
	// counts them all.
	Discards   []deck.Card `json:"discards"`
	ShownCount int         `json:"shown_count"`
}

// VoiceView is one voice as a seat sees it.
type VoiceView struct {
	Voice int    `json:"voice"` // 1 to 6
	Seat  int    `json:"seat"`
	Hand  string `json:"hand,omitempty"` // "left" or "right" when the seat holds two voices
	// Card is shown to the voice's holder, and once silenced to the sleeper
	// (to everyone with shown=public).
	Card   *deck.Card `json:"card,omitempty"`
	Silent bool       `json:"silent"`
	// ColourSaid: the voice has said "not red" or "not black" (shown to
	// everyone with notes, else to its holder only).
	ColourSaid bool `json:"colour_said,omitempty"`
	// Answers are its past answers, when the notes option is on.
	Answers []Answer `json:"answers,omitempty"`
}

// Answer is a card shown to a voice and what it said: "higher", "lower",
// "not-red", "not-black", or "silenced". Shown is left out where the seat
// did not see the card (shown=private: all but the sleeper and the voice's
// player hear only the answer).
type Answer struct {
	Shown *deck.Card `json:"shown,omitempty"`
	Said  string     `json:"said"`
}

var phaseNames = [...]string{"show", "answer", "over"}

var handNames = [...]string{"", "left", "right"}

func (s *state) View(seat int) any {
	seat = game.ViewSeat(seat, s.players)
	v := View{
		Seat:       seat,
		Sleeper:    Sleeper,
		Phase:      phaseNames[s.phase],
		Deck:       PileSize - s.drawn,
		Silent:     s.silent,
		Voices:     make([]VoiceView, Voices),
		Discards:   make([]deck.Card, 0, s.nDiscards),
		ShownCount: s.nDiscards,
	}
	for i := 0; i < s.nDiscards; i++ {
		if s.sees(seat, int(s.clues[i].voice)) || s.g.leak {
			v.Discards = append(v.Discards, s.discards[i])
		}
	}
	v.Sleep = v.Deck * MinutesPerCard
	switch s.phase {
	case phaseShow:
		if seat == Sleeper || s.g.leak {
			c := s.card
			v.Card = &c
		}
	case phaseAnswer:
		if s.sees(seat, s.asked) || s.g.leak {
			c := s.card
			v.Shown = &c
		}
		v.Asked = s.asked + 1
	}
	for i := range s.voices {
		vc := &s.voices[i]
		vv := VoiceView{Voice: i + 1, Seat: vc.seat, Hand: handNames[vc.hand], Silent: vc.silent}
		own := seat == vc.seat
		if own {
			v.Mine = append(v.Mine, i+1)
		}
		if own || vc.silent && s.sees(seat, i) || s.g.leak {
			c := vc.card
			vv.Card = &c
		}
		if own || s.notes {
			vv.ColourSaid = vc.colourSaid
		}
		v.Voices[i] = vv
	}
	if s.notes {
		for i := 0; i < s.nClues; i++ {
			cl := s.clues[i]
			vv := &v.Voices[cl.voice]
			a := Answer{Said: answerNames[cl.answer]}
			if s.sees(seat, int(cl.voice)) {
				c := cl.shown
				a.Shown = &c
			}
			vv.Answers = append(vv.Answers, a)
		}
	}
	if s.g.leak {
		v.Discards = append(v.Discards, s.pile[s.drawn:]...)
	}
	return v
}

var _ game.State = (*state)(nil)
