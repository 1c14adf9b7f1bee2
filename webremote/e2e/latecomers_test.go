package e2e

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// TestALatecomerSitsDownFromThePhone: a dealer room made for 10 and started
// with 3 takes a fourth player from the join page, who gets a hand when
// the dealer deals again; the table announces the newcomer. A started
// Woodlouse Chaos room says before and after the attempt why it takes
// nobody new.
func TestALatecomerSitsDownFromThePhone(t *testing.T) {
	sv := serveAndBrowse(t, 3*time.Minute)
	out := artifacts(t)
	room, host, toks := roomOf(t, sv.base, "deck", 10, "Ann", "Bob", "Cy")
	post(t, sv.base+"/api/rooms/"+room+"/start", host, map[string]any{}, nil)

	tc, cancel := chromedp.NewContext(sv.root, chromedp.WithNewBrowserContext())
	defer cancel()
	table := page{t, "table", tc}
	table.do(chromedp.EmulateViewport(1366, 768), chromedp.Navigate(sv.lan+"/t/"+room))
	table.waitJS("the game", `document.body.dataset.status === "playing"`)

	pc, cancel2 := chromedp.NewContext(sv.root, chromedp.WithNewBrowserContext())
	defer cancel2()
	p := page{t, "latecomer", pc}
	p.do(chromedp.EmulateViewport(360, 740), chromedp.Navigate(sv.lan+"/j/"+room))
	p.waitJS("what the room is", `/you can still sit down/.test(document.querySelector("#join-about").textContent)`)
	p.typeIn("#name", "Dan")
	p.tap("#join")
	p.waitJS("a seat at the table", `document.querySelector("#me") && document.querySelector("#me").textContent === "Dan"`)
	require.NotContains(t, p.text(`document.querySelector("#banner").textContent`), "turn", "the dealer has no turns")
	table.waitJS("the newcomer announced", `document.querySelector("#headline.show") && /Dan sits down/.test(document.querySelector("#headline").textContent)`)
	table.waitJS("the newcomer among the players", `[...document.querySelectorAll(".player")].some((e) => e.textContent.includes("Dan"))`)
	post(t, sv.base+"/api/rooms/"+room+"/moves", toks[0], map[string]any{"move": "deal 3"}, nil)
	p.waitJS("a hand of 3", `document.querySelectorAll("button.cardpick").length === 3`)
	p.shot(out, "latecomer-phone.png")
	table.shot(out, "latecomer-table.png")
	fits(t, p, "the latecomer's phone", true)

	wroom, _, _ := startedRoom(t, sv.base, "woodlouse", "Ann", "Bob", "Cy")
	p.do(chromedp.Navigate(sv.lan + "/j/" + wroom))
	p.waitJS("why not", `/cannot take a new player mid-game/.test(document.querySelector("#join-about").textContent)`)
	p.typeIn("#name", "Eve")
	p.tap("#join")
	p.waitJS("the refusal, where the name was typed", `/cannot take a new player mid-game/.test(document.querySelector("#join-error").textContent)`)
	p.noLeftovers()
}
