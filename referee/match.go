// Package referee runs live matches: a rules engine, the names at its seats,
// a sequence number and the list of accepted moves, with nothing about how
// the moves arrive (phones, a terminal, a test). It is safe for concurrent
// use: every move is applied under one lock, in arrival order.
package referee

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/tableref/tableref/rules/game"
)

// ErrNotYourTurn is returned (wrapped) for a move from a seat that may not
// act now: the seat is not on turn, or the game refused it as not its part
// of the turn (game.RefuseTurn). It is game.ErrNotYourTurn. Other refusals
// are *game.RefusedError or game.ErrOver.
var ErrNotYourTurn = game.ErrNotYourTurn

// ErrNoSeat is returned (wrapped) for a move from a seat the match lacks.
var ErrNoSeat = errors.New("no such seat")

// The reasons Sit seats nobody (wrapped, with the game's name), besides
// game.ErrOver once the game has ended.
var (
	// ErrNoLateJoin: the game takes no new player once started (it
	// declares no game.Info.SeatAction).
	ErrNoLateJoin = errors.New("cannot take a new player mid-game")
	// ErrTableFull: the match has the game's most players already.
	ErrTableFull = errors.New("every seat is taken")
)

// EventLog is how many recent events a match keeps for resyncing clients.
const EventLog = 200

// Logged is an event as announced: seat references replaced by names, and
// the sequence number of the move that caused it, with what the referee
// says out loud for it and how it sounds, as the game declares them
// (game.Info.Spoken and Sounds), worked out once, when it is logged.
type Logged struct {
	Seq int `json:"seq"`
	game.Event
	// Say is what the referee says out loud (Announcement), or "".
	Say string `json:"say,omitempty"`
	// Tone is how the event sounds, for the pages' colours: "bad" (a
	// buzzer: a wrong code, a wrong guess), "good" (a chime), "alarm"
	// (time is up), or "".
	Tone string `json:"tone,omitempty"`
}

// tones are the pages' names for the game's sounds.
var tones = map[string]string{game.SoundBuzzer: "bad", game.SoundChime: "good", game.SoundAlarm: "alarm"}

// logged is e, named, as the match logs it at seq.
func (m *Match) logged(seq int, e game.Event) Logged {
	e.Text = game.Names(e.Text, m.names)
	l := Logged{Seq: seq, Event: e, Tone: tones[m.info.Sounds[e.Type]]}
	l.Say, _ = Announcement(m.info, l)
	return l
}

// Snapshot is everything one seat (or game.Table) may know now.
type Snapshot struct {
	Seq    int             `json:"seq"`
	Seat   int             `json:"seat"`
	Names  []string        `json:"names"`
	View   json.RawMessage `json:"view"` // marshalled under the match's lock
	Turn   []int           `json:"turn"`
	Legal  []game.Move     `json:"legal"` // the snapshot's own (game.State.Legal makes a new one)
	Over   bool            `json:"over"`
	Result *game.Result    `json:"result,omitempty"`
	// Events are the events the seat may see with a sequence number above
	// the one asked for (at most EventLog of them).
	Events []Logged `json:"events"`
}

// Match is one game in progress.
type Match struct {
	mu     sync.Mutex
	g      game.Game
	info   game.Info // g's, read once
	cfg    game.Config
	names  []string
	s      game.State
	moves  []game.Move
	events []Logged
}

// New sets up a match for the named seats (len(names) players).
func New(g game.Game, cfg game.Config, names []string) (*Match, error) {
	cfg.Players = len(names)
	s, err := g.New(cfg)
	if err != nil {
		return nil, err
	}
	m := &Match{g: g, info: g.Info(), cfg: cfg, names: slices.Clone(names), s: s}
	if o, ok := s.(game.Opener); ok {
		for _, e := range o.Opening() {
			m.events = append(m.events, m.logged(0, e))
		}
	}
	return m, nil
}

// Opening is what happened while the game was set up (game.Opener), named,
// with seq 0: the events to announce when the game starts. A game that
// tells nothing of its set-up has none.
func (m *Match) Opening() []Logged {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []Logged
	for _, e := range m.events {
		if e.Seq == 0 {
			out = append(out, e)
		}
	}
	return out
}

// Replay sets up a match and applies moves in order, as after a restart.
// names are every seat's, latecomers' included: the match starts with
// those but the last k, k being the number of the game's seat moves
// (game.Info.SeatAction) among moves, and each seat move seats the next.
func Replay(g game.Game, cfg game.Config, names []string, moves []game.Move) (*Match, error) {
	return ReplayEach(g, cfg, names, moves, nil)
}

// ReplayEach is Replay that also hands each move's events, as Apply or Sit
// returned them (every seat's, named), to each (when not nil), in order,
// with the match being replayed: the events of a move older than those the
// match keeps (EventLog), for the answer to a move resent after a restart.
// It is called first with seq 0 and the set-up's events (Opening). each may
// Rename a seat, as it was renamed after that move: the events that follow
// have the new name, those before keep theirs. names are then the seats'
// names as the game began (and each latecomer's as it sat down).
func ReplayEach(g game.Game, cfg game.Config, names []string, moves []game.Move, each func(m *Match, seq int, evs []Logged)) (*Match, error) {
	in := g.Info()
	sits := 0
	for _, mv := range moves {
		if in.IsSeatMove(mv) {
			sits++
		}
	}
	if sits > len(names) {
		return nil, fmt.Errorf("%d players sit down during the game, but only %d names are given", sits, len(names))
	}
	m, err := New(g, cfg, names[:len(names)-sits])
	if err != nil {
		return nil, err
	}
	if each != nil {
		each(m, 0, m.Opening())
	}
	for i, mv := range moves {
		if in.IsSeatMove(mv) {
			if mv.Seat != len(m.names) {
				return nil, fmt.Errorf("replaying move %d (%s): the next seat is %d", i+1, mv, len(m.names))
			}
			if len(mv.Args) != 0 {
				return nil, fmt.Errorf("replaying move %d (%s): a seat move has no arguments", i+1, mv)
			}
			_, seq, evs, err := m.Sit(names[len(m.names)])
			if err != nil {
				return nil, fmt.Errorf("replaying move %d (%s): %w", i+1, mv, err)
			}
			if each != nil {
				each(m, seq, evs)
			}
			continue
		}
		seq, evs, err := m.Apply(mv)
		if err != nil {
			return nil, fmt.Errorf("replaying move %d (%s): %w", i+1, mv, err)
		}
		if each != nil {
			each(m, seq, evs)
		}
	}
	return m, nil
}

// Clone is a copy of the match that shares nothing with it: moves made on
// the copy (a change tried before it is saved) leave the match alone.
func (m *Match) Clone() *Match {
	m.mu.Lock()
	defer m.mu.Unlock()
	return &Match{g: m.g, info: m.info, cfg: m.cfg, names: slices.Clone(m.names), s: m.s.Clone(),
		moves: slices.Clone(m.moves), events: slices.Clone(m.events)}
}

// Game is the match's game.
func (m *Match) Game() game.Game { return m.g }

// Config is what the match was set up from.
func (m *Match) Config() game.Config { return m.cfg }

// Names are the players' names, by seat.
func (m *Match) Names() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.names)
}

// Rename changes the name at seat (a new phone took over the seat). Events
// already announced keep the name they were announced with.
func (m *Match) Rename(seat int, name string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if seat < 0 || seat >= len(m.names) {
		return fmt.Errorf("seat %d: %w", seat, ErrNoSeat)
	}
	m.names[seat] = name
	return nil
}

// Seq is the number of accepted moves.
func (m *Match) Seq() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.moves)
}

// Moves are the accepted moves, in order.
func (m *Match) Moves() []game.Move {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.moves)
}

// Over reports whether the game has ended.
func (m *Match) Over() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.s.Over()
}

// Apply judges a move; on success it returns the new sequence number and the
// events, named. A refused move changes nothing.
func (m *Match) Apply(mv game.Move) (int, []Logged, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if mv.Seat < 0 || mv.Seat >= len(m.names) {
		return len(m.moves), nil, fmt.Errorf("seat %d: %w", mv.Seat, ErrNoSeat)
	}
	if m.s.Over() {
		return len(m.moves), nil, game.ErrOver
	}
	if err := bracesIn(mv); err != nil {
		return len(m.moves), nil, err
	}
	if !slices.Contains(m.s.Turn(), mv.Seat) {
		// Why not, in the game's words when it has them for this move (a
		// guess at a card already won: "too late: the card is gone"), asked
		// of a copy; else whose turn it is.
		why := m.waitingFor()
		if _, err := m.s.Clone().Apply(mv); err != nil {
			var r *game.RefusedError
			if errors.As(err, &r) && r.Turn {
				why = game.Names(r.Reason, m.names)
			}
		}
		return len(m.moves), nil, fmt.Errorf("%s: %w (%s)", m.name(mv.Seat), ErrNotYourTurn, why)
	}
	evs, err := m.s.Apply(mv)
	if err != nil {
		return len(m.moves), nil, m.named(err)
	}
	seq, out := m.record(mv, evs)
	return seq, out, nil
}

// Sit seats a latecomer called name in a game in progress, when the game
// takes one (game.Info.SeatAction): the game's seat move is made in the
// name of the new seat, the last one, and recorded among the moves like
// any other (Replay makes it again). It is refused, changing nothing, when
// the game takes nobody once started (ErrNoLateJoin), has its most players
// (ErrTableFull), is over (game.ErrOver), or its rules refuse the move.
func (m *Match) Sit(name string) (seat, seq int, evs []Logged, err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	in := m.info
	seat = len(m.names)
	switch {
	case !in.LateJoin():
		return -1, len(m.moves), nil, fmt.Errorf("%s %w", in.Name, ErrNoLateJoin)
	case m.s.Over():
		return -1, len(m.moves), nil, game.ErrOver
	case seat >= in.MaxPlayers:
		return -1, len(m.moves), nil, fmt.Errorf("%s is for at most %d players: %w", in.Name, in.MaxPlayers, ErrTableFull)
	}
	mv := game.Move{Seat: seat, Action: in.SeatAction}
	// The name is the seat's before the move, so that its events name it.
	// The turn is not checked: the seat is new.
	m.names = append(m.names, name)
	gevs, err := m.s.Apply(mv)
	if err != nil {
		err = m.named(err) // the newcomer's name too
		m.names = m.names[:seat]
		return -1, len(m.moves), nil, err
	}
	seq, evs = m.record(mv, gevs)
	return seat, seq, evs, nil
}

// named is a game's refusal with the seats' names in its reason.
func (m *Match) named(err error) error {
	var r *game.RefusedError
	if errors.As(err, &r) {
		return &game.RefusedError{Move: r.Move, Reason: game.Names(r.Reason, m.names), Turn: r.Turn}
	}
	return err
}

// bracesIn refuses a move whose words hold a brace. No game's move has
// one (the contract test checks every legal move), and the referee names
// the seats in a refusal's reason ("{2}" becomes that player's name), which
// often quotes the move's words: a word "{0}" would be shown as seat 0's
// name. The refusal quotes nothing.
func bracesIn(mv game.Move) error {
	braced := func(w string) bool { return strings.ContainsAny(w, "{}") }
	if braced(mv.Action) || slices.ContainsFunc(mv.Args, braced) {
		return &game.RefusedError{Move: mv, Reason: "the words of a move hold no braces: no game has such a move"}
	}
	return nil
}

// record keeps an accepted move and its events, named: the new sequence
// number and the events.
func (m *Match) record(mv game.Move, evs []game.Event) (int, []Logged) {
	m.moves = append(m.moves, mv)
	seq := len(m.moves)
	out := make([]Logged, len(evs))
	for i, e := range evs {
		out[i] = m.logged(seq, e)
	}
	m.events = append(m.events, out...)
	if extra := len(m.events) - EventLog; extra > 0 {
		m.events = slices.Delete(m.events, 0, extra)
	}
	return seq, out
}

func (m *Match) name(seat int) string { return game.Names(game.Seat(seat), m.names) }

func (m *Match) waitingFor() string {
	turn := m.s.Turn()
	if len(turn) == 0 {
		return "nobody may act"
	}
	s := "waiting for "
	for i, t := range turn {
		if i > 0 {
			s += ", "
		}
		s += m.name(t)
	}
	return s
}

// Snapshot is what seat (or game.Table) may know, with the events it may
// see that came after sequence number since.
func (m *Match) Snapshot(seat, since int) Snapshot {
	m.mu.Lock()
	defer m.mu.Unlock()
	snap := Snapshot{
		Seq:    len(m.moves),
		Seat:   seat,
		Names:  slices.Clone(m.names),
		View:   mustJSON(m.s.View(seat)),
		Turn:   m.s.Turn(),
		Legal:  []game.Move{},
		Over:   m.s.Over(),
		Events: []Logged{},
	}
	if seat >= 0 && slices.Contains(snap.Turn, seat) {
		snap.Legal = m.s.Legal(seat)
	}
	if snap.Over {
		r := m.s.Result()
		r.Text = game.Names(r.Text, m.names)
		snap.Result = &r
	}
	for _, e := range m.events {
		// The set-up's events (seq 0) go with every look from the start
		// (since 0 or less): a screen may see them twice, never miss them.
		if (e.Seq > since || e.Seq == 0 && since <= 0) && e.For(seat) {
			snap.Events = append(snap.Events, e)
		}
	}
	return snap
}

// mustJSON marshals a view. Views are plain data by the game contract; a
// view that cannot be marshalled is an engine bug, shown rather than hidden.
func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		b, _ = json.Marshal(map[string]string{"error": "view: " + err.Error()})
	}
	return b
}
