package louseflea

import (
	"strconv"

	"github.com/tableref/tableref/rules/game"
)

// Announcements that recur every turn are written once, here, so that a
// playout does not build the same strings again and again. The tables are
// filled at start-up and only read afterwards.

// How a play leaves its player.
const (
	playStay   = iota // stood and stays standing
	playUp            // was seated and stands up
	playSit           // was standing and sits down
	playSeated        // was seated and stays seated
	playFree          // a free turn's other card: nothing changes
	nPlayModes
)

var (
	seatRefs    [maxSeats]string
	playText    [maxSeats][nIdent][nPlayModes]string
	calledText  [maxSeats - 2][maxSeats][nIdent]string // [ids-3][seat][identity]
	freeText    [maxSeats][nIdent]string
	discardText [maxSeats][nKinds]string
	drawText    [maxSeats][fullHand + 1]string
	winText     [maxSeats]string
	drawnOne    [nKinds]string
	playArgs    [nKinds][]string
	attachArgs  [nIdent][2][]string
	discardArgs [nKinds][]string
)

// private event audiences, one per seat; capacity 1 so an append copies.
var seatList = [maxSeats]int{0, 1, 2, 3, 4, 5}

func only(seat int) []int { return seatList[seat : seat+1 : seat+1] }

func ref(seat int) string { return seatRefs[seat] }

func init() {
	for p := 0; p < maxSeats; p++ {
		r := game.Seat(p)
		seatRefs[p] = r
		winText[p] = r + " is the last one standing and wins."
		for n := 1; n <= fullHand; n++ {
			drawText[p][n] = r + " draws " + strconv.Itoa(n) + " card(s)."
		}
		for k := 0; k < nKinds; k++ {
			discardText[p][k] = r + " discards a " + kindNames[k] + " card."
		}
		for k := 0; k < nIdent; k++ {
			name := kindNames[k]
			playText[p][k] = [nPlayModes]string{
				playStay:   r + " plays " + name + " and stays standing.",
				playUp:     r + " plays " + name + " and stands up again.",
				playSit:    r + " cannot answer the call, sits down, and plays " + name + ".",
				playSeated: r + " cannot answer the call, stays seated, and plays " + name + ".",
				playFree:   r + " plays " + name + " on a free turn, so nobody sits for it.",
			}
			freeText[p][k] = "Now " + r + ", as the " + name + ", plays a card with no need to sit."
			for ids := 3; ids <= nIdent; ids++ {
				if k < ids {
					calledText[ids-3][p][k] = "The " + name + " is played on " + r + ": play " + name + " or " +
						kindNames[(k+1)%ids] + " to stand, or sit down."
				}
			}
		}
	}
	for k := 0; k < nKinds; k++ {
		drawnOne[k] = "You draw " + kindNames[k] + "."
		playArgs[k] = []string{kindNames[k]}
		discardArgs[k] = []string{kindNames[k]}
		if k < nIdent {
			for b := 0; b < 2; b++ {
				attachArgs[k][b] = []string{kindNames[k], kindNames[louse+b]}
			}
		}
	}
}

// drawnText tells a seat the cards it drew, in one allocation.
func drawnText(got []uint8) string {
	switch len(got) {
	case 1:
		return drawnOne[got[0]]
	case 2:
		return "You draw " + kindNames[got[0]] + ", " + kindNames[got[1]] + "."
	case 3:
		return "You draw " + kindNames[got[0]] + ", " + kindNames[got[1]] + ", " + kindNames[got[2]] + "."
	}
	t := "You draw " + kindNames[got[0]]
	for _, k := range got[1:] {
		t += ", " + kindNames[k]
	}
	return t + "."
}

// move builds a move from the shared argument lists (never modified).
func move(seat int, action string, args []string) game.Move {
	return game.Move{Seat: seat, Action: action, Args: args[:len(args):len(args)]}
}
