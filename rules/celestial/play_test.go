package celestial

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tableref/tableref/rules/game"
	"github.com/tableref/tableref/rules/game/gametest"
)

// secrets lists what owner alone knows: its hand (as a whole and card by
// card) and the cards it has laid face down; for the table, the cards of the
// trick piles. A card turned over in the last fight is public, so it is left
// out.
func secrets(gs game.State, owner int) []string {
	s := gs.(*state)
	if s.phase == phaseOver {
		return nil
	}
	var public uint64
	if s.last.attacker >= 0 {
		public = 1<<uint(s.last.aCard) | 1<<uint(s.last.dCard)
	}
	var out []string
	cards := func(m uint64) {
		for m &^= public; m != 0; m &= m - 1 {
			name := cardNames[lowest(m&-m)]
			out = append(out, gametest.Alias(`"`+name+`"`, " "+name+" "))
		}
	}
	if owner == game.Table {
		for seat := 0; seat < s.n; seat++ {
			cards(s.trick[seat])
		}
		return out
	}
	b, _ := json.Marshal(handCards(s.hand[owner]))
	out = append(out, string(b))
	cards(s.hand[owner])
	if side := s.side(owner); side >= 0 && (s.phase == phasePlay || s.phase == phaseDiscard) {
		for _, c := range [2]int8{s.pick[side], s.drop[side]} {
			if c >= 0 {
				cards(1 << uint(c))
			}
		}
	}
	return out
}

// notHeld are well-formed moves the rules refuse: laying, discarding or
// keeping a card the seat does not hold.
func notHeld(gs game.State, seat int) []game.Move {
	s := gs.(*state)
	var out []game.Move
	for c := 0; c < 52 && len(out) < 6; c++ {
		if s.hand[seat]&(1<<uint(c)) == 0 {
			for _, a := range []string{"play", "discard", "keep"} {
				out = append(out, game.M(seat, a, cardNames[c]))
			}
		}
	}
	return out
}

func configs() []game.Config {
	var cs []game.Config
	for n := 2; n <= 4; n++ {
		for _, clans := range []string{ClansSeats, ClansRandom} {
			for _, q := range []string{QualifyAtMost, QualifyBelow} {
				cs = append(cs, game.Config{Players: n, Options: map[string]string{OptClans: clans, OptQualify: q}})
			}
		}
	}
	return cs
}

func TestRandomPlayoutsKeepTheContract(t *testing.T) {
	gametest.Run(t, gametest.Check{Game: Game, Configs: configs(), Games: 300, Secrets: secrets, Seed: 1, Exhaustive: true, Illegal: notHeld})
}

func TestBotPlayoutsKeepTheContract(t *testing.T) {
	gametest.Run(t, gametest.Check{Game: Game, Configs: configs(), Games: 300, Secrets: secrets, Bot: game.BotFor(Game), Seed: 1000, Exhaustive: true, Illegal: notHeld})
}

func TestTheSecrecyCheckCatchesALeakedHand(t *testing.T) {
	err := gametest.Err(gametest.Check{Game: gameImpl{leakHands: true}, Configs: configs(), Games: 20, Secrets: secrets})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "secret")
}

func TestTheSecrecyCheckCatchesALeakedPick(t *testing.T) {
	err := gametest.Err(gametest.Check{Game: gameImpl{leakPicks: true}, Configs: configs(), Games: 20, Secrets: secrets})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "secret")
}

func TestTheSameSeedAndMovesReplayTheSameBattle(t *testing.T) {
	for _, cfg := range configs() {
		cfg.Seed = 77
		r := game.NewRand(5)
		p, err := game.Play(Game, cfg, game.BotFor(Game), &r, 10000)
		require.NoError(t, err)
		a, err := game.Replay(Game, cfg, p.Moves)
		require.NoError(t, err)
		b, err := game.Replay(Game, cfg, p.Moves)
		require.NoError(t, err)
		assert.True(t, reflect.DeepEqual(a, b))
		assert.True(t, a.Over())
		assert.Equal(t, p.Result, a.Result())
	}
}

func TestDifferentSeedsDrawDifferentClans(t *testing.T) {
	views := map[string]bool{}
	for seed := uint64(0); seed < 10; seed++ {
		s, err := Game.New(game.Config{Players: 4, Seed: seed, Options: map[string]string{OptClans: ClansRandom}})
		require.NoError(t, err)
		b, err := json.Marshal(s.View(0))
		require.NoError(t, err)
		views[string(b)] = true
	}
	assert.Greater(t, len(views), 1, "seeds give seats different clans, so different hands")
	// with clans by seat there is nothing to shuffle: the deal is the same
	a, _ := Game.New(game.Config{Players: 4, Seed: 1})
	b, _ := Game.New(game.Config{Players: 4, Seed: 2})
	assert.Equal(t, a.View(0), b.View(0))
}

func TestTheBotWinsSometimesFromEverySeat(t *testing.T) {
	for n := 2; n <= 4; n++ {
		wins := make([]int, n)
		for i := 0; i < 400; i++ {
			r := game.NewRand(uint64(i))
			p, err := game.Play(Game, game.Config{Players: n, Seed: uint64(i)}, game.BotFor(Game), &r, 10000)
			require.NoError(t, err)
			wins[p.Result.Winners[0]]++
		}
		for seat, w := range wins {
			assert.Greater(t, w, 400/n/4, "%d players, seat %d wins %v", n, seat, wins)
		}
	}
}

func TestTenThousandGames(t *testing.T) {
	if testing.Short() || os.Getenv("TABLEREF_LONG") != "1" {
		t.Skip("set TABLEREF_LONG=1 to play 10,000 games (scripts/test does; --quick does not)")
	}
	bot := game.BotFor(Game)
	cs := configs()
	for i := 0; i < 10000; i++ {
		cfg := cs[i%len(cs)]
		cfg.Seed = uint64(i)
		r := game.NewRand(^cfg.Seed)
		p, err := game.Play(Game, cfg, bot, &r, 10000)
		require.NoError(t, err, "seed %d", i)
		require.Len(t, p.Result.Winners, 1)
	}
}

func BenchmarkPlayout(b *testing.B) {
	bot := game.BotFor(Game)
	for i := 0; b.Loop(); i++ {
		cfg := game.Config{Players: 2 + i%3, Seed: uint64(i)}
		r := game.NewRand(uint64(i))
		if _, err := game.Play(Game, cfg, bot, &r, 10000); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}
