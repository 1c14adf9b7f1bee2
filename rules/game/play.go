package game

import "fmt"

// Bot chooses a move for one of the seats in s.Turn().
type Bot interface {
	Choose(s State, seat int, r *Rand) Move
}

// BotFunc adapts a function to Bot.
type BotFunc func(s State, seat int, r *Rand) Move

// Choose calls f.
func (f BotFunc) Choose(s State, seat int, r *Rand) Move { return f(s, seat, r) }

// Random picks uniformly among the seat's legal moves.
var Random Bot = BotFunc(func(s State, seat int, r *Rand) Move {
	legal := s.Legal(seat)
	return legal[r.IntN(len(legal))]
})

// Botter is a Game that offers a sensible player of its own, better than
// Random (a heuristic for a solitaire, a trainer who gives the right code).
type Botter interface {
	Bot() Bot
}

// BotFor is the game's own bot, or Random.
func BotFor(g Game) Bot {
	if b, ok := g.(Botter); ok {
		return b.Bot()
	}
	return Random
}

// Playout is one game played by bots.
type Playout struct {
	Result Result
	Moves  []Move
}

// Play sets up cfg and lets bot play every seat until the game ends or
// maxMoves moves have been made (an error: the game should have ended).
// When several seats may act, the one to move is drawn at random, as the
// order in which players at a table speak up. r drives the bots and that
// draw only; the game's own randomness comes from cfg.Seed.
func Play(g Game, cfg Config, bot Bot, r *Rand, maxMoves int) (Playout, error) {
	s, err := g.New(cfg)
	if err != nil {
		return Playout{}, err
	}
	var p Playout
	for !s.Over() {
		if len(p.Moves) >= maxMoves {
			return p, fmt.Errorf("%s: not over after %d moves", g.Info().ID, maxMoves)
		}
		turn := s.Turn()
		if len(turn) == 0 {
			return p, fmt.Errorf("%s: nobody may act but the game is not over", g.Info().ID)
		}
		seat := turn[0]
		if len(turn) > 1 {
			seat = turn[r.IntN(len(turn))]
		}
		m := bot.Choose(s, seat, r)
		if _, err := s.Apply(m); err != nil {
			return p, fmt.Errorf("%s: bot move %q refused: %w", g.Info().ID, m, err)
		}
		p.Moves = append(p.Moves, m)
	}
	p.Result = s.Result()
	return p, nil
}

// Replay sets up cfg and applies moves in order, as the referee does to
// restore a match from its journal.
func Replay(g Game, cfg Config, moves []Move) (State, error) {
	s, err := g.New(cfg)
	if err != nil {
		return nil, err
	}
	for i, m := range moves {
		if _, err := s.Apply(m); err != nil {
			return nil, fmt.Errorf("move %d (%s): %w", i+1, m, err)
		}
	}
	return s, nil
}
