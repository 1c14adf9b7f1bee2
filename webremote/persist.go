package webremote

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/tableref/tableref/referee"
	"github.com/tableref/tableref/referee/journal"
	"github.com/tableref/tableref/rules/game"
)

// Nothing lost: with Config.Data set, every change to a room is written to
// the room's journal (referee/journal: appended, checksummed and flushed to
// the disk) before it is acknowledged, and New resumes every room that had
// not ended.
//
// A journal holds two kinds of record, one per line:
//
//   - "room": the room as it stands after a change (created, join, kick,
//     lock, pause, start, restart, timers, timer-done, end), without the
//     moves: its seats, the SHA-256 of each token (never a token itself),
//     the status, the game's seed and round, the timers and the room's own
//     events. Its "seq" is the number of moves the game had then.
//   - "move": one accepted move, its id (when the phone gave one) and the
//     seq it made. The game's seat move (game.Info.SeatAction: a latecomer
//     sits down at a new seat) also carries the new seat, "sit": its name
//     and its token's SHA-256, so the seats are the last room record's
//     and those of the sits after it, and no room record need follow.
//
// Resuming reads the records in order: the last room record is the room
// (with the seats the sits after it add), the move records after the room
// record that started its round are the game, replayed from the seed with
// referee.Replay (which seats each latecomer at its sit). A torn last record is cut
// off by the journal and the room resumes from the one before. A journal is
// thus linear in the room's changes, and a record is small whatever the
// length of the game.

// Record kinds.
const (
	recRoom = "room"
	recMove = "move"
)

// saved is one journal record.
type saved struct {
	T   string `json:"t"`             // recRoom or recMove
	Why string `json:"why,omitempty"` // a room record: what changed
	Seq int    `json:"seq"`           // room: the game's moves so far; move: the seq it made
	At  int64  `json:"at,omitempty"`  // when, in Unix milliseconds (the idle rooms are retired)

	// A room record.
	Code    string            `json:"code,omitempty"`
	Game    string            `json:"game,omitempty"`
	Variant string            `json:"variant,omitempty"`
	Options map[string]string `json:"options,omitempty"`
	Want    int               `json:"want,omitempty"`
	Host    string            `json:"host,omitempty"` // SHA-256 of the host token, hex
	JoinURL string            `json:"join_url,omitempty"`
	Status  string            `json:"status,omitempty"`
	Locked  bool              `json:"locked,omitempty"`
	Seats   []*savedSeat      `json:"seats,omitempty"` // null: a free seat (lobby)
	Round   int               `json:"round,omitempty"` // games started in the room: 1 at the start, +1 at each restart
	Seed    uint64            `json:"seed,omitempty"`
	Timers  []*roomTimer      `json:"timers,omitempty"`
	Notes   []roomEvent       `json:"notes,omitempty"`  // the room's own recent events
	NoteN   int               `json:"note_n,omitempty"` // the number of the room's last event

	// A move record.
	Move *game.Move `json:"move,omitempty"`
	ID   string     `json:"id,omitempty"`
	// Sit is the new seat a seat move adds (a latecomer), the last one.
	Sit *savedSeat `json:"sit,omitempty"`
}

type savedSeat struct {
	Name  string `json:"name"`
	Token string `json:"token,omitempty"` // SHA-256 of the seat token, hex; "" once kicked during play
}

// saveFailed is the answer when the disk refuses a record.
func (r *room) saveFailed(err error) *apiError {
	r.s.logf("room %s: NOT SAVED: %v", r.code, err)
	return fail(fiber.StatusInternalServerError, "the server could not save this to its disk ("+err.Error()+"); nothing was changed")
}

// roomRec is what a host's change, a join or a timer changes of a room, all
// of it in the room's journal record. A change builds the next roomRec from
// the room's (recLocked), on copies of whatever it alters, and saveLocked
// writes it and only then makes it the room's: a change the disk refuses
// leaves nothing to take back.
type roomRec struct {
	status string
	locked bool
	seats  []*player
	match  *referee.Match
	round  int
	timers []*roomTimer
	notes  []roomEvent
	noteN  int
}

// recLocked is the room's roomRec as it stands. Its slices are the room's:
// a change copies what it alters.
func (r *room) recLocked() roomRec {
	return roomRec{status: r.status, locked: r.locked, seats: r.seats, match: r.match, round: r.round,
		timers: r.timers, notes: r.notes, noteN: r.noteN}
}

// saveLocked writes next to the room's journal (why says what changed)
// and, once it is written, makes it the room's. It fails only when the disk
// does, and then the room is as it was.
func (r *room) saveLocked(why string, next roomRec) *apiError {
	if err := r.writeLocked(why, next); err != nil {
		return err
	}
	r.adoptLocked(next)
	return nil
}

// adoptLocked makes next the room's, once it is saved.
func (r *room) adoptLocked(next roomRec) {
	r.status, r.locked, r.seats, r.match, r.round = next.status, next.locked, next.seats, next.match, next.round
	r.timers, r.notes, r.noteN = next.timers, next.notes, next.noteN
}

// persistLocked writes the room, as it now stands, to its journal: why
// says what changed (a timer that ran out, a room retired on resume).
func (r *room) persistLocked(why string) *apiError {
	return r.writeLocked(why, r.recLocked())
}

// writeLocked writes the room with rec as its record.
func (r *room) writeLocked(why string, rec roomRec) *apiError {
	r.touchLocked()
	if r.journal == nil {
		return nil
	}
	out := saved{T: recRoom, Why: why, At: r.active.UnixMilli(), Code: r.code, Game: r.info.ID, Variant: r.variant, Options: r.options, Want: r.want,
		Host: r.host, JoinURL: r.joinURL, Status: rec.status, Locked: rec.locked, Seats: make([]*savedSeat, len(rec.seats)),
		Round: rec.round, Timers: rec.timers, Notes: rec.notes, NoteN: rec.noteN}
	for i, p := range rec.seats {
		if p != nil {
			out.Seats[i] = &savedSeat{Name: p.name, Token: p.token}
		}
	}
	if rec.match != nil {
		out.Seed, out.Seq = rec.match.Config().Seed, rec.match.Seq()
	}
	if err := r.journal.Append(out); err != nil {
		return r.saveFailed(err)
	}
	return nil
}

// persistMoveLocked writes an accepted move (the one that made seq).
func (r *room) persistMoveLocked(mv game.Move, id string, seq int) *apiError {
	return r.appendMoveLocked(saved{T: recMove, Seq: seq, Move: &mv, ID: id})
}

// persistSitLocked writes the game's seat move that made seq, with the new
// seat p it adds.
func (r *room) persistSitLocked(mv game.Move, seq int, p *player) *apiError {
	return r.appendMoveLocked(saved{T: recMove, Seq: seq, Move: &mv, Sit: &savedSeat{Name: p.name, Token: p.token}})
}

func (r *room) appendMoveLocked(rec saved) *apiError {
	r.touchLocked()
	if r.journal == nil {
		return nil
	}
	rec.At = r.active.UnixMilli()
	if err := r.journal.Append(rec); err != nil {
		return r.saveFailed(err)
	}
	return nil
}

// resume reopens every room journal under the data directory. A damaged
// journal is left as it is, with one line in the log; an ended room's is
// retired.
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
		r, at, err := s.restore(recs)
		if err != nil || r.status == statusEnded || s.rooms[r.code] != nil {
			j.Close()
			if err != nil {
				s.logf("room %s: cannot resume it (%v); its journal is left as it is", name, err)
			} else {
				_ = dir.Retire(name)
			}
			continue
		}
		r.journal = j
		r.active = lastChange(dir, name, at)
		if why := r.idleTooLongLocked(s.clock().Now()); why != "" {
			r.status = statusEnded
			_ = r.persistLocked("retired")
			j.Close()
			_ = dir.Retire(name)
			s.logf("room %s: not resumed: %s", name, why)
			continue
		}
		s.rooms[r.code] = r
		r.mu.Lock()
		for _, t := range r.timers {
			r.scheduleLocked(t) // a timer that ran out while the server was down rings now
		}
		r.catchUpLocked()
		r.mu.Unlock()
		s.tokens[r.host] = r
		for key := range r.byToken {
			s.tokens[key] = r
		}
		seq := 0
		if r.match != nil {
			seq = r.match.Seq()
		}
		resumed = append(resumed, fmt.Sprintf("%s (%s, %s, seq %d)", r.code, r.info.ID, r.status, seq))
	}
	sort.Strings(resumed)
	switch len(resumed) {
	case 0:
	case 1:
		s.logf("resumed 1 room: %s", resumed[0])
	default:
		s.logf("resumed %d rooms: %s", len(resumed), strings.Join(resumed, ", "))
	}
}

// idRecord is a remembered move id, to answer a resent move after a restart.
type idRecord struct {
	seat, seq int
	id        string
}

// restore rebuilds a room from its journal's records; at is the time of
// the newest record (0 when none has one).
func (s *Server) restore(recs []json.RawMessage) (r *room, at int64, err error) {
	r, err = s.restoreAt(recs, &at)
	return r, at, err
}

func (s *Server) restoreAt(recs []json.RawMessage, at *int64) (*room, error) {
	var cur *saved
	var moves []game.Move
	var ids []idRecord
	for i, raw := range recs {
		var rec saved
		if err := json.Unmarshal(raw, &rec); err != nil {
			return nil, fmt.Errorf("record %d: %v", i+1, err)
		}
		*at = max(*at, rec.At)
		switch rec.T {
		case recRoom:
			if cur == nil || rec.Round != cur.Round {
				moves, ids = nil, nil // a new game
			} else {
				for k := range rec.Seats { // a seat with a new token forgets the old one's ids
					if k >= len(cur.Seats) || cur.Seats[k] == nil || rec.Seats[k] == nil || cur.Seats[k].Token != rec.Seats[k].Token {
						ids = slices.DeleteFunc(ids, func(x idRecord) bool { return x.seat == k })
					}
				}
			}
			if rec.Seq != len(moves) {
				return nil, fmt.Errorf("record %d: the room was at move %d but the journal holds %d", i+1, rec.Seq, len(moves))
			}
			cur = &rec
		case recMove:
			if cur == nil || cur.Round == 0 || rec.Move == nil {
				return nil, fmt.Errorf("record %d: a move before the game started", i+1)
			}
			if rec.Seq != len(moves)+1 {
				return nil, fmt.Errorf("record %d: move %d follows move %d", i+1, rec.Seq, len(moves))
			}
			if rec.Sit != nil {
				// A latecomer's new seat, after the room record's (and
				// those of the sits since).
				if rec.Move.Seat != len(cur.Seats) {
					return nil, fmt.Errorf("record %d: a new seat %d, but the room has %d seats", i+1, rec.Move.Seat, len(cur.Seats))
				}
				sat := *cur
				sat.Seats = append(slices.Clone(cur.Seats), rec.Sit)
				cur = &sat
			}
			moves = append(moves, *rec.Move)
			if rec.ID != "" {
				ids = append(ids, idRecord{seat: rec.Move.Seat, seq: rec.Seq, id: rec.ID})
			}
		case "":
			// The first format (before the kinds): the whole room with its
			// moves and raw tokens in every record.
			var old struct {
				saved
				Moves   []game.Move `json:"moves"`
				Started bool        `json:"started"`
			}
			if err := json.Unmarshal(raw, &old); err != nil || old.Code == "" {
				return nil, fmt.Errorf("record %d: not a room", i+1)
			}
			rec = old.saved
			rec.T, rec.Host, rec.Seq, moves, ids = recRoom, hashToken(rec.Host), len(old.Moves), old.Moves, nil
			if old.Started {
				rec.Round = 1
			}
			for _, p := range rec.Seats {
				if p != nil && p.Token != "" {
					p.Token = hashToken(p.Token)
				}
			}
			cur = &rec
		default:
			return nil, fmt.Errorf("record %d: unknown kind %q", i+1, rec.T)
		}
	}
	if cur == nil {
		return nil, errors.New("an empty journal")
	}
	g, err := s.game(cur.Game)
	if err != nil {
		return nil, err
	}
	r := &room{s: s, code: cur.Code, g: g, info: g.Info(), want: cur.Want, variant: cur.Variant, options: cur.Options,
		joinURL: cur.JoinURL, host: cur.Host, status: cur.Status, locked: cur.Locked, round: cur.Round,
		seats: make([]*player, len(cur.Seats)), byToken: map[string]int{}, clients: map[*client]struct{}{},
		timers: cur.Timers, notes: cur.Notes, noteN: cur.NoteN}
	if r.code == "" || r.host == "" {
		return nil, errors.New("a room record without its code or host")
	}
	if s.cfg.PublicURL != "" {
		// The server may now listen on another address or port: the
		// saved join address (and its QR code) would lead nowhere.
		r.joinURL = s.cfg.PublicURL + "/j/" + r.code
	}
	for i, p := range cur.Seats {
		if p == nil {
			continue
		}
		r.seats[i] = &player{name: p.Name, token: p.Token}
		if p.Token != "" {
			r.byToken[p.Token] = i
		}
	}
	if cur.Round > 0 {
		names := make([]string, len(r.seats))
		for i, p := range r.seats {
			if p == nil {
				return nil, fmt.Errorf("seat %d is empty in a started game", i)
			}
			names[i] = p.name
		}
		m, err := referee.Replay(g, game.Config{Variant: cur.Variant, Options: cur.Options, Seed: cur.Seed}, names, moves)
		if err != nil {
			return nil, err
		}
		r.match = m
		if r.status == statusPlaying && m.Over() {
			r.status = statusOver
		}
		r.rememberLocked(ids)
	}
	return r, nil
}

// rememberLocked restores the answers of the moves sent with an id, so
// that a phone resending one after a restart is answered, not applied
// twice. Their events are those the match still keeps (referee.EventLog).
func (r *room) rememberLocked(ids []idRecord) {
	bySeat := map[int]map[int][]referee.Logged{}
	for _, x := range ids {
		p := r.seats[x.seat]
		if p == nil || p.token == "" {
			continue
		}
		evs, ok := bySeat[x.seat]
		if !ok {
			evs = map[int][]referee.Logged{}
			for _, e := range r.match.Snapshot(x.seat, 0).Events {
				evs[e.Seq] = append(evs[e.Seq], e)
			}
			bySeat[x.seat] = evs
		}
		a := answer{seq: x.seq, events: evs[x.seq]}
		if a.events == nil {
			a.events = []referee.Logged{}
		}
		p.remember(x.id, a)
	}
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
