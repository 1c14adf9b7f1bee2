package catalog

import (
	"reflect"
	"testing"

	"github.com/tableref/tableref/rules/game"
)

// FuzzMoves feeds every engine moves typed by hand (as a phone, a bot or a
// journal could send them) at any point of a game: whatever the text, the
// engine must not panic, and a refused move must leave the state untouched
// while an accepted one keeps every invariant.
func FuzzMoves(f *testing.F) {
	f.Add(uint8(0), uint64(1), uint8(3), "1 guess spider 4")
	f.Add(uint8(0), uint64(2), uint8(0), "0 code 3 -4")
	f.Add(uint8(1), uint64(3), uint8(5), "2 play broom")
	f.Add(uint8(2), uint64(4), uint8(2), "0 move up")
	f.Add(uint8(2), uint64(5), uint8(9), "0 lay left 99")
	f.Add(uint8(3), uint64(6), uint8(1), "1 pick 10")
	f.Add(uint8(4), uint64(7), uint8(4), "0 fingers 5")
	f.Add(uint8(5), uint64(8), uint8(7), "0 show 7")
	f.Add(uint8(6), uint64(9), uint8(6), "1 fast a1 b2")
	f.Add(uint8(7), uint64(10), uint8(2), "0 pass QH 2")
	f.Fuzz(func(t *testing.T, which uint8, seed uint64, before uint8, text string) {
		games := append(All(), Tools()...)
		g := games[int(which)%len(games)]
		info := g.Info()
		cfg := game.Config{Players: info.MinPlayers + int(seed%uint64(info.MaxPlayers-info.MinPlayers+1)), Seed: seed}
		s, err := g.New(cfg)
		if err != nil {
			t.Fatalf("%s: %v", info.ID, err)
		}
		r := game.NewRand(seed)
		for i := 0; i < int(before) && !s.Over(); i++ {
			turn := s.Turn()
			seat := turn[r.IntN(len(turn))]
			if _, err := s.Apply(game.Random.Choose(s, seat, &r)); err != nil {
				t.Fatalf("%s: a legal move was refused: %v", info.ID, err)
			}
		}
		m, err := game.ParseMove(text)
		if err != nil {
			return
		}
		before2 := s.Clone()
		if _, err := s.Apply(m); err != nil {
			if !reflect.DeepEqual(before2, s) {
				t.Fatalf("%s: the refused move %q (%v) changed the state", info.ID, text, err)
			}
			return
		}
		if err := s.Audit(); err != nil {
			t.Fatalf("%s: after %q: %v", info.ID, text, err)
		}
	})
}
