package troll

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tableref/tableref/rules/game"
	"github.com/tableref/tableref/rules/game/gametest"
)

// hiddenCards lists what nobody may see: the deck's order, and every
// face-down card (in the deck, under or on the bridge's piles, or carried
// asleep), quoted as it would be in JSON and in the words of events.
func hiddenCards(gs game.State, owner int) []string {
	if owner != game.Table {
		return nil // the player has no secret the table lacks
	}
	s, ok := gs.(*state)
	if l, leak := gs.(*leakyState); leak {
		s, ok = l.state, true
	}
	if !ok {
		panic("not a troll state")
	}
	var out []string
	order, _ := json.Marshal(names(s.deck.cards[:s.deck.n]))
	if s.deck.n > 1 {
		out = append(out, string(order))
	}
	for _, c := range s.deck.cards[:s.deck.n] {
		out = append(out, gametest.Alias(`"`+c.String()+`"`, "the "+c.Name()))
	}
	for r := range rows {
		for c := range cols {
			sl := &s.bridge[r][c]
			for i, card := range sl.cards[:sl.n] {
				if i == int(sl.n)-1 && sl.awake {
					continue
				}
				out = append(out, gametest.Alias(`"`+card.String()+`"`, "the "+card.Name()))
			}
		}
	}
	if s.holding == holdDormant {
		out = append(out, gametest.Alias(`"`+s.carry.String()+`"`, "the "+s.carry.Name()))
	}
	return out
}

func allConfigs() []game.Config {
	var cfgs []game.Config
	for _, v := range Game.Info().Variants {
		cfgs = append(cfgs, game.Config{Players: 1, Variant: v.ID})
	}
	for _, o := range []map[string]string{
		{"start-with": "card"},
		{"start-with": "the-club"},
		{"start-with": "toys", "troll-blocks": "both-rows"},
		{"reusable-diamond": "yes"},
		{"troll-blocks": "both-rows", "start-with": "card", "reusable-diamond": "yes"},
	} {
		cfgs = append(cfgs, game.Config{Players: 1, Options: o})
	}
	return cfgs
}

func TestRandomPlayoutsKeepTheContract(t *testing.T) {
	gametest.Run(t, gametest.Check{Game: Game, Configs: allConfigs(), Games: 300, Secrets: hiddenCards, Seed: 1, Exhaustive: true, Illegal: offBridge})
}

func TestBotPlayoutsKeepTheContract(t *testing.T) {
	games := 120
	if testing.Short() || raceOn {
		games = 30
	}
	gametest.Run(t, gametest.Check{Game: Game, Configs: allConfigs(), Games: games, Secrets: hiddenCards, Bot: Game.(game.Botter).Bot(), Seed: 5000, Exhaustive: true, Illegal: offBridge})
}

// offBridge are well-formed moves the rules refuse now: stepping off the
// bridge, stomping a sleeping brick.
func offBridge(gs game.State, _ int) []game.Move {
	s := gs.(*state)
	var out []game.Move
	for d := range numDirs {
		if _, _, on := s.neighbour(d); !on {
			out = append(out, game.M(0, "move", dirNames[d]))
		}
	}
	if !s.bridge[s.tr][s.tc].awake {
		out = append(out, game.M(0, "stomp"))
	}
	return out
}

func TestTheSecrecyCheckCatchesALeak(t *testing.T) {
	// A view that shows the top of every pile, asleep or not, must fail.
	err := gametest.Err(gametest.Check{Game: leaky{}, Games: 5, Secrets: hiddenCards, Seed: 1})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "secret")
}

// leaky is the game with a view that turns every top brick face up.
type leaky struct{}

func (leaky) Info() game.Info { return Game.Info() }

func (leaky) New(cfg game.Config) (game.State, error) {
	s, err := Game.New(cfg)
	if err != nil {
		return nil, err
	}
	return &leakyState{s.(*state)}, nil
}

type leakyState struct{ *state }

func (l *leakyState) View(seat int) any {
	v := l.state.View(seat).(View)
	for r := range rows {
		for c := range cols {
			if sl := &l.bridge[r][c]; sl.n > 0 {
				v.Bridge[r][c].Awake = sl.top().String()
			}
		}
	}
	return v
}

func (l *leakyState) Clone() game.State { return &leakyState{l.state.Clone().(*state)} }

func TestTheSameSeedAndMovesReplayTheSameGame(t *testing.T) {
	cfg := game.Config{Players: 1, Seed: 99, Options: map[string]string{"start-with": "card"}}
	r := game.NewRand(3)
	p, err := game.Play(Game, cfg, Game.(game.Botter).Bot(), &r, 10000)
	require.NoError(t, err)
	a, err := game.Replay(Game, cfg, p.Moves)
	require.NoError(t, err)
	b, err := game.Replay(Game, cfg, p.Moves)
	require.NoError(t, err)
	assert.Equal(t, a, b)
	assert.Equal(t, p.Result, a.Result())
	assert.True(t, a.Over())
}

func TestDifferentSeedsBuildDifferentBridges(t *testing.T) {
	seen := map[string]bool{}
	for seed := uint64(0); seed < 20; seed++ {
		g, err := Game.New(game.Config{Players: 1, Seed: seed})
		require.NoError(t, err)
		s := g.(*state)
		b, _ := json.Marshal(names(append(s.deck.list(), s.bridge[0][0].cards[:3]...)))
		seen[string(b)] = true
	}
	assert.Len(t, seen, 20)
}

func TestTheBotPlaysWellEnough(t *testing.T) {
	games := 200
	if testing.Short() || raceOn {
		games = 60
	}
	bot := Game.(game.Botter).Bot()
	for _, c := range []struct {
		variant string
		atLeast float64
	}{{"easy", 0.6}, {"tutorial", 0.95}} {
		wins := 0
		for i := range games {
			r := game.NewRand(uint64(i))
			p, err := game.Play(Game, game.Config{Players: 1, Variant: c.variant, Seed: uint64(i)}, bot, &r, 10000)
			require.NoError(t, err)
			if len(p.Result.Winners) == 1 {
				wins++
			}
		}
		assert.GreaterOrEqual(t, float64(wins)/float64(games), c.atLeast, c.variant)
	}
	// Against random play the heuristic is far better on the standard bridge.
	botScore, randScore := 0, 0
	for i := range 40 {
		cfg := game.Config{Players: 1, Seed: uint64(i)}
		r := game.NewRand(uint64(i))
		p, err := game.Play(Game, cfg, bot, &r, 10000)
		require.NoError(t, err)
		botScore += p.Result.Scores[0]
		p, err = game.Play(Game, cfg, game.Random, &r, 10000)
		require.NoError(t, err)
		randScore += p.Result.Scores[0]
	}
	assert.Less(t, botScore*3/2, randScore, "mean score (cards left) well below random play's")
}

func BenchmarkPlayout(b *testing.B) {
	bot := Game.(game.Botter).Bot()
	for i := 0; b.Loop(); i++ {
		r := game.NewRand(uint64(i))
		if _, err := game.Play(Game, game.Config{Players: 1, Seed: uint64(i)}, bot, &r, 10000); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}

func TestTenThousandGames(t *testing.T) {
	if testing.Short() || os.Getenv("TABLEREF_LONG") != "1" {
		t.Skip("set TABLEREF_LONG=1 to play 10,000 games (scripts/test does; --quick does not)")
	}
	// The bot looks ahead, so a game costs milliseconds: the seeds are
	// dealt to two halves that run side by side.
	bot := Game.(game.Botter).Bot()
	cfgs := allConfigs()
	for half := range 2 {
		t.Run(fmt.Sprintf("half %d", half+1), func(t *testing.T) {
			t.Parallel()
			wins := map[string]int{}
			for i := half; i < 10000; i += 2 {
				cfg := cfgs[i%len(cfgs)]
				cfg.Seed = uint64(i)
				r := game.NewRand(uint64(i) ^ 0xabc)
				p, err := game.Play(Game, cfg, bot, &r, 10000)
				require.NoError(t, err, "seed %d", i)
				if len(p.Result.Winners) == 1 {
					wins[cfg.Variant]++
				}
			}
			t.Logf("wins by variant (options folded into the default): %v", wins)
		})
	}
}
