package minefield

import (
	"github.com/tableref/tableref/rules/game"
)

// canStep reports whether the acting token has a free square next to it.
func (s *State) canStep() bool {
	p := int(s.tokens[s.cur].Pos)
	for _, q := range nb[p] {
		if s.free(q) {
			return true
		}
	}
	return false
}

// free reports whether the acting token may step onto square q now: on the
// board, nobody on it, and (dash=no-revisit, mid-dash) not a square it has
// stood on this turn.
func (s *State) free(q int) bool {
	if q < 0 || s.tokenAt(q) >= 0 {
		return false
	}
	return !(s.noRevisit && s.mode == modeFast && s.trail&(1<<uint(q)) != 0)
}

// shoveOK reports whether the acting token may shove the token on square
// v now: an adjacent opponent, with room to be pushed or not.
func (s *State) shoveOK(v int) (victim, dir int, why string) {
	if s.shoved && !s.anyShoves {
		return -1, -1, "you have already shoved someone this turn"
	}
	p := int(s.tokens[s.cur].Pos)
	t := s.tokenAt(v)
	if t < 0 {
		return -1, -1, "nobody stands on " + sq(v)
	}
	if int(s.tokens[t].Seat) == s.turn {
		return -1, -1, "you cannot shove your own token"
	}
	if s.targets&(1<<uint(t)) != 0 {
		return -1, -1, "you have already shoved at " + s.who(t) + " this turn"
	}
	d := dirFrom(p, v)
	if d < 0 {
		return -1, -1, "you can only shove someone right next to you (not diagonally)"
	}
	// A victim with no room behind (the edge, another token) may still be
	// shoved: the rule moves them only as far as they can go, here 0 tiles.
	return t, d, ""
}

// lookOK reports whether the acting token may look under square i now.
func (s *State) lookOK(i int) string {
	switch {
	case s.mode == modeFast:
		return "a fast move leaves no time to look under tiles"
	case s.looked:
		return "you have already looked under a tile this turn"
	}
	p := int(s.tokens[s.cur].Pos)
	if !adjacent(p, i) && !(s.stepped && adjacent(s.start, i)) {
		return "you can only look under a tile next to where you started or where you stand"
	}
	if s.board[i].Up {
		return sq(i) + " is already face up"
	}
	return ""
}

// lookTargets are the tiles Legal offers to look under: face-down ones the
// seat does not know yet.
func (s *State) lookTargets() uint32 {
	var m uint32
	if s.mode == modeFast || s.looked {
		return 0
	}
	add := func(from int) {
		for _, q := range nb[from] {
			if q >= 0 && !s.board[q].Up && !s.known(s.turn, q) {
				m |= 1 << uint(q)
			}
		}
	}
	add(int(s.tokens[s.cur].Pos))
	if s.stepped {
		add(s.start)
	}
	return m
}

func (s *State) canShoveSomeone() bool {
	if s.shoved && !s.anyShoves {
		return false
	}
	for _, q := range nb[s.tokens[s.cur].Pos] {
		if q >= 0 {
			if v, _, _ := s.shoveOK(q); v >= 0 {
				return true
			}
		}
	}
	return false
}

// canEnd reports whether the acting token has moved as it must (or cannot).
func (s *State) canEnd() bool {
	switch s.mode {
	case modeCautious:
		return s.stepped || !s.canStep()
	case modeFast:
		return s.left == 0 || s.upTo || !s.canStep()
	}
	return !s.canStep()
}

// moreToDo reports whether the acting token's turn goes on by itself.
func (s *State) moreToDo() bool {
	switch s.mode {
	case modeCautious:
		if !s.stepped && s.canStep() {
			return true
		}
		if s.lookTargets() != 0 {
			return true
		}
	case modeFast:
		if s.left > 0 {
			return true
		}
	default:
		return true
	}
	return s.canShoveSomeone()
}

// Legal lists the seat's moves.
func (s *State) Legal(seat int) []game.Move {
	if s.over || seat != s.turn {
		return nil
	}
	var ms []game.Move
	switch s.phase {
	case phChoose:
		for t := 0; t < s.ntok; t++ {
			if s.mayUse(t) {
				ms = append(ms, game.M(seat, "use", sq(int(s.tokens[t].Pos))))
			}
		}
		if s.mayUseGhost() {
			ms = append(ms, game.M(seat, "use", "ghost"))
		}
	case phMove:
		p := int(s.tokens[s.cur].Pos)
		if !s.shoved || s.anyShoves {
			for _, q := range nb[p] {
				if q >= 0 {
					if v, _, _ := s.shoveOK(q); v >= 0 {
						ms = append(ms, game.M(seat, "shove", sq(q)))
					}
				}
			}
		}
		lt := s.lookTargets()
		for i := 0; i < cells; i++ {
			if lt&(1<<uint(i)) != 0 {
				ms = append(ms, game.M(seat, "look", sq(i)))
			}
		}
		if (s.mode != modeFast && !s.stepped) || (s.mode == modeFast && s.left > 0) {
			for _, q := range nb[p] {
				if s.free(q) {
					ms = append(ms, game.M(seat, "step", sq(q)))
				}
			}
		}
		if s.mode == modeNone && s.canStep() {
			ms = append(ms, game.M(seat, "fast"))
		}
		if s.canEnd() {
			ms = append(ms, game.M(seat, "end"))
		}
	case phGhost:
		for i := 0; i < cells; i++ {
			if !s.board[i].Up && !s.known(seat, i) {
				ms = append(ms, game.M(seat, "peek", sq(i)))
			}
		}
		for i := 0; i < cells; i++ {
			if s.board[i].Up && s.board[i].Mine {
				ms = append(ms, game.M(seat, "rearm", sq(i)))
			}
		}
		for a := 0; a < cells; a++ {
			for b := a + 1; b < cells; b++ {
				if s.swapOK(a, b) == "" && !s.sameFace(a, b) {
					ms = append(ms, game.M(seat, "swap", sq(a), sq(b)))
				}
			}
		}
		ms = append(ms, game.M(seat, "haunt"))
	case phPush:
		for t := 0; t < s.ntok; t++ {
			tk := s.tokens[t]
			if tk.Alive && int(tk.Seat) != seat {
				for d := 0; d < 4; d++ {
					// A push with no room is made too: 0 tiles (doc.go, 10).
					ms = append(ms, game.M(seat, "push", sq(int(tk.Pos)), dirNames[d]))
				}
			}
		}
	}
	return ms
}

// sameFace reports whether two tiles are both face up and alike, so that
// swapping them changes nothing anyone can see (Legal leaves those out).
func (s *State) sameFace(a, b int) bool {
	ta, tb := s.board[a], s.board[b]
	return ta.Up && tb.Up && ta.Mine == tb.Mine
}

func (s *State) swapOK(a, b int) string {
	if a == b {
		return "swap two different tiles"
	}
	if !s.swapOcc {
		for _, i := range [2]int{a, b} {
			if t := s.tokenAt(i); t >= 0 {
				return "someone stands on " + sq(i) + ", and this table does not allow swapping occupied tiles"
			}
		}
	}
	return ""
}

// pushOK checks a ghost's push.
func (s *State) pushOK(v, d int) (int, string) {
	t := s.tokenAt(v)
	if t < 0 {
		return -1, "nobody stands on " + sq(v)
	}
	if int(s.tokens[t].Seat) == s.turn {
		return -1, "a ghost cannot push its own team's token"
	}
	// No room to push (the edge, another token) is no reason to refuse:
	// the victim goes as far as they can, here 0 tiles (doc.go, 10).
	return t, ""
}

var actions = map[string]bool{"use": true, "shove": true, "look": true, "step": true, "fast": true, "end": true,
	"peek": true, "rearm": true, "swap": true, "haunt": true, "push": true}

var arity = map[string]int{"use": 1, "shove": 1, "look": 1, "step": 1, "fast": 0, "end": 0,
	"peek": 1, "rearm": 1, "swap": 2, "haunt": 0, "push": 2}

// Apply makes a move.
func (s *State) Apply(m game.Move) ([]game.Event, error) {
	if s.over {
		return nil, game.ErrOver
	}
	if m.Seat < 0 || m.Seat >= s.players {
		return nil, game.Refuse(m, "there is no seat %d at this table", m.Seat)
	}
	if m.Seat != s.turn {
		return nil, game.RefuseTurn(m, "it is %s's turn, not %s's", game.Seat(s.turn), game.Seat(m.Seat))
	}
	if !actions[m.Action] {
		return nil, game.Refuse(m, "%q is not a move in this game (moves: use, step, look, fast, shove, end; ghosts: peek, rearm, swap, haunt, push)", m.Action)
	}
	if n := arity[m.Action]; len(m.Args) != n {
		return nil, game.Refuse(m, "%s takes %d argument(s), not %d", m.Action, n, len(m.Args))
	}
	var sqs [2]int
	for i, a := range m.Args {
		if m.Action == "use" && a == "ghost" {
			sqs[i] = -1
			continue
		}
		if m.Action == "push" && i == 1 {
			d, ok := parseDir(a)
			if !ok {
				return nil, game.Refuse(m, "%q is not a direction (n, e, s or w)", a)
			}
			sqs[i] = d
			continue
		}
		q, ok := parseSq(a)
		if !ok {
			return nil, game.Refuse(m, "%q is not a square (columns a to e, rows 1 to 5, like c3)", a)
		}
		sqs[i] = q
	}
	var l log
	switch s.phase {
	case phChoose:
		if m.Action != "use" {
			return nil, game.Refuse(m, "first say which piece acts: use a token's square, or use ghost")
		}
		if sqs[0] < 0 {
			if !s.hasGhost(m.Seat) {
				return nil, game.Refuse(m, "you have no ghost yet")
			}
			if !s.mayUseGhost() {
				return nil, game.Refuse(m, "your ghost has already acted this turn")
			}
			s.phase = phGhost
			l.add("use", "%s acts as a ghost", game.Seat(m.Seat))
			return l, nil
		}
		t := s.tokenAt(sqs[0])
		if t < 0 || int(s.tokens[t].Seat) != m.Seat {
			return nil, game.Refuse(m, "you have no token on %s", m.Args[0])
		}
		if !s.mayUse(t) {
			return nil, game.Refuse(m, "your token on %s has already moved this turn", m.Args[0])
		}
		s.startToken(t)
		l.add("use", "%s moves the token on %s", game.Seat(m.Seat), sq(sqs[0]))
		return l, nil
	case phMove:
		return s.applyMove(m, sqs)
	case phGhost:
		return s.applyGhost(m, sqs)
	case phPush:
		if m.Action != "push" {
			return nil, game.Refuse(m, "you rolled the 6: push someone (push SQUARE DIRECTION)")
		}
		t, why := s.pushOK(sqs[0], sqs[1])
		if why != "" {
			return nil, game.Refuse(m, "%s", why)
		}
		l.add("push", "the ghost of %s pushes %s %s", game.Seat(m.Seat), s.who(t), dirWords[sqs[1]])
		s.push(t, sqs[1], &l)
		s.pieceDone(&l)
		return l, nil
	}
	return nil, game.Refuse(m, "nobody may move now")
}

func (s *State) applyMove(m game.Move, sqs [2]int) ([]game.Event, error) {
	var l log
	p := int(s.tokens[s.cur].Pos)
	switch m.Action {
	case "shove":
		t, d, why := s.shoveOK(sqs[0])
		if why != "" {
			return nil, game.Refuse(m, "%s", why)
		}
		a, b := s.rng.Die(6), s.rng.Die(6)
		s.shoved = true
		s.targets |= 1 << uint(t)
		if a < b {
			l.add("shove-fails", "%s tries to shove %s but loses the roll, %d against %d", s.who(s.cur), s.who(t), a, b)
			break
		}
		l.add("shove", "%s shoves %s %s, winning the roll %d against %d", s.who(s.cur), s.who(t), dirWords[d], a, b)
		s.push(t, d, &l)
	case "look":
		if why := s.lookOK(sqs[0]); why != "" {
			return nil, game.Refuse(m, "%s", why)
		}
		i := sqs[0]
		s.looked = true
		if s.mode == modeNone {
			s.mode = modeCautious
		}
		s.seen[s.turn] |= 1 << uint(s.board[i].ID)
		l.add("look", "%s sweeps the detector over %s", s.who(s.cur), sq(i))
		if s.board[i].Mine {
			l.to(s.turn, "looked", "your detector beeps: %s hides a mine", sq(i))
		} else {
			l.to(s.turn, "looked", "your detector is silent: %s is clear", sq(i))
		}
	case "step":
		q := sqs[0]
		if s.mode == modeFast && s.left == 0 {
			return nil, game.Refuse(m, "your fast move is used up")
		}
		if s.mode != modeFast && s.stepped {
			return nil, game.Refuse(m, "a cautious move is a single step, and you have taken it")
		}
		if !adjacent(p, q) {
			return nil, game.Refuse(m, "%s is not next to %s (one step north, east, south or west)", sq(q), sq(p))
		}
		if t := s.tokenAt(q); t >= 0 {
			return nil, game.Refuse(m, "%s stands on %s", s.who(t), sq(q))
		}
		if !s.free(q) {
			return nil, game.Refuse(m, "this table plays dashes without doubling back, and you have stood on %s this turn", sq(q))
		}
		who := s.who(s.cur)
		s.tokens[s.cur].Pos = int8(q)
		s.trail |= 1 << uint(q)
		s.hover = false
		if s.mode == modeFast {
			s.left--
			if s.crossing && s.left > 0 && !s.board[q].Up {
				roll := s.rng.Die(6)
				if roll >= 4 {
					s.hover = true
					l.add("cross", "%s dashes onto %s and rolls %d: across without turning it", who, sq(q), roll)
					break
				}
				l.add("cross", "%s dashes onto %s and rolls %d: the tile is turned over", who, sq(q), roll)
			} else {
				l.add("step", "%s dashes to %s (%d to go)", who, sq(q), s.left)
			}
		} else {
			s.mode = modeCautious
			s.stepped = true
			l.add("step", "%s steps carefully to %s", who, sq(q))
		}
		s.land(s.cur, &l)
	case "fast":
		if s.mode == modeFast {
			return nil, game.Refuse(m, "you are already dashing")
		}
		if s.mode != modeNone && !s.stepped {
			// Only a look has been made: it is the look that rules out
			// the dash.
			return nil, game.Refuse(m, "you have looked under a tile, which makes this a cautious move: no dash this turn")
		}
		if s.mode != modeNone {
			return nil, game.Refuse(m, "you have already started a cautious move")
		}
		if !s.canStep() {
			return nil, game.Refuse(m, "there is nowhere to run: every square next to you is taken")
		}
		s.mode = modeFast
		s.left = s.rng.Die(6)
		l.add("fast", "%s makes a dash and rolls %d", s.who(s.cur), s.left)
	case "end":
		if !s.canEnd() {
			if s.mode == modeFast {
				return nil, game.Refuse(m, "you must use all %d steps of your dash", s.left)
			}
			if s.mode == modeCautious {
				// A look has made this a cautious move: a dash is no
				// longer open, so do not offer it.
				return nil, game.Refuse(m, "you must move first: your look makes this a cautious move, so take its one step")
			}
			return nil, game.Refuse(m, "you must move first: step, or dash with fast")
		}
		if s.hover {
			s.hover = false
			if !s.land(s.cur, &l) {
				s.pieceDone(&l)
				return l, nil
			}
		}
		l.add("end", "%s ends the turn", game.Seat(s.turn))
		s.pieceDone(&l)
		return l, nil
	case "use":
		return nil, game.Refuse(m, "you are already moving the token on %s", sq(p))
	default:
		return nil, game.Refuse(m, "a living token cannot %s (that is for ghosts)", m.Action)
	}
	s.settle(&l)
	return l, nil
}

// settle ends the living token's turn when it has been blown up or has
// nothing left to do; a dash that ends on a crossed tile lands on it.
func (s *State) settle(l *log) {
	if s.over {
		return
	}
	if !s.tokens[s.cur].Alive {
		s.pieceDone(l)
		return
	}
	if s.mode == modeFast && s.left > 0 && !s.canStep() {
		s.left = 0
		l.add("boxed", "%s is boxed in and stops", s.who(s.cur))
	}
	if s.hover && s.left == 0 {
		s.hover = false
		if !s.land(s.cur, l) {
			s.pieceDone(l)
			return
		}
	}
	if !s.moreToDo() {
		s.pieceDone(l)
	}
}

func (s *State) applyGhost(m game.Move, sqs [2]int) ([]game.Event, error) {
	var l log
	me := game.Seat(m.Seat)
	switch m.Action {
	case "peek":
		i := sqs[0]
		if s.board[i].Up {
			return nil, game.Refuse(m, "%s is already face up", sq(i))
		}
		s.seen[m.Seat] |= 1 << uint(s.board[i].ID)
		l.add("peek", "the ghost of %s peeks under %s", me, sq(i))
		if s.board[i].Mine {
			l.to(m.Seat, "peeked", "%s hides a mine", sq(i))
		} else {
			l.to(m.Seat, "peeked", "%s is clear", sq(i))
		}
	case "rearm":
		i := sqs[0]
		tl := &s.board[i]
		if !tl.Up || !tl.Mine {
			return nil, game.Refuse(m, "only an exploded mine can be re-armed, and %s is not one", sq(i))
		}
		if t := s.tokenAt(i); t >= 0 {
			l.add("rearm", "the ghost of %s re-arms the mine under %s", me, s.who(t))
			l.add("boom", "BOOM! The mine on %s goes off again and %s is blown up", sq(i), s.who(t))
			s.kill(t, &l)
		} else {
			tl.Up = false
			s.public |= 1 << uint(tl.ID)
			l.add("rearm", "the ghost of %s turns the exploded mine on %s back over: it is live again", me, sq(i))
		}
	case "swap":
		a, b := sqs[0], sqs[1]
		if why := s.swapOK(a, b); why != "" {
			return nil, game.Refuse(m, "%s", why)
		}
		s.board[a], s.board[b] = s.board[b], s.board[a]
		l.add("swap", "the ghost of %s swaps the tiles on %s and %s", me, sq(a), sq(b))
		for _, i := range [2]int{a, b} {
			if t := s.tokenAt(i); t >= 0 && !s.over {
				s.land(t, &l)
			}
		}
	case "haunt":
		roll := s.rng.Die(6)
		if roll < 6 {
			l.add("haunt", "the ghost of %s rolls %d: no 6, no push", me, roll)
			break
		}
		if !s.anyPush() { // not while the game goes on: an opponent stands
			l.add("haunt", "the ghost of %s rolls a 6, but nobody is left to push", me)
			break
		}
		l.add("haunt", "the ghost of %s rolls a 6 and may push anyone", me)
		s.phase = phPush
		return l, nil
	case "use":
		return nil, game.Refuse(m, "you are already acting as a ghost")
	case "push":
		// A ghost does push, but only on a 6 rolled when haunting.
		return nil, game.Refuse(m, "a ghost pushes only after rolling a 6: haunt first")
	default:
		return nil, game.Refuse(m, "a ghost cannot %s (it may peek, rearm, swap or haunt)", m.Action)
	}
	s.pieceDone(&l)
	return l, nil
}

// anyPush reports whether the ghost has someone to push: an opponent's
// token still standing (with room or not).
func (s *State) anyPush() bool {
	for t := 0; t < s.ntok; t++ {
		tk := s.tokens[t]
		if tk.Alive && int(tk.Seat) != s.turn {
			return true
		}
	}
	return false
}
