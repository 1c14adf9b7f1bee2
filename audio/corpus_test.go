package audio_test

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/audio"
)

// corpusDir finds ../shared/corpus/gestures beside the repository, or skips
// (fails when TABLEREF_REQUIRE_CORPUS=1).
func corpusDir(t testing.TB) string {
	t.Helper()
	dir := filepath.Join("..", "..", "shared", "corpus", "gestures")
	if _, err := os.Stat(dir); err != nil {
		if os.Getenv("TABLEREF_REQUIRE_CORPUS") == "1" {
			t.Fatal(noCorpus)
		}
		t.Skip(noCorpus)
	}
	return dir
}

// label is a corpus label file (format: ../shared/corpus/README.md).
type label struct {
	Tier   string `json:"tier"`
	Onsets []struct {
		T    float64 `json:"t"`
		Kind string  `json:"kind"`
	} `json:"onsets"`
	Codes []struct {
		Start, End   float64
		Bangs, Claps int
		Order        string
	} `json:"codes"`
	Distractors []struct {
		T float64 `json:"t"`
	} `json:"distractors"`
	Speech   [][2]float64 `json:"speech"`
	Duration float64      `json:"duration"`
}

// score accumulates the corpus README's scoring convention.
type score struct {
	tp, fp, fn, cls     int
	codes, exact, extra int
	noiseFP             int
	seconds             float64
}

func (s score) f1() float64 { return 2 * float64(s.tp) / math.Max(1, float64(2*s.tp+s.fp+s.fn)) }
func (s score) classAcc() float64 {
	return float64(s.cls) / math.Max(1, float64(s.tp))
}
func (s score) codeExact() float64 { return float64(s.exact) / math.Max(1, float64(s.codes)) }

type heard struct {
	t    float64
	kind string
}

// scoreFile runs one recording through a Listener, as the CLI does, and
// scores it against its labels.
func scoreFile(t *testing.T, wav string, lab label, s *score) {
	scoreFileWith(t, wav, lab, audio.Config{}, s)
}

// scoreFileWith is scoreFile with the Listener's configuration cfg.
func scoreFileWith(t *testing.T, wav string, lab label, cfg audio.Config, s *score) {
	src, err := audio.OpenWAV(wav)
	require.NoError(t, err)
	defer src.Close()
	var onsets []heard
	var codes []*audio.Code
	l := audio.NewListener(src.SampleRate(), cfg, func(e audio.Event) {
		switch e := e.(type) {
		case *audio.Onset:
			if e.Kind.IsGesture() {
				onsets = append(onsets, heard{e.Time, string(e.Kind)})
			}
		case *audio.Code:
			codes = append(codes, e)
		}
	})
	require.NoError(t, audio.Drain(src, 4096, func(x []float64) error { l.Write(x); return nil }))
	l.Close()

	// onsets: one to one within 50 ms, nearest pairs first
	type pair struct {
		d    float64
		i, j int
	}
	var pairs []pair
	for i, g := range lab.Onsets {
		for j, o := range onsets {
			if d := math.Abs(o.t - g.T); d <= 0.05 {
				pairs = append(pairs, pair{d, i, j})
			}
		}
	}
	sort.Slice(pairs, func(a, b int) bool { return pairs[a].d < pairs[b].d })
	usedT, usedF := map[int]bool{}, map[int]bool{}
	for _, p := range pairs {
		if usedT[p.i] || usedF[p.j] {
			continue
		}
		usedT[p.i], usedF[p.j] = true, true
		s.tp++
		if onsets[p.j].kind == lab.Onsets[p.i].Kind {
			s.cls++
		}
	}
	s.fn += len(lab.Onsets) - len(usedT)
	s.fp += len(onsets) - len(usedF)
	for j, o := range onsets {
		if usedF[j] {
			continue
		}
		noisy := false
		for _, sp := range lab.Speech {
			noisy = noisy || (o.t >= sp[0] && o.t <= sp[1])
		}
		for _, d := range lab.Distractors {
			noisy = noisy || (o.t >= d.T-0.1 && o.t <= d.T+0.3)
		}
		if noisy {
			s.noiseFP++
			t.Logf("%s: false %s at %.3f s in talk or a clink", filepath.Base(wav), o.kind, o.t)
		}
	}
	used := map[int]bool{}
	for _, c := range lab.Codes {
		s.codes++
		var hits []int
		for k, x := range codes {
			if x.Start <= c.End+0.3 && x.End >= c.Start-0.3 {
				hits = append(hits, k)
				used[k] = true
			}
		}
		if len(hits) == 1 && codes[hits[0]].Bangs == c.Bangs && codes[hits[0]].Claps == c.Claps {
			s.exact++
		} else {
			t.Logf("%s: code %.2f-%.2f (%d bangs, %d claps) not heard exactly", filepath.Base(wav), c.Start, c.End, c.Bangs, c.Claps)
		}
	}
	s.extra += len(codes) - len(used)
	s.seconds += lab.Duration
}

// TestCorpusAccuracy holds the detector to the targets on the labelled
// corpus, with the one set of settings the binary ships.
func TestCorpusAccuracy(t *testing.T) {
	dir := corpusDir(t)
	files, err := filepath.Glob(filepath.Join(dir, "dev-*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	tiers := map[string]*score{}
	var all score
	for _, jf := range files {
		b, err := os.ReadFile(jf)
		require.NoError(t, err)
		var lab label
		require.NoError(t, json.Unmarshal(b, &lab))
		if tiers[lab.Tier] == nil {
			tiers[lab.Tier] = &score{}
		}
		var s score
		scoreFile(t, strings.TrimSuffix(jf, ".json")+".wav", lab, &s)
		for _, into := range []*score{tiers[lab.Tier], &all} {
			into.tp += s.tp
			into.fp += s.fp
			into.fn += s.fn
			into.cls += s.cls
			into.codes += s.codes
			into.exact += s.exact
			into.extra += s.extra
			into.noiseFP += s.noiseFP
			into.seconds += s.seconds
		}
	}
	for tier, s := range tiers {
		t.Logf("%-6s F1 %.3f  class %.3f  codes exact %.3f  extra codes %d  false gestures in talk/clinks %d  (%.1f min)",
			tier, s.f1(), s.classAcc(), s.codeExact(), s.extra, s.noiseFP, s.seconds/60)
	}
	t.Logf("all    F1 %.3f  class %.3f  codes exact %.3f", all.f1(), all.classAcc(), all.codeExact())

	party := tiers["party"]
	require.NotNil(t, party, "the corpus has a party tier")
	partyMin := party.seconds / 60
	require.GreaterOrEqual(t, all.f1(), 0.98, "onset F1 overall")
	require.GreaterOrEqual(t, party.f1(), 0.95, "onset F1 in the party tier")
	require.GreaterOrEqual(t, all.classAcc(), 0.98, "clap/bang accuracy on found onsets")
	require.GreaterOrEqual(t, all.codeExact(), 0.90, "share of codes heard exactly")
	require.LessOrEqual(t, float64(party.noiseFP), math.Floor(partyMin/5), "false gestures: at most 1 per 5 minutes of party audio")
	require.LessOrEqual(t, float64(party.extra), math.Floor(partyMin/10), "extra codes: at most 1 per 10 minutes of party audio")
}

// noCorpus is why a test that needs the labelled recordings did not run.
const noCorpus = "the labelled recordings are not at ../shared/corpus/gestures (../shared beside the repository)"
