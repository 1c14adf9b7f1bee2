package e2e

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// The screenshot matrix: every game and the dealer, in every phase a game
// names (its view's "phase") or else at its start, middle and end, and in
// the lobby; the table page on a 1366×768 laptop, a 1920×1080 TV, a 360×740
// phone and a 430×932 phone, and a phone page on all but the TV. Every screen is
// written to TABLEREF_ARTIFACTS/matrix (or $TMPDIR/tableref-e2e/matrix) and
// checked by the page itself (screenCheck).

// screen is a size the pages are looked at on.
type screen struct {
	name string
	w, h int64
}

var screens = []screen{{"laptop", 1366, 768}, {"tv", 1920, 1080}, {"phone", 360, 740}, {"bigphone", 430, 932}}

// screenCheck is what a page checks of itself, as a JSON list of problems:
//   - the page wider than the screen, or an element sticking out of it;
//   - text cut off: an element that clips its content (overflow not
//     visible) with more content than room, except a player's name cut
//     with an ellipsis that carries the whole name in its title;
//   - text spilling out of its box;
//   - a value the code did not fill in: undefined, NaN, null,
//     [object Object] or a seat reference {n} left in the text.
//
// Elements not shown (display none, no size, the stage's headline between
// headlines) are left out.
const screenCheck = `(() => {
  const vw = window.innerWidth, out = [];
  const name = (e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + (typeof e.className === "string" && e.className ? "." + e.className.trim().split(/\s+/).join(".") : "");
  if (document.documentElement.scrollWidth > vw) out.push("the page is " + document.documentElement.scrollWidth + " px wide on a " + vw + " px screen");
  for (const e of document.querySelectorAll("body *")) {
    if (e.closest("#headline:not(.show), video, select, option, script, style, head")) continue;
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    const cs = getComputedStyle(e);
    if (cs.visibility === "hidden" || cs.opacity === "0") continue;
    if (r.right > vw + 1 || r.left < -1) out.push(name(e) + " sticks out of the screen (" + Math.round(r.left) + " to " + Math.round(r.right) + ")");
    const clips = cs.overflowX !== "visible" || cs.overflowY !== "visible";
    const wide = e.scrollWidth > e.clientWidth + 1, tall = e.scrollHeight > e.clientHeight + 1;
    if (clips && (wide || tall) && e.clientWidth > 0) {
      const named = e.matches(".who") && e.title && cs.textOverflow === "ellipsis" && !tall;
      if (!named && !["auto", "scroll"].includes(cs.overflowX) && !["auto", "scroll"].includes(cs.overflowY)) out.push(name(e) + " cuts its text: " + JSON.stringify(e.textContent.slice(0, 60)));
    }
    if (!clips && wide && e.clientWidth > 0 && [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) out.push(name(e) + " spills its text: " + JSON.stringify(e.textContent.slice(0, 60)));
  }
  const text = document.body.innerText;
  const left = text.match(/\bundefined\b|\bNaN\b|\bnull\b|\[object \w+\]|\{\d+\}/);
  if (left) out.push("a value left unfilled: " + JSON.stringify(text.slice(Math.max(0, left.index - 30), left.index + 30)));
  return JSON.stringify(out.slice(0, 12));
})()`

// matrixNames are the players' names, as people write them: a long one,
// an Arabic one, one with an emoji sequence.
var matrixNames = []string{"Ann", "Wolfgang Amadeus Mozart", "مرحبا", "👨‍🍳 Cy"}

// tab is a browser tab that shows one page at one size, with the script
// errors it met.
type tab struct {
	page
	size screen
	mu   *sync.Mutex
	errs *[]string
	seat int // the seat a phone tab shows, -1 for none yet
}

func openTab(t *testing.T, sv served, name string, size screen) *tab {
	mu, errs := &sync.Mutex{}, &[]string{}
	c, cancel := chromedp.NewContext(sv.root, chromedp.WithNewBrowserContext(), chromedp.WithListener(func(ev any) {
		if e, ok := ev.(*runtime.EventExceptionThrown); ok {
			mu.Lock()
			*errs = append(*errs, fmt.Sprintf("%s (line %d)", e.ExceptionDetails.Text, e.ExceptionDetails.LineNumber))
			mu.Unlock()
		}
	}))
	t.Cleanup(cancel)
	tb := &tab{page: page{t, name + " " + size.name, c}, size: size, mu: mu, errs: errs, seat: -1}
	tb.do(chromedp.EmulateViewport(size.w, size.h))
	return tb
}

// phoneOn reports whether the matrix shows a phone's page on the screen: a
// TV shows the table, and a phone's page on a big screen is the laptop's
// case.
func phoneOn(s screen) bool { return s.name != "tv" }

// moveTo makes the tab part of test t, under the name given, with no seat
// and no script errors yet (a new room).
func (tb *tab) moveTo(t *testing.T, name string) {
	tb.t, tb.name, tb.seat = t, name, -1
	tb.mu.Lock()
	*tb.errs = nil
	tb.mu.Unlock()
}

// tableState is what the matrix reads of the public table.
type tableState struct {
	Seq  int             `json:"seq"`
	Turn []int           `json:"turn"`
	Over bool            `json:"over"`
	View json.RawMessage `json:"view"`
	Room struct {
		Status string `json:"status"`
	} `json:"room"`
}

func (s tableState) phase() string {
	var v struct {
		Phase any `json:"phase"`
	}
	_ = json.Unmarshal(s.View, &v)
	p, _ := v.Phase.(string)
	return p
}

func TestTheScreenshotMatrix(t *testing.T) {
	sv := serveSeeded(t, 12*time.Minute, counting()) // the same games every run
	out := filepath.Join(artifacts(t), "matrix")
	require.NoError(t, os.RemoveAll(out))
	require.NoError(t, os.MkdirAll(out, 0o755))
	players := map[string]int{"woodlouse": 3, "louseflea": 3, "troll": 1, "celestial": 4, "pursesnatcher": 2, "insomnia": 4, "minefield": 3, "deck": 3}
	var rows []string
	// A table tab for each size and a phone tab for each size a phone page
	// is shown on (nil for the TV), kept from game to game: opening a tab in
	// a browser context of its own costs a second of CPU or more.
	var tables, phones []*tab
	for _, s := range screens {
		tables = append(tables, openTab(t, sv, "table", s))
		var ph *tab
		if phoneOn(s) {
			ph = openTab(t, sv, "phone", s)
		}
		phones = append(phones, ph)
	}
	for _, id := range []string{"woodlouse", "louseflea", "troll", "celestial", "pursesnatcher", "insomnia", "minefield", "deck"} {
		t.Run(id, func(t *testing.T) {
			names := matrixNames[:players[id]]
			room, host, toks := roomOf(t, sv.base, id, players[id], names...)
			rng := rand.New(rand.NewPCG(uint64(len(id)), 13))
			for i, s := range screens {
				tables[i].moveTo(t, id+" table "+s.name)
				tables[i].do(chromedp.Navigate(sv.lan + "/t/" + room + "#host=" + host))
				if phones[i] != nil {
					phones[i].moveTo(t, id+" phone "+s.name)
				}
			}
			n := 0
			// look shows the room as it stands on every tab, checks each
			// screen and writes it.
			look := func(phase string) {
				t.Helper()
				var st tableState
				getJSON(t, sv.base+"/api/rooms/"+room+"/table", &st)
				n++
				type shot struct {
					tb   *tab
					file string
				}
				var shots []shot
				for i, s := range screens {
					table := shot{tables[i], fmt.Sprintf("%s-%02d-%s-table-%s.png", id, n, phase, s.name)}
					if phones[i] == nil {
						shots = append(shots, table)
						continue
					}
					// Phones alternate between a seat on turn and one
					// waiting, so that both prompts are seen.
					seat := 0
					if len(st.Turn) > 0 {
						seat = st.Turn[0]
						if i%2 == 1 {
							for k := range toks {
								if !slices.Contains(st.Turn, k) {
									seat = k
									break
								}
							}
						}
					}
					ph := phones[i]
					if ph.seat != seat {
						ph.do(chromedp.Navigate(sv.lan + "/static/app.css"))
						ph.act("the seat's token", fmt.Sprintf(`localStorage.setItem("tableref.seat.%s", %s)`, room, js(toks[seat])))
						ph.do(chromedp.Navigate(sv.lan + "/j/" + room))
						ph.seat = seat
					}
					shots = append(shots, table,
						shot{ph, fmt.Sprintf("%s-%02d-%s-phone-seat%d-%s.png", id, n, phase, seat, s.name)})
				}
				// The screens are taken at once, each in its own tab.
				ready := fmt.Sprintf(`document.body.dataset.seq === "%d" && document.body.dataset.status === %s && (!document.querySelector("img.qr") || document.querySelector("img.qr").complete)`, st.Seq, js(st.Room.Status))
				verdicts := make([]string, len(shots))
				errs := make([]error, len(shots))
				var wg sync.WaitGroup
				for k, sh := range shots {
					wg.Add(1)
					go func() {
						defer wg.Done()
						verdicts[k], errs[k] = capture(sh.tb, ready, filepath.Join(out, sh.file))
					}()
				}
				wg.Wait()
				for k, sh := range shots {
					require.NoError(t, errs[k], "%s", sh.file)
					if verdicts[k] != "ok" {
						t.Errorf("%s: %s", sh.file, verdicts[k])
					}
					rows = append(rows, sh.file+"\t"+verdicts[k])
				}
			}
			look("lobby")
			post(t, sv.base+"/api/rooms/"+room+"/start", host, map[string]any{}, nil)
			look("start")
			// Random moves until the game ends; a game that names its
			// phases is played again (up to three games) while a game
			// brings a phase not yet seen.
			seen := map[string]bool{}
			for round, fresh := 1, true; round <= 3 && fresh; round++ {
				fresh = false
				for moves := 0; ; moves++ {
					var st tableState
					getJSON(t, sv.base+"/api/rooms/"+room+"/table", &st)
					p := st.phase()
					if st.Over {
						if round == 1 {
							look("over")
						}
						break
					}
					if p != "" && !seen[p] && (moves > 0 || round > 1) {
						seen[p], fresh = true, true
						look(p)
					} else if p == "" && moves == 12 && round == 1 {
						look("middle")
					}
					if moves == 400 {
						if round == 1 {
							look("late")
						}
						break
					}
					seat := st.Turn[rng.IntN(len(st.Turn))]
					legal := seatLegal(t, sv.base, room, toks[seat])
					require.NotEmpty(t, legal, "seat %d is on turn", seat)
					mv := legal[rng.IntN(len(legal))]
					post(t, sv.base+"/api/rooms/"+room+"/moves", toks[seat], map[string]any{"move": strings.TrimSpace(mv.Action + " " + strings.Join(mv.Args, " "))}, nil)
				}
				if len(seen) == 0 {
					break // a game without phases: one game shows it
				}
				post(t, sv.base+"/api/rooms/"+room+"/restart", host, map[string]any{}, nil)
			}
		})
	}
	require.NoError(t, os.WriteFile(filepath.Join(out, "matrix.txt"), []byte(strings.Join(rows, "\n")+"\n"), 0o644))
	bad := 0
	for _, r := range rows {
		if !strings.HasSuffix(r, "\tok") {
			bad++
		}
	}
	t.Logf("the screenshot matrix: %d screens (%d games and the dealer × phases × the table on %d sizes and a phone on all but the TV), %d with problems; in %s",
		len(rows), 7, len(screens), bad, out)
}

// capture waits until tb shows the room as ready says, lets the page check
// itself (screenCheck), writes its screenshot to file, and returns "ok" or
// the problems found, with the script errors the tab met. It runs beside
// the other tabs' captures, so it fails by returning an error, not through
// the test.
func capture(tb *tab, ready, file string) (string, error) {
	deadline := time.Now().Add(patience)
	for {
		ok, err := chromedp.Run(tb.ctx, chromedp.Evaluate[bool]("!!("+ready+")"))
		if err == nil && ok {
			break
		}
		if time.Now().After(deadline) {
			return "", fmt.Errorf("%s: waited %v in vain for the room as it stands (%v)", tb.name, patience, err)
		}
		time.Sleep(poll)
	}
	found, err := chromedp.Run(tb.ctx, chromedp.Evaluate[string](screenCheck))
	if err != nil {
		return "", fmt.Errorf("%s: the screen's check: %w", tb.name, err)
	}
	var problems []string
	if err := json.Unmarshal([]byte(found), &problems); err != nil {
		return "", fmt.Errorf("%s: the screen's check said %q: %w", tb.name, found, err)
	}
	png, err := chromedp.Run(tb.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		return "", fmt.Errorf("%s: screenshot: %w", tb.name, err)
	}
	if err := os.WriteFile(file, png, 0o644); err != nil {
		return "", err
	}
	tb.mu.Lock()
	problems = append(problems, *tb.errs...)
	tb.mu.Unlock()
	if len(problems) == 0 {
		return "ok", nil
	}
	return strings.Join(problems, "; "), nil
}

// getJSON reads a JSON answer without a token.
func getJSON(t *testing.T, url string, into any) {
	t.Helper()
	res, err := http.Get(url)
	require.NoError(t, err)
	defer res.Body.Close()
	require.Equal(t, 200, res.StatusCode, url)
	require.NoError(t, json.NewDecoder(res.Body).Decode(into))
}
