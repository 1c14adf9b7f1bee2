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
	g.add(800, 'B', -10)
	g.add(1200, 'C', -10)
	g.add(1500, 'B', -10)
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
	g.add(0, 'B', -10)
	g.add(1400, 'C', -10) // 1.4 s later: same code
	assert.Empty(t, drain(g, 2000))
	g.add(2800, 'C', -10)
	codes := drain(g, 4300)
	require.Len(t, codes, 1)
	assert.Equal(t, "BCC", codes[0].Order)
}

func TestTwoCodesSeparatedByTheGap(t *testing.T) {
	g := newGrouper()
	g.add(0, 'B', -10)
	g.add(300, 'C', -10)
	g.add(5000, 'C', -10)
	g.add(5300, 'B', -10)
	codes := drain(g, 7000)
	require.Len(t, codes, 2)
	assert.Equal(t, "BC", codes[0].Order)
	assert.Equal(t, "CB", codes[1].Order)
}

func TestAPendingOnsetHoldsTheCodeOpen(t *testing.T) {
	g := newGrouper()
	g.add(0, 'B', -10)
	// at 1.5 s a sound that started at 1.49 s is still being judged
	assert.Nil(t, g.due(1500, 1490, testRate))
	g.add(1490, 'C', -10)
	assert.Nil(t, g.due(1510, -1, testRate))
	c := g.due(2990, -1, testRate)
	require.NotNil(t, c)
	assert.Equal(t, "BC", c.Order)
}

func TestShoutedGuessesDoNotExtendTheCode(t *testing.T) {
	g := newGrouper()
	g.add(0, 'B', -10)
	g.add(400, 'C', -10)
	// voices start 0.5 s after the last gesture; a consonant burst just
	// before them and a syllable inside them are heard as gestures
	g.talk(true, 900)
	g.add(800, 'B', -10)  // 0.1 s before the voice: its first consonant
	g.add(1100, 'C', -10) // inside the voice
	g.tick(1100)          // voiced for 0.2 s: not yet talk
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
	g.add(600, 'C', -10)
	g.add(900, 'B', -10)
	g.talk(false, 1200)
	assert.Empty(t, drain(g, 5000))
	g.add(6000, 'B', -10)
	g.add(6300, 'C', -10)
	codes := drain(g, 8000)
	require.Len(t, codes, 1)
	assert.Equal(t, "BC", codes[0].Order, "a code after the talk is heard whole")
}

func TestAShortVoiceIsNotTalk(t *testing.T) {
	// A knocked table can ring with a pitch for a moment.
	g := newGrouper()
	g.add(0, 'B', -10)
	g.talk(true, 20)
	g.tick(200)
	g.add(500, 'C', -10)
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
	g.add(700, 'B', -10) // after the voices stopped at 600, before we knew
	g.talk(false, 600)
	g.add(1000, 'C', -10)
	codes := drain(g, 2600)
	require.Len(t, codes, 1)
	assert.Equal(t, "BC", codes[0].Order)
}

func TestCodeWaitsForVoicesThatMayCutIt(t *testing.T) {
	g := newGrouper()
	g.add(0, 'B', -10)
	g.add(1200, 'C', -10)
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
	g.add(100, 'C', -10)
	g.add(400, 'B', -10)
	c := g.flush(testRate)
	require.NotNil(t, c)
	assert.Equal(t, "CB", c.Order)
	assert.Nil(t, g.flush(testRate))
}

func TestQuietTalkNeitherEndsNorTakesACode(t *testing.T) {
	g := newGrouper()
	g.quietBy = 6
	g.add(0, 'B', -10)
	for end := int64(340); end <= 900; end += 20 {
		g.voiced(end, -40) // the room chatting, 30 dB under the bangs
	}
	g.talk(true, 300)
	g.tick(700) // long enough to be talk
	g.add(500, 'C', -10)
	g.talk(false, 900)
	g.add(1200, 'B', -10)
	assert.Empty(t, drain(g, 2600), "the chatter did not end the code")
	codes := drain(g, 2700)
	require.Len(t, codes, 1)
	assert.Equal(t, "BCB", codes[0].Order, "nor took the clap heard in it")
}

func TestTalkIsAsLoudAsItsLoudestFrameEvenBeforeItStarted(t *testing.T) {
	// The voices are known to have started only some frames in; those
	// frames count towards their loudness.
	g := newGrouper()
	g.quietBy = 6
	g.add(0, 'B', -10)
	g.add(100, 'C', -10)
	g.voiced(340, -12) // the shout's first frames, before the voices were confirmed to start
	g.voiced(360, -13)
	g.talk(true, 300)
	for end := int64(380); end <= 700; end += 20 {
		g.voiced(end, -30) // then it trails off
	}
	g.tick(700)
	codes := drain(g, 700)
	require.Len(t, codes, 1, "talk within 6 dB of the bangs ends the code at once")
	assert.Equal(t, "BC", codes[0].Order)
	g.voiced(5000, -11) // a later shout changes nothing of what is settled
	assert.Empty(t, drain(g, 5000))
}
