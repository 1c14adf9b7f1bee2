package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// TestANameIsShownAsWritten: a player called "{0}" passes a card to Ann
// (seat 0) and rolls a die at the dealer. The server names its events once;
// the table and the phones show them as they come, so "{0}" stays "{0}"
// and the table never says that Ann passes a card to Ann.
func TestANameIsShownAsWritten(t *testing.T) {
	sv := serveAndBrowse(t, 2*time.Minute)
	room, _, toks := startedRoom(t, sv.base, "deck", "Ann", "{0}")
	var v struct {
		View struct {
			Hand []string `json:"hand"`
		} `json:"view"`
	}
	get(t, sv.base+"/api/rooms/"+room+"/view", toks[1], &v)
	require.NotEmpty(t, v.View.Hand)

	c, cancel := chromedp.NewContext(sv.root, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	table := page{t, "table", c}
	table.do(chromedp.EmulateViewport(1366, 768), chromedp.Navigate(sv.lan+"/t/"+room))
	table.waitJS("the table in play", `document.querySelector(".toprow #banner")`)
	ann := seatPhone(t, sv, room, toks[0], "Ann's phone")
	brace := seatPhone(t, sv, room, toks[1], "{0}'s phone")
	for _, p := range []page{ann, brace} {
		p.waitJS("the seat", `document.querySelector("#me")`)
	}
	require.Equal(t, "{0}", brace.text(`document.querySelector("#me").textContent`))

	post(t, sv.base+"/api/rooms/"+room+"/moves", toks[1], map[string]any{"move": "pass " + v.View.Hand[0] + " 0"}, nil)
	post(t, sv.base+"/api/rooms/"+room+"/moves", toks[1], map[string]any{"move": "roll 1d6"}, nil)

	shows := func(p page, texts ...string) {
		t.Helper()
		cond := make([]string, len(texts))
		for i, s := range texts {
			cond[i] = "document.body.innerText.includes(" + js(s) + ")"
		}
		p.waitJS(strings.Join(texts, ", "), strings.Join(cond, " && "))
	}
	shows(table, "{0} passes a card to Ann.", "{0} rolls d6: ")
	shows(ann, "{0} passes a card to Ann.", "{0} passed you the ", "{0} rolls d6: ")
	shows(brace, "{0} passes a card to Ann.", "{0} rolls d6: ")
	for _, p := range []page{table, ann, brace} {
		body := p.text("document.body.innerText")
		for _, bad := range []string{"Ann passes a card to Ann", "Ann passed you", "Ann rolls", "player 1 ", "{0} passes a card to {0}"} {
			require.NotContains(t, body, bad, "%s reads a name as a seat", p.name)
		}
		p.noLeftovers()
	}
}
