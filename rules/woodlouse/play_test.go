package woodlouse

import (
	"encoding/json"
	"os"
	"reflect"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tableref/tableref/rules/game"
	"github.com/tableref/tableref/rules/game/gametest"
)

// allConfigs is every player count with every variant and option value.
func allConfigs() []game.Config {
	var cfgs []game.Config
	for p := 3; p <= 6; p++ {
		for _, v := range Game.Info().Variants {
			cfgs = append(cfgs, game.Config{Players: p, Variant: v.ID})
		}
		cfgs = append(cfgs,
			game.Config{Players: p, Options: map[string]string{OptAfterLastCard: Stop}},
			game.Config{Players: p, Variant: EvenEasier, Options: map[string]string{OptEvenEasierCards: "40"}})
	}
	return cfgs
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// secrets: the trainer's card is the trainer's until shown; the draw pile's
// order and every score pile are nobody's (not even their owner's). The
// card is looked for as the view's field and as the name itself ("4
// spiders", quoted as in JSON or as words in an event), unless the other
// copy of that card was the one revealed last turn.
func secrets(gs game.State, owner int) []string {
	s := gs.(*State)
	if owner == game.Table {
		var out []string
		if len(s.pile) > 0 {
			out = append(out, jsonOf(names(s.pile)))
		}
		if s.phase != phaseOver {
			for _, p := range s.scores {
				if len(p) > 0 {
					out = append(out, jsonOf(names(p)))
				}
			}
		}
		return out
	}
	if s.phase != phaseOver && owner == s.trainer {
		name := cardOf(s.card).String()
		forms := []string{`"card":` + jsonOf(name)}
		if s.last < 0 || cardOf(uint8(s.last)).String() != name {
			forms = append(forms, jsonOf(name), " "+name)
		}
		return []string{gametest.Alias(forms...)}
	}
	return nil
}

// beyond are well-formed moves the rules refuse: a code of no beats or
// too many, a guess of no animals or too many.
func beyond(gs game.State, seat int) []game.Move {
	s := gs.(*State)
	if seat == s.trainer {
		return []game.Move{game.M(seat, "code", "0", "0"), game.M(seat, "code", "21", "1")}
	}
	return []game.Move{game.M(seat, "guess", "spider", "0"), game.M(seat, "guess", "rat", "21")}
}

// clumsy is the default bot, but as trainer it gets the code wrong one time
// in eight, so that playouts go through the mistake rule too.
var clumsy = game.BotFunc(func(gs game.State, seat int, r *game.Rand) game.Move {
	s := gs.(*State)
	if _, _, given := s.Code(); seat == s.Trainer() && !given && r.IntN(8) == 0 {
		return game.M(seat, "code", strconv.Itoa(1+r.IntN(MaxSequence)), strconv.Itoa(1+r.IntN(MaxAnimals)))
	}
	return DefaultBot.Choose(gs, seat, r)
})

func TestRandomPlayoutsKeepTheContract(t *testing.T) {
	gametest.Run(t, gametest.Check{Game: Game, Configs: allConfigs(), Games: 300, Bot: clumsy, Secrets: secrets, Seed: 1, Illegal: beyond})
}

func TestPlayoutsWithTheDefaultBotKeepTheContract(t *testing.T) {
	gametest.Run(t, gametest.Check{Game: Game, Configs: allConfigs(), Games: 120, Bot: Rules{}.Bot(), Secrets: secrets, Seed: 1000, Illegal: beyond})
}

func TestPlayoutsWithRandomMovesKeepTheContract(t *testing.T) {
	gametest.Run(t, gametest.Check{Game: Game, Configs: allConfigs(), Games: 60, Secrets: secrets, Seed: 2000, Illegal: beyond})
}

// leaky is the game with a view that shows one secret more, to check that
// the secrets above would catch a leak.
type leaky struct {
	show string // "card", "pile" or "score"
}

type leakyState struct {
	*State
	show string
}

func (l leaky) Info() game.Info { return Game.Info() }

func (l leaky) New(cfg game.Config) (game.State, error) {
	s, err := Game.New(cfg)
	if err != nil {
		return nil, err
	}
	return &leakyState{s.(*State), l.show}, nil
}

func (l *leakyState) Clone() game.State { return &leakyState{l.State.Clone().(*State), l.show} }

func (l *leakyState) View(seat int) any {
	v := l.State.View(seat).(View)
	s := l.State
	type withLeak struct {
		View
		Leak json.RawMessage `json:"leak,omitempty"`
	}
	switch l.show {
	case "card":
		if s.phase != phaseOver {
			v.Card = cardOf(s.card).String()
		}
	case "pile":
		return withLeak{v, json.RawMessage(jsonOf(names(s.pile)))}
	case "score":
		return withLeak{v, json.RawMessage(jsonOf(names(s.scores[0])))}
	}
	return v
}

func TestTheSecretsCheckCatchesLeaks(t *testing.T) {
	unwrap := func(gs game.State, owner int) []string { return secrets(gs.(*leakyState).State, owner) }
	for _, show := range []string{"card", "pile", "score"} {
		err := gametest.Err(gametest.Check{Game: leaky{show}, Games: 5, Bot: game.BotFunc(func(gs game.State, seat int, r *game.Rand) game.Move {
			return DefaultBot.Choose(gs.(*leakyState).State, seat, r)
		}), Secrets: unwrap, Configs: []game.Config{{Players: 4}}})
		require.Error(t, err, show)
		assert.Contains(t, err.Error(), "secret", show)
	}
}

func TestTheSameSeedAndMovesReplayTheSameGame(t *testing.T) {
	for _, cfg := range allConfigs() {
		cfg.Seed = 77
		r := game.NewRand(3)
		p, err := game.Play(Game, cfg, clumsy, &r, 10000)
		require.NoError(t, err)
		s, err := game.Replay(Game, cfg, p.Moves)
		require.NoError(t, err)
		assert.True(t, s.Over())
		assert.Equal(t, p.Result, s.Result())
		again, err := game.Replay(Game, cfg, p.Moves)
		require.NoError(t, err)
		assert.True(t, reflect.DeepEqual(s, again))
	}
}

func TestDifferentSeedsDealDifferently(t *testing.T) {
	deals := map[string]bool{}
	for seed := range uint64(20) {
		s := newState(t, game.Config{Players: 4, Seed: seed})
		deals[jsonOf(names(s.pile))+s.order.String()] = true
		again := newState(t, game.Config{Players: 4, Seed: seed})
		assert.True(t, reflect.DeepEqual(s, again), "seed %d deals the same twice", seed)
	}
	assert.Len(t, deals, 20)
}

func TestTheBotGivesTheRightCodeAndGuessesPlausibly(t *testing.T) {
	wins := 0
	kept := 0
	for seed := range uint64(200) {
		r := game.NewRand(seed)
		p, err := game.Play(Game, game.Config{Players: 4, Seed: seed}, DefaultBot, &r, 10000)
		require.NoError(t, err)
		s, err := game.Replay(Game, game.Config{Players: 4, Seed: seed}, nil)
		require.NoError(t, err)
		for _, m := range p.Moves {
			ev, err := s.Apply(m)
			require.NoError(t, err)
			for _, e := range ev {
				assert.NotEqual(t, "mistake", e.Type, "the bot trainer never miscodes")
				switch e.Type {
				case "guess-right":
					wins++
				case "kept":
					kept++
				}
			}
		}
	}
	assert.Greater(t, wins, kept, "guessers win most cards")
	assert.Greater(t, kept, 0, "but some cards stay with the trainer")
}

func TestViewsMarshalAndTheTableSeesNoCard(t *testing.T) {
	s := newState(t, game.Config{Players: 6, Variant: Harder, Seed: 9})
	v := viewOf(t, s, game.Table)
	assert.Empty(t, v.Card)
	assert.Nil(t, v.You)
	assert.Equal(t, 17, v.Pile)
	assert.Len(t, v.Order, 5)
	assert.True(t, v.Reshuffle)
	assert.Equal(t, 1, v.Round)
	me := viewOf(t, s, 3)
	require.NotNil(t, me.You)
	assert.False(t, me.You.Trainer)
}

func BenchmarkPlayout(b *testing.B) {
	cfgs := allConfigs()
	bot := Rules{}.Bot()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		cfg := cfgs[i%len(cfgs)]
		cfg.Seed = uint64(i)
		r := game.NewRand(^uint64(i))
		if _, err := game.Play(Game, cfg, bot, &r, 100000); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}

func TestTenThousandGames(t *testing.T) {
	if testing.Short() || os.Getenv("TABLEREF_LONG") != "1" {
		t.Skip("set TABLEREF_LONG=1 to play 10,000 games (scripts/test does; --quick does not)")
	}
	cfgs := allConfigs()
	bot := Rules{}.Bot()
	for i := range 10000 {
		cfg := cfgs[i%len(cfgs)]
		cfg.Seed = uint64(i)
		r := game.NewRand(^uint64(i))
		p, err := game.Play(Game, cfg, bot, &r, 100000)
		require.NoError(t, err, "game %d", i)
		require.NotEmpty(t, p.Result.Text)
		require.NotEmpty(t, p.Result.Winners, "game %d: someone wins", i)
	}
}
