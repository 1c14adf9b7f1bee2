package woodlouse

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tableref/tableref/rules/game"
)

const ex = "woodlouse,rat,spider,fly" // the rulebook's example row

func newState(t *testing.T, cfg game.Config) *State {
	t.Helper()
	gs, err := Game.New(cfg)
	require.NoError(t, err)
	require.NoError(t, gs.Audit())
	return gs.(*State)
}

// cardsInPlay counts every card of the game wherever it is.
func cardsInPlay(s *State) int {
	n := len(s.pile) + len(s.box) + 1 // the trainer's card
	for _, p := range s.scores {
		n += len(p)
	}
	return n
}

func TestThreeToSixPlayers(t *testing.T) {
	for p := 3; p <= 6; p++ {
		_, err := Game.New(game.Config{Players: p})
		assert.NoError(t, err, "%d players", p)
	}
	for _, p := range []int{0, 2, 7} {
		_, err := Game.New(game.Config{Players: p})
		assert.ErrorContains(t, err, "3 to 6 players", "%d players", p)
	}
	in := Game.Info()
	assert.Equal(t, "woodlouse", in.ID)
	assert.Equal(t, Basic, in.Variants[0].ID, "basic is the default")
}

func TestBasicGameUsesFourAnimalsAndFortyCards(t *testing.T) {
	left := map[Species]int{}
	for seed := range uint64(40) {
		s := newState(t, game.Config{Players: 4, Seed: seed})
		require.Len(t, s.order, 4)
		assert.Equal(t, 40, cardsInPlay(s))
		for _, sp := range AllSpecies {
			if !s.order.has(sp) {
				left[sp]++
			}
		}
	}
	assert.Len(t, left, 5, "each animal is left out in some game: %v", left)
}

func (o Order) has(sp Species) bool { return o.position(sp) > 0 }

func (o Order) position(sp Species) int {
	for i, x := range o {
		if x == sp {
			return i + 1
		}
	}
	return 0
}

func TestHarderGameUsesAllFiftyCards(t *testing.T) {
	for p := 3; p <= 6; p++ {
		s := newState(t, game.Config{Players: p, Variant: Harder, Seed: 3})
		assert.Len(t, s.order, 5)
		assert.Equal(t, 50, cardsInPlay(s))
		assert.Equal(t, PileSize(p), len(s.pile)+1, "the basic pile size, less the drawn card")
	}
}

func TestEasierGameUsesThreeAnimalsAndATwelveCardPile(t *testing.T) {
	for p := 3; p <= 6; p++ {
		s := newState(t, game.Config{Players: p, Variant: Easier, Seed: 5})
		assert.Len(t, s.order, 3)
		assert.Equal(t, 30, cardsInPlay(s))
		assert.Equal(t, 12, len(s.pile)+1)
		assert.Equal(t, 30-12-3*p, len(s.box))
	}
}

func TestEachAnimalHasTwoCardsOfEachNumber(t *testing.T) {
	s := newState(t, game.Config{Players: 3, Variant: Harder})
	count := map[Card]int{}
	all := append(append([]uint8{s.card}, s.pile...), s.box...)
	for _, p := range s.scores {
		all = append(all, p...)
	}
	for _, id := range all {
		count[cardOf(id)]++
	}
	require.Len(t, count, 25)
	for c, n := range count {
		assert.Equal(t, 2, n, "%s", c)
	}
}

func TestEachPlayerGetsThreeFaceDownScoreCards(t *testing.T) {
	s := newState(t, game.Config{Players: 5, Seed: 8})
	for seat := range 5 {
		assert.Len(t, s.scores[seat], 3)
	}
	for seat := game.Table; seat < 5; seat++ {
		v := viewOf(t, s, seat)
		assert.Equal(t, []int{3, 3, 3, 3, 3}, v.Scores, "only the sizes of the score piles")
		b, _ := json.Marshal(v)
		for _, p := range s.scores {
			pile, _ := json.Marshal(names(p))
			assert.NotContains(t, string(b), string(pile), "score cards are unseen, even by their owner")
		}
	}
}

func TestThePileSizeDependsOnThePlayers(t *testing.T) {
	want := map[int]int{3: 15, 4: 16, 5: 15, 6: 18}
	for p, n := range want {
		s := newState(t, game.Config{Players: p, Seed: 11})
		assert.Equal(t, n, len(s.pile)+1, "%d players (one card is in the trainer's hand)", p)
		assert.Equal(t, 40-n-3*p, len(s.box), "%d players: the rest stays in the box", p)
		assert.Equal(t, n-1, viewOf(t, s, game.Table).Pile)
	}
}

func TestTheFirstSeatIsTheFirstTrainerAndTheRoleGoesClockwise(t *testing.T) {
	s := build(t, table{players: 3, order: ex, pile: []string{"1 rat", "2 rats", "3 rats", "4 rats", "5 rats"}})
	assert.Equal(t, []int{0}, s.Turn())
	for _, want := range []int{1, 2, 0, 1} {
		tr := s.trainer
		c, _ := s.TrainerCard(tr)
		do(t, s, itoa(tr)+" code "+itoa(s.order.position(c.Species))+" "+itoa(c.Count))
		for _, g := range s.Turn() {
			do(t, s, itoa(g)+" pass")
		}
		assert.Equal(t, want, s.trainer)
		assert.Equal(t, []int{want}, s.Turn())
	}
}

func TestOnlyTheTrainerSeesTheDrawnCard(t *testing.T) {
	s := build(t, table{players: 3, order: ex, pile: []string{"4 spiders", "2 flies", "1 rat"}})
	assert.Equal(t, "4 spiders", viewOf(t, s, 0).Card)
	for _, seat := range []int{1, 2, game.Table} {
		assert.Empty(t, viewOf(t, s, seat).Card)
	}
	c, ok := s.TrainerCard(0)
	assert.True(t, ok)
	assert.Equal(t, Card{Spider, 4}, c)
	_, ok = s.TrainerCard(1)
	assert.False(t, ok)

	ev := do(t, s, "0 code 3 4")
	ev = append(ev, do(t, s, "1 pass")...)
	ev = append(ev, do(t, s, "2 pass")...)
	var drawn []game.Event
	for _, e := range ev {
		if e.Type == "drawn" {
			drawn = append(drawn, e)
		} else {
			assert.NotContains(t, e.Text, "2 flies", "a public event tells the next card: %s", e.Text)
		}
	}
	require.Len(t, drawn, 1)
	assert.Equal(t, []int{1}, drawn[0].To, "the drawn card is told to the new trainer alone")
	assert.Contains(t, drawn[0].Text, "2 flies")
	assert.Equal(t, "2 flies", viewOf(t, s, 1).Card)
	assert.Empty(t, viewOf(t, s, 0).Card)
}

func TestTheRightCodeLetsEveryoneElseGuessAtOnce(t *testing.T) {
	s := build(t, table{players: 5, order: ex, pile: []string{"4 spiders", "1 rat"}, trainer: 2})
	// The rulebook's example: spiders at position 3, four of them.
	ev := do(t, s, "2 code 3 4")
	assert.Equal(t, []string{"code"}, eventTypes(ev))
	assert.Contains(t, ev[0].Text, "{2} gives 3 bangs and 4 claps")
	assert.Equal(t, []int{0, 1, 3, 4}, s.Turn(), "every non-trainer may guess, out of turn")
	v := viewOf(t, s, game.Table)
	assert.Equal(t, &Code{3, 4}, v.Code)
	assert.Equal(t, "guess", v.Phase)
	for _, seat := range []int{0, 1, 3, 4} {
		assert.Len(t, s.Legal(seat), 4*5+1, "every animal in play with every number, and pass")
	}
	assert.Empty(t, s.Legal(2))
}

func TestTheCodeIsCheckedAgainstTheCard(t *testing.T) {
	for _, code := range []string{"4 3", "3 3", "2 4", "3 5"} {
		s := build(t, table{players: 3, order: ex, pile: []string{"4 spiders", "1 rat"}})
		ev := do(t, s, "0 code "+code)
		assert.Equal(t, "mistake", ev[0].Type, "code %s for 4 spiders", code)
	}
	s := build(t, table{players: 3, order: ex, pile: []string{"4 spiders", "1 rat"}})
	assert.Equal(t, []game.Move{game.M(0, "code", "3", "4")}, s.Legal(0), "only the right code is listed")
}

func TestAWrongCodeSendsTheCardAndAScoreCardUnderThePile(t *testing.T) {
	s := build(t, table{players: 3, order: ex, pile: []string{"4 spiders", "1 rat", "2 rats"},
		scores: [][]string{{"1 fly", "5 flies"}, {"3 flies"}, {}}})
	ev := do(t, s, "0 code 4 3") // bangs and claps swapped: 3 flies
	require.Equal(t, "mistake", ev[0].Type)
	assert.Contains(t, ev[0].Text, "the card shows 4 spiders")
	assert.Contains(t, ev[0].Text, "with one of {0}'s score cards")
	assert.Equal(t, []string{"1 fly"}, names(s.scores[0]), "the top score card went")
	assert.Equal(t, []string{"2 rats", "4 spiders", "5 flies"}, pileTopFirst(s), "1 rat was drawn by the next trainer")
	assert.Equal(t, 1, s.trainer, "the mistake ends the turn")
	assert.Equal(t, "code", viewOf(t, s, game.Table).Phase)
	assert.Equal(t, &Revealed{Card: "4 spiders", How: "a wrong code: under the pile"}, viewOf(t, s, 2).Last)
}

func TestAWrongCodeWithoutScoreCardsSendsOnlyTheCard(t *testing.T) {
	s := build(t, table{players: 3, order: ex, pile: []string{"4 spiders", "1 rat"}})
	ev := do(t, s, "0 code 3 3")
	assert.Contains(t, ev[0].Text, "{0} has no score card to add")
	assert.Equal(t, []string{"4 spiders"}, pileTopFirst(s))
}

func TestACodeThatFitsNoCardIsAMistake(t *testing.T) {
	s := build(t, table{players: 3, order: ex, pile: []string{"4 spiders", "1 rat"}})
	ev := do(t, s, "0 code 7 4")
	assert.Equal(t, "mistake", ev[0].Type)
	s = build(t, table{players: 3, order: ex, pile: []string{"4 spiders", "1 rat"}})
	ev = do(t, s, "0 code 3 0")
	assert.Equal(t, "mistake", ev[0].Type)
	s = build(t, table{players: 3, order: ex, pile: []string{"4 spiders", "1 rat"}})
	refused(t, s, "0 code 0 0", "no code at all")
	refused(t, s, "0 code 21 1", "from 0 to 20")
}

func TestTheFirstRightGuessWinsTheCard(t *testing.T) {
	s := build(t, table{players: 4, order: ex, pile: []string{"4 spiders", "1 rat"},
		scores: [][]string{{}, {"1 fly"}, {"2 flies"}, {"3 flies"}}})
	do(t, s, "0 code 3 4")
	ev := do(t, s, "2 guess spider 4")
	assert.Equal(t, "guess-right", ev[0].Type)
	assert.Contains(t, ev[0].Text, "{2} calls 4 spiders: right! {2} wins the card.")
	assert.Equal(t, []string{"2 flies", "4 spiders"}, names(s.scores[2]), "face down on top of the score pile")
	assert.Equal(t, 1, s.trainer, "the turn is over")
	// A guess at the card just won, arriving late, hears that the card is
	// gone, not something about the next card.
	refused(t, s, "3 guess spider 4", "too late: the last card (4 spiders) is gone already, won by {2}; wait for {1}'s code")
	assert.Equal(t, &Revealed{Card: "4 spiders", How: "won by {2}"}, viewOf(t, s, 3).Last)
}

func TestAGuessAfterTheTrainersMistakeHearsTheCardIsGone(t *testing.T) {
	s := build(t, table{players: 3, order: ex, pile: []string{"4 spiders", "1 rat"},
		scores: [][]string{{"1 fly"}, {"2 flies"}, {"3 flies"}}})
	refused(t, s, "1 guess spider 4", "wait for the code: {0} has not given it yet")
	do(t, s, "0 code 1 1") // the card shows 4 spiders: a wrong code
	refused(t, s, "2 guess spider 4", "the last card (4 spiders) is gone already, a wrong code: under the pile")
}

// The role of trainer passes on as soon as a card is settled, so the seat
// that guessed a moment ago may be the trainer when its guess arrives: it
// hears that the card is gone, not that a trainer does not guess.
func TestALateGuessFromTheNewTrainerHearsTheCardIsGone(t *testing.T) {
	s := build(t, table{players: 3, order: ex, pile: []string{"4 spiders", "1 rat"},
		scores: [][]string{{"1 fly"}, {"2 flies"}, {"3 flies"}}})
	do(t, s, "0 code 3 4")
	do(t, s, "2 guess spider 4")
	require.Equal(t, 1, s.trainer)
	refused(t, s, "1 guess spider 4", "too late: the last card (4 spiders) is gone already, won by {2}; you are the trainer now: give the code for your card")
	refused(t, s, "1 pass", "too late: the last card (4 spiders) is gone already")
	do(t, s, "1 code 2 1")
	refused(t, s, "1 guess rat 1", "the trainer does not guess at their own card")
}

// A code heard twice, or entered by hand after the listener, reaches the
// engine after the trainer's turn is over: the card it was for is gone.
func TestALateCodeFromTheLastTrainerHearsTheCardIsGone(t *testing.T) {
	s := build(t, table{players: 3, order: ex, pile: []string{"4 spiders", "1 rat"},
		scores: [][]string{{"1 fly"}, {"2 flies"}, {"3 flies"}}})
	do(t, s, "0 code 3 4")
	do(t, s, "2 guess spider 4")
	refused(t, s, "0 code 3 4", "too late: your card (4 spiders) is gone already, won by {2}; {1} is the trainer now")
	refused(t, s, "2 code 2 1", "only the trainer, {1}, gives the code")
	// Once the next code is given, the last trainer is a guesser again, and
	// its late code still hears that its card is gone.
	do(t, s, "1 code 2 1")
	require.Contains(t, s.Turn(), 0)
	refused(t, s, "0 code 3 4", "too late: your card (4 spiders) is gone already, won by {2}; {1} is the trainer now")
}

func TestEachWrongGuessPaysTheTrainerAScoreCard(t *testing.T) {
	s := build(t, table{players: 3, order: ex, pile: []string{"4 spiders", "1 rat"},
		scores: [][]string{{"1 fly"}, {"2 flies", "3 flies"}, {"4 flies"}}})
	do(t, s, "0 code 3 4")
	ev := do(t, s, "1 guess spider 3")
	assert.Equal(t, "guess-wrong", ev[0].Type)
	assert.Equal(t, "{1} calls 3 spiders: wrong, and pays {0} a score card.", ev[0].Text)
	ev = do(t, s, "1 guess rat 4")
	assert.Equal(t, "guess-wrong", ev[0].Type)
	assert.Empty(t, s.scores[1])
	assert.Equal(t, []string{"1 fly", "3 flies", "2 flies"}, names(s.scores[0]), "each paid card went onto the trainer's pile")
	v := viewOf(t, s, game.Table)
	assert.Equal(t, []Guess{{1, "3 spiders"}, {1, "4 rats"}}, v.Wrong)
	assert.True(t, s.CalledWrong(Card{Rat, 4}))
	assert.Equal(t, 2, s.Tries(1))
}

// Every wrong shout costs the guesser a score card, even one that could
// never be right: an animal left out of this game, or more animals than any
// card shows.
func TestAShoutThatCannotBeRightIsStillAWrongShoutAndPays(t *testing.T) {
	s := build(t, table{players: 3, order: ex, pile: []string{"4 spiders", "1 rat"},
		scores: [][]string{{"1 fly"}, {"2 flies", "3 flies"}, {}}})
	do(t, s, "0 code 3 4")
	ev := do(t, s, "1 guess snail 4")
	assert.Equal(t, "guess-wrong", ev[0].Type)
	assert.Equal(t, "{1} calls 4 snails: wrong (there are no snails in this game), and pays {0} a score card.", ev[0].Text)
	assert.Equal(t, []string{"2 flies"}, names(s.scores[1]))
	assert.Equal(t, []string{"1 fly", "3 flies"}, names(s.scores[0]))
	ev = do(t, s, "1 guess 7 spiders")
	assert.Equal(t, "{1} calls 7 spiders: wrong (no card shows more than 5), and pays {0} a score card.", ev[0].Text)
	assert.Empty(t, s.scores[1])
	assert.Equal(t, 2, s.Tries(1))
	assert.Equal(t, []Guess{{1, "4 snails"}, {1, "7 spiders"}}, viewOf(t, s, game.Table).Wrong)
	// With an empty score pile such a shout is the seat's one free guess.
	ev = do(t, s, "2 guess snail 2")
	assert.Equal(t, "{2} calls 2 snails: wrong (there are no snails in this game), with no score card to pay.", ev[0].Text)
	refused(t, s, "2 guess spider 4", "may guess only once on each card")
}

func TestAnEmptyScorePileAllowsOneGuessPerCard(t *testing.T) {
	s := build(t, table{players: 3, order: ex, pile: []string{"4 spiders", "1 rat", "1 fly"},
		scores: [][]string{{"2 flies"}, {"3 flies"}, {}}})
	do(t, s, "0 code 3 4")
	ev := do(t, s, "2 guess spider 5")
	assert.Equal(t, "{2} calls 5 spiders: wrong, with no score card to pay.", ev[0].Text)
	assert.Equal(t, []string{"2 flies"}, names(s.scores[0]), "the trainer gets nothing")
	assert.Equal(t, []int{1}, s.Turn(), "seat 2 has had its one guess")
	refused(t, s, "2 guess spider 4", "may guess only once on each card")
	refused(t, s, "2 pass", "may guess only once")
	do(t, s, "1 pass")
	// On the next card seat 2 may guess once again.
	assert.Equal(t, 1, s.trainer)
	do(t, s, "1 code 2 1")
	assert.Equal(t, []int{0, 2}, s.Turn())
	right := s.Clone().(*State)
	do(t, right, "2 guess rat 1")
	assert.Equal(t, []string{"1 rat"}, names(right.scores[2]), "a free guess wins like any other")
	do(t, s, "2 guess rat 2")
	assert.Equal(t, []int{0}, s.Turn())
}

func TestAfterPayingTheLastCardOneFreeGuessRemains(t *testing.T) {
	s := build(t, table{players: 3, order: ex, pile: []string{"4 spiders", "1 rat"},
		scores: [][]string{{}, {"2 flies"}, {}}})
	do(t, s, "0 code 3 4")
	do(t, s, "1 guess spider 3") // pays the last card
	assert.Contains(t, s.Turn(), 1, "by default one free guess remains")
	do(t, s, "1 guess spider 5") // the free one
	assert.NotContains(t, s.Turn(), 1)
	ev := do(t, s, "2 guess rat 3")
	assert.Equal(t, []string{"guess-wrong", "kept", "trainer", "drawn"}, eventTypes(ev))
}

func TestAfterPayingTheLastCardStopEndsTheGuessing(t *testing.T) {
	s := build(t, table{players: 3, stop: true, order: ex, pile: []string{"4 spiders", "1 rat"},
		scores: [][]string{{}, {"2 flies"}, {}}})
	do(t, s, "0 code 3 4")
	do(t, s, "1 guess spider 3")
	assert.Equal(t, []int{2}, s.Turn(), "with after-last-card=stop seat 1 is done")
	refused(t, s, "1 guess spider 4", "paid away their last score card")
	ev := do(t, s, "2 guess rat 3")
	assert.Equal(t, "kept", ev[1].Type, "nobody may guess any more")
}

func TestWhenNobodyIsRightTheTrainerKeepsTheCard(t *testing.T) {
	s := build(t, table{players: 4, order: ex, pile: []string{"4 spiders", "1 rat"},
		scores: [][]string{{"1 fly"}, {"2 flies"}, {}, {"3 flies"}}})
	do(t, s, "0 code 3 4")
	do(t, s, "1 pass")
	do(t, s, "2 guess spider 3")
	assert.Equal(t, []int{3}, s.Turn())
	refused(t, s, "1 guess spider 4", "{1} passed on this card")
	ev := do(t, s, "3 pass")
	require.Equal(t, []string{"pass", "kept", "trainer", "drawn"}, eventTypes(ev))
	assert.Equal(t, "Nobody got it: the card was 4 spiders, and {0} keeps it.", ev[1].Text)
	assert.Equal(t, []string{"1 fly", "4 spiders"}, names(s.scores[0]))
	assert.Equal(t, 1, s.trainer)
}

func TestTheSequenceIsShuffledOnceEveryoneHasBeenTrainer(t *testing.T) {
	pile := []string{"1 rat", "2 rats", "3 rats", "4 rats", "5 rats", "1 fly", "2 flies", "3 flies", "4 flies"}
	s := build(t, table{players: 3, order: ex, pile: pile})
	var shuffles []int
	orders := map[string]bool{}
	for turn := 1; turn <= 8; turn++ {
		c, _ := s.TrainerCard(s.trainer)
		ev := do(t, s, fmt.Sprintf("%d code %d %d", s.trainer, s.order.position(c.Species), c.Count))
		for _, g := range s.Turn() {
			ev = append(ev, do(t, s, itoa(g)+" pass")...)
		}
		for _, e := range ev {
			if e.Type == "reshuffled" {
				shuffles = append(shuffles, turn)
				assert.Contains(t, e.Text, "From position 1: "+s.order[0])
			}
		}
		orders[s.order.String()] = true
	}
	assert.Equal(t, []int{3, 6}, shuffles, "after turns 3 and 6 of a 3-player game")
	assert.Greater(t, len(orders), 1, "the order changed")
}

// A trainer's mistake still ends that trainer's turn: when it is the last
// turn of a round, the sequence is shuffled before the next trainer draws,
// and the card put back under the pile is decoded by the new order later.
func TestTheSequenceIsShuffledAfterARoundEndingInATrainersMistake(t *testing.T) {
	s := build(t, table{players: 3, order: ex, trainer: 2, turns: 2,
		pile: []string{"4 spiders", "1 rat", "2 flies"}, scores: [][]string{{"1 fly"}, {}, {"3 flies"}}})
	ev := do(t, s, "2 code 1 1")
	require.Equal(t, []string{"mistake", "reshuffled", "trainer", "drawn"}, eventTypes(ev))
	assert.Contains(t, ev[1].Text, "From position 1: "+s.order[0])
	assert.Equal(t, 3, s.turns, "the mistaken turn counted")
	assert.Equal(t, 0, s.trainer, "a new round begins with seat 0")
	assert.Equal(t, []string{"2 flies", "4 spiders", "3 flies"}, pileTopFirst(s), "the card, then the trainer's score card, went under the pile")
	c, _ := s.TrainerCard(0)
	assert.Equal(t, "1 rat", c.String())
	// The trainer gives the code by the new order.
	ev = do(t, s, fmt.Sprintf("0 code %d 1", s.order.position(Rat)))
	assert.Equal(t, "code", ev[0].Type)

	// Never with the even-easier sequence.
	s = build(t, table{players: 3, variant: EvenEasier, order: "rat,spider,fly", trainer: 2, turns: 2,
		pile: []string{"4 spiders", "1 rat"}})
	ev = do(t, s, "2 code 1 1")
	assert.Equal(t, []string{"mistake", "trainer", "drawn"}, eventTypes(ev))
	assert.Equal(t, "rat,spider,fly", s.order.String())
}

func TestTheEvenEasierSequenceNeverChanges(t *testing.T) {
	for _, cards := range []string{"30", "40"} {
		cfg := game.Config{Players: 3, Variant: EvenEasier, Options: map[string]string{OptEvenEasierCards: cards}, Seed: 4}
		s := newState(t, cfg)
		want := map[string]int{"30": 3, "40": 4}[cards]
		assert.Len(t, s.order, want)
		first := s.order.String()
		r := game.NewRand(1)
		for !s.Over() {
			turn := s.Turn()
			seat := turn[r.IntN(len(turn))]
			ev, err := s.Apply(DefaultBot.Choose(s, seat, &r))
			require.NoError(t, err)
			for _, e := range ev {
				assert.NotEqual(t, "reshuffled", e.Type)
			}
			assert.Equal(t, first, s.order.String())
		}
		assert.Greater(t, s.turns, 3, "more than a round was played")
	}
}

func TestTheGameEndsWhenThePileIsEmpty(t *testing.T) {
	s := build(t, table{players: 3, order: ex, pile: []string{"4 spiders"},
		scores: [][]string{{"1 fly"}, {"2 flies"}, {"3 flies"}}})
	assert.False(t, s.Over(), "the last card is still played out")
	do(t, s, "0 code 3 4")
	ev := do(t, s, "1 guess spider 4")
	assert.Equal(t, []string{"guess-right", "game-over"}, eventTypes(ev))
	assert.True(t, s.Over())
	assert.Empty(t, s.Turn())
	for seat := range 3 {
		assert.Empty(t, s.Legal(seat))
	}
	_, err := s.Apply(game.M(2, "pass"))
	assert.ErrorIs(t, err, game.ErrOver)
	v := viewOf(t, s, game.Table)
	assert.Equal(t, "over", v.Phase)
	assert.Equal(t, []int{1, 6, 3}, v.Values)
	require.NotNil(t, v.Result)
}

func TestAMistakeOnTheLastCardRefillsThePile(t *testing.T) {
	s := build(t, table{players: 3, order: ex, pile: []string{"4 spiders"},
		scores: [][]string{{"1 fly"}, {"2 flies"}, {"3 flies"}}})
	do(t, s, "0 code 4 4")
	assert.False(t, s.Over())
	assert.Equal(t, 1, s.trainer)
	assert.Equal(t, []string{"1 fly"}, pileTopFirst(s), "the trainer's score card is drawn next")
	assert.Equal(t, "4 spiders", viewOf(t, s, 1).Card)
}

func finish(t *testing.T, scores [][]string) game.Result {
	t.Helper()
	// The last card goes to the trainer, seat 0, when everyone passes;
	// scores[0] is given without it.
	s := build(t, table{players: len(scores), order: ex, pile: []string{"5 rats"}, scores: scores})
	do(t, s, "0 code 2 5")
	for _, g := range s.Turn() {
		do(t, s, itoa(g)+" pass")
	}
	require.True(t, s.Over())
	return s.Result()
}

func TestMostCardsWins(t *testing.T) {
	r := finish(t, [][]string{{"1 fly"}, {"1 spider", "2 spiders", "3 spiders"}, {"5 flies", "5 woodlice"}})
	assert.Equal(t, []int{1}, r.Winners)
	assert.Equal(t, []int{2, 3, 2}, r.Scores)
	assert.Equal(t, "{1} wins with the most cards: 3 cards.", r.Text)
}

func TestATieOnCardsGoesToTheMostAnimals(t *testing.T) {
	r := finish(t, [][]string{{"1 fly"}, {"1 spider", "2 spiders"}, {"5 flies", "5 woodlice"}})
	// seat 0: 1 fly + 5 rats = 6; seat 1: 3; seat 2: 10
	assert.Equal(t, []int{2}, r.Winners)
	assert.Equal(t, "{0}, {1} and {2} tie on 2 cards; {2} wins on the animals on their cards, 6 to 3 to 10.", r.Text)
}

func TestATieOnCardsAndAnimalsIsShared(t *testing.T) {
	r := finish(t, [][]string{{"1 fly"}, {"1 spider", "5 spiders"}, {"2 flies", "2 woodlice"}})
	// seat 0: 6, seat 1: 6, seat 2: 4
	assert.Equal(t, []int{0, 1}, r.Winners)
	assert.Equal(t, "{0}, {1} and {2} tie on 2 cards; on the animals on their cards {0} and {1} have the most, 6 each: {0} and {1} share the win.", r.Text)
	r = finish(t, [][]string{{"1 fly"}, {"1 spider", "5 spiders"}, {}})
	assert.Equal(t, []int{0, 1}, r.Winners)
	assert.Equal(t, "{0} and {1} tie on 2 cards and on the animals on them, 6 each: {0} and {1} share the win.", r.Text)
}

func TestGuessesReadEitherWayRound(t *testing.T) {
	for _, g := range []string{"guess spider 4", "guess 4 spiders", "guess Spiders 4", "guess 4 spider"} {
		s := build(t, table{players: 3, order: ex, pile: []string{"4 spiders", "1 rat"}})
		do(t, s, "0 code 3 4")
		ev := do(t, s, "1 "+g)
		assert.Equal(t, "guess-right", ev[0].Type, g)
	}
}

func TestRefusals(t *testing.T) {
	s := build(t, table{players: 3, order: ex, pile: []string{"4 spiders", "1 rat"}, scores: [][]string{{}, {"1 fly"}, {}}})
	refused(t, s, "1 code 3 4", "only the trainer, {0}, gives the code")
	refused(t, s, "1 guess spider 4", "wait for the code")
	refused(t, s, "1 pass", "wait for the code")
	refused(t, s, "0 code 3", "number of bangs and the number of claps")
	refused(t, s, "0 code 3 4 5", "number of bangs and the number of claps")
	refused(t, s, "0 code three 4", `"three" is not a number of bangs`)
	refused(t, s, "0 code 3 -1", `"-1" is not a number of claps`)
	refused(t, s, "0 dance", `"dance" is no move`)
	refused(t, s, "3 pass", "there is no seat 3")
	do(t, s, "0 code 3 4")
	refused(t, s, "0 code 3 4", "given already")
	refused(t, s, "0 guess spider 4", "the trainer does not guess")
	refused(t, s, "0 pass", "the trainer does not guess")
	refused(t, s, "1 guess dog 4", `unknown animal "dog"`)
	refused(t, s, "1 guess spider 0", "0 is not a number of animals to shout: say 1 to 20")
	refused(t, s, "1 guess spider 21", "21 is not a number of animals to shout")
	refused(t, s, "1 guess spider -3", "-3 is not a number of animals to shout")
	refused(t, s, "1 guess spider many", `"many" is not a number of animals`)
	refused(t, s, "1 guess spider", "an animal and a number")
	refused(t, s, "1 pass now", "pass takes nothing")
}

func TestTheRefereeEntersACodeForTheTrainer(t *testing.T) {
	// The listener hears bangs and claps and enters them under the trainer's
	// seat; it reads them against the current order with Order().Decode.
	s := newState(t, game.Config{Players: 4, Seed: 21})
	c, _ := s.TrainerCard(s.Trainer())
	var bangs int
	for i, sp := range s.Order() {
		if sp == c.Species {
			bangs = i + 1
		}
	}
	heard, err := s.Order().Decode(bangs, c.Count)
	require.NoError(t, err)
	assert.Equal(t, c, heard)
	_, err = s.Apply(game.M(s.Trainer(), "code", itoa(bangs), itoa(c.Count)))
	require.NoError(t, err)
	got, ok := s.HeardCard()
	assert.True(t, ok)
	assert.Equal(t, c, got)
	b, cl, given := s.Code()
	assert.True(t, given)
	assert.Equal(t, []int{bangs, c.Count}, []int{b, cl})
}

func TestOptionsAreChecked(t *testing.T) {
	_, err := Game.New(game.Config{Players: 3, Options: map[string]string{OptAfterLastCard: "maybe"}})
	assert.ErrorContains(t, err, `"maybe" is not one of free-guess, stop`)
	_, err = Game.New(game.Config{Players: 3, Variant: "hardest"})
	assert.ErrorContains(t, err, `no variant "hardest"`)
	s := newState(t, game.Config{Players: 3, Options: map[string]string{OptAfterLastCard: Stop}})
	assert.True(t, s.stop)
}
