package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/tableref/tableref/audio/gesture"
	"github.com/tableref/tableref/audio/sound"
	"github.com/tableref/tableref/referee"
	"github.com/tableref/tableref/referee/hearing"
	"github.com/tableref/tableref/referee/timer"
	"github.com/tableref/tableref/rules/catalog"
	"github.com/tableref/tableref/rules/game"
	"github.com/tableref/tableref/webremote"
)

// party joins the referee's ears and voice to the web remote: the
// microphone's codes become the Woodlouse trainer's moves, the voices timer
// follows Insomnia, the table screen shows what is heard, and the speakers
// say the headlines and ring the alarms.
type party struct {
	srv    *webremote.Server
	player sound.Player
	log    func(format string, a ...any)
	done   chan struct{} // closed when the server stops

	// mu guards what follows. It comes before the server's locks: the
	// party calls the server under it (InfoOf, Playing), and the server
	// calls the party with none of its locks held.
	mu        sync.Mutex
	room      string // the room the microphone listens for
	mic       hearing.Status
	gestures  []heardGesture // the code being heard
	lastCode  *heardCode
	voices    []heardVoice // pauses and shouts, newest last
	talking   bool
	started   time.Time // when the room's game was first seen under way
	listening time.Time // when the microphone began serving the room
	check     *tableCheck

	// cal is what the microphone check taught about the table, for the
	// rest of the server's life (nil before); teach hands it to the ears,
	// and calPath is where it is kept, under --data ("": nowhere).
	// skipped: the host said no to the check the table screen offered.
	// offered is whether the offer is on the screens.
	cal     *gesture.Calibration
	teach   func(*gesture.Calibration)
	calPath string
	skipped bool
	offered bool

	// timers lists a room's timers, for the ticks of their last seconds;
	// nil when the server cannot say.
	timers func(room string) []timer.Timer
	ticked map[string]int // room and timer: the last second ticked
	now    func() time.Time
}

type heardGesture struct {
	Kind string  `json:"kind"` // clap or bang
	T    float64 `json:"t"`
}

type heardCode struct {
	Bangs int    `json:"bangs"`
	Claps int    `json:"claps"`
	Order string `json:"order"`
	Used  bool   `json:"used"` // it became the trainer's move
	// Note, for a code not taken, is the whole line the pages show: what
	// was heard and why it was not taken ("heard 1 clap — that fits no
	// card …").
	Note string `json:"note,omitempty"`
	// Masked counts gestures left out because the referee's own sound
	// was in the air when they were heard.
	Masked int `json:"masked,omitempty"`
}

type heardVoice struct {
	Kind string `json:"kind"` // pause or shout
	// Start and End are seconds since the game started (or, after a
	// restart, resumed); At is the time of day it started, "21:04:33".
	Start   float64 `json:"start"`
	End     float64 `json:"end"`
	At      string  `json:"at"`
	Seconds float64 `json:"seconds"`
	DB      float64 `json:"db,omitempty"`
}

// gameInfo is the catalogue entry of game id (the zero Info when there is
// none): what the game declares it needs from the referee (its hearing,
// its announcements and sounds).
func gameInfo(id string) game.Info {
	g, err := catalog.Get(id)
	if err != nil {
		return game.Info{}
	}
	return g.Info()
}

// listens reports whether the microphone serves game id.
func listens(id string) bool { return gameInfo(id).Hears.Listens() }

// listeningGames names the games the microphone serves: "Woodlouse Chaos
// or Insomnia".
func listeningGames() string {
	var names []string
	for _, in := range listeningInfos() {
		names = append(names, in.Name)
	}
	return orList(names)
}

// listeningInfos are the catalogue entries of the games the microphone
// serves, in catalogue order. Each says what it loses without one
// (a test of the catalogue holds them to it).
func listeningInfos() []game.Info {
	var out []game.Info
	for _, g := range catalog.All() {
		if in := g.Info(); in.Hears.Listens() {
			out = append(out, in)
		}
	}
	return out
}

// orList is "a", "a or b", "a, b or c".
func orList(s []string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

// sounds are the referee's sounds by the names games give them
// (game.Info.Sounds).
var sounds = map[string]sound.Name{game.SoundBuzzer: sound.Buzzer, game.SoundChime: sound.Chime, game.SoundAlarm: sound.Alarm}

const voicesKept = 20

// afterStart delays an opener until the room the microphone serves has a
// game under way.
func (p *party) afterStart(open hearing.Opener) hearing.Opener {
	return func() (hearing.Input, string, bool, error) {
		for {
			p.mu.Lock()
			room := p.room
			p.mu.Unlock()
			if room != "" && p.srv.Playing(room) {
				return open()
			}
			select {
			case <-p.done:
				return nil, "", false, errors.New("the server is stopping")
			case <-time.After(100 * time.Millisecond):
			}
		}
	}
}

// adopt makes the microphone serve the resumed room that most wants it
// after a restart: a Woodlouse Chaos or Insomnia game under way before one
// paused, over or in the lobby, and among those the one changed last
// (changed says when a room last changed). It reports the room chosen.
func (p *party) adopt(changed func(code string) time.Time) (string, bool) {
	rank := map[string]int{"playing": 3, "paused": 2, "lobby": 1}
	best, bestRank, bestAt := "", 0, time.Time{}
	for _, r := range p.srv.Rooms() {
		if in, _ := p.srv.InfoOf(r.Code); !in.Hears.Listens() {
			continue
		}
		k, at := rank[r.Status], changed(r.Code)
		if best == "" || k > bestRank || k == bestRank && at.After(bestAt) {
			best, bestRank, bestAt = r.Code, k, at
		}
	}
	if best == "" {
		return "", false
	}
	p.listenFor(best)
	return best, true
}

// listenFor makes room the one the microphone serves.
func (p *party) listenFor(room string) {
	p.mu.Lock()
	changed := p.room != room
	if changed {
		p.room, p.gestures, p.lastCode, p.voices, p.started, p.listening = room, nil, nil, nil, time.Time{}, p.clock()
	}
	p.mu.Unlock()
	if changed {
		p.publish(room)
	}
}

// attach makes the party the server's referee: it says and rings what
// happens in the rooms, from the first listener on what happened as they
// were resumed (a Purse Snatcher meeting whose time ran out while the
// server was down), and ticks the timers' last seconds (watch).
func (p *party) attach() {
	p.srv.OnEvents(p.events)
	p.srv.OnTimer(p.timerDone)
	p.srv.OnMicCheck(p.micCheck)
	p.srv.OnMicCheckSkip(p.skipCheck)
	p.timers = p.srv.Timers
}

// setMic says what the microphone does, on the screens of the room it
// serves.
func (p *party) setMic(s hearing.Status) {
	p.mu.Lock()
	p.mic = s
	room := p.room
	p.mu.Unlock()
	if room != "" {
		p.publish(room)
	}
}

// heard takes an event from the ears: gestures and codes for Woodlouse
// Chaos, pauses and shouts for Insomnia.
func (p *party) heard(ev hearing.Event) {
	p.mu.Lock()
	room := p.room
	checking := p.checkingLocked()
	if checking && (ev.Kind == "clap" || ev.Kind == "bang" || ev.Kind == "retract") {
		p.checkHeardLocked(ev)
		p.mu.Unlock()
		p.publish(room)
		return
	}
	if ev.Kind == "code" && p.checkCodeLocked() {
		p.mu.Unlock()
		return
	}
	info, _ := p.srv.InfoOf(room)
	hears := info.Hears
	keep := ev.Kind == "status" || ev.Kind == "mic" ||
		!checking && hears.Gestures && (ev.Kind == "clap" || ev.Kind == "bang" || ev.Kind == "retract" || ev.Kind == "code") ||
		hears.Voices && (strings.HasPrefix(ev.Kind, "pause") || strings.HasPrefix(ev.Kind, "shout"))
	if !keep {
		p.mu.Unlock()
		return
	}
	switch ev.Kind {
	case "status":
		p.mic = hearing.Status{Listening: ev.Listening, Message: ev.Status}
		p.log("microphone: %s\n", ev.Status)
	case "mic":
		told := map[string]bool{}
		for _, q := range p.mic.Problems {
			told[q.Kind] = true
		}
		for _, q := range ev.Problems {
			if !told[q.Kind] {
				p.log("microphone: %s\n", q.Say)
			}
		}
		if len(ev.Problems) == 0 && len(p.mic.Problems) > 0 {
			p.log("microphone: fine now\n")
		}
		p.mic.Problems = ev.Problems
	case "clap", "bang":
		p.gestures = append(p.gestures, heardGesture{ev.Kind, ev.T})
	case "retract":
		if i := slices.IndexFunc(p.gestures, func(g heardGesture) bool { return g.T == ev.T }); i >= 0 {
			p.gestures = slices.Delete(p.gestures, i, i+1)
		}
	case "code":
		p.gestures = nil
		p.lastCode = &heardCode{Bangs: ev.Bangs, Claps: ev.Claps, Order: ev.Order, Masked: ev.Masked}
	case "pause-start":
		p.talking = false
	case "pause", "shout":
		wall := ev.Wall
		if wall.IsZero() {
			wall = p.clock()
		}
		from := p.gameStartLocked(room, wall)
		start := round2(max(0, wall.Sub(from).Seconds()))
		v := heardVoice{Kind: ev.Kind, Start: start, End: round2(start + ev.End - ev.Start), At: wall.Local().Format("15:04:05"),
			Seconds: round2(ev.End - ev.Start), DB: ev.DB}
		p.voices = append(p.voices, v)
		if len(p.voices) > voicesKept {
			p.voices = p.voices[len(p.voices)-voicesKept:]
		}
		p.talking = true
	case "shout-start":
		p.talking = true
	}
	code := p.lastCode
	p.mu.Unlock()
	if room == "" {
		return
	}
	if ev.Kind == "code" && code != nil {
		p.useCode(room, code)
	}
	if ev.Kind == "shout-start" {
		p.player.Play(sound.Buzzer)
	}
	p.publish(room)
}

func (p *party) clock() time.Time {
	if p.now != nil {
		return p.now()
	}
	return time.Now()
}

// gameStartLocked is when room's game was first seen under way (at the
// latest, at); before the game starts, when the microphone began serving
// the room.
func (p *party) gameStartLocked(room string, at time.Time) time.Time {
	if p.started.IsZero() && room != "" && p.srv.Playing(room) {
		p.started = at
	}
	if p.started.IsZero() {
		return p.listening
	}
	return p.started
}

// watch notes when the game the microphone serves starts, and ticks the
// last seconds of every running timer, until the server stops.
func (p *party) watch(every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-p.done:
			return
		case <-t.C:
			p.step()
		}
	}
}

// tickFor is how many of a timer's last seconds tick.
const tickFor = 5

// step does watch's work once.
func (p *party) step() {
	now := p.clock()
	p.mu.Lock()
	p.gameStartLocked(p.room, now)
	room := p.room
	offer := p.offerLocked(room)
	changed := offer != p.offered
	p.mu.Unlock()
	if changed {
		p.publish(room) // a game that hears gestures started, or the offer ended
	}
	p.checkStep(now)
	if p.timers == nil {
		return
	}
	seen := map[string]bool{}
	for _, r := range p.srv.Rooms() {
		for _, t := range p.timers(r.Code) {
			left := t.Remaining(now)
			if !t.Running() || left <= 0 || left > tickFor*time.Second {
				continue
			}
			key := r.Code + "/" + t.Name
			sec := int((left + time.Second - 1) / time.Second) // 5, 4, ... 1
			seen[key] = true
			if p.ticked[key] != sec {
				if p.ticked == nil {
					p.ticked = map[string]int{}
				}
				p.ticked[key] = sec
				p.player.Play(sound.Tick)
			}
		}
	}
	for k := range p.ticked {
		if !seen[k] {
			delete(p.ticked, k)
		}
	}
}

// useCode gives a heard code to the trainer, if one is waiting for it. A
// code that fits no card, or that the referee's own sound may have spoilt,
// is more likely misheard than miscounted: it is shown, with what to do,
// and the trainer repeats it or enters it on the phone. A code that fits a
// card is the trainer's move (a miscount then triggers the mistake rule).
// Every code heard is one line of the log; a code not taken has a note that
// says what was heard and why (the pages show it as it is).
func (p *party) useCode(room string, c *heardCode) {
	heard := "heard " + gestures(c.Bangs, c.Claps)
	const again = "repeat the code or enter it on the phone"
	note := func(s string) {
		p.mu.Lock()
		c.Note = s
		p.mu.Unlock()
		p.log("%s: %s\n", room, s)
	}
	mv, err := p.srv.CodeFor(room, c.Bangs, c.Claps)
	var misfit *webremote.MisfitError
	switch {
	case errors.Is(err, webremote.ErrNoRoom) || errors.Is(err, webremote.ErrNotPlaying):
		note(heard + " — no game under way")
		return
	case errors.Is(err, webremote.ErrNoCodeNow):
		note(heard + " — not a time for a code")
		return
	case c.Masked > 0:
		note(fmt.Sprintf("%s, but %s came while the referee's own sound played: %s", heard, plural(c.Masked, "gesture"), again))
		return
	case errors.As(err, &misfit):
		why := misfit.Error()
		if _, after, found := strings.Cut(why, ": "); found {
			why = after
		}
		note(fmt.Sprintf("%s — that fits no card (%s): %s", heard, why, again))
		return
	case err != nil:
		note(fmt.Sprintf("%s — not taken (%v): %s", heard, err, again))
		return
	}
	p.log("%s: %s: the trainer's code\n", room, heard) // before the judgement's announcement
	if _, err := p.srv.Apply(room, mv); err != nil {
		note(fmt.Sprintf("%s — not taken (%v): %s", heard, err, again))
		return
	}
	p.mu.Lock()
	c.Used = true
	p.mu.Unlock()
}

// gestures says a code as heard: "1 clap", "2 bangs and 3 claps".
func gestures(bangs, claps int) string {
	switch {
	case bangs == 0:
		return plural(claps, "clap")
	case claps == 0:
		return plural(bangs, "bang")
	}
	return plural(bangs, "bang") + " and " + plural(claps, "clap")
}

// publish puts what is heard on the room's screens.
func (p *party) publish(room string) {
	p.mu.Lock()
	// Copies only: the server marshals them after the lock is released,
	// while useCode writes the heard code's note under it.
	var code *heardCode
	if p.lastCode != nil {
		cp := *p.lastCode
		code = &cp
	}
	live := map[string]any{
		"mic":      p.mic,
		"gestures": append([]heardGesture{}, p.gestures...),
		"code":     code,
		"voices":   append([]heardVoice{}, p.voices...),
		"talking":  p.talking,
	}
	if c := p.check; c != nil && c.room == room {
		cp := *c
		live["check"] = &cp
	}
	if room == p.room {
		p.offered = p.offerLocked(room)
		if p.offered {
			live["offer"] = map[string]string{"say": teachAsk}
		}
	}
	p.mu.Unlock()
	p.srv.SetLive(room, "hearing", live)
}

// events says out loud what a referee would, and rings the right sounds.
func (p *party) events(room string, evs []referee.Logged) {
	info, _ := p.srv.InfoOf(room)
	if info.Hears.Listens() {
		p.listenFor(room)
	}
	for _, e := range evs {
		if !e.Public() {
			continue
		}
		if s, ok := sounds[info.Sounds[e.Type]]; ok {
			p.player.Play(s)
		}
		if text, ok := referee.Announcement(info, e); ok {
			p.log("%s: %s\n", room, text)
			p.player.Say(text)
		}
	}
}

// timerDone rings when a room's timer runs out.
func (p *party) timerDone(room, name string) {
	p.player.Play(sound.Alarm)
	p.player.Say("The " + strings.TrimSpace(name) + " timer has run out.")
}

func round2(x float64) float64 { return float64(int64(x*100+0.5)) / 100 }
