package referee

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/rules/catalog"
	"github.com/tableref/tableref/rules/game"
	"github.com/tableref/tableref/rules/louseflea"
	"github.com/tableref/tableref/rules/woodlouse"
)

func TestAHeardCodeIsTheTrainersCodeMove(t *testing.T) {
	m, err := New(woodlouse.Game, game.Config{Seed: 9}, four)
	require.NoError(t, err)
	trainer := m.Snapshot(game.Table, 0).Turn[0]
	mv, ok := m.CodeMove(3, 4)
	require.True(t, ok)
	assert.Equal(t, game.M(trainer, "code", "3", "4"), mv)
	// Once the code is given, guessing is open: a code heard now is nobody's.
	right := m.Snapshot(trainer, 0).Legal[0]
	_, _, err = m.Apply(right)
	require.NoError(t, err)
	_, ok = m.CodeMove(3, 4)
	assert.False(t, ok)
}

func TestACodeThatFitsNoCardSaysWhy(t *testing.T) {
	m, err := New(woodlouse.Game, game.Config{Seed: 9}, four) // four sequence cards
	require.NoError(t, err)
	assert.NoError(t, m.CodeFits(4, 5))
	assert.NoError(t, m.CodeFits(1, 1))
	for _, c := range []struct {
		bangs, claps int
		why          string
	}{
		{0, 1, "no bangs"},
		{5, 2, "5 bangs, but only 4 sequence cards"},
		{1, 0, "no claps"},
		{2, 6, "6 claps, and a card shows at most 5"},
		{0, 12, "no bangs"},
	} {
		err := m.CodeFits(c.bangs, c.claps)
		if assert.Error(t, err, "%d bangs %d claps", c.bangs, c.claps) {
			assert.Contains(t, err.Error(), c.why)
		}
	}
	lf, err := New(louseflea.Game, game.Config{Seed: 1}, four)
	require.NoError(t, err)
	assert.Error(t, lf.CodeFits(1, 1))
}

func TestAGameWithoutCodesHearsNone(t *testing.T) {
	m, err := New(louseflea.Game, game.Config{Seed: 1}, four)
	require.NoError(t, err)
	_, ok := m.CodeMove(1, 1)
	assert.False(t, ok)
}

func TestTheRefereeSaysTheHeadlinesOnly(t *testing.T) {
	for _, c := range []struct {
		game, typ, text, want string
		to                    []int
	}{
		{"woodlouse", "mistake", "Ann gives 3 bangs and 4 claps, but the card shows 2 rats: a wrong code. The card goes under the pile.", "Wrong code! Ann gives 3 bangs and 4 claps, but the card shows 2 rats.", nil},
		{"woodlouse", "guess-right", "Bob calls 4 rats: right! Bob wins the card.", "Bob calls 4 rats: right!", nil},
		{"louseflea", "called", "The tree is played on Ann: play tree or girl to stand, or sit down.", "The tree is played on Ann.", nil},
		{"louseflea", "play", "Cart plays broom and sits down.", "Cart plays broom and sits down.", nil},
		{"louseflea", "play", "Bob plays broom and stays standing.", "", nil},
		{"minefield", "boom", "BOOM! b4 was mined and Bob's token on b4 is blown up", "BOOM! b4 was mined and Bob's token on b4 is blown up.", nil},
		{"minefield", "ghost", "Bob rises as a ghost", "Bob rises as a ghost.", nil},
		{"louseflea", "play", "Ann cannot answer the call, sits down, and plays cart.", "Ann cannot answer the call, sits down, and plays cart.", nil},
		{"louseflea", "play", "Bob plays girl on a free turn, so nobody sits for it.", "", nil},
		{"celestial", "attack", "Ann (Dragon) attacks Bob (Phoenix): each lays a card face down", "Ann (Dragon) attacks Bob (Phoenix).", nil},
		{"pursesnatcher", "time", "Time is up (1 minutes): once this exchange is settled, Bob (the officer) must end the meeting.", "Time is up (1 minute): once this exchange is settled, Bob (the officer) must end the meeting.", nil},
		{"pursesnatcher", "ordered", "15 minutes have passed: Bob (the officer) has an urgent appointment, bids Ann (the tourist) good day and tells her to leave.", "15 minutes have passed: Bob (the officer) has an urgent appointment, bids Ann (the tourist) good day and tells her to leave.", nil},
		{"troll", "fly", "The 10 of clubs at upper 2 was already awake: jolted again, it flies off into the sky and is set aside.", "", nil},
		{"troll", "fly", "The 9 of clubs at lower 3, already awake, is jolted again and flies off into the sky, taking the troll with it. The bridge wins; 3 card(s) were left.", "The 9 of clubs at lower 3, already awake, is jolted again and flies off into the sky, taking the troll with it.", nil},
		{"insomnia", "alarm", "The deck is spent with 4 voice(s) still talking: the alarm rings.", "The deck is spent with 4 voices still talking.", nil},
		{"insomnia", "alarm", "The deck is spent with 1 voice(s) still talking: the alarm rings.", "The deck is spent with 1 voice still talking.", nil},
		{"minefield", "step", "Ann steps carefully to c2", "", nil},
		{"woodlouse", "guess-right", "a private event", "", []int{1}},
	} {
		got, ok := Announcement(infoOf(t, c.game), Logged{Seq: 1, Event: game.Event{Type: c.typ, Text: c.text, To: c.to}})
		assert.Equal(t, c.want != "", ok, "%s: %q", c.typ, c.text)
		assert.Equal(t, c.want, got, "%s", c.typ)
	}
}

// Each game says which of its events are spoken: the same type may be
// said in one game and not in another, or said differently.
func TestWhatIsSaidIsTheGamesOwnChoice(t *testing.T) {
	kept := Logged{Seq: 1, Event: game.Event{Type: "kept", Text: "Nobody got it: the card was 3 rats, and Ann keeps it."}}
	said, ok := Announcement(infoOf(t, "woodlouse"), kept)
	assert.True(t, ok)
	assert.Equal(t, "Nobody got it.", said, "Woodlouse says the clause")
	said, ok = Announcement(infoOf(t, "pursesnatcher"), kept)
	assert.True(t, ok)
	assert.Equal(t, "Nobody got it: the card was 3 rats, and Ann keeps it.", said, "Purse Snatcher says it all")
	for _, id := range []string{"deck", "louseflea"} {
		_, ok := Announcement(infoOf(t, id), kept)
		assert.False(t, ok, "%s never says a kept event", id)
	}
	_, ok = Announcement(game.Info{}, Logged{Seq: 1, Event: game.Event{Type: "mistake", Text: "A wrong code."}})
	assert.False(t, ok, "a game that declares nothing says nothing")
}

// infoOf is the catalogue entry of game id.
func infoOf(t *testing.T, id string) game.Info {
	t.Helper()
	g, err := catalog.Get(id)
	require.NoError(t, err)
	return g.Info()
}

// playOut plays random legal moves of g through a Match, from several
// seeds, and returns every public event with what the referee says for it.
func playOut(t *testing.T, id string, players int, opts map[string]string) (evs []Logged, said []string) {
	t.Helper()
	g, err := catalog.Get(id)
	require.NoError(t, err)
	names := []string{"Ann", "Bob", "Cy", "Di", "Eve", "Fay"}[:players]
	for seed := uint64(1); seed <= 40; seed++ {
		m, err := New(g, game.Config{Seed: seed, Options: opts}, names)
		require.NoError(t, err)
		r := rand.New(rand.NewPCG(seed, 7))
		for step := 0; step < 500 && !m.Over(); step++ {
			turn := m.Snapshot(game.Table, 0).Turn
			seat := turn[r.IntN(len(turn))]
			legal := m.Snapshot(seat, 0).Legal
			if len(legal) == 0 {
				break
			}
			_, got, err := m.Apply(legal[r.IntN(len(legal))])
			require.NoError(t, err)
			for _, e := range got {
				if !e.Public() {
					continue
				}
				a, _ := Announcement(g.Info(), e)
				evs = append(evs, e)
				said = append(said, a)
			}
		}
	}
	return evs, said
}

var named = regexp.MustCompile(`\b(Ann|Bob|Cy|Di|Eve|Fay)\b`)

// TestEachGameSaysWhoMustSitWhoAttacksWhomAndWhoDied plays every game with
// random moves and checks what is said, event by event.
func TestEachGameSaysWhoMustSitWhoAttacksWhomAndWhoDied(t *testing.T) {
	count := map[string]int{}
	check := func(id string, players int, opts map[string]string, rule func(e Logged, said string)) {
		evs, said := playOut(t, id, players, opts)
		for i, e := range evs {
			rule(e, said[i])
		}
	}
	check("minefield", 2, nil, func(e Logged, said string) {
		switch e.Type {
		case "boom":
			count["boom"]++
			assert.Regexp(t, `^BOOM! [a-e]\d was mined and (Ann|Bob)'s token on [a-e]\d is blown up\.$`, said, "who is blown up is said")
		case "ghost":
			count["ghost"]++
			assert.Regexp(t, `^(Ann|Bob) rises as a ghost\.$`, said)
		case "over":
			count["mine-over"]++
			assert.Regexp(t, named, said)
		}
	})
	check("louseflea", 3, nil, func(e Logged, said string) {
		if e.Type != "play" {
			return
		}
		switch {
		case strings.Contains(e.Text, "sits down"):
			count["sits"]++
			assert.Equal(t, e.Text, said, "who sits down is said")
			assert.Regexp(t, named, said)
		default:
			count["stands"]++
			assert.Empty(t, said, "a play where nobody sits is not said: %q", e.Text)
		}
	})
	check("celestial", 3, nil, func(e Logged, said string) {
		if e.Type == "attack" {
			count["attack"]++
			assert.Regexp(t, `^(Ann|Bob|Cy) \([\w ]+\) attacks (Ann|Bob|Cy) \([\w ]+\)\.$`, said)
		}
		if e.Type == "out" {
			count["out"]++
			assert.Regexp(t, `^(Ann|Bob|Cy) is down to one card`, said)
		}
	})
	check("troll", 1, nil, func(e Logged, said string) {
		if strings.Contains(e.Text, "The bridge wins") {
			count["troll-lost"]++
			assert.NotEmpty(t, said, "how the troll lost is said: %q", e.Text)
			assert.NotContains(t, said, "The bridge wins", "the headline only")
		}
	})
	// Woodlouse Chaos: the engine lists only the right code, so the
	// trainer's miscount is made by hand.
	m, err := New(woodlouse.Game, game.Config{Seed: 5}, four)
	require.NoError(t, err)
	trainer := m.Snapshot(game.Table, 0).Turn[0]
	right := m.Snapshot(trainer, 0).Legal[0]
	claps := right.Args[1]
	if claps == "1" {
		claps = "2"
	} else {
		claps = "1"
	}
	_, evs, err := m.Apply(game.M(trainer, "code", right.Args[0], claps))
	require.NoError(t, err)
	for _, e := range evs {
		if said, _ := Announcement(woodlouse.Game.Info(), e); e.Type == "mistake" {
			count["mistake"]++
			assert.Regexp(t, `^Wrong code! `+four[trainer]+` gives`, said)
		}
	}
	check("pursesnatcher", 2, map[string]string{"minutes": "1"}, func(e Logged, said string) {
		if e.Type == "time" {
			count["time"]++
			assert.Contains(t, said, "(1 minute)")
		}
	})
	for _, k := range []string{"boom", "ghost", "mine-over", "sits", "stands", "attack", "out", "troll-lost", "mistake", "time"} {
		assert.NotZero(t, count[k], "the random games never produced a %s event", k)
	}
}
