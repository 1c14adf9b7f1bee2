package pursesnatcher

import (
	"os"
	"reflect"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tableref/tableref/rules/game"
	"github.com/tableref/tableref/rules/game/gametest"
)

// secrets: the tourist's raised fingers before the reveal (unless the
// officer's eyes are open, when he may see them) and the officer's eyes, as
// views and events put them.
func secrets(st game.State, owner int) []string {
	s := st.(*state)
	switch owner {
	case Tourist:
		if s.phase == pPickO && !s.eyesOpen {
			n := strconv.Itoa(int(s.tFingers))
			return []string{gametest.Alias(`"tourist_fingers":`+n, "raise "+n+".", "raises "+n+".")}
		}
	case Officer:
		if s.phase == pPickT || s.phase == pPickO {
			if s.eyesOpen {
				return []string{gametest.Alias(`"eyes":"open"`, "eyes open", "eyes are open")}
			}
			return []string{gametest.Alias(`"eyes":"closed"`, "close your eyes", "eyes closed")}
		}
	}
	return nil
}

// refusedNow are well-formed moves the rules refuse: fingers out of 1 to
// 4, a climb without a detail or with one already told, and whichever of
// okay open, okay closed, demand token, touch, refuse-answer and the
// requests in return is not allowed now.
func refusedNow(st game.State, seat int) []game.Move {
	listed := map[string]bool{}
	for _, m := range st.Legal(seat) {
		listed[m.String()] = true
	}
	var out []game.Move
	for _, d := range st.(*state).details {
		out = append(out, game.M(seat, "escalate", detailKinds[d.kind].name, d.word))
	}
	for _, m := range []game.Move{game.M(seat, "fingers", "0"), game.M(seat, "fingers", "5"),
		game.M(seat, "okay", "open"), game.M(seat, "okay", "closed"), game.M(seat, "demand", "token"),
		game.M(seat, "escalate"), game.M(seat, "touch"), game.M(seat, "refuse-answer"), game.M(seat, "request", "stand"),
		game.M(seat, "request", "leave"), game.M(seat, "ask", "why")} {
		if !listed[m.String()] {
			out = append(out, m)
		}
	}
	return out
}

func configs() []game.Config {
	var cs []game.Config
	for _, td := range []string{"yes", "no"} {
		for _, sl := range []string{"rise", "stay"} {
			for _, sd := range []string{"no", "yes"} {
				tl := LastStand
				if len(cs)%3 == 2 {
					tl = LastOffer
				}
				cs = append(cs, game.Config{Players: 2, Options: map[string]string{
					OptTokenDemand: td, OptSittingLoss: sl, OptStepDown: sd, OptToldToLeave: tl, OptMinutes: strconv.Itoa(1 + len(cs)*4),
				}})
			}
		}
	}
	return cs
}

func TestRandomPlayoutsKeepTheContract(t *testing.T) {
	gametest.Run(t, gametest.Check{Game: Game, Configs: configs(), Games: 300, Secrets: secrets, Seed: 1, Exhaustive: true, Illegal: refusedNow})
}

func TestBotPlayoutsKeepTheContract(t *testing.T) {
	gametest.Run(t, gametest.Check{Game: Game, Configs: configs(), Games: 300, Secrets: secrets, Bot: game.BotFor(Game), Seed: 1000, Exhaustive: true, Illegal: refusedNow})
}

// leaky shows the tourist's fingers and the officer's eyes to everyone.
type leaky struct{ *state }

func (l leaky) View(seat int) any {
	v := l.state.View(Officer).(View)
	v.TouristFingers = int(l.tFingers)
	return v
}
func (l leaky) Clone() game.State { return leaky{l.state.Clone().(*state)} }

type leakyGame struct{ gameImpl }

func (g leakyGame) New(cfg game.Config) (game.State, error) {
	s, err := g.gameImpl.New(cfg)
	if err != nil {
		return nil, err
	}
	return leaky{s.(*state)}, nil
}

func TestTheSecretCheckCatchesALeak(t *testing.T) {
	err := gametest.Err(gametest.Check{Game: leakyGame{}, Configs: configs(), Games: 50, Bot: game.BotFor(Game),
		Secrets: func(st game.State, owner int) []string { return secrets(st.(leaky).state, owner) }})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "secret")
}

func TestTheSameSeedAndMovesReplayTheSameGame(t *testing.T) {
	for i, cfg := range configs() {
		cfg.Seed = uint64(40 + i)
		r := game.NewRand(uint64(i))
		p, err := game.Play(Game, cfg, game.BotFor(Game), &r, 10000)
		require.NoError(t, err)
		a, err := game.Replay(Game, cfg, p.Moves)
		require.NoError(t, err)
		b, err := game.Replay(Game, cfg, p.Moves)
		require.NoError(t, err)
		assert.True(t, reflect.DeepEqual(a, b))
		assert.Equal(t, p.Result, a.Result())
	}
}

// Nothing is dealt or rolled: the seed cannot change a game, so the same
// moves give the same state under any seed (the counterpart of "different
// seeds deal differently" for a game without chance).
func TestTheSeedChangesNothingInAGameWithoutChance(t *testing.T) {
	cfg := game.Config{Players: 2, Seed: 1}
	r := game.NewRand(9)
	p, err := game.Play(Game, cfg, game.BotFor(Game), &r, 10000)
	require.NoError(t, err)
	for _, seed := range []uint64{2, 99, 1 << 40} {
		cfg.Seed = seed
		a, err := game.Replay(Game, game.Config{Players: 2, Seed: 1}, p.Moves)
		require.NoError(t, err)
		b, err := game.Replay(Game, cfg, p.Moves)
		require.NoError(t, err)
		assert.True(t, reflect.DeepEqual(a, b))
	}
	// Different bot draws do make different games.
	r2 := game.NewRand(10)
	q, err := game.Play(Game, game.Config{Players: 2}, game.BotFor(Game), &r2, 10000)
	require.NoError(t, err)
	assert.NotEqual(t, p.Moves, q.Moves)
}

func TestCloneIsDeep(t *testing.T) {
	s := newGame(t)
	play(t, s, "1 seat")
	challenge(t, s, "closed", 1, 2)
	c := s.Clone().(*state)
	play(t, c, "1 keep", "0 escalate")
	challenge(t, c, "closed", 2, 2)
	assert.Len(t, s.history, 1)
	assert.Equal(t, "dismiss", phaseNames[s.phase])
	c.history[0].tourist = 4
	assert.Equal(t, int8(1), s.history[0].tourist)
}

func TestTheBotPlaysSensibly(t *testing.T) {
	bot := game.BotFor(Game)
	r := game.NewRand(3)
	// The officer watches when he may, and then wins.
	for i := 0; i < 50; i++ {
		s := newGame(t)
		play(t, s, "1 seat", "0 challenge")
		m := bot.Choose(s, Officer, &r)
		assert.Equal(t, "1 okay open", m.String())
		play(t, s, m.String(), "0 fingers "+strconv.Itoa(1+i%4))
		play(t, s, bot.Choose(s, Officer, &r).String())
		assert.Equal(t, "dismiss", phaseNames[s.phase])
		assert.Equal(t, "1 dismiss", bot.Choose(s, Officer, &r).String())
	}
	// The tourist climbs to standing before challenging, and spends a win on
	// the token where that is allowed.
	s := newGame(t, OptTokenDemand, "yes")
	play(t, s, "1 seat")
	for i := 0; i < 20; i++ {
		m := bot.Choose(s, Tourist, &r)
		assert.Contains(t, []string{"escalate", "time"}, m.Action)
	}
	play(t, s, "0 escalate")
	challenge(t, s, "closed", 1, 3)
	assert.Equal(t, "0 demand token", bot.Choose(s, Tourist, &r).String())
	// The officer never takes the token.
	s = newGame(t)
	play(t, s, "1 seat", "0 offer")
	assert.Equal(t, "1 refuse", bot.Choose(s, Officer, &r).String())
	// Bot games end both ways when the token can be demanded (otherwise
	// the bot officer, who never slips, always wins).
	wins := [2]int{}
	for i := 0; i < 500; i++ {
		rr := game.NewRand(uint64(i))
		p, err := game.Play(Game, game.Config{Players: 2, Seed: uint64(i), Options: map[string]string{OptTokenDemand: "yes"}}, bot, &rr, 10000)
		require.NoError(t, err)
		wins[p.Result.Winners[0]]++
	}
	assert.Positive(t, wins[Tourist])
	assert.Positive(t, wins[Officer])
}

func BenchmarkPlayout(b *testing.B) {
	bot := game.BotFor(Game)
	for i := 0; i < b.N; i++ {
		r := game.NewRand(uint64(i))
		if _, err := game.Play(Game, game.Config{Players: 2, Seed: uint64(i)}, bot, &r, 10000); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
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
		r := game.NewRand(^uint64(i))
		p, err := game.Play(Game, cfg, bot, &r, 10000)
		require.NoError(t, err, "game %d", i)
		require.Len(t, p.Result.Winners, 1, "game %d", i)
	}
}
