package webremote

import (
	"encoding/json"
	"fmt"

	"github.com/tableref/tableref/referee"
)

// Checking the draws of a room's games from its journal: each game is
// replayed from its seed and its moves, as the server resumes a room, so
// every shuffle, deal and roll is drawn again; a move the rules refuse on
// the way means the journal was changed (or damaged). The seal each game
// showed at its start (referee.Seal) is given with it, for the players to
// compare with the one they saw.

// GameCheck is what checking one game of a room's journal found.
type GameCheck struct {
	Code    string   `json:"code"`
	Round   int      `json:"round"` // 1 for the room's first game, +1 for each new game
	Game    string   `json:"game"`
	Names   []string `json:"names"`
	Seed    uint64   `json:"seed"`
	Seal    string   `json:"seal"`
	Moves   int      `json:"moves"`
	Over    bool     `json:"over"`
	Result  string   `json:"result,omitempty"`
	Variant string   `json:"variant,omitempty"`
}

// VerifyJournal replays every game a room's journal holds (journal.Read's
// records) from its seed and moves, and says what each was. An error names
// the first game and move that do not replay; the games before it are
// returned all the same.
func VerifyJournal(recs []json.RawMessage) ([]GameCheck, error) {
	// Where each game's records end: the last record of its round.
	var ends []int
	round := 0
	for i, raw := range recs {
		var rec struct {
			T     string `json:"t"`
			Round int    `json:"round"`
		}
		if err := json.Unmarshal(raw, &rec); err != nil {
			return nil, fmt.Errorf("record %d: %v", i+1, err)
		}
		if rec.T != recRoom {
			continue
		}
		if rec.Round != round && round > 0 {
			ends = append(ends, i) // the records before i end game round
		}
		round = rec.Round
	}
	if round > 0 {
		ends = append(ends, len(recs))
	}
	var out []GameCheck
	for _, end := range ends {
		r, _, err := (&Server{}).restore(recs[:end])
		if err != nil {
			return out, fmt.Errorf("game %d: %v", len(out)+1, err)
		}
		if r.match == nil {
			continue // a room record of a game not started (cannot happen after round 1)
		}
		m := r.match
		c := GameCheck{Code: r.code, Round: r.round, Game: r.info.ID, Names: m.Names(), Seed: m.Config().Seed,
			Seal: referee.Seal(r.code, m.Config().Seed), Moves: m.Seq(), Over: m.Over(), Variant: r.variant}
		if c.Over {
			c.Result = m.Snapshot(-1, m.Seq()).Result.Text
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("the journal holds no game that started (its room never left the lobby)")
	}
	return out, nil
}
