package louseflea

import (
	"encoding/json"
	"fmt"

	"github.com/tableref/tableref/rules/game"
)

// Bot is the game's own bot, for the tests.
var Bot = bot

// Setup describes a table in mid-game, for the rule tests.
type Setup struct {
	Players int
	Options map[string]string
	Hands   [][]string     // per seat
	Draw    []string       // the draw pile, top first; exactly these cards
	Called  string         // identity whose turn it is
	Free    bool           // the turn is free (no need to sit)
	Seated  []int          // seats sitting down
	Bugs    map[string]int // "louse"/"flea" -> seat with it in front
	Arrived map[string]int // bug -> first full turn it spends in front (default 0)
	Turn    int            // turn number (default 10)
	Discard []string       // on the discard pile, bottom first; the rest of the cards go below
}

func kindOf(name string) uint8 {
	k := parseKind(name)
	if k < 0 {
		panic(fmt.Sprintf("no card %q", name))
	}
	return uint8(k)
}

func optsOf(cfg game.Config) (opts, error) {
	_, o, err := info.Resolve(cfg)
	return opts{
		remove:      o[OptSmallTable] == SmallTableRemove,
		endOnEmpty:  o[OptDeckOut] == DeckOutEnd,
		choice:      o[OptStand] == StandChoice,
		shuffleBack: o[OptStartSpecials] == StartSpecialsShuffle,
	}, err
}

// Build sets a table up as described; every card not placed goes on the
// discard pile.
func Build(su Setup) (game.State, error) {
	o, err := optsOf(game.Config{Players: su.Players, Options: su.Options})
	if err != nil {
		return nil, err
	}
	s := newState(su.Players, o, 99)
	var left [nKinds]int
	for _, k := range fullDeck(s.ids) {
		left[k]++
	}
	take := func(name string) (uint8, error) {
		k := kindOf(name)
		if left[k] == 0 {
			return 0, fmt.Errorf("no %s card left to place", name)
		}
		left[k]--
		return k, nil
	}
	for p, h := range su.Hands {
		for _, name := range h {
			k, err := take(name)
			if err != nil {
				return nil, err
			}
			s.hand[p][k]++
		}
	}
	for i := len(su.Draw) - 1; i >= 0; i-- {
		k, err := take(su.Draw[i])
		if err != nil {
			return nil, err
		}
		s.draw = append(s.draw, k)
	}
	for name, p := range su.Bugs {
		k, err := take(name)
		if err != nil {
			return nil, err
		}
		s.bug[k-louse] = int8(p)
		s.bugSince[k-louse] = int32(su.Arrived[name])
		s.limit[p]--
	}
	var top []uint8
	for _, name := range su.Discard {
		k, err := take(name)
		if err != nil {
			return nil, err
		}
		top = append(top, k)
	}
	for k := 0; k < nKinds; k++ {
		for ; left[k] > 0; left[k]-- {
			s.discard = append(s.discard, uint8(k))
		}
	}
	s.discard = append(s.discard, top...)
	for _, p := range su.Seated {
		s.standing[p] = false
	}
	s.turnNo = 10
	if su.Turn > 0 {
		s.turnNo = int32(su.Turn)
	}
	s.called = int8(kindOf(su.Called))
	s.threatened = !su.Free
	s.last = s.called
	s.dealt = int8(s.n)
	s.started = true
	s.phase = phasePlay
	return s, s.Audit()
}

// FromDeck starts a game whose shuffled deck is deck (top first) followed by
// the rest of the cards in kind order.
func FromDeck(cfg game.Config, deck []string) (game.State, error) {
	o, err := optsOf(cfg)
	if err != nil {
		return nil, err
	}
	s := newState(cfg.Players, o, cfg.Seed)
	var left [nKinds]int
	for _, k := range fullDeck(s.ids) {
		left[k]++
	}
	var top []uint8
	for _, name := range deck {
		k := kindOf(name)
		if left[k] == 0 {
			return nil, fmt.Errorf("no %s card left", name)
		}
		left[k]--
		top = append(top, k)
	}
	for k := nKinds - 1; k >= 0; k-- {
		for ; left[k] > 0; left[k]-- {
			s.draw = append(s.draw, uint8(k))
		}
	}
	for i := len(top) - 1; i >= 0; i-- {
		s.draw = append(s.draw, top[i])
	}
	s.advance(nil)
	return s, nil
}

func unwrap(st game.State) *state {
	for {
		switch x := st.(type) {
		case *state:
			return x
		case interface{ Inner() game.State }:
			st = x.Inner()
		default:
			panic(fmt.Sprintf("not a louseflea state: %T", st))
		}
	}
}

// HandJSON is seat's hand as its own view shows it.
func HandJSON(st game.State, seat int) string {
	b, _ := json.Marshal(unwrap(st).handOf(seat))
	return string(b)
}

// DrawPile lists the draw pile, top first.
func DrawPile(st game.State) []string {
	s := unwrap(st)
	var d []string
	for i := len(s.draw) - 1; i >= 0; i-- {
		d = append(d, kindNames[s.draw[i]])
	}
	return d
}

// TopDiscard is the top card of the discard pile.
func TopDiscard(st game.State) string {
	s := unwrap(st)
	return kindNames[s.discard[len(s.discard)-1]]
}

// DiscardPile lists the discard pile, top first.
func DiscardPile(st game.State) []string {
	s := unwrap(st)
	var d []string
	for i := len(s.discard) - 1; i >= 0; i-- {
		d = append(d, kindNames[s.discard[i]])
	}
	return d
}
