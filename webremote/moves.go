package webremote

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gofiber/fiber/v2"

	"github.com/tableref/tableref/referee"
	"github.com/tableref/tableref/rules/game"
)

// A player's move: read from text or JSON, judged against the seat's turn
// and the seq it last saw, applied, journalled and answered; and undone
// when it cannot be saved.

// moveRequest is the body of a move (HTTP) or a move frame (websocket).
type moveRequest struct {
	Move json.RawMessage `json:"move"`
	Seq  *int            `json:"seq"`
	ID   string          `json:"id"`
}

// parseMove reads a move for seat: text "ACTION ARG..." (a leading seat
// number is allowed and must be the token's) or {"action","args","seat"}.
func parseMove(raw json.RawMessage, seat int) (game.Move, *apiError) {
	raw = json.RawMessage(strings.TrimSpace(string(raw)))
	if len(raw) == 0 || string(raw) == "null" {
		return game.Move{}, fail(fiber.StatusBadRequest, `no move: send {"move":"ACTION ARG..."}`)
	}
	var mv game.Move
	claimed, named := 0, false
	switch raw[0] {
	case '"':
		var text string
		if err := json.Unmarshal(raw, &text); err != nil {
			return game.Move{}, fail(fiber.StatusBadRequest, "malformed move: "+err.Error())
		}
		f := strings.Fields(text)
		if len(f) > 0 {
			if n, ok := seatNumber(f[0]); ok {
				claimed, named, f = n, true, f[1:]
			}
		}
		if len(f) == 0 {
			return game.Move{}, fail(fiber.StatusBadRequest, fmt.Sprintf("move %q: want an action and its arguments, like \"play broom\"", excerpt(text)))
		}
		mv = game.Move{Action: f[0], Args: f[1:]}
	case '{':
		var obj struct {
			Seat   *int     `json:"seat"`
			Action string   `json:"action"`
			Args   []string `json:"args"`
		}
		if err := json.Unmarshal(raw, &obj); err != nil {
			return game.Move{}, fail(fiber.StatusBadRequest, "malformed move: "+err.Error())
		}
		if obj.Seat != nil {
			claimed, named = *obj.Seat, true
		}
		action := strings.TrimSpace(obj.Action)
		if action == "" || strings.ContainsFunc(action, isSpace) {
			return game.Move{}, fail(fiber.StatusBadRequest, `move: "action" must be one word, like "play"`)
		}
		for _, a := range obj.Args {
			if a == "" || strings.ContainsFunc(a, isSpace) {
				return game.Move{}, fail(fiber.StatusBadRequest, fmt.Sprintf("move: argument %q must be one word", excerpt(a)))
			}
		}
		mv = game.Move{Action: action, Args: obj.Args}
	default:
		return game.Move{}, fail(fiber.StatusBadRequest, `malformed move: "move" must be text or {"action":…,"args":[…]}`)
	}
	if len(mv.Args) == 0 {
		mv.Args = nil
	}
	if named && claimed != seat {
		return game.Move{}, fail(fiber.StatusForbidden, fmt.Sprintf("not your seat: the move names seat %d, you are seat %d", claimed, seat))
	}
	mv.Seat = seat
	return mv, nil
}

func seatNumber(s string) (int, bool) {
	n := 0
	if s == "" || len(s) > 3 {
		return 0, false
	}
	for _, ch := range s {
		if ch < '0' || ch > '9' {
			return 0, false
		}
		n = n*10 + int(ch-'0')
	}
	return n, true
}

func isSpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\v' || r == '\f'
}

// move judges a move from tok. The answer's events are those its seat may
// see.
func (r *room) move(tok string, req moveRequest) (answer, *apiError) {
	if len(req.ID) > maxMoveID {
		return answer{}, fail(fiber.StatusBadRequest, fmt.Sprintf("move id over %d bytes", maxMoveID))
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	w, err := r.whoLocked(tok)
	if err != nil {
		return answer{}, err
	}
	if w.host {
		return answer{}, fail(fiber.StatusForbidden, "the host cannot move: moves come from the players' phones")
	}
	mv, err := parseMove(req.Move, w.seat)
	if err != nil {
		return answer{}, err
	}
	p := r.seats[w.seat]
	if req.ID != "" {
		if a, ok := p.ids[req.ID]; ok {
			return a, nil
		}
	}
	if slices.Contains(r.info.RefereeActions, mv.Action) {
		return answer{}, fail(fiber.StatusForbidden, fmt.Sprintf("%q is the referee's move (its clock makes it), not a player's", excerpt(mv.Action)))
	}
	switch r.status {
	case statusLobby:
		return answer{}, fail(fiber.StatusConflict, "the game has not started: wait for the host")
	case statusPaused:
		return answer{}, fail(fiber.StatusConflict, "the game is paused: wait for the host")
	case statusOver:
		return answer{}, fail(fiber.StatusConflict, "the game is over")
	}
	stale := false
	if cur := r.match.Seq(); req.Seq != nil && *req.Seq != cur {
		if why := r.staleLocked(w.seat, *req.Seq, cur); why != "" {
			return answer{}, fail(fiber.StatusConflict, why)
		}
		stale = true
	}
	seq, evs, aerr := r.match.Apply(mv)
	if aerr != nil {
		var refused *game.RefusedError
		switch {
		case stale:
			// Legal when the phone looked, but the game has moved on.
			return answer{}, fail(fiber.StatusConflict, fmt.Sprintf("stale: the game moved on since seq %d (it is at %d) and this move no longer stands: %s", *req.Seq, r.match.Seq(), aerr.Error()))
		case errors.Is(aerr, referee.ErrNotYourTurn):
			return answer{}, fail(fiber.StatusForbidden, aerr.Error())
		case errors.Is(aerr, referee.ErrNoSeat):
			return answer{}, fail(fiber.StatusForbidden, aerr.Error())
		case errors.As(aerr, &refused), errors.Is(aerr, game.ErrOver):
			return answer{}, fail(fiber.StatusConflict, aerr.Error())
		default:
			return answer{}, fail(fiber.StatusConflict, aerr.Error())
		}
	}
	a := answer{seq: seq, events: []referee.Logged{}}
	for _, e := range evs {
		if e.For(w.seat) {
			a.events = append(a.events, e)
		}
	}
	if err := r.persistMoveLocked(mv, req.ID, seq); err != nil {
		r.undoLastMoveLocked()
		return answer{}, err
	}
	if req.ID != "" {
		p.remember(req.ID, a)
	}
	if r.match.Over() {
		r.status = statusOver
	}
	if r.status == statusOver {
		r.s.logf("room %s: the game is over", r.code)
	}
	r.broadcastLocked(nil)
	r.s.notify(r.code, evs)
	return a, nil
}

// staleLocked judges a move sent at seq since while the game is at cur
// (since != cur): "" when it may still be tried, else why it is refused.
//
// The seq a phone sends is the one it last saw. Where several seats may act
// at once (Woodlouse guesses, Celestial's secret picks, the dealer), moves of
// other seats land between a phone's look and its move; such a move counts
// in the order it arrives, provided its seat has not moved since it looked
// (so the phone did not act twice on one view) and the rules still accept it
// now (Apply judges it). A seq from the future (a phone of a previous game,
// after a restart) or from before the seat's own last move is refused.
func (r *room) staleLocked(seat, since, cur int) string {
	if since < 0 || since > cur {
		return fmt.Sprintf("stale: the game is at seq %d, not %d; look again and resend", cur, since)
	}
	moves := r.match.Moves()
	for i := len(moves) - 1; i >= since; i-- {
		if moves[i].Seat == seat {
			return fmt.Sprintf("stale: a move of your seat (seq %d) landed after the view this one was made on (seq %d); look again and resend", i+1, since)
		}
	}
	return ""
}

// undoLastMoveLocked takes back the last accepted move (it could not be
// saved): the match is replayed without it.
func (r *room) undoLastMoveLocked() {
	moves := r.match.Moves()
	m, err := referee.Replay(r.g, r.match.Config(), r.match.Names(), moves[:len(moves)-1])
	if err != nil { // cannot happen: those moves were all accepted
		r.s.logf("room %s: cannot take back a move: %v", r.code, err)
		return
	}
	r.match = m
	if r.status == statusOver {
		r.status = statusPlaying
	}
}
