// Package sim plays many games with bots and sums up the outcomes: win
// rates per seat (so first-player advantage shows), game length, scores,
// perfect wins. It is deterministic: the same seed gives the same numbers,
// however many goroutines play.
package sim

import (
	"fmt"
	"runtime"
	"sort"
	"sync"

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
	Perfect    int   `json:"perfect_wins,omitempty"`

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

type outcome struct {
	res   game.Result
	moves int
	err   error
}

// Run plays the batch. Game i is set up with seed Spec.Seed+i and its bots
// draw from a source seeded from it, so each game is reproducible alone:
// `tableref simulate` can name the seed of any game worth replaying.
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
	outs := make([]outcome, sp.Games)
	var wg sync.WaitGroup
	next := make(chan int, workers)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				seed := sp.Seed + uint64(i)
				cfg := game.Config{Players: sp.Players, Variant: sp.Variant, Options: sp.Options, Seed: seed}
				r := game.NewRand(^seed)
				p, err := game.Play(sp.Game, cfg, bot, &r, maxMoves)
				outs[i] = outcome{p.Result, len(p.Moves), err}
			}
		}()
	}
	for i := range outs {
		next <- i
	}
	close(next)
	wg.Wait()

	st := Stats{Game: sp.Game.Info().ID, Players: sp.Players, Variant: sp.Variant, Options: sp.Options, Games: sp.Games, Seed: sp.Seed,
		WinsBySeat: make([]int, sp.Players), MinMoves: -1}
	var scores []float64
	totalMoves := 0
	for i, o := range outs {
		if o.err != nil {
			return Stats{}, fmt.Errorf("game with seed %d: %w", sp.Seed+uint64(i), o.err)
		}
		switch len(o.res.Winners) {
		case 0:
			st.NoWinner++
		case 1:
		default:
			st.Shared++
		}
		for _, w := range o.res.Winners {
			st.WinsBySeat[w]++
		}
		if o.res.Perfect {
			st.Perfect++
		}
		if o.res.Scores != nil {
			if scores == nil {
				scores = make([]float64, sp.Players)
			}
			for s, v := range o.res.Scores {
				scores[s] += float64(v)
			}
		}
		totalMoves += o.moves
		if st.MinMoves < 0 || o.moves < st.MinMoves {
			st.MinMoves = o.moves
		}
		st.MaxMoves = max(st.MaxMoves, o.moves)
	}
	st.MeanMoves = float64(totalMoves) / float64(sp.Games)
	if scores != nil {
		for s := range scores {
			scores[s] /= float64(sp.Games)
		}
		st.MeanScore = scores
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
