package main

import (
	"fmt"

	"github.com/tableref/tableref/audio/talk"
)

// talkPrinter reports what the Insomnia voices timer hears.
type talkPrinter interface {
	heard(talk.Event)
}

type (
	jsonPause struct {
		Event   string  `json:"event"`
		Start   float64 `json:"start"`
		End     float64 `json:"end"`
		Seconds float64 `json:"seconds"`
	}
	jsonShout struct {
		Event string  `json:"event"`
		Start float64 `json:"start"`
		End   float64 `json:"end"`
		DB    float64 `json:"db"` // the loudest it got above the room
	}
	jsonUnder struct {
		Event string  `json:"event"` // pause-start or shout-start
		Start float64 `json:"start"`
		At    float64 `json:"at"`
	}
	jsonVoiceLevel struct {
		Event   string  `json:"event"`
		T       float64 `json:"t"`
		DB      float64 `json:"db"`
		Room    float64 `json:"room,omitempty"`
		Talking bool    `json:"talking"`
	}
	jsonVoicesEnd struct {
		Event  string  `json:"event"`
		T      float64 `json:"t"`
		Pauses int     `json:"pauses"`
		Shouts int     `json:"shouts"`
	}
)

// levelEvery thins the 50 frames a second to ten level lines a second.
const levelEvery = 5

func (p *jsonPrinter) heard(e talk.Event) {
	switch e.Kind {
	case talk.Pause:
		p.pauses++
		p.put(jsonPause{"pause", p.at(e.Start), p.at(e.End), round4(float64(e.End-e.Start) / float64(p.rate))})
	case talk.Shout:
		p.shouts++
		p.put(jsonShout{"shout", p.at(e.Start), p.at(e.End), round1(e.DB)})
	case talk.PauseStart, talk.ShoutStart:
		p.put(jsonUnder{string(e.Kind), p.at(e.Start), p.at(e.End)})
	case talk.Level:
		p.frames++
		if p.levels && p.frames%levelEvery == 0 {
			p.put(jsonVoiceLevel{"level", p.at(e.End), round1(e.DB), round1(nanToZero(e.RoomDB)), e.Talking})
		}
	}
}

func nanToZero(x float64) float64 {
	if x != x {
		return 0
	}
	return x
}

func (p *humanPrinter) heard(e talk.Event) {
	at := func(s int64) string { return clock(float64(s) / float64(p.rate)) }
	switch e.Kind {
	case talk.PauseStart:
		p.line("  %s  the table is silent...", at(e.Start))
	case talk.Pause:
		p.pauses++
		p.line("  %s  PAUSE of %.1f s, until %s", at(e.Start), float64(e.End-e.Start)/float64(p.rate), at(e.End))
	case talk.ShoutStart:
		p.line("  %s  SHOUTING", at(e.Start))
	case talk.Shout:
		p.shouts++
		p.line("  %s  a shout until %s, %.0f dB over the room", at(e.Start), at(e.End), e.DB)
	case talk.Level:
		p.frames++
		if p.tty && p.live && p.frames%levelEvery == 0 {
			state := "silent "
			if e.Talking {
				state = "talking"
			}
			fmt.Fprintf(p.w, "\r\033[K  %s %s %4.0f dB", state, meterBar(e.DB), e.DB)
			p.meter = true
		}
	}
}
