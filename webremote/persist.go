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
//
// A line damaged before the end (a bad checksum, bad JSON: a disk that lost
// a block, a hand that edited the file) stops the replay there: the room
// resumes from the records before it, when they make a room. The journal,
// whole, is first kept beside it as CODE.journal.damaged-TIME (never
// deleted), then cut just before the damaged line (journal.Salvage), so
// that the records appended next follow the kept ones and a later restart
// resumes the same room. The server says so in its log and on the table (a
// room note of type "damaged", saved with the room). A journal whose
// records before the damage make no room is left as it is.
//
// The answer to a move sent with an id is rebuilt on resume: the move's
// seq and the events its seat saw, recomputed by replaying the game
// (referee.ReplayEach), however old the move.
//
// A retired journal goes to done/, never over an older one of the same code
// (done/CODE-2.journal and so on: codes are reused); CheckJournal sums a
// journal up as resume would see it (tableref journal check).

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

// resume reopens every room journal under the data directory. A journal
// damaged before its end resumes from the records before the damage, kept
// whole beside it (salvageable, journal.Salvage), with a line in the log and
// a note on the table; one whose records before the damage make no room,
// or that cannot be resumed for another reason, is left as it is, with one
// line in the log; an ended room's is retired.
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
		var damage *journal.DamageError
		// salvage keeps the damaged journal whole beside it, cuts it
		// before the damage and opens it again.
		salvage := func(cut func() (string, *journal.DamageError, error)) error {
			kept, d, err := cut()
			if err == nil {
				damage = d
				s.logSalvaged(name, damage, kept)
				j, recs, _, err = dir.Open(name)
			}
			return err
		}
		if errors.As(err, &damage) {
			damage = nil
			if !s.salvageable(dir, name) {
				s.logf("room %s: cannot resume it (%v): the records before the damage make no room; its journal is left as it is", name, err)
				continue
			}
			err = salvage(func() (string, *journal.DamageError, error) { return dir.Salvage(name, s.clock().Now()) })
		}
		if err != nil {
			s.logf("room %s: cannot resume it (%v); its journal is left as it is", name, err)
			continue
		}
		if repaired {
			s.logf("room %s: its last record was torn (the server stopped while writing it) and is dropped", name)
		}
		r, at, err := s.restore(recs)
		var place *placeError
		if errors.As(err, &place) && place.before > 0 {
			// Whole lines out of their order: resumed from the records
			// before the first, as a damaged line is.
			if _, _, perr := s.restore(recs[:place.before]); perr == nil {
				j.Close()
				err = salvage(func() (string, *journal.DamageError, error) {
					return dir.SalvageBefore(name, s.clock().Now(), place.before, place.why)
				})
				if err != nil {
					s.logf("room %s: cannot resume it (%v); its journal is left as it is", name, err)
					continue
				}
				r, at, err = s.restore(recs)
			}
		}
		if err != nil || r.status == statusEnded || s.room(r.code) != nil {
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
		// The room is the server's, and its tokens, before any of its
		// timers is scheduled: one that rings at once (it ran out while the
		// server was down) runs in its own goroutine, which finds the room
		// whole, and the server's maps are never written without their lock.
		s.mu.Lock()
		s.rooms[r.code] = r
		s.tokens[r.host] = r
		for key := range r.byToken {
			s.tokens[key] = r
		}
		s.mu.Unlock()
		r.mu.Lock()
		if damage != nil {
			r.addNoteLocked("damaged", fmt.Sprintf("The saved game was damaged at line %d: it resumes from just before that line.", damage.Line))
			_ = r.persistLocked("repaired") // a failure is logged (NOT SAVED); the room goes on
		}
		for _, t := range r.timers {
			r.scheduleLocked(t) // a timer that ran out while the server was down rings now
		}
		r.catchUpLocked()
		seq := 0
		if r.match != nil {
			seq = r.match.Seq()
		}
		status := r.status
		r.mu.Unlock()
		resumed = append(resumed, fmt.Sprintf("%s (%s, %s, seq %d)", r.code, r.info.ID, status, seq))
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

// logSalvaged says in the log that a damaged journal was repaired.
func (s *Server) logSalvaged(name string, damage *journal.DamageError, kept string) {
	if damage != nil {
		s.logf("room %s: its journal was damaged at line %d (%s): it resumes from the %d records before that line; the whole journal is kept as %s",
			name, damage.Line, damage.Why, damage.Records, kept)
	}
}

// salvageable reports whether the records before the damage in the named
// journal make a room that can be resumed.
func (s *Server) salvageable(dir journal.Dir, name string) bool {
	rep, err := dir.Read(name)
	if err != nil || rep.Damage == nil {
		return false
	}
	_, _, err = s.restore(rep.Records)
	return err == nil
}

// JournalSummary is a room journal summed up as the server resumes it.
type JournalSummary struct {
	Code   string
	Game   string
	Status string // lobby, playing, paused, over or ended
	Round  int    // games started in the room (0: none yet)
	Moves  int    // the moves of its current game
	// Misplaced is the line (from 1) of the first record out of its
	// place (a line deleted, repeated or swapped), 0 for none; the room
	// above is then the one the records before it make, from which the
	// server resumes it, and Why says what is wrong.
	Misplaced int
	Why       string
}

// CheckJournal rebuilds a room from a journal's records (journal.Read) as
// the server does when it resumes it, with the catalogue's games, and
// sums it up; an error says why the server could not resume it.
func CheckJournal(recs []json.RawMessage) (JournalSummary, error) {
	s := &Server{}
	r, _, err := s.restore(recs)
	var place *placeError
	misplaced := 0
	if errors.As(err, &place) && place.before > 0 {
		if pr, _, perr := s.restore(recs[:place.before]); perr == nil {
			r, err, misplaced = pr, nil, place.before+1
		}
	}
	if err != nil {
		return JournalSummary{}, err
	}
	sum := JournalSummary{Code: r.code, Game: r.info.ID, Status: r.status, Round: r.round, Misplaced: misplaced}
	if misplaced > 0 {
		sum.Why = place.why
	}
	if r.match != nil {
		sum.Moves = r.match.Seq()
	}
	return sum, nil
}

// placeError is a journal's record out of its place: a line deleted,
// repeated or swapped with another, each whole. The records before it are
// in order.
type placeError struct {
	before int // the records before it
	why    string
}

func (e *placeError) Error() string { return fmt.Sprintf("record %d: %s", e.before+1, e.why) }

// outOfPlace is the placeError of record i (from 0).
func outOfPlace(i int, format string, args ...any) error {
	return &placeError{before: i, why: fmt.Sprintf(format, args...)}
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
	var told seatNames
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
				told.begin(rec.Seats)
			} else {
				told.room(rec.Seq, rec.Seats)
				for k := range rec.Seats { // a seat with a new token forgets the old one's ids
					if k >= len(cur.Seats) || cur.Seats[k] == nil || rec.Seats[k] == nil || cur.Seats[k].Token != rec.Seats[k].Token {
						ids = slices.DeleteFunc(ids, func(x idRecord) bool { return x.seat == k })
					}
				}
			}
			if rec.Seq != len(moves) {
				return nil, outOfPlace(i, "the room was at move %d but the journal holds %d", rec.Seq, len(moves))
			}
			cur = &rec
		case recMove:
			if cur == nil || cur.Round == 0 || rec.Move == nil {
				return nil, outOfPlace(i, "a move before the game started")
			}
			if rec.Seq != len(moves)+1 {
				return nil, outOfPlace(i, "move %d follows move %d", rec.Seq, len(moves))
			}
			if rec.Sit != nil {
				// A latecomer's new seat, after the room record's (and
				// those of the sits since).
				if rec.Move.Seat != len(cur.Seats) {
					return nil, outOfPlace(i, "a new seat %d, but the room has %d seats", rec.Move.Seat, len(cur.Seats))
				}
				sat := *cur
				sat.Seats = append(slices.Clone(cur.Seats), rec.Sit)
				cur = &sat
				told.sit(rec.Sit.Name)
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
			told.begin(rec.Seats)
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
		// The events of the moves sent with an id, however old, for their
		// answers (the match keeps only the last referee.EventLog).
		wanted := map[int]bool{}
		for _, x := range ids {
			wanted[x.seq] = true
		}
		events := map[int][]referee.Logged{}
		// The events have the names they were told with: the seats' as
		// the game began, each renamed after the move it followed.
		start, renames := told.replay(names)
		each := func(m *referee.Match, seq int, evs []referee.Logged) {
			if wanted[seq] {
				events[seq] = evs
			}
			for _, rn := range renames[seq] {
				_ = m.Rename(rn.seat, rn.name)
			}
		}
		m, err := referee.ReplayEach(g, game.Config{Variant: cur.Variant, Options: cur.Options, Seed: cur.Seed}, start, moves, each)
		if err != nil {
			return nil, err
		}
		for i, n := range m.Names() { // the seats' names now, whatever the journal said before
			if i < len(names) && n != names[i] {
				_ = m.Rename(i, names[i])
			}
		}
		r.match = m
		if r.status == statusPlaying && m.Over() {
			r.status = statusOver
		}
		r.rememberLocked(ids, events)
	}
	return r, nil
}

// seatNames follows the names of a game's seats through its journal: as
// the game began (and each latecomer's as it sat down), and each rename
// since (a seat taken over by a new phone under another name) with the
// seq it came after, so that the replayed game's events have the names
// they were told with.
type seatNames struct {
	first, now []string
	renames    map[int][]seatRename // by the seq the rename came after
}

type seatRename struct {
	seat int
	name string
}

// begin starts a new game (or a room record of the first format) with seats.
func (n *seatNames) begin(seats []*savedSeat) {
	n.first, n.renames = make([]string, len(seats)), nil
	for i, p := range seats {
		if p != nil {
			n.first[i] = p.Name
		}
	}
	n.now = slices.Clone(n.first)
}

// room notes the seats of a later room record of the game, at seq.
func (n *seatNames) room(seq int, seats []*savedSeat) {
	for k, p := range seats {
		if p == nil || k >= len(n.now) || p.Name == n.now[k] {
			continue
		}
		if n.renames == nil {
			n.renames = map[int][]seatRename{}
		}
		n.renames[seq] = append(n.renames[seq], seatRename{k, p.Name})
		n.now[k] = p.Name
	}
}

// sit notes a latecomer's new seat.
func (n *seatNames) sit(name string) {
	n.first = append(n.first, name)
	n.now = append(n.now, name)
}

// replay is the names to replay the game with, and the renames after each
// seq (0: after the set-up); when they do not fit the seats' names now
// (final), those alone.
func (n *seatNames) replay(final []string) ([]string, map[int][]seatRename) {
	if len(n.first) != len(final) || slices.Contains(n.first, "") {
		return final, nil
	}
	return n.first, n.renames
}

// rememberLocked restores the answers of the moves sent with an id, so
// that a phone resending one after a restart is answered, not applied
// twice: the move's seq and, of events (every seat's, by seq, as replaying
// the game made them again), those its seat may see, as the first answer
// had them.
func (r *room) rememberLocked(ids []idRecord, events map[int][]referee.Logged) {
	for _, x := range ids {
		p := r.seats[x.seat]
		if p == nil || p.token == "" {
			continue
		}
		a := answer{seq: x.seq, events: []referee.Logged{}}
		for _, e := range events[x.seq] {
			if e.For(x.seat) {
				a.events = append(a.events, e)
			}
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
	if errors.Is(err, journal.ErrCorrupt) {
		// The damaged journal of an old room that could not be resumed:
		// keep it in done/ and start afresh.
		if journal.Dir(s.cfg.Data).Retire(code) == nil {
			s.logf("room %s: the damaged journal of an old room of that code is kept in done/", code)
			j, recs, _, err = journal.Dir(s.cfg.Data).Open(code)
		}
	}
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
