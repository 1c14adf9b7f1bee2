package celestial

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"github.com/tableref/tableref/rules/game"
)

type phase uint8

const (
	phaseAttack  phase = iota // the attacker names a target
	phasePlay                 // both fighters lay a card face down
	phaseDiscard              // both fighters discard a card face down
	phaseKeep                 // the last fighter standing keeps one card
	phaseOver
)

var phaseNames = [...]string{"attack", "play", "discard", "keep", "over"}

// fight is the last exchange revealed, for the views.
type fight struct {
	attacker, defender int8 // -1: no fight yet
	aCard, dCard       int8
	winner             int8 // -1: a tie
}

// state is one battle. Every field is a value (arrays, no slices or maps), so
// a copy of the struct is a deep copy.
type state struct {
	g     gameImpl
	n     int
	rng   game.Rand
	below bool // final card must be strictly below the tricks

	clan  [4]int8   // clan of each seat
	order [4]int8   // seats in the order of the attack cycle (first n)
	hand  [4]uint64 // cards in hand (not counting one laid face down or discarded this fight)
	trick [4]uint64 // cards in each seat's trick pile, face down, unseen by all
	wins  [4]int    // fights won: one trick each
	extra [4]int    // cards discarded down at the end: one trick each
	out   [4]bool   // down to one card: no longer fights

	discards uint64 // cards of tied exchanges, face up
	phase    phase
	at       int // index in order of the current attacker
	attacker int8
	defender int8
	pick     [2]int8 // cards laid face down by attacker and defender, -1 none
	drop     [2]int8 // cards discarded face down after the exchange, -1 none
	last     fight
	battles  int  // exchanges fought
	keeper   int8 // the seat discarding down at the end, or -1
	winner   int8 // -1 until over
	decided  tieBreak
}

// tieBreak says what decided the winner.
type tieBreak uint8

const (
	byCard   tieBreak = iota // the final card alone
	byTricks                 // equal final cards, more tricks
	byClan                   // equal cards and tricks: the clan later in the cycle
)

func (s *state) tricks(seat int) int { return s.wins[seat] + s.extra[seat] }

func (s *state) who(seat int) string { return whoText[seat][s.clan[seat]] }

// Texts used on every move, written once.
var (
	seatRef     [4]string    // {n}
	whoText     [4][4]string // {n} (Clan), by seat and clan
	turnText    [4][4]string
	laidText    [4]string
	droppedText [4]string
	outText     [4]string
	ownLaidText [52]string
	ownDropText [52]string
)

func init() {
	for seat := range seatRef {
		seatRef[seat] = game.Seat(seat)
		for c := range clanNames {
			whoText[seat][c] = seatRef[seat] + " (" + clanNames[c] + ")"
			turnText[seat][c] = whoText[seat][c] + " attacks next"
		}
		laidText[seat] = seatRef[seat] + " lays a card face down"
		droppedText[seat] = seatRef[seat] + " discards a card face down"
		outText[seat] = seatRef[seat] + " is down to one card, lays it face down and leaves the fight"
	}
	for c := range ownLaidText {
		ownLaidText[c] = "You lay " + cardNames[c] + " face down"
		ownDropText[c] = "You discard " + cardNames[c] + " face down"
	}
}

// startTurn makes the first seat from index i of the cycle that can still
// fight the attacker. The caller has made sure two seats can fight.
func (s *state) startTurn(i int) {
	for k := 0; k < s.n; k++ {
		j := (i + k) % s.n
		if seat := s.order[j]; !s.out[seat] {
			s.at = j
			s.attacker = seat
			s.defender = -1
			s.phase = phaseAttack
			return
		}
	}
}

func (s *state) fighting() int {
	c := 0
	for seat := 0; seat < s.n; seat++ {
		if !s.out[seat] {
			c++
		}
	}
	return c
}

// side is 0 for the attacker, 1 for the defender, -1 for anyone else.
func (s *state) side(seat int) int {
	switch int8(seat) {
	case s.attacker:
		return 0
	case s.defender:
		return 1
	}
	return -1
}

func (s *state) Turn() []int {
	switch s.phase {
	case phaseAttack:
		return []int{int(s.attacker)}
	case phasePlay, phaseDiscard:
		slot := &s.pick
		if s.phase == phaseDiscard {
			slot = &s.drop
		}
		t := make([]int, 0, 2)
		a, d := int(s.attacker), int(s.defender)
		if a > d {
			a, d = d, a
		}
		for _, seat := range [2]int{a, d} {
			if slot[s.side(seat)] < 0 {
				t = append(t, seat)
			}
		}
		return t
	case phaseKeep:
		return []int{int(s.keeper)}
	}
	return nil
}

func (s *state) Legal(seat int) []game.Move {
	if seat < 0 || seat >= s.n {
		return nil
	}
	switch s.phase {
	case phaseAttack:
		if int8(seat) != s.attacker {
			return nil
		}
		var ms []game.Move
		for t := 0; t < s.n; t++ {
			if t != seat && !s.out[t] {
				ms = append(ms, game.M(seat, "attack", strconv.Itoa(t)))
			}
		}
		return ms
	case phasePlay, phaseDiscard:
		side := s.side(seat)
		if side < 0 {
			return nil
		}
		action, slot := "play", s.pick[side]
		if s.phase == phaseDiscard {
			action, slot = "discard", s.drop[side]
		}
		if slot >= 0 {
			return nil
		}
		return cardMoves(seat, action, s.hand[seat])
	case phaseKeep:
		if int8(seat) != s.keeper {
			return nil
		}
		return cardMoves(seat, "keep", s.hand[seat])
	}
	return nil
}

func cardMoves(seat int, action string, m uint64) []game.Move {
	ms := make([]game.Move, 0, count(m))
	for ; m != 0; m &= m - 1 {
		ms = append(ms, game.M(seat, action, cardNames[bits.TrailingZeros64(m)]))
	}
	return ms
}

func (s *state) Apply(m game.Move) ([]game.Event, error) {
	if s.phase == phaseOver {
		return nil, fmt.Errorf("the battle is decided: %w", game.ErrOver)
	}
	if m.Seat < 0 || m.Seat >= s.n {
		return nil, game.Refuse(m, "there is no seat %d in a battle of %d", m.Seat, s.n)
	}
	switch m.Action {
	case "attack":
		return s.attack(m)
	case "play", "discard":
		return s.lay(m)
	case "keep":
		return s.keep(m)
	}
	return nil, game.Refuse(m, "%q is not a move of this game (the moves are attack, play, discard and keep)", m.Action)
}

// notNow explains why action is out of place in the current phase.
func (s *state) notNow(m game.Move) error {
	switch {
	case s.phase == phaseAttack && int8(m.Seat) == s.attacker:
		// The attacker himself: his step now is to name the target.
		return game.Refuse(m, "not now: first name whom you attack (attack SEAT or CLAN); then both of you lay a card")
	case s.phase == phasePlay && s.side(m.Seat) >= 0 && s.pick[s.side(m.Seat)] < 0:
		// A fighter with his card still to lay: that is his step now.
		return game.Refuse(m, "not now: the fighters are laying their cards face down; lay yours first (play CARD)")
	case s.phase == phaseDiscard && s.side(m.Seat) >= 0 && s.drop[s.side(m.Seat)] < 0:
		return game.Refuse(m, "not now: the fighters are discarding after the exchange; discard yours first (discard CARD)")
	case s.phase == phaseKeep && int8(m.Seat) == s.keeper:
		return game.Refuse(m, "not now: the battle is over; keep one card (keep CARD) and the rest become tricks")
	}
	switch s.phase {
	case phaseAttack:
		return game.Refuse(m, "not now: %s is choosing whom to attack", game.Seat(int(s.attacker)))
	case phasePlay:
		return game.Refuse(m, "not now: %s and %s are laying their cards face down", game.Seat(int(s.attacker)), game.Seat(int(s.defender)))
	case phaseDiscard:
		return game.Refuse(m, "not now: %s and %s are discarding after the exchange", game.Seat(int(s.attacker)), game.Seat(int(s.defender)))
	default:
		return game.Refuse(m, "not now: the battle is over and %s is discarding down to one card", game.Seat(int(s.keeper)))
	}
}

// parseTarget reads a seat number or the name of a clan in this battle.
func (s *state) parseTarget(a string) (int, bool) {
	if t, err := strconv.Atoi(a); err == nil {
		return t, t >= 0 && t < s.n
	}
	a = strings.ToLower(a)
	for seat := 0; seat < s.n; seat++ {
		c := s.clan[seat]
		if a == clanIDs[c] || a == strings.ToLower(clanNames[c]) || a == "white-tiger" && c == tiger {
			return seat, true
		}
	}
	return 0, false
}

func (s *state) attack(m game.Move) ([]game.Event, error) {
	if s.phase != phaseAttack {
		return nil, s.notNow(m)
	}
	if int8(m.Seat) != s.attacker {
		return nil, game.RefuseTurn(m, "it is %s's turn to attack", game.Seat(int(s.attacker)))
	}
	if len(m.Args) != 1 {
		return nil, game.Refuse(m, "attack names one opponent, by seat number or clan")
	}
	t, ok := s.parseTarget(m.Args[0])
	switch {
	case !ok:
		return nil, game.Refuse(m, "%q is neither a seat nor a clan in this battle", m.Args[0])
	case t == m.Seat:
		return nil, game.Refuse(m, "a warrior cannot attack himself")
	case s.out[t]:
		return nil, game.Refuse(m, "%s is down to one card and out of the fight", game.Seat(t))
	}
	s.defender = int8(t)
	s.phase = phasePlay
	return []game.Event{{Type: "attack", Text: s.who(m.Seat) + " attacks " + s.who(t) + ": each lays a card face down"}}, nil
}

// lay is "play" (a card face down for the exchange) or "discard" (a card face
// down for the winner's trick).
func (s *state) lay(m game.Move) ([]game.Event, error) {
	discard := m.Action == "discard"
	if discard && s.phase != phaseDiscard || !discard && s.phase != phasePlay {
		return nil, s.notNow(m)
	}
	side := s.side(m.Seat)
	if side < 0 {
		return nil, game.RefuseTurn(m, "%s is not in this fight: it is between %s and %s", game.Seat(m.Seat), game.Seat(int(s.attacker)), game.Seat(int(s.defender)))
	}
	slot := &s.pick
	if discard {
		slot = &s.drop
	}
	if slot[side] >= 0 {
		if discard {
			return nil, game.RefuseTurn(m, "you have already discarded")
		}
		return nil, game.RefuseTurn(m, "you have already laid your card")
	}
	if len(m.Args) != 1 {
		return nil, game.Refuse(m, "%s takes one card, like 7D", m.Action)
	}
	c, ok := parseCard(m.Args[0])
	if !ok {
		return nil, game.Refuse(m, "%q is not a card", m.Args[0])
	}
	if s.hand[m.Seat]&(1<<uint(c)) == 0 {
		return nil, game.Refuse(m, "%s is not in your hand", cardNames[c])
	}
	s.hand[m.Seat] &^= 1 << uint(c)
	slot[side] = int8(c)
	evs := make([]game.Event, 0, 6)
	if discard {
		evs = append(evs,
			game.Event{Type: "discarded", Text: droppedText[m.Seat]},
			game.Event{Type: "discarded-own", Text: ownDropText[c], To: []int{m.Seat}})
	} else {
		evs = append(evs,
			game.Event{Type: "laid", Text: laidText[m.Seat]},
			game.Event{Type: "laid-own", Text: ownLaidText[c], To: []int{m.Seat}})
	}
	if slot[1-side] < 0 {
		return evs, nil
	}
	if discard {
		return s.takeTrick(evs), nil
	}
	return s.reveal(evs), nil
}

// reveal turns both laid cards over and settles the exchange.
func (s *state) reveal(evs []game.Event) []game.Event {
	a, d := int(s.attacker), int(s.defender)
	ac, dc := int(s.pick[0]), int(s.pick[1])
	s.pick = [2]int8{-1, -1}
	s.last = fight{attacker: s.attacker, defender: s.defender, aCard: int8(ac), dCard: int8(dc), winner: -1}
	shown := seatRef[a] + " shows " + cardNames[ac] + " and " + seatRef[d] + " shows " + cardNames[dc]
	ar, dr := rankOf(ac), rankOf(dc)
	if ar == dr {
		s.discards |= 1<<uint(ac) | 1<<uint(dc)
		evs = append(evs, game.Event{Type: "tie", Text: shown + ": equal, so both cards are discarded and neither gains"})
		return s.endFight(evs)
	}
	w := a
	if dr > ar {
		w = d
	}
	s.last.winner = int8(w)
	s.hand[a] |= 1 << uint(dc)
	s.hand[d] |= 1 << uint(ac)
	s.phase = phaseDiscard
	how := " lands the blow"
	if w == d {
		how = " turns the attack aside"
	}
	return append(evs,
		game.Event{Type: "reveal", Text: shown + ": " + seatRef[w] + how},
		game.Event{Type: "exchange", Text: seatRef[a] + " takes " + cardNames[dc] + " and " + seatRef[d] + " takes " + cardNames[ac] + " into hand; each now discards a card face down"})
}

// takeTrick gives both discards to the winner of the exchange.
func (s *state) takeTrick(evs []game.Event) []game.Event {
	w := int(s.last.winner)
	s.trick[w] |= 1<<uint(s.drop[0]) | 1<<uint(s.drop[1])
	s.drop = [2]int8{-1, -1}
	s.wins[w]++
	evs = append(evs, game.Event{Type: "trick", Text: seatRef[w] + " takes the two discards as a trick (" + plural(s.tricks(w), "trick") + " in all)"})
	return s.endFight(evs)
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// endFight applies the one-card rule to both fighters and moves the battle on.
func (s *state) endFight(evs []game.Event) []game.Event {
	s.battles++
	for _, seat := range [2]int8{s.attacker, s.defender} {
		if count(s.hand[seat]) == 1 {
			s.out[seat] = true
			evs = append(evs, game.Event{Type: "out", Text: outText[seat]})
		}
	}
	left := s.fighting()
	if left >= 2 {
		s.startTurn(s.at + 1)
		return append(evs, game.Event{Type: "turn", Text: turnText[s.attacker][s.clan[s.attacker]]})
	}
	s.attacker, s.defender = -1, -1
	if left == 1 {
		for seat := 0; seat < s.n; seat++ {
			if !s.out[seat] {
				s.keeper = int8(seat)
			}
		}
		k := int(s.keeper)
		s.phase = phaseKeep
		return append(evs, game.Event{Type: "battle-over", Text: "Nobody is left to fight " + game.Seat(k) + ": the battle is over. " + game.Seat(k) + " holds " + strconv.Itoa(count(s.hand[k])) + " cards and keeps one; each card discarded counts as a trick"})
	}
	evs = append(evs, game.Event{Type: "battle-over", Text: "Every warrior is down to one card: the battle is over"})
	return s.finish(evs)
}

func (s *state) keep(m game.Move) ([]game.Event, error) {
	if s.phase != phaseKeep {
		return nil, s.notNow(m)
	}
	if int8(m.Seat) != s.keeper {
		return nil, game.RefuseTurn(m, "only %s, the last warrior with cards to spare, discards down now", game.Seat(int(s.keeper)))
	}
	if len(m.Args) != 1 {
		return nil, game.Refuse(m, "keep takes the one card you keep, like 7D")
	}
	c, ok := parseCard(m.Args[0])
	if !ok {
		return nil, game.Refuse(m, "%q is not a card", m.Args[0])
	}
	bit := uint64(1) << uint(c)
	if s.hand[m.Seat]&bit == 0 {
		return nil, game.Refuse(m, "%s is not in your hand", cardNames[c])
	}
	rest := s.hand[m.Seat] &^ bit
	s.trick[m.Seat] |= rest
	s.extra[m.Seat] += count(rest)
	s.hand[m.Seat] = bit
	s.out[m.Seat] = true
	s.keeper = -1
	evs := []game.Event{{Type: "keep", Text: game.Seat(m.Seat) + " discards " + plural(count(rest), "card") + " face down, each a trick (" + plural(s.tricks(m.Seat), "trick") + " in all), and keeps one"}}
	return s.finish(evs), nil
}

// qualifies reports whether seat's final card is covered by its tricks.
func (s *state) qualifies(seat int) bool {
	r, t := s.finalRank(seat), s.tricks(seat)
	if s.below {
		return r < t
	}
	return r <= t
}

func (s *state) finalCard(seat int) int { return bits.TrailingZeros64(s.hand[seat]) }

func (s *state) finalRank(seat int) int { return rankOf(s.finalCard(seat)) }

// finish reveals the last cards and names the champion.
func (s *state) finish(evs []game.Event) []game.Event {
	s.phase = phaseOver
	any := false
	for seat := 0; seat < s.n; seat++ {
		any = any || s.qualifies(seat)
	}
	// better reports whether a beats b.
	better := func(a, b int) (bool, tieBreak) {
		ra, rb := s.finalRank(a), s.finalRank(b)
		if ra != rb {
			return any == (ra > rb), byCard
		}
		if ta, tb := s.tricks(a), s.tricks(b); ta != tb {
			return ta > tb, byTricks
		}
		return s.clan[a] > s.clan[b], byClan
	}
	best := -1
	s.decided = byCard
	for seat := 0; seat < s.n; seat++ {
		if any && !s.qualifies(seat) {
			continue
		}
		if best < 0 {
			best = seat
			continue
		}
		if win, _ := better(seat, best); win {
			best = seat
		}
	}
	// the tie-break that decided is the deepest one needed against any rival
	for seat := 0; seat < s.n; seat++ {
		if seat == best || any && !s.qualifies(seat) {
			continue
		}
		if _, by := better(best, seat); by > s.decided {
			s.decided = by
		}
	}
	s.winner = int8(best)
	var b strings.Builder
	b.WriteString("The last cards are turned over: ")
	for i := 0; i < s.n; i++ {
		seat := int(s.order[i])
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(game.Seat(seat) + " " + cardNames[s.finalCard(seat)] + " with " + plural(s.tricks(seat), "trick"))
	}
	return append(evs,
		game.Event{Type: "final", Text: b.String()},
		game.Event{Type: "champion", Text: s.resultText()})
}

func (s *state) Over() bool { return s.phase == phaseOver }

func (s *state) Result() game.Result {
	if s.phase != phaseOver {
		return game.Result{Text: "The battle is still being fought"}
	}
	scores := make([]int, s.n)
	for seat := range scores {
		scores[seat] = s.tricks(seat)
	}
	return game.Result{Winners: []int{int(s.winner)}, Scores: scores, Text: s.resultText()}
}

func (s *state) resultText() string {
	w := int(s.winner)
	any := s.qualifies(w)
	cover := "no more than"
	if s.below {
		cover = "less than"
	}
	t := s.who(w) + " is the champion with " + cardNames[s.finalCard(w)] + " and " + plural(s.tricks(w), "trick")
	if any {
		t += ": the highest final card worth " + cover + " its owner's tricks"
	} else {
		t += ": nobody's final card was worth " + cover + " their tricks, so the lowest final card wins"
	}
	switch s.decided {
	case byTricks:
		t += "; another warrior held a card of the same value, and more tricks broke the tie"
	case byClan:
		t += "; another warrior held a card of the same value with as many tricks, and the clan latest in the cycle (Tortoise, then White Tiger, then Phoenix) broke the tie"
	}
	return t
}

func (s *state) Clone() game.State {
	c := *s
	return &c
}

func (s *state) Audit() error {
	if s.n < 2 || s.n > 4 {
		return fmt.Errorf("%d players", s.n)
	}
	var all, seen uint64
	total := 0
	add := func(m uint64, what string) error {
		if seen&m != 0 {
			return fmt.Errorf("card %s is in two places (again in %s)", cardNames[bits.TrailingZeros64(seen&m)], what)
		}
		seen |= m
		total += count(m)
		return nil
	}
	clans := 0
	for seat := 0; seat < s.n; seat++ {
		c := s.clan[seat]
		if c < 0 || c > 3 || clans&(1<<uint(c)) != 0 {
			return fmt.Errorf("seat %d has clan %d, out of range or taken twice", seat, c)
		}
		clans |= 1 << uint(c)
		all |= suitMask(clanSuits[c])
		if err := add(s.hand[seat], fmt.Sprintf("seat %d's hand", seat)); err != nil {
			return err
		}
		if err := add(s.trick[seat], fmt.Sprintf("seat %d's tricks", seat)); err != nil {
			return err
		}
		if got, want := count(s.trick[seat]), 2*s.wins[seat]+s.extra[seat]; got != want {
			return fmt.Errorf("seat %d has %d cards among its tricks for %d wins and %d end discards", seat, got, s.wins[seat], s.extra[seat])
		}
		if s.extra[seat] != 0 && !(s.phase == phaseOver) {
			return fmt.Errorf("seat %d discarded down before the end", seat)
		}
	}
	if err := add(s.discards, "the tied cards"); err != nil {
		return err
	}
	if count(s.discards)%2 != 0 {
		return fmt.Errorf("%d tied cards: ties discard two at a time", count(s.discards))
	}
	for i := 0; i < 2; i++ {
		for _, c := range [2]int8{s.pick[i], s.drop[i]} {
			if c >= 0 {
				if err := add(1<<uint(c), "a card laid face down"); err != nil {
					return err
				}
			}
		}
	}
	if seen != all || total != 13*s.n {
		return fmt.Errorf("%d cards accounted for, want the %d of the clans' suits", total, 13*s.n)
	}
	cardsWon := 0
	for seat := 0; seat < s.n; seat++ {
		cardsWon += 2 * s.wins[seat]
	}
	if cardsWon+count(s.discards) != 2*s.battles {
		return fmt.Errorf("%d exchanges fought, but %d cards in tricks from wins and %d tied", s.battles, cardsWon, count(s.discards))
	}
	for i := 0; i < s.n; i++ {
		if c := s.clan[s.order[i]]; i > 0 && c <= s.clan[s.order[i-1]] {
			return fmt.Errorf("the attack order is not the clans' cycle")
		}
	}
	for seat := 0; seat < s.n; seat++ {
		held := count(s.hand[seat])
		if side := s.side(seat); side >= 0 && (s.phase == phasePlay || s.phase == phaseDiscard) {
			if s.pick[side] >= 0 || s.drop[side] >= 0 {
				held++
			}
		}
		if s.out[seat] && held != 1 {
			return fmt.Errorf("seat %d is out of the fight with %d cards", seat, held)
		}
		if !s.out[seat] && held < 2 {
			return fmt.Errorf("seat %d still fights with %d cards", seat, held)
		}
	}
	switch s.phase {
	case phaseAttack, phasePlay, phaseDiscard:
		if s.fighting() < 2 {
			return fmt.Errorf("%d warriors can fight, yet the battle goes on", s.fighting())
		}
		if s.attacker < 0 || int(s.attacker) >= s.n || s.out[s.attacker] || s.order[s.at] != s.attacker {
			return fmt.Errorf("attacker %d cannot attack", s.attacker)
		}
		if s.phase == phaseAttack {
			if s.defender != -1 || s.pick != [2]int8{-1, -1} || s.drop != [2]int8{-1, -1} {
				return fmt.Errorf("a defender or cards laid before the attack")
			}
			break
		}
		if s.defender < 0 || int(s.defender) >= s.n || s.defender == s.attacker || s.out[s.defender] {
			return fmt.Errorf("defender %d cannot be attacked by %d", s.defender, s.attacker)
		}
		if s.phase == phasePlay && s.drop != [2]int8{-1, -1} || s.phase == phaseDiscard && s.pick != [2]int8{-1, -1} {
			return fmt.Errorf("cards laid for the wrong step")
		}
		if s.phase == phaseDiscard && (s.last.winner != s.attacker && s.last.winner != s.defender) {
			return fmt.Errorf("discarding with no winner")
		}
	case phaseKeep:
		if s.fighting() != 1 || s.keeper < 0 || s.out[s.keeper] {
			return fmt.Errorf("keeper %d, yet %d warriors hold spare cards", s.keeper, s.fighting())
		}
	case phaseOver:
		if s.fighting() != 0 || s.winner < 0 || int(s.winner) >= s.n {
			return fmt.Errorf("over with %d warriors still fighting and winner %d", s.fighting(), s.winner)
		}
	default:
		return fmt.Errorf("unknown phase %d", s.phase)
	}
	return nil
}
