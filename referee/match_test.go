package referee

import (
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tableref/tableref/rules/catalog"
	"github.com/tableref/tableref/rules/game"
	"github.com/tableref/tableref/rules/louseflea"
	"github.com/tableref/tableref/rules/woodlouse"
)

var four = []string{"Ann", "Bob", "Cy", "Di"}

// play makes n moves with the game's bot, returning them.
func play(t *testing.T, m *Match, n int, seed uint64) []game.Move {
	t.Helper()
	r := game.NewRand(seed)
	bot := game.BotFor(m.Game())
	var done []game.Move
	for i := 0; i < n && !m.Over(); i++ {
		snap := m.Snapshot(game.Table, 0)
		seat := snap.Turn[r.IntN(len(snap.Turn))]
		m.mu.Lock()
		mv := bot.Choose(m.s, seat, &r)
		m.mu.Unlock()
		_, _, err := m.Apply(mv)
		require.NoError(t, err, "move %s", mv)
		done = append(done, mv)
	}
	return done
}

func TestAMoveFromASeatNotOnTurnIsRefusedAsNotYourTurn(t *testing.T) {
	m, err := New(louseflea.Game, game.Config{Seed: 3}, four)
	require.NoError(t, err)
	snap := m.Snapshot(game.Table, 0)
	require.Len(t, snap.Turn, 1)
	other := (snap.Turn[0] + 1) % 4
	_, _, err = m.Apply(game.M(other, "pass"))
	require.ErrorIs(t, err, ErrNotYourTurn)
	assert.Contains(t, err.Error(), four[other])
	assert.Contains(t, err.Error(), "waiting for "+four[snap.Turn[0]])
	assert.Equal(t, 0, m.Seq())
}

func TestAnUnknownSeatIsRefused(t *testing.T) {
	m, err := New(louseflea.Game, game.Config{Seed: 3}, four)
	require.NoError(t, err)
	_, _, err = m.Apply(game.M(7, "pass"))
	require.ErrorIs(t, err, ErrNoSeat)
	_, _, err = m.Apply(game.M(-1, "pass"))
	require.ErrorIs(t, err, ErrNoSeat)
}

func TestARefusalNamesThePlayersAndChangesNothing(t *testing.T) {
	m, err := New(woodlouse.Game, game.Config{Seed: 9}, four)
	require.NoError(t, err)
	before := m.Snapshot(game.Table, 0)
	trainer := before.Turn[0]
	guesser := (trainer + 1) % 4
	// Guesses wait for the code: the seat may not act yet.
	_, _, err = m.Apply(game.M(guesser, "guess", "spider", "4"))
	require.Error(t, err)
	// A code with an argument that means nothing is the engine's refusal.
	_, _, err = m.Apply(game.M(trainer, "code", "three", "4"))
	var r *game.RefusedError
	require.ErrorAs(t, err, &r)
	assert.NotContains(t, r.Reason, "{")
	after := m.Snapshot(game.Table, 0)
	assert.Equal(t, before, after)
}

func TestEventsAreNamedNumberedAndShownOnlyToTheirSeats(t *testing.T) {
	for _, g := range catalog.All() {
		t.Run(g.Info().ID, func(t *testing.T) {
			info := g.Info()
			names := []string{"Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus"}[:info.MinPlayers]
			m, err := New(g, game.Config{Seed: 5}, names)
			require.NoError(t, err)
			play(t, m, 60, 5)
			seq := m.Seq()
			for seat := game.Table; seat < len(names); seat++ {
				snap := m.Snapshot(seat, 0)
				assert.Equal(t, seq, snap.Seq)
				assert.True(t, json.Valid(snap.View))
				for _, e := range snap.Events {
					assert.True(t, e.For(seat), "seat %d got %+v", seat, e)
					assert.NotRegexp(t, `\{\d+\}`, e.Text, "an unnamed seat in %q", e.Text)
					assert.True(t, e.Seq >= 0 && e.Seq <= seq, "seq 0: the set-up (game.Opener)")
				}
				if seat >= 0 && !snap.Over {
					for _, mv := range snap.Legal {
						assert.Equal(t, seat, mv.Seat)
					}
				}
				// since filters by sequence number.
				for _, e := range m.Snapshot(seat, seq-1).Events {
					assert.Equal(t, seq, e.Seq)
				}
			}
		})
	}
}

func TestAReplayedMatchEqualsTheOriginal(t *testing.T) {
	for _, g := range catalog.All() {
		t.Run(g.Info().ID, func(t *testing.T) {
			info := g.Info()
			names := []string{"Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus"}[:info.MaxPlayers]
			m, err := New(g, game.Config{Seed: 11}, names)
			require.NoError(t, err)
			moves := play(t, m, 80, 11)
			r, err := Replay(g, m.Config(), names, moves)
			require.NoError(t, err)
			for seat := game.Table; seat < len(names); seat++ {
				a, b := m.Snapshot(seat, 0), r.Snapshot(seat, 0)
				assert.Equal(t, string(a.View), string(b.View))
				assert.Equal(t, a.Seq, b.Seq)
				assert.Equal(t, a.Events, b.Events)
			}
		})
	}
}

func TestAReplayStopsAtTheFirstRefusedMoveAndSaysWhich(t *testing.T) {
	_, err := Replay(louseflea.Game, game.Config{Seed: 1}, four, []game.Move{game.M(0, "fly")})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "replaying move 1 (0 fly)")
}

func TestAFinishedGameRefusesMovesAndGivesANamedResult(t *testing.T) {
	m, err := New(louseflea.Game, game.Config{Seed: 2}, four)
	require.NoError(t, err)
	play(t, m, 100000, 2)
	require.True(t, m.Over())
	snap := m.Snapshot(0, 0)
	require.NotNil(t, snap.Result)
	assert.NotContains(t, snap.Result.Text, "{")
	assert.Empty(t, snap.Legal)
	_, _, err = m.Apply(game.M(0, "pass"))
	assert.True(t, errors.Is(err, game.ErrOver))
}

func TestTheEventLogKeepsTheMostRecent(t *testing.T) {
	m, err := New(louseflea.Game, game.Config{Seed: 4}, four)
	require.NoError(t, err)
	play(t, m, 100000, 4)
	m.mu.Lock()
	n := len(m.events)
	m.mu.Unlock()
	assert.LessOrEqual(t, n, EventLog)
	snap := m.Snapshot(game.Table, 0)
	if len(snap.Events) > 0 {
		assert.Equal(t, m.Seq(), snap.Events[len(snap.Events)-1].Seq)
	}
}

func TestConcurrentMovesAreAppliedOneAtATime(t *testing.T) {
	// Woodlouse guesses arrive together from every guesser; exactly one
	// right guess may win the card, whatever the interleaving.
	for seed := uint64(1); seed <= 20; seed++ {
		m, err := New(woodlouse.Game, game.Config{Seed: seed}, four)
		require.NoError(t, err)
		snap := m.Snapshot(game.Table, 0)
		trainer := snap.Turn[0]
		legal := m.Snapshot(trainer, 0).Legal
		require.NotEmpty(t, legal)
		_, _, err = m.Apply(legal[0]) // the right code
		require.NoError(t, err)
		right := rightGuess(t, m, trainer)
		// Every guesser calls the right card at once.
		var wg sync.WaitGroup
		wins := make(chan error, 3)
		for s := 0; s < 4; s++ {
			if s == trainer {
				continue
			}
			wg.Add(1)
			go func(s int) {
				defer wg.Done()
				_, _, err := m.Apply(game.M(s, "guess", right...))
				wins <- err
			}(s)
		}
		wg.Wait()
		close(wins)
		ok := 0
		for err := range wins {
			if err == nil {
				ok++
			}
		}
		assert.Equal(t, 1, ok, "seed %d: %d guesses accepted", seed, ok)
	}
}

// rightGuess reads the trainer's card ("4 spiders") from the trainer's own
// view, as guess arguments.
func rightGuess(t *testing.T, m *Match, trainer int) []string {
	var v struct {
		Card string `json:"card"`
	}
	require.NoError(t, json.Unmarshal(m.Snapshot(trainer, 0).View, &v))
	f := strings.Fields(v.Card)
	require.Len(t, f, 2, "the trainer's card in %s", m.Snapshot(trainer, 0).View)
	return []string{f[1], f[0]}
}

// waitState is a game where every seat is listed in turn but the engine
// refuses seat 1 as out of turn (as a simultaneous phase does for a seat
// that has already acted).
type waitState struct{}

func (waitState) Turn() []int           { return []int{0, 1} }
func (waitState) Legal(int) []game.Move { return nil }
func (waitState) View(int) any          { return map[string]int{} }
func (waitState) Over() bool            { return false }
func (waitState) Result() game.Result   { return game.Result{} }
func (s waitState) Clone() game.State   { return s }
func (waitState) Audit() error          { return nil }
func (waitState) Apply(m game.Move) ([]game.Event, error) {
	return nil, game.RefuseTurn(m, "%s has already acted", game.Seat(m.Seat))
}

type waitGame struct{}

func (waitGame) Info() game.Info                     { return game.Info{ID: "wait", MinPlayers: 2, MaxPlayers: 2} }
func (waitGame) New(game.Config) (game.State, error) { return waitState{}, nil }

func TestAnEnginesTurnRefusalStaysATurnRefusalWithNames(t *testing.T) {
	m, err := New(waitGame{}, game.Config{}, []string{"Ann", "Bob"})
	require.NoError(t, err)
	_, _, err = m.Apply(game.M(1, "act"))
	require.Error(t, err)
	assert.True(t, game.IsTurnRefusal(err), "the engine's out-of-turn mark survives the naming: %v", err)
	assert.Contains(t, err.Error(), "Bob has already acted")
}
