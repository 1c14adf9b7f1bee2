package main

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/audio"
	"github.com/tableref/tableref/audio/sound"
	"github.com/tableref/tableref/referee/hearing"
	"github.com/tableref/tableref/referee/timer"
	"github.com/tableref/tableref/webremote"
)

// checkOf is the microphone check on a room's screens (nil when none).
func checkOf(t *testing.T, srv *webremote.Server, code, host string) map[string]any {
	t.Helper()
	c, _ := liveOf(t, srv, code, host)["check"].(map[string]any)
	return c
}

func newCheckParty(t *testing.T) (*party, *webremote.Server, *timer.Fake) {
	clock := &timer.Fake{}
	srv := webremote.New(webremote.Config{RateLimit: -1, Clock: clock})
	p := &party{srv: srv, player: &sound.Recorder{}, log: func(string, ...any) {}, done: make(chan struct{}), talking: true, now: clock.Now}
	p.attach()
	return p, srv, clock
}

func TestTheHostChecksTheMicrophoneFromTheTable(t *testing.T) {
	p, srv, clock := newCheckParty(t)
	code, host, _, err := srv.CreateRoom("woodlouse", 3, "", nil)
	require.NoError(t, err)
	var ans map[string]any

	// Not listening (serve --no-mic): the host is told why, in words, not
	// with the command line's flag.
	p.setMic(hearing.Status{Message: "the referee is not listening to the table"})
	assert.Equal(t, 409, call(t, srv, "POST", "/api/rooms/"+code+"/miccheck", host, nil, &ans))
	assert.Contains(t, ans["error"], "the microphone cannot be checked: the referee is not listening to the table")

	p.heard(hearing.Event{Kind: "status", Status: "listening to Test Mic", Listening: true})
	// Only the host may start it.
	assert.Equal(t, 401, call(t, srv, "POST", "/api/rooms/"+code+"/miccheck", "", nil, nil))
	require.Equal(t, 200, call(t, srv, "POST", "/api/rooms/"+code+"/miccheck", host, nil, nil))
	c := checkOf(t, srv, code, host)
	require.NotNil(t, c, "the check is on the room's screens")
	assert.Equal(t, "listening", c["state"])
	assert.Contains(t, c["say"], "Clap twice")

	for i, k := range []string{"clap", "clap", "bang", "bang"} {
		p.heard(hearing.Event{Kind: k, T: float64(i) / 2})
		if i == 1 {
			// someone says "okay": its first burst is a bang, taken back
			p.heard(hearing.Event{Kind: "bang", T: 0.7})
			assert.Equal(t, "CCB", checkOf(t, srv, code, host)["heard"])
			p.heard(hearing.Event{Kind: "retract", T: 0.7})
		}
		clock.Advance(500 * time.Millisecond)
		p.step()
	}
	assert.Equal(t, "CCBB", checkOf(t, srv, code, host)["heard"])
	assert.Empty(t, liveOf(t, srv, code, host)["gestures"], "the check's gestures are not a code in progress")
	clock.Advance(time.Second)
	p.step()
	c = checkOf(t, srv, code, host)
	assert.Equal(t, "done", c["state"])
	assert.Equal(t, true, c["ok"])
	assert.Contains(t, c["say"], "All right")

	// The code the four gestures make comes after the check: nobody's move.
	p.heard(hearing.Event{Kind: "code", Bangs: 2, Claps: 2, Order: "CCBB"})
	assert.Nil(t, liveOf(t, srv, code, host)["code"], "the check's code is not shown as the trainer's")

	// A second check that hears a clap for a bang says so; the problems of
	// the input are listed with the verdict.
	require.Equal(t, 200, call(t, srv, "POST", "/api/rooms/"+code+"/miccheck", host, nil, nil))
	p.heard(hearing.Event{Kind: "mic", Problems: []audio.MicProblem{{Kind: "hum", Say: "mains hum"}}})
	for _, k := range []string{"clap", "clap", "clap", "bang"} {
		p.heard(hearing.Event{Kind: k})
	}
	clock.Advance(time.Second)
	p.step()
	c = checkOf(t, srv, code, host)
	assert.Equal(t, false, c["ok"])
	assert.True(t, strings.Contains(c["say"].(string), "a clap was taken for a bang"), "%v", c["say"])
	require.Len(t, c["problems"], 1)

	// Nothing heard: it gives up after its time and says what to look at.
	require.Equal(t, 200, call(t, srv, "POST", "/api/rooms/"+code+"/miccheck", host, nil, nil))
	for range 5 {
		clock.Advance(5 * time.Second)
		p.step()
	}
	c = checkOf(t, srv, code, host)
	assert.Equal(t, "done", c["state"])
	assert.Contains(t, c["say"], "Heard no clap")
}

func TestAServerWithoutAMicrophoneHasNoCheck(t *testing.T) {
	srv := webremote.New(webremote.Config{RateLimit: -1})
	code, host, _, err := srv.CreateRoom("deck", 3, "", nil)
	require.NoError(t, err)
	var ans map[string]any
	assert.Equal(t, 409, call(t, srv, "POST", "/api/rooms/"+code+"/miccheck", host, nil, &ans))
	assert.Contains(t, ans["error"], "no microphone")
}
