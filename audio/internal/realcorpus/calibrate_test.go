package realcorpus

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestRoomOf(t *testing.T) {
	for name, room := range map[string]string{
		"clap_small_3.flac": "small", "knock_sequence/knock_large_10": "large", "clap_3.flac": "", "knock_7": "",
		"tap.flac": "", "clap_big_room_2.flac": "big_room", "clap_small_x.flac": "small_x",
	} {
		require.Equal(t, room, roomOf(name), name)
	}
}

// writeBackwardsTable writes one person's table, as a source of the real
// corpus: two rooms, a clap and a knock recording in each, whose "claps"
// are dull thumps and whose "knocks" bright bursts, so that the network
// names every one of them the other way round.
func writeBackwardsTable(t *testing.T) string {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(5, 6))
	var labels bytes.Buffer
	labels.WriteString("file,class_label,duration_s,n_events_auto\n")
	for _, f := range []struct {
		name string
		dull bool
	}{{"clap_sequence/clap_a_0", true}, {"clap_sequence/clap_b_1", true}, {"knock_sequence/knock_a_0", false}, {"knock_sequence/knock_b_1", false}} {
		const rate = 48000
		x := Pink(3*rate, 0.001, rng.Uint64())
		for _, t := range []float64{0.4, 0.9, 1.4, 1.9, 2.4} {
			burst(x, int(t*rate), rate, 0.5, f.dull, rng)
		}
		pcm := make([]int32, len(x))
		for i, v := range x {
			pcm[i] = int32(math.Round(max(-1, min(32767.0/32768, v)) * 32768))
		}
		p := filepath.Join(dir, "table", f.name+".flac")
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		writeFLAC(t, p, rate, 1, 16, pcm)
		labels.WriteString(f.name + ".wav," + filepath.Dir(f.name) + ",3.0,5\n")
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "table", "labels.csv"), labels.Bytes(), 0o644))
	return dir
}

func TestCalibrateLearnsABackwardsTable(t *testing.T) {
	dir := writeBackwardsTable(t)
	var done []int
	res, err := Calibrate(CalibrateOptions{Dir: dir, Source: "table", Workers: 2, Progress: func(d, _ int) { done = append(done, d) }})
	require.NoError(t, err)
	require.Empty(t, res.Errors)
	require.NotEmpty(t, done)
	require.Len(t, res.Picks, 2, "each clap recording with the knock recording of its rank")
	for i, p := range res.Picks {
		require.Equal(t, []string{"clap_sequence/clap_a_0", "clap_sequence/clap_b_1"}[i], p.ClapFile)
		require.Equal(t, []string{"knock_sequence/knock_a_0", "knock_sequence/knock_b_1"}[i], p.KnockFile)
		require.Equal(t, 2, p.All.Files, "the two recordings not taught from")
		require.Zero(t, p.SameRoom.Files, "the other room's")
		require.Equal(t, 2, p.OtherRooms.Files)
		w, c, o := p.All.Without, p.All.Taught, p.All.ClapsOnly
		require.Equal(t, 5, w.ClapHits)
		require.Equal(t, 5, w.KnockHits)
		require.True(t, p.Teaches, "%+v", p)
		require.Equal(t, 2, p.MisnamedClaps)
		// without: every clap a bang (and a knock now and then a clap)
		require.Zero(t, w.ClapsRight(), "%+v", w)
		// taught: the table's own claps and knocks
		require.Equal(t, 1.0, c.ClapsRight(), "%+v", c)
		require.Equal(t, 1.0, c.KnocksRight(), "%+v", c)
		require.Equal(t, c.Claps, c.ClapsFound)
		// claps alone teach what a clap is (and here, these bursts being
		// alike but for their brightness, take the knocks for claps too)
		require.True(t, p.ClapsTeach)
		require.Equal(t, 1.0, o.ClapsRight(), "%+v", o)
	}
	var out bytes.Buffer
	require.NoError(t, res.Print(&out))
	require.Contains(t, out.String(), "teaches (the network misnamed 2 of the claps")
	require.Contains(t, out.String(), "2 claps + 2 knocks     1.000 [1.000-1.000]")
	b, err := json.Marshal(res)
	require.NoError(t, err)
	require.Contains(t, string(b), `"claps_only"`)

	_, err = Calibrate(CalibrateOptions{Dir: dir, Source: "nope"})
	require.ErrorContains(t, err, `no source "nope" with clap and knock recordings`)
}
