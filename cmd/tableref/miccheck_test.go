package main

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/audio"
	"github.com/tableref/tableref/audio/gesture"
)

// checkFile writes a recording of the gestures in order (C clap, B bang),
// cut from a clean corpus recording, each in 0.55 s of quiet room noise.
func checkFile(t *testing.T, order string) string {
	t.Helper()
	dir := filepath.Join("..", "..", "..", "shared", "corpus", "gestures")
	src := filepath.Join(dir, "dev-015.wav")
	b, err := os.ReadFile(strings.TrimSuffix(src, ".wav") + ".json")
	if err != nil {
		if os.Getenv("TABLEREF_REQUIRE_CORPUS") == "1" {
			t.Fatalf("TABLEREF_REQUIRE_CORPUS=1 but the corpus is missing: %v", err)
		}
		t.Skipf("the labelled recordings are not at %s", dir)
	}
	var lab struct {
		Onsets []struct {
			T    float64 `json:"t"`
			Kind string  `json:"kind"`
		} `json:"onsets"`
	}
	require.NoError(t, json.Unmarshal(b, &lab))
	x, rate := vmicReadWAV(t, src)
	// the first lone clap and the first lone bang (nothing else within 0.4 s)
	cut := map[byte][]float64{}
	for i, o := range lab.Onsets {
		k := byte(strings.ToUpper(o.Kind)[0])
		if cut[k] != nil || i+1 < len(lab.Onsets) && lab.Onsets[i+1].T-o.T < 0.4 || i > 0 && o.T-lab.Onsets[i-1].T < 0.4 {
			continue
		}
		a, z := int((o.T-0.02)*float64(rate)), int((o.T+0.35)*float64(rate))
		cut[k] = x[a:min(z, len(x))]
	}
	require.NotNil(t, cut['C'], "a lone clap in %s", src)
	require.NotNil(t, cut['B'], "a lone bang in %s", src)
	rng := rand.New(rand.NewPCG(3, 4))
	gap := func() []float64 {
		g := make([]float64, rate*55/100)
		for i := range g {
			g[i] = 0.0005 * rng.NormFloat64()
		}
		return g
	}
	out := gap()
	for _, k := range []byte(order) {
		out = append(out, cut[k]...)
		out = append(out, gap()...)
	}
	out = append(out, gap()...)
	path := filepath.Join(t.TempDir(), order+".wav")
	cliWriteWAV(t, path, rate, out)
	return path
}

func TestCLIMicCheck(t *testing.T) {
	r := cliRun(t, nil, "listen", "--check", "--wav", checkFile(t, "CCBB"))
	require.Equal(t, 0, r.code, "%s", r)
	assert.Contains(t, r.stdout, "Clap twice, then bang the table twice", "%s", r)
	assert.Contains(t, r.stdout, "All right: heard clap, clap, bang, bang.", "%s", r)

	r = cliRun(t, nil, "listen", "--check", "--wav", checkFile(t, "BCCB"))
	assert.Equal(t, 1, r.code, "%s", r)
	assert.Contains(t, r.stdout, "Heard bang, clap, clap, bang (asked for clap, clap, bang, bang): a clap was taken for a bang", "%s", r)
	assert.Contains(t, r.stderr, `the microphone check failed: heard "BCCB"`, "%s", r)

	r = cliRun(t, nil, "listen", "--check", "--wav", checkFile(t, "CB"))
	assert.Equal(t, 1, r.code, "%s", r)
	assert.Contains(t, r.stdout, "Heard only clap, bang", "%s", r)

	r = cliRun(t, nil, "listen", "--check", "--json", "--wav", checkFile(t, ""))
	assert.Equal(t, 1, r.code, "%s", r)
	evs := cliEvents(t, r.stdout)
	require.Len(t, evs, 1, "%s", r)
	assert.Equal(t, "check", evs[0]["event"])
	assert.Equal(t, false, evs[0]["ok"])
	assert.Equal(t, "", evs[0]["heard"])
	assert.Contains(t, evs[0]["say"], "Heard no clap and no bang")

	r = cliRun(t, nil, "listen", "--check", "--voices", "--wav", checkFile(t, "CCBB"))
	cliAssertError(t, r, 2, "--check", "--voices")
}

func TestCLIListenSaysWhatIsWrongWithTheMicrophone(t *testing.T) {
	// the clap file with a DC offset: the problem is named in both formats
	x := cliClaps(44100, cliBurstTimes, 3.5)
	for i := range x {
		x[i] += 0.02
	}
	path := filepath.Join(t.TempDir(), "dc.wav")
	cliWriteWAV(t, path, 44100, x)
	r := cliRun(t, nil, "listen", "--wav", path)
	require.Equal(t, 0, r.code, "%s", r)
	assert.Contains(t, r.stdout, "microphone: The microphone adds a DC offset (0.020 of full scale)", "%s", r)
	r = cliRun(t, nil, "listen", "--json", "--wav", path)
	require.Equal(t, 0, r.code, "%s", r)
	var mic map[string]any
	for _, ev := range cliEvents(t, r.stdout) {
		if ev["event"] == "mic" {
			mic = ev
		}
	}
	require.NotNil(t, mic, "a mic event: %s", r)
	probs, _ := mic["problems"].([]any)
	require.Len(t, probs, 1, "%v", mic)
	assert.Equal(t, "dc", probs[0].(map[string]any)["kind"])
}

// TestTheMicCheckForgetsAWordsBurst: a gesture taken back (the start of a
// word said during the check) is not one of the four.
func TestTheMicCheckForgetsAWordsBurst(t *testing.T) {
	var out strings.Builder
	p := &checkPrinter{w: &out, rate: 1000}
	on := func(k gesture.Kind, at float64) {
		p.event(&audio.Onset{Kind: k, Time: at, Sample: int64(at * 1000)})
	}
	on(gesture.Clap, 0.5)
	on(gesture.Clap, 1.0)
	on(gesture.Bang, 1.3)
	p.event(&audio.Retract{Kind: gesture.Bang, Time: 1.3, Sample: 1300})
	on(gesture.Bang, 1.6)
	assert.False(t, p.finished(3000), "three gestures are not the four")
	on(gesture.Bang, 2.1)
	assert.True(t, p.finished(3000))
	ok, say := p.verdict()
	assert.True(t, ok, say)
	assert.Contains(t, out.String(), "was a word")
}
