// Package journal keeps an append-only log of records on disk, one per
// line, each flushed to the disk (fsync) before Append returns, so that a
// record Append acknowledged survives a crash or a power cut.
//
// A line is the record's CRC-32 (8 hex digits), a space and its JSON. When a
// journal is opened, a last line that is incomplete or fails its checksum
// (a torn write: the process died in the middle of writing it) is cut off,
// and the journal resumes from the last whole record. Damage anywhere else
// is an error (a *DamageError): Open never rewrites it silently. Salvage
// keeps such a journal whole beside it (NAME.journal.damaged-TIME) and cuts
// the journal itself at the damaged line, so that it resumes from the
// records before it; SalvageBefore does so for a record its reader found
// out of place (its lines whole); Read reports a journal's state without
// changing it.
//
// A retired journal goes to the directory's done/ folder and never takes
// the place of one there: a name retired again (room codes are reused) is
// kept as NAME-2.journal, NAME-3.journal and so on.
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

// ErrCorrupt reports damage before the journal's last record: every such
// error is a *DamageError, which says where.
var ErrCorrupt = errors.New("journal damaged")

// DamageError is a journal damaged before its last line: a line that is not
// a record (a bad checksum, bad JSON, not a journal line at all) with more
// after it. It is ErrCorrupt (errors.Is).
type DamageError struct {
	Path   string // the journal ("" when read from a stream)
	Line   int    // the damaged line, from 1
	Why    string // what is wrong with it
	Offset int64  // where the line starts: the records before it end here
	// Records is how many whole records come before it.
	Records int
}

func (e *DamageError) Error() string {
	msg := fmt.Sprintf("%v at line %d (%s; the %d records before it are whole)", ErrCorrupt, e.Line, e.Why, e.Records)
	if e.Path != "" {
		msg = e.Path + ": " + msg
	}
	return msg
}

func (e *DamageError) Unwrap() error { return ErrCorrupt }

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
		var d *DamageError
		if errors.As(err, &d) {
			d.Path = path
			return nil, nil, false, d
		}
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
// last good one. A bad line with more after it is a *DamageError.
func scan(r io.Reader) ([]json.RawMessage, int64, error) {
	recs, good, _, err := scanAll(r)
	return recs, good, err
}

// scanAll is scan that also counts the lines (a torn tail without its
// newline counts as one).
func scanAll(r io.Reader) (out []json.RawMessage, good int64, lines int, err error) {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		b, err := br.ReadBytes('\n')
		if err == io.EOF {
			// No newline: a torn tail (or nothing).
			if len(b) > 0 {
				lines++
			}
			return out, good, lines, nil
		}
		if err != nil {
			return nil, 0, lines, err
		}
		lines++
		rec, why := parse(b)
		if why != "" {
			// Only the last line may be torn.
			if _, err := br.Peek(1); err == io.EOF {
				return out, good, lines, nil
			}
			return nil, 0, lines, &DamageError{Line: lines, Why: why, Offset: good, Records: len(out)}
		}
		out = append(out, rec)
		good += int64(len(b))
	}
}

// parse reads one line: its record, or why it is not one.
func parse(b []byte) (json.RawMessage, string) {
	b = bytes.TrimSuffix(b, []byte("\n"))
	if len(b) < 10 || b[8] != ' ' {
		return nil, "not a journal line"
	}
	want, err := strconv.ParseUint(string(b[:8]), 16, 32)
	if err != nil {
		return nil, "not a journal line"
	}
	body := b[9:]
	if crc32.ChecksumIEEE(body) != uint32(want) {
		return nil, "bad checksum"
	}
	if !json.Valid(body) {
		return nil, "bad JSON"
	}
	return json.RawMessage(bytes.Clone(body)), ""
}

// Report is a journal's state, as Read finds it.
type Report struct {
	Path string
	// Records are the whole records: all of them, or those before the
	// damage.
	Records []json.RawMessage
	Lines   int  // lines in the file (a torn last one included)
	Torn    bool // the last line is incomplete or bad: Open cuts it off
	// Damage is where the journal is damaged before its last line (nil:
	// it is not). Open refuses such a journal; Salvage repairs it.
	Damage *DamageError
}

// Read reads the journal at path without changing it: a damaged journal
// is no error but a Report with its Damage.
func Read(path string) (*Report, error) {
	if st, err := os.Stat(path); err != nil {
		return nil, err
	} else if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a file", path) // nor opened: a pipe would wait
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	recs, good, lines, err := scanAll(f)
	rep := &Report{Path: path, Records: recs, Lines: lines}
	var d *DamageError
	switch {
	case errors.As(err, &d):
		d.Path = path
		rep.Damage = d
		// The records before the damage, again (scan returns none with
		// an error).
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, err
		}
		rep.Records, _, _, err = scanAll(io.LimitReader(f, d.Offset))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	case err != nil:
		return nil, fmt.Errorf("%s: %w", path, err)
	default:
		rep.Torn = good < st.Size()
	}
	return rep, nil
}

// Salvage repairs a journal damaged before its last line: the file, whole,
// is first copied beside it as PATH.damaged-TIME (at, in UTC; -2, -3... when
// that name is taken) and flushed to the disk, then the journal is cut just
// before the damaged line, so that it resumes from the records before it
// and what is appended next follows them. It returns the copy's path and
// the damage it repaired; a journal with no damage is left alone ("",
// nil, nil). A crash between the two steps leaves the copy and the journal
// still damaged: Salvage again makes another copy, and nothing is lost.
func Salvage(path string, at time.Time) (kept string, damage *DamageError, err error) {
	rep, err := Read(path)
	if err != nil {
		return "", nil, err
	}
	if rep.Damage == nil {
		return "", nil, nil
	}
	return keepAndCut(path, at, rep.Damage)
}

// SalvageBefore is Salvage for a journal whose lines are whole but whose
// reader found record number records+1 out of its place (a line deleted,
// repeated or swapped: why says how): the file is kept whole beside it and
// cut just before that record, which it returns as the damage.
func SalvageBefore(path string, at time.Time, records int, why string) (kept string, damage *DamageError, err error) {
	rep, err := Read(path)
	if err != nil {
		return "", nil, err
	}
	if rep.Damage != nil {
		return Salvage(path, at)
	}
	if records < 0 || records >= len(rep.Records) {
		return "", nil, fmt.Errorf("%s: no record %d to cut before (it has %d)", path, records+1, len(rep.Records))
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", nil, err
	}
	var off int64
	for range records { // each record is one line
		off += int64(bytes.IndexByte(b[off:], '\n') + 1)
	}
	return keepAndCut(path, at, &DamageError{Path: path, Line: records + 1, Why: why, Offset: off, Records: records})
}

// keepAndCut copies the journal at path whole beside it and then cuts it
// at d's offset.
func keepAndCut(path string, at time.Time, d *DamageError) (kept string, damage *DamageError, err error) {
	src, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return "", nil, err
	}
	defer src.Close()
	stamp := path + ".damaged-" + at.UTC().Format("20060102T150405Z")
	var dst *os.File
	for i := 1; ; i++ {
		kept = stamp
		if i > 1 {
			kept = fmt.Sprintf("%s-%d", stamp, i)
		}
		dst, err = os.OpenFile(kept, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			break
		}
		if !errors.Is(err, os.ErrExist) || i >= 1000 {
			return "", nil, fmt.Errorf("%s: keeping the damaged journal: %w", path, err)
		}
	}
	_, err = io.Copy(dst, src)
	if err == nil {
		err = dst.Sync()
	}
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = syncDir(filepath.Dir(kept))
	}
	if err != nil {
		os.Remove(kept)
		return "", nil, fmt.Errorf("%s: keeping the damaged journal: %w", path, err)
	}
	if err := src.Truncate(d.Offset); err != nil {
		return kept, nil, fmt.Errorf("%s: cutting it at the damaged line: %w", path, err)
	}
	if err := src.Sync(); err != nil {
		return kept, nil, fmt.Errorf("%s: cutting it at the damaged line: %w", path, err)
	}
	return kept, d, nil
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

// Read reports the named journal's state without changing it (Read).
func (d Dir) Read(name string) (*Report, error) {
	return Read(filepath.Join(string(d), name+ext))
}

// Salvage repairs the named journal, damaged before its last line
// (Salvage).
func (d Dir) Salvage(name string, at time.Time) (kept string, damage *DamageError, err error) {
	return Salvage(filepath.Join(string(d), name+ext), at)
}

// SalvageBefore repairs the named journal, whose record number records+1
// is out of its place (SalvageBefore).
func (d Dir) SalvageBefore(name string, at time.Time, records int, why string) (kept string, damage *DamageError, err error) {
	return SalvageBefore(filepath.Join(string(d), name+ext), at, records, why)
}

// retireMu makes the look for a free name in done/ and the rename into it
// one step within this process (the only writer of its directory).
var retireMu sync.Mutex

// Retire moves a finished journal into the directory's "done" folder, so
// that it is kept but not resumed. It never replaces a journal there: when
// done/NAME.journal exists (the code was used before) the journal becomes
// done/NAME-2.journal, or -3 and so on. The move is flushed to the disk
// (both directories are synced) before Retire returns, so that after a
// power cut the journal is in one place or the other, never resumed once
// retired.
func (d Dir) Retire(name string) error {
	done := filepath.Join(string(d), "done")
	if err := mkdirSynced(done); err != nil {
		return err
	}
	retireMu.Lock()
	defer retireMu.Unlock()
	to, err := freeName(done, name)
	if err != nil {
		return err
	}
	if err := os.Rename(filepath.Join(string(d), name+ext), to); err != nil {
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

// freeName is the first of dir/NAME.journal, dir/NAME-2.journal, ... that
// does not exist.
func freeName(dir, name string) (string, error) {
	for i := 1; i <= 100000; i++ {
		p := filepath.Join(dir, name+ext)
		if i > 1 {
			p = filepath.Join(dir, fmt.Sprintf("%s-%d%s", name, i, ext))
		}
		if _, err := os.Lstat(p); errors.Is(err, os.ErrNotExist) {
			return p, nil
		} else if err != nil {
			return "", err
		}
	}
	return "", fmt.Errorf("retiring %s: no free name in %s", name, dir)
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
