package realcorpus

import (
	"fmt"
	"io"
	"math"
	"path"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/tableref/tableref/audio"
	"github.com/tableref/tableref/audio/gesture"
)

// What the microphone check's calibration gains on real recordings (issue
// 37 item 4). A source whose recordings are one person and one phone (a
// clap class and a knock class) stands for one table: the check is played
// by the first gestures heard in one clap recording and one knock
// recording (as a check hears them: in order, whatever the network named
// them), and the source's other clap and knock recordings are scored with
// the calibration it learned and without. Every recording of the source
// takes its turn as the check's, so the figures come with their spread.
//
// A clap recording and a knock recording are paired by their order in
// their folders (clap_small_3 with knock_small_3). Recordings whose names
// differ only in their first word and their number (clap_small_3,
// knock_small_7) are taken for one room, and the scores are also given
// over the same room's recordings and the other rooms'.

// DefaultTaught is how many gestures of each kind the check learns from:
// it asks for two claps and two bangs.
const DefaultTaught = 2

// CalibrateOptions says what to measure.
type CalibrateOptions struct {
	// Dir is the corpus folder, as Options.Dir.
	Dir string
	// Source is the source to measure on ("" for every source with clap
	// and knock classes).
	Source string
	// Taught is how many gestures of each kind the check learns from
	// (DefaultTaught when 0).
	Taught int
	// Workers is how many recordings are heard at once
	// (runtime.GOMAXPROCS(0) when 0). The results do not depend on it.
	Workers int
	// Progress, when not nil, is told after each recording heard how many
	// of how many are done, from one goroutine at a time.
	Progress func(done, total int)
}

// Counts are what was heard in clap and knock recordings, counted as Row
// counts it.
type Counts struct {
	ClapHits    int `json:"clap_hits"`    // the clap recordings' hits (their labels')
	Claps       int `json:"claps"`        // gestures heard as claps in them
	ClapsBanged int `json:"claps_banged"` // and as bangs
	ClapsFound  int `json:"claps_found"`  // heard as claps, no more than each recording's hits
	KnockHits   int `json:"knock_hits"`
	Knocks      int `json:"knocks"`         // gestures heard as bangs in the knock recordings
	KnocksClap  int `json:"knocks_clapped"` // and as claps
	KnocksFound int `json:"knocks_found"`
}

// ClapsRight is the share of the clap recordings' gestures heard as claps.
func (s Counts) ClapsRight() float64 { return ratio(s.Claps, s.Claps+s.ClapsBanged) }

// KnocksRight is the share of the knock recordings' gestures heard as bangs.
func (s Counts) KnocksRight() float64 { return ratio(s.Knocks, s.Knocks+s.KnocksClap) }

// ClapsFoundRate is the share of the clap recordings' hits heard as claps.
func (s Counts) ClapsFoundRate() float64 { return ratio(s.ClapsFound, s.ClapHits) }

// KnocksFoundRate is the share of the knock recordings' hits heard as bangs.
func (s Counts) KnocksFoundRate() float64 { return ratio(s.KnocksFound, s.KnockHits) }

func (s *Counts) add(kind Kind, r fileResult) {
	if kind == Claps {
		s.ClapHits += r.hits
		s.Claps += r.claps
		s.ClapsBanged += r.bangs
		s.ClapsFound += r.found
		return
	}
	s.KnockHits += r.hits
	s.Knocks += r.bangs
	s.KnocksClap += r.claps
	s.KnocksFound += r.found
}

// Scores are a pick's scores over some of the source's recordings: without
// a calibration, with the one learned from the claps and the knocks, and
// with the one learned from the claps alone.
type Scores struct {
	Files     int    `json:"files"`
	Without   Counts `json:"without"`
	Taught    Counts `json:"taught"`
	ClapsOnly Counts `json:"claps_only"`
}

// Pick is one play of the check and what it gained.
type Pick struct {
	Source    string `json:"source"`
	ClapFile  string `json:"clap_file"`  // CLASS/NAME of the recording the claps were taught from
	KnockFile string `json:"knock_file"` // and the knocks
	// Teaches and ClapsTeach say whether the calibration learned from
	// claps and knocks, and from the claps alone, changes anything (the
	// network misnamed some taught gesture); MisnamedClaps and
	// MisnamedKnocks are how many.
	Teaches        bool `json:"teaches"`
	ClapsTeach     bool `json:"claps_teach"`
	Consistent     bool `json:"consistent"` // the taught gestures agree among themselves
	MisnamedClaps  int  `json:"misnamed_claps"`
	MisnamedKnocks int  `json:"misnamed_knocks"`
	// All is over every other clap and knock recording of the source;
	// SameRoom over those of the room of the pick's clap recording, and
	// OtherRooms over the rest.
	All        Scores `json:"all"`
	SameRoom   Scores `json:"same_room"`
	OtherRooms Scores `json:"other_rooms"`
}

// Calibration is the measurement's result.
type Calibration struct {
	Taught int      `json:"taught"`
	Picks  []Pick   `json:"picks"`
	Errors []string `json:"errors"` // recordings that could not be read or heard, picks that could not be made
}

// calibFile is one clap or knock recording of a source, as heard without
// a calibration.
type calibFile struct {
	name  string // CLASS/NAME
	room  string
	kind  Kind
	path  string
	label Label
	wav   []byte
	base  fileResult
	heard *Heard
}

// roomOf is the room of a recording: its name without its number and its
// first word ("clap_small_3" is in "small", "clap_3" in "").
func roomOf(name string) string {
	n := strings.TrimSuffix(path.Base(name), path.Ext(name))
	if i := strings.LastIndexByte(n, '_'); i >= 0 && strings.Trim(n[i+1:], "0123456789") == "" {
		n = n[:i]
	}
	if i := strings.IndexByte(n, '_'); i >= 0 {
		return n[i+1:]
	}
	return ""
}

// Calibrate measures what the check's calibration gains (see above).
func Calibrate(opt CalibrateOptions) (*Calibration, error) {
	if opt.Taught <= 0 {
		opt.Taught = DefaultTaught
	}
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	sources, err := scan(opt.Dir)
	if err != nil {
		return nil, err
	}
	res := &Calibration{Taught: opt.Taught, Picks: []Pick{}, Errors: []string{}}
	type sourceFiles struct {
		name          string
		claps, knocks []*calibFile
	}
	var todo []sourceFiles
	for _, s := range sources {
		if opt.Source != "" && s.name != opt.Source {
			continue
		}
		sf := sourceFiles{name: s.name}
		for _, c := range s.classes {
			if c.single || c.kind == Noise {
				continue
			}
			for _, f := range c.files {
				name := c.name + "/" + strings.TrimSuffix(f.name, ".flac")
				cf := &calibFile{name: name, room: roomOf(f.name), kind: c.kind, path: f.path, label: s.labels[name]}
				if c.kind == Claps {
					sf.claps = append(sf.claps, cf)
				} else {
					sf.knocks = append(sf.knocks, cf)
				}
			}
		}
		if len(sf.claps) > 0 && len(sf.knocks) > 0 {
			todo = append(todo, sf)
		}
	}
	if len(todo) == 0 {
		if opt.Source != "" {
			return nil, fmt.Errorf("%s: no source %q with clap and knock recordings", opt.Dir, opt.Source)
		}
		return nil, fmt.Errorf("%s: no source with clap and knock recordings", opt.Dir)
	}

	// Every recording is heard once without a calibration (and kept, to
	// be heard again with each pick's).
	var all []*calibFile
	for _, sf := range todo {
		all = append(all, sf.claps...)
		all = append(all, sf.knocks...)
	}
	type pickJob struct {
		pick      *Pick
		taught    *gesture.Calibration
		clapsOnly *gesture.Calibration
		others    []*calibFile
		with      [][2]fileResult // per other file: taught, claps only
	}
	var done atomic.Int64
	var progMu sync.Mutex
	total := len(all)
	tick := func() {
		n := done.Add(1)
		if opt.Progress != nil {
			progMu.Lock()
			defer progMu.Unlock()
			opt.Progress(int(n), total)
		}
	}
	Parallel(workers, len(all), func(i int) {
		defer tick()
		f := all[i]
		p, err := ReadFLAC(f.path)
		if err != nil {
			f.base = tally(f.kind, f.label.Events, f.label.Duration, nil, err)
			return
		}
		f.wav = p.WAV()
		h, err := Listen(f.wav, true, nil)
		if err != nil {
			err = fmt.Errorf("%s: %w", f.path, err)
		}
		f.heard = h
		f.base = tally(f.kind, f.label.Events, f.label.Duration, h, err)
	})
	for _, f := range all {
		if f.base.err != nil {
			res.Errors = append(res.Errors, f.base.err.Error())
		}
	}

	// The picks: each clap recording with the knock recording of its rank.
	var jobs []*pickJob
	first := func(f *calibFile) ([]gesture.Features, gesture.Band, bool) {
		if f.heard == nil || len(f.heard.Gestures) < opt.Taught {
			return nil, 0, false
		}
		var fs []gesture.Features
		for _, g := range f.heard.Gestures[:opt.Taught] {
			fs = append(fs, g.Features)
		}
		return fs, f.heard.Gestures[0].Band, true
	}
	for _, sf := range todo {
		for i := range min(len(sf.claps), len(sf.knocks)) {
			cf, kf := sf.claps[i], sf.knocks[i]
			claps, band, okC := first(cf)
			bangs, _, okK := first(kf)
			if !okC || !okK {
				res.Errors = append(res.Errors, fmt.Sprintf("%s: %s and %s: fewer than %d gestures heard in one of them, no pick", sf.name, cf.name, kf.name, opt.Taught))
				continue
			}
			taught, err1 := gesture.Learn(band, claps, bangs)
			clapsOnly, err2 := gesture.Learn(band, claps, nil)
			if err := firstErr(err1, err2); err != nil {
				res.Errors = append(res.Errors, fmt.Sprintf("%s: %s and %s: %v", sf.name, cf.name, kf.name, err))
				continue
			}
			mc, mk := taught.Misnamed()
			pk := &Pick{Source: sf.name, ClapFile: cf.name, KnockFile: kf.name, Teaches: taught.Teaches(), ClapsTeach: clapsOnly.Teaches(),
				MisnamedClaps: mc, MisnamedKnocks: mk, Consistent: taught.Consistent()}
			j := &pickJob{pick: pk, taught: taught, clapsOnly: clapsOnly}
			for _, f := range append(append([]*calibFile{}, sf.claps...), sf.knocks...) {
				if f != cf && f != kf && f.wav != nil {
					j.others = append(j.others, f)
				}
			}
			j.with = make([][2]fileResult, len(j.others))
			jobs = append(jobs, j)
		}
	}

	// Each pick's calibrations hear the other recordings again; one that
	// changes nothing need not (Calibration.Name leaves every kind alone).
	type hearJob struct {
		j    *pickJob
		file int
		mode int // 0: taught, 1: claps only
	}
	var hears []hearJob
	for _, j := range jobs {
		for i, f := range j.others {
			for mode, c := range []*gesture.Calibration{j.taught, j.clapsOnly} {
				if c.Teaches() {
					hears = append(hears, hearJob{j, i, mode})
				} else {
					j.with[i][mode] = f.base
				}
			}
		}
	}
	total += len(hears)
	Parallel(workers, len(hears), func(k int) {
		defer tick()
		hj := hears[k]
		f := hj.j.others[hj.file]
		c := hj.j.taught
		if hj.mode == 1 {
			c = hj.j.clapsOnly
		}
		h, err := Listen(f.wav, true, func(cfg *audio.Config) { cfg.Calibration = c })
		if err != nil {
			err = fmt.Errorf("%s, calibrated: %w", f.path, err)
		}
		hj.j.with[hj.file][hj.mode] = tally(f.kind, f.label.Events, f.label.Duration, h, err)
	})
	for _, j := range jobs {
		room := roomOf(j.pick.ClapFile)
		for i, f := range j.others {
			near := &j.pick.OtherRooms
			if f.room == room {
				near = &j.pick.SameRoom
			}
			for _, sc := range []*Scores{&j.pick.All, near} {
				sc.Files++
				sc.Without.add(f.kind, f.base)
				sc.Taught.add(f.kind, j.with[i][0])
				sc.ClapsOnly.add(f.kind, j.with[i][1])
			}
			for _, r := range j.with[i] {
				if r.err != nil {
					res.Errors = append(res.Errors, r.err.Error())
				}
			}
		}
		res.Picks = append(res.Picks, *j.pick)
	}
	return res, nil
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// Spread is a figure over the picks: its mean, least and greatest.
type Spread struct {
	Mean, Min, Max float64
	N              int
}

func (s Spread) String() string {
	if s.N == 0 {
		return "        -          "
	}
	return fmt.Sprintf("%.3f [%.3f-%.3f]", s.Mean, s.Min, s.Max)
}

// spread is fig over the picks whose scores sel picks (those with no
// recordings left out).
func (c *Calibration) spread(sel func(*Pick) *Scores, fig func(Scores) float64) Spread {
	s := Spread{Min: math.Inf(1), Max: math.Inf(-1)}
	for i := range c.Picks {
		sc := sel(&c.Picks[i])
		if sc.Files == 0 {
			continue
		}
		v := fig(*sc)
		s.Mean += v
		s.Min, s.Max = math.Min(s.Min, v), math.Max(s.Max, v)
		s.N++
	}
	if s.N > 0 {
		s.Mean /= float64(s.N)
	}
	return s
}

// Print writes a line per pick and then the figures over the picks: mean,
// least and greatest.
func (c *Calibration) Print(w io.Writer) error {
	fmt.Fprintf(w, "The check played by the first %d gestures of a clap recording and of a knock recording; the source's other clap and knock recordings scored without and with what it learned (claps right, knocks right).\n", c.Taught)
	for _, p := range c.Picks {
		misnamed := fmt.Sprintf("the network misnamed %d of the claps, %d of the knocks", p.MisnamedClaps, p.MisnamedKnocks)
		what := "changes nothing (the network named every taught gesture rightly)"
		switch {
		case p.Teaches:
			what = "teaches (" + misnamed + ")"
		case !p.Consistent:
			what = "changes nothing (" + misnamed + ", but the taught gestures disagree among themselves)"
		}
		a := p.All
		fmt.Fprintf(w, "%-20s %-28s + %-28s %s: %.3f %.3f -> %.3f %.3f; claps only -> %.3f %.3f\n", p.Source, p.ClapFile, p.KnockFile, what,
			a.Without.ClapsRight(), a.Without.KnocksRight(), a.Taught.ClapsRight(), a.Taught.KnocksRight(), a.ClapsOnly.ClapsRight(), a.ClapsOnly.KnocksRight())
	}
	teach := 0
	for _, p := range c.Picks {
		if p.Teaches {
			teach++
		}
	}
	fmt.Fprintf(w, "\nover %d picks (%d of them teach), mean [least-greatest]:\n", len(c.Picks), teach)
	fmt.Fprintf(w, "%-12s %-22s %-22s %-22s %-22s %-22s\n", "recordings", "calibration", "claps right", "knocks right", "claps found", "knocks found")
	for _, set := range []struct {
		name string
		sel  func(*Pick) *Scores
	}{{"all others", func(p *Pick) *Scores { return &p.All }}, {"same room", func(p *Pick) *Scores { return &p.SameRoom }}, {"other rooms", func(p *Pick) *Scores { return &p.OtherRooms }}} {
		for _, mode := range []struct {
			name string
			sc   func(Scores) Counts
		}{{"none", func(s Scores) Counts { return s.Without }},
			{fmt.Sprintf("%d claps + %d knocks", c.Taught, c.Taught), func(s Scores) Counts { return s.Taught }},
			{fmt.Sprintf("%d claps only", c.Taught), func(s Scores) Counts { return s.ClapsOnly }}} {
			fig := func(f func(Counts) float64) Spread {
				return c.spread(set.sel, func(s Scores) float64 { return f(mode.sc(s)) })
			}
			fmt.Fprintf(w, "%-12s %-22s %-22s %-22s %-22s %-22s\n", set.name, mode.name, fig(Counts.ClapsRight), fig(Counts.KnocksRight), fig(Counts.ClapsFoundRate), fig(Counts.KnocksFoundRate))
		}
	}
	var err error
	for _, e := range c.Errors {
		_, err = fmt.Fprintf(w, "failed: %s\n", e)
	}
	return err
}
