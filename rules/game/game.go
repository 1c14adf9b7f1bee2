// Package game is the contract every game engine under rules/ keeps, so that
// the referee, the simulator and the phones treat all seven games alike.
//
// A game is a Game (its catalogue entry and a constructor) and a State (one
// match in progress). A State is pure: no I/O, no clocks, and no randomness
// but its own seeded Rand, so a match replays exactly from its Config and its
// list of moves. Timers, sound and networking belong to the referee.
//
// The shape follows boardgame.io in spirit: setup (Game.New), moves
// (State.Legal, State.Apply), turn order (State.Turn), end condition
// (State.Over, State.Result) and a view per seat (State.View) from which
// every other seat's secrets have been stripped.
package game

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Table is the seat number of the public view: what the shared screen shows,
// which holds no seat's secrets.
const Table = -1

// Game is one game of the catalogue.
type Game interface {
	Info() Info
	// New sets up a match. It validates cfg against Info (player count,
	// variant, options) and returns an error a person can act on.
	New(cfg Config) (State, error)
}

// Config is everything a match is set up from.
type Config struct {
	Players int               `json:"players"`
	Variant string            `json:"variant,omitempty"` // "" is the Info's default variant
	Options map[string]string `json:"options,omitempty"` // absent options take their defaults
	Seed    uint64            `json:"seed"`
}

// State is one match in progress. Seats are numbered 0..Players-1.
//
// Apply is the only method that changes a State. When it returns an error
// the State is exactly as before (the property tests check this with
// Clone and reflect.DeepEqual).
//
// No method panics, whatever int it is given as a seat and whatever move:
// Legal of a seat the game lacks is empty; View of a seat the game lacks
// is the public view, as for Table (ViewSeat); Apply refuses a move of a
// seat the game lacks, an unknown action or a wrong argument with an
// error; Result before the end says how things stand. rules/catalog's
// TestTheContractNeverPanics holds every engine to this.
type State interface {
	// Turn lists the seats that may act now, in seat order. Several seats
	// may act at once (guesses, secret picks, challenges). It is empty when
	// the game is over.
	Turn() []int
	// Legal lists every move seat may make now (none if it may not act).
	// Every move it lists is accepted by Apply. Moves whose values are
	// chosen from a large range (a code as heard, a number of minutes) may
	// be listed as their reasonable values only; Apply still judges others.
	// The slice is the caller's: each call makes a new one.
	Legal(seat int) []Move
	// Apply makes a move: the events say what happened, in the words a
	// referee would announce, or the error says why the move is refused
	// (a seat out of turn, an unknown action, a wrong number of arguments,
	// an argument that means nothing, a move the rules forbid). Every move
	// it accepts changes the State.
	Apply(m Move) ([]Event, error)
	// View is what seat may know, or the public table when seat is Table:
	// a value that marshals to JSON, holding none of another seat's secrets.
	View(seat int) any
	// Over reports whether the game has ended.
	Over() bool
	// Result is the outcome with tie-breaks applied; meaningful once Over.
	Result() Result
	// Clone is a deep copy: applying moves to it leaves the original alone.
	Clone() State
	// Audit checks the State's invariants (every card accounted for exactly
	// once, counts in range) and says what is wrong, or returns nil.
	Audit() error
}

// Move is one seat's action: an action name and its arguments, all words, so
// that moves read and write as text ("2 guess spider 4") and as JSON.
type Move struct {
	Seat   int      `json:"seat"`
	Action string   `json:"action"`
	Args   []string `json:"args,omitempty"`
}

// M builds a Move.
func M(seat int, action string, args ...string) Move {
	return Move{Seat: seat, Action: action, Args: args}
}

// String is the move as text: seat, action and arguments, separated by
// spaces. ParseMove reads it back.
func (m Move) String() string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(m.Seat))
	b.WriteByte(' ')
	b.WriteString(m.Action)
	for _, a := range m.Args {
		b.WriteByte(' ')
		b.WriteString(a)
	}
	return b.String()
}

// Equal reports whether two moves are the same.
func (m Move) Equal(o Move) bool {
	if m.Seat != o.Seat || m.Action != o.Action || len(m.Args) != len(o.Args) {
		return false
	}
	for i := range m.Args {
		if m.Args[i] != o.Args[i] {
			return false
		}
	}
	return true
}

// ParseMove reads a move written by Move.String.
func ParseMove(s string) (Move, error) {
	f := strings.Fields(s)
	if len(f) < 2 {
		return Move{}, fmt.Errorf("move %q: want a seat number and an action, like \"2 play broom\"", s)
	}
	seat, err := strconv.Atoi(f[0])
	if err != nil || seat < 0 {
		return Move{}, fmt.Errorf("move %q: the seat %q is not a number from 0", s, f[0])
	}
	m := Move{Seat: seat, Action: f[1]}
	if len(f) > 2 {
		m.Args = f[2:]
	}
	return m, nil
}

// Event is something that happened, as a referee would announce it.
type Event struct {
	Type string `json:"type"` // short and stable, for programs: "dealt", "guess-wrong", "mine"
	Text string `json:"text"` // for people: "Ann guessed 4 spiders: wrong, she pays Bob a score card"
	// To lists the seats allowed to see the event. Empty means everyone;
	// an event telling a seat its own secret (a drawn card, a peeked tile)
	// goes to that seat alone, and the public gets its own event, if any,
	// without the secret.
	To []int `json:"to,omitempty"`
}

// Public reports whether everyone may see the event.
func (e Event) Public() bool { return len(e.To) == 0 }

// For reports whether seat may see the event (Table sees public ones only).
func (e Event) For(seat int) bool {
	if e.Public() {
		return true
	}
	for _, s := range e.To {
		if s == seat {
			return true
		}
	}
	return false
}

// Result is the outcome of a finished match.
type Result struct {
	// Winners are the winning seats (several on a team win or a shared
	// win after the tie-breaks); empty when nobody wins (a lost solitaire,
	// the sleeper's defeat is the voices' win, and so on: see each game).
	Winners []int `json:"winners"`
	// Scores per seat, when the game keeps score (nil otherwise).
	Scores []int `json:"scores,omitempty"`
	// Perfect marks a perfect win where the game has one (troll).
	Perfect bool `json:"perfect,omitempty"`
	// Text says it in words, with the tie-break that decided, if any.
	Text string `json:"text"`
}

// Won reports whether seat is among the winners.
func (r Result) Won(seat int) bool {
	for _, w := range r.Winners {
		if w == seat {
			return true
		}
	}
	return false
}

// Info is a game's catalogue entry.
type Info struct {
	ID         string    `json:"id"` // woodlouse, louseflea, troll, celestial, pursesnatcher, insomnia, minefield
	Name       string    `json:"name"`
	Summary    string    `json:"summary"` // one line, our own words
	MinPlayers int       `json:"min_players"`
	MaxPlayers int       `json:"max_players"`
	Variants   []Variant `json:"variants,omitempty"` // the first is the default
	Options    []Option  `json:"options,omitempty"`
	// RefereeActions are actions only the referee applies, never a
	// player (Purse Snatcher's "time", when its clock runs out): servers
	// refuse them from phones and leave them out of the moves they offer.
	RefereeActions []string `json:"referee_actions,omitempty"`
	// Roles names the seats' parts where they are not alike: Roles[i] is
	// seat i's, and the last one is every later seat's (Purse Snatcher:
	// tourist, officer; Insomnia: sleeper, then voices). Empty when every
	// seat plays the same game.
	Roles []string `json:"roles,omitempty"`
	// ScoreText says what Result.Scores counts, where the game keeps score.
	ScoreText string `json:"score_text,omitempty"`
	// Clocks are the clocks the game's rules run on (see Clock).
	Clocks []Clock `json:"clocks,omitempty"`
	// Hears is what the game listens for at the table (see Hearing).
	Hears Hearing `json:"hears"`
	// SeatAction is the referee's move that adds a seat to a game in
	// progress, when a latecomer sits down (see LateJoin): made in the name
	// of the new seat (Move.Seat is the current number of players), with no
	// arguments. It is one of RefereeActions. Empty: once started, the game
	// takes no new player.
	SeatAction string `json:"seat_action,omitempty"`
	// FreePlay: the game has no turns; every seat may act whenever it
	// likes until the end (the dealer), so State.Turn lists every seat all
	// the time. The pages then never say "your turn" nor buzz for it.
	FreePlay bool `json:"free_play,omitempty"`
	// Spoken are the event types the referee says out loud, with how
	// (SayAll, SayClause, SaySitsDown, SayIfWon, or a phrase said first).
	// The others are only shown.
	Spoken map[string]string `json:"-"`
	// Sounds are the event types the referee rings a sound for, with which
	// (SoundBuzzer, SoundChime, SoundAlarm).
	Sounds map[string]string `json:"-"`
	// Page is the game's page module: JavaScript (an ES module) that the
	// server serves at /static/games/ID.js, exporting view(v, st,
	// forTable), the game's view as the table and the phones show it, and
	// optionally moves, hooks that shape its moves panel (see the pages'
	// moves.js). Empty: the pages show the view field by field.
	Page string `json:"-"`
}

// Role is the part seat plays (see Info.Roles), or "" where seats are alike.
func (in Info) Role(seat int) string {
	if len(in.Roles) == 0 || seat < 0 {
		return ""
	}
	return in.Roles[min(seat, len(in.Roles)-1)]
}

// Variant is a named set of rules, such as woodlouse "easier".
type Variant struct {
	ID string `json:"id"`
	// Name is what a person picks it by, in a word or two ("Easier").
	Name string `json:"name"`
	// Text says what the variant changes, in full: pages show it whole.
	Text string `json:"text"`
}

// Option is a setting that changes play, with its allowed values. Values
// nil means any whole number from Min to Max.
type Option struct {
	Name string `json:"name"`
	// Label is what the setting is called on a page, in a few words ("Jokers
	// in the deck"), not its Name.
	Label string `json:"label"`
	// Text explains the setting and each of its values in full.
	Text    string   `json:"text"`
	Default string   `json:"default"`
	Values  []string `json:"values,omitempty"`
	// ValueText is what each of Values reads as on a page, in a few words
	// ("free-guess": "One free guess on that card"). Every value has one
	// when Values is set; an option of whole numbers has none.
	ValueText map[string]string `json:"value_text,omitempty"`
	Min       int               `json:"min,omitempty"`
	Max       int               `json:"max,omitempty"`
	// Variants are the variants the option changes anything in; empty
	// means all of them (and a game without variants leaves it empty).
	Variants []string `json:"variants,omitempty"`
	// MinPlayers and MaxPlayers bound the player counts the option changes
	// anything at; 0 leaves that side to the game's own range. An option
	// set where it does not apply is still accepted, and changes nothing.
	MinPlayers int `json:"min_players,omitempty"`
	MaxPlayers int `json:"max_players,omitempty"`
}

// AppliesTo reports whether the option changes anything in a match of the
// variant (an id, as Resolve returns it; "" for a game without variants)
// with players players. A players of 0 or less is a count not known yet,
// and only the variant is judged.
func (o Option) AppliesTo(variant string, players int) bool {
	if len(o.Variants) > 0 && !slices.Contains(o.Variants, variant) {
		return false
	}
	if players <= 0 {
		return true
	}
	if o.MinPlayers > 0 && players < o.MinPlayers {
		return false
	}
	return o.MaxPlayers == 0 || players <= o.MaxPlayers
}

// Clone is a copy of the option that shares nothing with it, so that a
// game's Info can hand out its options without letting callers change its
// catalogue.
func (o Option) Clone() Option {
	o.Values = slices.Clone(o.Values)
	o.ValueText = maps.Clone(o.ValueText)
	o.Variants = slices.Clone(o.Variants)
	return o
}

// ErrOver is returned (wrapped) by Apply once the game has ended.
var ErrOver = errors.New("the game is over")

// CheckPlayers says why the game cannot be played by n players ("Purse
// Snatcher is for 2 players, not 3"), or nil.
func (in Info) CheckPlayers(n int) error {
	switch {
	case n >= in.MinPlayers && n <= in.MaxPlayers:
		return nil
	case in.MinPlayers == 1 && in.MaxPlayers == 1:
		return fmt.Errorf("%s is for 1 player, not %d", in.Name, n)
	case in.MinPlayers == in.MaxPlayers:
		return fmt.Errorf("%s is for %d players, not %d", in.Name, in.MinPlayers, n)
	}
	return fmt.Errorf("%s is for %d to %d players, not %d", in.Name, in.MinPlayers, in.MaxPlayers, n)
}

// Resolve checks cfg against the catalogue entry and returns the variant
// and every option's value, defaults filled in. Games call it first in New.
func (in Info) Resolve(cfg Config) (variant string, opts map[string]string, err error) {
	if err := in.CheckPlayers(cfg.Players); err != nil {
		return "", nil, err
	}
	variant = cfg.Variant
	if variant == "" && len(in.Variants) > 0 {
		variant = in.Variants[0].ID
	}
	if len(in.Variants) == 0 && variant != "" {
		return "", nil, fmt.Errorf("%s has no variants (asked for %q)", in.Name, variant)
	}
	if len(in.Variants) > 0 {
		ok := false
		var ids []string
		for _, v := range in.Variants {
			ids = append(ids, v.ID)
			ok = ok || v.ID == variant
		}
		if !ok {
			return "", nil, fmt.Errorf("%s has no variant %q (it has %s)", in.Name, variant, strings.Join(ids, ", "))
		}
	}
	opts = map[string]string{}
	known := map[string]Option{}
	for _, o := range in.Options {
		known[o.Name] = o
		opts[o.Name] = o.Default
	}
	names := make([]string, 0, len(cfg.Options))
	for k := range cfg.Options {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		v := cfg.Options[k]
		o, ok := known[k]
		if !ok {
			var all []string
			for _, o := range in.Options {
				all = append(all, o.Name)
			}
			if len(all) == 0 {
				return "", nil, fmt.Errorf("%s has no options (asked for %q)", in.Name, k)
			}
			return "", nil, fmt.Errorf("%s has no option %q (it has %s)", in.Name, k, strings.Join(all, ", "))
		}
		if err := o.check(v); err != nil {
			return "", nil, fmt.Errorf("%s option %s: %w", in.Name, k, err)
		}
		opts[k] = v
	}
	return variant, opts, nil
}

func (o Option) check(v string) error {
	if o.Values != nil {
		for _, ok := range o.Values {
			if v == ok {
				return nil
			}
		}
		return fmt.Errorf("%q is not one of %s", v, strings.Join(o.Values, ", "))
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return fmt.Errorf("%q is not a whole number", v)
	}
	if n < o.Min || n > o.Max {
		return fmt.Errorf("%d is not between %d and %d", n, o.Min, o.Max)
	}
	return nil
}

// Bool reads a "yes"/"no" option value (also true/false, on/off, 1/0).
func Bool(v string) bool {
	switch strings.ToLower(v) {
	case "yes", "true", "on", "1":
		return true
	}
	return false
}

// Int reads a whole-number option value already checked by Resolve.
func Int(v string) int {
	n, _ := strconv.Atoi(v)
	return n
}

// Refuse is the error of a refused move: the reason a referee would give.
func Refuse(m Move, format string, a ...any) error {
	return &RefusedError{Move: m, Reason: fmt.Sprintf(format, a...)}
}

// RefuseTurn is the refusal of a move from a seat that may not act now: it
// is not its turn, or not its part of the turn (RefusedError.Turn is set).
func RefuseTurn(m Move, format string, a ...any) error {
	return &RefusedError{Move: m, Reason: fmt.Sprintf(format, a...), Turn: true}
}

// RefusedError is a move a game refused, and why.
type RefusedError struct {
	Move   Move
	Reason string
	// Turn marks a refusal because the seat may not act now, whatever the
	// move (RefuseTurn).
	Turn bool
}

// ErrNotYourTurn is what every refusal of a move from a seat that may not
// act now wraps: the referee's (a seat not on turn) and a game's
// (RefuseTurn: a seat on turn, but not for this part of it). Servers answer
// both alike.
var ErrNotYourTurn = errors.New("not your turn")

// IsTurnRefusal reports whether err refuses a move because its seat may not
// act now.
func IsTurnRefusal(err error) bool { return errors.Is(err, ErrNotYourTurn) }

func (e *RefusedError) Error() string { return e.Reason }

// Unwrap is ErrNotYourTurn for a refusal because the seat may not act now.
func (e *RefusedError) Unwrap() error {
	if e.Turn {
		return ErrNotYourTurn
	}
	return nil
}

// ViewSeat is the seat whose view State.View(seat) shows in a game of
// players seats: seat itself, or Table for any number the game has no seat
// for (a negative other than Table, players or more), whose view is the
// public one.
func ViewSeat(seat, players int) int {
	if seat < 0 || seat >= players {
		return Table
	}
	return seat
}
