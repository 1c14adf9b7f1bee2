package audio_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/audio"
)

// eventsInBlocks runs x through a Listener written in blocks of n samples
// and returns every event, printed, without the position it was emitted at
// (a block ends where it ends: an event due inside it comes at its end).
func eventsInBlocks(x []float64, rate, n int) []string {
	var got []string
	l := audio.NewListener(rate, audio.Config{}, func(e audio.Event) {
		v := reflect.New(reflect.TypeOf(e).Elem()).Elem()
		v.Set(reflect.ValueOf(e).Elem())
		if f := v.FieldByName("Emitted"); f.IsValid() {
			f.SetInt(0)
		}
		got = append(got, fmt.Sprintf("%T %+v", e, v.Interface()))
	})
	for i := 0; i < len(x); i += n {
		l.Write(x[i:min(i+n, len(x))])
	}
	l.Close()
	return got
}

// TestTheBlockSizeChangesNothing: a microphone writes short blocks where a
// file writes long ones, and a Listener is fed "exactly the same way" by
// both. Every event must be the same, whatever the blocks: the gestures and
// codes, and what the microphone doctor says (it reads what the Conditioner
// had heard by the end of each tenth of a second, not by the end of the
// block), behind a noise gate too.
func TestTheBlockSizeChangesNothing(t *testing.T) {
	var x []float64
	rate := 22050
	wav := filepath.Join("..", "..", "shared", "corpus", "gestures", "dev-011.wav")
	if src, err := audio.OpenWAV(wav); err == nil { // a real party recording, when there is one
		rate = src.SampleRate()
		buf := make([]float64, 4096)
		for {
			n, err := src.Read(buf)
			x = append(x, buf[:n]...)
			if err != nil {
				break
			}
		}
		src.Close()
	}
	// and a synthetic stretch of our own: claps and thumps in room noise
	rng := rand.New(rand.NewPCG(9, 9))
	tail := roomNoise(rng, 4*rate, 0.001)
	for k := range 6 {
		burst(tail, rate, rng, 0.3+0.6*float64(k), 0.3)
	}
	for i := int(2.5 * float64(rate)); i < 3*rate; i++ {
		tt := float64(i)/float64(rate) - 2.5
		tail[i] += 0.4 * math.Exp(-tt/0.08) * math.Sin(2*math.Pi*90*tt)
	}
	x = append(x, tail...)
	// a noise gate: a stream that starts in digital silence, bursts of
	// many levels, and the gate cutting everything under its threshold
	// to exact zeros (so the room behind each sound must be guessed from
	// what was let through before it)
	gated := roomNoise(rng, 4*rate, 0.003)
	for k := range 9 {
		burst(gated, rate, rng, 0.3+0.4*float64(k)+0.1*rng.Float64(), 0.02+0.3*rng.Float64())
	}
	env := 0.0
	for i, v := range gated {
		env = math.Max(math.Abs(v), env*math.Exp(-1/(0.005*float64(rate))))
		if env < 0.01 {
			gated[i] = 0
		}
	}
	x = append(x, gated...)
	want := eventsInBlocks(x, rate, 4096)
	require.NotEmpty(t, want)
	for _, n := range []int{37, 256, 1023, 1024, 5000, 44100} {
		got := eventsInBlocks(x, rate, n)
		assert.Equal(t, want, got, "blocks of %d samples", n)
	}
}
