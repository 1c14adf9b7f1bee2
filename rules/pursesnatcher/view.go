package pursesnatcher

// View is what one seat (or the table) may know. The tourist never sees
// whether the officer's eyes are open; nobody but the tourist sees her
// raised fingers before the reveal, except the officer when his eyes are
// open.
type View struct {
	Role    string `json:"role"`  // "tourist", "officer" or "table"
	Phase   string `json:"phase"` // opening, talk, okay, tourist-fingers, officer-fingers, demand, dismiss, shift, offer, ordered, arrest, over
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
	inChallenge := s.phase == pPickT || s.phase == pPickO
	switch seat {
	case Tourist:
		v.Role = roleNames[Tourist]
		v.TouristFingers = int(s.tFingers)
		if s.phase != pOver {
			v.Guide = []string{touristGuide[s.posture]}
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
		}
	}
	return v
}
