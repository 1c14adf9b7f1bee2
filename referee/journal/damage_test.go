package journal

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// damageLine rewrites line n (from 1) of the journal at path with bad and
// returns the file as it was before.
func damageLine(t *testing.T, path string, n int, bad func(line []byte) []byte) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	lines := bytes.SplitAfter(b, []byte("\n"))
	lines[n-1] = bad(bytes.Clone(lines[n-1]))
	require.NoError(t, os.WriteFile(path, bytes.Join(lines, nil), 0o600))
	return b
}

func TestRetiringANameAlreadyDoneKeepsBoth(t *testing.T) {
	d := Dir(t.TempDir())
	for i := 1; i <= 3; i++ { // the same code, three rooms one after the other
		j, _, _, err := d.Open("ABCD")
		require.NoError(t, err)
		require.NoError(t, j.Append(rec{Seq: i, Move: "room"}))
		require.NoError(t, j.Close())
		require.NoError(t, d.Retire("ABCD"))
	}
	done := filepath.Join(string(d), "done")
	for i, name := range []string{"ABCD.journal", "ABCD-2.journal", "ABCD-3.journal"} {
		_, raw, _, err := Open(filepath.Join(done, name))
		require.NoError(t, err, name)
		got := records(t, raw)
		require.Len(t, got, 1, name)
		assert.Equal(t, i+1, got[0].Seq, "%s holds the room retired %d", name, i+1)
	}
	ents, err := os.ReadDir(done)
	require.NoError(t, err)
	assert.Len(t, ents, 3)
	names, err := d.Names()
	require.NoError(t, err)
	assert.Empty(t, names, "nothing left to resume")
}

func TestSalvageKeepsTheDamagedJournalAndResumesBeforeTheLine(t *testing.T) {
	at := time.Date(2026, 11, 27, 18, 5, 9, 0, time.UTC)
	cases := []struct {
		name, why string
		bad       func([]byte) []byte
	}{
		{"a flipped bit", "bad checksum", func(l []byte) []byte { l[15] ^= 0x04; return l }},
		{"bad JSON under a good checksum", "bad JSON", func([]byte) []byte {
			body := []byte(`{"seq":3,`)
			return fmt.Appendf(nil, "%08x %s\n", crc32IEEE(body), body)
		}},
		{"garbage", "not a journal line", func([]byte) []byte { return []byte("\x00\x00\x00 zeroes from a lost block\n") }},
		{"an empty line", "not a journal line", func([]byte) []byte { return []byte("\n") }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "ABCD.journal")
			write(t, path, 6)
			damageLine(t, path, 3, c.bad)
			damaged, err := os.ReadFile(path)
			require.NoError(t, err)

			_, _, _, err = Open(path)
			require.ErrorIs(t, err, ErrCorrupt, "Open alone still refuses it")

			kept, dmg, err := Salvage(path, at)
			require.NoError(t, err)
			require.NotNil(t, dmg)
			assert.Equal(t, 3, dmg.Line)
			assert.Equal(t, c.why, dmg.Why)
			assert.Equal(t, 2, dmg.Records)
			assert.Equal(t, path+".damaged-20261127T180509Z", kept)
			b, err := os.ReadFile(kept)
			require.NoError(t, err)
			assert.Equal(t, damaged, b, "the damaged journal is kept whole")

			j, raw, repaired, err := Open(path)
			require.NoError(t, err)
			assert.False(t, repaired)
			got := records(t, raw)
			require.Len(t, got, 2, "the records before the damaged line")
			assert.Equal(t, []int{1, 2}, []int{got[0].Seq, got[1].Seq})
			require.NoError(t, j.Append(rec{Seq: 3, Move: "after the repair"}))
			require.NoError(t, j.Close())

			_, raw, repaired, err = Open(path)
			require.NoError(t, err)
			assert.False(t, repaired)
			got = records(t, raw)
			require.Len(t, got, 3, "a new record follows the kept ones")
			assert.Equal(t, "after the repair", got[2].Move)
			names, err := Dir(filepath.Dir(path)).Names()
			require.NoError(t, err)
			assert.Equal(t, []string{"ABCD"}, names, "the kept copy is not a journal to resume")
		})
	}
}

func TestSalvageNeverOverwritesAnEarlierCopy(t *testing.T) {
	at := time.Date(2026, 11, 27, 18, 5, 9, 0, time.UTC)
	path := filepath.Join(t.TempDir(), "ABCD.journal")
	write(t, path, 5)
	damageLine(t, path, 4, func(l []byte) []byte { l[12] ^= 0x01; return l })
	firstDamaged, _ := os.ReadFile(path)
	kept1, _, err := Salvage(path, at)
	require.NoError(t, err)
	write(t, path, 3) // 6 records
	damageLine(t, path, 2, func(l []byte) []byte { l[12] ^= 0x01; return l })
	secondDamaged, _ := os.ReadFile(path)
	kept2, dmg, err := Salvage(path, at) // the same second
	require.NoError(t, err)
	assert.Equal(t, 2, dmg.Line)
	assert.Equal(t, kept1+"-2", kept2)
	b1, _ := os.ReadFile(kept1)
	b2, _ := os.ReadFile(kept2)
	assert.Equal(t, firstDamaged, b1)
	assert.Equal(t, secondDamaged, b2)
}

func TestSalvageLeavesAWholeOrTornJournalAlone(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ABCD.journal")
	write(t, path, 3)
	b, _ := os.ReadFile(path)
	require.NoError(t, os.WriteFile(path, b[:len(b)-4], 0o600)) // torn
	kept, dmg, err := Salvage(path, time.Now())
	require.NoError(t, err)
	assert.Empty(t, kept)
	assert.Nil(t, dmg)
	after, _ := os.ReadFile(path)
	assert.Equal(t, b[:len(b)-4], after)
	ents, _ := os.ReadDir(filepath.Dir(path))
	assert.Len(t, ents, 1, "no copy")
}

func TestReadReportsAJournalsStateWithoutChangingIt(t *testing.T) {
	dir := t.TempDir()
	whole := filepath.Join(dir, "WHOL.journal")
	write(t, whole, 4)
	rep, err := Read(whole)
	require.NoError(t, err)
	assert.Len(t, rep.Records, 4)
	assert.Equal(t, 4, rep.Lines)
	assert.False(t, rep.Torn)
	assert.Nil(t, rep.Damage)

	torn := filepath.Join(dir, "TORN.journal")
	write(t, torn, 4)
	b, _ := os.ReadFile(torn)
	require.NoError(t, os.WriteFile(torn, b[:len(b)-5], 0o600))
	rep, err = Read(torn)
	require.NoError(t, err)
	assert.Len(t, rep.Records, 3)
	assert.Equal(t, 4, rep.Lines)
	assert.True(t, rep.Torn)
	assert.Nil(t, rep.Damage)
	after, _ := os.ReadFile(torn)
	assert.Equal(t, b[:len(b)-5], after, "Read cuts nothing off")

	bad := filepath.Join(dir, "DAMG.journal")
	write(t, bad, 5)
	damageLine(t, bad, 2, func(l []byte) []byte { l[0] = 'x'; return l })
	before, _ := os.ReadFile(bad)
	rep, err = Read(bad)
	require.NoError(t, err)
	assert.Len(t, rep.Records, 1, "the records before the damage")
	require.NotNil(t, rep.Damage)
	assert.Equal(t, 2, rep.Damage.Line)
	assert.Equal(t, "not a journal line", rep.Damage.Why)
	assert.Contains(t, rep.Damage.Error(), bad+": journal damaged at line 2")
	after, _ = os.ReadFile(bad)
	assert.Equal(t, before, after)

	_, err = Read(filepath.Join(dir, "NONE.journal"))
	assert.ErrorIs(t, err, os.ErrNotExist)
	_, err = Read(dir)
	assert.Error(t, err, "a directory is no journal")
}

// SalvageBefore keeps a journal of whole lines whole beside it and cuts it
// before the record its reader found out of place; a record it does not
// hold is an error, and nothing is changed.
func TestSalvageBeforeCutsAtTheRecordOutOfPlace(t *testing.T) {
	at := time.Date(2026, 11, 27, 18, 5, 9, 0, time.UTC)
	path := filepath.Join(t.TempDir(), "ABCD.journal")
	write(t, path, 5)
	whole, err := os.ReadFile(path)
	require.NoError(t, err)

	_, _, err = SalvageBefore(path, at, 5, "move 6 follows move 4")
	require.Error(t, err, "there is no sixth record")
	after, _ := os.ReadFile(path)
	assert.Equal(t, whole, after)

	kept, dmg, err := SalvageBefore(path, at, 3, "move 5 follows move 3")
	require.NoError(t, err)
	assert.Equal(t, DamageError{Path: path, Line: 4, Why: "move 5 follows move 3", Offset: int64(len(bytes.Join(bytes.SplitAfter(whole, []byte("\n"))[:3], nil))), Records: 3}, *dmg)
	b, _ := os.ReadFile(kept)
	assert.Equal(t, whole, b, "kept whole")
	j, raw, repaired, err := Open(path)
	require.NoError(t, err)
	defer j.Close()
	assert.False(t, repaired)
	assert.Len(t, raw, 3, "the records before it")
}
