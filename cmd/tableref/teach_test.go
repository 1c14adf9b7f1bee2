package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/audio/gesture"
	"github.com/tableref/tableref/referee/hearing"
)

// offerOf is the offer of the check on a room's screens (nil when none).
func offerOf(t *testing.T, p *party, code, host string) map[string]any {
	t.Helper()
	o, _ := liveOf(t, p.srv, code, host)["offer"].(map[string]any)
	return o
}

func TestTheTableOffersTheCheckWhenAGameThatHearsGesturesStarts(t *testing.T) {
	p, srv, _ := newCheckParty(t)
	p.heard(hearing.Event{Kind: "status", Status: "listening to Test Mic", Listening: true})

	// Insomnia hears voices, not gestures: nothing to teach.
	ins, insHost, _, err := srv.CreateRoom("insomnia", 4, "", nil)
	require.NoError(t, err)
	p.listenFor(ins)
	p.step()
	assert.Nil(t, offerOf(t, p, ins, insHost))

	// A Woodlouse room: not in the lobby, but once its game is under way.
	code, host, _, err := srv.CreateRoom("woodlouse", 3, "", nil)
	require.NoError(t, err)
	p.listenFor(code)
	p.step()
	assert.Nil(t, offerOf(t, p, code, host), "not in the lobby (the host has the check's button there)")
	code, host, _ = startedWoodlouse(t, srv)
	p.listenFor(code)
	p.step()
	o := offerOf(t, p, code, host)
	require.NotNil(t, o, "the game started: the table screen offers the check")
	assert.Equal(t, "Teach me this table: clap twice, then bang twice.", o["say"])

	// The microphone is lost: no offer meanwhile.
	p.heard(hearing.Event{Kind: "status", Status: "lost the microphone"})
	p.step()
	assert.Nil(t, offerOf(t, p, code, host))
	p.heard(hearing.Event{Kind: "status", Status: "listening to Test Mic", Listening: true})
	p.step()
	require.NotNil(t, offerOf(t, p, code, host))

	// The host skips it: it goes, and later games do not ask again.
	assert.Equal(t, 401, call(t, srv, "POST", "/api/rooms/"+code+"/miccheck", "", map[string]any{"skip": true}, nil))
	require.Equal(t, 200, call(t, srv, "POST", "/api/rooms/"+code+"/miccheck", host, map[string]any{"skip": true}, nil))
	assert.Nil(t, offerOf(t, p, code, host))
	assert.Nil(t, checkOf(t, srv, code, host), "skipping is no check")
	next, nextHost, _ := startedWoodlouse(t, srv)
	p.listenFor(next)
	p.step()
	assert.Nil(t, offerOf(t, p, next, nextHost), "skipped for the night")
	var ans map[string]any
	assert.Equal(t, 400, call(t, srv, "POST", "/api/rooms/"+code+"/miccheck", host, "skip", &ans))
	assert.Contains(t, ans["error"], `{"skip":true}`)
}

// checkFeatures are the features of a clap and of a bang, made up but far
// apart, as the ears would give them with each gesture.
var checkFeatures = map[string]gesture.Features{
	"clap": {Level: -8, Sudden: 35, Jump: 30, AttackMs: 2, Decay: -25, Early: 4, Centroid: 2500, Flatness: 0.4, Low: 0.05, High: 0.3, Pitch: 0.1, Tonal: 0.15, Formant: -3, Harmonic: 0.2, Fresh: 1, RiseLow: 10, RiseHigh: 40, Surprise: 30, SurpriseLow: 10},
	"bang": {Level: -10, Sudden: 35, Jump: 30, AttackMs: 6, Decay: -6, Early: 1, Centroid: 250, Flatness: 0.002, Low: 0.8, High: 0.002, Pitch: 0.5, Tonal: 0.45, Formant: -18, Harmonic: 0.45, Fresh: 1, RiseLow: 40, RiseHigh: 10, Surprise: 25, SurpriseLow: 40},
}

// playCheck plays a check of the gestures made (kinds of their features),
// heard as heard (the kinds the ears named them), half a second apart, and
// lets it end (after its time, when it heard fewer than four).
func playCheck(p *party, clock interface{ Advance(time.Duration) }, made, heard []string) {
	for i := range made {
		p.heard(hearing.Event{Kind: heard[i], T: 10 + float64(i)/2, Features: checkFeatures[made[i]], Band: gesture.Wide})
		clock.Advance(500 * time.Millisecond)
		p.step()
	}
	clock.Advance(micCheckSeconds * time.Second)
	p.step()
}

func TestACheckFromTheOfferTeachesTheTableForTheNight(t *testing.T) {
	p, srv, clock := newCheckParty(t)
	dir := t.TempDir()
	p.calPath = filepath.Join(dir, calibrationFile)
	var taught []*gesture.Calibration
	p.teach = func(c *gesture.Calibration) { taught = append(taught, c) }
	p.heard(hearing.Event{Kind: "status", Status: "listening to Test Mic", Listening: true})
	code, host, _ := startedWoodlouse(t, srv)
	p.listenFor(code)
	p.step()
	require.NotNil(t, offerOf(t, p, code, host))

	// A check that hears three gestures learns nothing: the offer stays.
	require.Equal(t, 200, call(t, srv, "POST", "/api/rooms/"+code+"/miccheck", host, map[string]any{}, nil))
	assert.Nil(t, offerOf(t, p, code, host), "not while the check listens")
	playCheck(p, clock, []string{"clap", "clap", "bang"}, []string{"bang", "bang", "bang"})
	c := checkOf(t, srv, code, host)
	require.Equal(t, "done", c["state"])
	assert.Equal(t, false, c["learned"])
	assert.Equal(t, "Learned nothing: it heard three of the four gestures, and cannot tell which was missed.", c["learn"])
	assert.NotNil(t, offerOf(t, p, code, host), "offered again")
	assert.Empty(t, taught)
	assert.NoFileExists(t, p.calPath)

	// A check whose claps were all heard as bangs teaches the table, by the
	// place of each gesture in what it asked for.
	require.Equal(t, 200, call(t, srv, "POST", "/api/rooms/"+code+"/miccheck", host, map[string]any{}, nil))
	playCheck(p, clock, []string{"clap", "clap", "bang", "bang"}, []string{"bang", "bang", "bang", "bang"})
	c = checkOf(t, srv, code, host)
	require.Equal(t, "done", c["state"])
	assert.Equal(t, "BBBB", c["heard"])
	assert.Equal(t, false, c["ok"], "the check itself heard them wrongly")
	assert.Equal(t, true, c["learned"])
	assert.True(t, strings.HasPrefix(c["learn"].(string), "Learned this table") || strings.HasPrefix(c["learn"].(string), "Nothing to correct"), "%v", c["learn"])
	require.Len(t, taught, 1, "the ears hear with it from now on")
	assert.Same(t, p.cal, taught[0])
	assert.Nil(t, offerOf(t, p, code, host), "learned: no more offers")
	kept, err := readCalibration(p.calPath)
	require.NoError(t, err, "kept under --data")
	nc, nb := kept.Taught()
	assert.Equal(t, [2]int{2, 2}, [2]int{nc, nb})
	assert.WithinDuration(t, clock.Now(), kept.Learned, 25*time.Second, "learned when the check ended")

	// Later games use it and do not ask.
	next, nextHost, _ := startedWoodlouse(t, srv)
	p.listenFor(next)
	p.step()
	assert.Nil(t, offerOf(t, p, next, nextHost))

	// A restart the same night keeps it; another night offers the check
	// again; a damaged file is said and left alone.
	var said []string
	say := func(f string, a ...any) { said = append(said, f) }
	again := tonightsCalibration(p.calPath, kept.Learned.Add(3*time.Hour), say)
	require.NotNil(t, again)
	assert.Contains(t, said[0], "Hearing the table as the microphone check taught it at")
	assert.Nil(t, tonightsCalibration(p.calPath, kept.Learned.Add(13*time.Hour), say))
	assert.Contains(t, said[1], "from another night")
	assert.Nil(t, tonightsCalibration(filepath.Join(dir, "none.json"), kept.Learned, say))
	assert.Len(t, said, 2, "no file, nothing said")
}

// hearingNews is what a room's screens show of the check.
type hearingNews struct {
	Offer *struct{ Say string } `json:"offer"`
	Check *struct {
		State, Heard, Learn string
		Learned             bool
	} `json:"check"`
}

// hearingOf is what the screens of room show of the check, on the server
// at base.
func hearingOf(t *testing.T, base, room, tok string) hearingNews {
	t.Helper()
	var v struct {
		Live struct {
			Hearing hearingNews `json:"hearing"`
		} `json:"live"`
	}
	apiCall(t, "GET", base+"/api/rooms/"+room+"/view", tok, nil, &v)
	return v.Live.Hearing
}

// TestServeLearnsTheTableFromTheOfferedCheck runs tableref serve with a
// recording as its microphone: the check the table screen offers when the
// game starts hears two bangs, then two claps (made the other way round
// from what it asked for), learns the table from them and keeps it in the
// --data folder; a restart the same night hears with it. (That later games
// are not offered the check is TestACheckFromTheOfferTeachesTheTableForTheNight.)
func TestServeLearnsTheTableFromTheOfferedCheck(t *testing.T) {
	x, rate := vmicReadWAV(t, checkFile(t, "BBCC"))
	wav := filepath.Join(t.TempDir(), "late-check.wav")
	cliWriteWAV(t, wav, rate, append(make([]float64, 3*rate), x...)) // the gestures come 3 s after the game starts
	data := t.TempDir()
	base, out := servePlay(t, "--quiet", "--data", data, "--wav", wav)
	room := startRoom(t, base, "woodlouse")
	waitFor := func(what string, out func() string, ok func() bool) {
		for deadline := time.Now().Add(60 * time.Second); !ok(); time.Sleep(50 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("waited in vain for %s\n%s", what, out())
			}
		}
	}
	waitFor("the offer", out, func() bool { return hearingOf(t, base, room.Room, room.Host).Offer != nil })
	require.Equal(t, 200, apiCall(t, "POST", base+"/api/rooms/"+room.Room+"/miccheck", room.Host, map[string]any{}, nil))
	var h hearingNews
	waitFor("the check's end", out, func() bool {
		h = hearingOf(t, base, room.Room, room.Host)
		return h.Check != nil && h.Check.State == "done"
	})
	require.Equal(t, "BBCC", h.Check.Heard, "%s", out())
	require.True(t, h.Check.Learned, "%+v\n%s", h.Check, out())
	assert.Contains(t, h.Check.Learn, "Learned this table: it had taken your claps for bangs and your bangs for claps")
	assert.Nil(t, h.Offer, "learned: no more offers")
	path := filepath.Join(data, calibrationFile)
	waitFor("the log line", out, func() bool { return strings.Contains(out(), "kept in "+path+" for the night") })
	c, err := readCalibration(path)
	require.NoError(t, err, "kept in the data folder")
	require.True(t, c.Teaches())

	// A restart the same night hears with it.
	_, again := servePlay(t, "--quiet", "--data", data, "--wav", wav)
	waitFor("the calibration of the night", again, func() bool {
		return strings.Contains(again(), "Hearing the table as the microphone check taught it at") && strings.Contains(again(), path)
	})
}
