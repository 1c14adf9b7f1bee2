package pursesnatcher

// View is what one seat (or the table) may know. The tourist never sees
// whether the officer's eyes are open; nobody but the tourist sees her
// raised fingers before the reveal, except the officer when his eyes are
// open.
type View struct {
	Role    string `json:"role"`  // "tourist", "officer" or "table"
	Phase   string `json:"phase"` // opening, talk, okay, tourist-fingers, officer-fingers, demand, dismiss, shift, offer, ordered, arrest, return, comply, over
	Posture string `json:"posture"`
	Token   string `json:"token"` // who holds the token: "tourist" or "officer"
	Minutes int    `json:"minutes"`
	TimeUp  bool   `json:"time_up"`
	// Ordered says why the tourist was told to leave: "", "time" or "dismissed".
	Ordered   string `json:"ordered,omitempty"`
	LastStand bool   `json:"last_stand_used,omitempty"` // her one challenge or offer after being told to leave is spent
	// ToldToLeave is the told-to-leave option: "last-stand" or "last-offer".
	ToldToLeave string      `json:"told_to_leave"`
	TokenDemand bool        `json:"token_demand"` // a won challenge may demand the token
	Offers      int         `json:"offers"`
	Demands     int         `json:"demands"`
	Challenges  []Challenge `json:"challenges,omitempty"` // settled, oldest first
	TouristWon  int         `json:"tourist_won"`
	OfficerWon  int         `json:"officer_won"`
	// TouristFingers is the tourist's raised fingers in the challenge under
	// way: in her own view, and in the officer's when his eyes are open.
	TouristFingers int `json:"tourist_fingers,omitempty"`
	// Eyes is the officer's eyes in the challenge under way ("open" or
	// "closed"): in his view only.
	Eyes    string   `json:"eyes,omitempty"`
	Guide   []string `json:"guide,omitempty"` // what the seat's role demands now
	Outcome string   `json:"outcome,omitempty"`

	// The talk, which everyone hears.
	Details []Detail `json:"details,omitempty"` // told with each climb, oldest first
	// Question is the officer's question waiting for her reply, if any.
	Question *Question `json:"question,omitempty"`
	Asked    int       `json:"asked"`    // questions asked
	Answered int       `json:"answered"` // questions answered
	Refused  int       `json:"refused"`  // questions she refused to answer (standing)
	// MayRefuse says whether she may refuse to answer now (she is standing).
	MayRefuse bool `json:"may_refuse"`
	// Invitation is the officer's invitation waiting for her reply: "sit",
	// "stand" (let go of him) or "".
	Invitation string `json:"invitation,omitempty"`
	TouchAsked bool   `json:"touch_asked,omitempty"` // she asked him to touch her, and he has not yet
	Touches    int    `json:"touches,omitempty"`     // times he touched her, as she asked
	// Request is what the officer asked in return, waiting for her to
	// comply: "sit", "stand" or "other".
	Request     string `json:"request,omitempty"`
	RequestText string `json:"request_text,omitempty"`
	Breaches    int    `json:"breaches,omitempty"` // requests in return she refused
	// Kinds are the kinds of detail, with the words the phone suggests.
	Kinds []Kind `json:"kinds"`
}

// Detail is one detail she told, climbing.
type Detail struct {
	Kind    string `json:"kind"`
	Word    string `json:"word"`
	Text    string `json:"text"`
	Posture string `json:"posture"` // the posture she climbed to
}

// Question is a question waiting for her reply.
type Question struct {
	Topic string `json:"topic"`
	Text  string `json:"text"` // "when it happened"
}

// Kind is a kind of detail.
type Kind struct {
	Name  string   `json:"name"`
	Text  string   `json:"text"`
	Words []string `json:"words"`
}

// Challenge is a settled challenge, as everyone saw it at the reveal.
type Challenge struct {
	Posture string `json:"posture"`
	Tourist int    `json:"tourist"`
	Officer int    `json:"officer"`
	Total   int    `json:"total"`
	Winner  string `json:"winner"` // "tourist" or "officer"
}

var roleNames = [...]string{"tourist", "officer"}

var touristGuide = [...]string{
	"Sitting: do what the officer asks, answer every question as well as you can, and stay polite.",
	"Standing: you may press and make demands, refuse to answer, and drop the politeness; still follow his instructions.",
	"Touching: keep a hand on his shoulder or arm; only make requests, never demands; defer to him, answer and obey.",
}

var officerEyes = [...]string{
	"She is sitting: in a challenge you may keep your eyes open or close them.",
	"She is standing: in a challenge you must close your eyes.",
	"She is touching you: in a challenge you must keep your eyes open.",
}

// View is seat's view (game.Table or any other number: the public one).
func (s *state) View(seat int) any {
	v := View{
		Role:        "table",
		Phase:       phaseNames[s.phase],
		Posture:     s.posture.String(),
		Token:       roleNames[s.tokenHolder()],
		Minutes:     s.minutes,
		TimeUp:      s.timeUp,
		LastStand:   s.lastStand,
		ToldToLeave: LastOffer,
		TokenDemand: s.tokenDemand,
		Offers:      s.offers,
		Demands:     s.demands,
	}
	if s.standLast {
		v.ToldToLeave = LastStand
	}
	switch s.ordered {
	case byTime:
		v.Ordered = "time"
	case byDismissal:
		v.Ordered = "dismissed"
	}
	if len(s.history) > 0 {
		v.Challenges = make([]Challenge, len(s.history))
		for i, r := range s.history {
			c := Challenge{Posture: r.posture.String(), Tourist: int(r.tourist), Officer: int(r.officer), Total: int(r.tourist + r.officer), Winner: "officer"}
			if r.touristWon() {
				c.Winner = "tourist"
				v.TouristWon++
			} else {
				v.OfficerWon++
			}
			v.Challenges[i] = c
		}
	}
	if s.phase == pOver {
		v.Outcome = s.Result().Text
	}
	s.viewTalk(&v)
	inChallenge := s.phase == pPickT || s.phase == pPickO
	switch seat {
	case Tourist:
		v.Role = roleNames[Tourist]
		v.TouristFingers = int(s.tFingers)
		if s.phase != pOver {
			v.Guide = []string{touristGuide[s.posture]}
			if _, q := s.pendingQuestion(); q && s.phase == pTalk {
				if mayRefuse(s.posture) {
					v.Guide = append(v.Guide, "The officer asked you a question: standing, you may answer or refuse.")
				} else {
					v.Guide = append(v.Guide, "The officer asked you a question: "+s.posture.String()+", you must answer it.")
				}
			}
			if s.phase == pComply {
				v.Guide = append(v.Guide, "You won while touching him: you must do what he asks in return. Refusing is disobeying him, and he may then tell you to leave.")
			}
			if s.canUp() && (s.phase == pTalk || s.phase == pShift) {
				v.Guide = append(v.Guide, "To climb a posture, add a new detail of the theft: pick a kind, then a word.")
			}
		}
	case Officer:
		v.Role = roleNames[Officer]
		if inChallenge {
			v.Eyes = "closed"
			if s.eyesOpen {
				v.Eyes = "open"
				v.TouristFingers = int(s.tFingers)
			}
		}
		if s.phase != pOver {
			v.Guide = []string{officerEyes[s.posture], "Never take the token into your hand, and never touch her unless she asks or you arrest her."}
			if s.phase == pReturn {
				v.Guide = append(v.Guide, "She won while touching you: you may ask anything of her in return (sit, let go, or something else), and she must comply.")
			}
		}
	}
	return v
}

// viewTalk fills in the talk, which is public.
func (s *state) viewTalk(v *View) {
	for _, d := range s.details {
		v.Details = append(v.Details, Detail{Kind: detailKinds[d.kind].name, Word: d.word, Text: d.text(), Posture: d.to.String()})
	}
	v.Asked = len(s.questions)
	for _, q := range s.questions {
		switch q.reply {
		case answered:
			v.Answered++
		case refusedAnswer:
			v.Refused++
		}
	}
	if i, ok := s.pendingQuestion(); ok {
		t := topics[s.questions[i].topic]
		v.Question = &Question{Topic: t.name, Text: t.text}
	}
	v.MayRefuse = mayRefuse(s.posture)
	v.Invitation = inviteNames[s.invite]
	v.TouchAsked = s.touchAsked
	v.Touches = s.touches
	v.Request = requestNames[s.request]
	v.RequestText = requestText[s.request]
	v.Breaches = s.breaches
	v.Kinds = make([]Kind, len(detailKinds))
	for i, k := range detailKinds {
		v.Kinds[i] = Kind{Name: k.name, Text: k.text, Words: k.words}
	}
}
