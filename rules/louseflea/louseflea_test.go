package louseflea_test

import (
	"encoding/json"
	"errors"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tableref/tableref/rules/game"
	"github.com/tableref/tableref/rules/game/gametest"
	lf "github.com/tableref/tableref/rules/louseflea"
)

// ---- helpers ----

func view(t *testing.T, s game.State, seat int) lf.View {
	t.Helper()
	v, ok := s.View(seat).(lf.View)
	require.True(t, ok, "View returns a louseflea.View")
	return v
}

func hand(t *testing.T, s game.State, seat int) []string {
	t.Helper()
	return view(t, s, seat).Hand.Cards
}

func build(t *testing.T, su lf.Setup) game.State {
	t.Helper()
	if su.Players == 0 {
		su.Players = 6
	}
	s, err := lf.Build(su)
	require.NoError(t, err)
	return s
}

func apply(t *testing.T, s game.State, seat int, action string, args ...string) []game.Event {
	t.Helper()
	ev, err := s.Apply(game.M(seat, action, args...))
	require.NoError(t, err, "%d %s %v", seat, action, args)
	require.NoError(t, s.Audit())
	return ev
}

func refused(t *testing.T, s game.State, seat int, action string, args ...string) string {
	t.Helper()
	before := s.Clone()
	_, err := s.Apply(game.M(seat, action, args...))
	require.Error(t, err, "%d %s %v should be refused", seat, action, args)
	assert.Equal(t, before, s, "a refused move leaves the state alone")
	var re *game.RefusedError
	if errors.As(err, &re) {
		return re.Reason
	}
	return err.Error()
}

func legal(s game.State, seat int) []string {
	var out []string
	for _, m := range s.Legal(seat) {
		out = append(out, strings.Join(append([]string{m.Action}, m.Args...), " "))
	}
	return out
}

func countCards(t *testing.T, s game.State, players int) map[string]int {
	t.Helper()
	n := map[string]int{}
	for _, c := range lf.DrawPile(s) {
		n[c]++
	}
	for _, c := range lf.DiscardPile(s) {
		n[c]++
	}
	tv := view(t, s, game.Table)
	for p := 0; p < players; p++ {
		for _, c := range hand(t, s, p) {
			n[c]++
		}
		if tv.Players[p].Louse {
			n["louse"]++
		}
		if tv.Players[p].Flea {
			n["flea"]++
		}
	}
	return n
}

func hasEvent(ev []game.Event, typ string) bool {
	for _, e := range ev {
		if e.Type == typ {
			return true
		}
	}
	return false
}

// ---- set-up ----

func TestIdentitiesAreDealtRoundTheTableInStoryOrder(t *testing.T) {
	for players, want := range map[int][][]string{
		6: {{"door"}, {"broom"}, {"cart"}, {"ash"}, {"tree"}, {"girl"}},
		5: {{"door", "girl"}, {"broom"}, {"cart"}, {"ash"}, {"tree"}},
		4: {{"door", "tree"}, {"broom", "girl"}, {"cart"}, {"ash"}},
		3: {{"door", "ash"}, {"broom", "tree"}, {"cart", "girl"}},
	} {
		s, err := lf.Game.New(game.Config{Players: players, Seed: 3})
		require.NoError(t, err)
		v := view(t, s, game.Table)
		assert.Equal(t, []string{"door", "broom", "cart", "ash", "tree", "girl"}, v.Story)
		for p := 0; p < players; p++ {
			assert.Equal(t, want[p], v.Players[p].Identities, "%d players, seat %d", players, p)
		}
	}
}

func TestTheDeckIsSixtyObjectsALouseAFleaAndThreeSprings(t *testing.T) {
	s, err := lf.Game.New(game.Config{Players: 6, Seed: 11})
	require.NoError(t, err)
	n := countCards(t, s, 6)
	assert.Equal(t, map[string]int{"door": 10, "broom": 10, "cart": 10, "ash": 10, "tree": 10, "girl": 10, "louse": 1, "flea": 1, "spring": 3}, n)
	total := 0
	for _, c := range n {
		total += c
	}
	assert.Equal(t, 65, total)
}

func TestEachPlayerIsDealtFourCards(t *testing.T) {
	deck := []string{
		"door", "cart", "girl", "spring", // seat 0
		"broom", "broom", "ash", "tree",
		"cart", "cart", "cart", "door",
		"ash", "girl", "girl", "tree",
		"tree", "door", "broom", "spring",
		"girl", "ash", "door", "cart", // seat 5
		"tree", // the start card
	}
	s, err := lf.FromDeck(game.Config{Players: 6, Seed: 1}, deck)
	require.NoError(t, err)
	require.NoError(t, s.Audit())
	assert.Equal(t, []string{"door", "cart", "girl", "spring"}, hand(t, s, 0))
	assert.Equal(t, []string{"door", "cart", "ash", "girl"}, hand(t, s, 5))
	v := view(t, s, game.Table)
	for p := 0; p < 6; p++ {
		assert.Equal(t, 4, v.Players[p].Cards)
		assert.Equal(t, 4, v.Players[p].HandLimit)
		assert.True(t, v.Players[p].Standing, "everyone starts standing")
	}
	assert.Equal(t, 65-24-1, v.DrawPile)

	// and with a shuffled deck, hands are full up to each seat's limit
	for seed := uint64(0); seed < 40; seed++ {
		s, err := lf.Game.New(game.Config{Players: 5, Seed: seed})
		require.NoError(t, err)
		v := view(t, s, game.Table)
		for _, p := range v.Players {
			if !v.Discarding {
				assert.Equal(t, p.HandLimit, p.Cards, "seed %d seat %d", seed, p.Seat)
			}
		}
	}
}

func TestTheStartCardIsTurnedUpSkippingLouseFleaAndSpring(t *testing.T) {
	deck := make([]string, 0, 28)
	for i := 0; i < 6; i++ {
		deck = append(deck, "door", "broom", "cart", "ash")
	}
	deck = append(deck, "spring", "louse", "flea", "tree")
	s, err := lf.FromDeck(game.Config{Players: 6, Seed: 1}, deck)
	require.NoError(t, err)
	v := view(t, s, game.Table)
	assert.Equal(t, "tree", v.Called)
	assert.Equal(t, "tree", v.LastPlayed)
	assert.True(t, v.Threatened, "the start card calls its player to stand or sit")
	assert.Equal(t, []int{4}, s.Turn())
	assert.Equal(t, []string{"tree", "flea", "louse", "spring"}, lf.DiscardPile(s), "default: the specials go on the discard pile")
	for _, p := range v.Players {
		assert.False(t, p.Louse || p.Flea)
	}

	s, err = lf.FromDeck(game.Config{Players: 6, Seed: 1, Options: map[string]string{lf.OptStartSpecials: lf.StartSpecialsShuffle}}, deck)
	require.NoError(t, err)
	require.NoError(t, s.Audit())
	assert.Equal(t, []string{"tree"}, lf.DiscardPile(s), "shuffle option: the specials go back into the draw pile")
	assert.Contains(t, lf.DrawPile(s), "louse")
	assert.Contains(t, lf.DrawPile(s), "flea")
}

func TestABugDealtAtTheStartShrinksTheHandAndForcesADiscard(t *testing.T) {
	deck := []string{"door", "louse", "broom", "cart", "ash"}
	s, err := lf.FromDeck(game.Config{Players: 6, Seed: 1}, deck)
	require.NoError(t, err)
	require.NoError(t, s.Audit())
	assert.Equal(t, []int{0}, s.Turn(), "seat 0 discards before the start card is turned up")
	v := view(t, s, 0)
	assert.True(t, v.Discarding)
	assert.Empty(t, v.Called)
	assert.Equal(t, []string{"door"}, v.Hand.Cards)
	assert.Equal(t, []string{"discard door"}, legal(s, 0))
	apply(t, s, 0, "discard", "door")
	v = view(t, s, 0)
	assert.False(t, v.Discarding)
	assert.NotEmpty(t, v.Called)
	assert.True(t, v.Players[0].Louse)
	assert.Equal(t, 3, v.Players[0].HandLimit)
	assert.Equal(t, []string{"broom", "cart", "ash"}, v.Hand.Cards, "the deal goes on up to the new limit")
	assert.Empty(t, v.Players[0].CanPass, "a bug dealt at the start waits out the first turn")
}

// ---- standing and sitting ----

func TestPlayingYourOwnCardKeepsYouStandingAndGivesTheNextAFreeTurn(t *testing.T) {
	s := build(t, lf.Setup{Called: "tree", Hands: [][]string{4: {"tree", "door", "door", "door"}}, Draw: []string{"ash", "cart"}})
	ev := apply(t, s, 4, "play", "tree")
	v := view(t, s, game.Table)
	assert.True(t, v.Players[4].Standing)
	assert.Equal(t, "girl", v.Called)
	assert.False(t, v.Threatened, "the girl's card was not played, so she need not sit")
	assert.Equal(t, []int{5}, s.Turn())
	assert.Equal(t, []string{"door", "door", "door", "ash"}, hand(t, s, 4), "the hand is drawn back up to four")
	for _, e := range ev {
		if strings.Contains(e.Text, "ash") {
			assert.Equal(t, []int{4}, e.To, "only the drawer hears what was drawn: %q", e.Text)
		}
	}
	assert.True(t, hasEvent(ev, "draw"))
}

func TestPlayingTheNextCardKeepsYouStandingAndCallsTheNext(t *testing.T) {
	s := build(t, lf.Setup{Called: "broom", Hands: [][]string{1: {"cart", "girl", "girl", "girl"}}, Draw: []string{"ash"}})
	apply(t, s, 1, "play", "cart")
	v := view(t, s, game.Table)
	assert.True(t, v.Players[1].Standing)
	assert.Equal(t, "cart", v.Called)
	assert.True(t, v.Threatened, "the cart's card was played: stand or sit")
	assert.Equal(t, []int{2}, s.Turn())
}

func TestTheGirlsNextCardIsTheDoor(t *testing.T) {
	s := build(t, lf.Setup{Called: "girl", Hands: [][]string{5: {"door", "ash"}}, Draw: []string{"ash", "ash"}})
	assert.Equal(t, []string{"play door"}, legal(s, 5))
	apply(t, s, 5, "play", "door")
	v := view(t, s, game.Table)
	assert.True(t, v.Players[5].Standing)
	assert.Equal(t, []int{0}, s.Turn())
}

func TestWithoutYourOwnOrTheNextCardYouSitAndCallTheCardYouPlay(t *testing.T) {
	s := build(t, lf.Setup{Called: "broom", Hands: [][]string{1: {"door", "tree", "girl", "girl"}}, Draw: []string{"ash"}})
	assert.ElementsMatch(t, []string{"play door", "play tree", "play girl"}, legal(s, 1))
	ev := apply(t, s, 1, "play", "tree")
	v := view(t, s, game.Table)
	assert.False(t, v.Players[1].Standing)
	assert.Equal(t, "tree", v.Called)
	assert.True(t, v.Threatened)
	assert.Equal(t, []int{4}, s.Turn())
	assert.Contains(t, ev[0].Text, "sits down")
}

func TestYouMustStayStandingWhenYouCan(t *testing.T) {
	s := build(t, lf.Setup{Called: "broom", Hands: [][]string{1: {"broom", "tree", "girl"}}, Draw: []string{"ash"}})
	assert.Equal(t, []string{"play broom"}, legal(s, 1))
	assert.Contains(t, refused(t, s, 1, "play", "tree"), "must play it and stay standing")
	// Attaching a louse that is not in front of you: that is the reason,
	// not the standing rule.
	why := refused(t, s, 1, "attach", "tree", "louse")
	assert.Contains(t, why, "the louse is not in front of you")
	assert.NotContains(t, why, "stay standing")

	// the choice option lets a player sit on purpose
	s = build(t, lf.Setup{Called: "broom", Options: map[string]string{lf.OptStand: lf.StandChoice},
		Hands: [][]string{1: {"broom", "tree", "girl"}}, Draw: []string{"ash"}})
	assert.ElementsMatch(t, []string{"play broom", "play tree", "play girl"}, legal(s, 1))
	apply(t, s, 1, "play", "tree")
	assert.False(t, view(t, s, game.Table).Players[1].Standing)
}

func TestASeatedPlayerStandsUpWithTheirOwnOrTheNextCard(t *testing.T) {
	s := build(t, lf.Setup{Called: "cart", Seated: []int{2}, Hands: [][]string{2: {"ash", "door"}}, Draw: []string{"door", "door"}})
	ev := apply(t, s, 2, "play", "ash")
	assert.True(t, view(t, s, game.Table).Players[2].Standing)
	assert.Contains(t, ev[0].Text, "stands up")

	s = build(t, lf.Setup{Called: "cart", Seated: []int{2}, Hands: [][]string{2: {"door", "girl"}}, Draw: []string{"door"}})
	apply(t, s, 2, "play", "girl")
	assert.False(t, view(t, s, game.Table).Players[2].Standing, "a seated player without the cards stays seated")
}

func TestAFreeTurnNeverMakesYouSit(t *testing.T) {
	s := build(t, lf.Setup{Called: "girl", Free: true, Hands: [][]string{5: {"cart", "cart"}}, Draw: []string{"ash", "ash"}})
	assert.Equal(t, []string{"play cart"}, legal(s, 5))
	ev := apply(t, s, 5, "play", "cart")
	v := view(t, s, game.Table)
	assert.True(t, v.Players[5].Standing)
	assert.Equal(t, "cart", v.Called)
	assert.True(t, v.Threatened)
	assert.Contains(t, ev[0].Text, "free turn")

	// a seated player on a free turn stands by playing their own card
	s = build(t, lf.Setup{Called: "girl", Free: true, Seated: []int{5}, Hands: [][]string{5: {"girl", "cart"}}, Draw: []string{"ash", "ash"}})
	apply(t, s, 5, "play", "girl")
	v = view(t, s, game.Table)
	assert.True(t, v.Players[5].Standing)
	assert.Equal(t, "door", v.Called)
	assert.False(t, v.Threatened)
}

// ---- louse and flea ----

func TestDrawingTheLouseShrinksTheHandAndForcesADiscard(t *testing.T) {
	s := build(t, lf.Setup{Called: "broom", Hands: [][]string{1: {"broom", "door", "girl", "tree"}}, Draw: []string{"louse", "ash", "ash"}})
	ev := apply(t, s, 1, "play", "broom")
	assert.True(t, hasEvent(ev, "bug"))
	assert.Equal(t, []int{1}, s.Turn(), "the drawer discards before play goes on")
	v := view(t, s, 1)
	assert.True(t, v.Discarding)
	assert.True(t, v.Players[1].Louse)
	assert.Equal(t, 3, v.Players[1].HandLimit)
	assert.ElementsMatch(t, []string{"discard door", "discard tree", "discard girl"}, legal(s, 1))
	assert.Contains(t, refused(t, s, 1, "play", "door"), "discard a card first")
	assert.Contains(t, refused(t, s, 2, "play", "cart"), "must discard")
	apply(t, s, 1, "discard", "tree")
	assert.Equal(t, []string{"door", "ash", "girl"}, hand(t, s, 1), "then the hand is drawn up to the new limit")
	assert.Equal(t, "tree", lf.DiscardPile(s)[0])
	assert.Equal(t, []int{2}, s.Turn())
	assert.Equal(t, "cart", view(t, s, 2).Called)
	assert.Empty(t, view(t, s, 2).Players[1].CanPass, "a drawn louse sits out the next turn")
}

func TestAttachingTheLouseGivesItToThatCardsPlayerWhoDiscardsAndPlays(t *testing.T) {
	s := build(t, lf.Setup{Called: "broom", Bugs: map[string]int{"louse": 1},
		Hands: [][]string{1: {"tree", "ash", "girl"}, 4: {"door", "door", "girl", "ash"}},
		Draw:  []string{"cart", "cart", "spring"}})
	assert.Contains(t, legal(s, 1), "attach tree louse")
	ev := apply(t, s, 1, "attach", "tree", "louse")
	assert.True(t, hasEvent(ev, "attach"))
	v := view(t, s, game.Table)
	assert.False(t, v.Players[1].Louse)
	assert.False(t, v.Players[1].Standing, "tree is neither broom nor cart: broom sits")
	assert.Equal(t, 4, v.Players[1].HandLimit, "passing the louse on gives the hand limit back")
	assert.Equal(t, 4, v.Players[1].Cards, "and the hand is drawn up to it")
	assert.True(t, v.Players[4].Louse)
	assert.Equal(t, 3, v.Players[4].HandLimit)
	assert.Equal(t, []int{4}, s.Turn())
	assert.True(t, v.Discarding, "the tree must discard first")
	assert.ElementsMatch(t, []string{"discard door", "discard girl", "discard ash"}, legal(s, 4))
	apply(t, s, 4, "discard", "door")
	v = view(t, s, 4)
	assert.Equal(t, []string{"door", "ash", "girl"}, v.Hand.Cards)
	assert.Equal(t, "tree", v.Called)
	assert.True(t, v.Threatened)
	assert.Equal(t, []int{4}, s.Turn(), "then play passes to the tree")
}

func TestABugWaitsAFullTurnBeforeItCanBePassedOn(t *testing.T) {
	// the tree has just been given the flea: not on this turn
	s := build(t, lf.Setup{Called: "tree", Turn: 7, Bugs: map[string]int{"flea": 4}, Arrived: map[string]int{"flea": 7},
		Hands: [][]string{4: {"door", "cart", "ash"}}, Draw: []string{"girl", "girl", "girl"}})
	for _, m := range legal(s, 4) {
		assert.NotContains(t, m, "attach")
	}
	assert.Empty(t, view(t, s, 4).Players[4].CanPass)
	assert.Contains(t, refused(t, s, 4, "attach", "door", "flea"), "full turn")

	// a turn later it may go
	s = build(t, lf.Setup{Called: "tree", Turn: 8, Bugs: map[string]int{"flea": 4}, Arrived: map[string]int{"flea": 7},
		Hands: [][]string{4: {"door", "cart", "ash"}}, Draw: []string{"girl", "girl", "girl"}})
	assert.Equal(t, []string{"flea"}, view(t, s, game.Table).Players[4].CanPass)
	apply(t, s, 4, "attach", "door", "flea")
	assert.True(t, view(t, s, game.Table).Players[0].Flea)

	// end to end: the receiver cannot pass it on in the turn it arrives,
	// but can once that turn is over
	s = build(t, lf.Setup{Called: "broom", Bugs: map[string]int{"louse": 1},
		Hands: [][]string{1: {"tree", "ash", "girl"}, 4: {"girl", "door", "door", "ash"}},
		Draw:  []string{"cart", "cart", "girl", "girl"}})
	apply(t, s, 1, "attach", "tree", "louse")
	apply(t, s, 4, "discard", "door")
	assert.Empty(t, view(t, s, game.Table).Players[4].CanPass)
	assert.Contains(t, refused(t, s, 4, "attach", "girl", "louse"), "full turn")
	apply(t, s, 4, "play", "girl")
	assert.Equal(t, []string{"louse"}, view(t, s, game.Table).Players[4].CanPass)
}

func TestABugCannotBeAttachedToYourOwnCard(t *testing.T) {
	s := build(t, lf.Setup{Called: "broom", Bugs: map[string]int{"louse": 1},
		Hands: [][]string{1: {"broom", "cart", "door"}}, Draw: []string{"girl", "girl"}})
	assert.Contains(t, refused(t, s, 1, "attach", "broom", "louse"), "come back to you")
	assert.Contains(t, legal(s, 1), "attach cart louse")

	// with three players the door also holds the ash
	s = build(t, lf.Setup{Players: 3, Called: "door", Options: map[string]string{lf.OptStand: lf.StandChoice},
		Bugs: map[string]int{"flea": 0}, Hands: [][]string{0: {"ash", "tree", "girl"}}, Draw: []string{"girl", "girl"}})
	assert.Contains(t, refused(t, s, 0, "attach", "ash", "flea"), "come back to you")
	assert.NotContains(t, legal(s, 0), "attach ash flea")
	assert.Contains(t, legal(s, 0), "attach tree flea")
	assert.Contains(t, refused(t, s, 0, "attach", "tree", "louse"), "not in front of you")
}

func TestTheLouseAndTheFleaTogetherLeaveAHandOfTwo(t *testing.T) {
	s := build(t, lf.Setup{Called: "broom", Bugs: map[string]int{"louse": 1},
		Hands: [][]string{1: {"broom", "door", "girl"}}, Draw: []string{"flea", "ash", "ash"}})
	apply(t, s, 1, "play", "broom")
	apply(t, s, 1, "discard", "girl")
	v := view(t, s, 1)
	assert.True(t, v.Players[1].Louse && v.Players[1].Flea)
	assert.Equal(t, 2, v.Players[1].HandLimit)
	assert.Equal(t, []string{"door", "ash"}, v.Hand.Cards)
}

// ---- spring ----

func TestASpringWashesOffTheBugsAndDealsAFreshHandOfFour(t *testing.T) {
	s := build(t, lf.Setup{Called: "broom", Bugs: map[string]int{"louse": 1, "flea": 1},
		Hands: [][]string{1: {"spring", "door"}}, Draw: []string{"cart", "ash", "girl", "tree", "door"}})
	assert.ElementsMatch(t, []string{"play door", "attach door louse", "attach door flea", "play spring"}, legal(s, 1))
	ev := apply(t, s, 1, "play", "spring")
	assert.True(t, hasEvent(ev, "spring"))
	v := view(t, s, 1)
	assert.False(t, v.Players[1].Louse)
	assert.False(t, v.Players[1].Flea)
	assert.Equal(t, 4, v.Players[1].HandLimit)
	assert.Equal(t, []string{"cart", "ash", "tree", "girl"}, v.Hand.Cards)
	assert.ElementsMatch(t, []string{"door", "spring", "louse", "flea"}, lf.DiscardPile(s)[:4])
	assert.Equal(t, []int{1}, s.Turn(), "the spring does not end the turn")
	assert.Equal(t, "broom", v.Called)
	assert.True(t, v.Threatened)
	assert.Equal(t, []string{"play cart"}, legal(s, 1), "and the fresh hand can save the player")
}

func TestABugDrawnIntoTheSpringsFreshHandWaitsItsFullTurn(t *testing.T) {
	s := build(t, lf.Setup{Called: "broom", Hands: [][]string{1: {"spring", "door"}, 2: {"ash"}},
		Draw: []string{"louse", "cart", "ash", "girl", "tree", "door", "door"}})
	apply(t, s, 1, "play", "spring")
	v := view(t, s, 1)
	assert.False(t, v.Discarding, "an empty hand has nothing to discard")
	assert.True(t, v.Players[1].Louse)
	assert.Equal(t, []string{"cart", "ash", "girl"}, v.Hand.Cards)
	assert.Empty(t, v.Players[1].CanPass)
	apply(t, s, 1, "play", "cart")
	assert.Empty(t, view(t, s, game.Table).Players[1].CanPass, "the next turn must go by in full")
	apply(t, s, 2, "play", "ash")
	assert.Equal(t, []string{"louse"}, view(t, s, game.Table).Players[1].CanPass)
}

// ---- the end ----

func TestTheLastPlayerStandingWins(t *testing.T) {
	s := build(t, lf.Setup{Players: 3, Called: "door", Seated: []int{2}, Hands: [][]string{0: {"cart", "cart"}}, Draw: []string{"ash"}})
	ev := apply(t, s, 0, "play", "cart")
	assert.True(t, s.Over())
	assert.Empty(t, s.Turn())
	assert.Nil(t, s.Legal(1))
	assert.True(t, hasEvent(ev, "win"))
	r := s.Result()
	assert.Equal(t, []int{1}, r.Winners)
	assert.Contains(t, r.Text, "{1} is the last one standing")
	_, err := s.Apply(game.M(2, "play", "cart"))
	assert.True(t, errors.Is(err, game.ErrOver))
	assert.Equal(t, []int{1}, view(t, s, game.Table).Winners)
}

func TestAnEmptyDrawPileIsMadeFromTheDiscards(t *testing.T) {
	s := build(t, lf.Setup{Called: "broom", Hands: [][]string{1: {"broom", "door"}}, Draw: []string{}})
	before := len(lf.DiscardPile(s))
	ev := apply(t, s, 1, "play", "broom")
	assert.True(t, hasEvent(ev, "reshuffle"))
	assert.Equal(t, []string{"broom"}, lf.DiscardPile(s), "the card just played stays face up")
	assert.Len(t, lf.DrawPile(s), before-3, "all but the top card, less the three drawn")
	assert.Equal(t, 4, view(t, s, game.Table).Players[1].Cards)
	assert.False(t, s.Over())
}

func TestDeckOutEndsTheGameForThoseStanding(t *testing.T) {
	s := build(t, lf.Setup{Called: "broom", Options: map[string]string{lf.OptDeckOut: lf.DeckOutEnd},
		Seated: []int{0, 3}, Hands: [][]string{1: {"broom", "door"}}, Draw: []string{}})
	ev := apply(t, s, 1, "play", "broom")
	assert.True(t, hasEvent(ev, "deck-out"))
	assert.True(t, s.Over())
	assert.Equal(t, []int{1, 2, 4, 5}, s.Result().Winners)
	assert.Contains(t, s.Result().Text, "share")
}

// ---- fewer than six players ----

func TestWithFourPlayersTheFirstTwoHoldTwoIdentities(t *testing.T) {
	s := build(t, lf.Setup{Players: 4, Called: "tree", Hands: [][]string{0: {"girl", "door"}}, Draw: []string{"cart", "cart"}})
	assert.Equal(t, []int{0}, s.Turn(), "seat 0 is door and tree")
	apply(t, s, 0, "play", "girl")
	assert.Equal(t, []int{1}, s.Turn(), "seat 1 is broom and girl")
	v := view(t, s, game.Table)
	assert.True(t, v.Players[0].Standing)
	assert.Equal(t, "girl", v.Called)
}

func TestTheRemoveOptionDropsTheUnusedIdentities(t *testing.T) {
	opt := map[string]string{lf.OptSmallTable: lf.SmallTableRemove}
	s, err := lf.Game.New(game.Config{Players: 4, Seed: 5, Options: opt})
	require.NoError(t, err)
	assert.Equal(t, map[string]int{"door": 10, "broom": 10, "cart": 10, "ash": 10, "louse": 1, "flea": 1, "spring": 3}, countCards(t, s, 4))
	assert.Equal(t, []string{"door", "broom", "cart", "ash"}, view(t, s, game.Table).Story)

	s = build(t, lf.Setup{Players: 4, Options: opt, Called: "ash", Hands: [][]string{3: {"door", "broom"}}, Draw: []string{"cart", "cart"}})
	assert.Contains(t, refused(t, s, 3, "play", "girl"), "no girl cards")
	apply(t, s, 3, "play", "door")
	v := view(t, s, game.Table)
	assert.True(t, v.Players[3].Standing, "after the ash comes the door again")
	assert.Equal(t, []int{0}, s.Turn())

	_, err = lf.Game.New(game.Config{Players: 3, Options: opt})
	assert.ErrorContains(t, err, "4 or more players")
}

func TestPlayerCounts(t *testing.T) {
	in := lf.Game.Info()
	assert.Equal(t, "louseflea", in.ID)
	for _, p := range []int{2, 7} {
		_, err := lf.Game.New(game.Config{Players: p})
		assert.Error(t, err, "%d players", p)
	}
}

// ---- refusals ----

func TestMovesThatAreRefused(t *testing.T) {
	s := build(t, lf.Setup{Called: "broom", Hands: [][]string{1: {"broom", "cart", "spring"}}, Draw: []string{"ash", "ash"}})
	assert.Contains(t, refused(t, s, 2, "play", "cart"), "not your turn")
	assert.Contains(t, refused(t, s, 1, "dance"), "no action")
	assert.Contains(t, refused(t, s, 7, "play", "cart"), "no seat 7")
	assert.Contains(t, refused(t, s, 1, "play"), "one card")
	assert.Contains(t, refused(t, s, 1, "play", "broom", "cart"), "one card")
	assert.Contains(t, refused(t, s, 1, "play", "teapot"), `"teapot" is not a card`)
	assert.Contains(t, refused(t, s, 1, "play", "girl"), "no girl card")
	assert.Contains(t, refused(t, s, 1, "play", "louse"), "attach it")
	assert.Contains(t, refused(t, s, 1, "discard", "cart"), "nothing to discard")
	assert.Contains(t, refused(t, s, 1, "attach", "cart", "louse"), "not in front of you")
	assert.Contains(t, refused(t, s, 1, "attach", "cart", "spring"), "only the louse or the flea")
	assert.Contains(t, refused(t, s, 1, "attach", "cart"), "an object card and a bug")
	assert.Equal(t, `name the object card first, then the bug: "attach cart louse"`, refused(t, s, 1, "attach", "louse", "cart"),
		"the bug named first is a slip of order, not an attempt to attach a cart")
	apply(t, s, 1, "play", "BROOM")
}

// A discard from a seat that owes none, such as a second tap after its own
// discard, is refused because nothing is owed, not because it is "not your
// turn".
func TestADiscardNobodyOwesSaysSo(t *testing.T) {
	s := build(t, lf.Setup{Called: "broom", Hands: [][]string{1: {"broom", "cart", "spring"}, 2: {"cart"}}, Draw: []string{"ash", "ash"}})
	why := refused(t, s, 2, "discard", "cart")
	assert.Contains(t, why, "there is nothing to discard now: ")
	assert.Contains(t, why, "plays, as the broom")
	assert.Contains(t, refused(t, s, 2, "play", "cart"), "not your turn")
}

// ---- secrets, replay, properties ----

// secrets: a seat's hand as its view shows it (the owner's number makes it
// unique), and for the table the top eight cards of the draw pile in order,
// written either way round (a pile listed top first or bottom first), which
// no view could show by chance: hands hold at most four cards and the story
// six.
func secrets(s game.State, owner int) []string {
	if owner == game.Table {
		d := lf.DrawPile(s)
		if len(d) < 8 {
			return nil
		}
		top := d[:8]
		rev := make([]string, 8)
		for i, c := range top {
			rev[7-i] = c
		}
		return []string{`"` + strings.Join(top, `","`) + `"`, `"` + strings.Join(rev, `","`) + `"`}
	}
	// A hand leaks as its JSON, or as the list of its card names in any
	// field, in story order or in alphabetical order: the names themselves,
	// unless such a list is also public (a seat's identities, the story).
	var h struct {
		Cards []string `json:"cards"`
	}
	hand := lf.HandJSON(s, owner)
	_ = json.Unmarshal([]byte(hand), &h)
	forms := []string{hand}
	if len(h.Cards) >= 2 {
		public := map[string]bool{}
		inner := s
		if w, ok := s.(interface{ Inner() game.State }); ok {
			inner = w.Inner()
		}
		tv := inner.View(game.Table).(lf.View)
		list := func(names []string) string { b, _ := json.Marshal(names); return string(b) }
		public[list(tv.Story)] = true
		for _, p := range tv.Players {
			public[list(p.Identities)] = true
			if p.Seat != owner { // two hands alike: each seat sees its own
				var o struct {
					Cards []string `json:"cards"`
				}
				_ = json.Unmarshal([]byte(lf.HandJSON(s, p.Seat)), &o)
				sort.Strings(o.Cards)
				public[list(o.Cards)] = true
				_ = json.Unmarshal([]byte(lf.HandJSON(s, p.Seat)), &o)
				public[list(o.Cards)] = true
			}
		}
		sorted := append([]string(nil), h.Cards...)
		sort.Strings(sorted)
		for _, l := range []string{list(h.Cards), list(sorted)} {
			if !public[l] {
				forms = append(forms, l)
			}
		}
	}
	return []string{gametest.Alias(forms...)}
}

// notHeld are well-formed moves the rules refuse: playing or discarding an
// identity card the seat does not hold.
func notHeld(s game.State, seat int) []game.Move {
	var h struct {
		Cards []string `json:"cards"`
	}
	_ = json.Unmarshal([]byte(lf.HandJSON(s, seat)), &h)
	var out []game.Move
	for _, name := range s.View(game.Table).(lf.View).Story {
		if !slices.Contains(h.Cards, name) {
			out = append(out, game.M(seat, "play", name), game.M(seat, "discard", name))
		}
	}
	return out
}

func configs() []game.Config {
	var cs []game.Config
	for p := 3; p <= 6; p++ {
		cs = append(cs,
			game.Config{Players: p},
			game.Config{Players: p, Options: map[string]string{lf.OptDeckOut: lf.DeckOutEnd, lf.OptStartSpecials: lf.StartSpecialsShuffle}},
			game.Config{Players: p, Options: map[string]string{lf.OptStand: lf.StandChoice}})
		if p >= 4 {
			cs = append(cs, game.Config{Players: p, Options: map[string]string{lf.OptSmallTable: lf.SmallTableRemove}})
		}
	}
	return cs
}

func TestRandomPlayoutsKeepTheContract(t *testing.T) {
	gametest.Run(t, gametest.Check{Game: lf.Game, Configs: configs(), Games: 300, Bot: lf.Bot, Secrets: secrets, Seed: 1000, Exhaustive: true, Illegal: notHeld})
	gametest.Run(t, gametest.Check{Game: lf.Game, Configs: configs(), Games: 150, Secrets: secrets, Seed: 5000, MaxMoves: 50000, Exhaustive: true, Illegal: notHeld})
}

// leaky shows every hand, or the draw pile, to everyone: the secrecy check
// must notice.
type leaky struct{ table bool }

func (l leaky) Info() game.Info { return lf.Game.Info() }
func (l leaky) New(cfg game.Config) (game.State, error) {
	s, err := lf.Game.New(cfg)
	return leakState{s, l.table}, err
}

type leakState struct {
	game.State
	table bool
}

func (l leakState) Inner() game.State { return l.State }
func (l leakState) Clone() game.State { return leakState{l.State.Clone(), l.table} }
func (l leakState) View(seat int) any {
	v := map[string]any{"view": l.State.View(seat)}
	if l.table {
		v["draw"] = lf.DrawPile(l.State)
		return v
	}
	var hands []json.RawMessage
	for p := 0; p < len(l.State.View(game.Table).(lf.View).Players); p++ {
		hands = append(hands, json.RawMessage(lf.HandJSON(l.State, p)))
	}
	v["hands"] = hands
	return v
}

func TestTheSecrecyCheckCatchesALeak(t *testing.T) {
	for _, table := range []bool{false, true} {
		err := gametest.Err(gametest.Check{Game: leaky{table}, Configs: configs(), Games: 20, Bot: lf.Bot, Secrets: secrets})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "secret")
		if table {
			assert.Contains(t, err.Error(), "a hidden secret")
		} else {
			assert.Contains(t, err.Error(), `{"owner":`)
		}
	}
}

func TestViewsHoldNoOtherHand(t *testing.T) {
	s, err := lf.Game.New(game.Config{Players: 6, Seed: 77})
	require.NoError(t, err)
	assert.Nil(t, view(t, s, game.Table).Hand)
	for p := 0; p < 6; p++ {
		v := view(t, s, p)
		require.NotNil(t, v.Hand)
		assert.Equal(t, p, v.Hand.Owner)
	}
}

func TestTheSameSeedAndMovesReplayTheSameGame(t *testing.T) {
	for _, cfg := range configs() {
		cfg.Seed = 42
		r := game.NewRand(9)
		p, err := game.Play(lf.Game, cfg, lf.Bot, &r, 100000)
		require.NoError(t, err)
		a, err := game.Replay(lf.Game, cfg, p.Moves)
		require.NoError(t, err)
		b, err := game.Replay(lf.Game, cfg, p.Moves)
		require.NoError(t, err)
		assert.Equal(t, a, b)
		assert.True(t, a.Over())
		assert.Equal(t, p.Result, a.Result())
	}
}

func TestDifferentSeedsDealDifferently(t *testing.T) {
	seen := map[string]bool{}
	for seed := uint64(0); seed < 20; seed++ {
		s, err := lf.Game.New(game.Config{Players: 6, Seed: seed})
		require.NoError(t, err)
		seen[strings.Join(lf.DrawPile(s), ",")+lf.HandJSON(s, 0)] = true
	}
	assert.Len(t, seen, 20)
}

func TestTenThousandGames(t *testing.T) {
	if testing.Short() || os.Getenv("TABLEREF_LONG") != "1" {
		t.Skip("set TABLEREF_LONG=1 to play 10,000 games (scripts/test does; --quick does not)")
	}
	r := game.NewRand(1)
	cs := configs()
	longest := 0
	for i := 0; i < 10000; i++ {
		cfg := cs[i%len(cs)]
		cfg.Seed = uint64(i)
		p, err := game.Play(lf.Game, cfg, lf.Bot, &r, 100000)
		require.NoError(t, err, "game %d", i)
		require.NotEmpty(t, p.Result.Winners, "game %d", i)
		longest = max(longest, len(p.Moves))
	}
	t.Logf("longest game: %d moves", longest)
}

func BenchmarkPlayout(b *testing.B) {
	r := game.NewRand(1)
	for i := 0; i < b.N; i++ {
		cfg := game.Config{Players: 3 + i%4, Seed: uint64(i)}
		if _, err := game.Play(lf.Game, cfg, lf.Bot, &r, 100000); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}

// ---- seats with two identities, springs on free turns, bugs given ----

// With three players seat 0 is the Door and the Ash. Called as the Ash, its
// Door card is just another card: playing it sits the seat down and calls
// the Door, which is the same seat, called again.
func TestWithThreePlayersASeatWithTwoIdentitiesAnswersAsTheOneCalled(t *testing.T) {
	s := build(t, lf.Setup{Players: 3, Called: "ash", Hands: [][]string{0: {"door", "cart"}}, Draw: []string{"girl", "girl", "girl"}})
	assert.ElementsMatch(t, []string{"play door", "play cart"}, legal(s, 0), "neither ash nor tree: any card, sitting down")
	ev := apply(t, s, 0, "play", "door")
	assert.Contains(t, ev[0].Text, "sits down")
	v := view(t, s, game.Table)
	assert.False(t, v.Players[0].Standing)
	assert.Equal(t, "door", v.Called)
	assert.True(t, v.Threatened)
	assert.Equal(t, []int{0}, s.Turn(), "the Door is seat 0 too")

	// Called as the Ash with the Tree (the next thing) in hand, it stands
	// and calls the Tree, seat 1's second identity.
	s = build(t, lf.Setup{Players: 3, Called: "ash", Hands: [][]string{0: {"tree", "cart"}}, Draw: []string{"girl", "girl", "girl"}})
	assert.Equal(t, []string{"play tree"}, legal(s, 0))
	apply(t, s, 0, "play", "tree")
	assert.True(t, view(t, s, game.Table).Players[0].Standing)
	assert.Equal(t, []int{1}, s.Turn())
}

// With five players the Door is also the Girl: the Girl's next card is the
// Door, the same seat's other card, so playing it keeps the seat standing
// and calls it again, as the Door.
func TestWithFivePlayersTheDoorIsAlsoTheGirlAndCallsItself(t *testing.T) {
	s := build(t, lf.Setup{Players: 5, Called: "girl", Hands: [][]string{0: {"door", "cart"}}, Draw: []string{"ash", "ash", "ash"}})
	assert.Equal(t, []string{"play door"}, legal(s, 0), "it must stand with the next card")
	ev := apply(t, s, 0, "play", "door")
	assert.Contains(t, ev[0].Text, "stays standing")
	v := view(t, s, game.Table)
	assert.True(t, v.Players[0].Standing)
	assert.Equal(t, "door", v.Called)
	assert.True(t, v.Threatened)
	assert.Equal(t, []int{0}, s.Turn())
	assert.Equal(t, []string{"door", "girl"}, v.Players[0].Identities)
}

func TestASpringOnAFreeTurnKeepsTheTurnFree(t *testing.T) {
	s := build(t, lf.Setup{Called: "broom", Free: true, Bugs: map[string]int{"louse": 1},
		Hands: [][]string{1: {"spring", "ash"}}, Draw: []string{"cart", "ash", "girl", "tree", "door"}})
	assert.Contains(t, legal(s, 1), "play spring")
	apply(t, s, 1, "play", "spring")
	v := view(t, s, 1)
	assert.False(t, v.Players[1].Louse, "washed away")
	assert.Equal(t, 4, v.Players[1].HandLimit)
	assert.Equal(t, []string{"cart", "ash", "tree", "girl"}, v.Hand.Cards)
	assert.Equal(t, []int{1}, s.Turn(), "the turn goes on")
	assert.False(t, v.Threatened, "and is still free")
	apply(t, s, 1, "play", "ash")
	assert.True(t, view(t, s, game.Table).Players[1].Standing, "nobody sits on a free turn")
	assert.Equal(t, "ash", view(t, s, game.Table).Called)
}

func TestABugGivenToAPlayerWithTheOtherBugLeavesAHandOfTwo(t *testing.T) {
	s := build(t, lf.Setup{Called: "broom", Bugs: map[string]int{"louse": 1, "flea": 4},
		Hands: [][]string{1: {"tree", "ash"}, 4: {"door", "girl", "ash"}}, Draw: []string{"cart", "cart", "girl", "girl"}})
	apply(t, s, 1, "attach", "tree", "louse")
	v := view(t, s, game.Table)
	assert.True(t, v.Players[4].Louse && v.Players[4].Flea)
	assert.Equal(t, 2, v.Players[4].HandLimit)
	assert.True(t, v.Discarding)
	assert.Equal(t, []int{4}, s.Turn())
	apply(t, s, 4, "discard", "ash")
	assert.Equal(t, []string{"door", "girl"}, hand(t, s, 4), "one discard for the new bug: a hand of two")
	assert.Equal(t, []int{4}, s.Turn(), "then the tree plays")
}

// A bug given to a player who holds no card costs no discard; called with
// nothing to play, the player draws first (no real deal leaves a hand
// empty, but the referee must not stall if one is).
func TestABugGivenToAPlayerHoldingNoCardsCostsNoDiscard(t *testing.T) {
	s := build(t, lf.Setup{Called: "broom", Bugs: map[string]int{"louse": 1},
		Hands: [][]string{1: {"tree", "ash"}, 4: {}}, Draw: []string{"cart", "cart", "girl", "door", "girl", "ash"}})
	ev := apply(t, s, 1, "attach", "tree", "louse")
	assert.Contains(t, ev[1].Text, "no card in hand to discard")
	assert.True(t, hasEvent(ev, "empty-hand"))
	v := view(t, s, 4)
	assert.False(t, v.Discarding)
	assert.True(t, v.Players[4].Louse)
	assert.Equal(t, 3, v.Players[4].HandLimit)
	assert.Len(t, v.Hand.Cards, 3, "drawn up to the new limit")
	assert.Equal(t, []int{4}, s.Turn())
	assert.NotEmpty(t, s.Legal(4))
}
