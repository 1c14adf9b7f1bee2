package pursesnatcher

import (
	"errors"
	"fmt"
	"strings"

	"github.com/tableref/tableref/rules/game"
)

// The talk: the details the tourist adds when she climbs, the officer's
// questions and invitations, her asking to be touched, and the request in
// return after a win while touching. The words are spoken at the table; the
// engine keeps what the rules constrain (see the package comment).

// A detail of the theft, given with each climb: a kind and a short word.
type detail struct {
	kind uint8 // index in detailKinds
	word string
	to   posture // the posture she climbed to
}

// detailKinds are the kinds of detail a phone offers, each with the words
// it suggests (any other short word is accepted too).
var detailKinds = [...]struct {
	name, text string
	words      []string
}{
	{"sentimental", "something of great sentimental value was in the purse", []string{"photo", "ring", "letter", "heirloom"}},
	{"tickets", "her tickets home were in the purse", []string{"flight", "train", "ferry", "tomorrow"}},
	{"injury", "the thief hurt her as he grabbed it", []string{"pushed", "bruised", "cut", "threatened"}},
	{"documents", "more of her papers were in the purse", []string{"visa", "licence", "bank-cards", "address-book"}},
	{"money", "the money meant more than it seems", []string{"savings", "borrowed", "rent", "gift"}},
	{"other", "something else was in the purse", []string{"keys", "phone", "medicine", "camera"}},
}

func kindIndex(name string) int {
	for i, k := range detailKinds {
		if k.name == name {
			return i
		}
	}
	return -1
}

func kindNames() string {
	var n []string
	for _, k := range detailKinds {
		n = append(n, k.name)
	}
	return strings.Join(n, ", ")
}

// errNotTalk: the action is not one of the talk's.
var errNotTalk = errors.New("not a move of the talk")

// maxWord is the longest word a detail may have.
const maxWord = 24

// wordOK reports whether w is a short word: lower-case letters, digits and
// inner hyphens.
func wordOK(w string) bool {
	if w == "" || len(w) > maxWord || w[0] == '-' || w[len(w)-1] == '-' {
		return false
	}
	for _, c := range w {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

func (d detail) String() string { return detailKinds[d.kind].name + " " + d.word }

// text is the detail as announced: "her tickets home were in the purse (flight)".
func (d detail) text() string {
	return detailKinds[d.kind].text + " (" + strings.ReplaceAll(d.word, "-", " ") + ")"
}

func (s *state) told(kind int, word string) bool {
	for _, d := range s.details {
		if int(d.kind) == kind && d.word == word {
			return true
		}
	}
	return false
}

// climbs lists the escalate moves with the suggested details not told yet.
func (s *state) climbs(seat int) []game.Move {
	var ms []game.Move
	for k, kind := range detailKinds {
		for _, w := range kind.words {
			if !s.told(k, w) {
				ms = append(ms, game.M(seat, "escalate", kind.name, w))
			}
		}
	}
	return ms
}

// readDetail reads escalate's arguments, or says why they are no new detail.
func (s *state) readDetail(m game.Move) (detail, error) {
	how := fmt.Sprintf("escalate KIND WORD, the KIND one of %s, and WORD a short word of your own or one the phone suggests (like: escalate tickets flight)", kindNames())
	if len(m.Args) == 0 {
		return detail{}, game.Refuse(m, "a climb needs a new detail of the theft: %s", how)
	}
	if len(m.Args) != 2 {
		return detail{}, game.Refuse(m, "a detail is a kind and one word: %s", how)
	}
	k := kindIndex(m.Args[0])
	if k < 0 {
		return detail{}, game.Refuse(m, "%q is not a kind of detail: the kinds are %s", m.Args[0], kindNames())
	}
	if !wordOK(m.Args[1]) {
		return detail{}, game.Refuse(m, "%q is not a short word: up to %d lower-case letters, digits or hyphens, like bank-cards", m.Args[1], maxWord)
	}
	if s.told(k, m.Args[1]) {
		return detail{}, game.Refuse(m, "she has already told that detail (%s %s): a climb needs a new detail that makes the theft graver", m.Args[0], m.Args[1])
	}
	return detail{kind: uint8(k), word: m.Args[1]}, nil
}

// Questions the officer asks, by topic.
var topics = [...]struct{ name, text string }{
	{"when", "when it happened"},
	{"where", "where it happened"},
	{"what-was-taken", "what was in the purse"},
	{"description", "what the thief looked like"},
	{"contact", "where she can be reached"},
	{"other", "something else"},
}

func topicIndex(name string) int {
	for i, t := range topics {
		if t.name == name {
			return i
		}
	}
	return -1
}

func topicNames() string {
	var n []string
	for _, t := range topics {
		n = append(n, t.name)
	}
	return strings.Join(n, ", ")
}

type reply uint8

const (
	unanswered reply = iota // still waiting for her reply
	answered
	refusedAnswer
	lapsed // the meeting ended before she replied
)

var replyNames = [...]string{"pending", "answered", "refused", "lapsed"}

// question is one the officer asked.
type question struct {
	topic   uint8
	reply   reply
	posture posture // her posture when she replied
}

// mayRefuse reports whether a tourist in posture p may refuse to answer.
func mayRefuse(p posture) bool { return p == standing }

// pendingQuestion is the question waiting for her reply, if any.
func (s *state) pendingQuestion() (int, bool) {
	if n := len(s.questions); n > 0 && s.questions[n-1].reply == unanswered {
		return n - 1, true
	}
	return 0, false
}

// Invitations: the officer asks her to sit, or to stand back.
type invite uint8

const (
	noInvite invite = iota
	inviteSit
	inviteStand
)

var inviteNames = [...]string{"", "sit", "stand"}

// The request in return after a win while touching.
type request uint8

const (
	noRequest request = iota
	requestSit
	requestStand
	requestOther
)

var requestNames = [...]string{"", "sit", "stand", "other"}

var requestText = [...]string{"", "to sit down", "to let go of him and stand back", "something else"}

// returned is one request in return and whether she complied.
type returned struct {
	what     request
	complied bool
}

// officerTalks lists the officer's moves in the talk: a question or an
// invitation when nothing he asked is waiting for her reply, and a touch
// when she has asked for one.
func (s *state) officerTalks() []game.Move {
	var ms []game.Move
	if _, q := s.pendingQuestion(); !q && s.invite == noInvite {
		for _, t := range topics {
			ms = append(ms, game.M(Officer, "ask", t.name))
		}
		if s.posture != sitting {
			ms = append(ms, game.M(Officer, "invite", "sit"))
		}
		if s.posture == touching {
			ms = append(ms, game.M(Officer, "invite", "stand"))
		}
	}
	if s.touchAsked {
		ms = append(ms, game.M(Officer, "touch"))
	}
	return ms
}

// touristReplies lists the tourist's replies owed in the talk.
func (s *state) touristReplies() []game.Move {
	var ms []game.Move
	if _, q := s.pendingQuestion(); q {
		ms = append(ms, game.M(Tourist, "answer"))
		if mayRefuse(s.posture) {
			ms = append(ms, game.M(Tourist, "refuse-answer"))
		}
	}
	if s.invite != noInvite {
		ms = append(ms, game.M(Tourist, "accept"), game.M(Tourist, "decline"))
	}
	return ms
}

// setPosture moves her; an invitation that no longer fits lapses.
func (s *state) setPosture(p posture) {
	s.posture = p
	if s.invite == inviteSit && p == sitting || s.invite == inviteStand && p != touching {
		s.invite = noInvite
	}
}

// endTalk closes the talk when she is told to leave: what waits for her
// reply lapses, and so does her asking to be touched.
func (s *state) endTalk() {
	if i, ok := s.pendingQuestion(); ok {
		s.questions[i].reply = lapsed
	}
	s.invite = noInvite
	s.touchAsked = false
}

// refusalWhy says why a tourist in posture p must answer.
func refusalWhy(p posture) string {
	if p == touching {
		return "she is touching the officer: she must still answer his questions (let go first, after a lost challenge or at his invitation, to win that right back)"
	}
	return "she is sitting: a seated tourist must answer every question as well as she can (stand up with a new detail to win the right to refuse)"
}

// talk applies the moves of the conversation, or returns errNotTalk for an
// action that is none of them.
func (s *state) talk(m game.Move) ([]game.Event, error) {
	noArgs := func() error {
		if len(m.Args) != 0 {
			return game.Refuse(m, "%s takes no arguments", m.Action)
		}
		return nil
	}
	notTalk := func() error {
		return game.Refuse(m, "%s is only for the talk, not now: %s", m.Action, expect[s.phase])
	}
	switch m.Action {
	case "ask":
		if s.phase != pTalk {
			return nil, notTalk()
		}
		if len(m.Args) != 1 || topicIndex(m.Args[0]) < 0 {
			return nil, game.Refuse(m, "ask takes one topic: %s", topicNames())
		}
		if _, q := s.pendingQuestion(); q {
			return nil, game.Refuse(m, "she has not replied to your last question yet: one question at a time")
		}
		if s.invite != noInvite {
			return nil, game.Refuse(m, "she has not replied to your invitation yet: one thing at a time")
		}
		t := topicIndex(m.Args[0])
		s.questions = append(s.questions, question{topic: uint8(t)})
		text := fmt.Sprintf("%s asks %s about %s.", who(Officer), who(Tourist), topics[t].text)
		if mayRefuse(s.posture) {
			text += " She is standing: she may refuse to answer."
		} else {
			text += " She is " + s.posture.String() + ": she must answer."
		}
		return []game.Event{{Type: "question", Text: text}}, nil

	case "answer", "refuse-answer":
		if s.phase != pTalk {
			return nil, notTalk()
		}
		if err := noArgs(); err != nil {
			return nil, err
		}
		i, q := s.pendingQuestion()
		if !q {
			return nil, game.Refuse(m, "there is no question to reply to: the officer has not asked one")
		}
		topic := topics[s.questions[i].topic].text
		if m.Action == "answer" {
			s.questions[i].reply, s.questions[i].posture = answered, s.posture
			return []game.Event{{Type: "answer", Text: fmt.Sprintf("%s answers about %s.", who(Tourist), topic)}}, nil
		}
		if !mayRefuse(s.posture) {
			return nil, game.Refuse(m, "%s", refusalWhy(s.posture))
		}
		s.questions[i].reply, s.questions[i].posture = refusedAnswer, s.posture
		return []game.Event{{Type: "answer-refused", Text: fmt.Sprintf("%s, standing, refuses to say %s.", who(Tourist), topic)}}, nil

	case "invite":
		if s.phase != pTalk {
			return nil, notTalk()
		}
		if len(m.Args) != 1 || m.Args[0] != "sit" && m.Args[0] != "stand" {
			return nil, game.Refuse(m, "invite takes sit or stand")
		}
		if _, q := s.pendingQuestion(); q {
			return nil, game.Refuse(m, "she has not replied to your question yet: one thing at a time")
		}
		if s.invite != noInvite {
			return nil, game.Refuse(m, "she has not replied to your last invitation yet")
		}
		var text string
		switch {
		case m.Args[0] == "sit" && s.posture == sitting:
			return nil, game.Refuse(m, "she is already sitting")
		case m.Args[0] == "sit":
			s.invite = inviteSit
			text = who(Officer) + " invites " + who(Tourist) + " to sit down. She may accept or decline."
		case s.posture != touching:
			return nil, game.Refuse(m, "you may invite her to stand only to let go of you, when she is touching you: a seated tourist stands up only by adding a detail")
		default:
			s.invite = inviteStand
			text = who(Officer) + " invites " + who(Tourist) + " to let go of him and stand back. She may accept or decline."
		}
		return []game.Event{{Type: "invite", Text: text}}, nil

	case "accept", "decline":
		if s.phase != pTalk {
			return nil, notTalk()
		}
		if err := noArgs(); err != nil {
			return nil, err
		}
		if s.invite == noInvite {
			return nil, game.Refuse(m, "the officer has not invited her to sit or stand")
		}
		inv := s.invite
		s.invite = noInvite
		if m.Action == "decline" {
			return []game.Event{{Type: "invite-declined", Text: who(Tourist) + " declines the invitation and stays " + s.posture.String() + "."}}, nil
		}
		if inv == inviteSit {
			s.setPosture(sitting)
			return []game.Event{{Type: "invite-accepted", Text: who(Tourist) + " accepts and sits down."}}, nil
		}
		s.setPosture(standing)
		return []game.Event{{Type: "invite-accepted", Text: who(Tourist) + " accepts, lets go of the officer and stands back."}}, nil

	case "ask-touch":
		if s.phase != pTalk {
			return nil, notTalk()
		}
		if err := noArgs(); err != nil {
			return nil, err
		}
		if s.touchAsked {
			return nil, game.Refuse(m, "she has already asked him to touch her, and he has not yet")
		}
		s.touchAsked = true
		return []game.Event{{Type: "touch-asked", Text: who(Tourist) + " asks " + who(Officer) + " to touch her (a hand on her arm or shoulder): he may, once."}}, nil

	case "touch":
		if err := noArgs(); err != nil {
			return nil, err
		}
		if s.phase == pArrest {
			return nil, game.Refuse(m, "to arrest her, touch her shoulder with the arrest move")
		}
		if !s.touchAsked || s.phase != pTalk {
			return nil, game.Refuse(m, "the officer may not touch her unless she asks him to (ask-touch), or to arrest her when she refuses to leave")
		}
		s.touchAsked = false
		s.touches++
		return []game.Event{{Type: "touch", Text: who(Officer) + " touches " + who(Tourist) + " on the arm, as she asked."}}, nil

	case "request", "waive":
		if s.phase != pReturn {
			return nil, game.Refuse(m, "%s is only after she won a challenge while touching him and named her demand, not now: %s", m.Action, expect[s.phase])
		}
		if m.Action == "waive" {
			if err := noArgs(); err != nil {
				return nil, err
			}
			return []game.Event{{Type: "request-waived", Text: who(Officer) + " asks nothing of her in return."}, s.back()}, nil
		}
		r := noRequest
		if len(m.Args) == 1 {
			for i, n := range requestNames {
				if i > 0 && n == m.Args[0] {
					r = request(i)
				}
			}
		}
		if r == noRequest {
			return nil, game.Refuse(m, "request takes sit, stand or other (sending her away is not his to ask: only a loss while sitting or the time does that)")
		}
		if r == requestStand && s.posture != touching {
			return nil, game.Refuse(m, "she is not touching you: there is nothing to let go of")
		}
		if r == requestSit && s.posture == sitting {
			return nil, game.Refuse(m, "she is already sitting")
		}
		s.request = r
		s.phase = pComply
		return []game.Event{{Type: "request", Text: fmt.Sprintf("In return, %s asks %s %s: she must comply.", who(Officer), who(Tourist), requestText[r])}}, nil

	case "comply", "refuse-request":
		if s.phase != pComply {
			return nil, game.Refuse(m, "%s is only after the officer's request in return, not now: %s", m.Action, expect[s.phase])
		}
		if err := noArgs(); err != nil {
			return nil, err
		}
		r := s.request
		s.request = noRequest
		if m.Action == "comply" {
			s.returns = append(s.returns, returned{what: r, complied: true})
			text := who(Tourist) + " does as he asks."
			switch r {
			case requestSit:
				s.setPosture(sitting)
				text = who(Tourist) + " complies and sits down."
			case requestStand:
				s.setPosture(standing)
				text = who(Tourist) + " complies, lets go and stands back."
			}
			return []game.Event{{Type: "complied", Text: text}, s.back()}, nil
		}
		s.returns = append(s.returns, returned{what: r})
		s.breaches++
		ev := game.Event{Type: "request-refused", Text: who(Tourist) + " refuses what the officer asked in return, which she had to grant: she disobeys him."}
		if s.ordered != notOrdered {
			ev.Text += " She has already been told to leave."
			return []game.Event{ev, s.back()}, nil
		}
		ev.Text += " " + who(Officer) + " may tell her to leave."
		s.phase = pDismiss
		s.dismissBreach = true
		return []game.Event{ev}, nil
	}
	return nil, errNotTalk
}

// auditTalk checks the talk's invariants.
func (s *state) auditTalk() error {
	for i, d := range s.details {
		if int(d.kind) >= len(detailKinds) || !wordOK(d.word) || d.to == sitting || d.to > touching {
			return fmt.Errorf("detail %d is %d %q to %s", i+1, d.kind, d.word, d.to)
		}
		for _, e := range s.details[:i] {
			if e.kind == d.kind && e.word == d.word {
				return fmt.Errorf("detail %s told twice", d)
			}
		}
	}
	for i, q := range s.questions {
		if int(q.topic) >= len(topics) || q.reply > lapsed || q.posture > touching {
			return fmt.Errorf("question %d: topic %d, reply %d", i+1, q.topic, q.reply)
		}
		if q.reply == unanswered && i != len(s.questions)-1 {
			return fmt.Errorf("question %d still waits, but a later one was asked", i+1)
		}
		if q.reply == refusedAnswer && !mayRefuse(q.posture) {
			return fmt.Errorf("question %d refused while %s", i+1, q.posture)
		}
	}
	_, q := s.pendingQuestion()
	talking := s.phase != pOpen && s.ordered == notOrdered && s.phase != pOver
	if (q || s.invite != noInvite || s.touchAsked) && !talking && s.phase != pOver {
		return fmt.Errorf("in phase %s (told to leave: %v) a question %v, an invitation %d or a touch asked %v still waits", phaseNames[s.phase], s.ordered != notOrdered, q, s.invite, s.touchAsked)
	}
	if q && s.invite != noInvite {
		return fmt.Errorf("a question and an invitation wait at once")
	}
	if s.invite > inviteStand || s.invite == inviteSit && s.posture == sitting || s.invite == inviteStand && s.posture != touching {
		return fmt.Errorf("invitation %d while she is %s", s.invite, s.posture)
	}
	if (s.request != noRequest) != (s.phase == pComply) || s.request > requestOther {
		return fmt.Errorf("request %d in phase %s", s.request, phaseNames[s.phase])
	}
	refused := 0
	for _, r := range s.returns {
		if r.what == noRequest || r.what > requestOther {
			return fmt.Errorf("a request in return of %d", r.what)
		}
		if !r.complied {
			refused++
		}
	}
	if refused != s.breaches || s.touches < 0 || len(s.returns)+btoi(s.phase == pComply) > s.demands {
		return fmt.Errorf("%d refused requests, %d breaches, %d requests for %d demands", refused, s.breaches, len(s.returns), s.demands)
	}
	return nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
