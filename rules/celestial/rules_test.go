package celestial

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tableref/tableref/rules/deck"
	"github.com/tableref/tableref/rules/game"
)

func TestTwoToFourWarriorsMayFight(t *testing.T) {
	for _, n := range []int{2, 3, 4} {
		_, err := Game.New(game.Config{Players: n})
		assert.NoError(t, err, "%d players", n)
	}
	for _, n := range []int{1, 5} {
		_, err := Game.New(game.Config{Players: n})
		assert.Error(t, err, "%d players", n)
	}
	_, err := Game.New(game.Config{Players: 2, Options: map[string]string{OptClans: "chosen"}})
	assert.Error(t, err)
	in := Game.Info()
	assert.Equal(t, "celestial", in.ID)
}

func TestEachSeatTakesTheThirteenCardsOfItsClansSuit(t *testing.T) {
	s := start(t, 4)
	for seat, suit := range []deck.Suit{deck.Diamonds, deck.Hearts, deck.Spades, deck.Clubs} {
		assert.Equal(t, deck.SuitCards(suit), handCards(s.hand[seat]), "seat %d", seat)
	}
	v := s.View(0).(View)
	assert.Equal(t, []string{"dragon", "phoenix", "tiger", "tortoise"},
		[]string{v.Players[0].Clan, v.Players[1].Clan, v.Players[2].Clan, v.Players[3].Clan})
	assert.Equal(t, 3, v.SettingBy, "the Tortoise describes the setting")
	assert.Equal(t, 13, v.Players[2].Cards)
}

// The Tortoise describes where the fight takes place; without a Tortoise
// the White Tiger does, and without either the Phoenix.
func TestTheSettingIsDescribedByTheTortoiseElseTheWhiteTigerElseThePhoenix(t *testing.T) {
	assert.Equal(t, 2, start(t, 3).View(game.Table).(View).SettingBy, "Dragon, Phoenix, White Tiger: the White Tiger")
	assert.Equal(t, 1, start(t, 2).View(game.Table).(View).SettingBy, "Dragon and Phoenix: the Phoenix")
	found := map[string]bool{}
	for seed := uint64(0); seed < 60; seed++ {
		gs, err := Game.New(game.Config{Players: 2, Seed: seed, Options: map[string]string{OptClans: ClansRandom}})
		require.NoError(t, err)
		s := gs.(*state)
		by := s.View(game.Table).(View).SettingBy
		has := map[int8]int{}
		for p := 0; p < 2; p++ {
			has[s.clan[p]] = p + 1
		}
		want := -1
		for _, c := range []int8{tortoise, tiger, phoenix} {
			if has[c] > 0 {
				want = has[c] - 1
				break
			}
		}
		require.GreaterOrEqual(t, want, 0, "two clans always include one that is not the Dragon")
		assert.Equal(t, want, by, "clans %v", s.clan)
		found[clanIDs[s.clan[by]]] = true
	}
	assert.Len(t, found, 3, "each of the three describers was seen")
}

func TestRandomClansGiveEachSeatADifferentClanAndItsSuit(t *testing.T) {
	seen := map[[4]int8]bool{}
	for seed := uint64(0); seed < 40; seed++ {
		gs, err := Game.New(game.Config{Players: 3, Seed: seed, Options: map[string]string{OptClans: ClansRandom}})
		require.NoError(t, err)
		s := gs.(*state)
		require.NoError(t, s.Audit())
		seen[s.clan] = true
		for seat := 0; seat < 3; seat++ {
			assert.Equal(t, suitMask(clanSuits[s.clan[seat]]), s.hand[seat])
		}
	}
	assert.Greater(t, len(seen), 5, "seeds draw different clans")
}

func TestTheDragonAttacksFirstAndTheCycleFollows(t *testing.T) {
	s := start(t, 4)
	var attackers []int
	for i := 0; i < 5; i++ {
		a := int(s.attacker)
		attackers = append(attackers, a)
		assert.Equal(t, []int{a}, s.Turn())
		d := (a + 1) % 4
		// equal values: a quick tie moves the battle on
		do(t, s, fmt.Sprintf("%d attack %d", a, d),
			fmt.Sprintf("%d play %s", a, own(s, a, i+1)),
			fmt.Sprintf("%d play %s", d, own(s, d, i+1)))
	}
	assert.Equal(t, []int{0, 1, 2, 3, 0}, attackers, "Dragon, Phoenix, White Tiger, Tortoise, Dragon")
}

func TestTheCycleFollowsTheClansNotTheSeats(t *testing.T) {
	for seed := uint64(0); seed < 200; seed++ {
		gs, err := Game.New(game.Config{Players: 3, Seed: seed, Options: map[string]string{OptClans: ClansRandom}})
		require.NoError(t, err)
		s := gs.(*state)
		// want a battle without the Dragon, seats not in clan order
		if s.clan[0] == dragon || s.clan[1] == dragon || s.clan[2] == dragon || s.clan[0] < s.clan[1] {
			continue
		}
		first := s.order[0]
		assert.Equal(t, int8(phoenix), s.clan[first], "without a Dragon the Phoenix attacks first")
		v := s.View(game.Table).(View)
		assert.Equal(t, int8(tortoise), s.clan[v.SettingBy])
		a := int(first)
		d := int(s.order[1])
		do(t, s, fmt.Sprintf("%d attack %s", a, clanIDs[s.clan[d]]), fmt.Sprintf("%d play 7H", a), fmt.Sprintf("%d play %s", d, own(s, d, 7)))
		assert.Equal(t, s.order[1], s.attacker, "the next clan of the cycle attacks next")
		return
	}
	t.Fatal("no seed gave a battle without a Dragon")
}

func TestAttackerAndDefenderLayTheirCardsSecretlyAndTogether(t *testing.T) {
	s := start(t, 3)
	evs := do(t, s, "0 attack 2")
	assert.Equal(t, []string{"attack"}, types(evs))
	assert.Equal(t, []int{0, 2}, s.Turn(), "both fighters act at once")
	assert.Empty(t, s.Legal(1), "the onlooker has nothing to do")
	assert.Len(t, s.Legal(2), 13)

	evs = do(t, s, "2 play 9S")
	assert.Equal(t, []int{0}, s.Turn(), "the defender has laid; the attacker still may")
	for _, e := range evs {
		if e.Public() {
			assert.NotContains(t, e.Text, "9S")
		} else {
			assert.Equal(t, []int{2}, e.To)
			assert.Contains(t, e.Text, "9S")
		}
	}
	assert.Contains(t, view(t, s, 2), `"pick":"9S"`)
	for _, seat := range []int{game.Table, 0, 1} {
		assert.NotContains(t, view(t, s, seat), "9S", "seat %d must not see the defender's card", seat)
	}
	assert.Contains(t, view(t, s, 0), `"picked":true`)
	assert.Contains(t, refused(t, s, "2 play 8S"), "already")

	evs = do(t, s, "0 play 5D")
	pub := texts(evs, game.Table)
	assert.Contains(t, pub, "5D")
	assert.Contains(t, pub, "9S", "both cards are revealed together")
	v := s.View(game.Table).(View)
	require.NotNil(t, v.LastFight)
	assert.Equal(t, FightView{Attacker: 0, Defender: 2, AttackerCard: cardOf(card(t, "5D")), DefenderCard: cardOf(card(t, "9S")), Winner: 2}, *v.LastFight)
}

func TestTheHigherCardWinsAndAcesAreLow(t *testing.T) {
	s := start(t, 2)
	do(t, s, "0 attack 1", "0 play AD", "1 play 2H")
	assert.Equal(t, int8(1), s.last.winner, "the two beats the ace")
	s = start(t, 2)
	do(t, s, "0 attack 1", "0 play KD", "1 play QH")
	assert.Equal(t, int8(0), s.last.winner, "the king beats the queen")
}

func TestEqualValuesDiscardBothCardsAndNobodyGains(t *testing.T) {
	s := start(t, 3)
	evs := do(t, s, "0 attack 1", "1 play 7H", "0 play 7D")
	assert.Contains(t, types(evs), "tie")
	assert.Equal(t, mask(t, "7D", "7H"), s.discards, "both cards discarded face up")
	assert.Equal(t, 12, count(s.hand[0]))
	assert.Equal(t, 12, count(s.hand[1]))
	assert.Zero(t, s.hand[0]&mask(t, "7H"), "no exchange after a tie")
	assert.Zero(t, s.tricks(0)+s.tricks(1))
	assert.Equal(t, phaseAttack, s.phase, "no discards after a tie")
	assert.Equal(t, []int{1}, s.Turn(), "the next clan attacks")
	assert.Contains(t, view(t, s, game.Table), `"tied":["7D","7H"]`)
}

func TestTheFightersExchangeTheirPlayedCards(t *testing.T) {
	s := start(t, 2)
	do(t, s, "0 attack 1", "0 play 3D", "1 play JH")
	assert.Equal(t, phaseDiscard, s.phase)
	assert.NotZero(t, s.hand[0]&mask(t, "JH"), "the attacker takes the defender's card")
	assert.NotZero(t, s.hand[1]&mask(t, "3D"), "the defender takes the attacker's card")
	assert.Equal(t, 13, count(s.hand[0]))
	assert.Equal(t, 13, count(s.hand[1]))
	assert.Equal(t, []int{0, 1}, s.Turn(), "both discard at once")
}

func TestTheDiscardsFormTheWinnersTrickUnseen(t *testing.T) {
	s := start(t, 3)
	do(t, s, "0 attack 2", "0 play 4D", "2 play 10S")
	evs := do(t, s, "0 discard 8D")
	assert.Equal(t, []int{2}, s.Turn())
	assert.Contains(t, texts(evs, 0), "8D")
	assert.NotContains(t, texts(evs, 2), "8D")
	assert.Contains(t, view(t, s, 0), `"discard":"8D"`)
	for _, seat := range []int{game.Table, 1, 2} {
		assert.NotContains(t, view(t, s, seat), "8D", "seat %d", seat)
	}
	// the defender discards the very card he was just given
	evs = do(t, s, "2 discard 4D")
	assert.Contains(t, types(evs), "trick")
	assert.Equal(t, 1, s.tricks(2), "the defender won the exchange and takes the trick")
	assert.Equal(t, 0, s.tricks(0))
	assert.Equal(t, mask(t, "8D", "4D"), s.trick[2], "both discards form the trick")
	assert.Equal(t, 12, count(s.hand[0]))
	assert.Equal(t, 12, count(s.hand[2]))
	assert.NotZero(t, s.hand[0]&mask(t, "10S"), "the attacker keeps the defender's card")
	for _, seat := range []int{game.Table, 0, 1, 2} {
		assert.NotContains(t, view(t, s, seat), "8D", "nobody sees the cards of a trick (seat %d)", seat)
	}
	assert.Equal(t, 1, s.View(game.Table).(View).Players[2].Tricks)
	assert.Equal(t, []int{1}, s.Turn(), "then the Phoenix attacks")
}

func TestTheAttackerWhoWinsTakesTheTrick(t *testing.T) {
	s := start(t, 2)
	do(t, s, "0 attack 1", "0 play QD", "1 play 5H", "1 discard QD", "0 discard 5H")
	assert.Equal(t, 1, s.tricks(0))
	assert.Equal(t, mask(t, "QD", "5H"), s.trick[0])
	assert.Equal(t, []int{1}, s.Turn())
}

func TestAWarriorWithOneCardLeavesTheFight(t *testing.T) {
	s := start(t, 3)
	setHand(t, s, 0, "2D", "9D")
	setHand(t, s, 1, "3H", "4H")
	setHand(t, s, 2, "5S", "6S", "7S", "8S", "9S")
	require.NoError(t, s.Audit())
	evs := do(t, s, "0 attack 1", "0 play 9D", "1 play 3H", "0 discard 2D", "1 discard 9D")
	assert.Equal(t, []string{"discarded", "discarded-own", "trick", "out", "out", "battle-over"}, types(evs))
	assert.True(t, s.out[0])
	assert.True(t, s.out[1])
	assert.Equal(t, mask(t, "3H"), s.hand[0])
	assert.Equal(t, mask(t, "4H"), s.hand[1])
	// the Tiger alone is left with cards: nobody to attack, the battle ends
	assert.Equal(t, phaseKeep, s.phase)
	assert.Equal(t, []int{2}, s.Turn())
	assert.Contains(t, view(t, s, 0), `"hand":["3H"]`, "a warrior knows the card he laid aside")
	for _, seat := range []int{game.Table, 0, 2} {
		assert.NotContains(t, view(t, s, seat), "4H", "the Phoenix's last card is face down")
	}
}

func TestNobodyAttacksOrIsAttackedWithOneCard(t *testing.T) {
	s := start(t, 3)
	setHand(t, s, 0, "2D", "9D")
	setHand(t, s, 1, "3H", "4H", "5H", "6H", "7H", "8H")
	require.NoError(t, s.Audit())
	do(t, s, "0 attack 1", "0 play 9D", "1 play 3H", "0 discard 2D", "1 discard 9D")
	require.True(t, s.out[0])
	// the Phoenix attacks next; the Dragon is no target
	assert.Equal(t, []int{1}, s.Turn())
	assert.Equal(t, []game.Move{game.M(1, "attack", "2")}, s.Legal(1))
	assert.Contains(t, refused(t, s, "1 attack 0"), "out of the fight")
	do(t, s, "1 attack 2", "1 play 5H", "2 play 5S")
	// the Tiger attacks, and after him the Dragon is passed over
	do(t, s, "2 attack 1", "2 play 6S", "1 play 6H")
	assert.Equal(t, []int{1}, s.Turn(), "the Dragon, with one card, does not attack")
}

func TestTheBattleEndsWhenEveryoneIsDownToOneCard(t *testing.T) {
	s := start(t, 2)
	for i := 0; i < 12; i++ {
		a := int(s.attacker)
		require.False(t, s.Over())
		do(t, s, fmt.Sprintf("%d attack %d", a, 1-a),
			fmt.Sprintf("%d play %s", a, own(s, a, 13-i)),
			fmt.Sprintf("%d play %s", 1-a, own(s, 1-a, 13-i)))
	}
	assert.True(t, s.Over(), "two warriors fight twelve times, then hold one card each")
	assert.Empty(t, s.Turn())
	assert.Equal(t, mask(t, "AD"), s.hand[0])
	assert.Equal(t, mask(t, "AH"), s.hand[1])
}

func TestTheLastWarriorDiscardsDownAndEachDiscardIsATrick(t *testing.T) {
	s := start(t, 3)
	setHand(t, s, 0, "2D", "9D")
	setHand(t, s, 1, "3H", "4H")
	setHand(t, s, 2, "5S", "6S", "7S", "8S", "9S")
	s.wins[2] = 4 // as in the rulebook's example: four wins, three cards to spare
	s.trick[2] = s.discards & mask(t, "AD", "3D", "4D", "5D", "6D", "7D", "8D", "10D")
	s.discards &^= s.trick[2]
	require.NoError(t, s.Audit())
	do(t, s, "0 attack 1", "0 play 9D", "1 play 3H", "0 discard 2D", "1 discard 9D")
	require.Equal(t, phaseKeep, s.phase)
	assert.Len(t, s.Legal(2), 5)
	assert.Contains(t, refused(t, s, "2 keep 3H"), "not in your hand")
	assert.Contains(t, refused(t, s, "0 keep 3H"), "only")
	assert.Equal(t, "not now: the battle is over; keep one card (keep CARD) and the rest become tricks", refused(t, s, "2 discard 5S"),
		"the last warrior discards down by naming the card he keeps")
	evs := do(t, s, "2 keep 8S")
	assert.Equal(t, 8, s.tricks(2), "four wins and four cards discarded")
	assert.Equal(t, mask(t, "8S"), s.hand[2])
	assert.True(t, s.Over())
	assert.Equal(t, []string{"keep", "final", "champion"}, types(evs))
	r := s.Result()
	assert.Equal(t, []int{2}, r.Winners, "8 is covered by 8 tricks")
	assert.Equal(t, []int{1, 0, 8}, r.Scores)
}

// ending sets every seat's final card and tricks and scores the battle.
func ending(t *testing.T, finals []string, tricks []int, opts ...string) (*state, game.Result) {
	t.Helper()
	s := start(t, len(finals), opts...)
	for seat, f := range finals {
		c := card(t, f)
		for p := range s.hand {
			s.hand[p] &^= 1 << uint(c)
		}
		s.hand[seat] = 1 << uint(c)
		s.wins[seat] = tricks[seat]
		s.out[seat] = true
	}
	s.attacker, s.defender = -1, -1
	evs := s.finish(nil)
	require.Equal(t, []string{"final", "champion"}, types(evs))
	assert.True(t, s.Over())
	r := s.Result()
	assert.Equal(t, tricks, r.Scores)
	for _, f := range finals {
		assert.Contains(t, evs[0].Text, f, "the last cards are all turned over")
		assert.Contains(t, view(t, s, game.Table), `"final":"`+f+`"`)
	}
	return s, r
}

func TestTheHighestFinalCardCoveredByTricksWins(t *testing.T) {
	_, r := ending(t, []string{"3D", "6H", "KS", "2C"}, []int{5, 6, 4, 9})
	assert.Equal(t, []int{1}, r.Winners, "6 with 6 tricks beats 3 with 5 and 2 with 9; the king is not covered")
	assert.Contains(t, r.Text, game.Seat(1))
	assert.Contains(t, r.Text, "highest final card")
}

func TestAFinalCardEqualToTheTricksIsCoveredUnlessTheOptionSaysBelow(t *testing.T) {
	_, r := ending(t, []string{"7D", "4H"}, []int{7, 9})
	assert.Equal(t, []int{0}, r.Winners, "7 is no more than 7 tricks")
	_, r = ending(t, []string{"7D", "4H"}, []int{7, 9}, OptQualify, QualifyBelow)
	assert.Equal(t, []int{1}, r.Winners, "with \"below\", 7 tricks do not cover a 7")
}

// With qualify=below a card equal to its tricks is not covered at all: when
// no card is below its tricks, the lowest final card wins, the equal one
// among them.
func TestWithBelowACardEqualToItsTricksIsUncoveredAndTheLowestCardWins(t *testing.T) {
	_, r := ending(t, []string{"7D", "9H"}, []int{7, 3}, OptQualify, QualifyBelow)
	assert.Equal(t, []int{0}, r.Winners, "nobody is below their tricks: the 7 is the lowest card")
	assert.Contains(t, r.Text, "nobody's final card was worth less than their tricks")
	_, r = ending(t, []string{"7D", "5H"}, []int{7, 3}, OptQualify, QualifyBelow)
	assert.Equal(t, []int{1}, r.Winners, "neither card is covered, and the 5 is the lower")
	_, r = ending(t, []string{"7D", "5H"}, []int{7, 3})
	assert.Equal(t, []int{0}, r.Winners, "by default the equal 7 is covered and wins")
}

func TestAnAceFinalCardCountsAsOne(t *testing.T) {
	_, r := ending(t, []string{"AD", "2H"}, []int{1, 0})
	assert.Equal(t, []int{0}, r.Winners, "the ace is covered by a single trick")
}

func TestEqualFinalCardsAreDecidedByMoreTricks(t *testing.T) {
	s, r := ending(t, []string{"5D", "5H", "2S"}, []int{6, 8, 3})
	assert.Equal(t, []int{1}, r.Winners)
	assert.Equal(t, byTricks, s.decided)
	assert.Contains(t, r.Text, "more tricks")
}

func TestEqualCardsAndTricksGoToTheClanLatestInTheCycle(t *testing.T) {
	s, r := ending(t, []string{"5D", "5H", "5S", "2C"}, []int{6, 6, 6, 1})
	assert.Equal(t, []int{2}, r.Winners, "the White Tiger before the Phoenix and the Dragon")
	assert.Equal(t, byClan, s.decided)
	_, r = ending(t, []string{"5D", "5H", "5S", "5C"}, []int{6, 6, 6, 6})
	assert.Equal(t, []int{3}, r.Winners, "the Tortoise first of all")
	_, r = ending(t, []string{"5D", "5H"}, []int{6, 6})
	assert.Equal(t, []int{1}, r.Winners, "the Phoenix before the Dragon")
	assert.Contains(t, r.Text, "Tortoise, then White Tiger, then Phoenix")
}

func TestWhenNoFinalCardIsCoveredTheLowestWins(t *testing.T) {
	s, r := ending(t, []string{"9D", "4H", "QS"}, []int{2, 3, 0})
	assert.Equal(t, []int{1}, r.Winners)
	assert.Equal(t, byCard, s.decided)
	assert.Contains(t, r.Text, "lowest final card")
}

func TestWhenNoFinalCardIsCoveredTiesBreakTheSameWay(t *testing.T) {
	_, r := ending(t, []string{"9D", "4H", "4S"}, []int{2, 1, 3})
	assert.Equal(t, []int{2}, r.Winners, "more tricks")
	_, r = ending(t, []string{"9D", "4H", "4S"}, []int{2, 3, 3})
	assert.Equal(t, []int{2}, r.Winners, "the White Tiger before the Phoenix")
}

func TestRefusalsSayWhatIsWrong(t *testing.T) {
	s := start(t, 3)
	for move, want := range map[string]string{
		"1 attack 2":        "turn to attack",
		"0 attack 0":        "cannot attack himself",
		"0 attack 7":        "neither a seat nor a clan",
		"0 attack tortoise": "neither a seat nor a clan",
		"0 attack":          "one opponent",
		"0 attack 1 2":      "one opponent",
		"0 play AD":         "not now",
		"0 dance":           "not a move",
		"5 attack 1":        "no seat 5",
		"0 keep AD":         "not now",
	} {
		assert.Contains(t, refused(t, s, move), want, move)
	}
	do(t, s, "0 attack phoenix")
	assert.Equal(t, int8(1), s.defender, "a target may be named by clan")
	for move, want := range map[string]string{
		"2 play 5S":    "not in this fight",
		"0 play AH":    "not in your hand",
		"0 play 1Z":    "not a card",
		"0 play AD KD": "one card",
		"0 discard AD": "not now",
		"0 attack 1":   "not now",
	} {
		assert.Contains(t, refused(t, s, move), want, move)
	}
	do(t, s, "0 play ad", "1 play 2h")
	assert.Contains(t, refused(t, s, "0 play 3D"), "not now")
	do(t, s, "0 discard 2H")
	assert.Contains(t, refused(t, s, "0 discard 3D"), "already discarded")
}

// The attacker names his target before either fighter lays a card: an
// attacker laying one first hears to name the target, not that he himself
// "is choosing whom to attack"; a fighter whose card is still to lay, or to
// discard, hears that step, not that the two fighters are busy.
func TestAFighterOutOfStepHearsHisOwnNextStep(t *testing.T) {
	s := start(t, 3)
	assert.Equal(t, "not now: first name whom you attack (attack SEAT or CLAN); then both of you lay a card", refused(t, s, "0 play AD"))
	assert.Equal(t, "not now: {0} is choosing whom to attack", refused(t, s, "1 play AH"))
	do(t, s, "0 attack 1")
	assert.Equal(t, "not now: the fighters are laying their cards face down; lay yours first (play CARD)", refused(t, s, "1 discard AH"))
	assert.Equal(t, "not now: the fighters are laying their cards face down; lay yours first (play CARD)", refused(t, s, "0 attack 2"))
	do(t, s, "0 play KD")
	assert.Equal(t, "not now: {0} and {1} are laying their cards face down", refused(t, s, "0 discard AD"),
		"his card is down: the other fighter is still laying")
	do(t, s, "1 play AH")
	assert.Equal(t, "not now: the fighters are discarding after the exchange; discard yours first (discard CARD)", refused(t, s, "1 play 2H"))
}

func TestNothingMovesOnceTheBattleIsDecided(t *testing.T) {
	s, _ := ending(t, []string{"5D", "5H"}, []int{6, 6})
	_, err := s.Apply(game.M(0, "attack", "1"))
	assert.ErrorIs(t, err, game.ErrOver)
	assert.Empty(t, s.Legal(0))
}

func TestAuditNoticesACardInTwoPlaces(t *testing.T) {
	s := start(t, 2)
	s.trick[1] |= mask(t, "AD", "2D")
	s.wins[1] = 1
	assert.ErrorContains(t, s.Audit(), "two places")
	s = start(t, 2)
	s.hand[0] &^= mask(t, "AD")
	assert.ErrorContains(t, s.Audit(), "accounted")
}
