package pursesnatcher

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tableref/tableref/rules/game"
)

// The tests of the talk, from the poem's words: climbing costs a new
// detail; seated she must answer, standing she may refuse, touching she must
// answer; he never touches her unless she asks or he arrests her; a win
// while touching lets him ask something in return, which she must grant.

// Each climb costs a detail of the theft that she has not told before.
func TestAClimbNeedsANewDetail(t *testing.T) {
	s := newGame(t)
	play(t, s, "1 seat")
	assert.Contains(t, refused(t, s, "0 escalate"), "a climb needs a new detail of the theft")
	assert.Contains(t, refused(t, s, "0 escalate tickets"), "a detail is a kind and one word")
	assert.Contains(t, refused(t, s, "0 escalate luggage lost"), `"luggage" is not a kind of detail: the kinds are sentimental, tickets, injury, documents, money, other`)
	assert.Contains(t, refused(t, s, "0 escalate tickets Flight!"), "is not a short word")
	assert.Contains(t, refused(t, s, "0 escalate tickets a-very-long-word-that-goes-on"), "up to 24")
	ev := play(t, s, "0 escalate sentimental grandmothers-ring")
	assert.Equal(t, "escalate", ev[0].Type)
	assert.Contains(t, ev[0].Text, "stands up: something of great sentimental value was in the purse (grandmothers ring)")
	assert.Equal(t, standing, s.posture)
	// The phone offers the kinds with suggested words, two steps deep.
	var climbs []game.Move
	for _, m := range s.Legal(Tourist) {
		if m.Action == "escalate" {
			climbs = append(climbs, m)
			assert.Len(t, m.Args, 2)
		}
	}
	assert.Len(t, climbs, 24, "six kinds of four words each")
}

func TestARepeatedDetailIsRefused(t *testing.T) {
	s := newGame(t, OptStepDown, "yes")
	play(t, s, "1 seat", "0 escalate tickets flight", "0 deescalate")
	assert.False(t, hasLegal(s, "0 escalate tickets flight"), "a told detail is not offered again")
	assert.Contains(t, refused(t, s, "0 escalate tickets flight"), "already told that detail (tickets flight): a climb needs a new detail")
	play(t, s, "0 escalate tickets train")
	assert.Len(t, s.details, 2, "another detail of the same kind is new")
	// Also after a lost challenge, where climbing is one way to take the loss.
	s = newGame(t)
	play(t, s, "1 seat", "0 escalate money rent")
	challenge(t, s, "closed", 1, 2)
	assert.Contains(t, refused(t, s, "0 escalate money rent"), "already told")
	play(t, s, "0 escalate money savings")
	assert.Equal(t, touching, s.posture)
}

// Seated, she owes the officer an answer to every question.
func TestASeatedTouristCannotRefuseToAnswer(t *testing.T) {
	s := newGame(t)
	play(t, s, "1 seat")
	ev := play(t, s, "1 ask when")
	assert.Equal(t, "{1} (the officer) asks {0} (the tourist) about when it happened. She is sitting: she must answer.", ev[0].Text)
	assert.True(t, hasLegal(s, "0 answer"))
	assert.False(t, hasLegal(s, "0 refuse-answer"))
	assert.Contains(t, refused(t, s, "0 refuse-answer"), "she is sitting: a seated tourist must answer every question")
	v := s.View(game.Table).(View)
	require.NotNil(t, v.Question, "the table shows the question waiting")
	assert.Equal(t, "when", v.Question.Topic)
	assert.False(t, v.MayRefuse)
	ev = play(t, s, "0 answer")
	assert.Equal(t, "answer", ev[0].Type)
	assert.Nil(t, s.View(game.Table).(View).Question)
	assert.Equal(t, 1, s.View(game.Table).(View).Answered)
	assert.Contains(t, refused(t, s, "0 answer"), "no question to reply to")
}

// Standing, she may refuse to answer.
func TestAStandingTouristMayRefuseToAnswer(t *testing.T) {
	s := newGame(t)
	play(t, s, "1 seat", "0 escalate", "1 ask description")
	assert.True(t, hasLegal(s, "0 refuse-answer"))
	assert.True(t, s.View(Tourist).(View).MayRefuse)
	ev := play(t, s, "0 refuse-answer")
	assert.Equal(t, "{0} (the tourist), standing, refuses to say what the thief looked like.", ev[0].Text)
	assert.Equal(t, 1, s.View(game.Table).(View).Refused)
}

// A seated tourist asked a question may climb first, paying with a detail,
// and then refuse.
func TestClimbingWinsTheRightToRefuse(t *testing.T) {
	s := newGame(t)
	play(t, s, "1 seat", "1 ask contact", "0 escalate documents visa", "0 refuse-answer")
	assert.Equal(t, refusedAnswer, s.questions[0].reply)
}

// Touching him, she defers to him: she must answer.
func TestATouchingTouristCannotRefuseToAnswer(t *testing.T) {
	s := newGame(t)
	play(t, s, "1 seat", "0 escalate", "0 escalate", "1 ask where")
	assert.False(t, hasLegal(s, "0 refuse-answer"))
	assert.Contains(t, refused(t, s, "0 refuse-answer"), "she is touching the officer: she must still answer his questions")
	play(t, s, "0 answer")
}

func TestTheOfficerAsksOnlyOnceSheIsSeatedAndOneThingAtATime(t *testing.T) {
	s := newGame(t)
	assert.Contains(t, refused(t, s, "1 ask when"), "ask is only for the talk")
	play(t, s, "1 seat", "1 ask what-was-taken")
	assert.Equal(t, []int{Tourist}, s.Turn(), "he waits for her answer")
	assert.Empty(t, s.Legal(Officer))
	assert.Contains(t, refused(t, s, "1 ask when"), "not the officer's move")
	play(t, s, "0 answer")
	assert.Contains(t, refused(t, s, "1 ask why"), "ask takes one topic: when, where, what-was-taken, description, contact, other")
	assert.Contains(t, refused(t, s, "0 ask when"), "ask is the officer's")
}

// The officer touches her only when she has asked him to, or to arrest
// her.
func TestTheOfficerMayNotTouchHerUnlessSheAsksOrHeArrestsHer(t *testing.T) {
	s := newGame(t)
	play(t, s, "1 seat")
	assert.False(t, hasLegal(s, "1 touch"))
	assert.Contains(t, refused(t, s, "1 touch"), "may not touch her unless she asks him to")
	ev := play(t, s, "0 ask-touch")
	assert.Equal(t, "touch-asked", ev[0].Type)
	assert.True(t, s.View(game.Table).(View).TouchAsked)
	assert.Contains(t, refused(t, s, "0 ask-touch"), "already asked")
	assert.True(t, hasLegal(s, "1 touch"))
	ev = play(t, s, "1 touch")
	assert.Contains(t, ev[0].Text, "as she asked")
	assert.Contains(t, refused(t, s, "1 touch"), "may not touch her", "one touch for each asking")
	// Arresting her is the one touch she need not ask for.
	play(t, s, "0 time", "0 stay")
	assert.Contains(t, refused(t, s, "1 touch"), "arrest move")
	play(t, s, "1 arrest")
	assert.Equal(t, 1, s.View(game.Table).(View).Touches)
}

// Being told to leave ends the talk: a question waiting lapses.
func TestToldToLeaveTheTalkIsOver(t *testing.T) {
	s := newGame(t)
	play(t, s, "1 seat", "0 ask-touch", "1 ask when", "0 time")
	assert.Equal(t, lapsed, s.questions[0].reply)
	assert.False(t, s.touchAsked)
	assert.Contains(t, refused(t, s, "0 answer"), "only for the talk")
}

func TestAnInvitationToSitOrStandBackMayBeAcceptedOrDeclined(t *testing.T) {
	s := newGame(t)
	play(t, s, "1 seat")
	assert.False(t, hasLegal(s, "1 invite sit"))
	assert.Contains(t, refused(t, s, "1 invite sit"), "already sitting")
	assert.Contains(t, refused(t, s, "1 invite stand"), "only to let go of you")
	play(t, s, "0 escalate", "1 invite sit")
	assert.Equal(t, "sit", s.View(game.Table).(View).Invitation)
	assert.Contains(t, refused(t, s, "1 ask when"), "not the officer's move", "one thing at a time")
	ev := play(t, s, "0 decline")
	assert.Contains(t, ev[0].Text, "stays standing")
	play(t, s, "1 invite sit", "0 accept")
	assert.Equal(t, sitting, s.posture, "at his invitation she sits, though step-down=no keeps her from sitting at will")
	play(t, s, "0 escalate", "0 escalate", "1 invite stand", "0 accept")
	assert.Equal(t, standing, s.posture)
	// An invitation that no longer fits lapses: she let go after a loss.
	play(t, s, "0 escalate")
	play(t, s, "1 invite stand")
	challenge(t, s, "open", 1, 2)
	play(t, s, "0 deescalate")
	assert.Equal(t, "", s.View(game.Table).(View).Invitation, "she let go: the invitation lapsed")
	assert.Contains(t, refused(t, s, "0 accept"), "has not invited her")
}

// A win while touching him lets the officer ask something of her in
// return, and she must grant it.
func TestAWinWhileTouchingLetsTheOfficerAskInReturnAndSheMustComply(t *testing.T) {
	s := newGame(t)
	play(t, s, "1 seat", "0 escalate", "0 escalate")
	challenge(t, s, "open", 2, 2)
	play(t, s, "0 demand other")
	assert.ElementsMatch(t, []game.Move{game.M(1, "request", "sit"), game.M(1, "request", "stand"), game.M(1, "request", "other"), game.M(1, "waive"), game.M(1, "time")}, s.Legal(Officer))
	assert.Contains(t, refused(t, s, "1 request leave"), "sending her away is not his to ask")
	ev := play(t, s, "1 request sit")
	assert.Contains(t, ev[0].Text, "asks {0} (the tourist) to sit down: she must comply")
	v := s.View(game.Table).(View)
	assert.Equal(t, "sit", v.Request)
	assert.Equal(t, "comply", v.Phase)
	assert.Equal(t, []int{Tourist}, s.Turn())
	play(t, s, "0 comply")
	assert.Equal(t, sitting, s.posture, "straight down to her seat")
	assert.Equal(t, "talk", phaseNames[s.phase])

	s = newGame(t)
	play(t, s, "1 seat", "0 escalate", "0 escalate")
	challenge(t, s, "open", 2, 2)
	play(t, s, "0 demand other", "1 waive")
	assert.Equal(t, "talk", phaseNames[s.phase])
	assert.Equal(t, touching, s.posture)
	assert.Contains(t, refused(t, s, "1 request sit"), "only after she won a challenge while touching him")

	// No request in return after a win while standing.
	s = newGame(t)
	play(t, s, "1 seat", "0 escalate")
	challenge(t, s, "closed", 2, 2)
	play(t, s, "0 demand other")
	assert.Equal(t, "talk", phaseNames[s.phase])
}

// Refusing what she must grant is disobeying the officer: he may tell her
// to leave, as after a loss while sitting.
func TestRefusingTheRequestInReturnLetsTheOfficerSendHerAway(t *testing.T) {
	s := newGame(t)
	play(t, s, "1 seat", "0 escalate", "0 escalate")
	challenge(t, s, "open", 1, 1)
	play(t, s, "0 demand other", "1 request other")
	ev := play(t, s, "0 refuse-request")
	assert.Equal(t, "request-refused", ev[0].Type)
	assert.Contains(t, ev[0].Text, "she disobeys him")
	assert.Contains(t, ev[0].Text, "may tell her to leave")
	assert.Equal(t, "dismiss", phaseNames[s.phase])
	assert.Equal(t, 1, s.View(game.Table).(View).Breaches)
	play(t, s, "1 dismiss")
	assert.Equal(t, "dismissed", s.View(game.Table).(View).Ordered)
	play(t, s, "0 stay", "1 arrest")
	assert.Equal(t, []int{Officer}, s.Result().Winners)

	// He may let it pass: she stays as she was, touching him.
	s = newGame(t)
	play(t, s, "1 seat", "0 escalate", "0 escalate")
	challenge(t, s, "open", 1, 1)
	play(t, s, "0 demand other", "1 request stand", "0 refuse-request", "1 keep")
	assert.Equal(t, "talk", phaseNames[s.phase])
	assert.Equal(t, touching, s.posture)

	// Once told to leave, a refusal sends her back to going or staying.
	s = newGame(t)
	play(t, s, "1 seat", "0 escalate", "0 escalate", "0 time")
	challenge(t, s, "open", 1, 3)
	play(t, s, "0 demand other", "1 request sit", "0 refuse-request")
	assert.Equal(t, "ordered", phaseNames[s.phase])
	assert.Equal(t, 1, s.breaches)
}

// Every refusal of a talk move says why, in words that tell the player
// what the rules allow instead.
func TestEveryRefusalOfTheTalkExplains(t *testing.T) {
	for _, c := range []struct {
		setup []string
		move  string
		why   string
	}{
		{nil, "0 escalate", "needs a new detail of the theft: escalate KIND WORD"},
		{nil, "0 escalate tickets flight extra", "a detail is a kind and one word"},
		{[]string{"0 escalate tickets flight", "0 escalate tickets train"}, "0 escalate money rent", "no higher posture"},
		{[]string{"1 ask when"}, "0 refuse-answer", "a seated tourist must answer every question"},
		{[]string{"0 escalate", "0 escalate", "1 ask when"}, "0 refuse-answer", "must still answer his questions"},
		{nil, "0 answer", "the officer has not asked one"},
		{nil, "1 touch", "may not touch her unless she asks him to (ask-touch), or to arrest her"},
		{nil, "1 invite stand", "a seated tourist stands up only by adding a detail"},
		{nil, "1 request sit", "only after she won a challenge while touching him"},
		{nil, "0 comply", "only after the officer's request in return"},
		{nil, "0 decline", "has not invited her to sit or stand"},
		{[]string{"0 ask-touch"}, "0 ask-touch", "he has not yet"},
		{nil, "1 ask", "ask takes one topic"},
	} {
		s := newGame(t)
		play(t, s, "1 seat")
		play(t, s, c.setup...)
		why := refused(t, s, c.move)
		assert.Contains(t, why, c.why, "%s after %v", c.move, c.setup)
		assert.Greater(t, len(why), 30, "%q explains", why)
	}
}

func TestTheTalkIsClonedDeeply(t *testing.T) {
	s := newGame(t)
	play(t, s, "1 seat", "0 escalate", "1 ask when")
	c := s.Clone().(*state)
	play(t, c, "0 refuse-answer", "0 escalate")
	assert.Len(t, s.details, 1)
	assert.Equal(t, unanswered, s.questions[0].reply)
	c.details[0].word = "changed"
	assert.NotEqual(t, "changed", s.details[0].word)
}

func TestTheTalkIsAudited(t *testing.T) {
	s := newGame(t)
	play(t, s, "1 seat", "0 escalate tickets flight")
	s.details = append(s.details, s.details[0])
	assert.ErrorContains(t, s.Audit(), "told twice")

	s = newGame(t)
	play(t, s, "1 seat", "1 ask when")
	s.questions[0].reply = refusedAnswer
	assert.ErrorContains(t, s.Audit(), "refused while sitting")

	s = newGame(t)
	play(t, s, "1 seat")
	s.invite = inviteSit
	assert.ErrorContains(t, s.Audit(), "invitation")
}

// She may walk out instead of complying; she still holds the token.
func TestSheMayLeaveInsteadOfComplying(t *testing.T) {
	s := newGame(t)
	play(t, s, "1 seat", "0 escalate", "0 escalate")
	challenge(t, s, "open", 3, 1)
	play(t, s, "0 demand other", "1 request other")
	assert.Equal(t, "something else", s.View(Officer).(View).RequestText)
	play(t, s, "0 leave")
	assert.Equal(t, []int{Officer}, s.Result().Winners)
	assert.Empty(t, s.View(game.Table).(View).Request)
}

// In the talk both may act: she always, he when he has something to say.
func TestInTheTalkBothMayAct(t *testing.T) {
	s := newGame(t)
	play(t, s, "1 seat")
	assert.Equal(t, []int{Tourist, Officer}, s.Turn())
	assert.Contains(t, s.Legal(Officer), game.M(Officer, "ask", "when"))
	assert.Contains(t, s.Legal(Officer), game.M(Officer, "time"), "the referee's clock may act in either name")
	play(t, s, "1 ask where")
	assert.Equal(t, []int{Tourist}, s.Turn(), "he waits for her reply")
	play(t, s, "0 ask-touch")
	assert.Equal(t, []int{Tourist, Officer}, s.Turn(), "he may touch her now")
	assert.Equal(t, []game.Move{game.M(Officer, "touch"), game.M(Officer, "time")}, s.Legal(Officer))
}

// Walk the talk through its states and apply every listed move of both
// seats to a copy: each is accepted and keeps the invariants.
func TestEveryListedMoveOfTheTalkIsAccepted(t *testing.T) {
	lines := []string{"1 seat", "1 ask when", "0 answer", "0 ask-touch", "1 touch", "0 escalate", "1 ask where", "0 refuse-answer",
		"1 invite sit", "0 decline", "0 escalate", "1 invite stand", "0 challenge", "1 okay open", "0 fingers 2", "1 fingers 2",
		"0 demand other", "1 request other", "0 refuse-request", "1 keep", "0 decline", "1 ask contact", "0 answer",
		"0 challenge", "1 okay open", "0 fingers 1", "1 fingers 3", "0 demand other", "1 request sit", "0 comply", "0 time", "0 leave"}
	for _, opts := range [][]string{nil, {OptStepDown, "yes", OptTokenDemand, "yes"}} {
		s := newGame(t, opts...)
		for _, line := range lines {
			for _, seat := range []int{Tourist, Officer} {
				for _, m := range s.Legal(seat) {
					c := s.Clone().(*state)
					_, err := c.Apply(m)
					require.NoError(t, err, "%q in phase %s", m, phaseNames[s.phase])
					require.NoError(t, c.Audit(), "after %q", m)
				}
			}
			play(t, s, line)
		}
		assert.True(t, s.Over())
	}
}
