package webremote

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"github.com/gofiber/fiber/v2"

	"github.com/tableref/tableref/referee"
	"github.com/tableref/tableref/referee/journal"
	"github.com/tableref/tableref/rules/catalog"
	"github.com/tableref/tableref/rules/game"
)

// Nothing lost: with Config.Data set, every change to a room is written to
// the room's journal (referee/journal: appended, checksummed and flushed to
// the disk) before it is acknowledged, and New resumes every room that had
// not ended. Each record is the whole room as it stands (its seats, tokens,
// status, seed and accepted moves), so resuming reads the last whole record
// and replays the moves; a torn last record is cut off by the journal and
// the room resumes from the one before. The seat tokens are kept on the
// server's own disk (in the user's state directory, mode 0600) so that the
// phones' tokens still work after a restart; they never leave the server.

// saved is one journal record: a room.
type saved struct {
	Code    string            `json:"code"`
	Game    string            `json:"game"`
	Variant string            `json:"variant,omitempty"`
	Options map[string]string `json:"options,omitempty"`
	Want    int               `json:"want,omitempty"`
	Host    string            `json:"host"`
	JoinURL string            `json:"join_url"`
	Status  string            `json:"status"`
	Locked  bool              `json:"locked,omitempty"`
	Seats   []*savedSeat      `json:"seats"`
	Seed    uint64            `json:"seed,omitempty"`
	Moves   []game.Move       `json:"moves,omitempty"`
	Started bool              `json:"started,omitempty"`
	Timers  []*roomTimer      `json:"timers,omitempty"`
}

type savedSeat struct {
	Name  string `json:"name"`
	Token string `json:"token,omitempty"` // "" once kicked during play
}

// persistLocked writes the room to its journal. It fails only when the
// disk does; the change must then not be acknowledged.
func (r *room) persistLocked() *apiError {
	if r.journal == nil {
		return nil
	}
	rec := saved{Code: r.code, Game: r.info.ID, Variant: r.variant, Options: r.options, Want: r.want, Host: r.host,
		JoinURL: r.joinURL, Status: r.status, Locked: r.locked, Seats: make([]*savedSeat, len(r.seats))}
	for i, p := range r.seats {
		if p != nil {
			rec.Seats[i] = &savedSeat{Name: p.name, Token: p.token}
		}
	}
	if r.match != nil {
		rec.Started, rec.Seed, rec.Moves = true, r.match.Config().Seed, r.match.Moves()
	}
	rec.Timers = r.timers
	if err := r.journal.Append(rec); err != nil {
		r.s.logf("room %s: NOT SAVED: %v", r.code, err)
		return fail(fiber.StatusInternalServerError, "the server could not save this to its disk ("+err.Error()+"); nothing was changed")
	}
	return nil
}

// resume reopens every room journal under the data directory.
func (s *Server) resume() {
	dir := journal.Dir(s.cfg.Data)
	names, err := dir.Names()
	if err != nil {
		s.logf("cannot read the saved rooms in %s: %v", s.cfg.Data, err)
		return
	}
	var resumed []string
	for _, name := range names {
		j, recs, repaired, err := dir.Open(name)
		if err != nil {
			s.logf("room %s: cannot resume it (%v); its journal is left as it is", name, err)
			continue
		}
		if repaired {
			s.logf("room %s: its last record was torn (the server stopped while writing it) and is dropped", name)
		}
		r, err := s.restore(recs)
		if err != nil || r == nil || r.status == statusEnded {
			j.Close()
			if err != nil {
				s.logf("room %s: cannot resume it (%v); its journal is left as it is", name, err)
			} else {
				_ = dir.Retire(name)
			}
			continue
		}
		r.journal = j
		s.rooms[r.code] = r
		for _, t := range r.timers {
			r.scheduleLocked(t) // a running timer ran on while the server was down
		}
		s.tokens[r.host] = r
		for tok := range r.byToken {
			s.tokens[tok] = r
		}
		seq := 0
		if r.match != nil {
			seq = r.match.Seq()
		}
		resumed = append(resumed, fmt.Sprintf("%s (%s, %s, seq %d)", r.code, r.info.ID, r.status, seq))
	}
	sort.Strings(resumed)
	if len(resumed) > 0 {
		s.logf("resumed %d room(s): %s", len(resumed), joinComma(resumed))
	}
}

func joinComma(xs []string) string {
	b, _ := json.Marshal(xs)
	out := string(b[1 : len(b)-1])
	return out
}

// restore rebuilds a room from its last whole record.
func (s *Server) restore(recs []json.RawMessage) (*room, error) {
	if len(recs) == 0 {
		return nil, errors.New("an empty journal")
	}
	var rec saved
	if err := json.Unmarshal(recs[len(recs)-1], &rec); err != nil {
		return nil, err
	}
	g, err := catalog.Get(rec.Game)
	if err != nil {
		return nil, err
	}
	r := &room{s: s, code: rec.Code, g: g, info: g.Info(), want: rec.Want, variant: rec.Variant, options: rec.Options,
		joinURL: rec.JoinURL, host: rec.Host, status: rec.Status, locked: rec.Locked,
		seats: make([]*player, len(rec.Seats)), byToken: map[string]int{}, clients: map[*client]struct{}{}}
	for i, p := range rec.Seats {
		if p == nil {
			continue
		}
		r.seats[i] = &player{name: p.Name, token: p.Token}
		if p.Token != "" {
			r.byToken[p.Token] = i
		}
	}
	if rec.Started {
		names := make([]string, len(r.seats))
		for i, p := range r.seats {
			if p == nil {
				return nil, fmt.Errorf("seat %d is empty in a started game", i)
			}
			names[i] = p.name
		}
		m, err := referee.Replay(g, game.Config{Variant: rec.Variant, Options: rec.Options, Seed: rec.Seed}, names, rec.Moves)
		if err != nil {
			return nil, err
		}
		r.match = m
	}
	r.timers = rec.Timers
	return r, nil
}

// openJournal starts the journal of a new room.
func (s *Server) openJournal(code string) (*journal.Journal, error) {
	if s.cfg.Data == "" {
		return nil, nil
	}
	j, recs, _, err := journal.Dir(s.cfg.Data).Open(code)
	if err != nil {
		return nil, err
	}
	if len(recs) > 0 { // an old room's code: keep its journal, start afresh
		j.Close()
		if err := journal.Dir(s.cfg.Data).Retire(code); err != nil {
			return nil, err
		}
		j, _, _, err = journal.Dir(s.cfg.Data).Open(code)
	}
	return j, err
}
