package troll

import (
	"math"

	"github.com/tableref/tableref/rules/deck"
	"github.com/tableref/tableref/rules/game"
)

// Bot is the heuristic player (see the package comment for its strategy).
func (trollGame) Bot() game.Bot { return game.BotFunc(choose) }

// Weights of the position value, in points where losing the game costs
// lossCost. They were tuned by simulation (see TestSimulatedResults).
const (
	winValue  = 600.0
	lossValue = -1500.0
	lossCost  = 1000.0 // a collapse or fall that may happen next turn
	extraCost = 25.0   // one more awakening to sit through
	gapCost   = 12.0   // an empty position (no perfect win, a weaker bridge)
	newGap    = 40.0   // a single brick leaving its position
	cardValue = 1.0    // each brick on the bridge, up to four per position
	itemValue = 12.0   // an ordinary club, diamond or spade in hand
	clubBonus = 80.0
	gemBonus  = 60.0
	dormBonus = 6.0
)

// cutCost is what a position costs by its pile size when emptying it would
// break the bridge: one brick there is a weak point.
var cutCost = [...]float64{0, 30, 10, 4, 2}

// thinCost is what losing one brick from a pile of n costs, n ≥ 2.
var thinCost = [...]float64{0, 0, 6, 3}

func choose(gs game.State, _ int, _ *game.Rand) game.Move {
	b := gs.(*state).belief()
	return plan(&b).move()
}

// hidden stands for a card whose face the bot does not know: it is no card
// of the deck (the engine never deals it), not a heart and of no colour.
var hidden = deck.Card{Suit: deck.NoSuit, Index: 255}

// belief is the game as the player sees it: a copy in which every face-down
// card (under or on top of the bridge's piles, in the deck, carried asleep)
// is hidden and the dice are not known. The bot plans on it alone, so no
// decision can depend on a card nobody has turned up, nor on a roll to come.
func (s *state) belief() state {
	b := *s
	b.rng = game.Rand{}
	for r := range rows {
		for c := range cols {
			sl := &b.bridge[r][c]
			for i := range int(sl.n) {
				if i < int(sl.n)-1 || !sl.awake {
					sl.cards[i] = hidden
				}
			}
		}
	}
	for i := range int(b.deck.n) {
		b.deck.cards[i] = hidden
	}
	if b.holding == holdDormant {
		b.carry = hidden
	}
	return b
}

// known sums up the cards whose faces the player can see: awake bricks,
// the stacks, the set-aside cards and what the troll holds awake.
type known struct {
	visible, low, hearts int
	seen                 [4]uint16 // per suit, bit r for rank r
}

func (k *known) add(c deck.Card, lowerRed bool) {
	if c == hidden || c.Suit > deck.Spades {
		return
	}
	if k.seen[c.Suit]&(1<<c.Rank) != 0 {
		return
	}
	k.seen[c.Suit] |= 1 << c.Rank
	k.visible++
	if c.Red() == lowerRed {
		k.low++
	}
	if c.Suit == deck.Hearts {
		k.hearts++
	}
}

func (s *state) knownCards() known {
	var k known
	for r := range rows {
		for c := range cols {
			if s.bridge[r][c].awake {
				k.add(s.bridge[r][c].top(), s.lowerRed)
			}
		}
	}
	if s.club {
		k.add(aceClubs, s.lowerRed)
	}
	if s.gem {
		k.add(aceDiamonds, s.lowerRed)
	}
	if s.holding == holdAwake {
		k.add(s.carry, s.lowerRed)
	}
	for _, p := range []*pile{&s.lowerPad, &s.upperPad, &s.aside} {
		for _, c := range p.cards[:p.n] {
			k.add(c, s.lowerRed)
		}
	}
	return k
}

// pLow is the chance that an unseen card is of the lower stack's colour.
func (k *known) pLow() float64 {
	unseen := 52 - k.visible
	if unseen <= 0 {
		return 0.5
	}
	return min(max(float64(26-k.low)/float64(unseen), 0), 1)
}

// pHeart is the chance that an unseen card is a heart.
func (k *known) pHeart() float64 {
	unseen := 52 - k.visible
	if unseen <= 0 {
		return 0.25
	}
	return min(max(float64(13-k.hearts)/float64(unseen), 0), 1)
}

// face is one thing an unseen card may turn out to be, for the troll's
// hands: a card standing for its kind, and the chance of that kind.
type face struct {
	card deck.Card
	p    float64
}

// faces lists what a brick woken from face down may be, by the unseen
// cards: hearts (which cannot be picked up), clubs, diamonds and spades,
// the ace of clubs (THE CLUB) and, when it is reusable, the ace of
// diamonds apart. The first entry is always the hearts.
func (s *state) faces(buf []face) []face {
	k := s.knownCards()
	unseen := 52 - k.visible
	if unseen <= 0 {
		return buf
	}
	kind := func(suit deck.Suit, ace, rest bool) {
		n, first := 0, deck.Card{}
		for r := deck.Ace; r <= deck.King; r++ {
			if r == deck.Ace && !ace || r != deck.Ace && !rest || k.seen[suit]&(1<<r) != 0 {
				continue
			}
			if n == 0 {
				first = deck.Card{Rank: r, Suit: suit}
			}
			n++
		}
		if n > 0 || suit == deck.Hearts {
			buf = append(buf, face{first, float64(n) / float64(unseen)})
		}
	}
	kind(deck.Hearts, true, true)
	kind(deck.Clubs, false, true)
	kind(deck.Clubs, true, false)
	if s.reusableAD {
		kind(deck.Diamonds, false, true)
		kind(deck.Diamonds, true, false)
	} else {
		kind(deck.Diamonds, true, true)
	}
	kind(deck.Spades, true, true)
	return buf
}

// rowChances is how likely card c is to wake each row: certain for a card
// whose face is known, by the unseen colours for a hidden one.
func (s *state) rowChances(c deck.Card) [rows]float64 {
	var w [rows]float64
	if c != hidden {
		w[s.rowFor(c)] = 1
		return w
	}
	k := s.knownCards()
	p := k.pLow()
	w[lower], w[upper] = p, 1-p
	return w
}

// plan tries every pair of actions left this turn, plays the flight phase
// that follows and scores the result; the few best it looks at again, one
// turn deeper: every way the next awakening can fall, each answered by the
// best pair of actions. It never looks at the die or the deck: the value
// uses only what lies face up.
func plan(s *state) action {
	var top [deepen]candidate
	n := 0
	consider := func(a action, u *state) {
		v := u.value()
		if n < deepen {
			top[n] = candidate{a, v, *u}
			n++
		} else if v > top[n-1].v {
			top[n-1] = candidate{a, v, *u}
		} else {
			return
		}
		for i := n - 1; i > 0 && top[i].v > top[i-1].v; i-- {
			top[i], top[i-1] = top[i-1], top[i]
		}
	}
	var buf [32]action
	for _, a := range s.actionsNow(buf[:0]) {
		t := *s
		t.act(a, nil)
		if t.actions == 0 {
			t.flightPhase(nil)
			consider(a, &t)
			continue
		}
		var buf2 [32]action
		for _, b := range t.actionsNow(buf2[:0]) {
			u := t
			u.act(b, nil)
			u.flightPhase(nil)
			consider(a, &u)
		}
	}
	best, bestV := top[0].a, math.Inf(-1)
	for i := range n {
		if v := blend*top[i].v + (1-blend)*top[i].s.expect(); v > bestV {
			best, bestV = top[i].a, v
		}
	}
	return best
}

// deepen is how many of the best plans are looked at a turn deeper.
const deepen = 4

// blend weighs the plain value against the deeper one: half and half
// played better than either alone (in simulation, most of all with THE
// CLUB, where the plain value is already sharp).
const blend = 0.5

type candidate struct {
	a action
	v float64
	s state
}

// respond is the value of the best pair of actions from s, at the start of
// a turn, after its flight phase. A brick that woke from face down in the
// look-ahead has no known face; by then the troll would see it, so picking
// it up is valued kind by kind (faces): for each kind it may be, the best
// pair of actions given that kind, weighed by its chance (a heart cannot be
// picked up at all, so that kind gets the best pair without the pickup).
func (s *state) respond() float64 {
	best := math.Inf(-1)
	type pick struct {
		a, b action
		late bool // the pickup is the second action
	}
	var picks [16]pick
	np := 0
	var buf [32]action
	for _, a := range s.actionsNow(buf[:0]) {
		if s.hiddenPickup(a) {
			if np < len(picks) {
				picks[np] = pick{a: a}
				np++
			}
			continue
		}
		t := *s
		t.act(a, nil)
		var buf2 [32]action
		for _, b := range t.actionsNow(buf2[:0]) {
			if t.hiddenPickup(b) {
				if np < len(picks) {
					picks[np] = pick{a: a, b: b, late: true}
					np++
				}
				continue
			}
			u := t
			u.act(b, nil)
			u.flightPhase(nil)
			best = max(best, u.value())
		}
	}
	if np == 0 {
		return best
	}
	var fb [8]face
	faces := s.faces(fb[:0])
	total := 0.0
	for i, f := range faces {
		if f.p == 0 {
			continue
		}
		if i == 0 { // a heart: no pickup
			if math.IsInf(best, -1) {
				// Only pickups were on offer: with hearts there, the
				// troll does whatever else it may.
				h := *s
				h.reveal(f.card)
				total += f.p * h.respond()
				continue
			}
			total += f.p * best
			continue
		}
		bf := best
		for _, p := range picks[:np] {
			t := *s
			if !p.late {
				t.faceUp(p.a.dir, f.card)
				t.act(p.a, nil)
				var buf2 [32]action
				for _, b := range t.actionsNow(buf2[:0]) {
					u := t
					u.act(b, nil)
					u.flightPhase(nil)
					bf = max(bf, u.value())
				}
				continue
			}
			t.act(p.a, nil)
			t.faceUp(p.b.dir, f.card)
			t.act(p.b, nil)
			t.flightPhase(nil)
			bf = max(bf, t.value())
		}
		total += f.p * bf
	}
	return total
}

// hiddenPickup reports whether a picks up an awake brick whose face the bot
// does not know.
func (s *state) hiddenPickup(a action) bool {
	if a.kind != actPickup {
		return false
	}
	r, c, on := s.neighbour(a.dir)
	return on && s.bridge[r][c].n > 0 && s.bridge[r][c].top() == hidden
}

// faceUp gives the hidden awake brick next to the troll in direction d the
// face c, for one branch of the look-ahead.
func (s *state) faceUp(d uint8, c deck.Card) {
	r, col, _ := s.neighbour(d)
	sl := &s.bridge[r][col]
	sl.cards[sl.n-1] = c
}

// reveal gives every hidden awake brick the face c.
func (s *state) reveal(c deck.Card) {
	for r := range rows {
		for col := range cols {
			if sl := &s.bridge[r][col]; sl.awake && sl.top() == hidden {
				sl.cards[sl.n-1] = c
			}
		}
	}
}

// expect is the value of s (after a flight phase) averaged over the next
// awakening phase, each outcome answered by the best reply. With more than
// two cards to play it falls back on the plain value.
func (s *state) expect() float64 {
	if s.over || s.winning() || s.aside.n > 2 || s.aside.n == 0 && s.deck.n == 0 {
		return s.value()
	}
	start := func(w *state) float64 {
		if w.over {
			return lossValue
		}
		w.actions = 2
		w.visited = bit(int(w.tr), int(w.tc))
		if w.winning() {
			return w.value()
		}
		return w.respond()
	}
	total := 0.0
	switch s.aside.n {
	case 0:
		pLow := s.pLower()
		for _, r := range []int{upper, lower} {
			p := pLow
			if r == upper {
				p = 1 - pLow
			}
			if p == 0 {
				continue
			}
			for die := 1; die <= 6; die++ {
				w := *s
				w.deck.pop() // which card it is stays unknown: only its row counts
				w.awaken(r, die, nil)
				total += p / 6 * start(&w)
			}
		}
	case 1:
		w := s.rowChances(s.aside.cards[0])
		for r := range rows {
			if w[r] == 0 {
				continue
			}
			for die := 1; die <= 6; die++ {
				x := *s
				x.aside = pile{}
				x.awaken(r, die, nil)
				total += w[r] / 6 * start(&x)
			}
		}
	case 2:
		w1, w2 := s.rowChances(s.aside.cards[0]), s.rowChances(s.aside.cards[1])
		for r1 := range rows {
			for r2 := range rows {
				p := w1[r1] * w2[r2]
				if p == 0 {
					continue
				}
				for d1 := 1; d1 <= 6; d1++ {
					for d2 := 1; d2 <= 6; d2++ {
						x := *s
						x.aside = pile{}
						x.awaken(r1, d1, nil)
						if !x.over {
							x.awaken(r2, d2, nil)
						}
						total += p / 36 * start(&x)
					}
				}
			}
		}
	}
	return total
}

// reach is what the troll can do next turn, from where it stands.
type reach struct {
	t      int    // the troll's cell
	step   uint16 // cells it can stand on after at most one step
	adj    uint16 // cells next to one of those
	hands  bool   // may pick up
	club   int    // 0 none, 1 ordinary, 2 THE CLUB
	gem    int    // 0 none, 1 ordinary diamond, 2 reusable ace
	spade  bool
	awakeM uint16 // awake positions (they stop a thrown diamond)
}

func neighbours(i int) uint16 {
	r, c := i/cols, i%cols
	var m uint16
	if r > 0 {
		m |= bit(r-1, c)
	}
	if r < rows-1 {
		m |= bit(r+1, c)
	}
	if c > 0 {
		m |= bit(r, c-1)
	}
	if c < cols-1 {
		m |= bit(r, c+1)
	}
	return m
}

// inLine reports whether a diamond thrown from some cell of from can hit x.
func (rc *reach) inLine(from uint16, x int) bool {
	xr, xc := x/cols, x%cols
	for i := range rows * cols {
		if from&(1<<i) == 0 || i == x {
			continue
		}
		r, c := i/cols, i%cols
		switch {
		case r == xr:
			lo, hi := min(c, xc), max(c, xc)
			clear := true
			for k := lo + 1; k < hi; k++ {
				if rc.awakeM&bit(r, k) != 0 {
					clear = false
				}
			}
			if clear {
				return true
			}
		case c == xc:
			return true // two rows: nothing lies between
		}
	}
	return false
}

// handle is what an awake brick at x costs if it is still awake when the
// troll's next turn starts: nothing if it can be stomped, the price of a
// tool, or its flight (a lost brick and one more awakening).
func (s *state) handle(rc *reach, rem *[rows * cols]float64, x int, heart float64) float64 {
	flee := rem[x] + extraCost
	if x == rc.t || rc.step&(1<<x) != 0 {
		return 0
	}
	best := flee
	near := rc.adj&(1<<x) != 0
	if near && rc.club == 2 {
		return 1
	}
	if rc.gem == 2 && rc.inLine(rc.step, x) {
		return 1
	}
	if near && rc.club == 1 {
		best = min(best, extraCost+itemValue)
	}
	if rc.gem == 1 && rc.inLine(rc.step, x) {
		best = min(best, extraCost+itemValue)
	}
	if near && rc.spade {
		best = min(best, extraCost+itemValue+2)
	}
	if near && rc.hands {
		pick := rem[x] - itemValue
		best = min(best, (1-heart)*pick+heart*flee)
	}
	return best
}

// value scores the position after the flight phase, before the next
// awakenings: the bridge's strength, the tools in hand, and the expected
// cost of what the next awakening phase may wake.
func (s *state) value() float64 {
	if s.over {
		if s.won {
			return winValue
		}
		return lossValue
	}
	occ := s.occupancy()
	if s.winning() {
		if occ == allCells {
			return winValue + 100
		}
		return winValue
	}
	v := 0.0
	var rem [rows * cols]float64
	var awakeM uint16
	visLow, visible, visHearts := 0, 0, 0
	see := func(c deck.Card) {
		if c == hidden {
			return // woken in the look-ahead: its face is not known
		}
		visible++
		if c.Red() == s.lowerRed {
			visLow++
		}
		if c.Suit == deck.Hearts {
			visHearts++
		}
	}
	for i := range rows * cols {
		r, c := i/cols, i%cols
		sl := &s.bridge[r][c]
		n := int(sl.n)
		if sl.awake {
			awakeM |= 1 << i
			see(sl.top())
		}
		if n == 0 {
			v -= gapCost
			continue
		}
		v += cardValue * float64(min(n, 4))
		cut := !connected(occ &^ (1 << i))
		if cut {
			v -= cutCost[min(n, len(cutCost)-1)]
		}
		switch {
		case n == 1 && cut:
			rem[i] = lossCost
		case n == 1:
			rem[i] = newGap
		default:
			rem[i] = thinCost[min(n, len(thinCost)-1)]
			if rem[i] == 0 {
				rem[i] = 1.5
			}
		}
	}
	rc := reach{t: int(s.tr)*cols + int(s.tc), hands: s.handsFree(), awakeM: awakeM}
	rc.step = 1<<rc.t | neighbours(rc.t)&occ
	for i := range rows * cols {
		if rc.step&(1<<i) != 0 {
			rc.adj |= neighbours(i)
		}
	}
	if s.club {
		rc.club = 2
		v += clubBonus
		see(aceClubs)
	}
	if s.gem {
		rc.gem = 2
		v += gemBonus
		see(aceDiamonds)
	}
	switch s.holding {
	case holdAwake:
		see(s.carry)
		v += itemValue
		switch s.carry.Suit {
		case deck.Clubs:
			rc.club = 1
		case deck.Diamonds:
			rc.gem = 1
		case deck.Spades:
			rc.spade = true
		}
	case holdDormant:
		v += dormBonus
	}
	for _, p := range []*pile{&s.lowerPad, &s.upperPad, &s.aside} {
		for _, c := range p.cards[:p.n] {
			see(c)
		}
	}
	v -= extraCost * float64(s.aside.n)
	pLow, pHeart := 0.5, 0.25
	if unseen := 52 - visible; unseen > 0 {
		pLow = min(max(float64(26-visLow)/float64(unseen), 0), 1)
		pHeart = min(max(float64(13-visHearts)/float64(unseen), 0), 1)
	}

	// Awake bricks still on the bridge run on unless dealt with next turn.
	for i := range rows * cols {
		if awakeM&(1<<i) != 0 && i != rc.t {
			heart := 0.0
			switch top := s.bridge[i/cols][i%cols].top(); {
			case top == hidden:
				heart = pHeart
			case top.Suit == deck.Hearts:
				heart = 1
			}
			v -= s.handle(&rc, &rem, i, heart)
		}
	}

	// The next awakening phase: each card wakes a row (known for set-aside
	// cards, guessed from the unseen colours for a draw) and a die roll.
	threat := func(r int) float64 {
		t := 0.0
		for die := 1; die <= 6; die++ {
			c := s.target(r, die)
			if c < 0 {
				continue
			}
			x := r*cols + c
			switch {
			case awakeM&(1<<x) != 0 && x == rc.t:
				t += lossCost
			case awakeM&(1<<x) != 0:
				t += rem[x] + extraCost
			default:
				t += s.handle(&rc, &rem, x, 0.25)
			}
		}
		return t / 6
	}
	switch {
	case s.aside.n > 0:
		for _, c := range s.aside.cards[:s.aside.n] {
			if c == hidden {
				v -= pLow*threat(lower) + (1-pLow)*threat(upper)
				continue
			}
			v -= threat(s.rowFor(c))
		}
	case s.deck.n > 0:
		v -= pLow*threat(lower) + (1-pLow)*threat(upper)
	}
	return v
}

// pLower is the chance that the next card drawn wakes the lower row, from
// the colours of the cards not yet seen face up.
func (s *state) pLower() float64 {
	k := s.knownCards()
	return k.pLow()
}
