package audio

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const testRate = 1000 // one sample per millisecond keeps the arithmetic readable

func newGrouper() *grouper {
	return &grouper{gap: 1500, minTalk: 350, cutBefore: 150, current: -1}
}

// drain returns every code due by now.
func drain(g *grouper, now int64) []*Code {
	var out []*Code
	for c := g.due(now, -1, testRate); c != nil; c = g.due(now, -1, testRate) {
		out = append(out, c)
	}
	return out
}

func TestCodeEndsAfterTheGap(t *testing.T) {
	g := newGrouper()
	g.add(800, 'B')
	g.add(1200, 'C')
	g.add(1500, 'B')
	assert.Empty(t, drain(g, 2999), "the gap has not passed")
	codes := drain(g, 3000)
	require.Len(t, codes, 1)
	c := codes[0]
	assert.Equal(t, "BCB", c.Order)
	assert.Equal(t, 2, c.Bangs)
	assert.Equal(t, 1, c.Claps)
	assert.InDelta(t, 0.8, c.Start, 1e-9)
	assert.InDelta(t, 1.5, c.End, 1e-9)
	assert.Empty(t, drain(g, 10000), "a code is emitted once")
}

func TestGestureWithinTheGapExtendsTheCode(t *testing.T) {
	g := newGrouper()
	g.add(0, 'B')
	g.add(1400, 'C') // 1.4 s later: same code
	assert.Empty(t, drain(g, 2000))
	g.add(2800, 'C')
	codes := drain(g, 4300)
	require.Len(t, codes, 1)
	assert.Equal(t, "BCC", codes[0].Order)
}

func TestTwoCodesSeparatedByTheGap(t *testing.T) {
	g := newGrouper()
	g.add(0, 'B')
	g.add(300, 'C')
	g.add(5000, 'C')
	g.add(5300, 'B')
	codes := drain(g, 7000)
	require.Len(t, codes, 2)
	assert.Equal(t, "BC", codes[0].Order)
	assert.Equal(t, "CB", codes[1].Order)
}

func TestAPendingOnsetHoldsTheCodeOpen(t *testing.T) {
	g := newGrouper()
	g.add(0, 'B')
	// at 1.5 s a sound that started at 1.49 s is still being judged
	assert.Nil(t, g.due(1500, 1490, testRate))
	g.add(1490, 'C')
	assert.Nil(t, g.due(1510, -1, testRate))
	c := g.due(2990, -1, testRate)
	require.NotNil(t, c)
	assert.Equal(t, "BC", c.Order)
}

func TestShoutedGuessesDoNotExtendTheCode(t *testing.T) {
	g := newGrouper()
	g.add(0, 'B')
	g.add(400, 'C')
	// voices start 0.5 s after the last gesture; a consonant burst just
	// before them and a syllable inside them are heard as gestures
	g.talk(true, 900)
	g.add(800, 'B')  // 0.1 s before the voice: its first consonant
	g.add(1100, 'C') // inside the voice
	g.tick(1100)     // voiced for 0.2 s: not yet talk
	assert.Empty(t, drain(g, 1200))
	g.tick(1300) // voiced for 0.4 s: the table is talking
	codes := drain(g, 1300)
	require.Len(t, codes, 1, "talk after the code closes it at once")
	assert.Equal(t, "BC", codes[0].Order)
	g.talk(false, 2500)
	assert.Empty(t, drain(g, 5000), "nothing heard in the talk makes a code")
}

func TestGesturesDuringTalkStartNoCode(t *testing.T) {
	g := newGrouper()
	g.talk(true, 0)
	g.tick(400)
	g.add(600, 'C')
	g.add(900, 'B')
	g.talk(false, 1200)
	assert.Empty(t, drain(g, 5000))
	g.add(6000, 'B')
	g.add(6300, 'C')
	codes := drain(g, 8000)
	require.Len(t, codes, 1)
	assert.Equal(t, "BC", codes[0].Order, "a code after the talk is heard whole")
}

func TestAShortVoiceIsNotTalk(t *testing.T) {
	// A knocked table can ring with a pitch for a moment.
	g := newGrouper()
	g.add(0, 'B')
	g.talk(true, 20)
	g.tick(200)
	g.add(500, 'C')
	g.talk(false, 200) // voiced for 0.18 s only
	codes := drain(g, 2100)
	require.Len(t, codes, 1)
	assert.Equal(t, "BC", codes[0].Order)
}

func TestGestureJustAfterTalkEndsCounts(t *testing.T) {
	// The end of talk is reported late (after a hangover); a gesture heard
	// in that time but after the last voiced moment belongs to the code.
	g := newGrouper()
	g.talk(true, 0)
	g.tick(500)
	g.add(700, 'B') // after the voices stopped at 600, before we knew
	g.talk(false, 600)
	g.add(1000, 'C')
	codes := drain(g, 2600)
	require.Len(t, codes, 1)
	assert.Equal(t, "BC", codes[0].Order)
}

func TestCodeWaitsForVoicesThatMayCutIt(t *testing.T) {
	g := newGrouper()
	g.add(0, 'B')
	g.add(1200, 'C')
	g.talk(true, 1300) // might be a shouted guess that began with that clap
	g.tick(1400)
	assert.Nil(t, g.due(2800, -1, testRate), "the voices could still take the clap")
	g.tick(1700)
	c := g.due(2800, -1, testRate)
	require.NotNil(t, c)
	assert.Equal(t, "B", c.Order, "the clap 0.1 s before the talk was its consonant")
}

func TestFlushAtTheEndOfInput(t *testing.T) {
	g := newGrouper()
	g.add(100, 'C')
	g.add(400, 'B')
	c := g.flush(testRate)
	require.NotNil(t, c)
	assert.Equal(t, "CB", c.Order)
	assert.Nil(t, g.flush(testRate))
}
