package catalog

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tableref/tableref/rules/game"
)

// TestTheContractNeverPanics holds every engine (the seven games and the
// dealer) to what package game says each method does for any int seat and
// any move, at random points of random games:
//   - Turn, Over, Result and Audit answer without panicking;
//   - Legal of a seat the game lacks (or not on turn) is empty, no legal
//     move has a brace in its words (the referee refuses those), and the
//     list is a new slice each call, the caller's to change;
//   - View of any seat marshals to JSON, and the view of a seat the game
//     lacks is the table's;
//   - Apply of any move (any seat, any action, any arguments: the game's
//     own actions with random words, random words alone) either refuses it
//     and leaves the state exactly as it was, or accepts it, and then every
//     invariant holds (Audit).
func TestTheContractNeverPanics(t *testing.T) {
	games := append(All(), Tools()...)
	for _, g := range games {
		info := g.Info()
		t.Run(info.ID, func(t *testing.T) {
			r := game.NewRand(uint64(len(info.ID)) * 7919)
			games := 30
			if testing.Short() {
				games = 6
			}
			for k := 0; k < games; k++ {
				players := info.MinPlayers + r.IntN(info.MaxPlayers-info.MinPlayers+1)
				s, err := g.New(game.Config{Players: players, Seed: r.Uint64()})
				if err != nil {
					t.Fatalf("%d players: %v", players, err)
				}
				actions := actionsOf(s, players)
				for step := 0; step < 400 && !s.Over(); step++ {
					if step%5 == 0 {
						if err := probe(s, players, actions, &r); err != nil {
							t.Fatalf("game %d (%d players), after %d moves: %v", k, players, step, err)
						}
					}
					turn := s.Turn()
					if len(turn) == 0 {
						t.Fatalf("game %d: nobody on turn and not over", k)
					}
					seat := turn[r.IntN(len(turn))]
					if _, err := s.Apply(game.Random.Choose(s, seat, &r)); err != nil {
						t.Fatalf("game %d: a legal move was refused: %v", k, err)
					}
				}
				if err := probe(s, players, actions, &r); err != nil {
					t.Fatalf("game %d (%d players), at the end: %v", k, players, err)
				}
			}
		})
	}
}

// actionsOf gathers the action names the game offers at its start, to
// make plausible wrong moves of.
func actionsOf(s game.State, players int) []string {
	var acts []string
	for seat := 0; seat < players; seat++ {
		for _, m := range s.Legal(seat) {
			if !slices.Contains(acts, m.Action) {
				acts = append(acts, m.Action)
			}
		}
	}
	return append(acts, "", "pass", "end", "play", "x")
}

// oddSeats are the seats no game has, besides those past its players.
var oddSeats = []int{game.Table, -2, -1000, math.MinInt, math.MaxInt}

// words are arguments a careless or hostile sender might type.
var words = []string{"", "0", "-1", "1", "2", "99", "-99999999999999999999", "9223372036854775807", "NaN", "{0}", "spider", "QH", "10H", "RJ", "a1", "e5", "z9", "left", "up", "2d6", "d0", "high", "yes", "é", "\u202e", "   "}

// probe calls every method of s as the contract allows, on a clone
// where a method could change it, and says what broke the contract.
func probe(s game.State, players int, actions []string, r *game.Rand) (err error) {
	call := ""
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%s panicked: %v", call, p)
		}
	}()
	call = "Turn"
	s.Turn()
	call = "Over"
	s.Over()
	call = "Result"
	s.Result()
	call = "Audit"
	if err := s.Audit(); err != nil {
		return fmt.Errorf("Audit: %v", err)
	}
	call = "View(Table)"
	table, err := json.Marshal(s.View(game.Table))
	if err != nil {
		return fmt.Errorf("the table's view does not marshal: %v", err)
	}
	seats := append(slices.Clone(oddSeats), players, players+1, players+7)
	for seat := 0; seat < players; seat++ {
		seats = append(seats, seat)
	}
	for _, seat := range seats {
		lacks := seat < 0 || seat >= players
		call = fmt.Sprintf("Legal(%d)", seat)
		legal := s.Legal(seat)
		if lacks && len(legal) > 0 {
			return fmt.Errorf("Legal(%d), a seat the game lacks, offers %v", seat, legal)
		}
		if len(legal) > 0 {
			// The slice is the caller's (the server filters it in place).
			keep := legal[0].Action
			legal[0].Action = "changed by the caller"
			if again := s.Legal(seat); len(again) == 0 || again[0].Action != keep {
				return fmt.Errorf("Legal(%d) handed out a slice the game keeps: changing it changed the game's list", seat)
			}
			legal[0].Action = keep
		}
		for _, m := range legal {
			// The referee refuses a move with a brace in its words (its
			// reasons name seats written "{2}"): no legal move has one.
			for _, w := range append([]string{m.Action}, m.Args...) {
				if strings.ContainsAny(w, "{}") {
					return fmt.Errorf("Legal(%d) offers %q, with a brace", seat, m.String())
				}
			}
		}
		call = fmt.Sprintf("View(%d)", seat)
		v, err := json.Marshal(s.View(seat))
		if err != nil {
			return fmt.Errorf("View(%d) does not marshal: %v", seat, err)
		}
		if lacks && string(v) != string(table) {
			return fmt.Errorf("View(%d), a seat the game lacks, is not the table's view:\n%s\n%s", seat, v, table)
		}
	}
	for i := 0; i < 25; i++ {
		m := game.Move{Seat: seats[r.IntN(len(seats))], Action: actions[r.IntN(len(actions))]}
		for n := r.IntN(4); n > 0; n-- {
			w := words[r.IntN(len(words))]
			if r.IntN(3) == 0 {
				w = strconv.Itoa(r.IntN(60) - 5)
			}
			m.Args = append(m.Args, w)
		}
		c := s.Clone()
		call = fmt.Sprintf("Apply(%q)", m.String())
		if _, err := c.Apply(m); err != nil {
			if !reflect.DeepEqual(c, s) {
				return fmt.Errorf("the refused move %q (%v) changed the state", m.String(), err)
			}
			continue
		}
		call = fmt.Sprintf("Audit after %q", m.String())
		if err := c.Audit(); err != nil {
			return fmt.Errorf("after the accepted move %q: %v", m.String(), err)
		}
	}
	return nil
}
