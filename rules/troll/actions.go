package troll

import (
	"fmt"
	"strings"

	"github.com/tableref/tableref/rules/deck"
	"github.com/tableref/tableref/rules/game"
)

// The troll's actions.
const (
	actMove uint8 = iota
	actStomp
	actPickup
	actClub
	actThrow
	actShovel
	actLay
	actRest
	numActs
)

var actNames = [numActs]string{"move", "stomp", "pickup", "club", "throw", "shovel", "lay", "rest"}

// directed reports whether the action takes a direction.
func directed(k uint8) bool { return k != actStomp && k != actRest }

// The four directions.
const (
	dirUp uint8 = iota
	dirDown
	dirLeft
	dirRight
	numDirs
)

var dirNames = [numDirs]string{"up", "down", "left", "right"}
var dirDR = [numDirs][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}}

// action is one parsed troll action.
type action struct {
	kind uint8
	dir  uint8
}

func (a action) move() game.Move {
	if directed(a.kind) {
		return game.M(0, actNames[a.kind], dirNames[a.dir])
	}
	return game.M(0, actNames[a.kind])
}

// neighbour is the position one step from the troll in direction d, and
// whether it is on the bridge's twelve positions.
func (s *state) neighbour(d uint8) (int, int, bool) {
	r, c := int(s.tr)+dirDR[d][0], int(s.tc)+dirDR[d][1]
	return r, c, r >= 0 && r < rows && c >= 0 && c < cols
}

// handsFree reports whether the troll may pick a brick up.
func (s *state) handsFree() bool { return s.holding == holdNone && !s.club && !s.gem }

func (s *state) hasClub() bool {
	return s.club || s.holding == holdAwake && s.carry.Suit == deck.Clubs
}

func (s *state) hasDiamond() bool {
	return s.gem || s.holding == holdAwake && s.carry.Suit == deck.Diamonds
}

func (s *state) hasSpade() bool { return s.holding == holdAwake && s.carry.Suit == deck.Spades }

// throwTarget is the first awake brick from the troll in direction d.
func (s *state) throwTarget(d uint8) (int, int, bool) {
	r, c := int(s.tr), int(s.tc)
	for {
		r, c = r+dirDR[d][0], c+dirDR[d][1]
		if r < 0 || r >= rows || c < 0 || c >= cols {
			return 0, 0, false
		}
		if s.bridge[r][c].awake {
			return r, c, true
		}
	}
}

// fault is why an action is not allowed now; okay if it is.
type fault uint8

const (
	okay fault = iota
	fBusy
	fAsleep
	fOff
	fNoBrick
	fVisited
	fHandsFull
	fNoAwake
	fHeart
	fNoClub
	fNoDiamond
	fNothingToHit
	fNoSpade
	fNoDormant
	fLayOnAwake
)

// check says whether the action is allowed now (cheaply: the bot calls it
// often); explain words the refusal.
func (s *state) check(a action) fault {
	switch a.kind {
	case actRest:
		if s.anyAction() {
			return fBusy
		}
		return okay
	case actStomp:
		if !s.bridge[s.tr][s.tc].awake {
			return fAsleep
		}
		return okay
	}
	r, c, on := s.neighbour(a.dir)
	awake := on && s.bridge[r][c].awake
	switch a.kind {
	case actMove:
		switch {
		case !on:
			return fOff
		case s.bridge[r][c].n == 0:
			return fNoBrick
		case s.visited&bit(r, c) != 0:
			return fVisited
		}
	case actPickup:
		switch {
		case !s.handsFree():
			return fHandsFull
		case !awake:
			return fNoAwake
		case s.bridge[r][c].top().Suit == deck.Hearts:
			return fHeart
		}
	case actClub:
		switch {
		case !s.hasClub():
			return fNoClub
		case !awake:
			return fNoAwake
		}
	case actThrow:
		if !s.hasDiamond() {
			return fNoDiamond
		}
		if _, _, ok := s.throwTarget(a.dir); !ok && s.gem {
			return fNothingToHit
		}
	case actShovel:
		switch {
		case !s.hasSpade():
			return fNoSpade
		case !awake:
			return fNoAwake
		}
	case actLay:
		switch {
		case s.holding != holdDormant:
			return fNoDormant
		case !on:
			return fOff
		case awake:
			return fLayOnAwake
		}
	}
	return okay
}

var verbs = [numActs]string{"step onto", "stomp", "pick up", "club", "hit", "shovel up", "lay on", "rest"}

func (s *state) explain(a action, f fault) string {
	where := dirNames[a.dir]
	r, c, _ := s.neighbour(a.dir)
	switch f {
	case fBusy:
		return "the troll may rest only when it can do nothing else"
	case fAsleep:
		return "the brick under the troll is not awake: there is nothing to stomp"
	case fOff:
		return "there is no bridge position " + where + " of the troll"
	case fNoBrick:
		return fmt.Sprintf("%s has no brick: the troll must always stand on a brick", place(r, c))
	case fVisited:
		return fmt.Sprintf("the troll already stood on %s this turn", place(r, c))
	case fHandsFull:
		return "the troll's hands are full: " + s.holdingText()
	case fNoAwake:
		return "there is no awake brick " + where + " of the troll to " + verbs[a.kind]
	case fHeart:
		return fmt.Sprintf("the %s is a heart, and a troll cannot have a heart", s.bridge[r][c].top().Name())
	case fNoClub:
		return "the troll holds no club"
	case fNoDiamond:
		return "the troll holds no diamond"
	case fNothingToHit:
		return "no awake brick lies " + where + " to hit, and the reusable ace of diamonds is not thrown for nothing"
	case fNoSpade:
		return "the troll holds no spade"
	case fNoDormant:
		return "the troll carries no dormant brick to lay down"
	case fLayOnAwake:
		return fmt.Sprintf("an awake brick is at %s: a brick cannot be laid on it", place(r, c))
	}
	return ""
}

func (s *state) holdingText() string {
	var parts []string
	if s.club {
		parts = append(parts, "THE CLUB")
	}
	if s.gem {
		parts = append(parts, "the reusable ace of diamonds")
	}
	switch s.holding {
	case holdAwake:
		parts = append(parts, "the "+s.carry.Name())
	case holdDormant:
		parts = append(parts, "a dormant brick")
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, " and ")
}

// anyAction reports whether some action other than resting is allowed.
func (s *state) anyAction() bool {
	var buf [32]action
	return len(s.actionsNoRest(buf[:0])) > 0
}

func (s *state) actionsNoRest(buf []action) []action {
	if s.bridge[s.tr][s.tc].awake {
		buf = append(buf, action{kind: actStomp})
	}
	for k := actMove; k < actRest; k++ {
		if k == actStomp {
			continue
		}
		for d := range numDirs {
			a := action{kind: k, dir: d}
			if s.check(a) == okay {
				buf = append(buf, a)
			}
		}
	}
	return buf
}

// actionsNow lists every allowed action, appended to buf.
func (s *state) actionsNow(buf []action) []action {
	if s.over {
		return buf
	}
	n := len(buf)
	buf = s.actionsNoRest(buf)
	if len(buf) == n {
		buf = append(buf, action{kind: actRest})
	}
	return buf
}

func (s *state) Legal(seat int) []game.Move {
	if s.over || seat != 0 {
		return nil
	}
	var buf [32]action
	acts := s.actionsNow(buf[:0])
	moves := make([]game.Move, len(acts))
	for i, a := range acts {
		moves[i] = a.move()
	}
	return moves
}

// parse reads a move into an action, or says why it means nothing.
func parse(m game.Move) (action, error) {
	kind := numActs
	for k, name := range actNames {
		if m.Action == name {
			kind = uint8(k)
		}
	}
	if kind == numActs {
		return action{}, game.Refuse(m, "the troll has no action %q (it has move, stomp, pickup, club, throw, shovel, lay and rest)", m.Action)
	}
	if !directed(kind) {
		if len(m.Args) != 0 {
			return action{}, game.Refuse(m, "%s takes no argument", m.Action)
		}
		return action{kind: kind}, nil
	}
	if len(m.Args) != 1 {
		return action{}, game.Refuse(m, "%s takes one direction: up, down, left or right", m.Action)
	}
	for d, name := range dirNames {
		if strings.EqualFold(m.Args[0], name) {
			return action{kind: kind, dir: uint8(d)}, nil
		}
	}
	return action{}, game.Refuse(m, "%q is not a direction: say up, down, left or right", m.Args[0])
}

func (s *state) Apply(m game.Move) ([]game.Event, error) {
	if s.over {
		return nil, fmt.Errorf("troll: %w", game.ErrOver)
	}
	if m.Seat != 0 {
		return nil, game.RefuseTurn(m, "this is a solitaire: only %s plays", game.Seat(0))
	}
	a, err := parse(m)
	if err != nil {
		return nil, err
	}
	if f := s.check(a); f != okay {
		return nil, game.Refuse(m, "%s", s.explain(a, f))
	}
	var ev []game.Event
	s.act(a, &ev)
	if s.actions == 0 {
		s.finishTurn(&ev)
	}
	return ev, nil
}

// act performs an allowed action and counts it; the turn's end is left to
// the caller.
func (s *state) act(a action, ev *[]game.Event) {
	s.actions--
	r, c, _ := s.neighbour(a.dir)
	switch a.kind {
	case actMove:
		s.tr, s.tc = int8(r), int8(c)
		s.visited |= bit(r, c)
		if ev != nil {
			s.say(ev, "move", "The troll steps %s onto %s.", dirNames[a.dir], place(r, c))
		}
	case actStomp:
		sl := &s.bridge[s.tr][s.tc]
		sl.awake = false
		if ev != nil {
			s.say(ev, "stomp", "The troll stomps the %s flat: it sleeps again.", sl.top().Name())
		}
	case actPickup:
		card := s.bridge[r][c].pop()
		s.take(card)
		if ev != nil {
			s.say(ev, "pickup", "The troll picks up the awake %s from %s%s.", card.Name(), place(r, c), toyNote(s, card))
		}
	case actClub:
		sl := &s.bridge[r][c]
		sl.awake = false
		if s.club {
			if ev != nil {
				s.say(ev, "club", "The troll swings THE CLUB: the %s at %s is beaten back to sleep.", sl.top().Name(), place(r, c))
			}
		} else {
			used := s.useCarry()
			if ev != nil {
				s.say(ev, "club", "The troll clubs the %s at %s back to sleep with the %s, which is set aside.", sl.top().Name(), place(r, c), used.Name())
			}
		}
	case actThrow:
		tr, tcol, hit := s.throwTarget(a.dir)
		name := "the reusable ace of diamonds, which comes back to its hand"
		if !s.gem {
			name = "the " + s.useCarry().Name() + ", which is set aside"
		}
		if hit {
			sl := &s.bridge[tr][tcol]
			sl.awake = false
			if ev != nil {
				s.say(ev, "throw", "The troll throws %s %s: it knocks the %s at %s back to sleep.", name, dirNames[a.dir], sl.top().Name(), place(tr, tcol))
			}
		} else {
			if ev != nil {
				s.say(ev, "throw", "The troll throws %s %s; it hits nothing and lands in the river.", name, dirNames[a.dir])
			}
		}
	case actShovel:
		spade := s.useCarry()
		card := s.bridge[r][c].pop()
		s.carry, s.holding = card, holdDormant
		if ev != nil {
			s.say(ev, "shovel", "The troll shovels the %s at %s up with the %s (set aside): it now carries it, asleep.", card.Name(), place(r, c), spade.Name())
		}
	case actLay:
		card := s.carry
		s.carry, s.holding = deck.Card{}, holdNone
		s.bridge[r][c].push(card, false)
		if ev != nil {
			s.say(ev, "lay", "The troll lays its sleeping brick down at %s.", place(r, c))
		}
	case actRest:
		if ev != nil {
			s.say(ev, "rest", "The troll can do nothing else, so it glowers and waits.")
		}
	}
}

// useCarry sets the carried card aside after use and returns it.
func (s *state) useCarry() deck.Card {
	c := s.carry
	s.aside.push(c)
	s.carry, s.holding = deck.Card{}, holdNone
	return c
}
