package minefield

import "github.com/tableref/tableref/rules/game"

// What a square shows a viewer (View.Board[i].Tile).
const (
	TileDown      = "down"       // face down, contents unknown to the viewer
	TileClear     = "clear"      // face up, no mine
	TileSpent     = "spent"      // face up, an exploded mine: safe to cross
	TileArmed     = "armed"      // face down, a mine a ghost re-armed in front of everyone
	TileSeenMine  = "seen-mine"  // face down, the viewer has looked: a mine
	TileSeenClear = "seen-clear" // face down, the viewer has looked: clear
)

// know is a square as one viewer knows it.
type know uint8

const (
	kDown know = iota
	kClear
	kSpent
	kArmed
	kSeenMine
	kSeenClear
)

var knowNames = [...]string{TileDown, TileClear, TileSpent, TileArmed, TileSeenMine, TileSeenClear}

// knowledge is the board as seat knows it (game.Table: as everyone knows
// it). It is all View shows of the tiles, and all the bot reads of them.
func (s *State) knowledge(seat int) [cells]know {
	var k [cells]know
	for i, tl := range s.board {
		switch {
		case tl.Up && tl.Mine:
			k[i] = kSpent
		case tl.Up:
			k[i] = kClear
		case s.public&(1<<uint(tl.ID)) != 0:
			k[i] = kArmed
		case s.g.leakLayout || (seat >= 0 && s.seen[seat]&(1<<uint(tl.ID)) != 0) || (s.g.leakLooks && s.seenByAnyone(tl.ID)) || (s.g.leakShared && s.lookers(tl.ID) > 1):
			if tl.Mine {
				k[i] = kSeenMine
			} else {
				k[i] = kSeenClear
			}
		default:
			k[i] = kDown
		}
	}
	return k
}

func (s *State) lookers(id int8) int {
	n := 0
	for seat := 0; seat < s.players; seat++ {
		if s.seen[seat]&(1<<uint(id)) != 0 {
			n++
		}
	}
	return n
}

func (s *State) seenByAnyone(id int8) bool {
	for seat := 0; seat < s.players; seat++ {
		if s.seen[seat]&(1<<uint(id)) != 0 {
			return true
		}
	}
	return false
}

// View is what one seat (or the table) sees.
type View struct {
	Seat    int      `json:"seat"` // the viewer; -1 for the table
	Players int      `json:"players"`
	Board   []Square `json:"board"` // a1, b1 .. e1, a2 .. e5
	Tokens  []Token  `json:"tokens"`
	// LostTurn marks seats that will sit out their next turn.
	LostTurn []bool `json:"lost_turn"`
	Round    int    `json:"round"`
	Rounds   int    `json:"rounds,omitempty"` // the round limit, if any

	Turn      int    `json:"turn"`            // the seat to act, -1 when over
	Phase     string `json:"phase"`           // choose, move, ghost, push, over
	Piece     string `json:"piece,omitempty"` // the acting token's square
	Start     string `json:"start,omitempty"` // where it began the turn
	Mode      string `json:"mode,omitempty"`  // cautious or fast, once chosen
	StepsLeft int    `json:"steps_left,omitempty"`
	Stepped   bool   `json:"stepped,omitempty"`
	Looked    bool   `json:"looked,omitempty"`
	Shoved    bool   `json:"shoved,omitempty"`

	Crossing     bool   `json:"crossing,omitempty"`
	SwapOccupied bool   `json:"swap_occupied,omitempty"`
	FastMove     string `json:"fast_move"`
	Dash         string `json:"dash"`   // free or no-revisit
	Shoves       string `json:"shoves"` // one or any (each token once)
	Pair         string `json:"pair,omitempty"`
	// Trail is where the acting token has stood this turn, in the order of
	// the board (dash=no-revisit forbids stepping back onto them mid-dash).
	Trail []string `json:"trail,omitempty"`
	// Acted lists, with pair=both, the pieces of the seat to play that have
	// acted this turn: token squares, and "ghost".
	Acted []string `json:"acted,omitempty"`

	Over    bool        `json:"over,omitempty"`
	Result  game.Result `json:"result,omitzero"`
	Summary string      `json:"summary"`
}

// Square is one tile as the viewer knows it, and who stands on it.
type Square struct {
	Square string `json:"sq"`
	Tile   string `json:"tile"`            // one of the Tile constants
	Token  *int   `json:"token,omitempty"` // the seat whose token stands here
}

// Token is a player's piece: alive on a square, or a ghost.
type Token struct {
	Seat   int    `json:"seat"`
	Square string `json:"sq,omitempty"`
	Alive  bool   `json:"alive"`
	Ghost  bool   `json:"ghost,omitempty"`
}

// View shows the board as seat knows it: face-up tiles, re-armed mines, and
// the tiles this seat has looked under (others' looks stay hidden).
func (s *State) View(seat int) any {
	seat = game.ViewSeat(seat, s.players)
	k := s.knowledge(seat)
	v := View{
		Seat: seat, Players: s.players, Round: s.round, Rounds: s.rounds,
		Turn: s.turn, Phase: phaseNames[s.phase], Mode: modeNames[s.mode], StepsLeft: s.left,
		Stepped: s.stepped, Looked: s.looked, Shoved: s.shoved,
		Crossing: s.crossing, SwapOccupied: s.swapOcc, FastMove: FastExact,
		Board: make([]Square, cells), LostTurn: make([]bool, s.players),
	}
	if s.upTo {
		v.FastMove = FastUpTo
	}
	v.Dash, v.Shoves = DashFree, ShovesOne
	if s.noRevisit {
		v.Dash = DashNoRevisit
	}
	if s.anyShoves {
		v.Shoves = ShovesAny
	}
	if s.players == 2 {
		v.Pair = PairOne
		if s.pairBoth {
			v.Pair = PairBoth
		}
	}
	if s.phase == phMove && s.noRevisit {
		for i := 0; i < cells; i++ {
			if s.trail&(1<<uint(i)) != 0 {
				v.Trail = append(v.Trail, sq(i))
			}
		}
	}
	for t := 0; t < s.ntok; t++ {
		if s.acted&(1<<uint(t)) != 0 && s.tokens[t].Alive {
			v.Acted = append(v.Acted, sq(int(s.tokens[t].Pos)))
		}
	}
	if s.acted&ghostBit != 0 {
		v.Acted = append(v.Acted, "ghost")
	}
	copy(v.LostTurn, s.lost[:s.players])
	for i := range v.Board {
		v.Board[i] = Square{Square: sq(i), Tile: knowNames[k[i]]}
	}
	for t := 0; t < s.ntok; t++ {
		tk := s.tokens[t]
		tv := Token{Seat: int(tk.Seat), Alive: tk.Alive, Ghost: tk.Ghost}
		if tk.Alive {
			tv.Square = sq(int(tk.Pos))
			seatOf := int(tk.Seat)
			v.Board[tk.Pos].Token = &seatOf
		}
		v.Tokens = append(v.Tokens, tv)
	}
	if s.phase == phMove {
		v.Piece, v.Start = sq(int(s.tokens[s.cur].Pos)), sq(s.start)
	}
	if s.over {
		v.Turn, v.Over, v.Result = -1, true, s.Result()
		v.Summary = v.Result.Text
	} else {
		v.Summary = game.Seat(s.turn) + " to play"
	}
	return v
}
