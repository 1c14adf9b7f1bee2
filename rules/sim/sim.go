// Package sim plays many games with bots and sums up the outcomes: win
// rates per seat (so first-player advantage shows), game length, scores,
// perfect wins. It is deterministic: the same seed gives the same numbers,
// however many goroutines play.
package sim

import (
	"fmt"
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/tableref/tableref/rules/game"
)

// Spec is one batch of games: the same players, variant and options.
type Spec struct {
	Game     game.Game
	Players  int
	Variant  string
	Options  map[string]string
	Games    int
	Seed     uint64
	Bot      game.Bot // nil: the game's own bot (game.BotFor)
	MaxMoves int      // per game; 0: 100000
	Workers  int      // 0: one per CPU
}

// Stats sums up a batch.
type Stats struct {
	Game    string            `json:"game"`
	Players int               `json:"players"`
	Variant string            `json:"variant,omitempty"`
	Options map[string]string `json:"options,omitempty"`
	Games   int               `json:"games"`
	Seed    uint64            `json:"seed"`

	// WinsBySeat counts, per seat, the games it won (shared wins count for
	// every winner). NoWinner counts games nobody won.
	WinsBySeat []int `json:"wins_by_seat"`
	NoWinner   int   `json:"no_winner"`
	Shared     int   `json:"shared_wins"` // games with more than one winner
	Perfect    int   `json:"perfect_wins"`
	// Roles and WinsByRole, for games whose seats play different parts
	// (game.Info.Roles): the games each part won (any of its seats among
	// the winners).
	Roles      []string `json:"roles,omitempty"`
	WinsByRole []int    `json:"wins_by_role,omitempty"`

	MeanMoves float64 `json:"mean_moves"`
	MinMoves  int     `json:"min_moves"`
	MaxMoves  int     `json:"max_moves"`

	// MeanScore per seat, when the game keeps score.
	MeanScore []float64 `json:"mean_score,omitempty"`
}

// WinRate is the share of games seat won.
func (s Stats) WinRate(seat int) float64 {
	if s.Games == 0 {
		return 0
	}
	return float64(s.WinsBySeat[seat]) / float64(s.Games)
}

// FirstSeatEdge is seat 0's win rate divided by the mean win rate of all
// seats: 1 means no first-player advantage, above 1 an edge.
func (s Stats) FirstSeatEdge() float64 {
	total := 0
	for _, w := range s.WinsBySeat {
		total += w
	}
	if total == 0 {
		return 0
	}
	return float64(s.WinsBySeat[0]) / (float64(total) / float64(len(s.WinsBySeat)))
}

// tally sums up the games one worker played. Every figure is a whole
// number, so tallies add up to the same totals in any order: the batch's
// figures do not depend on which worker played which game.
type tally struct {
	roles                     []int // per seat, its role's index
	roleWins                  []int
	wins                      []int
	noWinner, shared, perfect int
	scores                    []int64
	scored                    bool
	moves                     int64
	minMoves, maxMoves        int
	games                     int
	errAt                     int // the lowest game index that failed, or -1
	err                       error
}

func newTally(players int, roleOf []int, roles int) *tally {
	return &tally{wins: make([]int, players), scores: make([]int64, players), minMoves: -1, errAt: -1,
		roles: roleOf, roleWins: make([]int, roles)}
}

func (t *tally) add(i int, res game.Result, moves int, err error) {
	if err != nil {
		if t.errAt < 0 || i < t.errAt {
			t.errAt, t.err = i, err
		}
		return
	}
	t.games++
	switch len(res.Winners) {
	case 0:
		t.noWinner++
	case 1:
	default:
		t.shared++
	}
	var won uint64
	for _, w := range res.Winners {
		t.wins[w]++
		if t.roles != nil {
			won |= 1 << uint(t.roles[w])
		}
	}
	for r := range t.roleWins {
		if won&(1<<uint(r)) != 0 {
			t.roleWins[r]++
		}
	}
	if res.Perfect {
		t.perfect++
	}
	if res.Scores != nil {
		t.scored = true
		for s, v := range res.Scores {
			t.scores[s] += int64(v)
		}
	}
	t.moves += int64(moves)
	if t.minMoves < 0 || moves < t.minMoves {
		t.minMoves = moves
	}
	t.maxMoves = max(t.maxMoves, moves)
}

func (t *tally) merge(o *tally) {
	if o.errAt >= 0 && (t.errAt < 0 || o.errAt < t.errAt) {
		t.errAt, t.err = o.errAt, o.err
	}
	t.games += o.games
	t.noWinner += o.noWinner
	t.shared += o.shared
	t.perfect += o.perfect
	for i := range t.wins {
		t.wins[i] += o.wins[i]
		t.scores[i] += o.scores[i]
	}
	for i := range t.roleWins {
		t.roleWins[i] += o.roleWins[i]
	}
	t.scored = t.scored || o.scored
	t.moves += o.moves
	if o.minMoves >= 0 && (t.minMoves < 0 || o.minMoves < t.minMoves) {
		t.minMoves = o.minMoves
	}
	t.maxMoves = max(t.maxMoves, o.maxMoves)
}

// Run plays the batch. Game i is set up with seed Spec.Seed+i and its bots
// draw from a source seeded from it, so each game is reproducible alone:
// `tableref simulate` can name the seed of any game worth replaying. Each
// worker sums up its own games as it goes, so memory does not grow with
// the number of games.
func Run(sp Spec) (Stats, error) {
	if sp.Games < 1 {
		return Stats{}, fmt.Errorf("simulate %d games: need at least one", sp.Games)
	}
	if _, err := sp.Game.New(game.Config{Players: sp.Players, Variant: sp.Variant, Options: sp.Options, Seed: sp.Seed}); err != nil {
		return Stats{}, err
	}
	bot := sp.Bot
	if bot == nil {
		bot = game.BotFor(sp.Game)
	}
	maxMoves := sp.MaxMoves
	if maxMoves == 0 {
		maxMoves = 100000
	}
	workers := sp.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	workers = min(workers, sp.Games)
	in := sp.Game.Info()
	var roles []string
	var roleOf []int
	if len(in.Roles) > 0 {
		for seat := range sp.Players {
			r := in.Role(seat)
			i := slices.Index(roles, r)
			if i < 0 {
				i = len(roles)
				roles = append(roles, r)
			}
			roleOf = append(roleOf, i)
		}
	}
	tallies := make([]*tally, workers)
	var wg sync.WaitGroup
	var next atomic.Int64
	for w := range workers {
		t := newTally(sp.Players, roleOf, len(roles))
		tallies[w] = t
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= sp.Games {
					return
				}
				seed := sp.Seed + uint64(i)
				cfg := game.Config{Players: sp.Players, Variant: sp.Variant, Options: sp.Options, Seed: seed}
				r := game.NewRand(^seed)
				p, err := game.Play(sp.Game, cfg, bot, &r, maxMoves)
				t.add(i, p.Result, len(p.Moves), err)
			}
		}()
	}
	wg.Wait()
	all := newTally(sp.Players, roleOf, len(roles))
	for _, t := range tallies {
		all.merge(t)
	}
	if all.err != nil {
		return Stats{}, fmt.Errorf("game with seed %d: %w", sp.Seed+uint64(all.errAt), all.err)
	}
	st := Stats{Game: sp.Game.Info().ID, Players: sp.Players, Variant: sp.Variant, Options: sp.Options, Games: sp.Games, Seed: sp.Seed,
		WinsBySeat: all.wins, NoWinner: all.noWinner, Shared: all.shared, Perfect: all.perfect,
		MeanMoves: float64(all.moves) / float64(sp.Games), MinMoves: all.minMoves, MaxMoves: all.maxMoves}
	if roles != nil {
		st.Roles, st.WinsByRole = roles, all.roleWins
	}
	if all.scored {
		st.MeanScore = make([]float64, sp.Players)
		for s, v := range all.scores {
			st.MeanScore[s] = float64(v) / float64(sp.Games)
		}
	}
	return st, nil
}

// Batches lists the (players, variant) pairs to simulate: the given ones, or
// every player count and every variant of the game when they are zero.
func Batches(g game.Game, players int, variant string) (counts []int, variants []string) {
	in := g.Info()
	if players != 0 {
		counts = []int{players}
	} else {
		for p := in.MinPlayers; p <= in.MaxPlayers; p++ {
			counts = append(counts, p)
		}
	}
	if variant != "" {
		variants = []string{variant}
	} else if len(in.Variants) == 0 {
		variants = []string{""}
	} else {
		for _, v := range in.Variants {
			variants = append(variants, v.ID)
		}
	}
	sort.Ints(counts)
	return counts, variants
}
