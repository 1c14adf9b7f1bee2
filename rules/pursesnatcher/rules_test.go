package pursesnatcher

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tableref/tableref/rules/game"
)

// newGame sets up a match with options given as name, value pairs.
func newGame(t *testing.T, opts ...string) *state {
	t.Helper()
	cfg := game.Config{Players: 2, Seed: 1, Options: map[string]string{}}
	for i := 0; i+1 < len(opts); i += 2 {
		cfg.Options[opts[i]] = opts[i+1]
	}
	s, err := Game.New(cfg)
	require.NoError(t, err)
	return s.(*state)
}

// play applies moves written as text ("0 fingers 3"), failing on refusal,
// and returns every event. A bare "0 escalate" climbs with the first
// suggested detail not told yet.
func play(t *testing.T, s *state, moves ...string) []game.Event {
	t.Helper()
	var all []game.Event
	for _, line := range moves {
		m, err := game.ParseMove(line)
		require.NoError(t, err)
		m = withDetail(s, m)
		ev, err := s.Apply(m)
		require.NoError(t, err, "move %q in phase %s", line, phaseNames[s.phase])
		require.NoError(t, s.Audit(), "after %q", line)
		all = append(all, ev...)
	}
	return all
}

// withDetail gives a bare escalate the first suggested detail not told yet.
func withDetail(s *state, m game.Move) game.Move {
	if m.Action == "escalate" && len(m.Args) == 0 {
		if c := s.climbs(m.Seat); len(c) > 0 {
			return c[0]
		}
	}
	return m
}

// refused applies a move that must be refused, checks the state did not
// change, and returns the reason.
func refused(t *testing.T, s *state, line string) string {
	t.Helper()
	m, err := game.ParseMove(line)
	require.NoError(t, err)
	before := s.Clone()
	_, err = s.Apply(m)
	require.Error(t, err, "move %q should be refused", line)
	require.True(t, reflect.DeepEqual(before, s), "refused move %q changed the state", line)
	return err.Error()
}

func hasLegal(s *state, line string) bool {
	m, _ := game.ParseMove(line)
	for _, l := range s.Legal(m.Seat) {
		if l.Equal(m) {
			return true
		}
	}
	return false
}

func viewJSON(t *testing.T, s *state, seat int) string {
	t.Helper()
	b, err := json.Marshal(s.View(seat))
	require.NoError(t, err)
	return string(b)
}

func texts(ev []game.Event, seat int) string {
	var b strings.Builder
	for _, e := range ev {
		if e.For(seat) {
			b.WriteString(e.Type + ": " + e.Text + "\n")
		}
	}
	return b.String()
}

// challenge runs a whole challenge with the given eyes and fingers.
func challenge(t *testing.T, s *state, eyes string, tourist, officer int) []game.Event {
	t.Helper()
	return play(t, s, "0 challenge", "1 okay "+eyes, fmt.Sprintf("0 fingers %d", tourist), fmt.Sprintf("1 fingers %d", officer))
}

func TestTwoPlayersTheTouristInSeatZeroAndTheOfficerInSeatOne(t *testing.T) {
	in := Game.Info()
	assert.Equal(t, "pursesnatcher", in.ID)
	assert.Equal(t, 2, in.MinPlayers)
	assert.Equal(t, 2, in.MaxPlayers)
	for _, n := range []int{1, 3} {
		_, err := Game.New(game.Config{Players: n})
		assert.Error(t, err)
	}
	s := newGame(t)
	assert.Equal(t, "tourist", s.View(Tourist).(View).Role)
	assert.Equal(t, "officer", s.View(Officer).(View).Role)
	assert.Equal(t, "table", s.View(game.Table).(View).Role)
}

func TestTheTouristWalksInStandingAndTheOfficerFirstAsksHerToSit(t *testing.T) {
	s := newGame(t)
	assert.Equal(t, "standing", s.View(game.Table).(View).Posture)
	assert.Equal(t, []int{Officer}, s.Turn())
	assert.Equal(t, []game.Move{game.M(1, "seat"), game.M(1, "time")}, s.Legal(Officer))
	assert.Empty(t, s.Legal(Tourist))
	assert.Contains(t, refused(t, s, "0 challenge"), "ask the tourist to sit")
	ev := play(t, s, "1 seat")
	assert.Equal(t, "seated", ev[0].Type)
	assert.Equal(t, "sitting", s.View(game.Table).(View).Posture)
	assert.Equal(t, []int{Tourist, Officer}, s.Turn(), "the talk: she may act, and he may ask")
	refused(t, s, "1 seat")
}

func TestEscalatingClimbsOnePostureAtATimeWithADetail(t *testing.T) {
	s := newGame(t)
	play(t, s, "1 seat")
	ev := play(t, s, "0 escalate tickets tomorrow")
	assert.Equal(t, standing, s.posture)
	assert.Equal(t, "{0} (the tourist) stands up: her tickets home were in the purse (tomorrow).", ev[0].Text)
	ev = play(t, s, "0 escalate injury pushed")
	assert.Equal(t, touching, s.posture)
	assert.Contains(t, ev[0].Text, "the thief hurt her")
	assert.False(t, canClimb(s))
	assert.Contains(t, refused(t, s, "0 escalate money savings"), "no higher posture")
	assert.Contains(t, s.Turn(), Tourist, "climbing keeps the floor with the tourist")
	v := s.View(game.Table).(View)
	require.Len(t, v.Details, 2)
	assert.Equal(t, Detail{Kind: "tickets", Word: "tomorrow", Text: "her tickets home were in the purse (tomorrow)", Posture: "standing"}, v.Details[0])
}

// canClimb reports whether the tourist is offered any climb.
func canClimb(s *state) bool {
	for _, m := range s.Legal(Tourist) {
		if m.Action == "escalate" {
			return true
		}
	}
	return false
}

func actionsOf(ms []game.Move) []string {
	var out []string
	for _, m := range ms {
		if !slices.Contains(out, m.Action) {
			out = append(out, m.Action)
		}
	}
	return out
}

func TestTheTouristCannotStepDownAtWillByDefault(t *testing.T) {
	s := newGame(t)
	play(t, s, "1 seat", "0 escalate")
	assert.False(t, hasLegal(s, "0 deescalate"))
	assert.Contains(t, refused(t, s, "0 deescalate"), "only after losing a challenge")
}

func TestTheStepDownOptionLetsHerLowerHerPostureAtWill(t *testing.T) {
	s := newGame(t, OptStepDown, "yes")
	play(t, s, "1 seat", "0 escalate", "0 escalate")
	assert.True(t, hasLegal(s, "0 deescalate"))
	play(t, s, "0 deescalate")
	assert.Equal(t, standing, s.posture)
	play(t, s, "0 deescalate")
	assert.Equal(t, sitting, s.posture)
	assert.Contains(t, refused(t, s, "0 deescalate"), "already sitting")
}

func TestAChallengeTakesOneToFourFingersFromEach(t *testing.T) {
	s := newGame(t)
	play(t, s, "1 seat", "0 challenge")
	assert.Equal(t, []int{Officer}, s.Turn(), "the officer says okay first")
	refused(t, s, "0 fingers 2")
	play(t, s, "1 okay closed")
	assert.Equal(t, []int{Tourist}, s.Turn())
	for _, bad := range []string{"0", "5", "-1", "two", "1.5", "12"} {
		assert.Contains(t, refused(t, s, "0 fingers "+bad), "1 to 4")
	}
	refused(t, s, "0 fingers")
	refused(t, s, "0 fingers 1 2")
	refused(t, s, "1 fingers 2")
	var legal []string
	for _, m := range s.Legal(Tourist) {
		legal = append(legal, m.String())
	}
	assert.Equal(t, []string{"0 fingers 1", "0 fingers 2", "0 fingers 3", "0 fingers 4", "0 time"}, legal)
	play(t, s, "0 fingers 4")
	assert.Equal(t, []int{Officer}, s.Turn())
	refused(t, s, "1 fingers 5")
	play(t, s, "1 fingers 1")
	assert.Len(t, s.history, 1)
}

func TestAnEvenTotalWinsTheChallengeForTheTourist(t *testing.T) {
	for tf := 1; tf <= 4; tf++ {
		for of := 1; of <= 4; of++ {
			s := newGame(t)
			play(t, s, "1 seat")
			ev := challenge(t, s, "closed", tf, of)
			last := ev[len(ev)-1]
			v := s.View(game.Table).(View)
			require.Len(t, v.Challenges, 1)
			assert.Equal(t, tf+of, v.Challenges[0].Total)
			if (tf+of)%2 == 0 {
				assert.Equal(t, "challenge-won", last.Type, "%d+%d", tf, of)
				assert.Equal(t, "tourist", v.Challenges[0].Winner)
				assert.Equal(t, "demand", v.Phase)
			} else {
				assert.Equal(t, "challenge-lost", last.Type, "%d+%d", tf, of)
				assert.Equal(t, "officer", v.Challenges[0].Winner)
				assert.Equal(t, "dismiss", v.Phase)
			}
			assert.Contains(t, last.Text, fmt.Sprintf("shows %d", tf))
			assert.Contains(t, last.Text, fmt.Sprintf("shows %d", of))
		}
	}
}

func TestTheSittingTouristLetsTheOfficerChooseHisEyes(t *testing.T) {
	s := newGame(t)
	play(t, s, "1 seat", "0 challenge")
	assert.True(t, hasLegal(s, "1 okay open"))
	assert.True(t, hasLegal(s, "1 okay closed"))
	refused(t, s, "1 okay")
	refused(t, s, "1 okay shut")
	refused(t, s, "1 okay open wide")
}

func TestTheStandingTouristMakesTheOfficerCloseHisEyes(t *testing.T) {
	s := newGame(t)
	play(t, s, "1 seat", "0 escalate", "0 challenge")
	assert.False(t, hasLegal(s, "1 okay open"))
	assert.Contains(t, refused(t, s, "1 okay open"), "must close your eyes")
	play(t, s, "1 okay closed", "0 fingers 3")
	assert.Zero(t, s.View(Officer).(View).TouristFingers, "eyes closed: he cannot see her fingers")
	assert.Equal(t, "closed", s.View(Officer).(View).Eyes)
}

func TestTheTouchingTouristMakesTheOfficerKeepHisEyesOpen(t *testing.T) {
	s := newGame(t)
	play(t, s, "1 seat", "0 escalate", "0 escalate", "0 challenge")
	assert.False(t, hasLegal(s, "1 okay closed"))
	assert.Contains(t, refused(t, s, "1 okay closed"), "keep your eyes open")
	ev := play(t, s, "1 okay open", "0 fingers 3")
	assert.Equal(t, 3, s.View(Officer).(View).TouristFingers, "eyes open: he sees her fingers before choosing")
	assert.Contains(t, texts(ev, Officer), "she raises 3")
}

func TestWithEyesOpenTheOfficerSeesTheFingersBeforeChoosing(t *testing.T) {
	s := newGame(t)
	play(t, s, "1 seat", "0 challenge", "1 okay open", "0 fingers 2")
	assert.Equal(t, []int{Officer}, s.Turn())
	assert.Equal(t, 2, s.View(Officer).(View).TouristFingers)
	assert.Equal(t, "open", s.View(Officer).(View).Eyes)
	assert.Zero(t, s.View(game.Table).(View).TouristFingers, "the table sees nothing before the reveal")
}

func TestWithEyesClosedTheFingersStayHiddenUntilTheReveal(t *testing.T) {
	s := newGame(t)
	ev := play(t, s, "1 seat", "0 challenge", "1 okay closed", "0 fingers 3")
	assert.Equal(t, 3, s.View(Tourist).(View).TouristFingers, "she knows her own")
	assert.Zero(t, s.View(Officer).(View).TouristFingers)
	assert.Zero(t, s.View(game.Table).(View).TouristFingers)
	assert.NotContains(t, texts(ev, Officer), "3")
	assert.NotContains(t, texts(ev, game.Table), "3")
	assert.Contains(t, texts(ev, Tourist), "You raise 3")
	ev = play(t, s, "1 fingers 2")
	assert.Contains(t, texts(ev, game.Table), "shows 3")
	assert.Equal(t, 3, s.View(game.Table).(View).Challenges[0].Tourist)
}

func TestTheTouristNeverLearnsWhetherTheOfficerWatched(t *testing.T) {
	run := func(eyes string) (events string, views []string, turns [][]int) {
		s := newGame(t)
		play(t, s, "1 seat")
		for _, line := range []string{"0 challenge", "1 okay " + eyes, "0 fingers 1", "1 fingers 2"} {
			events += texts(play(t, s, line), Tourist)
			views = append(views, viewJSON(t, s, Tourist), viewJSON(t, s, game.Table))
			turns = append(turns, s.Turn())
		}
		return
	}
	e1, v1, t1 := run("open")
	e2, v2, t2 := run("closed")
	assert.Equal(t, e1, e2, "the tourist's events")
	assert.Equal(t, v1, v2, "the tourist's and the table's views")
	assert.Equal(t, t1, t2, "the turn order")
	for _, v := range v1 {
		assert.NotContains(t, v, "eyes")
	}
}

func TestAWonChallengeGivesTheTouristOneDemand(t *testing.T) {
	s := newGame(t)
	play(t, s, "1 seat", "0 escalate")
	challenge(t, s, "closed", 2, 2)
	assert.Equal(t, []int{Tourist}, s.Turn())
	assert.False(t, hasLegal(s, "0 demand token"), "by default the token cannot be demanded")
	assert.True(t, hasLegal(s, "0 demand other"))
	refused(t, s, "0 challenge")
	refused(t, s, "0 demand")
	refused(t, s, "0 demand money")
	ev := play(t, s, "0 demand other")
	assert.Contains(t, ev[0].Text, "must do the one thing")
	assert.NotContains(t, ev[0].Text, "in return")
	assert.Equal(t, "talk", phaseNames[s.phase])
	assert.Equal(t, standing, s.posture, "winning does not move her")
	assert.Equal(t, 1, s.View(game.Table).(View).Demands)
	refused(t, s, "0 demand other")
}

func TestAWinWhileTouchingLetsTheOfficerAskSomethingInReturn(t *testing.T) {
	s := newGame(t)
	play(t, s, "1 seat", "0 escalate", "0 escalate")
	ev := challenge(t, s, "open", 1, 3)
	assert.Contains(t, ev[len(ev)-1].Text, "in return")
	ev = play(t, s, "0 demand other")
	assert.Contains(t, ev[0].Text, "ask something of her in return")
	assert.Equal(t, touching, s.posture)
	assert.Equal(t, "return", phaseNames[s.phase])
	assert.Equal(t, []int{Officer}, s.Turn())
}

func TestWithTokenDemandYesDemandingTheTokenMakesTheOfficerTakeItAndLose(t *testing.T) {
	s := newGame(t, OptTokenDemand, "yes")
	play(t, s, "1 seat")
	challenge(t, s, "closed", 1, 1)
	ev := play(t, s, "0 demand token")
	assert.Equal(t, "token-taken", ev[0].Type)
	assert.True(t, s.Over())
	assert.Empty(t, s.Turn())
	assert.Equal(t, []int{Tourist}, s.Result().Winners)
	assert.Equal(t, "officer", s.View(game.Table).(View).Token)
	_, err := s.Apply(game.M(0, "leave"))
	assert.True(t, errors.Is(err, game.ErrOver))
}

// By default a won challenge cannot force the token on the officer: his
// rules forbid him ever to take it, and only ask him to do his best with
// her demand (see the package comment).
func TestByDefaultTheTokenCanOnlyBeOfferedNotDemanded(t *testing.T) {
	s := newGame(t)
	play(t, s, "1 seat")
	challenge(t, s, "closed", 1, 1)
	assert.False(t, hasLegal(s, "0 demand token"))
	assert.Contains(t, refused(t, s, "0 demand token"), "offer it instead")
	play(t, s, "0 demand other")
	assert.False(t, s.Over())
}

func TestLosingWhileStandingMeansSittingDownOrClimbingToTouching(t *testing.T) {
	for _, way := range []string{"deescalate", "escalate"} {
		s := newGame(t)
		play(t, s, "1 seat", "0 escalate")
		ev := challenge(t, s, "closed", 1, 2)
		assert.Contains(t, ev[len(ev)-1].Text, "sit down, or add a new detail")
		assert.Equal(t, "shift", phaseNames[s.phase])
		assert.True(t, canClimb(s))
		assert.True(t, hasLegal(s, "0 deescalate"))
		refused(t, s, "0 challenge")
		refused(t, s, "0 offer")
		play(t, s, "0 "+way)
		want := map[string]posture{"deescalate": sitting, "escalate": touching}[way]
		assert.Equal(t, want, s.posture)
		assert.Equal(t, "talk", phaseNames[s.phase])
	}
}

func TestLosingWhileTouchingMeansLettingGo(t *testing.T) {
	s := newGame(t)
	play(t, s, "1 seat", "0 escalate", "0 escalate")
	challenge(t, s, "open", 3, 4)
	assert.False(t, canClimb(s))
	assert.Contains(t, refused(t, s, "0 escalate"), "no higher posture")
	play(t, s, "0 deescalate")
	assert.Equal(t, standing, s.posture)
}

func TestLosingWhileSittingLetsTheOfficerSendHerAway(t *testing.T) {
	s := newGame(t)
	play(t, s, "1 seat")
	ev := challenge(t, s, "open", 2, 1)
	assert.Contains(t, ev[len(ev)-1].Text, "may tell her to leave")
	assert.Equal(t, []int{Officer}, s.Turn())
	assert.ElementsMatch(t, []game.Move{game.M(1, "dismiss"), game.M(1, "keep"), game.M(1, "time")}, s.Legal(Officer))
	play(t, s, "1 dismiss")
	v := s.View(game.Table).(View)
	assert.Equal(t, "ordered", v.Phase)
	assert.Equal(t, "dismissed", v.Ordered)
	assert.True(t, hasLegal(s, "0 challenge"), "one last stand")
	refused(t, s, "0 time")
	refused(t, s, "1 dismiss")
}

func TestATouristKeptAfterLosingSittingMustStandUp(t *testing.T) {
	s := newGame(t)
	play(t, s, "1 seat")
	challenge(t, s, "closed", 2, 1)
	ev := play(t, s, "1 keep")
	assert.Contains(t, ev[0].Text, "must stand up")
	assert.Equal(t, []string{"escalate", "leave", "time"}, actionsOf(s.Legal(Tourist)))
	refused(t, s, "0 deescalate")
	play(t, s, "0 escalate")
	assert.Equal(t, standing, s.posture)
	assert.Equal(t, "talk", phaseNames[s.phase])
}

func TestWithSittingLossStayAKeptTouristStaysSeated(t *testing.T) {
	s := newGame(t, OptSittingLoss, "stay")
	play(t, s, "1 seat")
	challenge(t, s, "closed", 2, 1)
	play(t, s, "1 keep")
	assert.Equal(t, sitting, s.posture)
	assert.Equal(t, "talk", phaseNames[s.phase])
}

func TestTheTouristHoldsTheTokenAndTheOfficerLosesIfHeTakesIt(t *testing.T) {
	s := newGame(t)
	assert.Equal(t, "tourist", s.View(game.Table).(View).Token)
	play(t, s, "1 seat", "0 offer")
	assert.Equal(t, []int{Officer}, s.Turn())
	assert.Equal(t, []game.Move{game.M(1, "take"), game.M(1, "refuse"), game.M(1, "time")}, s.Legal(Officer))
	ev := play(t, s, "1 take")
	assert.Equal(t, "token-taken", ev[0].Type)
	assert.True(t, s.Over())
	r := s.Result()
	assert.Equal(t, []int{Tourist}, r.Winners)
	assert.Contains(t, r.Text, "took the token")
	assert.Equal(t, "officer", s.View(game.Table).(View).Token)
}

func TestARefusedTokenStaysWithTheTourist(t *testing.T) {
	s := newGame(t)
	play(t, s, "1 seat", "0 offer", "1 refuse")
	assert.Equal(t, "talk", phaseNames[s.phase])
	assert.Equal(t, "tourist", s.View(game.Table).(View).Token)
	play(t, s, "0 offer", "1 refuse")
	assert.Equal(t, 2, s.View(game.Table).(View).Offers)
}

func TestLeavingWithTheTokenLosesTheGame(t *testing.T) {
	s := newGame(t)
	play(t, s, "1 seat", "0 escalate")
	ev := play(t, s, "0 leave")
	assert.Equal(t, "left", ev[0].Type)
	assert.True(t, s.Over())
	assert.Equal(t, []int{Officer}, s.Result().Winners)
	assert.Contains(t, s.Result().Text, "left still holding the token")
}

func TestTheTouristMayNotLeaveWithHerEyesClosedInAChallenge(t *testing.T) {
	s := newGame(t)
	play(t, s, "1 seat", "0 challenge", "1 okay closed")
	assert.False(t, hasLegal(s, "0 leave"))
	refused(t, s, "0 leave")
}

func TestRefusingToLeaveEndsInArrest(t *testing.T) {
	s := newGame(t)
	play(t, s, "1 seat", "0 time")
	ev := play(t, s, "0 stay")
	assert.Contains(t, ev[0].Text, "must arrest her")
	assert.Equal(t, []int{Officer}, s.Turn())
	assert.Equal(t, []game.Move{game.M(1, "arrest")}, s.Legal(Officer))
	ev = play(t, s, "1 arrest")
	assert.Contains(t, ev[0].Text, "under arrest")
	assert.True(t, s.Over())
	assert.Equal(t, []int{Officer}, s.Result().Winners)
	assert.Contains(t, s.Result().Text, "arrested")
}

func TestArrestIsOnlyForATouristWhoRefusesToLeave(t *testing.T) {
	s := newGame(t)
	play(t, s, "1 seat", "0 offer")
	refused(t, s, "1 arrest")
	play(t, s, "1 refuse", "0 time")
	refused(t, s, "1 arrest")
}

// The tourist may challenge "at any time"; once told to leave, anything but
// going is a refusal to go. So she gets one last stand, a challenge or an
// offer of the token, and then must go or be arrested.
func TestToldToLeaveSheMayMakeOneLastStand(t *testing.T) {
	s := newGame(t)
	play(t, s, "1 seat", "0 time")
	assert.ElementsMatch(t, []game.Move{game.M(0, "leave"), game.M(0, "stay"), game.M(0, "offer"), game.M(0, "challenge")}, s.Legal(Tourist))
	play(t, s, "0 offer", "1 refuse")
	assert.Equal(t, "ordered", phaseNames[s.phase])
	assert.True(t, s.View(game.Table).(View).LastStand)
	assert.False(t, hasLegal(s, "0 offer"))
	assert.False(t, hasLegal(s, "0 challenge"))
	assert.Contains(t, refused(t, s, "0 offer"), "last chance")
	assert.Contains(t, refused(t, s, "0 challenge"), "last chance")

	s = newGame(t)
	play(t, s, "1 seat", "0 time", "0 offer", "1 take")
	assert.Equal(t, []int{Tourist}, s.Result().Winners, "the officer may still slip")
}

func TestToldToLeaveALastChallengeWonLetsHerDemandThenSheMustGo(t *testing.T) {
	s := newGame(t)
	play(t, s, "1 seat", "0 escalate", "0 time")
	ev := play(t, s, "0 challenge")
	assert.Contains(t, ev[0].Text, "last stand")
	play(t, s, "1 okay closed", "0 fingers 2", "1 fingers 4")
	assert.Equal(t, "demand", phaseNames[s.phase])
	assert.False(t, hasLegal(s, "0 demand token"), "the token cannot be demanded by default")
	ev = play(t, s, "0 demand other")
	assert.Equal(t, "ordered", ev[len(ev)-1].Type)
	assert.ElementsMatch(t, []game.Move{game.M(0, "leave"), game.M(0, "stay")}, s.Legal(Tourist))
	play(t, s, "0 stay", "1 arrest")
	assert.Equal(t, []int{Officer}, s.Result().Winners)

	s = newGame(t, OptTokenDemand, "yes")
	play(t, s, "1 seat", "0 escalate", "0 time", "0 challenge", "1 okay closed", "0 fingers 1", "1 fingers 3", "0 demand token")
	assert.Equal(t, []int{Tourist}, s.Result().Winners, "with token-demand=yes a last stand can win")
}

func TestToldToLeaveALastChallengeLostStillEndsInGoing(t *testing.T) {
	s := newGame(t)
	play(t, s, "1 seat", "0 time", "0 challenge", "1 okay open", "0 fingers 2", "1 fingers 1")
	// She lost sitting, but was told to leave already: nobody decides to
	// send her away again; she must stand up (sitting-loss=rise), then go.
	assert.Equal(t, "shift", phaseNames[s.phase])
	assert.False(t, hasLegal(s, "1 dismiss"))
	ev := play(t, s, "0 escalate")
	assert.Equal(t, "ordered", ev[len(ev)-1].Type)
	play(t, s, "0 leave")
	assert.Equal(t, []int{Officer}, s.Result().Winners)

	s = newGame(t, OptSittingLoss, "stay")
	play(t, s, "1 seat", "0 time", "0 challenge", "1 okay closed", "0 fingers 2", "1 fingers 3")
	assert.Equal(t, "ordered", phaseNames[s.phase])
}

func TestWithLastOfferToldToLeaveSheMayOnlyOfferOnce(t *testing.T) {
	s := newGame(t, OptToldToLeave, LastOffer)
	play(t, s, "1 seat", "0 time")
	assert.ElementsMatch(t, []game.Move{game.M(0, "leave"), game.M(0, "stay"), game.M(0, "offer")}, s.Legal(Tourist))
	assert.Contains(t, refused(t, s, "0 challenge"), "may not challenge again")
	play(t, s, "0 offer", "1 refuse")
	assert.Contains(t, refused(t, s, "0 offer"), "last chance")
}

// Leaving is hers at any moment she has the floor: after being ordered
// out, and also instead of naming a demand or changing posture.
func TestSheMayLeaveAfterBeingOrderedOutOrInsteadOfADemandOrAShift(t *testing.T) {
	s := newGame(t)
	play(t, s, "1 seat", "0 challenge", "1 okay open", "0 fingers 2", "1 fingers 1", "1 dismiss")
	assert.Equal(t, "dismissed", s.View(game.Table).(View).Ordered)
	ev := play(t, s, "0 leave")
	assert.Equal(t, "left", ev[0].Type)
	assert.Equal(t, []int{Officer}, s.Result().Winners)

	s = newGame(t)
	play(t, s, "1 seat", "0 escalate", "0 challenge", "1 okay closed", "0 fingers 2", "1 fingers 2")
	require.Equal(t, "demand", phaseNames[s.phase])
	assert.True(t, hasLegal(s, "0 leave"))
	play(t, s, "0 leave")
	assert.True(t, s.Over())
	assert.Contains(t, s.Result().Text, "left still holding the token")

	s = newGame(t)
	play(t, s, "1 seat", "0 escalate", "0 challenge", "1 okay closed", "0 fingers 2", "1 fingers 1")
	require.Equal(t, "shift", phaseNames[s.phase])
	assert.True(t, hasLegal(s, "0 leave"))
	play(t, s, "0 leave")
	assert.Equal(t, []int{Officer}, s.Result().Winners)
}

func TestTimeEndsTheMeetingWithAnOrderToLeave(t *testing.T) {
	s := newGame(t, OptMinutes, "20")
	play(t, s, "1 seat", "0 escalate")
	assert.True(t, hasLegal(s, "0 time"))
	ev := play(t, s, "0 time")
	assert.Equal(t, "ordered", ev[0].Type)
	assert.Contains(t, ev[0].Text, "20 minutes")
	v := s.View(game.Table).(View)
	assert.True(t, v.TimeUp)
	assert.Equal(t, "time", v.Ordered)
	assert.Equal(t, 20, v.Minutes)
	assert.Contains(t, refused(t, s, "0 time"), "already")
}

func TestTimeBeforeSheSitsSendsHerAway(t *testing.T) {
	s := newGame(t)
	play(t, s, "1 time")
	assert.Equal(t, "ordered", phaseNames[s.phase])
	assert.Equal(t, standing, s.posture)
}

func TestTimeDuringAChallengeWaitsUntilTheExchangeIsSettled(t *testing.T) {
	s := newGame(t)
	play(t, s, "1 seat", "0 escalate", "0 challenge", "1 okay closed")
	ev := play(t, s, "0 time")
	assert.Equal(t, "time", ev[0].Type)
	assert.Equal(t, "tourist-fingers", phaseNames[s.phase], "the challenge goes on")
	assert.False(t, hasLegal(s, "0 time"))
	refused(t, s, "0 time")
	play(t, s, "0 fingers 1", "1 fingers 2")
	assert.Equal(t, "shift", phaseNames[s.phase], "and its consequence too")
	ev = play(t, s, "0 deescalate")
	assert.Equal(t, "ordered", ev[len(ev)-1].Type)
	assert.Equal(t, "ordered", phaseNames[s.phase])

	// A won challenge still gets its demand, which may be the token.
	s = newGame(t)
	play(t, s, "1 seat", "0 challenge", "1 time", "1 okay closed", "0 fingers 1", "1 fingers 3", "0 demand other")
	assert.Equal(t, "ordered", phaseNames[s.phase])
	s = newGame(t, OptTokenDemand, "yes")
	play(t, s, "1 seat", "0 challenge", "1 okay closed", "0 fingers 1", "1 fingers 3", "0 time", "0 demand token")
	assert.Equal(t, []int{Tourist}, s.Result().Winners)

	// An offer is answered first.
	s = newGame(t)
	play(t, s, "1 seat", "0 offer", "1 time", "1 refuse")
	assert.Equal(t, "ordered", phaseNames[s.phase])
}

func TestTheMinutesOptionIsForTheReferee(t *testing.T) {
	var opt game.Option
	for _, o := range Game.Info().Options {
		if o.Name == OptMinutes {
			opt = o
		}
	}
	assert.Equal(t, "15", opt.Default)
	assert.Equal(t, 1, opt.Min)
	assert.Equal(t, 120, opt.Max)
	assert.Equal(t, 15, newGame(t).View(game.Table).(View).Minutes)
	_, err := Game.New(game.Config{Players: 2, Options: map[string]string{OptMinutes: "0"}})
	assert.Error(t, err)
	_, err = Game.New(game.Config{Players: 2, Options: map[string]string{OptTokenDemand: "maybe"}})
	assert.Error(t, err)
}

func TestRefusalsSayWhyAndLeaveTheStateAlone(t *testing.T) {
	s := newGame(t)
	play(t, s, "1 seat")
	assert.Contains(t, refused(t, s, "1 challenge"), "not the officer's move")
	assert.Contains(t, refused(t, s, "2 challenge"), "no seat 2")
	assert.Contains(t, refused(t, s, "0 dance"), `no action "dance"`)
	assert.Contains(t, refused(t, s, "0 challenge now"), "takes no arguments")
	assert.Contains(t, refused(t, s, "0 take"), "take is the officer's")
	assert.Contains(t, refused(t, s, "0 fingers 2"), "not possible now")
	m := game.M(-2, "leave")
	_, err := s.Apply(m)
	assert.Error(t, err)
}

func TestEveryListedMoveIsAcceptedInEveryPhase(t *testing.T) {
	// Walk the game through each phase and apply every listed move to a clone.
	lines := []string{"1 seat", "0 challenge", "1 okay open", "0 fingers 1", "1 fingers 1", "0 demand other",
		"0 escalate", "0 challenge", "1 okay closed", "0 fingers 1", "1 fingers 2", "0 deescalate",
		"0 challenge", "1 okay closed", "0 fingers 1", "1 fingers 2", "1 keep", "0 escalate", "0 offer", "1 refuse", "0 time", "0 stay"}
	for _, opts := range [][]string{nil, {OptStepDown, "yes", OptTokenDemand, "no", OptSittingLoss, "stay"}} {
		s := newGame(t, opts...)
		for _, line := range lines {
			for _, seat := range []int{Tourist, Officer} {
				for _, m := range s.Legal(seat) {
					c := s.Clone().(*state)
					_, err := c.Apply(m)
					require.NoError(t, err, "%q in phase %s", m, phaseNames[s.phase])
					require.NoError(t, c.Audit())
				}
			}
			m, _ := game.ParseMove(line)
			_, err := s.Apply(withDetail(s, m))
			require.NoError(t, err, "%q in phase %s", line, phaseNames[s.phase])
		}
	}
}

func TestTheTimeNoticeCountsMinutesInGoodEnglish(t *testing.T) {
	assert.Equal(t, "1 minute", minutes(1))
	assert.Equal(t, "15 minutes", minutes(15))
	assert.Equal(t, "1 minute has", hasHave(minutes(1), 1))
	assert.Equal(t, "2 minutes have", hasHave(minutes(2), 2))
}
