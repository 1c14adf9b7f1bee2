package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/rules/catalog"
	"github.com/tableref/tableref/rules/game"
	"github.com/tableref/tableref/rules/woodlouse"
)

// keepCreated records, in the tab's session storage, the body of each room
// the page creates, so that it can be read after the page has moved on to
// the table.
const keepCreated = `(() => {
  const f = window.fetch;
  window.fetch = function (url, opts) {
    if (opts && opts.method === "POST" && String(url) === "/api/rooms") sessionStorage.setItem("created", opts.body);
    return f.apply(this, arguments);
  };
})();`

// createdRoom is the body the start page sent to POST /api/rooms.
type createdRoom struct {
	Game    string            `json:"game"`
	Players int               `json:"players"`
	Variant string            `json:"variant"`
	Options map[string]string `json:"options"`
}

// cutChoices lists the choices of the form's lists (the game picker
// aside) whose words are wider than their list shows.
const cutChoices = `(() => {
  const ctx = document.createElement("canvas").getContext("2d");
  const cut = [];
  for (const sel of document.querySelectorAll("#app select:not(#game)")) {
    if (!sel.getClientRects().length) continue;
    const cs = getComputedStyle(sel);
    ctx.font = cs.font;
    const room = sel.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20; // the arrow
    for (const o of sel.options) if (ctx.measureText(o.textContent).width > room) cut.push(sel.id + ": " + o.textContent);
  }
  return JSON.stringify(cut);
})()`

// startPage opens the start page in a fresh browser context at w×h.
func startPage(t *testing.T, sv served, name string, w, h int64) page {
	t.Helper()
	c, cancel := chromedp.NewContext(sv.root, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	p := page{t, name, c}
	p.do(onEveryPage(keepCreated), chromedp.EmulateViewport(w, h), chromedp.Navigate(sv.base+"/"))
	p.waitJS("the game list", `document.querySelector("#create") && document.querySelector("#game option[value=woodlouse]")`)
	return p
}

// option finds a catalogue option by name.
func option(t *testing.T, in game.Info, name string) game.Option {
	t.Helper()
	for _, o := range in.Options {
		if o.Name == name {
			return o
		}
	}
	t.Fatalf("%s has no option %s", in.ID, name)
	return game.Option{}
}

// shown reports whether the element sel finds takes up room on the page.
func (p page) shown(sel string) bool {
	p.t.Helper()
	return p.text(fmt.Sprintf(`String(!!document.querySelector(%[1]s) && document.querySelector(%[1]s).getClientRects().length > 0)`, js(sel))) == "true"
}

// TestStartPageSpeaksHuman: the start page names Woodlouse's options and
// their values in words, shows the chosen variant's whole text, hides the
// even easier game's card count unless that variant is chosen (and then
// does not send it), and the room gets what the page showed.
func TestStartPageSpeaksHuman(t *testing.T) {
	sv := serveAndBrowse(t, 3*time.Minute)
	out := artifacts(t)
	in := woodlouse.Game.Info()
	p := startPage(t, sv, "start page", 1366, 768)
	p.typeIn("#game", "woodlouse")

	// Labels and values read as words.
	labels := p.text(`JSON.stringify([...document.querySelectorAll("#app label")].map((l) => l.textContent))`)
	var ls []string
	require.NoError(t, json.Unmarshal([]byte(labels), &ls))
	for _, l := range ls {
		for _, o := range in.Options {
			require.False(t, strings.HasPrefix(l, o.Name+":"), "the label %q is the option's id", l)
		}
	}
	for _, o := range in.Options {
		require.Equal(t, o.Label, p.text(fmt.Sprintf(`document.querySelector("label[for='opt-%s']").textContent`, o.Name)))
		require.Equal(t, o.Text, p.text(fmt.Sprintf(`document.querySelector("[data-for='%s'] .help").firstChild.textContent`, o.Name)), "option %s explained in full", o.Name)
		for _, v := range o.Values {
			require.Equal(t, o.ValueText[v], p.text(fmt.Sprintf(`document.querySelector("#opt-%s option[value='%s']").textContent`, o.Name, v)), "option %s value %s", o.Name, v)
		}
	}
	require.Equal(t, option(t, in, woodlouse.OptAfterLastCard).Default, p.text(`document.querySelector("#opt-after-last-card").value`), "the default is chosen")

	// The seats, in a sentence that follows the number.
	require.Equal(t, "Seats in the room", p.text(`document.querySelector("label[for=players]").textContent`))
	require.Contains(t, p.text(`document.querySelector("#players-text").textContent`), "3 to 6 players. Up to 6 players may join; the host can start as soon as 3 have.")
	p.typeIn("#players", "4")
	require.Contains(t, p.text(`document.querySelector("#players-text").textContent`), "Up to 4 players may join")
	p.typeIn("#players", "9")
	require.Contains(t, p.text(`document.querySelector("#players-text").textContent`), "from 3 to 6")

	// The variant: its name in the list, its whole text below it.
	for _, v := range in.Variants {
		require.Equal(t, v.Name, p.text(fmt.Sprintf(`document.querySelector("#variant option[value='%s']").textContent`, v.ID)))
	}
	variantText := `document.querySelector("#variant-text").textContent`
	require.Equal(t, in.Variants[0].ID, p.text(`document.querySelector("#variant").value`))
	require.Equal(t, in.Variants[0].Text, p.text(variantText))
	require.Equal(t, "true", p.text(`(() => { const e = document.querySelector("#variant-text"); return String(e.scrollHeight <= e.clientHeight + 1 && e.scrollWidth <= e.clientWidth + 1); })()`),
		"the variant's text is not cut")
	require.False(t, p.shown("#opt-even-easier-cards"), "the card count of the even easier game is hidden in the basic game")
	require.True(t, p.shown("#opt-after-last-card"))

	p.typeIn("#variant", woodlouse.EvenEasier)
	require.Equal(t, in.Variants[3].ID, woodlouse.EvenEasier)
	require.Equal(t, in.Variants[3].Text, p.text(variantText), "the text follows the variant")
	require.True(t, p.shown("#opt-even-easier-cards"), "the card count shows for the even easier game")
	p.typeIn("#opt-even-easier-cards", "40")
	p.typeIn("#opt-after-last-card", woodlouse.Stop)
	p.shot(out, "start-woodlouse-laptop.png")
	fits(t, p, "the start page on a laptop", true)

	// Back to the basic game: the card count hides again and is not sent.
	p.typeIn("#variant", woodlouse.Basic)
	require.Equal(t, in.Variants[0].Text, p.text(variantText))
	require.False(t, p.shown("#opt-even-easier-cards"))
	require.False(t, p.shown("#opt-left-out-too"), "four animals: one left out")
	p.typeIn("#players", "3")
	p.tap("#create")
	p.waitJS("the table page", `location.pathname.startsWith("/t/") && document.querySelector(".code")`)
	var sent createdRoom
	require.NoError(t, json.Unmarshal([]byte(p.text(`sessionStorage.getItem("created") || "{}"`)), &sent))
	require.Equal(t, createdRoom{Game: "woodlouse", Players: 3, Variant: woodlouse.Basic, Options: map[string]string{woodlouse.OptAfterLastCard: woodlouse.Stop, woodlouse.OptLeftOut: woodlouse.LeftOutRandom}}, sent,
		"the hidden card count is not sent")

	// The even easier game with 40 cards: sent, and the game has four
	// animals, as it does with 40 cards (three with 30).
	p = startPage(t, sv, "start page again", 1366, 768)
	p.typeIn("#variant", woodlouse.EvenEasier)
	require.True(t, p.shown("#opt-left-out-too"), "a game of three animals may be chosen: the second animal left out shows")
	p.typeIn("#opt-even-easier-cards", "40")
	p.typeIn("#players", "3")
	p.tap("#create")
	p.waitJS("the table page", `location.pathname.startsWith("/t/") && document.querySelector(".code")`)
	sent = createdRoom{}
	require.NoError(t, json.Unmarshal([]byte(p.text(`sessionStorage.getItem("created") || "{}"`)), &sent))
	require.Equal(t, map[string]string{woodlouse.OptAfterLastCard: woodlouse.FreeGuess, woodlouse.OptEvenEasierCards: "40",
		woodlouse.OptLeftOut: woodlouse.LeftOutRandom, woodlouse.OptLeftOutToo: woodlouse.LeftOutRandom}, sent.Options,
		"the second animal left out is a choice of the even easier game (it counts only with 30 cards)")
	room := p.text(`document.querySelector(".code").textContent`)
	host := p.text(fmt.Sprintf(`localStorage.getItem("tableref.host.%s") || ""`, room))
	require.NotEmpty(t, host)
	for _, name := range []string{"Ann", "Bob", "Cy"} {
		post(t, sv.base+"/api/rooms/"+room+"/join", "", map[string]any{"name": name}, nil)
	}
	post(t, sv.base+"/api/rooms/"+room+"/start", host, map[string]any{}, nil)
	res, err := http.Get(sv.base + "/api/rooms/" + room + "/table")
	require.NoError(t, err)
	defer res.Body.Close()
	var table struct {
		View struct {
			Variant string
			Order   []string
		}
	}
	require.NoError(t, json.NewDecoder(res.Body).Decode(&table))
	require.Equal(t, woodlouse.EvenEasier, table.View.Variant)
	require.Len(t, table.View.Order, 4, "40 cards: four animals")

	// A phone.
	p = startPage(t, sv, "start page on a phone", 360, 740)
	p.typeIn("#variant", woodlouse.EvenEasier)
	p.shot(out, "start-woodlouse-phone.png")
	fits(t, p, "the start page on a phone", true)
}

// TestStartPageShowsEveryGameInWords: every game of the picker, with each
// of its variants, shows labels and value texts from the catalogue, no
// value left unfilled, and fits a phone; an option for some player counts
// only says so when the seats allow others, and a fixed count is said.
func TestStartPageShowsEveryGameInWords(t *testing.T) {
	sv := serveAndBrowse(t, 3*time.Minute)
	out := artifacts(t)
	p := startPage(t, sv, "start page on a phone", 360, 740)
	var ids []string
	require.NoError(t, json.Unmarshal([]byte(p.text(`JSON.stringify([...document.querySelectorAll("#game option")].map((o) => o.value))`)), &ids))
	require.Equal(t, append(catalog.IDs(), "deck"), ids)
	for _, id := range ids {
		g, err := catalog.Get(id)
		require.NoError(t, err)
		in := g.Info()
		p.typeIn("#game", id)
		p.waitJS(id+"'s form", fmt.Sprintf(`document.querySelector("#app .muted") && [...document.querySelectorAll("#app p.muted")].some((e) => e.textContent === %s)`, js(in.Summary)))
		variants := []string{""}
		for _, v := range in.Variants {
			variants = append(variants, v.ID)
		}
		for _, v := range variants[min(1, len(variants)-1):] {
			if v != "" {
				p.typeIn("#variant", v)
			}
			p.noLeftovers()
			for _, bad := range []string{"undefined", "NaN", "null", "[object Object]"} {
				require.NotContains(t, p.text(`document.body.innerText`), bad, "%s %s", id, v)
			}
			for _, o := range in.Options {
				sel := "#opt-" + o.Name
				require.Equal(t, o.AppliesTo(v, 0), p.shown(sel), "%s variant %q: option %s shown where it applies", id, v, o.Name)
				if !p.shown(sel) {
					continue
				}
				require.Equal(t, o.Label, p.text(fmt.Sprintf(`document.querySelector("label[for='opt-%s']").textContent`, o.Name)))
				for _, val := range o.Values {
					require.Equal(t, o.ValueText[val], p.text(fmt.Sprintf(`document.querySelector("%s option[value='%s']").textContent`, sel, val)))
				}
			}
			fits(t, p, fmt.Sprintf("%s %s on a phone", id, v), true)
			require.Equal(t, "[]", p.text(cutChoices), "%s %s: choices cut short on a phone", id, v)
		}
		p.shot(out, "start-"+id+"-phone.png")
		if in.MinPlayers == in.MaxPlayers {
			want := fmt.Sprintf("For exactly %d players.", in.MinPlayers)
			if in.MinPlayers == 1 {
				want = "For exactly 1 player."
			}
			require.Contains(t, p.text(`document.querySelector("#players-text").textContent`), want)
			require.False(t, p.shown("#players"), "no seat count to choose")
		}
	}

	// Jerks in a Minefield: the two-player turns say they are for two
	// players once a third seat may join, and not when only two may.
	p.typeIn("#game", "minefield")
	note := `document.querySelector("[data-for=pair] .only").textContent`
	p.typeIn("#players", "2")
	require.Equal(t, "", p.text(note))
	p.typeIn("#players", "3")
	require.Equal(t, " Only when exactly 2 players play.", p.text(note))
	require.True(t, p.shown("#opt-pair"), "a room of three seats may start with two")
	// The Louse and the Flea: six seats may start with fewer.
	p.typeIn("#game", "louseflea")
	require.True(t, p.shown("#opt-small-table"))
	require.Equal(t, " Only with 5 players or fewer.", p.text(`document.querySelector("[data-for=small-table] .only").textContent`))
}
