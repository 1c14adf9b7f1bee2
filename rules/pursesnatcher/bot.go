package pursesnatcher

import "github.com/tableref/tableref/rules/game"

// bot plays both roles from their views alone, and stands in for the
// referee's clock: at each turn of the tourist's free talk it calls time
// with chance 1 in the time limit's minutes, as if each such turn took
// about a minute.
//
// The tourist answers the officer's questions (standing, she refuses half
// of them), declines his invitations, climbs to standing (where the officer must close his eyes,
// so a challenge is a fair coin), challenges there, spends a won challenge
// on the token where allowed, sits back down after a lost one, and once
// told to leave makes a last stand (a challenge when standing with the
// token demand allowed, else an offer, half the time) before going. The officer
// asks questions, invites her to sit when she is up, touches her when
// she asks, watches whenever he may and then always makes the total odd,
// asks her to sit in return after a win while touching, lets nobody stay
// after losing sitting down, and never takes the token.
type bot struct{}

func (bot) Choose(st game.State, seat int, r *game.Rand) game.Move {
	legal := st.Legal(seat)
	v, ok := st.View(seat).(View)
	if !ok || len(legal) == 0 {
		return game.Random.Choose(st, seat, r)
	}
	has := func(action string, args ...string) (game.Move, bool) {
		m := game.M(seat, action, args...)
		for _, l := range legal {
			if l.Equal(m) {
				return l, true
			}
		}
		return game.Move{}, false
	}
	// any is a random legal move of the action (a climb's detail).
	any := func(action string) (game.Move, bool) {
		var same []game.Move
		for _, l := range legal {
			if l.Action == action {
				same = append(same, l)
			}
		}
		if len(same) == 0 {
			return game.Move{}, false
		}
		return same[r.IntN(len(same))], true
	}
	pick := func(prefs ...[]string) game.Move {
		for _, p := range prefs {
			if len(p) == 1 && p[0] == "escalate" {
				if m, ok := any(p[0]); ok {
					return m
				}
				continue
			}
			if m, ok := has(p[0], p[1:]...); ok {
				return m
			}
		}
		return legal[r.IntN(len(legal))]
	}
	a := func(words ...string) []string { return words }
	finger := func(n int) []string { return a("fingers", fingerWords[n-1]) }

	switch v.Phase {
	case "opening":
		return pick(a("seat"))
	case "talk":
		if seat == Tourist && r.IntN(max(v.Minutes, 1)) == 0 {
			return pick(a("time"))
		}
		if seat == Officer {
			if v.TouchAsked && r.IntN(2) == 0 {
				return pick(a("touch"))
			}
			if v.Posture != "sitting" && r.IntN(2) == 0 {
				return pick(a("invite", "sit"))
			}
			if m, ok := any("ask"); ok {
				return m
			}
			return pick(a("touch"), a("time"))
		}
		if v.Question != nil {
			if v.MayRefuse && r.IntN(2) == 0 {
				return pick(a("refuse-answer"))
			}
			return pick(a("answer"))
		}
		if v.Invitation != "" {
			return pick(a("decline"))
		}
		switch v.Posture {
		case "sitting":
			return pick(a("escalate"))
		case "standing":
			if r.IntN(10) == 0 {
				return pick(a("offer"))
			}
			return pick(a("challenge"))
		default:
			return pick(a("deescalate"), a("challenge"))
		}
	case "okay":
		return pick(a("okay", "open"), a("okay", "closed"))
	case "tourist-fingers":
		return pick(finger(1 + r.IntN(4)))
	case "officer-fingers":
		if t := v.TouristFingers; t > 0 {
			// Seen: make the total odd.
			f := 1 + 2*r.IntN(2)
			if t%2 == 1 {
				f++
			}
			return pick(finger(f))
		}
		return pick(finger(1 + r.IntN(4)))
	case "demand":
		return pick(a("demand", "token"), a("demand", "other"))
	case "dismiss":
		return pick(a("dismiss"))
	case "shift":
		if r.IntN(5) == 0 {
			return pick(a("escalate"), a("deescalate"))
		}
		return pick(a("deescalate"), a("escalate"))
	case "offer":
		return pick(a("refuse"))
	case "return":
		return pick(a("request", "sit"))
	case "comply":
		return pick(a("comply"))
	case "ordered":
		if !v.LastStand && v.TokenDemand && v.Posture == "standing" {
			// A last challenge standing is a fair coin for the token.
			return pick(a("challenge"), a("offer"))
		}
		if !v.LastStand && r.IntN(2) == 0 {
			return pick(a("offer"))
		}
		if r.IntN(10) == 0 {
			return pick(a("stay"))
		}
		return pick(a("leave"))
	case "arrest":
		return pick(a("arrest"))
	}
	return legal[r.IntN(len(legal))]
}
