package insomnia_test

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tableref/tableref/rules/deck"
	"github.com/tableref/tableref/rules/game"
	"github.com/tableref/tableref/rules/insomnia"
)

func TestFourToSevenPlayersOneSleeperAndThreeToSixVoicePlayers(t *testing.T) {
	in := insomnia.Game.Info()
	assert.Equal(t, "insomnia", in.ID)
	assert.Equal(t, 4, in.MinPlayers)
	assert.Equal(t, 7, in.MaxPlayers)
	for _, n := range []int{3, 8} {
		_, err := insomnia.Game.New(game.Config{Players: n})
		assert.Error(t, err, "%d players", n)
	}
	_, err := insomnia.Game.New(game.Config{Players: 5, Options: map[string]string{"aces": "middle"}})
	assert.Error(t, err)
}

func TestSeatZeroSleepsAndTheSixVoicesGoRoundTheOtherSeats(t *testing.T) {
	want := map[int]struct {
		seats []int
		hands []string
	}{
		4: {[]int{1, 2, 3, 1, 2, 3}, []string{"left", "left", "left", "right", "right", "right"}},
		5: {[]int{1, 2, 3, 4, 1, 2}, []string{"left", "left", "", "", "right", "right"}},
		6: {[]int{1, 2, 3, 4, 5, 1}, []string{"left", "", "", "", "", "right"}},
		7: {[]int{1, 2, 3, 4, 5, 6}, []string{"", "", "", "", "", ""}},
	}
	for players, w := range want {
		s, err := insomnia.Game.New(game.Config{Players: players, Seed: 1})
		require.NoError(t, err)
		v := view(s, game.Table)
		assert.Equal(t, 0, v.Sleeper)
		require.Len(t, v.Voices, 6)
		held := map[int]int{}
		for i, vv := range v.Voices {
			assert.Equal(t, i+1, vv.Voice)
			assert.Equal(t, w.seats[i], vv.Seat, "%d players, voice %d", players, i+1)
			assert.Equal(t, w.hands[i], vv.Hand, "%d players, voice %d", players, i+1)
			held[vv.Seat]++
		}
		for seat := 1; seat < players; seat++ {
			assert.True(t, held[seat] == 1 || held[seat] == 2, "seat %d holds %d voices", seat, held[seat])
		}
		assert.Zero(t, held[0], "the sleeper holds no voice")
		assert.Equal(t, []int{0}, s.Turn(), "the sleeper acts first")
	}
	s, err := insomnia.Game.New(game.Config{Players: 4})
	require.NoError(t, err)
	assert.Equal(t, []int{1, 4}, view(s, 1).Mine)
	assert.Empty(t, view(s, 0).Mine)
}

func TestEachVoiceHoldsOneCardAndTheSleeperDrawsFromTheOtherFortySix(t *testing.T) {
	s, err := insomnia.Game.New(game.Config{Players: 5, Seed: 9})
	require.NoError(t, err)
	require.NoError(t, s.Audit())
	seen := map[deck.Card]bool{}
	for v := 1; v <= 6; v++ {
		c, seat, silent := insomnia.VoiceCard(s, v)
		assert.False(t, silent)
		assert.False(t, seen[c])
		seen[c] = true
		mine := view(s, seat).Voices[v-1].Card
		require.NotNil(t, mine, "voice %d's holder sees its card", v)
		assert.Equal(t, c, *mine)
	}
	hand, holding := insomnia.Hand(s)
	assert.True(t, holding)
	assert.False(t, seen[hand])
	sv := view(s, 0)
	require.NotNil(t, sv.Card)
	assert.Equal(t, hand, *sv.Card, "the sleeper has drawn and looked at a card")
	assert.Equal(t, 45, sv.Deck)
	assert.Len(t, insomnia.Pile(s), 45)
	assert.Equal(t, "show", sv.Phase)
}

func TestTheSleeperShowsTheDrawnCardToAVoiceWhichMustAnswer(t *testing.T) {
	s := staged(t, 7, nil, "9C", "3D")
	assert.Equal(t, []string{"0 show 1", "0 show 2", "0 show 3", "0 show 4", "0 show 5", "0 show 6"}, actions(s.Legal(0)))
	for seat := 1; seat < 7; seat++ {
		assert.Empty(t, s.Legal(seat))
	}
	ev := apply(t, s, 0, "show", "1")
	assert.Equal(t, []string{"show", "shown"}, types(ev))
	assert.True(t, ev[0].Public())
	assert.NotContains(t, ev[0].Text, "9 of clubs", "the others see a card shown, not which")
	assert.Contains(t, ev[0].Text, "voice 1 ({1})")
	assert.Equal(t, []int{0, 1}, ev[1].To)
	assert.Contains(t, ev[1].Text, "9 of clubs")
	assert.Equal(t, []int{1}, s.Turn())
	tv := view(s, game.Table)
	assert.Equal(t, "answer", tv.Phase)
	assert.Nil(t, tv.Shown)
	assert.Equal(t, 1, tv.Asked)
	require.NotNil(t, view(s, 1).Shown)
	assert.Equal(t, "9C", view(s, 1).Shown.String())
	assert.Equal(t, []string{"1 lower", "1 not-black"}, actions(s.Legal(1)))
	assert.Empty(t, s.Legal(0))
	ev = apply(t, s, 1, "lower")
	assert.Equal(t, []string{"answer", "answered", "draw", "draw"}, types(ev))
	assert.Contains(t, ev[0].Text, `"lower"`)
	assert.True(t, ev[0].Public())
	assert.True(t, ev[2].Public())
	assert.Equal(t, []int{0}, ev[3].To, "only the sleeper learns the card drawn")
	assert.Contains(t, ev[3].Text, "3 of diamonds")
	assert.NotContains(t, ev[2].Text, "3 of diamonds")
	assert.Equal(t, []int{0}, s.Turn())
	assert.Equal(t, "3D", view(s, 0).Card.String())
	assert.Equal(t, []deck.Card{{Rank: 9, Suit: deck.Clubs}}, view(s, 0).Discards)
	assert.Equal(t, []deck.Card{{Rank: 9, Suit: deck.Clubs}}, view(s, 1).Discards)
	assert.Empty(t, view(s, game.Table).Discards)
	assert.Equal(t, 1, view(s, game.Table).ShownCount)
}

func TestTheSleeperPointsAtOneHandOfAPlayerWithTwoVoices(t *testing.T) {
	// 4 players: seat 1 holds voice 1 (7H, left) and voice 4 (10D, right).
	s := staged(t, 4, nil, "9C", "9S")
	ev := apply(t, s, 0, "show", "4")
	assert.Contains(t, ev[0].Text, "voice 4 ({1}'s right hand)")
	assert.Equal(t, []int{1}, s.Turn())
	assert.Equal(t, []string{"1 higher", "1 not-black"}, actions(s.Legal(1)), "judged by the right hand's 10D")
	assert.Contains(t, refused(t, s, 1, "lower"), "not lower")
	apply(t, s, 1, "higher")
	apply(t, s, 0, "show", "1")
	assert.Equal(t, []string{"1 lower", "1 not-black"}, actions(s.Legal(1)), "judged by the left hand's 7H")
}

func TestTheSameNumberAndColourSilencesTheVoice(t *testing.T) {
	s := staged(t, 7, map[string]string{"shown": "public"}, "7D", "3C")
	ev := apply(t, s, 0, "show", "1")
	assert.Equal(t, []string{"show", "silenced", "draw", "draw"}, types(ev))
	assert.Contains(t, ev[1].Text, "7 of hearts")
	assert.Contains(t, ev[1].Text, "5 still talking")
	_, _, silent := insomnia.VoiceCard(s, 1)
	assert.True(t, silent)
	tv := view(s, game.Table)
	assert.True(t, tv.Voices[0].Silent)
	require.NotNil(t, tv.Voices[0].Card, "a silenced voice's card is turned face up")
	assert.Equal(t, "7H", tv.Voices[0].Card.String())
	assert.Equal(t, 1, tv.Silent)
	assert.Equal(t, []int{0}, s.Turn(), "no answer: the sleeper draws again")
	assert.Equal(t, "3C", view(s, 0).Card.String())
	assert.Equal(t, 44, tv.Deck)
	assert.Equal(t, "silenced", tv.Voices[0].Answers[0].Said)
}

func TestTheSameNumberInTheOtherColourDoesNotSilence(t *testing.T) {
	s := staged(t, 7, nil, "7S", "7C")
	apply(t, s, 0, "show", "1")
	assert.Equal(t, []int{1}, s.Turn())
	_, _, silent := insomnia.VoiceCard(s, 1)
	assert.False(t, silent)
	assert.Equal(t, []string{"1 not-black"}, actions(s.Legal(1)))
	// Neither higher nor lower: the reason is that the numbers are equal
	// and only the colour answers, not that the card is "not higher".
	assert.Equal(t, "your card has the same number as the 7 of spades: answer with its colour (not-black)", refused(t, s, 1, "higher"))
	assert.Equal(t, "your card has the same number as the 7 of spades: answer with its colour (not-black)", refused(t, s, 1, "lower"))
}

func TestTheSameSuitInAnotherNumberDoesNotSilence(t *testing.T) {
	s := staged(t, 7, nil, "8H")
	apply(t, s, 0, "show", "1")
	assert.Equal(t, []string{"1 lower"}, actions(s.Legal(1)))
}

func TestAnswersMustBeTrue(t *testing.T) {
	s := staged(t, 7, nil, "9C", "4H", "KD")
	apply(t, s, 0, "show", "1")
	assert.Equal(t, "your card is not higher than the 9 of clubs", refused(t, s, 1, "higher"))
	assert.Contains(t, refused(t, s, 1, "not-red"), `"not red" answers a red card`)
	apply(t, s, 1, "lower")
	apply(t, s, 0, "show", "1")
	assert.Equal(t, []string{"1 higher"}, actions(s.Legal(1)), "7H to a 4H: higher, and no colour answer")
	assert.Contains(t, refused(t, s, 1, "lower"), "not lower")
	assert.Contains(t, refused(t, s, 1, "not-red"), "your card is red too")
	assert.Contains(t, refused(t, s, 1, "not-black"), `"not black" answers a black card`)
	apply(t, s, 1, "higher")
	// 2C (voice 2, black) shown KD (red): lower, or "not red".
	apply(t, s, 0, "show", "2")
	assert.Equal(t, []string{"2 lower", "2 not-red"}, actions(s.Legal(2)))
	assert.Contains(t, refused(t, s, 2, "not-black"), `"not black" answers a black card`)
	apply(t, s, 2, "not-red")
}

func TestTheColourAnswerIsGivenOnlyOnce(t *testing.T) {
	s := staged(t, 7, nil, "9C", "3S")
	apply(t, s, 0, "show", "1")
	apply(t, s, 1, "not-black")
	apply(t, s, 0, "show", "1")
	assert.Equal(t, []string{"1 higher"}, actions(s.Legal(1)))
	assert.Contains(t, refused(t, s, 1, "not-black"), "already given its colour once")
	apply(t, s, 1, "higher")
}

func TestTheColourAnswerRepeatsWhenOnlyTheNumberMatches(t *testing.T) {
	s := staged(t, 7, nil, "9C", "7S", "7C")
	apply(t, s, 0, "show", "1")
	apply(t, s, 1, "not-black")
	apply(t, s, 0, "show", "1")
	assert.Equal(t, []string{"1 not-black"}, actions(s.Legal(1)), "the only true answer")
	apply(t, s, 1, "not-black")
	apply(t, s, 0, "show", "1")
	apply(t, s, 1, "not-black")
	assert.Len(t, view(s, game.Table).Voices[0].Answers, 3)
}

func TestEachVoiceOfADoubledPlayerHasItsOwnColourAnswer(t *testing.T) {
	// 4 players: seat 1 holds voice 1 (7H) and voice 4 (10D).
	s := staged(t, 4, nil, "9C", "2S")
	apply(t, s, 0, "show", "1")
	apply(t, s, 1, "not-black")
	apply(t, s, 0, "show", "4")
	assert.Equal(t, []string{"1 higher", "1 not-black"}, actions(s.Legal(1)))
	apply(t, s, 1, "not-black")
	tv := view(s, game.Table)
	assert.True(t, tv.Voices[0].ColourSaid)
	assert.True(t, tv.Voices[3].ColourSaid)
}

func TestASilentVoiceCannotBeShownACard(t *testing.T) {
	s := staged(t, 7, nil, "7D", "3C")
	apply(t, s, 0, "show", "1")
	assert.Contains(t, refused(t, s, 0, "show", "1"), "already silent")
	assert.NotContains(t, actions(s.Legal(0)), "0 show 1")
	assert.Len(t, s.Legal(0), 5)
}

func TestAllVoicesSilentLetsTheSleeperSleepTenMinutesPerCardLeft(t *testing.T) {
	s := staged(t, 6, nil, "7D", "2S", "KC", "10H", "5C", "QD")
	for v := 1; v <= 6; v++ {
		require.False(t, s.Over())
		ev := apply(t, s, 0, "show", strconv.Itoa(v))
		if v == 6 {
			assert.Equal(t, []string{"show", "shown", "silenced", "matched", "asleep"}, types(ev))
			assert.Contains(t, ev[4].Text, "400 minutes")
		}
	}
	require.True(t, s.Over())
	assert.Empty(t, s.Turn())
	assert.Empty(t, s.Legal(0))
	res := s.Result()
	assert.Equal(t, []int{0}, res.Winners)
	assert.Equal(t, []int{400, 0, 0, 0, 0, 0}, res.Scores, "40 cards left, ten minutes each")
	assert.Contains(t, res.Text, "400 minutes")
	_, err := s.Apply(game.M(0, "show", "1"))
	assert.True(t, errors.Is(err, game.ErrOver))
	tv := view(s, game.Table)
	assert.Equal(t, "over", tv.Phase)
	assert.Equal(t, 400, tv.Sleep)
}

// playToTheEnd shows every card to voice `to` (answering with the first
// legal answer) until the game ends.
func playToTheEnd(t *testing.T, s game.State, to string) {
	t.Helper()
	for i := 0; !s.Over(); i++ {
		require.Less(t, i, 200)
		turn := s.Turn()
		require.Len(t, turn, 1)
		if turn[0] == 0 {
			apply(t, s, 0, "show", to)
			continue
		}
		m := s.Legal(turn[0])[0]
		apply(t, s, m.Seat, m.Action, m.Args...)
	}
}

func TestASpentDeckRingsTheAlarmAndTheVoicesWin(t *testing.T) {
	// Voice 2 holds 7D, the only card that could silence voice 1's 7H.
	s, err := insomnia.Arranged(4, nil, "7H", "7D", "KS", "10D", "5S", "QH")
	require.NoError(t, err)
	shows := 0
	for !s.Over() {
		if s.Turn()[0] == 0 {
			if view(s, 0).Deck == 0 {
				assert.False(t, s.Over(), "the last card is still to be shown")
			}
			apply(t, s, 0, "show", "1")
			shows++
			continue
		}
		m := s.Legal(s.Turn()[0])[0]
		ev := apply(t, s, m.Seat, m.Action, m.Args...)
		if s.Over() {
			assert.Equal(t, "alarm", ev[len(ev)-1].Type)
		}
	}
	assert.Equal(t, 46, shows, "every card of the deck was shown")
	res := s.Result()
	assert.Equal(t, []int{1, 2, 3}, res.Winners)
	assert.Equal(t, []int{0, 0, 0, 0}, res.Scores)
	assert.Contains(t, res.Text, "alarm")
	assert.Contains(t, res.Text, "6 voice(s) still talking")
}

func TestSilencingTheLastVoiceWithTheLastCardIsAWinWithoutSleep(t *testing.T) {
	voices := []string{"7H", "2C", "KS", "10D", "5S", "QH"}
	order := append([]string{}, voices...)
	order = append(order, "7D", "2S", "KC", "10H", "5C")
	used := map[string]bool{"QD": true}
	for _, n := range order {
		used[n] = true
	}
	for _, c := range deck.New(0) {
		if !used[c.String()] {
			order = append(order, c.String())
		}
	}
	order = append(order, "QD")
	require.Len(t, order, 52)
	s, err := insomnia.Arranged(7, nil, order...)
	require.NoError(t, err)
	for v := 1; v <= 5; v++ {
		apply(t, s, 0, "show", strconv.Itoa(v))
	}
	playToTheEnd(t, s, "6")
	res := s.Result()
	assert.Equal(t, []int{0}, res.Winners)
	assert.Equal(t, 0, res.Scores[0])
	assert.Contains(t, res.Text, "0 cards left")
}

func TestAVoiceCardIsSecretUntilSilenced(t *testing.T) {
	s := staged(t, 4, nil, "9C", "7D")
	// Voice 1 (7H) is seat 1's.
	assert.Contains(t, viewJSON(t, s, 1), `"7H"`)
	for _, seat := range []int{game.Table, 0, 2, 3} {
		assert.NotContains(t, viewJSON(t, s, seat), `"7H"`, "seat %d", seat)
	}
	apply(t, s, 0, "show", "1")
	apply(t, s, 1, "lower")
	for _, seat := range []int{game.Table, 0, 2, 3} {
		assert.NotContains(t, viewJSON(t, s, seat), `"7H"`, "seat %d", seat)
	}
	apply(t, s, 0, "show", "1")
	assert.Contains(t, viewJSON(t, s, 0), `"7H"`, "turned to the sleeper once silenced")
	for _, seat := range []int{game.Table, 2, 3} {
		assert.NotContains(t, viewJSON(t, s, seat), `"7H"`, "seat %d, once silenced", seat)
	}

	s = staged(t, 4, map[string]string{"shown": "public"}, "7D")
	apply(t, s, 0, "show", "1")
	for _, seat := range []int{game.Table, 0, 2, 3} {
		assert.Contains(t, viewJSON(t, s, seat), `"7H"`, "seat %d, once silenced, with shown=public", seat)
	}
}

func TestTheSleepersCardIsSecretUntilShown(t *testing.T) {
	s := staged(t, 5, nil, "9C")
	assert.Contains(t, viewJSON(t, s, 0), `"9C"`)
	for _, seat := range []int{game.Table, 1, 2, 3, 4} {
		assert.NotContains(t, viewJSON(t, s, seat), `"9C"`, "seat %d", seat)
	}
	apply(t, s, 0, "show", "3")
	// With 5 players voice 3 is seat 3's.
	assert.Contains(t, viewJSON(t, s, 3), `"9C"`, "the voice it is shown to sees it")
	for _, seat := range []int{game.Table, 1, 2, 4} {
		assert.NotContains(t, viewJSON(t, s, seat), `"9C"`, "seat %d, once shown to another voice", seat)
	}
	apply(t, s, 3, "higher")
	for _, seat := range []int{game.Table, 1, 2, 4} {
		assert.NotContains(t, viewJSON(t, s, seat), `"9C"`, "seat %d, after the answer", seat)
	}

	s = staged(t, 5, map[string]string{"shown": "public"}, "9C")
	apply(t, s, 0, "show", "3")
	for _, seat := range []int{game.Table, 1, 2, 3, 4} {
		assert.Contains(t, viewJSON(t, s, seat), `"9C"`, "seat %d, once shown, with shown=public", seat)
	}
}

func TestTheDeckOrderIsSecret(t *testing.T) {
	s, err := insomnia.Game.New(game.Config{Players: 6, Seed: 3})
	require.NoError(t, err)
	for _, c := range insomnia.Pile(s) {
		for seat := game.Table; seat < 6; seat++ {
			assert.NotContains(t, viewJSON(t, s, seat), `"`+c.String()+`"`, "seat %d sees a card of the deck", seat)
		}
	}
}

func TestAcesAreLowUnlessTheOptionPutsThemHigh(t *testing.T) {
	for _, c := range []struct {
		aces string
		want []string
	}{
		{"low", []string{"1 lower", "1 not-black"}},
		{"high", []string{"1 higher", "1 not-black"}},
	} {
		s, err := insomnia.Arranged(7, map[string]string{"aces": c.aces}, "AH", "2C", "KS", "10D", "5S", "QH", "KC")
		require.NoError(t, err)
		apply(t, s, 0, "show", "1")
		assert.Equal(t, c.want, actions(s.Legal(1)), "aces %s: AH shown KC", c.aces)
	}
	s, err := insomnia.Game.New(game.Config{Players: 4})
	require.NoError(t, err)
	_ = s
	assert.Equal(t, "low", insomnia.Game.Info().Options[0].Default)
}

func TestNotesKeepThePastAnswersUnlessSwitchedOff(t *testing.T) {
	on := staged(t, 4, map[string]string{"shown": "public"}, "9C")
	off := staged(t, 4, map[string]string{"notes": "no", "shown": "public"}, "9C")
	for _, s := range []game.State{on, off} {
		apply(t, s, 0, "show", "1")
		apply(t, s, 1, "not-black")
	}
	tv := view(on, game.Table)
	require.Len(t, tv.Voices[0].Answers, 1)
	assert.Equal(t, insomnia.Answer{Shown: &deck.Card{Rank: 9, Suit: deck.Clubs}, Said: "not-black"}, tv.Voices[0].Answers[0])
	assert.True(t, tv.Voices[0].ColourSaid)
	for _, seat := range []int{game.Table, 0, 2} {
		v := view(off, seat)
		assert.Empty(t, v.Voices[0].Answers, "seat %d", seat)
		assert.False(t, v.Voices[0].ColourSaid, "seat %d", seat)
	}
	assert.True(t, view(off, 1).Voices[0].ColourSaid, "the holder still knows it has said its colour")
}

func TestMovesOutOfTurnOrMalformedAreRefused(t *testing.T) {
	s := staged(t, 4, nil, "9C")
	assert.Contains(t, refused(t, s, 1, "show", "2"), "only the sleeper")
	assert.Contains(t, refused(t, s, 0, "show"), "one voice number")
	assert.Contains(t, refused(t, s, 0, "show", "1", "2"), "one voice number")
	assert.Contains(t, refused(t, s, 0, "show", "7"), "numbered 1 to 6")
	assert.Contains(t, refused(t, s, 0, "show", "x"), "numbered 1 to 6")
	assert.Contains(t, refused(t, s, 1, "lower"), "sleeper's turn")
	assert.Equal(t, "the sleeper does not answer: the voices do; show a card to one of them (show 1 to 6)", refused(t, s, 0, "higher"))
	assert.Contains(t, refused(t, s, 0, "sleep"), "not a move")
	assert.Contains(t, refused(t, s, 4, "show", "1"), "no seat 4")
	assert.Contains(t, refused(t, s, -1, "show", "1"), "no seat")
	apply(t, s, 0, "show", "1")
	assert.Contains(t, refused(t, s, 0, "show", "2"), "must answer first")
	assert.Contains(t, refused(t, s, 2, "lower"), "asking voice 1 ({1}'s left hand)")
	assert.Equal(t, "the sleeper does not answer: voice 1 ({1}'s left hand) answers the card shown to it", refused(t, s, 0, "lower"))
	assert.Contains(t, refused(t, s, 1, "lower", "please"), "nothing after it")
}

func TestTheBotShowsACardToTheVoiceItHasPinnedDown(t *testing.T) {
	s := staged(t, 7, nil, "9C", "8C", "6D", "7D")
	apply(t, s, 0, "show", "1")
	apply(t, s, 1, "not-black") // red
	apply(t, s, 0, "show", "1")
	apply(t, s, 1, "lower") // below 8
	apply(t, s, 0, "show", "1")
	apply(t, s, 1, "higher") // above 6: a red 7, and the sleeper holds 7D
	bot := game.BotFor(insomnia.Game)
	r := game.NewRand(1)
	m := bot.Choose(s, 0, &r)
	assert.Equal(t, "0 show 1", m.String())
	ev := apply(t, s, m.Seat, m.Action, m.Args...)
	assert.Contains(t, types(ev), "silenced")
}

func TestTheBotVoiceGivesTheVaguestTrueAnswer(t *testing.T) {
	bot := game.BotFor(insomnia.Game)
	r := game.NewRand(1)
	// 7H shown 9C: "lower" leaves 32 cards (ace to 8), "not black" 26.
	s := staged(t, 7, nil, "9C")
	apply(t, s, 0, "show", "1")
	assert.Equal(t, "1 lower", bot.Choose(s, 1, &r).String())
	// 7H shown 6C: "higher" leaves 28 cards (7 to king), "not black" 26.
	s = staged(t, 7, nil, "6C")
	apply(t, s, 0, "show", "1")
	assert.Equal(t, "1 higher", bot.Choose(s, 1, &r).String())
	// 10D shown 9S: "higher" leaves 16 cards (10 to king), "not black" 26.
	s = staged(t, 7, nil, "9S")
	apply(t, s, 0, "show", "4")
	assert.Equal(t, "4 not-black", bot.Choose(s, 4, &r).String())
}

// The sleeper turns the card to one voice: its player and the sleeper see
// it, the other players and the table hear only the answer. A player with
// two voices sees what is shown to either of its hands.
func TestTheShownCardIsSeenOnlyByTheSleeperAndTheVoiceShownIt(t *testing.T) {
	// 4 players: seat 1 holds voices 1 (7H) and 4 (10D), seat 2 voices 2
	// and 5, seat 3 voices 3 and 6.
	s := staged(t, 4, nil, "9C", "8S")
	ev := apply(t, s, 0, "show", "4")
	for _, e := range ev {
		if e.Public() {
			assert.NotContains(t, e.Text, "9 of clubs", "public: %s", e.Text)
		} else {
			assert.Equal(t, []int{0, 1}, e.To)
		}
	}
	for seat, sees := range map[int]bool{game.Table: false, 0: true, 1: true, 2: false, 3: false} {
		v := view(s, seat)
		assert.Equal(t, 4, v.Asked, "everyone knows which voice is asked")
		assert.Equal(t, sees, v.Shown != nil, "seat %d", seat)
		assert.Equal(t, sees, strings.Contains(viewJSON(t, s, seat), `"9C"`), "seat %d", seat)
	}
	ev = apply(t, s, 1, "higher")
	assert.Contains(t, ev[0].Text, `"higher"`)
	assert.NotContains(t, ev[0].Text, "9 of clubs")
	// Voice 2 (2C) is seat 2's: seat 1 does not see what it is shown.
	apply(t, s, 0, "show", "2")
	assert.Nil(t, view(s, 1).Shown)
	assert.NotNil(t, view(s, 2).Shown)
	apply(t, s, 2, "lower")
	for seat, want := range map[int][]string{0: {"9C", "8S"}, 1: {"9C"}, 2: {"8S"}, 3: nil, game.Table: nil} {
		v := view(s, seat)
		var got []string
		for _, c := range v.Discards {
			got = append(got, c.String())
		}
		assert.Equal(t, want, got, "seat %d", seat)
		assert.Equal(t, 2, v.ShownCount)
		// The notes list every answer; the card only where it was seen.
		a := v.Voices[3].Answers
		require.Len(t, a, 1)
		assert.Equal(t, "higher", a[0].Said)
		assert.Equal(t, seat == 0 || seat == 1, a[0].Shown != nil, "seat %d", seat)
	}
}
