package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/rules/woodlouse"
)

// TestTheTableIsTheStage plays a card of Woodlouse Chaos on the table, the
// trainer's phone and two guessers' phones:
//   - the table's turn and timer are at least 48 px on a 1366×768 laptop,
//     and larger on a 1920×1080 TV;
//   - the trainer's wrong code gives the trainer's phone a red result
//     banner and the table a "Wrong code!" headline;
//   - a right guess gives the guesser's phone a green banner ("wins the
//     card"), the table the headline (what the referee says: "… right!"),
//     and the other guesser one line of news.
func TestTheTableIsTheStage(t *testing.T) {
	sv := serveAndBrowse(t, 3*time.Minute)
	out := artifacts(t)
	room, host, toks := startedRoom(t, sv.base, "woodlouse", "Ann", "Bob", "Cy")
	post(t, sv.base+"/api/rooms/"+room+"/timers", host, map[string]any{"name": "sand", "action": "create", "seconds": 90}, nil)

	tables := map[string]page{}
	size := map[string]float64{}
	for _, s := range []struct {
		name string
		w, h int64
	}{{"laptop", 1366, 768}, {"tv", 1920, 1080}} {
		c, cancel := chromedp.NewContext(sv.root, chromedp.WithNewBrowserContext())
		t.Cleanup(cancel)
		p := page{t, "table " + s.name, c}
		p.do(chromedp.EmulateViewport(s.w, s.h), chromedp.Navigate(sv.lan+"/t/"+room))
		p.waitJS("the turn and the timer", `document.querySelector(".toprow #banner") && document.querySelector("[data-timer]")`)
		banner := atof(t, p.text(`getComputedStyle(document.querySelector("#banner")).fontSize`))
		timer := atof(t, p.text(`getComputedStyle(document.querySelector("[data-timer]")).fontSize`))
		require.GreaterOrEqual(t, banner, 48.0, "%s: the turn reads across a room", s.name)
		require.GreaterOrEqual(t, timer, 48.0, "%s: the timer reads across a room", s.name)
		fits(t, p, s.name+" in play", false)
		size[s.name] = banner
		tables[s.name] = p
	}
	require.Greater(t, size["tv"], size["laptop"], "a TV scales the turn up")
	table := tables["laptop"]
	require.Regexp(t, `^Draws sealed: [0-9a-f]{4}(-[0-9a-f]{4}){3}$`, table.text(`document.querySelector("#seal").textContent`), "the seed's seal, from the start")

	trainer := trainerOf(t, sv, room, toks)
	right := seatLegal(t, sv.base, room, toks[trainer])[0].Args
	bangs, _ := strconv.Atoi(right[0])
	claps, _ := strconv.Atoi(right[1])
	wrong := 1
	if claps == 1 {
		wrong = 2
	}
	tp := seatPhone(t, sv, room, toks[trainer], "trainer")
	tp.waitJS("the code picker", `document.querySelector("#bang-more")`)
	for i := 0; i < bangs; i++ {
		tp.tap("#bang-more")
	}
	for i := 0; i < wrong; i++ {
		tp.tap("#clap-more")
	}
	tp.tap("#code-send")
	tp.tap("#code-send")
	tp.waitJS("the result banner", `document.querySelector("#result.bad")`)
	require.Contains(t, tp.text(`document.querySelector("#result").textContent`), "Wrong code!")
	tp.shot(out, "stage-phone-wrong-code.png")
	fits(t, tp, "the trainer's phone with its result", true)
	table.waitJS("the headline", `document.querySelector("#headline.show.bad")`)
	require.Contains(t, table.text(`document.querySelector("#headline").textContent`), "Wrong code!")
	table.shot(out, "stage-table-wrong-code.png")

	// The next trainer gives the right code; one guesser guesses right.
	next := trainerOf(t, sv, room, toks)
	code := seatLegal(t, sv.base, room, toks[next])[0]
	species, count := cardOf(t, sv, room, toks[next])
	post(t, sv.base+"/api/rooms/"+room+"/moves", toks[next], map[string]any{"move": "code " + strings.Join(code.Args, " ")}, nil)

	var guessers []int
	for i := range toks {
		if i != next {
			guessers = append(guessers, i)
		}
	}
	gp := seatPhone(t, sv, room, toks[guessers[0]], "guesser")
	other := seatPhone(t, sv, room, toks[guessers[1]], "other guesser")
	other.waitJS("its moves", `document.querySelector('button[data-action="guess"]')`)
	gp.waitJS("the animals", fmt.Sprintf(`document.querySelector('button[data-action="guess"][data-args=%s]')`, js(string(species))))
	gp.tap(fmt.Sprintf(`button[data-action="guess"][data-args=%s]`, js(string(species))))
	gp.waitJS("the numbers", fmt.Sprintf(`document.querySelector('button.primary[data-action="guess"][data-args=%s]')`, js(string(species)+" "+count)))
	gp.tap(fmt.Sprintf(`button.primary[data-action="guess"][data-args=%s]`, js(string(species)+" "+count)))
	gp.waitJS("the result banner", `document.querySelector("#result.good")`)
	require.Contains(t, gp.text(`document.querySelector("#result").textContent`), "wins the card")
	gp.shot(out, "stage-phone-right-guess.png")
	table.waitJS("the headline", `document.querySelector("#headline.show.good") && /right!/.test(document.querySelector("#headline").textContent)`)
	other.waitJS("one line of news", `document.querySelector("#news") && /right!/.test(document.querySelector("#news").textContent)`)
	require.Empty(t, other.text(`document.querySelector("#result") ? "a banner" : ""`), "the banner is for the phone that acted")
	other.shot(out, "stage-phone-news.png")
	for _, p := range []page{tp, gp, other, table} {
		p.noLeftovers()
	}
}

// trainerOf is the seat of a Woodlouse room whose phone is offered the
// code: the trainer's.
func trainerOf(t *testing.T, sv served, room string, toks []string) int {
	t.Helper()
	for i, tok := range toks {
		if l := seatLegal(t, sv.base, room, tok); len(l) > 0 && l[0].Action == "code" {
			return i
		}
	}
	t.Fatal("no seat is offered the code")
	return -1
}

// cardOf is the Woodlouse card the trainer (tok) sees, as a guess names
// it: its animal and its number ("4 spiders": spider, "4").
func cardOf(t *testing.T, sv served, room, tok string) (woodlouse.Species, string) {
	t.Helper()
	var tv struct {
		View struct {
			Card string `json:"card"`
		} `json:"view"`
	}
	get(t, sv.base+"/api/rooms/"+room+"/view", tok, &tv)
	f := strings.Fields(tv.View.Card)
	require.Len(t, f, 2, "the trainer sees the card: %q", tv.View.Card)
	species, err := woodlouse.ParseSpecies(f[1])
	require.NoError(t, err)
	return species, f[0]
}

// get reads a JSON answer with a token.
func get(t *testing.T, url, tok string, into any) {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+tok)
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	require.Equal(t, 200, res.StatusCode, url)
	require.NoError(t, json.NewDecoder(res.Body).Decode(into))
}
