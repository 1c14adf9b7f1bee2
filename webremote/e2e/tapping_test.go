package e2e

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// catchToasts keeps every message the page pops up (window.toasts): a
// move the page offered and the server refused shows as one.
const catchToasts = `new MutationObserver(() => {
  const t = document.getElementById("toast");
  if (t && t.classList.contains("show") && t.textContent !== window.lastToast) { window.lastToast = t.textContent; (window.toasts = window.toasts || []).push(t.textContent); }
}).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });`

// TestEveryGamePlaysByTapping plays every game and the dealer the way the
// players do: on the phones only, each turn the phone of a seat on turn
// taps one of the buttons it shows (a seeded random pick: a move, the first
// half of a two-step one, a count in a code picker, a first tap that
// arms a move for everyone, which the next tap confirms). The game must
// move on (or end), and no phone
// may meet a script error or a refusal of something it offered.
func TestEveryGamePlaysByTapping(t *testing.T) {
	sv := serveSeeded(t, 10*time.Minute, counting()) // the same games every run
	players := map[string]int{"woodlouse": 3, "louseflea": 3, "troll": 1, "celestial": 4, "pursesnatcher": 2, "insomnia": 4, "minefield": 3, "deck": 3}
	// Four phones, kept from game to game (a tab opens in a browser context
	// of its own, which costs a second of CPU or more).
	var pocket []*tab
	for i := range 4 {
		ph := openTab(t, sv, fmt.Sprint("phone ", i), screen{"phone", 360, 740})
		ph.do(onEveryPage(catchToasts))
		pocket = append(pocket, ph)
	}
	for _, id := range []string{"woodlouse", "louseflea", "troll", "celestial", "pursesnatcher", "insomnia", "minefield", "deck"} {
		t.Run(id, func(t *testing.T) {
			names := []string{"Ann", "Bob", "Cy", "Di"}[:players[id]]
			room, _, toks := startedRoom(t, sv.base, id, names...)
			phones := make([]*tab, len(toks))
			for i, tok := range toks {
				ph := pocket[i]
				ph.moveTo(t, id+" "+names[i])
				ph.do(chromedp.Navigate(sv.lan + "/static/app.css"))
				ph.act("the seat's token", fmt.Sprintf(`localStorage.setItem("tableref.seat.%s", %s)`, room, js(tok)))
				ph.do(chromedp.Navigate(sv.lan + "/j/" + room))
				phones[i] = ph
			}
			rng := rand.New(rand.NewPCG(uint64(len(id)), 7))
			var st tableState
			taps := 0
			// Until the game ends, or after 150 taps once it has gone a
			// dozen moves (a random tapper needs many taps for one of
			// Woodlouse's codes); at most 400.
			for ; taps < 400; taps++ {
				getJSON(t, sv.base+"/api/rooms/"+room+"/table", &st)
				if st.Over || taps >= 150 && st.Seq >= 12 {
					break
				}
				seat := st.Turn[rng.IntN(len(st.Turn))]
				p := phones[seat]
				p.waitJS("the game as it stands", fmt.Sprintf(`document.body.dataset.seq === "%d" && document.querySelector("#moves")`, st.Seq))
				p.act("tap a button", fmt.Sprintf(`const armed = document.querySelector("#moves button.armed");
					if (armed) { ready(armed).click(); return; } // a player who armed a move confirms it
					const bs = [...document.querySelectorAll("#moves button")].filter((b) => !b.disabled);
					if (!bs.length) throw new Wait("no button to tap");
					ready(bs[Math.floor(%v * bs.length)]).click();`, rng.Float64()))
				// A tap that sent a move: its answer comes before the next
				// look (a player taps once per view).
				p.waitJS("the server's answer", `(document.body.dataset.pending || "0") === "0"`)
			}
			getJSON(t, sv.base+"/api/rooms/"+room+"/table", &st)
			t.Logf("%s: %d taps made %d moves (over: %v)", id, taps, st.Seq, st.Over)
			require.True(t, st.Over || st.Seq >= 5, "the taps moved the game on: %d moves in %d taps", st.Seq, taps)
			for _, p := range phones {
				p.waitJS("the last state", fmt.Sprintf(`document.body.dataset.seq === "%d"`, st.Seq))
				toasts := p.text(`(window.toasts || []).join(" | ")`)
				require.Empty(t, toasts, "%s: refusals of what the phone offered", p.name)
				p.mu.Lock()
				require.Empty(t, *p.errs, "%s: script errors", p.name)
				p.mu.Unlock()
				p.noLeftovers()
			}
		})
	}
}
