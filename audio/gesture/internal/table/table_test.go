package table

import (
	"encoding/binary"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/tableref/tableref/audio/internal/realcorpus"
)

// writeWAV writes 16-bit mono PCM.
func writeWAV(t *testing.T, path string, rate int, x []float64) {
	t.Helper()
	data := make([]byte, 2*len(x))
	for i, v := range x {
		binary.LittleEndian.PutUint16(data[2*i:], uint16(int16(math.Max(-1, math.Min(1, v))*32767)))
	}
	h := make([]byte, 44)
	copy(h, "RIFF")
	binary.LittleEndian.PutUint32(h[4:], uint32(36+len(data)))
	copy(h[8:], "WAVEfmt ")
	binary.LittleEndian.PutUint32(h[16:], 16)
	binary.LittleEndian.PutUint16(h[20:], 1)
	binary.LittleEndian.PutUint16(h[22:], 1)
	binary.LittleEndian.PutUint32(h[24:], uint32(rate))
	binary.LittleEndian.PutUint32(h[28:], uint32(2*rate))
	binary.LittleEndian.PutUint16(h[32:], 2)
	binary.LittleEndian.PutUint16(h[34:], 16)
	copy(h[36:], "data")
	binary.LittleEndian.PutUint32(h[40:], uint32(len(data)))
	require.NoError(t, os.WriteFile(path, append(h, data...), 0o644))
}

func TestExtractLabelsOnsetsByTheLabelFile(t *testing.T) {
	dir := t.TempDir()
	const rate = 22050
	rng := rand.New(rand.NewSource(1))
	x := make([]float64, 3*rate)
	for i := range x {
		x[i] = 0.001 * rng.NormFloat64()
	}
	burst := func(at float64) {
		for i := int(at * rate); i < int((at+0.05)*rate); i++ {
			x[i] += 0.5 * rng.NormFloat64() * math.Exp(-float64(i-int(at*rate))/rate/0.008)
		}
	}
	burst(0.5) // labelled clap
	burst(1.5) // labelled bang (the label is what counts here)
	burst(2.3) // not labelled: none
	writeWAV(t, filepath.Join(dir, "x.wav"), rate, x)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "x.json"), []byte(
		`{"tier":"clean","onsets":[{"t":0.5,"kind":"clap"},{"t":1.5,"kind":"bang"}],"distractors":[],"speech":[]}`), 0o644))

	rows, err := Extract(filepath.Join(dir, "x.json"))
	require.NoError(t, err)
	byLabel := map[string]int{}
	for _, r := range rows {
		byLabel[r[3]]++
	}
	assert.Equal(t, 1, byLabel["clap"], "%v", rows)
	assert.Equal(t, 1, byLabel["bang"])
	assert.GreaterOrEqual(t, byLabel["none"], 1, "the unlabelled burst")

	for _, name := range []string{"t.csv", "t.csv.gz"} {
		p := filepath.Join(dir, name)
		require.NoError(t, Write(p, rows))
		ex, err := Read(p)
		require.NoError(t, err)
		require.Len(t, ex, len(rows))
		for i, e := range ex {
			assert.Equal(t, rows[i][3], e.Label)
			assert.Equal(t, e.F.Vector(), e.X)
		}
		for _, e := range ex {
			want := map[string]int{"clap": 0, "bang": 1}[e.Label]
			if e.Label != "clap" && e.Label != "bang" {
				want = 2
			}
			assert.Equal(t, want, e.Y, "%s is class %d", e.Label, want)
		}
	}
}

func TestReadRefusesATableWithoutAFeature(t *testing.T) {
	p := filepath.Join(t.TempDir(), "old.csv")
	require.NoError(t, os.WriteFile(p, []byte("file,tier,t,label,level\nx,clean,1,clap,-3\n"), 0o644))
	_, err := Read(p)
	assert.ErrorContains(t, err, "regenerate the table")
}

// TestRealRowsMeasureAndNeverTeach: the real recordings' rows are labelled
// by their hits, carry the real tier, and a table holding one is refused
// for training.
func TestRealRowsMeasureAndNeverTeach(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "..", "..", "shared", "corpus", "real")
	if _, err := os.Stat(dir); err != nil {
		if os.Getenv("TABLEREF_REQUIRE_CORPUS") == "1" {
			t.Fatal("../shared/corpus/real is missing")
		}
		t.Skip("../shared/corpus/real is missing")
	}
	recs, err := realcorpus.Recordings(dir)
	require.NoError(t, err)
	var clap, laugh *realcorpus.Recording
	for i, r := range recs {
		switch {
		case clap == nil && r.Kind == realcorpus.Claps && len(r.Label.Times) > 0:
			clap = &recs[i]
		case laugh == nil && r.Kind == realcorpus.Noise:
			laugh = &recs[i]
		}
	}
	require.NotNil(t, clap, "a clap recording with hits")
	require.NotNil(t, laugh, "a recording of laughter or talk")
	tmp := t.TempDir()
	for _, r := range []*realcorpus.Recording{clap, laugh} {
		rows, err := ExtractReal(*r)
		require.NoError(t, err)
		require.NotEmpty(t, rows)
		p := filepath.Join(tmp, r.Name+".csv")
		require.NoError(t, Write(p, rows))
		ex, err := Read(p)
		require.NoError(t, err)
		claps := 0
		for _, e := range ex {
			assert.True(t, e.Real, e.Name)
			if e.Label == "clap" {
				claps++
			}
			if r == laugh {
				assert.Equal(t, "speech", e.Label, "all of laughter is speech: %s", e.Name)
			}
		}
		if r == clap {
			assert.Greater(t, claps, len(r.Label.Times)/2, "most of the labelled hits are found as claps")
			assert.LessOrEqual(t, claps, len(r.Label.Times))
		}
		assert.ErrorContains(t, Trainable(ex), "for measuring only")
		for i := range ex {
			ex[i].Real = false
		}
		assert.NoError(t, Trainable(ex))
	}
}
