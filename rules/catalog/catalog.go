// Package catalog lists the games tableref referees, by id.
package catalog

import (
	"fmt"
	"strings"

	"github.com/tableref/tableref/rules/celestial"
	"github.com/tableref/tableref/rules/dealer"
	"github.com/tableref/tableref/rules/game"
	"github.com/tableref/tableref/rules/insomnia"
	"github.com/tableref/tableref/rules/louseflea"
	"github.com/tableref/tableref/rules/minefield"
	"github.com/tableref/tableref/rules/pursesnatcher"
	"github.com/tableref/tableref/rules/troll"
	"github.com/tableref/tableref/rules/woodlouse"
)

var games = []game.Game{
	woodlouse.Game,
	louseflea.Game,
	troll.Game,
	celestial.Game,
	pursesnatcher.Game,
	insomnia.Game,
	minefield.Game,
}

// tools are not games but serve any game: the dealer ("deck").
var tools = []game.Game{dealer.Game}

// Tools returns the dealer and any other helper that serves like a game.
func Tools() []game.Game { return append([]game.Game(nil), tools...) }

// All returns every game, in catalogue order.
func All() []game.Game { return append([]game.Game(nil), games...) }

// IDs lists the game ids, in catalogue order.
func IDs() []string {
	ids := make([]string, len(games))
	for i, g := range games {
		ids[i] = g.Info().ID
	}
	return ids
}

// Get finds a game by id (any case); the dealer ("deck") too.
func Get(id string) (game.Game, error) {
	for _, g := range append(All(), tools...) {
		if strings.EqualFold(g.Info().ID, strings.TrimSpace(id)) {
			return g, nil
		}
	}
	return nil, fmt.Errorf("no game %q (the games are %s; and deck, the dealer)", id, strings.Join(IDs(), ", "))
}
