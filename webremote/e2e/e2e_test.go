// Package e2e plays the web remote in real headless Chromium: a host and
// three phones join a Woodlouse Chaos room, play, and one phone reloads and
// resumes its seat. Screenshots are saved for people to look at.
package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

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

func artifacts(t *testing.T) string {
	dir := os.Getenv("TABLEREF_ARTIFACTS")
	if dir == "" {
		return t.TempDir()
	}
	require.NoError(t, os.MkdirAll(dir, 0o755))
	return dir
}

type page struct {
	t    *testing.T
	name string
	ctx  context.Context
}

func (p page) do(steps ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	require.NoError(p.t, chromedp.Do(p.ctx, steps...), "%s", p.name)
}

// waitJS waits until the expression is truthy (across page loads).
func (p page) waitJS(what, expr string) {
	p.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	var last error
	for time.Now().Before(deadline) {
		ok, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool]("!!("+expr+")"))
		if err == nil && ok {
			return
		}
		last = err
		time.Sleep(50 * time.Millisecond)
	}
	body, _ := chromedp.Run(p.ctx, chromedp.Evaluate[string]("document.body.innerText"))
	p.t.Fatalf("%s: waited in vain for %s (%v)\npage text:\n%s", p.name, what, last, body)
}

func (p page) text(expr string) string {
	p.t.Helper()
	s, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](expr))
	require.NoError(p.t, err, "%s: %s", p.name, expr)
	return s
}

func (p page) shot(dir, file string) {
	p.t.Helper()
	png, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100))
	require.NoError(p.t, err)
	require.NoError(p.t, os.WriteFile(filepath.Join(dir, file), png, 0o644))
}

// serveAndBrowse starts a web remote on loopback and a headless Chromium,
// both stopped when the test ends, and returns the server's address and the
// browser's context (each page opens its own browser context from it).
func serveAndBrowse(t *testing.T, limit time.Duration) (string, context.Context) {
	t.Helper()
	exe := browser(t)
	srv := webremote.New(webremote.Config{RateLimit: -1}) // every page comes from 127.0.0.1
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go srv.Serve(ln)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
	})
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe), chromedp.NoSandbox, chromedp.Headless,
		chromedp.Flag("disable-gpu", true), chromedp.Flag("disable-dev-shm-usage", true), chromedp.WindowSize(1280, 900))
	alloc, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	root, cancelRoot := chromedp.NewContext(alloc)
	t.Cleanup(func() { cancelRoot(); cancelAlloc(); cancel() })
	require.NoError(t, chromedp.Do(root)) // start the browser
	return "http://" + ln.Addr().String(), root
}

func TestAHostAndThreePhonesPlayWoodlouse(t *testing.T) {
	out := artifacts(t)
	base, root := serveAndBrowse(t, 90*time.Second)

	// The host creates the room on the laptop.
	hostCtx, cancelHost := chromedp.NewContext(root, chromedp.WithNewBrowserContext())
	defer cancelHost()
	host := page{t, "host", hostCtx}
	host.do(chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.CSS("#create")))
	host.waitJS("the game list", `document.querySelector("#game option[value=woodlouse]")`)
	host.do(chromedp.SetValue(chromedp.CSS("#game"), "woodlouse"), chromedp.SetValue(chromedp.CSS("#players"), "3"), chromedp.Click(chromedp.CSS("#create")))
	host.waitJS("the table page", `location.pathname.startsWith("/t/") && document.querySelector(".code")`)
	room := host.text(`document.querySelector(".code").textContent`)
	require.Regexp(t, `^[A-Z]{4}$`, room)
	host.waitJS("the QR code", `document.querySelector("img.qr").complete && document.querySelector("img.qr").naturalWidth > 0`)

	// Three phones join, each in its own browser context (its own storage).
	names := []string{"Ann", "Bob", "Cy"}
	phones := make([]page, 3)
	for i, name := range names {
		c, cancel := chromedp.NewContext(root, chromedp.WithNewBrowserContext())
		defer cancel()
		p := page{t, "phone " + name, c}
		p.do(chromedp.EmulateViewport(360, 740, chromedp.EmulateScale(2)), chromedp.Navigate(base+"/j/"+room), chromedp.WaitVisible(chromedp.CSS("#name")))
		p.do(chromedp.SendKeys(chromedp.CSS("#name"), name), chromedp.Click(chromedp.CSS("#join")))
		p.waitJS("the seat", fmt.Sprintf(`document.querySelector("#me") && document.querySelector("#me").textContent === %q`, name))
		phones[i] = p
	}
	host.waitJS("three players on the table", `document.querySelectorAll(".player").length === 3`)
	host.shot(out, "table-lobby.png")
	phones[0].shot(out, "phone-lobby.png")

	// The host starts; exactly one phone is the trainer, with the code picker.
	host.do(chromedp.Click(chromedp.CSS("#start")))
	trainer := -1
	deadline := time.Now().Add(15 * time.Second)
	for trainer < 0 && time.Now().Before(deadline) {
		for i, p := range phones {
			if p.text(`document.querySelector('[data-action="code"]') ? "yes" : "no"`) == "yes" {
				trainer = i
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	require.GreaterOrEqual(t, trainer, 0, "no phone offers the trainer's code")
	tr := phones[trainer]
	cardText := tr.text(`document.querySelector("#card") ? document.querySelector("#card").textContent : ""`)
	require.Regexp(t, `^[1-5] [a-z]+$`, cardText, "the trainer sees the card")
	for i, p := range phones {
		if i != trainer {
			require.NotContains(t, p.text("document.body.innerText"), cardText, "%s must not see the trainer's card", p.name)
		}
	}
	require.NotContains(t, host.text("document.body.innerText"), cardText, "the table must not see the trainer's card")
	tr.shot(out, "phone-trainer.png")

	// The trainer enters the right code on the phone (the microphone's
	// stand-in): bangs for the animal's place in the row, claps for the count.
	count, species := cardText[:1], cardText[2:5]
	place := tr.text(fmt.Sprintf(`String([...document.querySelectorAll(".seqcard")].findIndex(c => c.textContent.includes(%q)) + 1)`, species))
	require.NotEqual(t, "0", place, "the sequence cards show %s", species)
	for i := 1; i < int(place[0]-'0'); i++ {
		tr.do(chromedp.Click(chromedp.CSS("#bang-more")))
	}
	for i := 1; i < int(count[0]-'0'); i++ {
		tr.do(chromedp.Click(chromedp.CSS("#clap-more")))
	}
	tr.do(chromedp.Click(chromedp.CSS(`button.primary[data-action="code"]`)))
	guesser := phones[(trainer+1)%3]
	guesser.waitJS("the guesses", `document.querySelector('button[data-action="guess"]')`)
	guesser.do(chromedp.Click(chromedp.CSS(`button[data-action="guess"]`)))
	guesser.waitJS("the count buttons", `document.querySelector('button.primary[data-args]')`)
	guesser.shot(out, "phone-guessing.png")
	guesser.do(chromedp.Click(chromedp.CSS(`button.primary[data-args]`)))
	host.waitJS("the guess announced on the table", fmt.Sprintf(`document.body.innerText.includes(%q + " calls")`, names[(trainer+1)%3]))
	require.Contains(t, host.text("document.body.innerText"), names[trainer]+" gives")
	host.shot(out, "table-play.png")

	// A phone reloads (a locked screen, a closed tab): it resumes its seat.
	other := phones[(trainer+2)%3]
	other.do(chromedp.Reload())
	other.waitJS("the resumed seat", fmt.Sprintf(`document.querySelector("#me") && document.querySelector("#me").textContent === %q`, names[(trainer+2)%3]))
	require.Equal(t, "no", other.text(`document.querySelector("#name") ? "yes" : "no"`), "no join form after a reload")
	require.True(t, strings.Contains(other.text("document.body.innerText"), "calls"), "the resumed phone sees what happened")
	other.shot(out, "phone-resumed.png")
	t.Logf("screenshots in %s", out)
}

// TestEveryGameRendersOnThePhoneAndTheTable opens, for each game, one seat's
// phone page and the table page of a started room and checks that the game
// is drawn (its own renderer, not the fallback) with no script error.
func TestEveryGameRendersOnThePhoneAndTheTable(t *testing.T) {
	out := artifacts(t)
	base, root := serveAndBrowse(t, 120*time.Second)

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
	for _, id := range []string{"woodlouse", "louseflea", "troll", "celestial", "pursesnatcher", "insomnia", "minefield", "deck"} {
		t.Run(id, func(t *testing.T) {
			room, hostTok, seatTok := startRoom(t, base, id)
			for _, side := range []struct{ name, path, key, tok string }{
				{"phone", "/j/" + room, "tableref.seat." + room, seatTok},
				{"table", "/t/" + room, "tableref.host." + room, hostTok},
			} {
				var mu sync.Mutex
				var errs []string
				c, cancel := chromedp.NewContext(root, chromedp.WithNewBrowserContext(), chromedp.WithListener(func(ev any) {
					if e, ok := ev.(*runtime.EventExceptionThrown); ok {
						mu.Lock()
						errs = append(errs, fmt.Sprintf("%s (line %d)", e.ExceptionDetails.Text, e.ExceptionDetails.LineNumber))
						mu.Unlock()
					}
				}))
				defer cancel()
				p := page{t, id + " " + side.name, c}
				if side.name == "phone" {
					p.do(chromedp.EmulateViewport(360, 740, chromedp.EmulateScale(2)))
				}
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
				}
				require.NotContains(t, p.text("document.body.innerText"), "null", "no empty value shown as null")
				mu.Lock()
				require.Empty(t, errs, "script errors")
				mu.Unlock()
				p.shot(out, fmt.Sprintf("%s-%s.png", id, side.name))
			}
		})
	}
}

// startRoom creates a started room of the game through the API and returns
// its code, the host token and seat 0's token.
func startRoom(t *testing.T, base, id string) (room, hostTok, seatTok string) {
	t.Helper()
	min := map[string]int{"woodlouse": 3, "louseflea": 3, "troll": 1, "celestial": 2, "pursesnatcher": 2, "insomnia": 4, "minefield": 2, "deck": 3}[id]
	var created struct{ Room, Host_token string }
	post(t, base+"/api/rooms", "", map[string]any{"game": id, "players": min}, &created)
	for i := 0; i < min; i++ {
		var joined struct{ Token string }
		post(t, base+"/api/rooms/"+created.Room+"/join", "", map[string]any{"name": fmt.Sprintf("P%d", i+1)}, &joined)
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
