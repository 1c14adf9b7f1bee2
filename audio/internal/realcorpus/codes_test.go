package realcorpus

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/audio"
	"github.com/tableref/tableref/audio/gesture"
)

// fakeCodeSource is a code source without audio: files 0-1 hold claps,
// 2-3 knocks (a hit every 0.3 s), 4 laughter of 20 s and 5 a laugh too
// short to use.
func fakeCodeSource() *codeSource {
	cs := &codeSource{name: "fake", rate: 48000, secs: []float64{30, 30, 30, 30, 20, 0.5}}
	for f := range 4 {
		for k := range 90 {
			t := 0.5 + 0.3*float64(k)
			h := hitRef{file: f, t: t, from: t - HitBefore, to: min(t+HitLongest, t+0.3-HitBefore)}
			if f < 2 {
				cs.claps = append(cs.claps, h)
			} else {
				cs.bangs = append(cs.bangs, h)
			}
		}
	}
	cs.laughs = []int{4, 5}
	return cs
}

func TestPlanCodes(t *testing.T) {
	cs := fakeCodeSource()
	plans := planCodes(cs, 30, DefaultCodesPerFile, 11)
	require.Equal(t, plans, planCodes(cs, 30, DefaultCodesPerFile, 11), "the same seed plans the same recordings")
	require.NotEqual(t, plans, planCodes(cs, 30, DefaultCodesPerFile, 12))
	again := planCodes(cs, 3, DefaultCodesPerFile, 11)
	require.Equal(t, plans[:3], again, "a recording does not depend on how many are built after it")

	sizes := map[int]int{}
	for _, cf := range plans {
		require.Len(t, cf.Codes, DefaultCodesPerFile)
		require.Len(t, cf.Laughs, DefaultCodesPerFile-1, "laughter between each two codes")
		hits := map[hitRef]bool{}
		var truth []float64
		for ci, c := range cf.Codes {
			n := len(c.Order)
			sizes[n]++
			require.GreaterOrEqual(t, n, MinCodeGestures)
			require.LessOrEqual(t, n, MaxCodeGestures)
			require.Equal(t, strings.Count(c.Order, "B"), c.Bangs)
			require.Equal(t, strings.Count(c.Order, "C"), c.Claps)
			require.Positive(t, c.Bangs, "a Woodlouse code has a bang")
			require.Positive(t, c.Claps, "and a clap")
			require.Len(t, c.Times, n)
			require.Equal(t, c.Times[0], c.Start)
			require.Equal(t, c.Times[n-1], c.End)
			for k := 1; k < n; k++ {
				d := c.Times[k] - c.Times[k-1]
				require.GreaterOrEqual(t, d, MinGestureGap)
				require.LessOrEqual(t, d, MaxGestureGap)
			}
			if ci > 0 {
				gap := c.Start - cf.Codes[ci-1].End
				require.GreaterOrEqual(t, gap, MinCodeGap)
				require.LessOrEqual(t, gap, MaxCodeGap)
				l := cf.Laughs[ci-1]
				require.GreaterOrEqual(t, l.End-l.Start, MinLaugh-1e-9)
				require.LessOrEqual(t, l.End-l.Start, MaxLaugh+1e-9)
				require.GreaterOrEqual(t, l.Start, cf.Codes[ci-1].End+LaughClear-1e-9)
				require.LessOrEqual(t, l.End, c.Start-LaughClear+1e-9)
			}
			truth = append(truth, c.Times...)
		}
		require.Equal(t, LeadIn, cf.Codes[0].Start)
		require.InDelta(t, cf.Codes[len(cf.Codes)-1].End+TailOut, cf.Seconds, 1e-9)

		// Each gesture is a piece whose hit lands on its time, of its kind,
		// never the same hit twice in a recording; the rest is laughter.
		k := 0
		for _, p := range cf.Pieces {
			if p.Fade == LaughFade {
				require.Equal(t, 4, p.File, "only laughter long enough is cut from")
				require.GreaterOrEqual(t, p.From, 0.0)
				require.LessOrEqual(t, p.To, cs.secs[4])
				continue
			}
			require.Equal(t, HitFade, p.Fade)
			h := hitRef{file: p.File, from: p.From, to: p.To, t: p.From + HitBefore}
			require.False(t, hits[h], "%s: a hit used twice", cf.Name)
			hits[h] = true
			require.InDelta(t, truth[k], p.At+HitBefore, 1e-9)
			var kind byte = 'B'
			if p.File < 2 {
				kind = 'C'
			}
			var order string
			for _, c := range cf.Codes {
				order += c.Order
			}
			require.Equal(t, order[k], kind, "gesture %d's hit is of its kind", k)
			k++
		}
		require.Equal(t, len(truth), k)
	}
	for n := MinCodeGestures; n <= MaxCodeGestures; n++ {
		require.Positive(t, sizes[n], "codes of %d gestures are drawn", n)
	}
}

func TestDeckDealsEachOnceThenAgain(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	d := newDeck(5)
	seen := map[int]bool{}
	for range 5 {
		seen[d.draw(rng)] = true
	}
	require.Len(t, seen, 5)
	require.Contains(t, []int{0, 1, 2, 3, 4}, d.draw(rng), "an empty deck starts again")
}

func TestBuildCodeFile(t *testing.T) {
	const rate = 8000
	cf := &CodeFile{Seconds: 2, NoiseSeed: 4, Pieces: []Piece{
		{File: 0, From: 0.1, To: 0.2, At: 0.5, Fade: 0.001},
		{File: 1, From: 0, To: 0.5, At: 1.2, Fade: 0.01},
	}}
	cuts := map[cutKey][]float32{}
	ones := make([]float64, rate)
	for i := range ones {
		ones[i] = 0.5
	}
	cutPieces(ones, rate, 0, []CodeFile{*cf}, cuts)
	cutPieces(ones[:rate/4], rate, 1, []CodeFile{*cf}, cuts) // a file shorter than the cut asked of it
	require.Len(t, cuts[cutKey{0, 0}], 800)
	require.Len(t, cuts[cutKey{0, 1}], 2000)

	x := buildCodeFile(cf, 0, rate, cuts)
	require.Len(t, x, 2*rate)
	bg := Pink(2*rate, BackgroundRMS, 4)
	require.InDelta(t, BackgroundRMS, rms(bg), 1e-12)
	require.Equal(t, bg[:3900], x[:3900], "before the first piece, the background alone")
	require.InDelta(t, 0.5, x[4400]-bg[4400], 1e-6, "a piece is laid in at its place")
	require.InDelta(t, 0, x[4000]-bg[4000], 1e-6, "faded in from nothing")
	require.InDelta(t, 0, x[4799]-bg[4799], 1e-6, "and out to nothing")
	require.InDelta(t, 0, x[4800]-bg[4800], 1e-12)
	require.InDelta(t, 0.5, x[9700]-bg[9700], 1e-6)
	require.InDelta(t, 0, x[11700]-bg[11700], 1e-12, "a short file gives what it has")
}

// codeFile is a hand-made plan: codes BC at 1.0-1.4 s and BBC at 5.0-5.8 s,
// laughter at 2.5-3.5 s.
func codeFile() *CodeFile {
	return &CodeFile{Name: "f", Seconds: 8, Laughs: []Span{{2.5, 3.5}}, Codes: []TrueCode{
		{Start: 1.0, End: 1.4, Bangs: 1, Claps: 1, Order: "BC", Times: []float64{1.0, 1.4}},
		{Start: 5.0, End: 5.8, Bangs: 2, Claps: 1, Order: "BBC", Times: []float64{5.0, 5.4, 5.8}},
	}}
}

func TestScoreCodes(t *testing.T) {
	B, C := gesture.Bang, gesture.Clap
	g := func(t float64, k gesture.Kind) Gesture { return Gesture{Time: t, Kind: k} }
	for _, tc := range []struct {
		name  string
		heard Heard
		want  CodeScore
	}{
		{"all heard", Heard{
			Gestures: []Gesture{g(1.004, B), g(1.39, C), g(5.01, B), g(5.42, B), g(5.79, C)},
			Codes:    []audio.Code{{Start: 1.004, End: 1.39, Bangs: 1, Claps: 1}, {Start: 5.01, End: 5.79, Bangs: 2, Claps: 1}},
		}, CodeScore{Files: 1, Codes: 2, Exact: 2, Gestures: 5, RightKind: 5, Heard: 5, LaughSeconds: 1}},

		{"a clap heard as a bang; a gesture 60 ms late; laughter heard", Heard{
			Gestures: []Gesture{g(1.0, B), g(1.4, B), g(3.0, C), g(5.0, B), g(5.46, B), g(5.8, C)},
			Codes:    []audio.Code{{Start: 1.0, End: 3.0, Bangs: 2, Claps: 1}, {Start: 5.0, End: 5.8, Bangs: 2, Claps: 1}},
		}, CodeScore{Files: 1, Codes: 2, Exact: 1, Gestures: 5, RightKind: 3, Heard: 6, InLaughter: 1, LaughSeconds: 1}},

		{"a code split in two, an extra code, one gesture heard twice", Heard{
			Gestures: []Gesture{g(1.0, B), g(1.01, B), g(1.4, C), g(5.0, B), g(5.4, B), g(5.8, C), g(7.0, C), g(7.3, B)},
			Codes: []audio.Code{{Start: 1.0, End: 1.4, Bangs: 2, Claps: 1}, {Start: 5.0, End: 5.4, Bangs: 2},
				{Start: 5.8, End: 5.8, Claps: 1}, {Start: 7.0, End: 7.3, Bangs: 1, Claps: 1}},
		}, CodeScore{Files: 1, Codes: 2, Gestures: 5, RightKind: 5, Heard: 8, Extra: 1, LaughSeconds: 1}},

		{"within the window either side of a code, a heard code overlaps it", Heard{
			Codes: []audio.Code{{Start: 0.96, End: 0.97, Bangs: 1, Claps: 1}, {Start: 5.84, End: 6.0, Bangs: 2, Claps: 1}},
		}, CodeScore{Files: 1, Codes: 2, Exact: 2, Gestures: 5, LaughSeconds: 1}},

		{"beyond it, not", Heard{
			Codes: []audio.Code{{Start: 0.9, End: 0.94, Bangs: 1, Claps: 1}, {Start: 5.86, End: 6.0, Bangs: 2, Claps: 1}},
		}, CodeScore{Files: 1, Codes: 2, Gestures: 5, Extra: 2, LaughSeconds: 1}},

		{"nothing heard", Heard{}, CodeScore{Files: 1, Codes: 2, Gestures: 5, LaughSeconds: 1}},
	} {
		got := ScoreCodes(codeFile(), &tc.heard)
		require.Len(t, got.Misses, got.Codes-got.Exact, tc.name)
		got.Misses = nil
		require.Equal(t, tc.want, got, tc.name)
	}
	// A miss says what was heard instead.
	h := Heard{Codes: []audio.Code{{Start: 1.0, End: 3.0, Bangs: 2, Claps: 1, Order: "BBC"}}}
	s := ScoreCodes(codeFile(), &h)
	require.Equal(t, []CodeMiss{
		{File: "f", Start: 1, End: 1.4, Want: "BC", Heard: []string{"BBC@1.00-3.00"}},
		{File: "f", Start: 5, End: 5.8, Want: "BBC", Heard: []string{}},
	}, s.Misses)
	require.Equal(t, 0.0, s.ExactRate())
	require.Equal(t, 0.0, s.ClassAccuracy())
}
