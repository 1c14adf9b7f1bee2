package troll

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tableref/tableref/rules/deck"
	"github.com/tableref/tableref/rules/game"
)

// --- Setup ---

func TestTheBridgeIsTwoRowsOfThreeTwoOneOneTwoThreeAndTheRestIsTheDeck(t *testing.T) {
	const seed = 77
	g, err := Game.New(game.Config{Players: 1, Seed: seed})
	require.NoError(t, err)
	s := g.(*state)

	// Replay the engine's draws: the shuffle, the troll's die, the first
	// turn's die.
	r := game.NewRand(seed)
	cards := deck.New(0)
	deck.Shuffle(&r, cards)
	trollDie := r.Die(6)
	wakeDie := r.Die(6)

	i := 0
	for row := range rows {
		for c, n := range []int{3, 2, 1, 1, 2, 3} {
			sl := &s.bridge[row][c]
			require.Equal(t, n, int(sl.n), "%s", place(row, c))
			assert.Equal(t, cards[i:i+n], sl.cards[:n], "%s holds the next cards dealt", place(row, c))
			i += n
		}
	}
	first, drawn := cards[51], cards[50]
	assert.Equal(t, []deck.Card{first}, s.lowerPad.cards[:s.lowerPad.n][:1], "the first card starts the lower stack")
	assert.Equal(t, first.Red(), s.lowerRed, "the first card sets the lower stack's colour")
	assert.Equal(t, 26, int(s.deck.n), "52 - 24 bricks - the first card - the first turn's draw")
	assert.Equal(t, cards[24:50], s.deck.cards[:s.deck.n], "the rest is the deck, in shuffled order")
	assert.Equal(t, lower, int(s.tr), "the troll starts in the lower row")
	assert.Equal(t, trollDie-1, int(s.tc), "at the position the die shows")

	// The first turn drew a card and woke the brick it and the die point to.
	row := upper
	if drawn.Red() == first.Red() {
		row = lower
	}
	awake := 0
	for rr := range rows {
		for c := range cols {
			if s.bridge[rr][c].awake {
				awake++
				assert.Equal(t, row, rr)
				assert.Equal(t, wakeDie-1, c)
			}
		}
	}
	assert.Equal(t, 1, awake, "the first turn wakes one brick")
	assert.Equal(t, 1, s.turn)
	assert.Equal(t, 2, int(s.actions))
}

// --- Awakening ---

func TestACardOfTheFirstCardsColourWakesTheLowerRowAtTheDieRoll(t *testing.T) {
	up, low := standardRows()
	s := build(t, spec{upper: up, lower: low, troll: "lower 1", deck: []string{"5D", "6C"}, actions: 1})
	rig(t, s, 4)
	ev := do(t, s, "move right")
	assert.Equal(t, "5D", s.lowerPad.cards[s.lowerPad.n-1].String(), "a red card goes on the (red) lower stack")
	n, awake, top := at(t, s, "lower 4")
	assert.Equal(t, 1, n)
	assert.True(t, awake, "the lower brick at the die's 4 wakes")
	assert.Equal(t, "8H", top)
	assert.Equal(t, 1, int(s.deck.n))
	assert.Contains(t, texts(ev), "The brick at lower 4 wakes up: the 8 of hearts.")
}

func TestACardOfTheOtherColourWakesTheUpperRow(t *testing.T) {
	up, low := standardRows()
	s := build(t, spec{upper: up, lower: low, troll: "lower 1", deck: []string{"6C", "5D"}, actions: 1})
	rig(t, s, 6)
	do(t, s, "move right")
	assert.Equal(t, "6C", s.upperPad.cards[s.upperPad.n-1].String(), "a black card goes on the upper stack")
	_, awake, top := at(t, s, "upper 6")
	assert.True(t, awake)
	assert.Equal(t, "KS", top, "the top brick of the pile wakes")
}

func TestAnEmptyPositionWakesTheNextBrickTowardsItsNearerBank(t *testing.T) {
	s := build(t, spec{upper: [cols]string{"2S", "", "4S", "", "", "7S"}, lower: [cols]string{"2H", "3H", "4H", "5H", "6H", "7H"}, troll: "lower 1"})
	var ev []game.Event
	s.awaken(upper, 2, &ev) // position 2 is empty; the left bank is nearer
	_, awake, _ := at(t, s, "upper 1")
	assert.True(t, awake, "upper 1 wakes in place of empty upper 2")
	s.awaken(upper, 4, &ev) // 4 and 5 empty; the right bank is nearer
	_, awake, _ = at(t, s, "upper 6")
	assert.True(t, awake, "upper 6 wakes in place of empty upper 4")
	assert.Contains(t, texts(ev), "upper 4 is empty, so the next brick along, upper 6, is the one.")
}

func TestWithNoBrickTowardsTheBankTheNextOneTheOtherWayWakes(t *testing.T) {
	s := build(t, spec{upper: [cols]string{"", "", "4S", "5S", "", ""}, lower: [cols]string{"2H", "3H", "4H", "5H", "6H", "7H"}, troll: "lower 1"})
	s.awaken(upper, 1, nil) // nothing left of 1: the search turns right
	_, awake, _ := at(t, s, "upper 3")
	assert.True(t, awake)
	s.awaken(upper, 6, nil) // nothing right of 6: the search turns left
	_, awake, _ = at(t, s, "upper 4")
	assert.True(t, awake)
}

func TestInAnEmptyRowNoBrickWakesButTheTurnGoesOn(t *testing.T) {
	s := build(t, spec{lower: [cols]string{"2H", "3H", "4H", "5H", "6H", "7H"}, troll: "lower 1", deck: []string{"6C", "8C"}, actions: 1})
	rig(t, s, 3)
	ev := do(t, s, "move right")
	assert.False(t, s.anyAwake())
	assert.Contains(t, texts(ev), "The upper row has no bricks left: nothing wakes.")
	assert.False(t, s.over)
	assert.Equal(t, 2, int(s.actions), "the troll still takes its actions")
}

func TestAnAwakeBrickWokenAgainFliesAwayAndIsSetAside(t *testing.T) {
	up, low := standardRows()
	up[2] = "7S*"
	s := build(t, spec{upper: up, lower: low, troll: "lower 1"})
	var ev []game.Event
	s.awaken(upper, 3, &ev)
	n, _, _ := at(t, s, "upper 3")
	assert.Equal(t, 0, n, "the brick is gone")
	assert.Equal(t, []string{"7S"}, asideNames(s), "and waits for the next awakening phase")
	assert.False(t, s.over)
}

func TestTheTrollFliesAwayWithADoublyWokenBrickAndLoses(t *testing.T) {
	up, low := standardRows()
	low[2] = "7H*"
	s := build(t, spec{upper: up, lower: low, troll: "lower 3", deck: []string{"2C", "3C", "4C"}})
	var ev []game.Event
	s.awaken(lower, 3, &ev)
	require.True(t, s.Over())
	res := s.Result()
	assert.Empty(t, res.Winners)
	assert.Equal(t, []int{3}, res.Scores, "the score is the cards left in the deck")
	assert.Contains(t, res.Text, "taking the troll with it")
	assert.Empty(t, s.Turn())
	_, err := s.Apply(game.M(0, "stomp"))
	assert.ErrorIs(t, err, game.ErrOver)
}

func TestCardsSetAsideArePlayedNextTurnInsteadOfADraw(t *testing.T) {
	up, low := standardRows()
	s := build(t, spec{upper: up, lower: low, troll: "lower 3", deck: []string{"2C"}, aside: []string{"AD", "AS"}, actions: 1})
	rig(t, s, 2, 5)
	do(t, s, "move right")
	assert.Equal(t, 1, int(s.deck.n), "no card is drawn")
	assert.Empty(t, asideNames(s))
	assert.Equal(t, "AD", s.lowerPad.cards[s.lowerPad.n-1].String())
	assert.Equal(t, "AS", s.upperPad.cards[s.upperPad.n-1].String())
	_, a1, _ := at(t, s, "lower 2")
	_, a2, _ := at(t, s, "upper 5")
	assert.True(t, a1 && a2, "each set-aside card wakes one brick, in order")
}

// --- The troll's actions ---

func TestTheTrollTakesTwoActionsAndThenTheTurnEnds(t *testing.T) {
	up, low := standardRows()
	s := build(t, spec{upper: up, lower: low, troll: "lower 3", deck: []string{"2C", "3C"}})
	do(t, s, "move right")
	assert.Equal(t, 1, int(s.actions))
	assert.Equal(t, 5, s.turn)
	do(t, s, "move up")
	assert.Equal(t, 6, s.turn, "the second action ends the turn")
	assert.Equal(t, 2, int(s.actions))
	assert.Equal(t, 1, int(s.deck.n), "and the next turn draws")
}

func TestTheTrollStepsOnlyOntoBricksNextToItAndNeverBackThisTurn(t *testing.T) {
	up, low := standardRows()
	up[3] = ""
	s := build(t, spec{upper: up, lower: low, troll: "lower 4"})
	refuse(t, s, "move down", "no bridge position down")
	refuse(t, s, "move up", "upper 4 has no brick")
	refuse(t, s, "move north", "not a direction")
	do(t, s, "move left")
	refuse(t, s, "move right", "already stood on lower 4")
	assert.False(t, legalSet(s)["move right"])
	assert.True(t, legalSet(s)["move up"])
}

func TestStompingPutsTheBrickUnderTheTrollToSleep(t *testing.T) {
	up, low := standardRows()
	low[2] = "7H*"
	s := build(t, spec{upper: up, lower: low, troll: "lower 4"})
	refuse(t, s, "stomp", "nothing to stomp")
	do(t, s, "move left")
	do(t, s, "stomp")
	n, awake, _ := at(t, s, "lower 3")
	assert.Equal(t, 1, n)
	assert.False(t, awake)
}

func TestPickingUpTakesAnAwakeNeighbourButNeverAHeartAndOneAtATime(t *testing.T) {
	up, low := standardRows()
	up[2] = "7S*"
	up[3] = "8S*"
	low[2] = "7H*"
	s := build(t, spec{upper: up, lower: low, troll: "lower 4", actions: 2})
	refuse(t, s, "pickup left", "a troll cannot have a heart")
	refuse(t, s, "pickup right", "no awake brick right")
	do(t, s, "pickup up")
	n, _, _ := at(t, s, "upper 4")
	assert.Equal(t, 0, n, "the brick leaves the bridge")
	assert.Equal(t, "8S", s.View(0).(View).Carrying)
	s.actions = 2
	s.visited = bit(lower, 3)
	do(t, s, "move left")
	refuse(t, s, "pickup up", "hands are full")
}

func TestAClubBeatsAnAwakeNeighbourToSleepAndIsSetAside(t *testing.T) {
	up, low := standardRows()
	low[4] = "9H 10H*"
	s := build(t, spec{upper: up, lower: low, troll: "lower 4", carry: "5C"})
	refuse(t, s, "club left", "no awake brick left")
	do(t, s, "club right")
	_, awake, _ := at(t, s, "lower 5")
	assert.False(t, awake)
	assert.Equal(t, []string{"5C"}, asideNames(s))
	assert.Equal(t, holdNone, s.holding)
}

func TestADiamondHitsTheFirstAwakeBrickThatWayOverSleepingOnesAndGaps(t *testing.T) {
	s := build(t, spec{upper: [cols]string{"2S", "3S", "", "5S*", "6S*", "7S"}, lower: [cols]string{"2H", "3H", "4H", "5H", "6H", "7H*"}, troll: "upper 1", carry: "9D"})
	do(t, s, "throw right")
	_, a4, _ := at(t, s, "upper 4")
	_, a5, _ := at(t, s, "upper 5")
	assert.False(t, a4, "the first awake brick that way is hit")
	assert.True(t, a5, "the one behind it is not")
	assert.Equal(t, []string{"9D"}, asideNames(s))
}

func TestADiamondThrownAtNothingIsLost(t *testing.T) {
	up, low := standardRows()
	s := build(t, spec{upper: up, lower: low, troll: "lower 4", carry: "9D"})
	ev := do(t, s, "throw down")
	assert.Equal(t, []string{"9D"}, asideNames(s))
	assert.Contains(t, texts(ev)[0], "hits nothing")
}

func TestASpadeShovelsAnAwakeBrickUpAsleepToLayDownLater(t *testing.T) {
	s := build(t, spec{upper: [cols]string{"2S", "3S", "", "5S", "6S*", "7S"}, lower: [cols]string{"2H", "3H", "4H", "5H", "6H", "7H"}, troll: "upper 4", carry: "9S"})
	refuse(t, s, "lay left", "carries no dormant brick")
	do(t, s, "shovel right")
	n, _, _ := at(t, s, "upper 5")
	assert.Equal(t, 0, n)
	assert.Equal(t, []string{"9S"}, asideNames(s), "the spade is set aside")
	v := s.View(0).(View)
	assert.True(t, v.CarryAsleep)
	assert.Empty(t, v.Carrying, "a sleeping brick shows face down")
	do(t, s, "lay left")
	n, awake, top := at(t, s, "upper 3")
	assert.Equal(t, 1, n)
	assert.False(t, awake)
	assert.Equal(t, "6S", top, "the shovelled brick fills the gap")
	assert.Equal(t, holdNone, s.holding)
}

func TestASleepingBrickIsNotLaidOnAnAwakeOne(t *testing.T) {
	up, low := standardRows()
	up[3] = "8S*"
	s := build(t, spec{upper: up, lower: low, troll: "lower 4", carry: "~AD"})
	refuse(t, s, "lay up", "cannot be laid on it")
	do(t, s, "lay right")
	n, _, top := at(t, s, "lower 5")
	assert.Equal(t, 3, n, "laid on top of a sleeping pile")
	assert.Equal(t, "AD", top)
}

func TestTHECLUBIsNeverSetAsideAndBarsPickingUpAnythingElse(t *testing.T) {
	up, low := standardRows()
	up[3] = "AC*"
	low[4] = "9H 10H*"
	s := build(t, spec{upper: up, lower: low, troll: "lower 4", deck: []string{"2D"}})
	ev := do(t, s, "pickup up")
	assert.Contains(t, texts(ev)[0], "THE CLUB")
	assert.True(t, s.club)
	assert.Equal(t, holdNone, s.holding, "THE CLUB is not an ordinary carried card")
	ev = do(t, s, "club right")
	assert.Contains(t, texts(ev)[0], "swings THE CLUB")
	_, awake, _ := at(t, s, "lower 5")
	assert.False(t, awake)
	assert.True(t, s.club, "THE CLUB is kept")
	assert.NotContains(t, append(s.lowerPad.list(), s.upperPad.list()...), aceClubs, "and never played into the stacks")
	assert.Equal(t, 0, int(s.deck.n), "the turn drew a card as usual, not THE CLUB")

	up, low = standardRows()
	up[3] = "8S*"
	low[2] = "7H 2C*"
	s = build(t, spec{upper: up, lower: low, troll: "lower 4", club: true})
	refuse(t, s, "pickup up", "hands are full: THE CLUB")
	do(t, s, "club left")
	do(t, s, "club up")
	assert.True(t, s.club)
	assert.Empty(t, asideNames(s))
	assert.True(t, s.View(game.Table).(View).TheClub)
}

func TestTheTrollRestsOnlyWhenItCanDoNothingElse(t *testing.T) {
	s := build(t, spec{upper: [cols]string{"2S", "3S", "4S", "5S", "6S", "7S"}, lower: [cols]string{"", "", "", "", "", "7H"}, troll: "lower 6", visited: []string{"upper 6"}})
	assert.Equal(t, map[string]bool{"rest": true}, legalSet(s))
	do(t, s, "rest")
	s2 := build(t, spec{upper: [cols]string{"2S", "3S", "4S", "5S", "6S", "7S"}, lower: [cols]string{"", "", "", "", "", "7H"}, troll: "lower 6"})
	refuse(t, s2, "rest", "only when it can do nothing else")
}

// --- Flight and collapse ---

func TestAwakeBricksFleeOneStepTowardsTheNearerBankAndEscapeOffIt(t *testing.T) {
	s := build(t, spec{upper: [cols]string{"2S", "3S 4S*", "5S*", "6S*", "7S", "8S"}, lower: [cols]string{"2H", "3H", "4H", "5H", "6H", "7H"}, troll: "lower 6"})
	var ev []game.Event
	s.flightPhase(&ev)
	pile := func(where string) []any {
		n, awake, top := at(t, s, where)
		return []any{n, awake, top}
	}
	assert.Equal(t, []any{2, true, "4S"}, pile("upper 1"), "from position 2 left, onto 2S")
	assert.Equal(t, []any{2, true, "5S"}, pile("upper 2"), "from position 3 left, onto 3S")
	assert.Equal(t, []any{0, false, ""}, pile("upper 3"))
	assert.Equal(t, []any{0, false, ""}, pile("upper 4"))
	assert.Equal(t, []any{2, true, "6S"}, pile("upper 5"), "from position 4 right, onto 7S")
	assert.False(t, s.over, "the lower row still joins the banks")
	assert.Contains(t, texts(ev), "The 6 of spades runs from upper 4 to upper 5.")

	s.flightPhase(&ev)
	assert.Equal(t, []string{"4S"}, asideNames(s), "off the end onto the bank: escaped and set aside")
	assert.Equal(t, []any{2, true, "5S"}, pile("upper 1"))
	assert.Equal(t, []any{1, false, "3S"}, pile("upper 2"))
	assert.Equal(t, []any{2, true, "6S"}, pile("upper 6"))
	assert.Contains(t, texts(ev), "The 4 of spades runs off upper 1 onto the left bank and escapes: it is set aside.")
}

func TestTheTrollBlocksTheWayToTheNearerBankInItsRow(t *testing.T) {
	s := build(t, spec{upper: [cols]string{"2S", "3S", "4S 5S*", "6S", "7S", "8S"}, lower: [cols]string{"2H", "3H", "4H*", "5H", "6H", "7H"}, troll: "upper 2"})
	s.flightPhase(nil)
	_, a, top := at(t, s, "upper 4")
	assert.True(t, a)
	assert.Equal(t, "5S", top, "the troll stands between upper 3 and the left bank: it runs right")
	_, a, top = at(t, s, "lower 2")
	assert.True(t, a)
	assert.Equal(t, "4H", top, "in the other row the troll blocks nothing (own-row)")
}

func TestWithBothRowsBlockingTheTrollsColumnIsAWall(t *testing.T) {
	s := build(t, spec{upper: [cols]string{"2S", "3S", "4S", "6S", "7S", "8S"}, lower: [cols]string{"2H", "3H", "4H 9H*", "5H", "6H", "7H"}, troll: "upper 2", blockBoth: true})
	s.flightPhase(nil)
	_, a, top := at(t, s, "lower 4")
	assert.True(t, a)
	assert.Equal(t, "9H", top, "the troll's column blocks the lower row too: it runs right")
}

func TestTheBrickUnderTheTrollAndTheOneInItsHandsDoNotFlee(t *testing.T) {
	up, low := standardRows()
	low[1] = "5H 6H*"
	s := build(t, spec{upper: up, lower: low, troll: "lower 2", carry: "9C"})
	s.flightPhase(nil)
	n, a, top := at(t, s, "lower 2")
	assert.Equal(t, []any{2, true, "6H"}, []any{n, a, top})
	assert.Equal(t, "9C", s.carry.String())
}

func TestTheBridgeCollapsesWhenItNoLongerJoinsBankToBank(t *testing.T) {
	s := build(t, spec{lower: [cols]string{"2H", "3H", "4H", "5H*", "6H", "7H"}, troll: "lower 1", deck: []string{"2C", "3C"}, actions: 1})
	do(t, s, "move right")
	require.True(t, s.Over(), "lower 4's only brick ran to lower 5, leaving a gap")
	res := s.Result()
	assert.Empty(t, res.Winners)
	assert.Equal(t, []int{2}, res.Scores)
	assert.False(t, res.Perfect)
	assert.Contains(t, res.Text, "the bridge collapses")
}

func TestTheBridgeCollapsesWithNoBrickLeftAtAnEnd(t *testing.T) {
	s := build(t, spec{upper: [cols]string{"", "3S", "4S", "5S", "6S", "7S"}, lower: [cols]string{"2H*", "3H", "4H", "5H", "6H", "7H"}, troll: "lower 3"})
	s.flightPhase(nil)
	assert.True(t, s.over, "both position-1 bricks are gone")
	assert.False(t, s.won)
}

func TestAGapOpenedDuringTheTurnCanBeMendedBeforeTheBridgeIsJudged(t *testing.T) {
	s := build(t, spec{upper: [cols]string{"2S", "3S", "", "5S", "6S", "7S"}, lower: [cols]string{"2H", "3H", "4H*", "5H", "6H", "7H"}, troll: "lower 2", carry: "9S", deck: []string{"2C"}})
	do(t, s, "shovel right") // lower 3 is now empty: the bridge is cut for now
	assert.False(t, s.over)
	do(t, s, "lay right")
	assert.False(t, s.over, "mended before the flight phase")
}

// --- Winning and losing ---

func TestTheTrollWinsWhenTheDeckIsSpentNothingIsSetAsideAndAllSleep(t *testing.T) {
	up, low := standardRows()
	up[2] = ""
	low[2] = "7H*"
	s := build(t, spec{upper: up, lower: low, troll: "lower 4"})
	do(t, s, "move left")
	assert.False(t, s.over, "one brick is still awake")
	do(t, s, "stomp")
	require.True(t, s.Over())
	res := s.Result()
	assert.Equal(t, []int{0}, res.Winners)
	assert.Equal(t, []int{0}, res.Scores)
	assert.False(t, res.Perfect, "upper 3 is a gap")
	assert.Contains(t, res.Text, "A win.")
}

func TestAWinWithNoGapIsPerfect(t *testing.T) {
	up, low := standardRows()
	low[2] = "7H*"
	s := build(t, spec{upper: up, lower: low, troll: "lower 4"})
	do(t, s, "move left")
	do(t, s, "stomp")
	res := s.Result()
	assert.Equal(t, []int{0}, res.Winners)
	assert.True(t, res.Perfect)
	assert.True(t, s.View(0).(View).Perfect)
}

func TestNoWinWhileCardsWaitSetAside(t *testing.T) {
	up, low := standardRows()
	low[2] = "7H*"
	s := build(t, spec{upper: up, lower: low, troll: "lower 4", carry: "5C"})
	do(t, s, "club left") // the club is set aside: one more awakening to come
	do(t, s, "move up")
	assert.False(t, s.over)
	assert.Empty(t, asideNames(s), "the club was played into the stacks")
	assert.True(t, s.anyAwake(), "and woke a brick")
}

func TestWithTheDeckSpentTheTurnsGoOnWithoutAwakenings(t *testing.T) {
	up, low := standardRows()
	up[2] = "7S*"
	s := build(t, spec{upper: up, lower: low, troll: "lower 6"})
	ev := do(t, s, "move left")
	ev = append(ev, do(t, s, "move up")...)
	assert.False(t, s.over, "7S is still awake and running")
	assert.Contains(t, texts(ev), "Turn 6: nothing is left to play, so no brick wakes.")
	assert.Equal(t, 6, s.turn)
}

func TestALossScoresTheCardsLeftInTheDeckOfAwakening(t *testing.T) {
	s := build(t, spec{lower: [cols]string{"2H*", "3H", "4H", "5H", "6H", "7H"}, troll: "lower 4", deck: []string{"2C", "3C", "4C", "5C", "6C"}})
	s.flightPhase(nil)
	res := s.Result()
	assert.Equal(t, []int{5}, res.Scores)
	assert.Empty(t, res.Winners)
	assert.NotNil(t, res.Winners, "an empty list, not null")
	assert.Equal(t, 5, s.View(0).(View).Score)
}

// --- Variants and options ---

func TestTheLayoutVariantsAddBricksAndShortenTheDeck(t *testing.T) {
	for variant, want := range map[string]struct {
		row  [cols]int
		deck int
	}{
		"standard":    {[cols]int{3, 2, 1, 1, 2, 3}, 27},
		"sturdy-ends": {[cols]int{4, 2, 1, 1, 2, 4}, 23},
		"easy":        {[cols]int{4, 3, 2, 2, 3, 4}, 15},
		"tutorial":    {[cols]int{5, 4, 3, 3, 4, 5}, 3},
	} {
		g, err := Game.New(game.Config{Players: 1, Variant: variant, Seed: 3})
		require.NoError(t, err)
		s := g.(*state)
		for r := range rows {
			for c := range cols {
				assert.Equal(t, want.row[c], int(s.bridge[r][c].n), "%s %s", variant, place(r, c))
			}
		}
		assert.Equal(t, want.deck, int(s.deck.n)+1, "%s: awakenings after the first card", variant)
	}
}

func TestTheStartingCardOptionHandsTheTrollTheTopCardButNeverAHeart(t *testing.T) {
	sawHeart, sawOther := false, false
	for seed := uint64(0); seed < 200 && !(sawHeart && sawOther); seed++ {
		r := game.NewRand(seed)
		cards := deck.New(0)
		deck.Shuffle(&r, cards)
		given := cards[50] // after the first card (51)
		g, err := Game.New(game.Config{Players: 1, Seed: seed, Options: map[string]string{"start-with": "card"}})
		require.NoError(t, err)
		s := g.(*state)
		require.NoError(t, s.Audit())
		switch {
		case given.Suit == deck.Hearts:
			sawHeart = true
			assert.Equal(t, 26, int(s.deck.n), "the first card, the heart, no draw")
			assert.Equal(t, holdNone, s.holding)
			assert.Contains(t, append(s.lowerPad.list(), s.upperPad.list()...), given, "a heart is set aside and played on the first turn instead of a draw")
			assert.Equal(t, 2, int(s.lowerPad.n+s.upperPad.n))
		case given == aceClubs:
			assert.True(t, s.club)
		default:
			sawOther = true
			assert.Equal(t, 25, int(s.deck.n), "the first card, the given card, the first draw")
			assert.Equal(t, holdAwake, s.holding)
			assert.Equal(t, given, s.carry)
		}
	}
	assert.True(t, sawHeart && sawOther)
}

func TestTHECLUBFromTheStartIsInTheTrollsHandsNotTheDeck(t *testing.T) {
	g, err := Game.New(game.Config{Players: 1, Seed: 5, Options: map[string]string{"start-with": "the-club"}})
	require.NoError(t, err)
	s := g.(*state)
	assert.True(t, s.club)
	assert.False(t, s.gem)
	assert.Equal(t, 25, int(s.deck.n), "51 cards: 24 bricks, the first card, one draw")
	for _, c := range s.deck.cards[:s.deck.n] {
		assert.NotEqual(t, aceClubs, c)
	}
	require.NoError(t, s.Audit())
	assert.Contains(t, s.explain(action{kind: actPickup}, fHandsFull), "THE CLUB")
}

func TestToysGiveTheTrollTHECLUBAndAReusableAceOfDiamonds(t *testing.T) {
	g, err := Game.New(game.Config{Players: 1, Seed: 5, Options: map[string]string{"start-with": "toys"}})
	require.NoError(t, err)
	s := g.(*state)
	assert.True(t, s.club && s.gem && s.reusableAD)
	assert.Equal(t, 24, int(s.deck.n))
	require.NoError(t, s.Audit())
}

func TestTheReusableAceOfDiamondsComesBackAfterEachThrow(t *testing.T) {
	up, low := standardRows()
	up[3] = "AD*"
	up[4] = "9S 10S*"
	low[0] = "2H 3H 4H*"
	s := build(t, spec{upper: up, lower: low, troll: "lower 4", reusableAD: true})
	ev := do(t, s, "pickup up")
	assert.Contains(t, texts(ev)[0], "reusable")
	assert.True(t, s.gem)
	refuse(t, s, "throw down", "not thrown for nothing")
	do(t, s, "throw left")
	_, a, _ := at(t, s, "lower 1")
	assert.False(t, a)
	assert.Empty(t, asideNames(s), "the ace is kept")
	assert.NotContains(t, append(s.lowerPad.list(), s.upperPad.list()...), aceDiamonds)
	assert.True(t, s.gem)
}

func TestWithoutTheOptionTheAceOfDiamondsIsAnOrdinaryDiamond(t *testing.T) {
	up, low := standardRows()
	up[3] = "AD*"
	low[0] = "2H 3H 4H*"
	s := build(t, spec{upper: up, lower: low, troll: "lower 4", actions: 1})
	do(t, s, "pickup up")
	assert.False(t, s.gem)
	assert.Equal(t, "AD", s.carry.String())
	up, _ = standardRows()
	s = build(t, spec{upper: up, lower: [cols]string{"2H 3H 4H*", "5H 6H", "7H", "8H", "9H 10H", "JH QH KH"}, troll: "lower 4", carry: "AD"})
	do(t, s, "throw left")
	assert.Equal(t, []string{"AD"}, asideNames(s), "thrown and set aside like any diamond")
}

func TestOptionsAndVariantsAreChecked(t *testing.T) {
	_, err := Game.New(game.Config{Players: 2})
	assert.Error(t, err)
	_, err = Game.New(game.Config{Players: 1, Variant: "nightmare"})
	assert.Error(t, err)
	_, err = Game.New(game.Config{Players: 1, Options: map[string]string{"start-with": "sword"}})
	assert.Error(t, err)
	in := Game.Info()
	assert.Equal(t, "troll", in.ID)
	assert.Equal(t, "standard", in.Variants[0].ID)
}

// --- Refusals ---

func TestNonsenseIsRefusedWithAReason(t *testing.T) {
	up, low := standardRows()
	s := build(t, spec{upper: up, lower: low, troll: "lower 4"})
	for _, c := range []struct {
		m    game.Move
		want string
	}{
		{game.M(1, "stomp"), "only {0} plays"},
		{game.M(0, "jump"), "no action \"jump\""},
		{game.M(0, "move"), "one direction"},
		{game.M(0, "move", "left", "right"), "one direction"},
		{game.M(0, "stomp", "hard"), "takes no argument"},
		{game.M(0, "club", "left"), "holds no club"},
		{game.M(0, "throw", "left"), "holds no diamond"},
		{game.M(0, "shovel", "left"), "holds no spade"},
	} {
		before := *s
		_, err := s.Apply(c.m)
		require.Error(t, err, c.m.String())
		var re *game.RefusedError
		assert.ErrorAs(t, err, &re)
		assert.Contains(t, err.Error(), c.want)
		assert.Equal(t, before, *s)
	}
}

// --- Secrecy ---

func TestTheViewShowsNeitherTheDeckOrderNorSleepingBricks(t *testing.T) {
	up, low := standardRows()
	low[2] = "7H*"
	s := build(t, spec{upper: up, lower: low, troll: "lower 4", deck: []string{"AC", "AD", "AS"}, carry: "~KD"})
	b, err := json.Marshal(s.View(game.Table))
	require.NoError(t, err)
	view := string(b)
	assert.Contains(t, view, `"7H"`, "an awake brick shows")
	for _, hidden := range []string{`"AC"`, `"AD"`, `"AS"`, `"2S"`, `"8H"`, `"KD"`} {
		assert.NotContains(t, view, hidden)
	}
	assert.Contains(t, view, `"deck":3`)
	assert.Equal(t, s.View(0), s.View(game.Table), "a solitaire: the player and the table see the same")
}
func texts(ev []game.Event) []string {
	out := make([]string, len(ev))
	for i, e := range ev {
		out[i] = e.Text
	}
	return out
}

// Holding the reusable ace of diamonds fills the troll's hands for good, as
// THE CLUB does: nothing else can be picked up.
func TestTheReusableAceOfDiamondsBarsPickingUpAnythingElse(t *testing.T) {
	up, low := standardRows()
	up[3] = "8S*"
	low[2] = "7H 2C*"
	s := build(t, spec{upper: up, lower: low, troll: "lower 4", gem: true, reusableAD: true})
	refuse(t, s, "pickup up", "hands are full: the reusable ace of diamonds")
	refuse(t, s, "pickup left", "hands are full")
	for m := range legalSet(s) {
		assert.NotContains(t, m, "pickup", "Legal offers no pickup")
	}
	do(t, s, "throw up")
	assert.True(t, s.gem, "it comes back")
	refuse(t, s, "pickup left", "hands are full: the reusable ace of diamonds")
}

// A fleeing brick moves onto the next position even when it is empty, and
// counts there as a brick: here it is the only link to the left bank, and
// the bridge stands.
func TestAFleeingBrickFloatsOntoAnEmptyPositionAndHoldsTheBridge(t *testing.T) {
	s := build(t, spec{
		upper:   [cols]string{"", "2S", "3S", "4S", "5S", "6S"},
		lower:   [cols]string{"", "9C 5H*", "", "", "", ""},
		troll:   "upper 4",
		actions: 1,
		deck:    []string{"2D", "3D"},
	})
	require.False(t, connected(s.occupancy()), "before the flight nothing reaches the left bank")
	rig(t, s, 2)
	ev := do(t, s, "move left")
	assert.Contains(t, texts(ev), "The 5 of hearts runs from lower 2 to lower 1.")
	n, awake, top := at(t, s, "lower 1")
	assert.Equal(t, []any{1, true, "5H"}, []any{n, awake, top}, "it floats over the empty position, still awake")
	n, _, top = at(t, s, "lower 2")
	assert.Equal(t, []any{1, "9C"}, []any{n, top})
	assert.False(t, s.over, "lower 1, lower 2 and the upper row join the banks")
	assert.True(t, connected(s.occupancy()))
}

// With start-with=card the troll may be handed the ace of clubs: that is
// THE CLUB, kept for good, not an ordinary carried club.
func TestTheStartingCardMayBeTheAceOfClubsWhichIsTHECLUB(t *testing.T) {
	for seed := uint64(0); seed < 3000; seed++ {
		r := game.NewRand(seed)
		cards := deck.New(0)
		deck.Shuffle(&r, cards)
		if cards[50] != aceClubs { // the card after the first one
			continue
		}
		g, err := Game.New(game.Config{Players: 1, Seed: seed, Options: map[string]string{"start-with": "card"}})
		require.NoError(t, err)
		s := g.(*state)
		require.NoError(t, s.Audit())
		assert.True(t, s.club, "seed %d", seed)
		assert.Equal(t, holdNone, s.holding, "THE CLUB is not carried as an ordinary card")
		assert.Equal(t, 25, int(s.deck.n), "the first card, THE CLUB, the first draw")
		assert.True(t, s.View(0).(View).TheClub)
		assert.False(t, s.handsFree(), "and it bars picking anything up")
		return
	}
	t.Fatal("no seed below 3000 hands out the ace of clubs")
}
