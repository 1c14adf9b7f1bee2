package journal

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type rec struct {
	Seq  int    `json:"seq"`
	Move string `json:"move"`
}

func records(t *testing.T, raw []json.RawMessage) []rec {
	t.Helper()
	out := make([]rec, len(raw))
	for i, r := range raw {
		require.NoError(t, json.Unmarshal(r, &out[i]))
	}
	return out
}

func write(t *testing.T, path string, n int) {
	t.Helper()
	j, got, _, err := Open(path)
	require.NoError(t, err)
	for i := len(got); i < len(got)+n; i++ {
		require.NoError(t, j.Append(rec{i + 1, fmt.Sprintf("0 play card-%d", i+1)}))
	}
	require.NoError(t, j.Close())
}

func TestRecordsComeBackInOrderAfterReopening(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ABCD.journal")
	write(t, path, 3)
	write(t, path, 2)
	j, raw, repaired, err := Open(path)
	require.NoError(t, err)
	defer j.Close()
	assert.False(t, repaired)
	got := records(t, raw)
	require.Len(t, got, 5)
	for i, r := range got {
		assert.Equal(t, i+1, r.Seq)
	}
	assert.Equal(t, 5, j.Len())
}

func TestEveryAppendIsFlushedToDiskBeforeItReturns(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.journal")
	j, _, _, err := Open(path)
	require.NoError(t, err)
	defer j.Close()
	syncs := 0
	j.sync = func() error {
		syncs++
		// At the moment of the flush the record is already written.
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		assert.Equal(t, syncs, bytes.Count(b, []byte("\n")))
		return nil
	}
	for i := 0; i < 4; i++ {
		require.NoError(t, j.Append(rec{Seq: i}))
	}
	assert.Equal(t, 4, syncs)
}

func TestAFailedFlushIsAnError(t *testing.T) {
	j, _, _, err := Open(filepath.Join(t.TempDir(), "x.journal"))
	require.NoError(t, err)
	defer j.Close()
	j.sync = func() error { return fmt.Errorf("disk on fire") }
	err = j.Append(rec{Seq: 1})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "flushing to disk")
}

func TestARecordWhoseFlushFailedIsTakenBack(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.journal")
	j, _, _, err := Open(path)
	require.NoError(t, err)
	require.NoError(t, j.Append(rec{Seq: 1}))
	j.SetSync(func() error { return fmt.Errorf("disk on fire") })
	require.Error(t, j.Append(rec{Seq: 2}), "refused")
	j.SetSync(nil) // the disk's own again
	require.NoError(t, j.Append(rec{Seq: 3}))
	require.NoError(t, j.Close())
	_, recs, repaired, err := Open(path)
	require.NoError(t, err)
	assert.False(t, repaired)
	require.Len(t, recs, 2, "the refused record is not in the journal")
	assert.Contains(t, string(recs[0]), `"seq":1`)
	assert.Contains(t, string(recs[1]), `"seq":3`)
}

func TestATornLastRecordIsCutAndTheJournalResumes(t *testing.T) {
	for _, cut := range []string{"half the line", "all but the newline", "one byte"} {
		t.Run(cut, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "x.journal")
			write(t, path, 4)
			b, err := os.ReadFile(path)
			require.NoError(t, err)
			last := bytes.LastIndexByte(b[:len(b)-1], '\n') + 1
			var keep int
			switch cut {
			case "half the line":
				keep = last + (len(b)-last)/2
			case "all but the newline":
				keep = len(b) - 1
			default:
				keep = last + 1
			}
			require.NoError(t, os.WriteFile(path, b[:keep], 0o600))

			j, raw, repaired, err := Open(path)
			require.NoError(t, err)
			assert.True(t, repaired)
			assert.Len(t, records(t, raw), 3)
			// The journal goes on from the last whole record.
			require.NoError(t, j.Append(rec{Seq: 4, Move: "again"}))
			require.NoError(t, j.Close())
			_, raw, repaired, err = Open(path)
			require.NoError(t, err)
			assert.False(t, repaired)
			got := records(t, raw)
			require.Len(t, got, 4)
			assert.Equal(t, "again", got[3].Move)
		})
	}
}

func TestALastLineWithABadChecksumCountsAsTorn(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.journal")
	write(t, path, 2)
	b, _ := os.ReadFile(path)
	b[len(b)-3] ^= 0x20 // a flipped bit inside the last record's JSON
	require.NoError(t, os.WriteFile(path, b, 0o600))
	_, raw, repaired, err := Open(path)
	require.NoError(t, err)
	assert.True(t, repaired)
	assert.Len(t, raw, 1)
}

func TestDamageBeforeTheEndIsAnErrorAndTheFileIsLeftAlone(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.journal")
	write(t, path, 3)
	b, _ := os.ReadFile(path)
	damaged := bytes.Replace(b, []byte(`"seq":1`), []byte(`"seq":7`), 1)
	require.NoError(t, os.WriteFile(path, damaged, 0o600))
	_, _, _, err := Open(path)
	require.ErrorIs(t, err, ErrCorrupt)
	assert.Contains(t, err.Error(), "line 1")
	var d *DamageError
	require.ErrorAs(t, err, &d)
	assert.Equal(t, DamageError{Path: path, Line: 1, Why: "bad checksum"}, *d)
	after, _ := os.ReadFile(path)
	assert.Equal(t, damaged, after, "nothing saved is lost")
}

func TestConcurrentAppendsStayWholeLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.journal")
	j, _, _, err := Open(path)
	require.NoError(t, err)
	j.sync = func() error { return nil }
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				assert.NoError(t, j.Append(rec{Seq: g*1000 + i, Move: "a fairly long move text to make interleaving likely"}))
			}
		}(g)
	}
	wg.Wait()
	require.NoError(t, j.Close())
	_, raw, repaired, err := Open(path)
	require.NoError(t, err)
	assert.False(t, repaired)
	assert.Len(t, raw, 400)
}

func TestAClosedJournalRefusesAppends(t *testing.T) {
	j, _, _, err := Open(filepath.Join(t.TempDir(), "x.journal"))
	require.NoError(t, err)
	require.NoError(t, j.Close())
	assert.Error(t, j.Append(rec{}))
	assert.NoError(t, j.Close())
}

func TestADirectoryListsOpensAndRetiresJournals(t *testing.T) {
	d := Dir(filepath.Join(t.TempDir(), "rooms"))
	names, err := d.Names()
	require.NoError(t, err)
	assert.Empty(t, names, "a directory not made yet holds nothing")
	for _, n := range []string{"QXBT", "ABCD"} {
		j, _, _, err := d.Open(n)
		require.NoError(t, err)
		require.NoError(t, j.Append(rec{Seq: 1}))
		require.NoError(t, j.Close())
	}
	names, err = d.Names()
	require.NoError(t, err)
	assert.Equal(t, []string{"ABCD", "QXBT"}, names)
	require.NoError(t, d.Retire("ABCD"))
	names, _ = d.Names()
	assert.Equal(t, []string{"QXBT"}, names)
	_, err = os.Stat(filepath.Join(string(d), "done", "ABCD.journal"))
	assert.NoError(t, err, "a retired journal is kept")
	for _, bad := range []string{"", "../x", "a.b"} {
		_, _, _, err := d.Open(bad)
		assert.Error(t, err, bad)
	}
}

func TestAnOversizedRecordIsRefused(t *testing.T) {
	j, _, _, err := Open(filepath.Join(t.TempDir(), "x.journal"))
	require.NoError(t, err)
	defer j.Close()
	err = j.Append(rec{Move: string(make([]byte, MaxRecord))})
	require.Error(t, err)
	assert.Equal(t, 0, j.Len())
}

// FuzzScan feeds the reader any bytes: it must not panic, and whatever it
// keeps must be whole, valid records ending at a line boundary.
func FuzzScan(f *testing.F) {
	var buf bytes.Buffer
	for i := 0; i < 3; i++ {
		body, _ := json.Marshal(rec{Seq: i, Move: "0 guess spider 4"})
		fmt.Fprintf(&buf, "%08x %s\n", crc32IEEE(body), body)
	}
	f.Add(buf.Bytes())
	f.Add([]byte("00000000 {}\n"))
	f.Add([]byte("garbage\nmore"))
	f.Add([]byte("00000000 {}\ngarbage\n00000000 {}\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		recs, good, err := scan(bytes.NewReader(b))
		var d *DamageError
		if errors.As(err, &d) {
			// The damage is at a line's start, after whole records that
			// read again alone, with no damage.
			if d.Offset > int64(len(b)) || (d.Offset > 0 && b[d.Offset-1] != '\n') || d.Line < 1 {
				t.Fatalf("damage at line %d, offset %d of %d: not a line's start", d.Line, d.Offset, len(b))
			}
			before, at, err := scan(bytes.NewReader(b[:d.Offset]))
			if err != nil || len(before) != d.Records || at != d.Offset {
				t.Fatalf("the %d records before the damage read again as %d up to %d (%v)", d.Records, len(before), at, err)
			}
			return
		}
		if err != nil {
			return
		}
		if good > int64(len(b)) || (good > 0 && b[good-1] != '\n') {
			t.Fatalf("kept %d bytes of %d, not at a line end", good, len(b))
		}
		for _, r := range recs {
			if !json.Valid(r) {
				t.Fatalf("kept invalid JSON %q", r)
			}
		}
	})
}

// recordDirSyncs replaces the directory flush for one test and returns the
// directories flushed, in order.
func recordDirSyncs(t *testing.T, fail error) *[]string {
	t.Helper()
	var mu sync.Mutex
	var synced []string
	old := syncDir
	syncDir = func(dir string) error {
		mu.Lock()
		synced = append(synced, filepath.Clean(dir))
		mu.Unlock()
		if fail != nil {
			return fail
		}
		return old(dir)
	}
	t.Cleanup(func() { syncDir = old })
	return &synced
}

func TestANewJournalsNameIsFlushedToDisk(t *testing.T) {
	root := t.TempDir()
	d := Dir(filepath.Join(root, "state", "rooms"))
	synced := recordDirSyncs(t, nil)
	j, _, _, err := d.Open("QXBT")
	require.NoError(t, err)
	require.NoError(t, j.Close())
	assert.Equal(t, []string{root, filepath.Join(root, "state"), string(d)}, *synced,
		"each directory made is flushed in its parent, and the new file in its directory")

	*synced = nil
	j, _, _, err = d.Open("QXBT")
	require.NoError(t, err)
	require.NoError(t, j.Close())
	assert.Empty(t, *synced, "reopening an existing journal creates no name")
}

func TestARetiredJournalsMoveIsFlushedToDisk(t *testing.T) {
	d := Dir(filepath.Join(t.TempDir(), "rooms"))
	j, _, _, err := d.Open("ABCD")
	require.NoError(t, err)
	require.NoError(t, j.Close())
	synced := recordDirSyncs(t, nil)
	require.NoError(t, d.Retire("ABCD"))
	done := filepath.Join(string(d), "done")
	assert.Equal(t, []string{string(d), done, string(d)}, *synced,
		"the new done folder in its parent, then both ends of the rename")
}

func TestAJournalWhoseNameCannotBeFlushedIsNotOpened(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.journal")
	recordDirSyncs(t, fmt.Errorf("disk on fire"))
	_, _, _, err := Open(path)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "disk on fire")
}

func TestADirectorySaysWhenEachJournalWasLastWritten(t *testing.T) {
	d := Dir(t.TempDir())
	assert.True(t, d.Modified("NONE").IsZero())
	j, _, _, err := d.Open("ABCD")
	require.NoError(t, err)
	require.NoError(t, j.Append(rec{Seq: 1}))
	require.NoError(t, j.Close())
	old := time.Now().Add(-time.Hour)
	require.NoError(t, os.Chtimes(filepath.Join(string(d), "ABCD.journal"), old, old))
	assert.WithinDuration(t, old, d.Modified("ABCD"), time.Second)
}
