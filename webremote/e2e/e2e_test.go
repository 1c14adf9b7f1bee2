// Package e2e plays the web remote in real headless Chromium: a host and
// three phones join a Woodlouse Chaos room, play, and one phone reloads and
// resumes its seat; every game's phone and table pages are drawn. The
// phones open the server by a network name (tableref.lan, mapped to
// 127.0.0.1), as phones on the home network do: plain http and not a
// secure context, so without the Screen Wake Lock; the host's screen opens
// 127.0.0.1, as the laptop does.
//
// Screenshots are always written, to $TABLEREF_ARTIFACTS when it is set and
// else to $TMPDIR/tableref-e2e (kept after the test); the test logs where.
// docs/screenshots holds a selection of them.
package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/rules/game"
	"github.com/tableref/tableref/rules/woodlouse"
	"github.com/tableref/tableref/webremote"
)

// browser finds Chromium, or skips (fails when a browser is required).
func browser(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("TABLEREF_REQUIRE_SHARED") == "1" || os.Getenv("TABLEREF_REQUIRE_BROWSER") == "1" {
		t.Fatal("no Chromium found (apt-get install chromium), and a browser is required")
	}
	t.Skip("no Chromium found (apt-get install chromium)")
	return ""
}

// artifacts is the directory the screenshots go to: $TABLEREF_ARTIFACTS,
// or $TMPDIR/tableref-e2e, kept after the test so that people can look at
// them.
func artifacts(t *testing.T) string {
	dir := os.Getenv("TABLEREF_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "tableref-e2e")
	}
	require.NoError(t, os.MkdirAll(dir, 0o755))
	t.Logf("screenshots in %s", dir)
	return dir
}

type page struct {
	t    *testing.T
	name string
	ctx  context.Context
}

// patience bounds every wait for a page to reach a state. It is long
// because CI shares two cores among Chromium, the server and the other
// packages' tests; a wait costs only as long as the page takes.
const patience = 90 * time.Second

// poll is how often a wait looks again.
const poll = 50 * time.Millisecond

// do runs browser-level steps that hold on to no node of the page:
// navigating, reloading, the viewport.
func (p page) do(steps ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	require.NoError(p.t, chromedp.Do(p.ctx, steps...), "%s", p.name)
}

// failf fails the test with what the page shows.
func (p page) failf(format string, args ...any) {
	p.t.Helper()
	body, _ := chromedp.Run(p.ctx, chromedp.Evaluate[string]("document.body ? document.body.innerText : ''"))
	p.t.Fatalf("%s: %s\npage text:\n%s", p.name, fmt.Sprintf(format, args...), body)
}

// waitJS waits until the expression is truthy (across page loads and the
// page's redraws).
func (p page) waitJS(what, expr string) {
	p.t.Helper()
	deadline := time.Now().Add(patience)
	var last error
	for {
		ok, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool]("!!("+expr+")"))
		if err == nil && ok {
			return
		}
		last = err
		if time.Now().After(deadline) {
			p.failf("waited %v in vain for %s (%v)", patience, what, last)
		}
		time.Sleep(poll)
	}
}

// text evaluates a string expression; an evaluation that fails (the page
// between two documents) is tried again.
func (p page) text(expr string) string {
	p.t.Helper()
	deadline := time.Now().Add(patience)
	for {
		s, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](expr))
		if err == nil {
			return s
		}
		if time.Now().After(deadline) {
			p.failf("%s: %v", expr, err)
		}
		time.Sleep(poll)
	}
}

// actJS is what every act runs before its body: ready(sel) returns the
// element that sel finds (or sel itself, an element) once a person could tap it (present, enabled,
// shown and not covered, scrolled into view) and otherwise throws a Wait
// saying why not; tap(sel) taps it; type(sel, value) enters a value as
// typing does (input and change events).
const actJS = `
class Wait { constructor(why) { this.why = why; } }
const ready = (sel) => {
  const e = typeof sel === "string" ? document.querySelector(sel) : sel;
  if (typeof sel !== "string") sel = sel ? sel.outerHTML.slice(0, 60) : "the element";
  if (!e) throw new Wait(sel + " is not on the page");
  if (e.disabled) throw new Wait(sel + " is disabled");
  e.scrollIntoView({ block: "center", inline: "center" });
  const r = e.getBoundingClientRect();
  if (r.width === 0 || r.height === 0) throw new Wait(sel + " is not shown");
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  if (!top || !(top === e || e.contains(top))) throw new Wait(sel + " is covered by " + (top ? top.outerHTML.slice(0, 80) : "nothing"));
  return e;
};
const tap = (sel) => { ready(sel).click(); };
const type = (sel, value) => {
  const e = ready(sel);
  e.value = value;
  e.dispatchEvent(new Event("input", { bubbles: true }));
  e.dispatchEvent(new Event("change", { bubbles: true }));
};
`

// act runs body, JavaScript that finds what it needs and acts on it, in
// one evaluation: the page's own script cannot run in between, so a state
// pushed by the server cannot replace an element after it was found and
// before it was used. Until the body stops throwing Wait (an element not
// there yet, disabled, covered) it is run again, finding everything
// afresh, for as long as patience allows. A body that has done part of
// its work must not throw Wait after it: it checks with ready() first and
// acts after. It runs as a user gesture, as a tap does; act returns what
// the body returns, as a string.
func (p page) act(what, body string) string {
	p.t.Helper()
	script := "(() => {" + actJS + "try { return { done: true, value: String((() => {" + body + "})() ?? '') }; } " +
		"catch (e) { if (e instanceof Wait) return { done: false, why: e.why }; throw e; } })()"
	deadline := time.Now().Add(patience)
	for {
		r, err := chromedp.Run(p.ctx, chromedp.Evaluate[actResult](script, asUserGesture))
		if err == nil && r.Done {
			return r.Value
		}
		why := r.Why
		if err != nil {
			why = err.Error()
		}
		if time.Now().After(deadline) {
			p.failf("could not %s within %v: %s", what, patience, why)
		}
		time.Sleep(poll)
	}
}

// actResult is what an act's script answers.
type actResult struct {
	Done       bool
	Value, Why string
}

// asUserGesture runs an evaluation as if the user had started it, as a
// tap does (a video may then start playing, for one).
func asUserGesture(e *runtime.EvaluateParams) { e.UserGesture = new(bool); *e.UserGesture = true }

// tap taps the element sel finds, once it can be tapped.
func (p page) tap(sel string) {
	p.t.Helper()
	p.act("tap "+sel, fmt.Sprintf("tap(%s)", js(sel)))
}

// type enters value in the field sel finds.
func (p page) typeIn(sel, value string) {
	p.t.Helper()
	p.act("type in "+sel, fmt.Sprintf("type(%s, %s)", js(sel), js(value)))
}

// fold opens (or closes) the <details> element sel finds, and waits until
// it is so.
func (p page) fold(sel string, open bool) {
	p.t.Helper()
	p.act(fmt.Sprintf("set %s open=%v", sel, open), fmt.Sprintf(`const d = document.querySelector(%[1]s);
		if (!d) throw new Wait(%[1]s + " is not on the page");
		if (d.open === %[2]v) return;
		ready(%[1]s + " summary").click();
		throw new Wait("tapped its summary: not open=%[2]v yet");`, js(sel), open))
}

// js is s as a JavaScript string literal.
func js(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func (p page) shot(dir, file string) {
	p.t.Helper()
	_, _ = chromedp.Run(p.ctx, chromedp.Evaluate[bool]("window.scrollTo(0, 0), true"))
	png, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100))
	require.NoError(p.t, err)
	require.NoError(p.t, os.WriteFile(filepath.Join(dir, file), png, 0o644))
}

// lanName is the server's name on the "home network": the browser maps it
// to 127.0.0.1, and to it http://tableref.lan:PORT is not a secure context.
const lanName = "tableref.lan"

// served is a web remote on loopback and a headless Chromium.
type served struct {
	srv  *webremote.Server
	base string // http://127.0.0.1:PORT: the laptop's own view of the server
	lan  string // http://tableref.lan:PORT: the phones' (and the QR code's)
	root context.Context
}

// serveAndBrowse starts a web remote on loopback and a headless Chromium,
// both stopped when the test ends (each page opens its own browser context
// from root). games, when given, are the server's games (the catalogue's
// otherwise).
func serveAndBrowse(t *testing.T, limit time.Duration, games ...game.Game) served {
	t.Helper()
	return serveSeeded(t, limit, nil, games...)
}

// serveSeeded is serveAndBrowse whose games are dealt from seeds (nil:
// random ones), so that a test that plays random games sees the same games
// every run.
func serveSeeded(t *testing.T, limit time.Duration, seeds func() uint64, games ...game.Game) served {
	t.Helper()
	exe := browser(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := ln.Addr().(*net.TCPAddr).Port
	lan := fmt.Sprintf("http://%s:%d", lanName, port)
	srv := webremote.New(webremote.Config{RateLimit: -1, PublicURL: lan, Games: games, Seed: seeds}) // every page comes from 127.0.0.1
	go srv.Serve(ln)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
	})
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.Headless,
		chromedp.Flag("disable-gpu", true), chromedp.Flag("disable-dev-shm-usage", true), chromedp.WindowSize(1280, 900),
		chromedp.Flag("host-resolver-rules", "MAP "+lanName+" 127.0.0.1"),
		chromedp.Flag("autoplay-policy", "user-gesture-required")) // as on phones: a video with sound waits for a tap
	alloc, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	root, cancelRoot := chromedp.NewContext(alloc)
	t.Cleanup(func() { cancelRoot(); cancelAlloc(); cancel() })
	require.NoError(t, chromedp.Do(root)) // start the browser
	return served{srv: srv, base: "http://" + ln.Addr().String(), lan: lan, root: root}
}

// counting is a seed sequence 1, 2, 3… for serveSeeded.
func counting() func() uint64 {
	var mu sync.Mutex
	n := uint64(0)
	return func() uint64 {
		mu.Lock()
		defer mu.Unlock()
		n++
		return n
	}
}

// noLeftovers fails when a page shows a value the code did not fill in.
func (p page) noLeftovers() {
	p.t.Helper()
	body := p.text("document.body.innerText")
	for _, bad := range []string{"undefined", "null", "NaN", "[object"} {
		require.NotContains(p.t, body, bad, "%s shows %q", p.name, bad)
	}
}

func TestAHostAndThreePhonesPlayWoodlouse(t *testing.T) {
	out := artifacts(t)
	sv := serveAndBrowse(t, 5*time.Minute)
	base, root := sv.base, sv.root

	// The host creates the room on the laptop.
	hostCtx, cancelHost := chromedp.NewContext(root, chromedp.WithNewBrowserContext())
	defer cancelHost()
	host := page{t, "host", hostCtx}
	host.do(chromedp.EmulateViewport(1920, 1080), chromedp.Navigate(base+"/"))
	host.waitJS("the game list", `document.querySelector("#create") && document.querySelector("#game option[value=woodlouse]")`)
	require.Contains(t, host.text(`document.querySelector("#game option[value=deck]").textContent`), "Dealer: any card game", "the dealer can be created from the start page")
	host.typeIn("#game", "woodlouse")
	host.typeIn("#players", "5")
	host.tap("#create")
	host.waitJS("the table page", `location.pathname.startsWith("/t/") && document.querySelector(".code")`)
	room := host.text(`document.querySelector(".code").textContent`)
	require.Regexp(t, `^[A-Z]{4}$`, room)
	host.waitJS("the QR code", `document.querySelector("img.qr").complete && document.querySelector("img.qr").naturalWidth > 0`)
	require.Equal(t, sv.lan+"/j/"+room, host.text(`document.querySelector("#join-url").textContent`),
		"the table shows the server's join address, not its own 127.0.0.1")

	require.Equal(t, "true", host.text(`String(document.querySelector("#start").disabled)`), "nobody has joined: the start waits")
	require.Contains(t, host.text(`document.querySelector("#start").textContent`), "of at least 3")

	// Three phones join, each in its own browser context (its own storage),
	// at the server's network address.
	names := []string{"Ann", "Bob", "Cy"}
	phones := make([]page, 3)
	for i, name := range names {
		c, cancel := chromedp.NewContext(root, chromedp.WithNewBrowserContext())
		defer cancel()
		p := page{t, "phone " + name, c}
		p.do(chromedp.EmulateViewport(360, 740, chromedp.EmulateScale(2)), chromedp.Navigate(sv.lan+"/j/"+room))
		p.act("join as "+name, fmt.Sprintf(`const b = ready("#join"); type("#name", %s); b.click()`, js(name)))
		p.waitJS("the seat", fmt.Sprintf(`document.querySelector("#me") && document.querySelector("#me").textContent === %q`, name))
		phones[i] = p
	}
	host.waitJS("three players on the table", `document.querySelectorAll(".player").length === 3`)
	require.Equal(t, "Start with 3 players", host.text(`document.querySelector("#start").textContent`), "five seats, three joined: the host may start")
	require.Equal(t, "false", host.text(`String(document.querySelector("#host-panel").open)`), "the host's controls are folded away")
	host.shot(out, "table-lobby.png")
	phones[0].shot(out, "phone-lobby.png")

	// The host starts; exactly one phone is the trainer, with the code picker.
	host.tap("#start")
	trainer := -1
	for i, p := range phones {
		p.waitJS("the moves, or whom it waits for", `document.querySelector("#code-send") || document.querySelector("#waiting")`)
		if p.text(`document.querySelector("#code-send") ? "yes" : "no"`) == "yes" {
			require.Less(t, trainer, 0, "two phones offer the trainer's code")
			trainer = i
		}
	}
	require.GreaterOrEqual(t, trainer, 0, "no phone offers the trainer's code")
	tr := phones[trainer]

	// Phones on the network are not a secure context: no Screen Wake Lock.
	// The phone keeps its screen on with a muted looping video instead,
	// started at once or on the next tap.
	require.Equal(t, "false", tr.text(`String(window.isSecureContext)`))
	require.Equal(t, "false", tr.text(`String("wakeLock" in navigator)`))
	tr.waitJS("the wake lock's stand-in chosen", `["video", "tap"].includes(document.body.dataset.awake)`)
	t.Logf("keeping the screen on: %s before a tap", tr.text(`document.body.dataset.awake`))
	tr.tap("#banner")
	tr.waitJS("the video playing", `document.body.dataset.awake === "video" && !document.querySelector("#awake-video").paused && document.querySelector("#awake-video").muted`)

	cardText := tr.text(`document.querySelector("#card") ? document.querySelector("#card").textContent : ""`)
	require.Regexp(t, `^[1-5] [a-z]+$`, cardText, "the trainer sees the card")
	for i, p := range phones {
		if i != trainer {
			require.NotContains(t, p.text("document.body.innerText"), cardText, "%s must not see the trainer's card", p.name)
			p.waitJS("nothing to do", `document.querySelector("#waiting") && document.querySelector("#waiting").textContent.includes("waiting for `+names[trainer]+`")`)
		}
	}
	require.NotContains(t, host.text("document.body.innerText"), cardText, "the table must not see the trainer's card")
	cardTop := tr.text(`String(document.querySelector("#card").getBoundingClientRect().bottom)`)
	require.Less(t, atof(t, cardTop), 740.0, "the trainer's card is on the first screen")

	// What the microphone hears and a running timer, as a party shows them.
	require.NoError(t, sv.srv.SetLive(room, "hearing", map[string]any{
		"mic":      map[string]any{"listening": true, "input": "USB microphone", "message": "listening to USB microphone"},
		"gestures": []map[string]any{{"kind": "bang", "t": 1.2}, {"kind": "bang", "t": 1.6}, {"kind": "clap", "t": 2.3}},
	}))
	host.fold("#host-panel", true)
	host.act("create the timer", `const go = ready('[data-timer-action="create"]'); type("#timer-name", "round"); type("#timer-seconds", "90"); go.click()`)
	host.waitJS("the timer", `document.querySelector('[data-timer="round"]')`)
	host.tap(`[data-timer-action="start"]`)
	tr.waitJS("the microphone and the timer on the phone", `document.querySelector("#hearing") && document.querySelector('[data-timer="round"]')`)
	tr.shot(out, "phone-trainer.png")

	// The trainer enters the right code on the phone (the microphone's
	// stand-in): bangs for the animal's place in the row, claps for the
	// count. It starts at nothing and asks to be sure.
	card, err := woodlouse.ParseGuess(strings.Fields(cardText))
	require.NoError(t, err)
	place := tr.text(fmt.Sprintf(`String([...document.querySelectorAll(".seqcard")].findIndex(c => c.lastChild.textContent === %q) + 1)`, string(card.Species)))
	require.NotEqual(t, "0", place, "the sequence cards show %s", card.Species)
	require.Equal(t, "0 bangs + 0 claps", tr.text(`document.querySelector("#code-out").textContent`))
	require.Equal(t, "true", tr.text(`String(document.querySelector("#code-send").disabled)`), "no code to send yet")
	// enter taps + for each bang and clap, then Send once, in one go: what
	// is entered lives in the page, and a push redraws it.
	want := fmt.Sprintf("%s bang%s + %d clap%s", place, map[bool]string{true: "", false: "s"}[place == "1"], card.Count, map[bool]string{true: "", false: "s"}[card.Count == 1])
	enter := fmt.Sprintf(`const enter = () => {
		const b = ready("#bang-more"), c = ready("#clap-more"), bl = ready("#bang-less"), cl = ready("#clap-less");
		if (!document.querySelector("#code-send")) throw new Wait("#code-send is not on the page");
		for (let i = 0; i < 5; i++) { bl.click(); cl.click(); } // from nothing
		for (let i = 0; i < %s; i++) b.click();
		for (let i = 0; i < %d; i++) c.click();
		if (document.querySelector("#code-out").textContent !== %s) throw new Error("entered " + document.querySelector("#code-out").textContent);
		ready("#code-send").click();
	};`, place, card.Count, js(want))
	armed := tr.act("enter the code", enter+`enter(); return document.querySelector("#code-send").textContent`)
	require.Contains(t, armed, "Tap again to send "+want, "one tap does not send")
	time.Sleep(300 * time.Millisecond) // a sent code would reach the table by now
	require.NotRegexp(t, names[trainer]+` gives \d`, host.text("document.body.innerText"), "nothing sent on one tap")
	// The second tap sends; if a push (or the four seconds) disarmed the
	// first, the code is entered and tapped again.
	again := tr.act("send the code", enter+`const s = document.querySelector("#code-send");
		if (s && s.classList.contains("armed") && document.querySelector("#code-out").textContent === `+js(want)+`) { ready("#code-send").click(); return "sent"; }
		enter(); ready("#code-send").click(); return "entered again and sent";`)
	t.Logf("the code: %s", again)

	guesser := phones[(trainer+1)%3]
	guesser.waitJS("the guesses", `document.querySelector('button[data-action="guess"]')`)
	require.Equal(t, "quiet", guesser.text(`document.querySelector('button[data-action="pass"]').className`), "passing looks unlike the guesses")
	// A guess is two taps, an animal then a count; a push between them
	// wipes the animal, so the second tap picks it again when it is gone.
	// The animal is one not on the card: a right guess would make the card
	// public, and the table and the TV are checked below for keeping it secret.
	wrong := fmt.Sprintf(`[...document.querySelectorAll('button[data-action="guess"]')].find(b => b.dataset.args !== %s)`, js(string(card.Species)))
	guesser.act("pick an animal not on the card", "ready("+wrong+").click()")
	guesser.waitJS("the count buttons", `document.querySelector('button.primary[data-args]')`)
	guesser.shot(out, "phone-guessing.png")
	guesser.act("guess", `if (!document.querySelector('button.primary[data-args]')) ready(`+wrong+`).click();
		ready('button.primary[data-args]').click()`)
	host.waitJS("the guess announced on the table", fmt.Sprintf(`document.body.innerText.includes(%q + " calls")`, names[(trainer+1)%3]))
	require.NotContains(t, host.text("document.body.innerText"), "right!", "the guess was of another animal")
	require.Contains(t, host.text("document.body.innerText"), names[trainer]+" gives")
	host.fold("#host-panel", false) // folded again
	readable(t, host)
	host.shot(out, "table-play.png")
	host.noLeftovers()

	// A TV opens the table's address without the host's key: the public
	// table, read-only.
	tvCtx, cancelTV := chromedp.NewContext(root, chromedp.WithNewBrowserContext())
	defer cancelTV()
	tv := page{t, "tv", tvCtx}
	tv.do(chromedp.EmulateViewport(1920, 1080), chromedp.Navigate(sv.lan+"/t/"+room))
	tv.waitJS("the public table", `document.querySelector(".seqcards") && document.body.innerText.includes(" calls")`)
	require.Equal(t, "no", tv.text(`document.querySelector("#host-panel, #start, button[title^=remove]") ? "yes" : "no"`), "no host control on the TV")
	require.NotContains(t, tv.text("document.body.innerText"), cardText)
	tv.shot(out, "table-tv.png")

	// A phone reloads (a locked screen, a closed tab): it resumes its seat.
	other := phones[(trainer+2)%3]
	other.do(chromedp.Reload())
	other.waitJS("the resumed seat", fmt.Sprintf(`document.querySelector("#me") && document.querySelector("#me").textContent === %q`, names[(trainer+2)%3]))
	require.Equal(t, "no", other.text(`document.querySelector("#name") ? "yes" : "no"`), "no join form after a reload")
	require.True(t, strings.Contains(other.text("document.body.innerText"), "calls"), "the resumed phone sees what happened")
	other.shot(out, "phone-resumed.png")
	other.noLeftovers()
}

// readable checks that the table screen is made to be read across a room:
// the turn banner is larger than the text, and the public state has most
// of the width.
func readable(t *testing.T, p page) {
	t.Helper()
	banner := atof(t, p.text(`getComputedStyle(document.querySelector("#banner")).fontSize`))
	body := atof(t, p.text(`getComputedStyle(document.body).fontSize`))
	require.GreaterOrEqual(t, banner, 1.5*body, "the banner (%.0f px) stands out from the text (%.0f px)", banner, body)
	require.GreaterOrEqual(t, body, 24.0, "text readable from across a room")
	main := atof(t, p.text(`String(document.querySelector(".tablegrid").firstElementChild.getBoundingClientRect().width)`))
	require.GreaterOrEqual(t, main, 0.6*1920-64, "the public state has most of the screen")
}

func atof(t *testing.T, s string) float64 {
	t.Helper()
	var f float64
	_, err := fmt.Sscanf(strings.TrimSuffix(s, "px"), "%g", &f)
	require.NoError(t, err, "%q", s)
	return f
}

// TestEveryGameRendersOnThePhoneAndTheTable opens, for each game, one seat's
// phone page (360 px wide) and the table page (1920×1080) of a started room
// and checks that the game is drawn (its own renderer, not the fallback),
// with no script error and no value left unfilled.
func TestEveryGameRendersOnThePhoneAndTheTable(t *testing.T) {
	out := artifacts(t)
	sv := serveAndBrowse(t, 8*time.Minute)
	base := sv.base

	// What only each game's own renderer writes, and what the first seat's
	// phone draws of its private view.
	heading := map[string]string{
		"woodlouse": "SEQUENCE CARDS", "louseflea": "THE STORY", "troll": "THE BRIDGE", "celestial": "THE FIGHT",
		"pursesnatcher": "YOU ARE THE", "insomnia": "VOICES", "minefield": "THE FIELD", "deck": "THE TABLE",
	}
	phoneShows := map[string]string{
		"woodlouse": "#card", "louseflea": ".card.word", "troll": ".bridge", "celestial": ".card",
		"pursesnatcher": ".banner", "insomnia": ".card", "minefield": ".grid5 .tok", "deck": ".card",
	}
	// A phone and a table tab, kept from game to game.
	tabs := map[string]*tab{"phone": openTab(t, sv, "phone", screen{"phone", 360, 740}), "table": openTab(t, sv, "table", screen{"tv", 1920, 1080})}
	tabs["phone"].do(chromedp.EmulateViewport(360, 740, chromedp.EmulateScale(2)))
	for _, id := range []string{"woodlouse", "louseflea", "troll", "celestial", "pursesnatcher", "insomnia", "minefield", "deck"} {
		t.Run(id, func(t *testing.T) {
			room, hostTok, seatTok := startRoom(t, base, id)
			if id == "insomnia" || id == "woodlouse" { // a party without a microphone
				require.NoError(t, sv.srv.SetLive(room, "hearing", map[string]any{
					"mic": map[string]any{"listening": false, "message": "the referee is not listening to the table"}, "talking": true,
				}))
			}
			for _, side := range []struct{ name, path, key, tok string }{
				{"phone", "/j/" + room, "tableref.seat." + room, seatTok},
				{"table", "/t/" + room, "tableref.host." + room, hostTok},
			} {
				tb := tabs[side.name]
				tb.moveTo(t, id+" "+side.name)
				p := tb.page
				p.do(chromedp.Navigate(base+"/static/app.css"),
					chromedp.Evaluate[chromedp.Void](fmt.Sprintf("localStorage.setItem(%q, %q)", side.key, side.tok)),
					chromedp.Navigate(base+side.path))
				want := heading[id]
				if side.name == "table" && id == "pursesnatcher" {
					want = "THE MEETING"
				}
				p.waitJS(id+" drawn", fmt.Sprintf(`document.querySelector("#banner") && document.body.innerText.toUpperCase().includes(%q)`, want))
				if side.name == "phone" {
					p.waitJS(id+"'s private view", fmt.Sprintf(`document.querySelector(%q)`, phoneShows[id]))
				} else {
					readable(t, p)
				}
				p.noLeftovers()
				switch id {
				case "insomnia":
					p.waitJS("the microphone panel", `document.querySelector("#hearing")`)
					hearing := p.text(`document.querySelector("#hearing").textContent`)
					require.Contains(t, hearing, "The microphone is off")
					require.NotContains(t, hearing, "trainer", "no Woodlouse words in Insomnia")
					require.NotContains(t, hearing, "talking", "no talk is heard without a microphone")
					require.Contains(t, hearing, "The referee is not listening to the table.")
					require.NotContains(t, hearing, "--", "guests never see the command line's flags")
				case "woodlouse":
					p.waitJS("the microphone panel", `document.querySelector("#hearing")`)
					require.Contains(t, p.text(`document.querySelector("#hearing").innerText`), "The trainer enters each code on the phone")
				case "minefield":
					toks := p.text(`[...document.querySelectorAll(".grid5 .tok")].map(e => e.textContent + "=" + getComputedStyle(e).backgroundColor).join(" ")`)
					require.Regexp(t, `^[1-4]=rgb`, toks, "tokens carry the seat's number")
					colours := p.text(`String(new Set([...document.querySelectorAll(".tok.inline")].map(e => getComputedStyle(e).backgroundColor)).size)`)
					require.Equal(t, "4", colours, "four players, four colours")
					if side.name == "phone" {
						// Each game names its own actions: the field's end ends a
						// turn, the dealer's the game.
						_, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool](`Promise.all([import("/static/moves.js"), import("/static/games/minefield.js"), import("/static/games/deck.js")])
							.then(([mv, mf, dk]) => { window.endVerbs = mv.verb("end", mf.moves) + " / " + mv.verb("end", dk.moves) + " / " + mv.verb("end"); }), true`))
						require.NoError(t, err)
						p.waitJS("the games' own verbs", `window.endVerbs === "End my turn / End the game / End"`)
					}
				case "troll":
					widths := p.text(`(() => { const w = [...document.querySelectorAll(".brick")].map(e => e.getBoundingClientRect().width); return String(Math.max(...w) - Math.min(...w)); })()`)
					require.Less(t, atof(t, widths), 1.0, "the bridge's columns are even")
				case "deck":
					banner := p.text(`document.querySelector("#banner").textContent`)
					require.NotContains(t, banner, "turn", "the dealer has no turns: %q", banner)
					if side.name == "phone" {
						require.Contains(t, banner, "play any time")
						// A card passed "to Player2" reaches Player2 (the dealer's
						// pass names a seat from 0, as every move does).
						// A card, then what to do with it: two taps, which a
						// push between them would undo, so the second picks
						// the card again when it is no longer picked.
						p.tap(`button.cardpick`)
						p.waitJS("the card's moves", `[...document.querySelectorAll('button[data-action="pass"]')].some(b => b.textContent === "Pass to Player2")`)
						p.act("pass a card to Player2", `const to = () => [...document.querySelectorAll('button[data-action="pass"]')].find(b => b.textContent === "Pass to Player2");
							if (!to()) ready("button.cardpick").click();
							if (!to()) throw new Wait("no pass to Player2 after picking a card");
							ready(to()).click();`)
						p.waitJS("the card passed", `document.body.innerText.includes("Player2: 6 cards") && document.body.innerText.includes("Player1: 4 cards")`)
						asked := p.act("end the game (first tap)", `ready('button[data-action="end"]').click(); return document.querySelector('button[data-action="end"]').textContent`)
						require.Contains(t, asked, "Tap again", "ending for everyone asks first")
						time.Sleep(300 * time.Millisecond) // an ended game would show by now
						require.NotContains(t, p.text(`document.querySelector("#banner").textContent`), "over", "one tap does not end it")
					}
				}
				tb.mu.Lock()
				require.Empty(t, *tb.errs, "script errors")
				tb.mu.Unlock()
				p.shot(out, fmt.Sprintf("%s-%s.png", id, side.name))
			}
		})
	}
}

// startRoom creates a started room of the game through the API and returns
// its code, the host token and seat 0's token.
func startRoom(t *testing.T, base, id string) (room, hostTok, seatTok string) {
	t.Helper()
	// Insomnia with five: two seats have two voices, two have one.
	n := map[string]int{"woodlouse": 4, "louseflea": 4, "troll": 1, "celestial": 4, "pursesnatcher": 2, "insomnia": 5, "minefield": 4, "deck": 4}[id]
	var created struct{ Room, Host_token string }
	post(t, base+"/api/rooms", "", map[string]any{"game": id, "players": n}, &created)
	for i := 0; i < n; i++ {
		var joined struct{ Token string }
		post(t, base+"/api/rooms/"+created.Room+"/join", "", map[string]any{"name": fmt.Sprintf("Player%d", i+1)}, &joined)
		if i == 0 {
			seatTok = joined.Token
		}
	}
	post(t, base+"/api/rooms/"+created.Room+"/start", created.Host_token, map[string]any{}, nil)
	return created.Room, created.Host_token, seatTok
}

func post(t *testing.T, url, tok string, body, into any) {
	t.Helper()
	b, _ := json.Marshal(body)
	req, err := http.NewRequest("POST", url, bytes.NewReader(b))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	if tok != "" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	require.Less(t, res.StatusCode, 300, "%s: %s", url, data)
	if into != nil {
		require.NoError(t, json.Unmarshal(data, into))
	}
}

// onEveryPage runs a script in every document the page opens, before the
// page's own.
func onEveryPage(script string) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := cdp.Call(ctx, t, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: script})
		return chromedp.Void{}, err
	}
}

// TestThePhoneKeepsItsScreenOn checks how a phone keeps its screen on
// during a game, as each kind of browser allows: the Screen Wake Lock where
// it exists and is granted; else a muted looping video, started at once or
// on the next tap (and the phone asks for the tap); and when neither works,
// the phone says so. Browsers' answers are stood in for by scripts.
func TestThePhoneKeepsItsScreenOn(t *testing.T) {
	sv := serveAndBrowse(t, 5*time.Minute)
	for _, c := range []struct {
		name, origin, script, want, notice string
		tap                                bool
	}{
		{"the lock where it is granted", sv.base,
			`Object.defineProperty(navigator, "wakeLock", {configurable: true, value: {request: async () => Object.assign(new EventTarget(), {release: async () => {}})}});`,
			"wakelock", "", false},
		{"the video when the lock is refused", sv.base,
			`Object.defineProperty(navigator, "wakeLock", {configurable: true, value: {request: async () => { throw new DOMException("refused", "NotAllowedError"); }}});`,
			"video", "", false},
		{"the video after a tap where the browser wants one", sv.lan,
			`const play = HTMLMediaElement.prototype.play; HTMLMediaElement.prototype.play = function () { return navigator.userActivation.isActive ? play.call(this) : Promise.reject(new DOMException("a tap first", "NotAllowedError")); };`,
			"tap", "Tap anywhere to keep this screen on", true},
		{"a word to the player when nothing works", sv.lan,
			`HTMLMediaElement.prototype.play = function () { return Promise.reject(new DOMException("no video here", "NotSupportedError")); };`,
			"none", "may turn its screen off", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			room, _, tok := startRoom(t, sv.base, "deck")
			ctx, cancel := chromedp.NewContext(sv.root, chromedp.WithNewBrowserContext())
			defer cancel()
			p := page{t, "phone", ctx}
			p.do(chromedp.EmulateViewport(360, 740, chromedp.EmulateScale(2)), onEveryPage(c.script),
				chromedp.Navigate(c.origin+"/static/app.css"),
				chromedp.Evaluate[chromedp.Void](fmt.Sprintf("localStorage.setItem(%q, %q)", "tableref.seat."+room, tok)),
				chromedp.Navigate(c.origin+"/j/"+room))
			p.waitJS("the game", `document.querySelector("#me")`)
			p.waitJS("the way chosen", fmt.Sprintf(`document.body.dataset.awake === %q`, c.want))
			notice := p.text(`document.querySelector("#awake").classList.contains("show") ? document.querySelector("#awake").textContent : ""`)
			if c.notice == "" {
				require.Empty(t, notice)
			} else {
				require.Contains(t, notice, c.notice)
			}
			if c.want == "wakelock" {
				require.Equal(t, "no", p.text(`document.querySelector("#awake-video") ? "yes" : "no"`), "no video when the lock holds")
			}
			if c.tap {
				p.shot(artifacts(t), "phone-awake-tap.png")
				p.tap("#banner")
				p.waitJS("the video after the tap", `document.body.dataset.awake === "video" && !document.querySelector("#awake-video").paused`)
				require.Equal(t, "false", p.text(`String(document.querySelector("#awake").classList.contains("show"))`), "the notice goes")
			}
		})
	}
}

// TestTimersCountAgainstTheServersClock opens a phone whose clock is an
// hour fast: its timers still show the time the server's clock leaves.
func TestTimersCountAgainstTheServersClock(t *testing.T) {
	sv := serveAndBrowse(t, 5*time.Minute)
	room, host, tok := startRoom(t, sv.base, "deck")
	post(t, sv.base+"/api/rooms/"+room+"/timers", host, map[string]any{"name": "sand", "action": "create", "seconds": 600}, nil)
	post(t, sv.base+"/api/rooms/"+room+"/timers", host, map[string]any{"name": "sand", "action": "start"}, nil)
	due := dueAt(t, sv.base, room, "sand")
	ctx, cancel := chromedp.NewContext(sv.root, chromedp.WithNewBrowserContext())
	defer cancel()
	p := page{t, "phone", ctx}
	p.do(chromedp.EmulateViewport(360, 740, chromedp.EmulateScale(2)),
		onEveryPage(`{ const now = Date.now; Date.now = () => now() + 3600e3; }`), // an hour fast
		chromedp.Navigate(sv.lan+"/static/app.css"),
		chromedp.Evaluate[chromedp.Void](fmt.Sprintf("localStorage.setItem(%q, %q)", "tableref.seat."+room, tok)),
		chromedp.Navigate(sv.lan+"/j/"+room))
	p.waitJS("the timer", `document.querySelector('[data-timer="sand"]')`)
	// What the server's clock leaves, read on this process's clock (the
	// server's, in-process) just before and just after the page is read. The
	// page may lag by the time its last state took to arrive and by a tick
	// (250 ms); an hour-fast phone that trusted its own clock would show 0:00.
	var shown string
	var least, most int
	for deadline := time.Now().Add(patience); ; time.Sleep(poll) {
		least = int(math.Ceil(time.Until(due).Seconds()))
		shown = p.text(`document.querySelector('[data-timer="sand"]').textContent`)
		most = int(math.Ceil(time.Until(due).Seconds()))
		if secs, ok := clockSeconds(shown, "sand"); ok && secs >= most-1 && secs <= least+5 {
			t.Logf("the phone shows %q; the server's clock leaves %d s", shown, most)
			return
		}
		if time.Now().After(deadline) {
			break
		}
	}
	t.Fatalf("the phone shows %q; the server's clock leaves %d–%d s", shown, most, least)
}

// dueAt is when the room's named timer runs out, as the public table says.
func dueAt(t *testing.T, base, room, name string) time.Time {
	t.Helper()
	res, err := http.Get(base + "/api/rooms/" + room + "/table")
	require.NoError(t, err)
	defer res.Body.Close()
	var table struct {
		Timers []struct {
			Name  string `json:"name"`
			DueAt int64  `json:"due_at"`
		} `json:"timers"`
	}
	require.NoError(t, json.NewDecoder(res.Body).Decode(&table))
	for _, tm := range table.Timers {
		if tm.Name == name {
			require.Positive(t, tm.DueAt, "%s is running", name)
			return time.UnixMilli(tm.DueAt)
		}
	}
	t.Fatalf("no timer %q on the table: %+v", name, table.Timers)
	return time.Time{}
}

// clockSeconds reads "NAME m:ss" as seconds.
func clockSeconds(shown, name string) (int, bool) {
	var m, s int
	if _, err := fmt.Sscanf(shown, name+" %d:%d", &m, &s); err != nil || s > 59 {
		return 0, false
	}
	return 60*m + s, true
}

// TestTheMicrophonePanelSaysWhatItHeard draws what tableref serve puts
// under live.hearing: a code not taken is its note alone (which says what
// was heard), one taken is counted in the singular when it is one, and
// Insomnia's pauses and shouts are at their time of day.
func TestTheMicrophonePanelSaysWhatItHeard(t *testing.T) {
	sv := serveAndBrowse(t, 5*time.Minute)
	out := artifacts(t)
	listening := map[string]any{"listening": true, "input": "Test Mic", "message": "listening to Test Mic"}
	wood, _, _ := startRoom(t, sv.base, "woodlouse")
	ins, _, _ := startRoom(t, sv.base, "insomnia")
	require.NoError(t, sv.srv.SetLive(ins, "hearing", map[string]any{
		"mic": listening, "gestures": []any{}, "code": nil, "talking": true,
		"voices": []any{
			map[string]any{"kind": "shout", "start": 75.2, "end": 77, "at": "21:01:15", "seconds": 1.8, "db": 9.5},
			map[string]any{"kind": "pause", "start": 80, "end": 81.88, "at": "21:01:20", "seconds": 1.88},
		},
	}))
	open := func(room string) page {
		c, cancel := chromedp.NewContext(sv.root, chromedp.WithNewBrowserContext())
		t.Cleanup(cancel)
		p := page{t, "table " + room, c}
		p.do(chromedp.EmulateViewport(1280, 900), chromedp.Navigate(sv.lan+"/t/"+room))
		p.waitJS("the microphone panel", `document.querySelector("#hearing")`)
		return p
	}
	p := open(ins)
	p.waitJS("the log", `document.querySelector("#voices")`)
	require.Equal(t, "Pause of 1.9 s at 21:01:20\nShout at 21:01:15", p.text(`document.querySelector("#voices").innerText`), "newest first")
	p.noLeftovers()
	p.shot(out, "hearing-insomnia.png")

	require.NoError(t, sv.srv.SetLive(wood, "hearing", map[string]any{"mic": listening, "gestures": []any{}, "code": nil, "talking": true}))
	p = open(wood)
	for _, c := range []struct {
		code map[string]any
		want string
	}{
		{map[string]any{"bangs": 0, "claps": 1, "order": "C", "used": false,
			"note": "heard 1 clap — that fits no card (no bangs, so no position): repeat the code or enter it on the phone"},
			"Heard 1 clap — that fits no card (no bangs, so no position): repeat the code or enter it on the phone"},
		{map[string]any{"bangs": 2, "claps": 2, "order": "BBCC", "used": false, "masked": 1,
			"note": "heard 2 bangs and 2 claps, but 1 gesture came while the referee's own sound played: repeat the code or enter it on the phone"},
			"Heard 2 bangs and 2 claps, but 1 gesture came while the referee's own sound played: repeat the code or enter it on the phone"},
		{map[string]any{"bangs": 1, "claps": 1, "order": "BC", "used": true}, "Heard: 1 bang + 1 clap — the trainer's code"},
		{map[string]any{"bangs": 3, "claps": 4, "order": "BBBCCCC", "used": false, "note": "heard 3 bangs and 4 claps — not taken (room X is paused): repeat the code or enter it on the phone"},
			"Heard 3 bangs and 4 claps — not taken (room X is paused): repeat the code or enter it on the phone"},
	} {
		require.NoError(t, sv.srv.SetLive(wood, "hearing", map[string]any{"mic": listening, "gestures": []any{}, "code": c.code, "talking": true}))
		p.waitJS(c.want, fmt.Sprintf(`document.querySelector("#heard-code") && document.querySelector("#heard-code").innerText === %q`, c.want))
		p.noLeftovers()
	}
	p.shot(out, "hearing-woodlouse.png")
}

// TestTheHostChecksTheMicrophoneFromTheLobby: on a 1366×768 laptop the host
// starts the microphone check from the lobby; the table shows what to do,
// the gestures as they are heard, and the verdict (what tableref serve puts
// under live.hearing.check, played here by the test).
func TestTheHostChecksTheMicrophoneFromTheLobby(t *testing.T) {
	sv := serveAndBrowse(t, 3*time.Minute)
	out := artifacts(t)
	var created struct{ Room, Host_token string }
	post(t, sv.base+"/api/rooms", "", map[string]any{"game": "woodlouse", "players": 4}, &created)
	room := created.Room
	listening := map[string]any{"listening": true, "input": "Test Mic", "message": "listening to Test Mic"}
	check := func(c map[string]any) {
		require.NoError(t, sv.srv.SetLive(room, "hearing", map[string]any{"mic": listening, "gestures": []any{}, "code": nil, "talking": true, "check": c}))
	}
	asked := make(chan string, 1)
	sv.srv.OnMicCheck(func(r string) error {
		asked <- r
		check(map[string]any{"state": "listening", "heard": "", "want": "CCBB", "ok": false, "left": 20, "problems": []any{},
			"say": "Clap twice, then bang the table twice with a flat hand, about half a second apart."})
		return nil
	})
	c, cancel := chromedp.NewContext(sv.root, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	p := page{t, "table " + room, c}
	p.do(chromedp.EmulateViewport(1366, 768), chromedp.Navigate(sv.base+"/static/app.css"),
		chromedp.Evaluate[chromedp.Void](fmt.Sprintf("localStorage.setItem(%q, %q)", "tableref.host."+room, created.Host_token)),
		chromedp.Navigate(sv.base+"/t/"+room))
	p.waitJS("the check's button", `document.querySelector("#mic-check")`)
	p.tap("#mic-check")
	select {
	case r := <-asked:
		require.Equal(t, room, r)
	case <-time.After(10 * time.Second):
		t.Fatal("the button did not ask the server for a check")
	}
	p.waitJS("what to do", `document.querySelector("#miccheck") && document.querySelector("#miccheck").innerText.includes("Clap twice")`)
	check(map[string]any{"state": "listening", "heard": "CCB", "want": "CCBB", "left": 14, "problems": []any{}, "say": "Clap twice, then bang the table twice."})
	p.waitJS("the gestures heard so far", `document.querySelectorAll("#miccheck .g").length === 3`)
	p.noLeftovers()
	check(map[string]any{"state": "done", "heard": "CCCB", "want": "CCBB", "ok": false, "left": 0,
		"say":      "Heard clap, clap, clap, bang (asked for clap, clap, bang, bang): a clap was taken for a bang or the other way round.",
		"problems": []any{map[string]any{"kind": "hum", "say": "mains hum: move the laptop off its charger"}}})
	p.waitJS("the verdict", `document.querySelector("#miccheck-say") && document.querySelector("#miccheck-say").innerText.includes("a clap was taken for a bang")`)
	require.Contains(t, p.text(`document.querySelector("#miccheck").innerText`), "mains hum")
	require.Contains(t, p.text(`document.querySelector("#mic-check").innerText`), "Check again")
	p.noLeftovers()
	// the start button stays in view on the laptop's screen
	p.waitJS("the start button", `document.querySelector("#start")`)
	p.shot(out, "miccheck-1366.png")
}

// tally is a tiny game written here, not in the catalogue: each player adds
// one to a shared count; it ends at three. Its page module, declared in its
// Info, shows the count its own way.
type tally struct{}

const tallyPage = `import { h } from "/static/ui.js";
export function view(v) { return h("div.panel", h("p", { id: "tally" }, "The count is " + v.count + ".")); }
`

func (tally) Info() game.Info {
	return game.Info{ID: "tally", Name: "Tally", Summary: "Count to three.", MinPlayers: 2, MaxPlayers: 2, Page: tallyPage}
}
func (tally) New(game.Config) (game.State, error) { return &tallyState{}, nil }

type tallyState struct{ count int }

func (s *tallyState) Turn() []int {
	if s.count >= 3 {
		return nil
	}
	return []int{s.count % 2}
}
func (s *tallyState) Legal(seat int) []game.Move {
	if s.count >= 3 || seat != s.count%2 {
		return nil
	}
	return []game.Move{game.M(seat, "add")}
}
func (s *tallyState) Apply(m game.Move) ([]game.Event, error) {
	s.count++
	return []game.Event{{Type: "add", Text: fmt.Sprintf("%s adds one: %d.", game.Seat(m.Seat), s.count)}}, nil
}
func (s *tallyState) View(int) any        { return map[string]int{"count": s.count} }
func (s *tallyState) Over() bool          { return s.count >= 3 }
func (s *tallyState) Result() game.Result { return game.Result{Text: "three"} }
func (s *tallyState) Clone() game.State   { c := *s; return &c }
func (s *tallyState) Audit() error        { return nil }

// TestAGamesOwnPageModuleShowsItsView: a game the pages have never heard
// of is shown by the page module it declares, served by the server from
// its Info, with no file of the pages touched.
func TestAGamesOwnPageModuleShowsItsView(t *testing.T) {
	sv := serveAndBrowse(t, 2*time.Minute, tally{})
	room, _, toks := startedRoom(t, sv.base, "tally", "Ann", "Bob")
	post(t, sv.base+"/api/rooms/"+room+"/moves", toks[0], map[string]any{"move": "add"}, nil)

	c, cancel := chromedp.NewContext(sv.root, chromedp.WithNewBrowserContext())
	defer cancel()
	p := page{t, "tally table", c}
	p.do(chromedp.EmulateViewport(1366, 768), chromedp.Navigate(sv.lan+"/t/"+room))
	p.waitJS("the tally's own view", `document.querySelector("#tally") && document.querySelector("#tally").textContent === "The count is 1."`)
	p.noLeftovers()
}

// seatLegal is the legal moves a seat's token sees.
func seatLegal(t *testing.T, base, room, tok string) []game.Move {
	t.Helper()
	req, err := http.NewRequest("GET", base+"/api/rooms/"+room+"/view", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+tok)
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	var st struct{ Legal []game.Move }
	require.NoError(t, json.NewDecoder(res.Body).Decode(&st))
	return st.Legal
}

// roomOf creates a room of game with players seats, in which names join,
// and returns its code, the host's token and the seats' tokens.
func roomOf(t *testing.T, base, game string, players int, names ...string) (room, host string, toks []string) {
	t.Helper()
	var created struct{ Room, Host_token string }
	post(t, base+"/api/rooms", "", map[string]any{"game": game, "players": players}, &created)
	for _, n := range names {
		var j struct{ Token string }
		post(t, base+"/api/rooms/"+created.Room+"/join", "", map[string]any{"name": n}, &j)
		require.NotEmpty(t, j.Token, "%q may join", n)
		toks = append(toks, j.Token)
	}
	return created.Room, created.Host_token, toks
}

// startedRoom is roomOf with as many seats as names, started.
func startedRoom(t *testing.T, base, game string, names ...string) (room, host string, toks []string) {
	t.Helper()
	room, host, toks = roomOf(t, base, game, len(names), names...)
	post(t, base+"/api/rooms/"+room+"/start", host, map[string]any{}, nil)
	return room, host, toks
}

// seatPhone opens the room's phone page on a 360×740 phone as the seat of
// tok, closed when the test ends.
func seatPhone(t *testing.T, sv served, room, tok, name string) page {
	t.Helper()
	c, cancel := chromedp.NewContext(sv.root, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	p := page{t, name, c}
	p.do(chromedp.EmulateViewport(360, 740, chromedp.EmulateScale(2)), chromedp.Navigate(sv.lan+"/j/"+room))
	p.act("the seat's token", fmt.Sprintf(`localStorage.setItem("tableref.seat.%s", %s); location.reload()`, room, js(tok)))
	return p
}

// fits fails when p is wider than its screen (naming what sticks out) or,
// with boxes, when an element is wider than its box.
func fits(t *testing.T, p page, what string, boxes bool) {
	t.Helper()
	var m struct {
		Page, View int
		Over       []string
	}
	require.NoError(t, json.Unmarshal([]byte(p.text(layout)), &m))
	require.LessOrEqual(t, m.Page, m.View, "%s: the page is wider than the screen: %s", what, p.text(`JSON.stringify(window.wideOnes)`))
	if boxes {
		require.Empty(t, m.Over, "%s: elements wider than their box", what)
	}
}

// TestInsomniasAnswersReadOnEveryScreen: with the default options the card
// shown is private, so the table hears only the answer. It shows the
// answer ("higher"), never "undefined: higher", and only the voice being
// asked stands out as in turn.
func TestInsomniasAnswersReadOnEveryScreen(t *testing.T) {
	sv := serveAndBrowse(t, 2*time.Minute)
	room, _, toks := startedRoom(t, sv.base, "insomnia", "Sleeper", "Bob", "Cy", "Di")
	legal := seatLegal(t, sv.base, room, toks[0])
	require.NotEmpty(t, legal, "the sleeper shows a card first")
	show := legal[0]
	post(t, sv.base+"/api/rooms/"+room+"/moves", toks[0], map[string]any{"move": show.Action + " " + strings.Join(show.Args, " ")}, nil)

	c, cancel := chromedp.NewContext(sv.root, chromedp.WithNewBrowserContext())
	defer cancel()
	p := page{t, "insomnia table", c}
	p.do(chromedp.EmulateViewport(1366, 768), chromedp.Navigate(sv.lan+"/t/"+room))
	p.waitJS("the asked voice", `document.querySelectorAll("[data-voice].turn").length === 1`)
	require.Equal(t, show.Args[0], p.text(`document.querySelector("[data-voice].turn").dataset.voice`), "the voice asked is the one in turn")

	var said string
	for _, tok := range toks[1:] {
		for _, mv := range seatLegal(t, sv.base, room, tok) {
			if said == "" && len(mv.Args) == 0 {
				said = mv.Action
				post(t, sv.base+"/api/rooms/"+room+"/moves", tok, map[string]any{"move": mv.Action}, nil)
			}
		}
	}
	require.NotEmpty(t, said, "the voice answers")
	p.waitJS("the answer", `document.querySelector(".answers") !== null`)
	answers := p.text(`document.querySelector(".answers").textContent`)
	require.Equal(t, said, answers, "the table heard only the answer")
	p.noLeftovers()
}

// layout is what a page measures of itself: its width against the
// viewport, and the elements wider than their box.
const layout = `(() => {
  window.wideOnes = [...document.querySelectorAll("body *")].filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
    .map((e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + (e.className ? "." + String(e.className).split(" ").join(".") : "") + ":" + Math.round(e.getBoundingClientRect().right)).slice(0, 8);
  const over = [...document.querySelectorAll("#app *")].filter((e) => e.scrollWidth > e.clientWidth + 2 && getComputedStyle(e).overflowX === "visible" && e.clientWidth > 0)
    .map((e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + (e.className ? "." + String(e.className).split(" ").join(".") : "")).slice(0, 5);
  return JSON.stringify({ page: document.documentElement.scrollWidth, view: window.innerWidth, over });
})()`

// TestTheTableFitsALaptopAndAPhone: the table page in the lobby, on a
// 1366×768 laptop, shows the room's code, the join address and the Start
// button without scrolling sideways or down, and neither the host's
// controls opened nor a phone-sized screen scrolls it sideways.
func TestTheTableFitsALaptopAndAPhone(t *testing.T) {
	sv := serveAndBrowse(t, 2*time.Minute)
	out := artifacts(t)
	room, host, _ := roomOf(t, sv.base, "woodlouse", 6, "Ann", "Bob", "Cy")
	for _, size := range []struct {
		name string
		w, h int64
	}{{"laptop", 1366, 768}, {"tv", 1920, 1080}, {"phone", 390, 844}} {
		t.Run(size.name, func(t *testing.T) {
			c, cancel := chromedp.NewContext(sv.root, chromedp.WithNewBrowserContext())
			defer cancel()
			p := page{t, "table " + size.name, c}
			p.do(chromedp.EmulateViewport(size.w, size.h), chromedp.Navigate(sv.base+"/t/"+room+"#host="+host))
			p.waitJS("the lobby", `document.querySelector("#start") && document.querySelector("img.qr").complete`)
			p.shot(out, "table-lobby-"+size.name+".png")
			fits(t, p, "the lobby", true)
			if size.name != "phone" {
				bottom := p.text(`String(Math.round(document.querySelector("#start").getBoundingClientRect().bottom))`)
				require.LessOrEqual(t, atoi(t, bottom), int(size.h), "the Start button is above the fold")
				require.Equal(t, "1", p.text(`String(document.querySelector("#join-url").getClientRects().length <= 2 ? 1 : 0)`), "the join address on at most two lines")
			}
			p.act("open the host's controls", `ready("#host-panel summary").click()`)
			p.shot(out, "table-host-"+size.name+".png")
			fits(t, p, "the host's controls open", true)
		})
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	require.NoError(t, err, "%q", s)
	return n
}

// TestNamesAsPeopleWriteThemFitEveryScreen: a 24-letter name, an Arabic
// one and an emoji built of several code points join a Woodlouse game. No
// phone or table scrolls sideways, every name is its own direction, and
// the Arabic name keeps its place before its count of cards.
func TestNamesAsPeopleWriteThemFitEveryScreen(t *testing.T) {
	sv := serveAndBrowse(t, 3*time.Minute)
	out := artifacts(t)
	long, arabic, chef := strings.Repeat("W", 24), "مرحبا", "👨‍🍳"
	room, _, toks := startedRoom(t, sv.base, "woodlouse", long, arabic, chef)
	for i, tok := range toks {
		p := seatPhone(t, sv, room, tok, fmt.Sprintf("phone %d", i))
		p.waitJS("the seat", `document.querySelector("#me") && document.querySelector(".panel .players")`)
		p.shot(out, fmt.Sprintf("names-phone-%d.png", i))
		fits(t, p, fmt.Sprintf("phone %d", i), false)
		require.Equal(t, "BDI", p.text(`document.querySelector(".players .who").tagName`), "names are isolated")
		p.noLeftovers()
	}
	c, cancel := chromedp.NewContext(sv.root, chromedp.WithNewBrowserContext())
	defer cancel()
	p := page{t, "table", c}
	p.do(chromedp.EmulateViewport(1366, 768), chromedp.Navigate(sv.lan+"/t/"+room))
	p.waitJS("the score piles", `document.querySelectorAll(".players .who").length >= 3`)
	fits(t, p, "the table", false)
	pile := p.text(fmt.Sprintf(`[...document.querySelectorAll(".player")].map((e) => e.innerText).find((s) => s.includes(%s)) || ""`, js(arabic)))
	require.True(t, strings.HasPrefix(pile, arabic+":"), "the Arabic name first, then its cards: %q", pile)
	require.Equal(t, "BDI", p.text(`document.querySelector("#banner bdi") ? "BDI" : document.querySelector("#banner").innerHTML`), "the name in whose turn it is, isolated")
	p.shot(out, "names-table.png")
}

// TestAHalfMadeChoiceSurvivesTheStatePushes: the trainer has counted two
// bangs on the phone, a guesser has picked an animal; the microphone's news
// and another player's moves redraw their phones, and what they were
// picking is still there.
func TestAHalfMadeChoiceSurvivesTheStatePushes(t *testing.T) {
	sv := serveAndBrowse(t, 2*time.Minute)
	room, _, toks := startedRoom(t, sv.base, "woodlouse", "Ann", "Bob", "Cy")
	trainer, guessers := trainerOf(t, sv, room, toks), []int{}
	for i := range toks {
		if i != trainer {
			guessers = append(guessers, i)
		}
	}
	phone := func(tok string) page {
		p := seatPhone(t, sv, room, tok, "phone")
		p.waitJS("the moves", `document.querySelector("#moves")`)
		return p
	}
	// push redraws every phone with the microphone's news and waits until
	// p has drawn it.
	n := 0
	push := func(p page) {
		p.act("mark the panel", `document.querySelector("#moves").dataset.old = "1"`)
		n++
		require.NoError(t, sv.srv.SetLive(room, "hearing", map[string]any{"mic": map[string]any{"listening": true, "message": "listening"},
			"gestures": []any{map[string]any{"kind": "bang", "t": float64(n)}}, "code": nil}))
		p.waitJS("the redraw", `document.querySelector("#moves") && !document.querySelector("#moves").dataset.old`)
	}

	tp := phone(toks[trainer])
	tp.tap("#bang-more")
	tp.tap("#bang-more")
	tp.tap("#clap-more")
	push(tp)
	push(tp)
	require.Equal(t, "2 bangs + 1 clap", tp.text(`document.querySelector("#code-out").textContent`), "the code half counted")
	// A first tap on Send arms it; a push in between does not disarm it.
	tp.tap("#code-send")
	push(tp)
	require.Contains(t, tp.text(`document.querySelector("#code-send").textContent`), "Tap again", "the armed send survives the push")
	tp.tap("#bang-less") // a change of count disarms it
	require.NotContains(t, tp.text(`document.querySelector("#code-send").textContent`), "Tap again")
	tp.tap("#bang-more")

	// The trainer gives the right code; guessing opens.
	code := seatLegal(t, sv.base, room, toks[trainer])[0]
	species, count := cardOf(t, sv, room, toks[trainer]) // the guess that would win it
	post(t, sv.base+"/api/rooms/"+room+"/moves", toks[trainer], map[string]any{"move": "code " + strings.Join(code.Args, " ")}, nil)
	gp := phone(toks[guessers[0]])
	gp.waitJS("the animals", `document.querySelector('button[data-action="guess"]')`)
	animal := gp.act("pick an animal", `const b = ready('button[data-action="guess"]'); b.click(); return b.dataset.args`)
	push(gp)
	// Another guesser's wrong guess (one that is not the card: a right one
	// would end the guessing) redraws it too.
	for _, mv := range seatLegal(t, sv.base, room, toks[guessers[1]]) {
		if mv.Action == "guess" && strings.Join(mv.Args, " ") != string(species)+" "+count && mv.Args[0] != animal {
			gp.act("mark the panel", `document.querySelector("#moves").dataset.old = "1"`)
			post(t, sv.base+"/api/rooms/"+room+"/moves", toks[guessers[1]], map[string]any{"move": "guess " + strings.Join(mv.Args, " ")}, nil)
			gp.waitJS("the redraw", `!document.querySelector("#moves") || !document.querySelector("#moves").dataset.old`)
			break
		}
	}
	gp.waitJS("the animal still picked", fmt.Sprintf(`document.querySelector('button[data-action="guess"].chosen') && document.querySelector('button[data-action="guess"].chosen').dataset.args === %s`, js(animal)))
	require.NotEqual(t, "0", gp.text(`String(document.querySelectorAll('#moves button.primary[data-action="guess"]').length)`), "its numbers are offered")
}
