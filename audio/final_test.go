package audio

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestFinalQueueKeepsTheOrderWhateverTheVerdicts: gestures held in the
// queue may get their verdicts in any order; events go out in the order
// they were made, as soon as nothing before them waits, and a dropped
// gesture never goes out.
func TestFinalQueueKeepsTheOrderWhateverTheVerdicts(t *testing.T) {
	var out []string
	f := &finalQueue{out: func(e Event) {
		switch v := e.(type) {
		case *Onset:
			out = append(out, fmt.Sprint("g", v.Sample))
		case *Level:
			out = append(out, fmt.Sprint("l", v.Time))
		}
	}}
	f.emit(&Level{Time: 0})
	f.hold(&Onset{Sample: 1})
	f.emit(&Level{Time: 1})
	f.hold(&Onset{Sample: 2})
	f.emit(&Level{Time: 2})
	f.hold(&Onset{Sample: 3})
	assert.Equal(t, []string{"l0"}, out, "nothing goes out behind a gesture that waits")
	f.keep(2)
	assert.Equal(t, []string{"l0"}, out, "a verdict behind one still waiting lets nothing out")
	f.drop(1)
	assert.Equal(t, []string{"l0", "l1", "g2", "l2"}, out)
	f.keep(99) // no such gesture: nothing changes
	f.emit(&Level{Time: 3})
	assert.Equal(t, []string{"l0", "l1", "g2", "l2"}, out)
	f.keep(3)
	assert.Equal(t, []string{"l0", "l1", "g2", "l2", "g3", "l3"}, out)
	f.emit(&Level{Time: 4})
	assert.Equal(t, "l4", out[len(out)-1], "with nothing waiting, events go out at once")
	assert.Empty(t, f.q)
}
