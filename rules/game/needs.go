package game

import (
	"strconv"
	"time"
)

// What a game needs from the referee around it, declared by the game in its
// Info so that the referee, the server and the pages never name a game:
// the clocks its rules run on, what it listens for at the table, and which
// of its events are said out loud.

// Clock is a clock a game's rules run on. The referee keeps it as a timer
// of the room, started with each game; when it runs out, the referee makes
// the game's Action move in the name of a seat on turn that may make it.
// A Clock is only a declaration: the engine itself never reads the time.
type Clock struct {
	Name string `json:"name"` // the timer's name, as the table shows it ("meeting")
	// Option is the game option that sets its length, counted in Unit;
	// its value is the option's (its default when not given).
	Option string        `json:"option"`
	Unit   time.Duration `json:"-"`
	// Action is the referee's move when it runs out ("time"); it is one of
	// Info.RefereeActions.
	Action string `json:"action"`
}

// Length is the clock's length for a game with option values opts (as
// Resolve returns them, or as a room keeps them), and ok false when the
// option gives no whole number.
func (c Clock) Length(in Info, opts map[string]string) (time.Duration, bool) {
	v, ok := opts[c.Option]
	if !ok {
		for _, o := range in.Options {
			if o.Name == c.Option {
				v, ok = o.Default, true
			}
		}
	}
	n, err := strconv.Atoi(v)
	if !ok || err != nil || n <= 0 {
		return 0, false
	}
	return time.Duration(n) * c.Unit, true
}

// Latecomers. A game whose rules let a player come in while it is played
// (the dealer: a new player sits down and is dealt in at the next deal)
// declares Info.SeatAction, the referee's move that adds a seat. The
// referee makes it in the name of the new seat (Move.Seat is the number of
// players before it, so the new seat is the last one), with no arguments;
// the State then has one player more, and its event announces the newcomer
// ("{3} sits down at the table"). SeatAction is one of Info.RefereeActions,
// so no phone may send it. A game that declares none takes nobody once it
// has started; none takes more than Info.MaxPlayers.

// LateJoin reports whether the game takes a new player while it is played
// (it declares a SeatAction).
func (in Info) LateJoin() bool { return in.SeatAction != "" }

// IsSeatMove reports whether m is the game's move that adds a seat.
func (in Info) IsSeatMove(m Move) bool { return in.SeatAction != "" && m.Action == in.SeatAction }

// Hearing is what a game listens for at the table, when the referee has a
// microphone.
type Hearing struct {
	// Gestures: the game is played with codes of table bangs and hand
	// claps, which the referee hears and turns into CodeAction moves.
	Gestures bool `json:"gestures,omitempty"`
	// CodeAction is the move a heard code becomes: CodeAction with the
	// code's bangs and claps as its two arguments, made in the name of the
	// seat that may make it now. The game's State may check a code before
	// it is used (CodeChecker).
	CodeAction string `json:"code_action,omitempty"`
	// Voices: the referee follows the table's voices (who is still
	// talking, pauses, shouts) and shows them beside the game.
	Voices bool `json:"voices,omitempty"`
	// WithoutMic says what the game loses when the referee does not listen,
	// after "the referee is not listening: " ("the trainer enters each code
	// on the phone").
	WithoutMic string `json:"without_mic,omitempty"`
}

// Listens reports whether the game listens for anything.
func (h Hearing) Listens() bool { return h.Gestures || h.Voices }

// CodeChecker is implemented by the State of a game whose heard codes can
// be checked against the table before they are used: CheckCode says why a
// code of bangs and claps fits nothing on the table now (it is more likely
// misheard than miscounted), or nil.
type CodeChecker interface {
	CheckCode(bangs, claps int) error
}

// The sounds the referee rings for an event (Info.Sounds).
const (
	SoundBuzzer = "buzzer" // something went wrong: a wrong code, a wrong guess
	SoundChime  = "chime"  // something to act on: a right guess, a new turn
	SoundAlarm  = "alarm"  // time is up
)

// How the referee says an event out loud (Info.Spoken). Any other value is
// a fixed phrase said before the event's first clause ("Wrong code! ").
const (
	SayAll    = "all"    // its first sentence
	SayClause = "clause" // its first sentence up to a colon or semicolon
	// SaySitsDown: its first sentence, only when a player sits down in it.
	SaySitsDown = "sits"
	// SayIfWon: its first sentence, only when it ends the game with a win
	// (an event that usually passes in silence).
	SayIfWon = "fatal"
)

// Opener is implemented by the State of a game whose setting up is news at
// the table (Angry Troll: the first card, the troll's die, the first
// awakening). Opening is what happened in Game.New, in the words Apply's
// events use, and the same for every call; the referee announces it before
// the first move.
type Opener interface {
	Opening() []Event
}
