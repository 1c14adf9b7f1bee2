package insomnia_test

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tableref/tableref/rules/deck"
	"github.com/tableref/tableref/rules/game"
	"github.com/tableref/tableref/rules/game/gametest"
	"github.com/tableref/tableref/rules/insomnia"
)

func configs() []game.Config {
	var out []game.Config
	for players := 4; players <= 7; players++ {
		for _, aces := range []string{"low", "high"} {
			for _, notes := range []string{"yes", "no"} {
				shown := "private"
				if len(out)%3 == 1 {
					shown = "public"
				}
				out = append(out, game.Config{Players: players, Options: map[string]string{"aces": aces, "notes": notes, "shown": shown}})
			}
		}
	}
	return out
}

// card is how a card appears: in views, and in the words of events.
func card(c deck.Card) string { return gametest.Alias(`"`+c.String()+`"`, c.Name()) }

// secrets: each talking voice's card belongs to its holder, the sleeper's
// unshown card to the sleeper, and the deck (its order, and every card in
// it) to nobody.
func secrets(s game.State, owner int) []string {
	var out []string
	if owner == game.Table {
		pile := insomnia.Pile(s)
		b, _ := json.Marshal(pile)
		if len(pile) > 1 {
			out = append(out, string(b[1:len(b)-1]))
		}
		for _, c := range pile {
			out = append(out, card(c))
		}
		return out
	}
	if owner == insomnia.Sleeper {
		if c, holding := insomnia.Hand(s); holding {
			out = append(out, card(c))
		}
	}
	for v := 1; v <= insomnia.Voices; v++ {
		c, seat, silent := insomnia.VoiceCard(s, v)
		if seat == owner && !silent {
			out = append(out, card(c))
		}
	}
	return out
}

// shared: unless the table plays shown=public, a shown card is the secret
// of the sleeper and the voice's player, and so is a silenced voice's card.
func shared(s game.State) []gametest.Shared {
	if insomnia.Public(s) {
		return nil
	}
	var out []gametest.Shared
	for _, sh := range insomnia.Shown(s) {
		out = append(out, gametest.Shared{Text: card(sh.Card), Seats: []int{insomnia.Sleeper, sh.Seat}})
	}
	for v := 1; v <= insomnia.Voices; v++ {
		if c, seat, silent := insomnia.VoiceCard(s, v); silent {
			out = append(out, gametest.Shared{Text: card(c), Seats: []int{insomnia.Sleeper, seat}})
		}
	}
	return out
}

// illegal: every show and every answer Legal does not list.
func illegal(s game.State, seat int) []game.Move {
	listed := map[string]bool{}
	for _, m := range s.Legal(seat) {
		listed[m.String()] = true
	}
	var out []game.Move
	for _, a := range []string{"show 1", "show 2", "show 3", "show 4", "show 5", "show 6", "higher", "lower", "not-red", "not-black"} {
		m, _ := game.ParseMove("0 " + a)
		m.Seat = seat
		if !listed[m.String()] {
			out = append(out, m)
		}
	}
	return out
}

func TestRandomPlayoutsKeepTheContract(t *testing.T) {
	gametest.Run(t, gametest.Check{Game: insomnia.Game, Configs: configs(), Games: 150, Secrets: secrets, Shared: shared, Seed: 1, Exhaustive: true, Illegal: illegal})
}

func TestBotPlayoutsKeepTheContract(t *testing.T) {
	gametest.Run(t, gametest.Check{Game: insomnia.Game, Configs: configs(), Games: 150, Secrets: secrets, Shared: shared, Seed: 1000, Bot: game.BotFor(insomnia.Game), Exhaustive: true, Illegal: illegal})
}

func TestTheSecrecyCheckCatchesALeak(t *testing.T) {
	err := gametest.Err(gametest.Check{Game: insomnia.Leaky, Configs: configs(), Games: 5, Secrets: secrets})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "secret")
}

// Played with shown=public but checked as if shown cards were private, the
// check must find a shown card in a third seat's view or event.
func TestTheSecrecyCheckCatchesAShownCardSeenByAll(t *testing.T) {
	asPrivate := func(s game.State) []gametest.Shared {
		var out []gametest.Shared
		for _, sh := range insomnia.Shown(s) {
			out = append(out, gametest.Shared{Text: card(sh.Card), Seats: []int{insomnia.Sleeper, sh.Seat}})
		}
		return out
	}
	err := gametest.Err(gametest.Check{Game: insomnia.Game, Configs: []game.Config{{Players: 5, Options: map[string]string{"shown": "public"}}},
		Games: 5, Secrets: secrets, Shared: asPrivate})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "told the table the secret")
}

func TestTheSameSeedAndMovesReplayTheSameGame(t *testing.T) {
	bot := game.BotFor(insomnia.Game)
	for players := 4; players <= 7; players++ {
		cfg := game.Config{Players: players, Seed: 77}
		r := game.NewRand(5)
		p, err := game.Play(insomnia.Game, cfg, bot, &r, 1000)
		require.NoError(t, err)
		s, err := game.Replay(insomnia.Game, cfg, p.Moves)
		require.NoError(t, err)
		assert.True(t, s.Over())
		assert.Equal(t, p.Result, s.Result())
		again, err := game.Replay(insomnia.Game, cfg, p.Moves)
		require.NoError(t, err)
		assert.True(t, reflect.DeepEqual(s, again))
	}
	a, err := insomnia.Game.New(game.Config{Players: 5, Seed: 1})
	require.NoError(t, err)
	b, err := insomnia.Game.New(game.Config{Players: 5, Seed: 1})
	require.NoError(t, err)
	c, err := insomnia.Game.New(game.Config{Players: 5, Seed: 2})
	require.NoError(t, err)
	assert.Equal(t, insomnia.Pile(a), insomnia.Pile(b))
	assert.NotEqual(t, insomnia.Pile(a), insomnia.Pile(c), "another seed deals another deck")
	ca, _, _ := insomnia.VoiceCard(a, 1)
	cb, _, _ := insomnia.VoiceCard(b, 1)
	assert.Equal(t, ca, cb)
}

func TestCloneIsIndependent(t *testing.T) {
	s := staged(t, 5, nil, "9C")
	c := s.Clone()
	apply(t, c, 0, "show", "1")
	assert.Equal(t, "show", view(s, game.Table).Phase)
	assert.Equal(t, "answer", view(c, game.Table).Phase)
}

// The bot sleeper should do clearly better than one who shows cards at
// random: it silences a voice whenever the answers have pinned it down.
func TestTheBotSleeperBeatsARandomSleeper(t *testing.T) {
	bot := game.BotFor(insomnia.Game)
	mixed := game.BotFunc(func(s game.State, seat int, r *game.Rand) game.Move {
		if seat == insomnia.Sleeper {
			return game.Random.Choose(s, seat, r)
		}
		return bot.Choose(s, seat, r)
	})
	wins := func(b game.Bot) int {
		n := 0
		for i := 0; i < 1000; i++ {
			r := game.NewRand(uint64(i))
			p, err := game.Play(insomnia.Game, game.Config{Players: 7, Seed: uint64(i)}, b, &r, 1000)
			require.NoError(t, err)
			if p.Result.Won(insomnia.Sleeper) {
				n++
			}
		}
		return n
	}
	smart, random := wins(bot), wins(mixed)
	t.Logf("sleeper wins in 1000 games: bot %d, random %d", smart, random)
	assert.Greater(t, smart, random)
}

func TestTenThousandGames(t *testing.T) {
	if testing.Short() || os.Getenv("TABLEREF_LONG") != "1" {
		t.Skip("set TABLEREF_LONG=1 to play 10,000 games (scripts/test does; --quick does not)")
	}
	bot := game.BotFor(insomnia.Game)
	cfgs := configs()
	sleeperWins := 0
	for i := 0; i < 10000; i++ {
		cfg := cfgs[i%len(cfgs)]
		cfg.Seed = uint64(i)
		r := game.NewRand(uint64(i) ^ 0xabc)
		p, err := game.Play(insomnia.Game, cfg, bot, &r, 200)
		require.NoError(t, err, "game %d", i)
		require.NotEmpty(t, p.Result.Text)
		if p.Result.Won(insomnia.Sleeper) {
			sleeperWins++
		}
	}
	t.Logf("the sleeper won %d of 10000 games", sleeperWins)
}

func BenchmarkPlayout(b *testing.B) {
	bot := game.BotFor(insomnia.Game)
	cfgs := configs()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		cfg := cfgs[i%len(cfgs)]
		cfg.Seed = uint64(i)
		r := game.NewRand(uint64(i))
		if _, err := game.Play(insomnia.Game, cfg, bot, &r, 200); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}
