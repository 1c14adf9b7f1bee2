package e2e

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// TestTheTableOffersTheCheckWhenAGameThatHearsGesturesStarts: once a
// Woodlouse Chaos game is under way and the referee has not learned the
// table yet, the table screen offers the microphone check; Teach me starts
// it and shows its steps (clap 1, clap 2, bang 1, bang 2, what each was
// heard as) and what it learned; Skip puts the offer away. The live news
// is what tableref serve puts under live.hearing (offer and check), played
// here by the test, as the server's hooks would make it.
func TestTheTableOffersTheCheckWhenAGameThatHearsGesturesStarts(t *testing.T) {
	sv := serveAndBrowse(t, 3*time.Minute)
	out := artifacts(t)
	room, hostTok, _ := startedRoom(t, sv.base, "woodlouse", "Ann", "Bob", "Cy")
	listening := map[string]any{"listening": true, "input": "Test Mic", "message": "listening to Test Mic"}
	offer := map[string]any{"say": "Teach me this table: clap twice, then bang twice."}
	live := func(extra map[string]any) {
		h := map[string]any{"mic": listening, "gestures": []any{}, "code": nil, "talking": true}
		for k, v := range extra {
			h[k] = v
		}
		require.NoError(t, sv.srv.SetLive(room, "hearing", h))
	}
	asked, skipped := make(chan string, 1), make(chan string, 1)
	sv.srv.OnMicCheck(func(r string) error {
		asked <- r
		live(map[string]any{"check": map[string]any{"state": "listening", "heard": "", "want": "CCBB", "ok": false, "left": 20, "problems": []any{},
			"say": "Clap twice, then bang the table twice with a flat hand, about half a second apart."}})
		return nil
	})
	sv.srv.OnMicCheckSkip(func(r string) error {
		skipped <- r
		live(nil)
		return nil
	})
	live(map[string]any{"offer": offer}) // the game started: the referee offers the check

	c, cancel := chromedp.NewContext(sv.root, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	p := page{t, "table " + room, c}
	p.do(chromedp.EmulateViewport(1366, 768), chromedp.Navigate(sv.base+"/static/app.css"),
		chromedp.Evaluate[chromedp.Void](fmt.Sprintf("localStorage.setItem(%q, %q)", "tableref.host."+room, hostTok)),
		chromedp.Navigate(sv.base+"/t/"+room))
	p.waitJS("the game under way", `document.body.dataset.status === "playing"`)
	p.waitJS("the offer", `document.querySelector("#teach") && document.querySelector("#teach").innerText.includes("Teach me this table: clap twice, then bang twice.")`)
	p.waitJS("its buttons", `document.querySelector("#teach-start") && document.querySelector("#teach-skip")`)
	p.noLeftovers()
	p.shot(out, "teach-offer-1366.png")

	// A TV shows the offer, without the host's buttons.
	tvc, cancelTV := chromedp.NewContext(sv.root, chromedp.WithNewBrowserContext())
	t.Cleanup(cancelTV)
	tv := page{t, "tv " + room, tvc}
	tv.do(chromedp.Navigate(sv.base + "/t/" + room))
	tv.waitJS("the offer on the TV", `document.querySelector("#teach") && document.querySelector("#teach").innerText.includes("The host starts it or skips it.")`)
	require.Equal(t, "0", tv.text(`String(document.querySelectorAll("#teach button").length)`))

	// Teach me: the check starts, and its steps are shown as they are heard.
	p.tap("#teach-start")
	select {
	case r := <-asked:
		require.Equal(t, room, r)
	case <-time.After(10 * time.Second):
		t.Fatal("Teach me did not ask the server for the check")
	}
	p.waitJS("no offer while it listens", `!document.querySelector("#teach")`)
	p.waitJS("the first step", `document.querySelector('#miccheck-steps [data-step="1"].now')`)
	require.Contains(t, p.text(`document.querySelector("#miccheck-steps").innerText`), "clap 1 — now")
	live(map[string]any{"check": map[string]any{"state": "listening", "heard": "BB", "want": "CCBB", "left": 16, "problems": []any{}, "say": "Clap twice, then bang the table twice."}})
	p.waitJS("two claps heard as bangs, and the third step", `document.querySelector('#miccheck-steps [data-step="3"].now')`)
	steps := p.text(`document.querySelector("#miccheck-steps").innerText`)
	require.Contains(t, steps, "clap 1 — heard a bang")
	require.Contains(t, steps, "clap 2 — heard a bang")
	require.Contains(t, steps, "bang 1 — now")
	require.Equal(t, "2", p.text(`String(document.querySelectorAll("#miccheck-steps li.wrong").length)`))
	p.shot(out, "teach-steps-1366.png")
	learned := "Learned this table: it had taken your claps for bangs; from now on a sound like your claps is a clap and a sound like your bangs is a bang."
	live(map[string]any{"check": map[string]any{"state": "done", "heard": "BBBB", "want": "CCBB", "ok": false, "left": 0, "problems": []any{},
		"say":     "Heard bang, bang, bang, bang (asked for clap, clap, bang, bang): a clap was taken for a bang or the other way round.",
		"learned": true, "learn": learned}})
	p.waitJS("what it learned", `document.querySelector("#miccheck-learn") && document.querySelector("#miccheck-learn").classList.contains("learned")`)
	require.Equal(t, learned, p.text(`document.querySelector("#miccheck-learn").innerText`))
	p.noLeftovers()
	p.shot(out, "teach-learned-1366.png")

	// Offered again (say the check learned nothing): Skip puts it away.
	live(map[string]any{"offer": offer})
	p.waitJS("the offer again", `document.querySelector("#teach-skip")`)
	p.tap("#teach-skip")
	select {
	case r := <-skipped:
		require.Equal(t, room, r)
	case <-time.After(10 * time.Second):
		t.Fatal("Skip did not tell the server")
	}
	p.waitJS("the offer put away", `!document.querySelector("#teach")`)
	tv.waitJS("and on the TV", `!document.querySelector("#teach")`)
	p.waitJS("the game still under way", `document.body.dataset.status === "playing"`)
}
