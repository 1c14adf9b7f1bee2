package troll

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/tableref/tableref/rules/deck"
	"github.com/tableref/tableref/rules/game"
)

// reshuffleHidden deals the face-down cards (the sleeping bricks, the deck,
// a brick carried asleep) out again in another order, each pile keeping its
// size, and draws other dice to come: what the player sees stays the same.
func reshuffleHidden(s *state, seed uint64) *state {
	x := *s
	var cards []deck.Card
	var slots []*deck.Card
	for r := range rows {
		for c := range cols {
			sl := &x.bridge[r][c]
			for i := range int(sl.n) {
				if i < int(sl.n)-1 || !sl.awake {
					slots = append(slots, &sl.cards[i])
				}
			}
		}
	}
	for i := range int(x.deck.n) {
		slots = append(slots, &x.deck.cards[i])
	}
	if x.holding == holdDormant {
		slots = append(slots, &x.carry)
	}
	for _, p := range slots {
		cards = append(cards, *p)
	}
	r := game.NewRand(seed)
	game.ShuffleSlice(&r, cards)
	for i, p := range slots {
		*p = cards[i]
	}
	x.rng = game.NewRand(seed ^ 0xd1ce)
	return &x
}

// The bot plays from what lies face up: dealing the hidden cards out
// differently, and changing the dice to come, never changes its choice.
func TestTheBotsChoiceDependsOnlyOnFaceUpCards(t *testing.T) {
	bot := Game.(game.Botter).Bot()
	games := 12
	if testing.Short() || raceOn {
		games = 4
	}
	cfgs := allConfigs()
	checked, differs := 0, 0
	for i := range games * len(cfgs) / 3 {
		cfg := cfgs[i%len(cfgs)]
		cfg.Seed = uint64(100 + i)
		gs, err := Game.New(cfg)
		require.NoError(t, err)
		s := gs.(*state)
		for step := 0; !s.Over(); step++ {
			r := game.NewRand(uint64(step))
			want := bot.Choose(s, 0, &r)
			for k := range uint64(2) {
				x := reshuffleHidden(s, cfg.Seed*31+uint64(step)*7+k)
				require.Equal(t, s.View(0), x.View(0), "the reshuffle shows nothing new")
				if x.deck != s.deck || x.bridge != s.bridge {
					differs++
				}
				r := game.NewRand(uint64(step))
				got := bot.Choose(x, 0, &r)
				require.True(t, want.Equal(got), "seed %d step %d: the bot chose %q, but %q once the hidden cards were reshuffled", cfg.Seed, step, want, got)
				checked++
			}
			_, err := s.Apply(want)
			require.NoError(t, err)
		}
	}
	require.Greater(t, differs, checked/2, "the reshuffles moved hidden cards")
}
