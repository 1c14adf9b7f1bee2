package condition

import (
	"math"
	"math/rand"
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/audio/internal/level"
)

const rate = 16000

// noise is white noise at db dBFS RMS.
func noise(r *rand.Rand, n int, db float64) []float64 {
	a := math.Pow(10, db/20)
	x := make([]float64, n)
	for i := range x {
		x[i] = a * r.NormFloat64()
	}
	return x
}

// knock adds a decaying burst at sample at: noise, or a tone when hz > 0.
func knock(r *rand.Rand, x []float64, at int, peak, hz, seconds float64) {
	for i := 0; at+i < len(x) && float64(i) < seconds*rate; i++ {
		env := peak * math.Exp(-float64(i)/(0.2*seconds*rate))
		v := r.NormFloat64() * 0.5
		if hz > 0 {
			v = math.Sin(2 * math.Pi * hz * float64(i) / rate)
		}
		x[at+i] += env * v
	}
}

func run(c *Conditioner, x []float64, block int) []float64 {
	var out []float64
	for len(x) > 0 {
		k := min(block, len(x))
		out = c.Process(out, x[:k])
		x = x[k:]
	}
	return out
}

// maxDiff is the largest difference between two equally long signals.
func maxDiff(a, b []float64) float64 {
	if len(a) != len(b) {
		return math.Inf(1)
	}
	var d float64
	for i := range a {
		d = math.Max(d, math.Abs(a[i]-b[i]))
	}
	return d
}

// changeDB is the power of the difference between two signals against the
// power of the first, in dB: far below zero when they are nearly the same.
func changeDB(a, b []float64) float64 {
	if len(a) != len(b) {
		return math.Inf(1)
	}
	d := make([]float64, len(a))
	for i := range a {
		d[i] = a[i] - b[i]
	}
	return rmsDB(d) - rmsDB(a)
}

func rmsDB(x []float64) float64 { return level.DB(level.MeanSquare(x)) }

// lineDB is the level of the sinusoid at hz in x (dBFS of its RMS).
func lineDB(x []float64, hz float64) float64 {
	var re, im float64
	for i, v := range x {
		w := 2 * math.Pi * hz * float64(i) / rate
		re += v * math.Cos(w)
		im += v * math.Sin(w)
	}
	amp := 2 * math.Hypot(re, im) / float64(len(x))
	return level.DB(amp * amp / 2)
}

func TestCleanInputPassesUnchanged(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	x := noise(r, 4*rate, -60)
	for at := rate / 2; at < len(x); at += rate / 3 {
		knock(r, x, at, 0.3, 0, 0.15)
	}
	c := New(rate)
	y := run(c, x, 512)
	require.Len(t, y, len(x))
	// the high-pass shifts the phase of the lows a little, so compare what
	// is heard: the level of every 20 ms
	b := rate / 50
	for i := b; i+b <= len(x); i += b {
		require.InDelta(t, rmsDB(x[i:i+b]), rmsDB(y[i:i+b]), 0.3, "the level at %.2f s", float64(i)/rate)
	}
	s := c.State()
	assert.Zero(t, s.HumLines, "no hum in noise and knocks")
	assert.Zero(t, s.Holes, "no holes")
	assert.True(t, s.Heard)
}

func TestDCIsRemoved(t *testing.T) {
	for _, dc := range []float64{0.008, 0.01, -0.03} {
		r := rand.New(rand.NewSource(2))
		x := noise(r, 3*rate, -55)
		for i := range x {
			x[i] += dc
		}
		c := New(rate)
		y := run(c, x, 300)
		var m float64
		for _, v := range y[rate/2:] {
			m += v
		}
		m /= float64(len(y) - rate/2)
		assert.InDelta(t, 0, m, 2e-4, "dc %v: no offset left after half a second", dc)
		assert.InDelta(t, dc, c.State().DC, 2e-4)
		// the room's level is what it was without the offset
		assert.InDelta(t, -55, rmsDB(y[rate:]), 0.5)
	}
}

func TestMainsHumIsCancelled(t *testing.T) {
	for _, tc := range []struct {
		mains, peakDB float64
		harmonics     []float64
	}{
		{50, -30, []float64{1}},
		{60, -20, []float64{1}},
		{50, -40, []float64{1}},
		{50, -30, []float64{1, .5, .35, .25, .18, .12, .08}},
		{60, -25, []float64{0.3, 1, .5}}, // the second harmonic strongest
	} {
		r := rand.New(rand.NewSource(3))
		n := 4 * rate
		x := noise(r, n, -60)
		hum := make([]float64, n)
		var peak float64
		for k, a := range tc.harmonics {
			ph := r.Float64() * 2 * math.Pi
			for i := range hum {
				hum[i] += a * math.Sin(2*math.Pi*tc.mains*float64(k+1)*float64(i)/rate+ph)
			}
		}
		for _, v := range hum {
			peak = math.Max(peak, math.Abs(v))
		}
		g := math.Pow(10, tc.peakDB/20) / peak
		for i := range x {
			x[i] += g * hum[i]
		}
		for at := rate / 3; at < n; at += rate / 2 {
			knock(r, x, at, 0.3, 0, 0.1)
		}
		c := New(rate)
		y := run(c, x, 1000)
		s := c.State()
		assert.Equal(t, tc.mains, s.HumHz, "%+v", tc)
		assert.InDelta(t, 0, s.DC, 2e-4, "hum is no DC offset: %+v", tc)
		tail := y[2*rate:]
		for k, a := range tc.harmonics {
			hz := tc.mains * float64(k+1)
			before := lineDB(x[2*rate:], hz)
			after := lineDB(tail, hz)
			if a >= 0.25 {
				assert.Less(t, after, before-25, "%v Hz of %+v: %.1f dB before, %.1f after", hz, tc, before, after)
			}
		}
		// the knocks are still there: the level over the last two seconds
		// is within 1 dB of the same without hum
		clean := noise(rand.New(rand.NewSource(3)), n, -60)
		_ = clean
		assert.Greater(t, rmsDB(tail), -40.0)
	}
}

func TestARingingDrumIsNotHum(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	x := noise(r, 6*rate, -60)
	// a tom ringing at exactly 100 Hz, struck every 0.8 s, dying in 0.5 s
	for at := rate / 4; at < len(x); at += rate * 8 / 10 {
		knock(r, x, at, 0.5, 100, 0.5)
	}
	c := New(rate)
	maxLines := 0
	for i := 0; i < len(x); i += 800 {
		c.Process(nil, x[i:min(i+800, len(x))])
		maxLines = max(maxLines, c.State().HumLines)
	}
	assert.Zero(t, maxLines, "a decaying tone comes and goes; the mains does not")
}

func TestHolesAreCountedAndTheRoomFollowed(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	x := noise(r, 3*rate, -50)
	// exact zeros from 1.0 to 1.5 s, then a -30 dB duck from 2.0 to 2.4 s
	for i := rate; i < rate*3/2; i++ {
		x[i] = 0
	}
	for i := 2 * rate; i < rate*24/10; i++ {
		x[i] *= 0.0316
	}
	c := New(rate)
	y := run(c, x, 160)
	for _, v := range y[rate+rate/50 : rate*3/2] {
		require.Zero(t, v, "digital silence passes as it is")
	}
	s := c.State()
	assert.Equal(t, 2, s.Holes, "the zeros and the duck")
	assert.InDelta(t, 0.5, s.SilentFor, 0.01)
	assert.True(t, s.RoomKnown)
	assert.InDelta(t, -51, s.RoomDB, 2, "the room's level, not the duck's")
}

func TestLeadingSilenceIsNoHole(t *testing.T) {
	x := make([]float64, rate)
	r := rand.New(rand.NewSource(7))
	copy(x[rate/2:], noise(r, rate/2, -50))
	c := New(rate)
	assert.False(t, c.State().Heard)
	y := run(c, x[:rate/2], 100)
	assert.False(t, c.State().Heard)
	assert.False(t, c.State().RoomKnown)
	for _, v := range y {
		require.Zero(t, v, "leading digital silence stays silent")
	}
	run(c, x[rate/2:], 100)
	assert.True(t, c.State().Heard)
	s := c.State()
	assert.InDelta(t, 0.5, s.SilentFor, 0.01)
	assert.Zero(t, s.Holes, "the stream starting is not a hole")
}

func TestBlockSizesDoNotMatter(t *testing.T) {
	r := rand.New(rand.NewSource(8))
	x := noise(r, 3*rate, -55)
	for i := range x {
		x[i] += 0.01 + 0.01*math.Sin(2*math.Pi*50*float64(i)/rate)
	}
	for i := rate; i < rate+rate/3; i++ {
		x[i] = 0
	}
	knock(r, x, 2*rate, 0.3, 0, 0.1)
	want := run(New(rate), x, len(x))
	for _, b := range []int{1, 7, 160, 4096} {
		assert.Zero(t, maxDiff(want, run(New(rate), x, b)), "blocks of %d", b)
	}
}

func TestAnyRate(t *testing.T) {
	for _, rt := range []int{8000, 11025, 22050, 44100, 48000, 96000, 192000} {
		c := New(rt)
		x := make([]float64, rt/2)
		for i := range x {
			x[i] = 0.01*math.Sin(2*math.Pi*50*float64(i)/float64(rt)) + 0.001
		}
		y := c.Process(nil, x)
		require.Len(t, y, len(x))
		for _, v := range y {
			require.False(t, math.IsNaN(v) || math.IsInf(v, 0), "rate %d", rt)
		}
	}
}

// gateToZeros zeros x outside the spans [at, at+open) for each at in ats.
func gateToZeros(x []float64, ats []int, open int) {
	keep := make([]bool, len(x))
	for _, at := range ats {
		for i := at; i < min(at+open, len(x)); i++ {
			keep[i] = true
		}
	}
	for i := range x {
		if !keep[i] {
			x[i] = 0
		}
	}
}

func TestBehindAGateTheRoomIsUnderWhatItLetsThrough(t *testing.T) {
	r := rand.New(rand.NewSource(8))
	x := noise(r, 8*rate, -60)
	var ats []int
	// a code every 2 s: four knocks 0.3 s apart, the gate open for each of
	// them 0.25 s (so the gate stays open over each code only in part)
	for c := rate / 2; c < len(x)-2*rate; c += 2 * rate {
		for k := range 4 {
			at := c + k*rate*3/10
			knock(r, x, at, 0.3, 0, 0.3)
			ats = append(ats, at)
		}
	}
	gateToZeros(x, ats, rate/4)
	c := New(rate)
	run(c, x, 256)
	s := c.State()
	db, ok := c.BehindSilence(int64(len(x)))
	require.True(t, ok)
	t.Logf("room %.1f (known %v): behind the silence %.1f dBFS", s.RoomDB, s.RoomKnown, db)
	assert.InDelta(t, -60, db, 12, "about the room the gate shut out, not the knocks")
	_, ok = c.BehindSilence(0)
	assert.False(t, ok, "nothing is known of what came before the stream")
}

func TestAnOpenRoomWithDropoutsKeepsItsLevel(t *testing.T) {
	r := rand.New(rand.NewSource(9))
	x := noise(r, 8*rate, -50)
	for at := rate; at < len(x); at += 2 * rate {
		knock(r, x, at+rate/2, 0.3, 0, 0.2)
		for i := at; i < at+rate/5; i++ {
			x[i] = 0 // a dropout of 0.2 s every 2 s
		}
	}
	c := New(rate)
	run(c, x, 256)
	db, ok := c.BehindSilence(int64(len(x)))
	require.True(t, ok)
	assert.InDelta(t, -50, db, 3, "the room's own level")
}

// humAt is x with mains hum at peakDB dBFS added from its first sample: the
// fundamental at hz and the given harmonics' relative amplitudes.
func humAt(r *rand.Rand, x []float64, hz, peakDB float64, harmonics ...float64) {
	hum := make([]float64, len(x))
	var peak float64
	for k, a := range harmonics {
		ph := r.Float64() * 2 * math.Pi
		for i := range hum {
			hum[i] += a * math.Sin(2*math.Pi*hz*float64(k+1)*float64(i)/rate+ph)
		}
	}
	for _, v := range hum {
		peak = math.Max(peak, math.Abs(v))
	}
	g := math.Pow(10, peakDB/20) / peak
	for i := range x {
		x[i] += g * hum[i]
	}
}

// loudHum is 2 s of a quiet room (-60 dBFS) with mains hum at hz and two
// harmonics at -20 dBFS peak (x), and what a Conditioner fed it in blocks
// of 512 made of it (y).
func loudHum(seed int64, hz float64) (x, y []float64, c *Conditioner) {
	r := rand.New(rand.NewSource(seed))
	x = noise(r, 2*rate, -60)
	humAt(r, x, hz, -20, 1, .5, .3)
	c = New(rate)
	return x, run(c, x, 512), c
}

func TestHumIsCancelledWithinTheFirstSecond(t *testing.T) {
	// the first gesture of a file or a stream can come half a second in
	for _, hz := range []float64{50, 60} {
		x, y, _ := loudHum(11, hz)
		from, to := rate*6/10, rate*9/10 // 0.6 to 0.9 s
		before, after := lineDB(x[from:to], hz), lineDB(y[from:to], hz)
		assert.Less(t, after, before-30, "%v Hz at 0.6-0.9 s: %.1f dB before, %.1f after", hz, before, after)
		assert.Less(t, rmsDB(y[from:to]), -45.0, "%v Hz: what is left of the hum at 0.6-0.9 s", hz)
	}
}

func TestHumStaysCancelledUnderKnocks(t *testing.T) {
	// Thumps on the table spread over the spectrum round the mains lines
	// for a moment. The hum is still there: its canceller must not stop,
	// or the hum comes back at once, a sudden tone (heard as a bang).
	r := rand.New(rand.NewSource(12))
	x := noise(r, 6*rate, -60)
	humAt(r, x, 50, -25, 1, .4)
	for at := rate * 3 / 2; at < len(x); at += rate / 4 {
		knock(r, x, at, 0.5, 0, 0.15)  // noise
		knock(r, x, at, 0.5, 55, 0.15) // and a low ring next to the mains
	}
	c := New(rate)
	on, dropped := false, false
	for i := 0; i < len(x); i += rate / 100 {
		c.Process(nil, x[i:min(i+rate/100, len(x))])
		lines := c.State().HumLines
		on = on || lines > 0
		dropped = dropped || (on && lines == 0)
	}
	assert.True(t, on, "the hum was found")
	assert.False(t, dropped, "the hum's canceller stopped while the hum went on")
}

// TestACancellerStartsWithoutAClick: a loud hum's canceller that starts at
// full strength would cut the hum off within one sample, a click across the
// spectrum that the onset detector takes for a clap; it fades in instead.
// The highs of the output (its third difference: 18 dB an octave, which
// leaves nothing of the hum's lines, in 5 ms blocks) never stand out of the
// room's hiss.
func TestACancellerStartsWithoutAClick(t *testing.T) {
	for _, hz := range []float64{50, 60} {
		_, y, c := loudHum(13, hz)
		require.Positive(t, c.State().HumLines, "%v Hz: the hum was found", hz)
		blk := rate / 200
		var dbs []float64
		for i := 3; i+blk <= len(y); i += blk {
			var s float64
			for j := i; j < i+blk; j++ {
				d := y[j] - 3*y[j-1] + 3*y[j-2] - y[j-3]
				s += d * d
			}
			dbs = append(dbs, level.DB(s/float64(blk)))
		}
		sorted := append([]float64(nil), dbs...)
		sort.Float64s(sorted)
		median := sorted[len(sorted)/2]
		for k, db := range dbs {
			assert.Less(t, db, median+6, "%v Hz: the highs at %.3f s stand %.1f dB over the hiss's", hz, float64(k*blk)/rate, db-median)
		}
	}
}
