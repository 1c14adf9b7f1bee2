package realcorpus

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/audio"
)

func TestClassKind(t *testing.T) {
	for class, want := range map[string]Kind{
		"clap_sequence": Claps, "clap_single": Claps, "claps": Claps,
		"knock_wood": Bangs, "bang_table": Bangs, "slap_single": Bangs,
		"laughter": Noise, "talk": Noise, "excluded_suspect": Noise, "Clap": Noise,
	} {
		require.Equal(t, want, ClassKind(class), class)
	}
}

func TestParseLabels(t *testing.T) {
	l, err := parseLabels(strings.NewReader("file,class_label,duration_s,sample_rate,n_events_auto,event_times_auto,other\n" +
		"clap_sequence/a.wav,clap_sequence,2.5,48000,3,0.100 0.5 1.25,\"x,y\"\n" +
		"laughter/b c.wav,laughter,,44100,,,\n"))
	require.NoError(t, err)
	require.Equal(t, Labels{
		"clap_sequence/a": {File: "clap_sequence/a.wav", Duration: 2.5, Events: 3, Times: []float64{0.1, 0.5, 1.25}},
		"laughter/b c":    {File: "laughter/b c.wav"},
	}, l)
	_, err = parseLabels(strings.NewReader("file,n_events_auto\nx.wav,three\n"))
	require.ErrorContains(t, err, `line 2: n_events_auto "three"`)
	_, err = parseLabels(strings.NewReader("name,duration_s\n"))
	require.ErrorContains(t, err, `no "file" column`)
	l, err = ReadLabels(filepath.Join(t.TempDir(), "labels.csv"))
	require.NoError(t, err, "a source without labels has none")
	require.Empty(t, l)
}

// handRows are rows whose table score-real prints as handTable (its own
// code, run on the same counts): the rounding of ties included (100.25 s,
// found 0.875).
var handRows = []Row{
	{Source: "s1", Class: "clap_seq", Kind: Claps, Files: 3, Hits: 10, Seconds: 12.5, Claps: 7, Bangs: 2, Found: 6},
	{Source: "s1", Class: "knock_seq", Kind: Bangs, Files: 2, Hits: 8, Seconds: 5, Claps: 1, Bangs: 9, Found: 7, Failed: 1},
	{Source: "s1", Class: "laughter", Kind: Noise, Files: 4, Hits: 30, Seconds: 100.25, Claps: 2, Bangs: 3, Codes: 1},
	{Source: "s2", Class: "clap_single", Kind: Claps, Files: 1, Hits: 5, Seconds: 9},
	{Source: "s2", Class: "talk", Kind: Noise, Files: 1, Seconds: 0.5, Claps: 1},
}

const handTable = `s1                         clap_seq        files    3 hits~   10  clap     7 bang     2  right 0.778 found 0.60
s1                         knock_seq       files    2 hits~    8  clap     1 bang     9  right 0.900 found 0.88  FAILED 1
s1                         laughter        files    4  100.2 s  gestures    5 codes   1  (3.0 gestures/min, 0.60 codes/min)
s2                         clap_single     files    1 hits~    5  clap     0 bang     0  right 0.000 found 0.00
s2                         talk            files    1    0.5 s  gestures    1 codes   0  (60.0 gestures/min, 0.00 codes/min)
real recordings: claps heard as claps 0.778 (found 0.40), knocks as bangs 0.900 (found 0.88), laughter/talk 3.6 gestures/min 0.60 codes/min over 1.7 min; failed 1 (goal >= 0.95, >= 0.95, found >= 0.85, <= 1, <= 0.2)
`

func TestTotalsAndTable(t *testing.T) {
	res := &Result{Rows: handRows}
	res.total()
	tt := res.Totals
	require.InDelta(t, 7.0/9, tt.ClapsRight, 1e-12)
	require.InDelta(t, 6.0/15, tt.ClapsFound, 1e-12)
	require.InDelta(t, 9.0/10, tt.KnocksRight, 1e-12)
	require.InDelta(t, 7.0/8, tt.KnocksFound, 1e-12)
	require.InDelta(t, 60*6/100.75, tt.NoiseGesturesPerMin, 1e-12)
	require.InDelta(t, 60*1/100.75, tt.NoiseCodesPerMin, 1e-12)
	require.InDelta(t, 100.75/60, tt.NoiseMinutes, 1e-12)
	require.Equal(t, 1, tt.Failed)
	// score-real's --json line, for these rows
	require.Equal(t, ScoreRealTotals{0.778, 0.4, 0.9, 0.875, 3.57, 0.6, 1.7, 1}, res.ScoreReal())

	var b strings.Builder
	require.NoError(t, res.Print(&b))
	lines := strings.SplitAfter(b.String(), "\n")
	require.Equal(t, handTable, strings.Join(lines[:6], ""))
	require.Equal(t, "codes from real hits: none built (0 recordings asked for) (goal exact >= 0.9)\n", lines[6])

	// With the code test: a line per source and one for all.
	res.CodeFiles, res.CodesPerFile, res.Seed = 2, 5, 9
	cs := CodeScore{Files: 2, Codes: 10, Exact: 9, Gestures: 40, RightKind: 38, Heard: 41, Extra: 1, InLaughter: 2, LaughSeconds: 12}
	res.Codes = []CodeRow{{Source: "s1", Rate: 48000, CodeScore: cs}}
	res.Totals.Codes = cs
	b.Reset()
	require.NoError(t, res.Print(&b))
	require.True(t, strings.HasSuffix(b.String(),
		"s1                         codes           files    2 codes   10  exact 0.900  right kind 0.950  extra   1  2 gestures in 0.2 min of laughter\n"+
			"codes from real hits: exact 0.900 (9 of 10), gestures of the right kind 0.950, extra codes 1, 2 gestures in 0.2 min of laughter; failed 0; 2 recordings of 5 codes a source, seed 9 (goal exact >= 0.9)\n"), b.String())

	// No rows at all: nothing divides by zero.
	empty := &Result{}
	empty.total()
	require.Equal(t, Totals{}, empty.Totals)
}

func TestRowRates(t *testing.T) {
	r := Row{Kind: Bangs, Hits: 4, Claps: 1, Bangs: 3, Found: 3, Seconds: 30, Codes: 2}
	require.Equal(t, 0.75, r.Right())
	require.Equal(t, 0.75, r.FoundRate())
	require.Equal(t, 8.0, r.GesturesPerMinute())
	require.Equal(t, 4.0, r.CodesPerMinute())
	r.Kind = Claps
	require.Equal(t, 0.25, r.Right())
	require.Equal(t, 0.0, Row{}.Right())
	require.Equal(t, 60.0, Row{Claps: 1, Seconds: 0.5}.GesturesPerMinute(), "under a second counts as one, as score-real has it")
}

func TestTally(t *testing.T) {
	h := &Heard{Gestures: []Gesture{{Time: 1, Kind: "clap"}, {Time: 2, Kind: "bang"}, {Time: 3, Kind: "clap"}, {Time: 4, Kind: "clap"}}, Codes: []audio.Code{{}}}
	require.Equal(t, fileResult{hits: 2, seconds: 5, claps: 3, bangs: 1, found: 2, codes: 1}, tally(Claps, 2, 5, h, nil), "found: no more than the hits")
	require.Equal(t, fileResult{hits: 9, seconds: 5, claps: 3, bangs: 1, found: 1, codes: 1}, tally(Bangs, 9, 5, h, nil))
	require.Equal(t, fileResult{hits: 9, seconds: 5, claps: 3, bangs: 1, codes: 1}, tally(Noise, 9, 5, h, nil))
	e := os.ErrNotExist
	require.Equal(t, fileResult{hits: 9, seconds: 5, err: e}, tally(Bangs, 9, 5, nil, e), "a file that failed still counts its hits")
}

// burst is a hand-made hit: noise decaying in a few milliseconds,
// low-passed when dull.
func burst(x []float64, at int, rate int, level float64, dull bool, rng *rand.Rand) {
	var lp float64
	for i := 0; i < rate/20 && at+i < len(x); i++ {
		w := (2*rng.Float64() - 1) * level * math.Exp(-float64(i)/(0.006*float64(rate)))
		if dull {
			lp += 0.1 * (w - lp)
			w = 4 * lp
		}
		x[at+i] += w
	}
}

// writeTinyCorpus writes a corpus in the layout of ../shared/corpus/real
// from hand-made sounds: source "one" has claps, knocks, single knocks
// and laughter; source "two" has claps and no labels.csv.
func writeTinyCorpus(t *testing.T) string {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(3, 4))
	toPCM := func(x []float64, channels int) []int32 {
		out := make([]int32, 0, len(x)*channels)
		for _, v := range x {
			s := int32(math.Round(max(-1, min(32767.0/32768, v)) * 32768))
			for range channels {
				out = append(out, s)
			}
		}
		return out
	}
	hits := func(rate int, secs float64, times []float64, dull bool) []float64 {
		x := Pink(int(secs*float64(rate)), 0.001, rng.Uint64())
		for _, t := range times {
			burst(x, int(t*float64(rate)), rate, 0.5, dull, rng)
		}
		return x
	}
	write := func(rel string, rate, channels int, x []float64) {
		p := filepath.Join(dir, rel)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		writeFLAC(t, p, rate, channels, 16, toPCM(x, channels))
	}
	write("one/clap_sequence/a.flac", 48000, 2, hits(48000, 2, []float64{0.4, 0.9, 1.5}, false))
	write("one/knock_sequence/b.flac", 48000, 2, hits(48000, 2, []float64{0.3, 0.8, 1.4}, true))
	write("one/knock_single/c1.flac", 44100, 1, hits(44100, 0.3, []float64{0.05}, true))
	write("one/knock_single/c2.flac", 22050, 1, hits(22050, 0.2, []float64{0.05}, true))
	laugh := Pink(3*48000, 0.05, 8)
	for i := range laugh { // a voice-like buzz, swelling and fading four times a second
		laugh[i] *= 1 + math.Sin(2*math.Pi*4*float64(i)/48000)
	}
	write("one/laughter/d.flac", 48000, 2, laugh)
	write("two/clap_x/e.flac", 44100, 1, hits(44100, 2, []float64{0.5, 1.5}, false))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "one", "labels.csv"), []byte(
		"file,class_label,duration_s,n_events_auto,event_times_auto\n"+
			"clap_sequence/a.wav,clap_sequence,2.0,3,0.400 0.900 1.500\n"+
			"knock_sequence/b.wav,knock_sequence,2.0,3,0.300 0.800 1.400\n"+
			"knock_single/c1.wav,knock_single,0.3,1,0.050\n"+
			"knock_single/c2.wav,knock_single,0.2,1,0.050\n"+
			"laughter/d.wav,laughter,3.0,7,\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "one", "SOURCE.md"), []byte("# one\n"), 0o644))
	return dir
}

func TestScoreTinyCorpus(t *testing.T) {
	dir := writeTinyCorpus(t)
	var calls atomic.Int64
	var done, totals []int
	opt := Options{Dir: dir, CodeFiles: 2, CodesPerFile: 2, Seed: 5, Workers: 1,
		Adjust:   func(*audio.Config) { calls.Add(1) },
		Progress: func(d, total int) { done, totals = append(done, d), append(totals, total) }}
	res, err := Score(opt)
	require.NoError(t, err)
	require.Equal(t, int64(5+2), calls.Load(), "the configuration hook is asked for each recording heard")
	// 5 recordings heard, up to 5 decoded for cuts (the single knocks have
	// event times too), 2 code recordings
	require.NotEmpty(t, done)
	n := totals[0]
	require.GreaterOrEqual(t, n, 5+3+2)
	require.LessOrEqual(t, n, 5+5+2)
	for i := range done {
		require.Equal(t, i+1, done[i])
		require.Equal(t, n, totals[i])
	}
	require.Equal(t, n, done[len(done)-1])
	require.Empty(t, res.Errors)

	// The counts that do not depend on what was heard.
	type shape struct {
		source, class string
		kind          Kind
		files, hits   int
		seconds       float64
	}
	var got []shape
	for _, r := range res.Rows {
		got = append(got, shape{r.Source, r.Class, r.Kind, r.Files, r.Hits, r.Seconds})
		if r.Kind != Noise {
			require.LessOrEqual(t, r.Found, min(r.Hits, r.Claps+r.Bangs))
		}
	}
	strung := float64(3*44100+13230+8820) / 44100 // three gaps, 0.3 s, 0.2 s resampled
	require.Equal(t, []shape{
		{"one", "clap_sequence", Claps, 1, 3, 2},
		{"one", "knock_sequence", Bangs, 1, 3, 2},
		{"one", "knock_single", Bangs, 1, 2, strung}, // the clips strung together are one recording
		{"one", "laughter", Noise, 1, 7, 3},
		{"two", "clap_x", Claps, 1, 0, 0}, // no labels: no hits, no seconds
	}, got)
	require.Len(t, res.Codes, 1, "only source one has claps, knocks and laughter")
	c := res.Codes[0]
	require.Equal(t, "one", c.Source)
	require.Equal(t, 48000, c.Rate)
	require.Equal(t, 2, c.Files)
	require.Equal(t, 4, c.Codes)
	require.Len(t, c.Misses, c.Codes-c.Exact)
	require.Equal(t, c.CodeScore.Exact, res.Totals.Codes.Exact)
	require.Nil(t, res.Totals.Codes.Misses)

	// The same run with more workers gives the same figures, to the last
	// bit, and so does a second run.
	opt.Workers, opt.Progress = 3, nil
	again, err := Score(opt)
	require.NoError(t, err)
	require.Equal(t, res, again)

	// The hook changes what is heard: no onset is strong enough now.
	// (The code recordings are heard by the same Listen, so they are left
	// out here: the test is quicker without them.)
	opt.Adjust = func(c *audio.Config) { c.Threshold = 1e6 }
	opt.CodeFiles = 0
	deaf, err := Score(opt)
	require.NoError(t, err)
	for _, r := range deaf.Rows {
		require.Zero(t, r.Claps+r.Bangs+r.Codes, "%s/%s", r.Source, r.Class)
	}
	require.Empty(t, deaf.Codes)

	// The JSON form carries score-real's totals as its --json prints them.
	b, err := res.JSON()
	require.NoError(t, err)
	var j map[string]any
	require.NoError(t, json.Unmarshal(b, &j))
	for _, k := range []string{"rows", "totals", "code_sources", "errors", "score_real", "seed"} {
		require.Contains(t, j, k)
	}
	require.Contains(t, j["score_real"], "noise_codes_per_min")
}

func TestScoreErrors(t *testing.T) {
	dir := t.TempDir()
	_, err := Score(Options{Dir: filepath.Join(dir, "nope")})
	require.EqualError(t, err, filepath.Join(dir, "nope")+": no such folder")
	_, err = Score(Options{Dir: dir})
	require.EqualError(t, err, dir+": no recordings (SOURCE/CLASS/*.flac)")

	// A damaged recording fails alone: the others are still heard.
	good := writeTinyCorpus(t)
	bad := filepath.Join(good, "two", "clap_x", "e.flac")
	b, err := os.ReadFile(bad)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(bad, b[:len(b)/2], 0o644))
	res, err := Score(Options{Dir: good})
	require.NoError(t, err)
	require.Len(t, res.Errors, 1)
	require.Contains(t, res.Errors[0], "e.flac")
	require.Equal(t, 1, res.Totals.Failed)
	require.Equal(t, 1, res.Rows[len(res.Rows)-1].Failed)
	var out bytes.Buffer
	require.NoError(t, res.Print(&out))
	require.Contains(t, out.String(), "FAILED 1")
}

// TestRecordingsListsWhatIsHeardOneByOne: every recording of the clap and
// knock classes with its labels' row, and not the clips of a _single class.
func TestRecordingsListsWhatIsHeardOneByOne(t *testing.T) {
	dir := writeBackwardsTable(t)
	single := filepath.Join(dir, "table", "clap_single")
	require.NoError(t, os.MkdirAll(single, 0o755))
	writeFLAC(t, filepath.Join(single, "one.flac"), 16000, 1, 16, make([]int32, 1600))
	recs, err := Recordings(dir)
	require.NoError(t, err)
	require.Len(t, recs, 4)
	want := []struct {
		class, name string
		kind        Kind
	}{{"clap_sequence", "clap_a_0", Claps}, {"clap_sequence", "clap_b_1", Claps}, {"knock_sequence", "knock_a_0", Bangs}, {"knock_sequence", "knock_b_1", Bangs}}
	for i, w := range want {
		r := recs[i]
		assert.Equal(t, "table", r.Source)
		assert.Equal(t, w.class, r.Class)
		assert.Equal(t, w.name, r.Name)
		assert.Equal(t, w.kind, r.Kind)
		assert.Equal(t, 3.0, r.Label.Duration, r.Name)
		assert.FileExists(t, r.Path)
	}
	_, err = Recordings(filepath.Join(dir, "nothing"))
	assert.ErrorContains(t, err, "no such folder")
}
