package minefield

import (
	"fmt"
	"os"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tableref/tableref/rules/game"
	"github.com/tableref/tableref/rules/game/gametest"
)

// look is how a seat's knowledge of a face-down tile shows: in its view,
// and in the words of the event that told it.
func look(s *State, i int) string {
	what, said := TileSeenClear, sq(i)+" is clear"
	if s.board[i].Mine {
		what, said = TileSeenMine, sq(i)+" hides a mine"
	}
	return gametest.Alias(fmt.Sprintf(`"sq":%q,"tile":%q`, sq(i), what), said)
}

// secrets are the face-down tiles as a leaking view or event would show
// them: each seat's own looks (that no other seat shares), and for the
// table every tile nobody has looked under.
func secrets(gs game.State, owner int) []string {
	s := gs.(*State)
	var out []string
	for i, tl := range s.board {
		bit := uint32(1) << uint(tl.ID)
		if tl.Up || s.public&bit != 0 {
			continue
		}
		by := lookers(s, i)
		if (owner == game.Table && len(by) == 0) || (len(by) == 1 && by[0] == owner) {
			out = append(out, look(s, i))
		}
	}
	return out
}

// shared are the tiles two or more seats have looked under: theirs alone.
func shared(gs game.State) []gametest.Shared {
	s := gs.(*State)
	var out []gametest.Shared
	for i, tl := range s.board {
		if tl.Up || s.public&(1<<uint(tl.ID)) != 0 {
			continue
		}
		if by := lookers(s, i); len(by) > 1 {
			out = append(out, gametest.Shared{Text: look(s, i), Seats: by})
		}
	}
	return out
}

func lookers(s *State, i int) []int {
	var by []int
	for seat := 0; seat < s.players; seat++ {
		if s.seen[seat]&(1<<uint(s.board[i].ID)) != 0 {
			by = append(by, seat)
		}
	}
	return by
}

// illegal are well-formed moves the rules refuse: a step or a look two
// squares away from the acting token.
func illegal(gs game.State, seat int) []game.Move {
	s := gs.(*State)
	if s.phase != phMove {
		return nil
	}
	p := int(s.tokens[s.cur].Pos)
	var out []game.Move
	for _, q := range nb[p] {
		if q < 0 {
			continue
		}
		for _, r := range nb[q] {
			if r >= 0 && r != p && !adjacent(p, r) && !(s.stepped && adjacent(s.start, r)) {
				out = append(out, game.M(seat, "step", sq(r)), game.M(seat, "look", sq(r)))
			}
		}
	}
	return out
}

var configs = func() []game.Config {
	var out []game.Config
	for _, opts := range []map[string]string{
		nil,
		{OptCrossing: "yes", OptSwapOccupied: "yes", OptFastMove: FastUpTo},
		{OptSwapOccupied: "yes"},
		{OptCrossing: "yes", OptRounds: "8"},
		{OptDash: DashNoRevisit, OptShoves: ShovesAny, OptPair: PairBoth},
		{OptPair: PairBoth, OptCrossing: "yes", OptFastMove: FastUpTo, OptDash: DashNoRevisit},
	} {
		for n := 2; n <= 4; n++ {
			out = append(out, game.Config{Players: n, Options: opts})
		}
	}
	return out
}()

func check(g game.Game, bot game.Bot, games int) gametest.Check {
	return gametest.Check{Game: g, Configs: configs, Games: games, Bot: bot, Secrets: secrets, Shared: shared, Seed: 1000, Illegal: illegal}
}

func TestBotPlayoutsKeepEveryPromise(t *testing.T) {
	gametest.Run(t, check(Game, game.BotFor(Game), 300))
}

func TestRandomMovesKeepEveryPromise(t *testing.T) {
	// Random play may stand off for ever; a round limit ends it.
	c := check(Game, game.Random, 120)
	c.Configs = nil
	for n := 2; n <= 4; n++ {
		for _, opts := range []map[string]string{{OptRounds: "60"}, {OptRounds: "60", OptCrossing: "yes", OptSwapOccupied: "yes", OptFastMove: FastUpTo},
			{OptRounds: "60", OptDash: DashNoRevisit, OptShoves: ShovesAny, OptPair: PairBoth}} {
			c.Configs = append(c.Configs, game.Config{Players: n, Options: opts})
		}
	}
	gametest.Run(t, c)
}

func TestTheSecrecyCheckCatchesALeakedLayout(t *testing.T) {
	err := gametest.Err(check(LeakyLayout, game.BotFor(Game), 20))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "hidden secret")
}

func TestTheSecrecyCheckCatchesALeakedLook(t *testing.T) {
	err := gametest.Err(check(LeakyLooks, game.BotFor(Game), 20))
	require.Error(t, err)
	assert.Regexp(t, `seat \d's secret`, err.Error())
}

// A tile two seats have looked under is theirs alone: a view that shows it
// to a third seat (or the table) must fail the check.
func TestTheSecrecyCheckCatchesALookSharedByTwoShownToAThird(t *testing.T) {
	err := gametest.Err(check(LeakyShared, game.BotFor(Game), 200))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "secret of seats")
}

func TestTheSameSeedAndMovesReplayTheSameGame(t *testing.T) {
	for n := 2; n <= 4; n++ {
		cfg := game.Config{Players: n, Seed: 77, Options: map[string]string{OptCrossing: "yes"}}
		r := game.NewRand(5)
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

func TestDifferentSeedsLayDifferentFields(t *testing.T) {
	a, _ := Game.New(game.Config{Players: 3, Seed: 1})
	b, _ := Game.New(game.Config{Players: 3, Seed: 2})
	assert.NotEqual(t, a.(*State).board, b.(*State).board)
	c, _ := Game.New(game.Config{Players: 3, Seed: 1})
	assert.Equal(t, a.(*State).board, c.(*State).board)
}

func TestCloneIsDeep(t *testing.T) {
	s := fixture(t, 4, nil, stdMines)
	c := s.Clone().(*State)
	do(t, c, 0, "look", "d1")
	do(t, c, 0, "step", "c2")
	assert.Equal(t, TileDown, tileOf(s, 0, "d1"))
	assert.Equal(t, 0, s.turn)
	assert.Equal(t, "c1", sq(int(s.tokens[0].Pos)))
}

func bot(s *State, seat int) game.Move {
	r := game.NewRand(1)
	return game.BotFor(Game).Choose(s, seat, &r)
}

func TestTheBotNeverStepsOntoAMineItKnows(t *testing.T) {
	// Seat 0 on c2 knows d2 and b2 are mined; stepping anywhere but the cross is folly.
	s := fixture(t, 4, nil, "a1 b1 d1 e1 a2 b2 d2 d4 e4 a5")
	place(t, s, 0, "c2")
	s.seen[0] |= 1<<uint(s.board[at(t, "b2")].ID) | 1<<uint(s.board[at(t, "d2")].ID)
	for i := 0; i < 50; i++ {
		c := s.Clone().(*State)
		c.rng = game.NewRand(uint64(i))
		for c.turn == 0 && !c.Over() {
			m := bot(c, 0)
			if m.Action == "step" {
				assert.NotContains(t, []string{"b2", "d2"}, m.Args[0])
			}
			_, err := c.Apply(m)
			require.NoError(t, err)
		}
	}
}

func TestTheBotShovesAnOpponentTowardAKnownMine(t *testing.T) {
	s := fixture(t, 4, nil, stdMines)
	place(t, s, 0, "d2")
	place(t, s, 1, "d3")
	s.seen[0] |= 1 << uint(s.board[at(t, "d4")].ID)
	assert.Equal(t, game.M(0, "shove", "d3"), bot(s, 0))
}

func TestTheGhostBotReArmsTheMineUnderAnOpponent(t *testing.T) {
	s := fixture(t, 3, nil, stdMines)
	s.board[at(t, "b2")].Up = true
	place(t, s, 1, "b2")
	bury(s, 0)
	assert.Equal(t, game.M(0, "rearm", "b2"), bot(s, 0))
}

func TestTheBotMostlyMovesCautiously(t *testing.T) {
	cautious, fast := 0, 0
	for seed := uint64(0); seed < 200; seed++ {
		r := game.NewRand(seed)
		p, err := game.Play(Game, game.Config{Players: 2 + int(seed%3), Seed: seed}, game.BotFor(Game), &r, 10000)
		require.NoError(t, err)
		for i, m := range p.Moves {
			switch {
			case m.Action == "fast":
				fast++
			case m.Action == "step" && (i == 0 || p.Moves[i-1].Action != "step" && p.Moves[i-1].Action != "fast"):
				cautious++
			}
		}
	}
	t.Logf("%d cautious moves, %d dashes", cautious, fast)
	assert.Greater(t, cautious, 2*fast)
}

func TestTenThousandGames(t *testing.T) {
	if testing.Short() || os.Getenv("TABLEREF_LONG") != "1" {
		t.Skip("set TABLEREF_LONG=1 to play 10,000 games (scripts/test does; --quick does not)")
	}
	wins := map[int]int{}
	for i := 0; i < 10000; i++ {
		cfg := configs[i%len(configs)]
		cfg.Seed = uint64(i)
		r := game.NewRand(uint64(i) ^ 0xabc)
		p, err := game.Play(Game, cfg, game.BotFor(Game), &r, 10000)
		require.NoError(t, err, "game %d", i)
		require.NotEmpty(t, p.Result.Text)
		wins[len(p.Result.Winners)]++
	}
	t.Logf("games by number of winners: %v", wins)
}

func BenchmarkPlayout(b *testing.B) {
	bot := game.BotFor(Game)
	r := game.NewRand(1)
	for i := 0; b.Loop(); i++ {
		cfg := game.Config{Players: 2 + i%3, Seed: uint64(i)}
		if _, err := game.Play(Game, cfg, bot, &r, 10000); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}
