package minefield

import (
	"github.com/tableref/tableref/rules/game"
)

// Bot is the game's own player, for the simulator.
func (gameImpl) Bot() game.Bot { return game.BotFunc(choose) }

// brain is what one seat knows: the board through knowledge(seat) and the
// public positions of the tokens. The bot reads nothing else of the tiles.
type brain struct {
	s     *State
	seat  int
	k     [cells]know
	risk  [cells]float64 // chance that stepping here blows you up
	occ   [cells]int8    // seat of the living token here, or -1
	opps  []int          // squares of living opponents
	ghost bool           // some opponent has a ghost that could re-arm a spent mine
	late  float64        // 0 early, rising to 1 as the rounds go by: more daring
}

func newBrain(s *State, seat int) *brain {
	b := &brain{s: s, seat: seat, k: s.knowledge(seat)}
	for i := range b.occ {
		b.occ[i] = -1
	}
	for t := 0; t < s.ntok; t++ {
		tk := s.tokens[t]
		if tk.Alive {
			b.occ[tk.Pos] = tk.Seat
			if int(tk.Seat) != seat {
				b.opps = append(b.opps, int(tk.Pos))
			}
		} else if tk.Ghost && int(tk.Seat) != seat {
			b.ghost = true
		}
	}
	live, down := mines, 0
	for _, k := range b.k {
		switch k {
		case kSpent, kArmed, kSeenMine:
			live--
		case kDown:
			down++
		}
	}
	q := 0.0
	if down > 0 && live > 0 {
		q = float64(live) / float64(down)
	}
	for i, k := range b.k {
		switch k {
		case kArmed, kSeenMine:
			b.risk[i] = 1
		case kDown:
			b.risk[i] = q
		}
	}
	if s.round > 20 {
		b.late = float64(s.round-20) / 30
		if b.late > 1 {
			b.late = 1
		}
	}
	return b
}

// pushRisk is the chance that a token on from dies if pushed in direction d.
func (b *brain) pushRisk(from, d int) float64 {
	safe, p := 1.0, from
	for n := 0; n < 2; n++ {
		q := nb[p][d]
		if q < 0 || b.occ[q] >= 0 {
			break
		}
		safe *= 1 - b.risk[q]
		p = q
	}
	return 1 - safe
}

// attackDist is, for every square, the number of safe steps to the nearest
// square from which an opponent can be shoved somewhere dangerous (99:
// none reachable). me is the moving token's square, counted as free.
func (b *brain) attackDist(me int) [cells]int {
	var dist [cells]int
	var queue [cells]int
	head, tail := 0, 0
	for i := range dist {
		dist[i] = 99
	}
	for _, o := range b.opps {
		for d := 0; d < 4; d++ {
			if b.pushRisk(o, d) < 0.15 {
				continue
			}
			a := nb[o][opposite(d)]
			if a < 0 || (b.occ[a] >= 0 && a != me) || !b.passable(a) || dist[a] == 0 {
				continue
			}
			dist[a] = 0
			queue[tail] = a
			tail++
		}
	}
	for head < tail {
		x := queue[head]
		head++
		for _, y := range nb[x] {
			if y >= 0 && dist[y] == 99 && (b.occ[y] < 0 || y == me) && b.passable(y) {
				dist[y] = dist[x] + 1
				queue[tail] = y
				tail++
			}
		}
	}
	return dist
}

// passable: safe to walk on (late in the game, unknown tiles will do).
func (b *brain) passable(i int) bool {
	return b.risk[i] == 0 || (b.late >= 1 && b.risk[i] < 1)
}

// threat is how badly an opponent next to x could shove a token standing there.
func (b *brain) threat(x, me int) float64 {
	worst := 0.0
	saved := b.occ[me]
	b.occ[me] = -1
	for d, o := range nb[x] {
		if o >= 0 && o != me && b.occ[o] >= 0 && int(b.occ[o]) != b.seat {
			if r := b.pushRisk(x, opposite(d)); r > worst {
				worst = r
			}
		}
	}
	b.occ[me] = saved
	return worst
}

// score rates a square for the moving token (higher is better).
func (b *brain) score(x, me int, dist *[cells]int, r *game.Rand) float64 {
	v := 0.0
	switch {
	case b.k[x] == kArmed || b.k[x] == kSeenMine:
		v -= 1000
	case b.k[x] == kDown:
		v -= 60 * b.risk[x] * (1 - 0.8*b.late)
	case b.k[x] == kSpent && b.ghost:
		v -= 8
	}
	if dist[x] < 99 {
		v -= 3 * float64(dist[x])
	} else {
		best := 99
		for _, o := range b.opps {
			if m := manhattan(x, o); m < best {
				best = m
			}
		}
		v -= 12 + 2*float64(best)
	}
	v -= 15 * b.threat(x, me) * (1 - 0.5*b.late)
	for _, y := range nb[x] {
		if y >= 0 && b.k[y] == kDown {
			v += 0.5
		}
	}
	return v + float64(r.IntN(100))/200
}

func manhattan(a, b int) int {
	dr, dc := a/size-b/size, a%size-b%size
	if dr < 0 {
		dr = -dr
	}
	if dc < 0 {
		dc = -dc
	}
	return dr + dc
}

func choose(gs game.State, seat int, r *game.Rand) game.Move {
	s := gs.(*State)
	b := newBrain(s, seat)
	var m game.Move
	ok := false
	// A long stand-off on the safe cross: more and more often, act on a
	// whim (never walking onto a mine known to be there).
	if s.round > 40 && r.IntN(100) < min(60, s.round-40) {
		var whims []game.Move
		for _, m := range s.Legal(seat) {
			if b.foolish(m) {
				continue
			}
			whims = append(whims, m)
		}
		if len(whims) > 0 {
			return whims[r.IntN(len(whims))]
		}
	}
	switch s.phase {
	case phChoose:
		m, ok = b.choosePiece(r)
	case phMove:
		m, ok = b.move(r)
	case phGhost:
		m, ok = b.haunt(r)
	case phPush:
		m, ok = b.push(r)
	}
	if ok {
		return m
	}
	legal := s.Legal(seat)
	return legal[r.IntN(len(legal))]
}

// bestShove is the most dangerous shove the token on p can make now.
func (b *brain) bestShove(p int) (target int, risk float64) {
	target = -1
	for d, q := range nb[p] {
		if q < 0 || b.occ[q] < 0 || int(b.occ[q]) == b.seat || b.s.pushLen(q, d) == 0 {
			continue
		}
		if b.s.phase == phMove {
			if v, _, _ := b.s.shoveOK(q); v < 0 {
				continue // shoved at already this turn
			}
		}
		if rk := b.pushRisk(q, d); rk > risk {
			target, risk = q, rk
		}
	}
	return target, risk
}

func (b *brain) move(r *game.Rand) (game.Move, bool) {
	s := b.s
	p := int(s.tokens[s.cur].Pos)
	if s.canShoveSomeone() {
		if q, rk := b.bestShove(p); q >= 0 && rk > 0.05 {
			return game.M(b.seat, "shove", sq(q)), true
		}
	}
	dist := b.attackDist(p)
	canMove := (s.mode != modeFast && !s.stepped) || (s.mode == modeFast && s.left > 0)
	if s.mode == modeNone && s.canStep() && dist[p] >= 3 && dist[p] < 99 && r.IntN(2) == 0 {
		return game.M(b.seat, "fast"), true
	}
	if lt := s.lookTargets(); lt != 0 && (!canMove || b.downNext(p)) {
		// Look under the unknown tile nearest an opponent.
		best, bestV := -1, 1e9
		for i := 0; i < cells; i++ {
			if lt&(1<<uint(i)) == 0 {
				continue
			}
			v := float64(r.IntN(10)) / 10
			for _, o := range b.opps {
				v += float64(manhattan(i, o))
			}
			if v < bestV {
				best, bestV = i, v
			}
		}
		return game.M(b.seat, "look", sq(best)), true
	}
	if canMove {
		best, bestV := -1, -1e9
		for _, q := range nb[p] {
			if s.free(q) {
				if v := b.score(q, p, &dist, r); v > bestV {
					best, bestV = q, v
				}
			}
		}
		if best >= 0 {
			if s.mode == modeFast && s.upTo && s.canEnd() && b.score(p, p, &dist, r) >= bestV {
				return game.M(b.seat, "end"), true
			}
			return game.M(b.seat, "step", sq(best)), true
		}
	}
	if s.canEnd() {
		return game.M(b.seat, "end"), true
	}
	return game.Move{}, false
}

// downNext reports whether a face-down tile this seat has not looked under
// lies next to p.
func (b *brain) downNext(p int) bool {
	for _, q := range nb[p] {
		if q >= 0 && b.k[q] == kDown {
			return true
		}
	}
	return false
}

// ghostKill finds a ghost move that blows up an opponent for certain.
func (b *brain) ghostKill(r *game.Rand) (game.Move, bool) {
	n := len(b.opps)
	if n == 0 {
		return game.Move{}, false
	}
	first := r.IntN(n)
	for j := 0; j < n; j++ {
		if o := b.opps[(first+j)%n]; b.k[o] == kSpent {
			return game.M(b.seat, "rearm", sq(o)), true
		}
	}
	if b.s.swapOcc {
		for i, k := range b.k {
			if (k == kArmed || k == kSeenMine) && b.occ[i] < 0 {
				return game.M(b.seat, "swap", sq(i), sq(b.opps[first])), true
			}
		}
	}
	return game.Move{}, false
}

func (b *brain) haunt(r *game.Rand) (game.Move, bool) {
	if m, ok := b.ghostKill(r); ok {
		return m, true
	}
	roll := r.IntN(100)
	if roll < 25 {
		// Peek under an unknown tile near an opponent.
		best, bestV := -1, 1e9
		for i, k := range b.k {
			if k != kDown {
				continue
			}
			v := float64(r.IntN(10)) / 10
			for _, o := range b.opps {
				v += float64(manhattan(i, o))
			}
			if v < bestV {
				best, bestV = i, v
			}
		}
		if best >= 0 {
			return game.M(b.seat, "peek", sq(best)), true
		}
	}
	if roll < 55 {
		// Slide a known mine next to an opponent.
		mine := -1
		for i, k := range b.k {
			if (k == kArmed || k == kSeenMine) && b.occ[i] < 0 {
				if mine < 0 || r.IntN(2) == 0 {
					mine = i
				}
			}
		}
		if mine >= 0 && len(b.opps) > 0 {
			first := r.IntN(len(b.opps))
			for j := range b.opps {
				o := b.opps[(first+j)%len(b.opps)]
				for _, y := range nb[o] {
					if y >= 0 && y != mine && b.occ[y] < 0 && b.risk[y] == 0 && !adjacent(mine, o) {
						return game.M(b.seat, "swap", sq(mine), sq(y)), true
					}
				}
			}
		}
	}
	return game.M(b.seat, "haunt"), true
}

func (b *brain) push(r *game.Rand) (game.Move, bool) {
	best, bestD, bestV := -1, -1, -1.0
	for _, o := range b.opps {
		for d := 0; d < 4; d++ {
			if b.s.pushLen(o, d) == 0 {
				continue
			}
			if v := b.pushRisk(o, d) + float64(r.IntN(10))/1000; v > bestV {
				best, bestD, bestV = o, d, v
			}
		}
	}
	if best < 0 {
		return game.Move{}, false
	}
	return game.M(b.seat, "push", sq(best), dirNames[bestD]), true
}

func (b *brain) choosePiece(r *game.Rand) (game.Move, bool) {
	s := b.s
	hasGhost := s.mayUseGhost()
	if hasGhost {
		if _, ok := b.ghostKill(r); ok {
			return game.M(b.seat, "use", "ghost"), true
		}
	}
	best, bestV := -1, 1e9
	for t := 0; t < s.ntok; t++ {
		tk := s.tokens[t]
		if !s.mayUse(t) {
			continue
		}
		p := int(tk.Pos)
		if _, rk := b.bestShove(p); rk > 0.05 {
			return game.M(b.seat, "use", sq(p)), true
		}
		dist := b.attackDist(p)
		v := float64(dist[p]) + float64(r.IntN(10))/10
		if v < bestV {
			best, bestV = p, v
		}
	}
	if hasGhost && (best < 0 || r.IntN(4) == 0) {
		return game.M(b.seat, "use", "ghost"), true
	}
	if best >= 0 {
		return game.M(b.seat, "use", sq(best)), true
	}
	return game.Move{}, false
}

func firstArg(m game.Move) string {
	if len(m.Args) == 0 {
		return ""
	}
	return m.Args[0]
}

// foolish: walking onto a known mine, or a ghost blowing up its own team.
func (b *brain) foolish(m game.Move) bool {
	for i, a := range m.Args {
		q, ok := parseSq(a)
		if !ok {
			continue
		}
		switch {
		case m.Action == "step" && b.risk[q] == 1:
			return true
		case m.Action == "rearm" && int(b.occ[q]) == b.seat:
			return true
		case m.Action == "swap" && int(b.occ[q]) == b.seat:
			other, _ := parseSq(m.Args[1-i])
			if b.risk[other] > 0 {
				return true
			}
		}
	}
	return false
}
