package pursesnatcher

import (
	"fmt"
	"slices"
	"time"

	"github.com/tableref/tableref/rules/game"
)

// The two seats.
const (
	Tourist = 0 // plays the tourist whose purse was stolen
	Officer = 1 // plays the police officer at the station
)

// Option names and their values.
const (
	OptMinutes     = "minutes"       // a whole number: when the officer must end the meeting
	OptTokenDemand = "token-demand"  // yes/no: may a won challenge demand that the officer take the token?
	OptSittingLoss = "sitting-loss"  // rise/stay: a tourist who loses sitting and is not sent away
	OptStepDown    = "step-down"     // no/yes: may the tourist lower her posture at will?
	OptToldToLeave = "told-to-leave" // last-stand/last-offer: what she may still do once told to leave
	LastStand      = "last-stand"    // one last challenge or one last offer
	LastOffer      = "last-offer"    // one last offer, no challenge
)

// Game is Purse Snatcher.
var Game game.Game = gameImpl{}

type gameImpl struct{}

func (gameImpl) Info() game.Info {
	return game.Info{
		ID:         "pursesnatcher",
		Name:       "Purse Snatcher",
		Summary:    "A robbed tourist pushes a busy police officer for help, and tries to hand over a token of blame before being shown out.",
		MinPlayers: 2,
		MaxPlayers: 2,
		Options: []game.Option{
			{Name: OptMinutes, Label: "Length of the meeting, in minutes", Text: "Minutes after which the officer must end the meeting; the referee's clock reads this and applies the move \"time\".", Default: "15", Min: 1, Max: 120},
			{Name: OptTokenDemand, Label: "Demanding that he take the token", Text: "no: the token can never be demanded, only offered (the officer's rules forbid him to take it); yes: the tourist may spend a won challenge on making the officer take the token (and lose).", Default: "no", Values: []string{"no", "yes"},
				ValueText: map[string]string{"no": "Never, only offered", "yes": "After a won challenge"}},
			{Name: OptSittingLoss, Label: "A seated tourist who loses", Text: "rise: a tourist who loses while sitting and is not sent away must stand up, adding a detail; stay: she stays seated.", Default: "rise", Values: []string{"rise", "stay"},
				ValueText: map[string]string{"rise": "Stands up, adding a detail", "stay": "Stays seated"}},
			{Name: OptStepDown, Label: "Lowering her posture", Text: "no: the tourist lowers her posture only after a lost challenge; yes: she may also step down at will.", Default: "no", Values: []string{"no", "yes"},
				ValueText: map[string]string{"no": "After a lost challenge", "yes": "Whenever she likes"}},
			{Name: OptToldToLeave, Label: "Once she is told to leave", Text: "last-stand: once told to leave, the tourist may still make one last challenge or one last offer of the token before she goes (or refuses and is arrested); last-offer: only one last offer, no challenge.", Default: LastStand, Values: []string{LastStand, LastOffer},
				ValueText: map[string]string{LastStand: "A last challenge or offer", LastOffer: "A last offer only"}},
		},
		RefereeActions: []string{"time"},
		Roles:          []string{"tourist", "officer"},
		// The meeting's clock: when it runs out the referee applies "time".
		Page:   page,
		Clocks: []game.Clock{{Name: "meeting", Option: OptMinutes, Unit: time.Minute, Action: "time"}},
		Spoken: map[string]string{
			"challenge-won": game.SayAll, "challenge-lost": game.SayAll, "arrested": game.SayAll,
			"token-taken": game.SayAll, "time": game.SayAll, "left": game.SayAll,
			"ordered": game.SayAll, // told to leave (the meeting's time is up, or the officer says so)
			"kept":    game.SayAll, // the officer lets her stay
			// she refused what he asked in return after her win while touching
			"request-refused": game.SayAll,
		},
		Sounds: map[string]string{"time": game.SoundAlarm},
	}
}

func (g gameImpl) New(cfg game.Config) (game.State, error) {
	_, opts, err := g.Info().Resolve(cfg)
	if err != nil {
		return nil, err
	}
	return &state{
		minutes:     game.Int(opts[OptMinutes]),
		tokenDemand: game.Bool(opts[OptTokenDemand]),
		sitRise:     opts[OptSittingLoss] == "rise",
		stepDown:    game.Bool(opts[OptStepDown]),
		standLast:   opts[OptToldToLeave] == LastStand,
		phase:       pOpen,
		posture:     standing,
	}, nil
}

func (gameImpl) Bot() game.Bot { return bot{} }

type posture uint8

const (
	sitting posture = iota
	standing
	touching
)

var postureNames = [...]string{"sitting", "standing", "touching"}

func (p posture) String() string { return postureNames[p] }

type phase uint8

const (
	pOpen    phase = iota // the tourist has walked in; the officer must ask her to sit
	pTalk                 // the meeting runs; the tourist may act
	pOkay                 // the tourist challenged; the officer says okay (eyes open or closed)
	pPickT                // the tourist raises her fingers
	pPickO                // the officer raises his fingers
	pDemand               // the tourist won: she names her demand
	pDismiss              // she lost sitting: the officer may send her away
	pShift                // she lost: she must change posture
	pOffer                // she holds out the token: the officer takes it or not
	pOrdered              // she has been told to leave
	pArrest               // she refused to leave: the officer arrests her
	pReturn               // she won touching and named her demand: the officer may ask something in return
	pComply               // the officer asked something in return: she complies or refuses
	pOver
)

var phaseNames = [...]string{"opening", "talk", "okay", "tourist-fingers", "officer-fingers", "demand", "dismiss", "shift", "offer", "ordered", "arrest", "return", "comply", "over"}

// expect says what the game waits for in each phase, for refusals.
var expect = [...]string{
	"the officer must first ask the tourist to sit down (seat)",
	"the meeting is under way (the tourist: challenge, escalate, offer, leave, or reply to the officer; the officer: ask, invite, touch when asked)",
	"the officer must answer the challenge (okay open or okay closed)",
	"the tourist must raise her fingers (fingers 1-4)",
	"the officer must raise his fingers (fingers 1-4)",
	"the tourist won the challenge and must name her demand (demand token or demand other)",
	"the officer decides whether to send the tourist away (dismiss or keep)",
	"the tourist lost the challenge and must change posture (escalate or deescalate)",
	"the officer must take or refuse the token",
	"the tourist has been told to leave (leave or stay, or one last challenge or offer)",
	"the tourist refused to leave: the officer must arrest her",
	"the tourist won while touching the officer: he may ask something of her in return (request sit, stand or other, or waive)",
	"the officer asked something in return: the tourist must comply (comply or refuse-request)",
	"the game is over",
}

type ending uint8

const (
	notOver ending = iota
	endTaken
	endDemanded
	endLeft
	endArrested
)

type orderReason uint8

const (
	notOrdered orderReason = iota
	byTime
	byDismissal
)

// record is one settled challenge.
type record struct {
	posture  posture
	tourist  int8
	officer  int8
	eyesOpen bool // the officer's secret: never shown to the tourist or the table
}

func (r record) touristWon() bool { return (r.tourist+r.officer)%2 == 0 }

type state struct {
	// options
	minutes     int
	tokenDemand bool
	sitRise     bool
	stepDown    bool
	standLast   bool // told-to-leave=last-stand: a last challenge is allowed too

	phase     phase
	posture   posture
	eyesOpen  bool // the officer's eyes in the challenge under way
	tFingers  int8 // the tourist's raised fingers in the challenge under way, 0 before
	timeUp    bool // the referee has called time
	ordered   orderReason
	offerFrom phase // where a refused offer returns to
	lastStand bool  // the one challenge or offer allowed after being told to leave is used
	offers    int
	demands   int
	history   []record
	end       ending

	// the talk (talk.go)
	details       []detail   // one per climb, in order
	questions     []question // asked, oldest first; only the last may be unanswered
	invite        invite     // an invitation waiting for her reply
	touchAsked    bool       // she asked him to touch her, and he has not yet
	touches       int        // times he touched her, as she asked
	request       request    // in pComply: what he asked in return
	returns       []returned // requests in return, and whether she complied
	breaches      int        // requests in return she refused
	dismissBreach bool       // in pDismiss: after a refused request, not a loss while sitting
}

func (s *state) actor() int {
	switch s.phase {
	case pOpen, pOkay, pPickO, pDismiss, pOffer, pArrest, pReturn:
		return Officer
	}
	return Tourist
}

// Turn is the one seat in turn, or in the talk the tourist and, when he
// has something to say (a question, an invitation, a touch she asked
// for), the officer too.
func (s *state) Turn() []int {
	if s.phase == pOver {
		return nil
	}
	if s.phase == pTalk && len(s.officerTalks()) > 0 {
		return []int{Tourist, Officer}
	}
	return []int{s.actor()}
}

func (s *state) inTurn(seat int) bool { return slices.Contains(s.Turn(), seat) }

// owners are the actions of one role only (fingers and time are both's).
var owners = map[string]int{
	"seat": Officer, "okay": Officer, "take": Officer, "refuse": Officer, "dismiss": Officer, "keep": Officer, "arrest": Officer,
	"ask": Officer, "invite": Officer, "touch": Officer, "request": Officer, "waive": Officer,
	"challenge": Tourist, "demand": Tourist, "escalate": Tourist, "deescalate": Tourist, "offer": Tourist, "leave": Tourist, "stay": Tourist,
	"answer": Tourist, "refuse-answer": Tourist, "accept": Tourist, "decline": Tourist, "ask-touch": Tourist, "comply": Tourist, "refuse-request": Tourist,
}

func (s *state) Over() bool { return s.phase == pOver }

// canTime reports whether the referee's "time" move is accepted now.
func (s *state) canTime() bool {
	return !s.timeUp && s.ordered == notOrdered && s.phase != pOver
}

func (s *state) canUp() bool { return s.posture < touching }

func (s *state) canDown(shift bool) bool { return s.posture > sitting && (shift || s.stepDown) }

func (s *state) Legal(seat int) []game.Move {
	if s.phase == pOver || !s.inTurn(seat) {
		return nil
	}
	var ms []game.Move
	add := func(action string, args ...string) { ms = append(ms, game.M(seat, action, args...)) }
	switch s.phase {
	case pOpen:
		add("seat")
	case pTalk:
		if seat == Officer {
			ms = append(ms, s.officerTalks()...)
			break
		}
		ms = append(ms, s.touristReplies()...)
		add("challenge")
		if s.canUp() {
			ms = append(ms, s.climbs(seat)...)
		}
		if s.canDown(false) {
			add("deescalate")
		}
		add("offer")
		if !s.touchAsked {
			add("ask-touch")
		}
		add("leave")
	case pOkay:
		if s.posture != touching {
			add("okay", "closed")
		}
		if s.posture != standing {
			add("okay", "open")
		}
	case pPickT, pPickO:
		for _, f := range fingerWords {
			add("fingers", f)
		}
	case pDemand:
		if s.tokenDemand {
			add("demand", "token")
		}
		add("demand", "other")
		add("leave")
	case pDismiss:
		add("dismiss")
		add("keep")
	case pShift:
		if s.canUp() {
			ms = append(ms, s.climbs(seat)...)
		}
		if s.canDown(true) {
			add("deescalate")
		}
		add("leave")
	case pOffer:
		add("take")
		add("refuse")
	case pOrdered:
		add("leave")
		add("stay")
		if !s.lastStand {
			if s.standLast {
				add("challenge")
			}
			add("offer")
		}
	case pArrest:
		add("arrest")
	case pReturn:
		add("request", "sit")
		if s.posture == touching {
			add("request", "stand")
		}
		add("request", "other")
		add("waive")
	case pComply:
		add("comply")
		add("refuse-request")
		add("leave")
	}
	if s.canTime() {
		add("time")
	}
	return ms
}

var fingerWords = [...]string{"1", "2", "3", "4"}

// actions lists every action, for the refusal of an unknown one.
const actions = "seat, time, challenge, okay, fingers, demand, escalate, deescalate, offer, take, refuse, dismiss, keep, leave, stay, arrest, ask, answer, refuse-answer, invite, accept, decline, ask-touch, touch, request, waive, comply, refuse-request"

func role(seat int) string {
	if seat == Tourist {
		return "the tourist"
	}
	return "the officer"
}

func who(seat int) string { return game.Seat(seat) + " (" + role(seat) + ")" }

func (s *state) Apply(m game.Move) ([]game.Event, error) {
	if s.phase == pOver {
		return nil, fmt.Errorf("%s: %w", m, game.ErrOver)
	}
	if m.Seat != Tourist && m.Seat != Officer {
		return nil, game.Refuse(m, "there is no seat %d: seat 0 is the tourist and seat 1 the officer", m.Seat)
	}
	if !s.inTurn(m.Seat) {
		return nil, game.RefuseTurn(m, "not %s's move: %s", role(m.Seat), expect[s.phase])
	}
	if o, ok := owners[m.Action]; ok && o != m.Seat {
		return nil, game.Refuse(m, "not %s's move: %s is %s's", role(m.Seat), m.Action, role(o))
	}
	if ev, err := s.talk(m); err != errNotTalk {
		return ev, err
	}
	noArgs := func() error {
		if len(m.Args) != 0 {
			return game.Refuse(m, "%s takes no arguments", m.Action)
		}
		return nil
	}
	oneArg := func(what string) error {
		if len(m.Args) != 1 {
			return game.Refuse(m, "%s takes one argument: %s", m.Action, what)
		}
		return nil
	}
	notNow := func() error {
		return game.Refuse(m, "%s is not possible now: %s", m.Action, expect[s.phase])
	}
	switch m.Action {
	case "seat":
		if s.phase != pOpen {
			return nil, notNow()
		}
		if err := noArgs(); err != nil {
			return nil, err
		}
		s.posture = sitting
		s.phase = pTalk
		return []game.Event{{Type: "seated", Text: who(Officer) + " asks " + who(Tourist) + " to sit down, and she does: the meeting begins."}}, nil

	case "time":
		if !s.canTime() {
			if s.timeUp {
				return nil, game.Refuse(m, "time has already been called")
			}
			return nil, game.Refuse(m, "the tourist has already been told to leave")
		}
		if err := noArgs(); err != nil {
			return nil, err
		}
		s.timeUp = true
		if s.phase == pOpen || s.phase == pTalk {
			return []game.Event{s.order(byTime)}, nil
		}
		return []game.Event{{Type: "time", Text: fmt.Sprintf("Time is up (%s): once this exchange is settled, %s must end the meeting.", minutes(s.minutes), who(Officer))}}, nil

	case "challenge":
		last := s.phase == pOrdered && s.standLast && !s.lastStand
		if s.phase != pTalk && !last {
			if s.phase == pOrdered {
				return nil, s.noMoreStand(m)
			}
			return nil, notNow()
		}
		if err := noArgs(); err != nil {
			return nil, err
		}
		text := fmt.Sprintf("%s meets the officer's gaze, raises a fist and closes her eyes: a challenge, while %s.", who(Tourist), s.posture)
		if last {
			s.lastStand = true
			text = fmt.Sprintf("Told to leave, %s makes a last stand: she meets the officer's gaze, raises a fist and closes her eyes, while %s.", who(Tourist), s.posture)
		}
		s.phase = pOkay
		return []game.Event{{Type: "challenge", Text: text}}, nil

	case "okay":
		if s.phase != pOkay {
			return nil, notNow()
		}
		if err := oneArg("open or closed (your eyes)"); err != nil {
			return nil, err
		}
		var open bool
		switch m.Args[0] {
		case "open":
			open = true
			if s.posture == standing {
				return nil, game.Refuse(m, "she is standing: you must close your eyes for this challenge")
			}
		case "closed":
			if s.posture == touching {
				return nil, game.Refuse(m, "she is touching you: you must keep your eyes open for this challenge")
			}
		default:
			return nil, game.Refuse(m, "%q is not open or closed", m.Args[0])
		}
		s.eyesOpen = open
		s.phase = pPickT
		eyes := "You close your eyes: you will not see her fingers."
		if open {
			eyes = "You keep your eyes open: you will see her fingers before raising yours. Do not let her know."
		}
		return []game.Event{
			{Type: "okay", Text: who(Officer) + " says \"okay\": " + who(Tourist) + " raises 1 to 4 fingers."},
			{Type: "eyes", Text: eyes, To: []int{Officer}},
		}, nil

	case "fingers":
		if s.phase != pPickT && s.phase != pPickO {
			return nil, notNow()
		}
		if err := oneArg("how many fingers, 1 to 4"); err != nil {
			return nil, err
		}
		n := parseFingers(m.Args[0])
		if n == 0 {
			return nil, game.Refuse(m, "%q is not a number of fingers from 1 to 4", m.Args[0])
		}
		if s.phase == pPickT {
			s.tFingers = n
			s.phase = pPickO
			ev := []game.Event{
				{Type: "fingers", Text: who(Tourist) + " has raised her fingers; now " + who(Officer) + " raises his."},
				{Type: "your-fingers", Text: fmt.Sprintf("You raise %d.", n), To: []int{Tourist}},
			}
			if s.eyesOpen {
				ev = append(ev, game.Event{Type: "seen", Text: fmt.Sprintf("Your eyes are open: she raises %d.", n), To: []int{Officer}})
			}
			return ev, nil
		}
		return s.settle(n), nil

	case "demand":
		if s.phase != pDemand {
			return nil, notNow()
		}
		what := "token or other"
		if !s.tokenDemand {
			what = "other (the token may not be demanded in this game)"
		}
		if err := oneArg(what); err != nil {
			return nil, err
		}
		switch m.Args[0] {
		case "token":
			if !s.tokenDemand {
				return nil, game.Refuse(m, "the token may not be demanded in this game (option %s=no): offer it instead", OptTokenDemand)
			}
			s.end = endDemanded
			s.phase = pOver
			return []game.Event{{Type: "token-taken", Text: who(Tourist) + " demands that the officer take the token, and " + who(Officer) + " must: responsibility has passed. The officer loses."}}, nil
		case "other":
			s.demands++
			text := who(Officer) + " must do the one thing " + who(Tourist) + " demands, or answer her one question."
			if last := s.history[len(s.history)-1]; last.posture == touching {
				text += " She won while touching him, so he may now ask something of her in return, which she has to grant."
				s.phase = pReturn
				return []game.Event{{Type: "demand", Text: text}}, nil
			}
			return []game.Event{{Type: "demand", Text: text}, s.back()}, nil
		}
		return nil, game.Refuse(m, "%q is not a demand: say token or other", m.Args[0])

	case "escalate":
		if s.phase != pTalk && s.phase != pShift {
			return nil, notNow()
		}
		if !s.canUp() {
			return nil, game.Refuse(m, "she is already touching the officer: there is no higher posture")
		}
		d, err := s.readDetail(m)
		if err != nil {
			return nil, err
		}
		d.to = s.posture + 1
		s.details = append(s.details, d)
		s.setPosture(d.to)
		how := " stands up: "
		if d.to == touching {
			how = " puts a hand on the officer's arm: "
		}
		ev := []game.Event{{Type: "escalate", Text: who(Tourist) + how + d.text() + "."}}
		if s.phase == pShift {
			ev = append(ev, s.back())
		}
		return ev, nil

	case "deescalate":
		if s.phase != pTalk && s.phase != pShift {
			return nil, notNow()
		}
		if err := noArgs(); err != nil {
			return nil, err
		}
		if s.posture == sitting {
			return nil, game.Refuse(m, "she is already sitting: there is no lower posture")
		}
		if !s.canDown(s.phase == pShift) {
			return nil, game.Refuse(m, "she may lower her posture only after losing a challenge (option %s=no)", OptStepDown)
		}
		s.setPosture(s.posture - 1)
		text := who(Tourist) + " lets go of the officer and stands back."
		if s.posture == sitting {
			text = who(Tourist) + " sits back down."
		}
		ev := []game.Event{{Type: "deescalate", Text: text}}
		if s.phase == pShift {
			ev = append(ev, s.back())
		}
		return ev, nil

	case "offer":
		if s.phase != pTalk && (s.phase != pOrdered || s.lastStand) {
			if s.phase == pOrdered {
				return nil, s.noMoreStand(m)
			}
			return nil, notNow()
		}
		if err := noArgs(); err != nil {
			return nil, err
		}
		if s.phase == pOrdered {
			s.lastStand = true
		}
		s.offerFrom = s.phase
		s.phase = pOffer
		s.offers++
		return []game.Event{{Type: "offer", Text: who(Tourist) + " tries to hand the token to " + who(Officer) + "."}}, nil

	case "take", "refuse":
		if s.phase != pOffer {
			return nil, notNow()
		}
		if err := noArgs(); err != nil {
			return nil, err
		}
		if m.Action == "take" {
			s.end = endTaken
			s.phase = pOver
			return []game.Event{{Type: "token-taken", Text: who(Officer) + " takes the token into his hand: responsibility has passed. The officer loses."}}, nil
		}
		ev := game.Event{Type: "token-refused", Text: who(Officer) + " does not take the token; " + who(Tourist) + " still holds it."}
		if s.offerFrom == pOrdered {
			s.phase = pOrdered
			return []game.Event{ev}, nil
		}
		return []game.Event{ev, s.back()}, nil

	case "dismiss", "keep":
		if s.phase != pDismiss {
			return nil, notNow()
		}
		if err := noArgs(); err != nil {
			return nil, err
		}
		breach := s.dismissBreach
		s.dismissBreach = false
		if m.Action == "dismiss" {
			return []game.Event{s.order(byDismissal)}, nil
		}
		ev := game.Event{Type: "kept", Text: who(Officer) + " lets " + who(Tourist) + " stay."}
		if breach {
			return []game.Event{ev, s.back()}, nil
		}
		if s.sitRise {
			ev.Text += " She must stand up, adding a new detail to her story."
			s.phase = pShift
			return []game.Event{ev}, nil
		}
		return []game.Event{ev, s.back()}, nil

	case "leave":
		if s.phase != pTalk && s.phase != pDemand && s.phase != pShift && s.phase != pOrdered && s.phase != pComply {
			return nil, notNow()
		}
		if err := noArgs(); err != nil {
			return nil, err
		}
		s.end = endLeft
		s.phase = pOver
		s.request = noRequest // she walked out instead of complying
		return []game.Event{{Type: "left", Text: who(Tourist) + " leaves the station still holding the token. The tourist loses."}}, nil

	case "stay":
		if s.phase != pOrdered {
			return nil, notNow()
		}
		if err := noArgs(); err != nil {
			return nil, err
		}
		s.phase = pArrest
		return []game.Event{{Type: "stays", Text: who(Tourist) + " refuses to leave: " + who(Officer) + " must arrest her."}}, nil

	case "arrest":
		if s.phase != pArrest {
			return nil, notNow()
		}
		if err := noArgs(); err != nil {
			return nil, err
		}
		s.end = endArrested
		s.phase = pOver
		return []game.Event{{Type: "arrested", Text: who(Officer) + " touches her shoulder: \"You are under arrest.\" " + who(Tourist) + " goes to jail and loses."}}, nil
	}
	return nil, game.Refuse(m, "there is no action %q in Purse Snatcher (the actions are %s)", m.Action, actions)
}

// noMoreStand refuses a challenge or an offer once she has been told to
// leave and may make no more.
func (s *state) noMoreStand(m game.Move) error {
	if s.lastStand {
		return game.Refuse(m, "she has had her last chance after being told to leave: she must leave or refuse to")
	}
	return game.Refuse(m, "once told to leave she may not challenge again (option %s=%s): she may offer the token one last time, leave or refuse to", OptToldToLeave, LastOffer)
}

func parseFingers(a string) int8 {
	if len(a) == 1 && a[0] >= '1' && a[0] <= '4' {
		return int8(a[0] - '0')
	}
	return 0
}

// settle ends the challenge under way with the officer's fingers.
func (s *state) settle(o int8) []game.Event {
	r := record{posture: s.posture, tourist: s.tFingers, officer: o, eyesOpen: s.eyesOpen}
	s.history = append(s.history, r)
	s.tFingers, s.eyesOpen = 0, false
	total := r.tourist + r.officer
	head := fmt.Sprintf("\"Open your eyes\": %s shows %d, %s shows %d; %d fingers in all, ", who(Tourist), r.tourist, who(Officer), r.officer, total)
	if r.touristWon() {
		s.phase = pDemand
		text := head + "even: the tourist wins the challenge. She names one demand or asks one question."
		if r.posture == touching {
			text += " As she was touching him, the officer may then ask something of her in return."
		}
		return []game.Event{{Type: "challenge-won", Text: text}}
	}
	text := head + "odd: the officer wins the challenge."
	switch {
	case r.posture == sitting && s.ordered != notOrdered:
		// Already told to leave: there is nobody left to send away.
		if s.sitRise {
			s.phase = pShift
			text += " She lost sitting down: she must stand up, adding a detail."
			break
		}
		return []game.Event{{Type: "challenge-lost", Text: text}, s.back()}
	case r.posture == sitting:
		s.phase = pDismiss
		text += " She lost sitting down: the officer may tell her to leave."
	case r.posture == touching:
		s.phase = pShift
		text += " She must let go and stand back."
	default:
		s.phase = pShift
		text += " She must sit down, or add a new detail and touch him."
	}
	return []game.Event{{Type: "challenge-lost", Text: text}}
}

// back returns to the talk after an exchange, or ends the meeting if time
// was called meanwhile; after her last stand, to being told to leave.
func (s *state) back() game.Event {
	if s.ordered != notOrdered {
		s.phase = pOrdered
		return game.Event{Type: "ordered", Text: who(Tourist) + " has had her last stand and is still told to leave: she must go, or refuse and be arrested."}
	}
	if s.timeUp {
		return s.order(byTime)
	}
	s.phase = pTalk
	return game.Event{Type: "talk", Text: "The meeting goes on; " + who(Tourist) + " is " + s.posture.String() + "."}
}

// minutes is "1 minute" or "N minutes".
func minutes(n int) string {
	if n == 1 {
		return "1 minute"
	}
	return fmt.Sprintf("%d minutes", n)
}

// hasHave is what "has" or "have" passed, agreeing with n.
func hasHave(what string, n int) string {
	if n == 1 {
		return what + " has"
	}
	return what + " have"
}

func (s *state) order(why orderReason) game.Event {
	s.ordered = why
	s.phase = pOrdered
	s.endTalk()
	if why == byTime {
		return game.Event{Type: "ordered", Text: fmt.Sprintf("%s passed: %s has an urgent appointment, bids %s good day and tells her to leave.", hasHave(minutes(s.minutes), s.minutes), who(Officer), who(Tourist))}
	}
	return game.Event{Type: "ordered", Text: who(Officer) + " tells " + who(Tourist) + " to leave the station, and she must obey."}
}

func (s *state) Result() game.Result {
	var r game.Result
	tw, ow := s.tally()
	tail := fmt.Sprintf(" Challenges: %d (tourist won %d, officer won %d).", len(s.history), tw, ow)
	switch s.end {
	case endTaken:
		r.Winners = []int{Tourist}
		r.Text = who(Officer) + " took the token of responsibility: " + who(Tourist) + " wins."
	case endDemanded:
		r.Winners = []int{Tourist}
		r.Text = who(Tourist) + " won a challenge and made the officer take the token: " + who(Tourist) + " wins."
	case endLeft:
		r.Winners = []int{Officer}
		r.Text = who(Tourist) + " left still holding the token: " + who(Officer) + " wins."
	case endArrested:
		r.Winners = []int{Officer}
		r.Text = who(Tourist) + " refused to leave and was arrested: " + who(Officer) + " wins."
	default:
		r.Text = "The meeting is still going on."
	}
	r.Text += tail
	return r
}

func (s *state) tally() (tourist, officer int) {
	for _, r := range s.history {
		if r.touristWon() {
			tourist++
		} else {
			officer++
		}
	}
	return
}

func (s *state) Clone() game.State {
	c := *s
	c.history = append([]record(nil), s.history...)
	c.details = append([]detail(nil), s.details...)
	c.questions = append([]question(nil), s.questions...)
	c.returns = append([]returned(nil), s.returns...)
	return &c
}

func (s *state) Audit() error {
	if s.phase > pOver {
		return fmt.Errorf("phase %d out of range", s.phase)
	}
	if s.posture > touching {
		return fmt.Errorf("posture %d out of range", s.posture)
	}
	if s.minutes < 1 || s.minutes > 120 {
		return fmt.Errorf("time limit %d minutes out of range", s.minutes)
	}
	if (s.phase == pOver) != (s.end != notOver) {
		return fmt.Errorf("phase %s but ending %d", phaseNames[s.phase], s.end)
	}
	if s.phase == pOpen && (s.posture != standing || len(s.history) > 0) {
		return fmt.Errorf("the opening has posture %s and %d challenges", s.posture, len(s.history))
	}
	if s.tFingers < 0 || s.tFingers > 4 || (s.tFingers != 0) != (s.phase == pPickO) {
		return fmt.Errorf("the tourist's pending fingers are %d in phase %s", s.tFingers, phaseNames[s.phase])
	}
	inChallenge := s.phase == pPickT || s.phase == pPickO
	if s.eyesOpen && !inChallenge {
		return fmt.Errorf("the officer's eyes are open outside a challenge (phase %s)", phaseNames[s.phase])
	}
	if inChallenge && (s.posture == standing && s.eyesOpen || s.posture == touching && !s.eyesOpen) {
		return fmt.Errorf("eyes open=%v while she is %s", s.eyesOpen, s.posture)
	}
	for i, r := range s.history {
		if r.tourist < 1 || r.tourist > 4 || r.officer < 1 || r.officer > 4 {
			return fmt.Errorf("challenge %d has fingers %d and %d", i+1, r.tourist, r.officer)
		}
		if r.posture > touching || r.posture == standing && r.eyesOpen || r.posture == touching && !r.eyesOpen {
			return fmt.Errorf("challenge %d: eyes open=%v while %s", i+1, r.eyesOpen, r.posture)
		}
	}
	if s.phase == pDemand || s.phase == pDismiss || s.phase == pShift || s.phase == pReturn || s.phase == pComply {
		if len(s.history) == 0 {
			return fmt.Errorf("phase %s without a challenge", phaseNames[s.phase])
		}
		last := s.history[len(s.history)-1]
		won := last.touristWon()
		if s.phase == pReturn || s.phase == pComply || s.dismissBreach {
			if !won || last.posture != touching {
				return fmt.Errorf("phase %s after a challenge won=%v while %s", phaseNames[s.phase], won, last.posture)
			}
		} else if won != (s.phase == pDemand) {
			return fmt.Errorf("phase %s after a challenge the tourist won=%v", phaseNames[s.phase], won)
		}
	}
	if s.phase == pDismiss && s.ordered != notOrdered {
		return fmt.Errorf("a dismissal decision after she was told to leave")
	}
	if s.phase == pDismiss && !s.dismissBreach && s.posture != sitting {
		return fmt.Errorf("dismissal decision while she is %s", s.posture)
	}
	if s.dismissBreach && (s.phase != pDismiss || len(s.returns) == 0 || s.returns[len(s.returns)-1].complied) {
		return fmt.Errorf("a dismissal for a breach in phase %s without a refused request", phaseNames[s.phase])
	}
	if s.phase == pShift && s.posture == sitting && !s.sitRise {
		return fmt.Errorf("she must change posture from sitting, but the option says she stays")
	}
	if (s.phase == pOrdered || s.phase == pArrest) && s.ordered == notOrdered {
		return fmt.Errorf("phase %s but nobody told her to leave", phaseNames[s.phase])
	}
	if s.ordered != notOrdered && s.phase != pOrdered && s.phase != pArrest && s.phase != pOver && s.phase != pOffer {
		switch s.phase {
		case pOkay, pPickT, pPickO, pDemand, pShift, pReturn, pComply:
			if !s.lastStand || !s.standLast {
				return fmt.Errorf("told to leave, yet in phase %s without a last stand", phaseNames[s.phase])
			}
		default:
			return fmt.Errorf("told to leave, yet in phase %s", phaseNames[s.phase])
		}
	}
	if s.ordered == byTime && !s.timeUp {
		return fmt.Errorf("sent away for time, but time was not called")
	}
	if s.lastStand && s.ordered == notOrdered {
		return fmt.Errorf("last stand used before being told to leave")
	}
	if s.phase == pOffer && (s.offerFrom != pTalk && s.offerFrom != pOrdered || (s.offerFrom == pOrdered) != (s.ordered != notOrdered)) {
		return fmt.Errorf("an offer from phase %s (told to leave: %v)", phaseNames[s.offerFrom], s.ordered != notOrdered)
	}
	if s.offers < 0 || s.demands < 0 || s.demands > len(s.history) {
		return fmt.Errorf("%d offers, %d demands for %d challenges", s.offers, s.demands, len(s.history))
	}
	if err := s.auditTalk(); err != nil {
		return err
	}
	// The one token stays with the tourist until the officer takes it,
	// which ends the game (tokenHolder derives it from the ending).
	if s.end == endDemanded && !s.tokenDemand {
		return fmt.Errorf("the token was demanded though the option forbids it")
	}
	return nil
}

func (s *state) tokenHolder() int {
	if s.end == endTaken || s.end == endDemanded {
		return Officer
	}
	return Tourist
}
