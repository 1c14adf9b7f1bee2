// Package journal keeps an append-only log of records on disk, one per
// line, each flushed to the disk (fsync) before Append returns, so that a
// record Append acknowledged survives a crash or a power cut.
//
// A line is the record's CRC-32 (8 hex digits), a space and its JSON. When a
// journal is opened, a last line that is incomplete or fails its checksum
// (a torn write: the process died in the middle of writing it) is cut off,
// and the journal resumes from the last whole record. Damage anywhere else
// is an error: the journal is not silently rewritten.
package journal

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// MaxRecord bounds one record's size.
const MaxRecord = 1 << 20

// ErrCorrupt reports damage before the journal's last record.
var ErrCorrupt = errors.New("journal damaged")

// Journal is one open log. It is safe for concurrent use.
type Journal struct {
	mu   sync.Mutex
	f    *os.File
	path string
	n    int
	// Sync is called after every write; nil means f.Sync. Tests replace it.
	sync func() error
}

// Open opens (creating if needed) the journal at path and returns it with
// its records. A torn last record is removed; repaired reports whether one
// was. A journal it creates has its name flushed to the disk too (the
// directory is synced), so that the file itself survives a power cut.
func Open(path string) (j *Journal, records []json.RawMessage, repaired bool, err error) {
	_, statErr := os.Lstat(path)
	created := errors.Is(statErr, os.ErrNotExist)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, nil, false, err
	}
	if created {
		if err := syncDir(filepath.Dir(path)); err != nil {
			f.Close()
			return nil, nil, false, fmt.Errorf("%s: flushing the new journal's name to disk: %w", path, err)
		}
	}
	records, good, err := scan(f)
	if err != nil {
		f.Close()
		return nil, nil, false, fmt.Errorf("%s: %w", path, err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, false, err
	}
	if good < st.Size() {
		repaired = true
		if err := f.Truncate(good); err != nil {
			f.Close()
			return nil, nil, false, fmt.Errorf("%s: cutting off a torn record: %w", path, err)
		}
		if err := f.Sync(); err != nil {
			f.Close()
			return nil, nil, false, err
		}
	}
	if _, err := f.Seek(good, io.SeekStart); err != nil {
		f.Close()
		return nil, nil, false, err
	}
	j = &Journal{f: f, path: path, n: len(records)}
	j.sync = f.Sync
	return j, records, repaired, nil
}

// scan reads whole records and returns them with the offset just after the
// last good one.
func scan(r io.Reader) ([]json.RawMessage, int64, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var out []json.RawMessage
	var good int64
	line := 0
	for {
		b, err := br.ReadBytes('\n')
		if err == io.EOF {
			// No newline: a torn tail (or nothing).
			return out, good, nil
		}
		if err != nil {
			return nil, 0, err
		}
		line++
		rec, ok := parse(b)
		if !ok {
			// Only the last line may be torn.
			if _, err := br.Peek(1); err == io.EOF {
				return out, good, nil
			}
			return nil, 0, fmt.Errorf("%w at record %d (a bad line before the end)", ErrCorrupt, line)
		}
		out = append(out, rec)
		good += int64(len(b))
	}
}

func parse(b []byte) (json.RawMessage, bool) {
	b = bytes.TrimSuffix(b, []byte("\n"))
	if len(b) < 10 || b[8] != ' ' {
		return nil, false
	}
	want, err := strconv.ParseUint(string(b[:8]), 16, 32)
	if err != nil {
		return nil, false
	}
	body := b[9:]
	if crc32.ChecksumIEEE(body) != uint32(want) || !json.Valid(body) {
		return nil, false
	}
	return json.RawMessage(bytes.Clone(body)), true
}

// Append writes v (as JSON) and flushes it to the disk.
func (j *Journal) Append(v any) error {
	body, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	if len(body) > MaxRecord {
		return fmt.Errorf("journal: a record of %d bytes is over the limit of %d", len(body), MaxRecord)
	}
	line := make([]byte, 0, len(body)+10)
	line = fmt.Appendf(line, "%08x ", crc32IEEE(body))
	line = append(line, body...)
	line = append(line, '\n')
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.f == nil {
		return fmt.Errorf("journal %s: closed", j.path)
	}
	off, err := j.f.Seek(0, io.SeekCurrent)
	if err != nil {
		return fmt.Errorf("journal %s: %w", j.path, err)
	}
	if _, err := j.f.Write(line); err != nil {
		j.takeBackLocked(off)
		return fmt.Errorf("journal %s: %w", j.path, err)
	}
	if err := j.sync(); err != nil {
		j.takeBackLocked(off)
		return fmt.Errorf("journal %s: flushing to disk: %w", j.path, err)
	}
	j.n++
	return nil
}

// takeBackLocked cuts off a record that was not (wholly) written or not
// flushed, so that a record Append refused never reappears when the
// journal is opened again. If even that fails the journal is closed:
// nothing more is written after a record of unknown fate.
func (j *Journal) takeBackLocked(off int64) {
	if j.f.Truncate(off) == nil {
		if _, err := j.f.Seek(off, io.SeekStart); err == nil {
			return
		}
	}
	j.f.Close()
	j.f = nil
}

// SetSync replaces the flush after every write (nil: the file's own
// fsync), for tests of a disk that fails.
func (j *Journal) SetSync(f func() error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if f == nil && j.f != nil {
		f = j.f.Sync
	}
	j.sync = f
}

// Len is the number of records.
func (j *Journal) Len() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.n
}

// Path is the journal's file.
func (j *Journal) Path() string { return j.path }

// Close closes the file; later Appends fail.
func (j *Journal) Close() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.f == nil {
		return nil
	}
	err := j.f.Close()
	j.f = nil
	return err
}

// Dir is a directory of journals, one per name (a room code), as
// NAME.journal files.
type Dir string

const ext = ".journal"

// Names lists the journals in the directory, sorted.
func (d Dir) Names() ([]string, error) {
	ents, err := os.ReadDir(string(d))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if n, ok := strings.CutSuffix(e.Name(), ext); ok && !e.IsDir() && n != "" {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out, nil
}

// Open opens the named journal, creating the directory if needed.
func (d Dir) Open(name string) (*Journal, []json.RawMessage, bool, error) {
	if name == "" || strings.ContainsAny(name, `/\.`) {
		return nil, nil, false, fmt.Errorf("journal name %q: use letters and digits", name)
	}
	if err := mkdirSynced(string(d)); err != nil {
		return nil, nil, false, err
	}
	return Open(filepath.Join(string(d), name+ext))
}

// Modified is when the named journal was last written (the zero time when
// there is none).
func (d Dir) Modified(name string) time.Time {
	st, err := os.Stat(filepath.Join(string(d), name+ext))
	if err != nil {
		return time.Time{}
	}
	return st.ModTime()
}

// Retire moves a finished journal into the directory's "done" folder, so
// that it is kept but not resumed. The move is flushed to the disk (both
// directories are synced) before Retire returns, so that after a power cut
// the journal is in one place or the other, never resumed once retired.
func (d Dir) Retire(name string) error {
	done := filepath.Join(string(d), "done")
	if err := mkdirSynced(done); err != nil {
		return err
	}
	if err := os.Rename(filepath.Join(string(d), name+ext), filepath.Join(done, name+ext)); err != nil {
		return err
	}
	if err := syncDir(done); err != nil {
		return fmt.Errorf("retiring %s: %w", name, err)
	}
	if err := syncDir(string(d)); err != nil {
		return fmt.Errorf("retiring %s: %w", name, err)
	}
	return nil
}

// mkdirSynced makes dir and any missing parents, syncing the parent of
// each directory it makes so that the new names reach the disk.
func mkdirSynced(dir string) error {
	dir = filepath.Clean(dir)
	if st, err := os.Stat(dir); err == nil {
		if !st.IsDir() {
			return fmt.Errorf("%s is not a directory", dir)
		}
		return nil
	}
	parent := filepath.Dir(dir)
	if parent != dir {
		if err := mkdirSynced(parent); err != nil {
			return err
		}
	}
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return err
	}
	return syncDir(parent)
}

// syncDir flushes a directory's entries to the disk: a file created in it,
// or renamed into or out of it, is only durable once its directory is.
// Tests replace it.
var syncDir = func(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

func crc32IEEE(b []byte) uint32 { return crc32.ChecksumIEEE(b) }
