package realcorpus

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"os"
	"sort"
	"strings"

	"github.com/mewkiz/flac"

	"github.com/tableref/tableref/audio/gesture"
)

// The code test strings real hits into Woodlouse Chaos codes, since the
// recordings hold long runs of one kind (a hundred claps, a hundred knocks)
// and no codes at all, while a code is what the game needs heard. Its
// shape, in seconds:
const (
	// DefaultCodeFiles is how many code recordings the command and the test
	// build for each source that has claps, knocks and laughter.
	DefaultCodeFiles = 40
	// DefaultCodesPerFile is how many codes each holds.
	DefaultCodesPerFile = 5

	// A code is 2 to 7 gestures, at least one bang and one clap.
	MinCodeGestures, MaxCodeGestures = 2, 7
	// Consecutive gestures of a code are 0.25 to 0.6 s apart.
	MinGestureGap, MaxGestureGap = 0.25, 0.6
	// From a code's last gesture to the next code's first: 2.5 to 4 s,
	// holding 1 to 2 s of laughter at least LaughClear from either code.
	MinCodeGap, MaxCodeGap = 2.5, 4.0
	MinLaugh, MaxLaugh     = 1.0, 2.0
	LaughClear             = 0.5
	// Quiet before the first code (LeadIn) and after the last (TailOut,
	// more than the gap, so that the last code ends inside the recording).
	LeadIn, TailOut = 1.0, 2.5

	// A hit is cut from HitBefore before its event time to HitLongest after
	// it, or HitBefore before the next event if that comes sooner, and
	// faded over HitFade at either end. A laughter cut fades over
	// LaughFade, longer, so that its edges are no onset of their own.
	HitBefore, HitLongest = 0.015, 0.35
	HitFade, LaughFade    = 0.003, 0.02

	// BackgroundRMS is the level of the pink noise laid under a whole code
	// recording (-54 dBFS), so that nothing in it is digital silence and the
	// edges of the cuts do not step out of it: it is about the quietest the
	// phones' own recordings get (sharwin_cs496_own's quietest 50 ms, -53
	// to -63 dBFS).
	BackgroundRMS = 0.002

	// MatchWindow is how near, in seconds, a heard gesture must be to a
	// true one to be it, and how far a heard code may reach beyond a true
	// code's first and last gestures and still overlap it.
	MatchWindow = 0.05
)

// TrueCode is a code laid into a code recording.
type TrueCode struct {
	Start, End   float64   // its first and last gestures, seconds
	Bangs, Claps int       // how many of each
	Order        string    // B bang, C clap, in time order
	Times        []float64 // each gesture's event time
}

// Span is a stretch of a recording, seconds.
type Span struct{ Start, End float64 }

// Piece is a cut of a source recording laid into a code recording.
type Piece struct {
	File     int     // index into the code source's files
	From, To float64 // the cut, seconds in the source recording
	At       float64 // where From lands in the code recording, seconds
	Fade     float64 // seconds of fade at either end
}

// CodeFile is the plan of one code recording: what is laid where, and the
// truth to score it against. Plans are in seconds, so that they can be
// made before any audio is decoded.
type CodeFile struct {
	Name      string
	Seconds   float64
	Codes     []TrueCode
	Laughs    []Span // where laughter was laid
	Pieces    []Piece
	NoiseSeed uint64 // the background's
}

// hitRef is one hit that a code may use: an event of a clap or knock
// recording and the cut around it.
type hitRef struct {
	file     int
	t        float64
	from, to float64
}

// codeSource is a source with claps, knocks and laughter (or talk): what
// code recordings are built from.
type codeSource struct {
	name   string
	rate   int      // the rate of the code recordings: most of its files'
	files  []string // the recordings cut from
	secs   []float64
	claps  []hitRef
	bangs  []hitRef
	laughs []int // files of laughter or talk
}

// newCodeSource gathers the hits and the laughter of a source, or returns
// nil when it lacks claps, knocks or laughter. Each file's rate and length
// come from its FLAC header (cheap: no audio is decoded); a file whose
// header cannot be read is left out (the corpus's own pass reports it as
// failed).
func newCodeSource(src string, classes []*classDir, labels Labels) *codeSource {
	cs := &codeSource{name: src}
	count := map[int]int{}
	add := func(path string) (int, bool) {
		rate, secs, err := flacHeader(path)
		if err != nil {
			return 0, false
		}
		cs.files = append(cs.files, path)
		cs.secs = append(cs.secs, secs)
		count[rate]++
		return len(cs.files) - 1, true
	}
	for _, c := range classes {
		for _, f := range c.files {
			lab := labels[c.name+"/"+strings.TrimSuffix(f.name, ".flac")]
			if c.kind == Noise {
				if i, ok := add(f.path); ok {
					cs.laughs = append(cs.laughs, i)
				}
				continue
			}
			if len(lab.Times) == 0 {
				continue
			}
			i, ok := add(f.path)
			if !ok {
				continue
			}
			for k, t := range lab.Times {
				to := min(t+HitLongest, cs.secs[i])
				if k+1 < len(lab.Times) {
					to = min(to, lab.Times[k+1]-HitBefore)
				}
				h := hitRef{file: i, t: t, from: max(0, t-HitBefore), to: to}
				if h.to-h.from < 2*HitBefore { // at the very end of the file: no hit to speak of
					continue
				}
				if c.kind == Claps {
					cs.claps = append(cs.claps, h)
				} else {
					cs.bangs = append(cs.bangs, h)
				}
			}
		}
	}
	if len(cs.claps) == 0 || len(cs.bangs) == 0 || len(cs.laughs) == 0 {
		return nil
	}
	for r, n := range count { // the most common rate; of equals, the highest
		if n > count[cs.rate] || n == count[cs.rate] && r > cs.rate {
			cs.rate = r
		}
	}
	return cs
}

// flacHeader reads a FLAC file's rate and length from its header.
func flacHeader(path string) (rate int, seconds float64, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	s, err := flac.New(f)
	if err != nil {
		return 0, 0, fmt.Errorf("%s: not a FLAC file: %w", path, err)
	}
	if s.Info.SampleRate == 0 {
		return 0, 0, fmt.Errorf("%s: FLAC header gives no sample rate", path)
	}
	return int(s.Info.SampleRate), float64(s.Info.NSamples) / float64(s.Info.SampleRate), nil
}

// planCodes plans n code recordings of perFile codes each from the source,
// deterministically from seed (and the source's name, so that sources do
// not share their draws).
//
// Each code is 2 to 7 gestures whose kinds are drawn one by one, clap or
// bang with even odds, drawn again until both kinds are in it: a Woodlouse
// code has at least one bang (the animal's place) and one clap (how many).
// Consecutive gestures are 0.25 to 0.6 s apart. Each gesture is a real hit
// of its kind, not used before in the same recording. Between two codes
// lie 2.5 to 4 s holding 1 to 2 s of the source's laughter, at least 0.5 s
// clear of either code.
func planCodes(cs *codeSource, n, perFile int, seed uint64) []CodeFile {
	h := fnv.New64a()
	h.Write([]byte(cs.name))
	rng := rand.New(rand.NewPCG(seed, h.Sum64()))
	uniform := func(lo, hi float64) float64 { return lo + (hi-lo)*rng.Float64() }
	files := make([]CodeFile, n)
	for fi := range files {
		cf := &files[fi]
		cf.Name = fmt.Sprintf("%s/codes-%03d", cs.name, fi+1)
		cf.NoiseSeed = rng.Uint64()
		clapPool := newDeck(len(cs.claps))
		bangPool := newDeck(len(cs.bangs))
		t := LeadIn
		for c := range perFile {
			if c > 0 {
				gap := uniform(MinCodeGap, MaxCodeGap)
				if l := planLaugh(cs, rng, t, gap); l != nil {
					cf.Pieces = append(cf.Pieces, *l)
					cf.Laughs = append(cf.Laughs, Span{l.At, l.At + l.To - l.From})
				}
				t += gap
			}
			order := drawOrder(rng)
			tc := TrueCode{Order: order}
			for k, kind := range order {
				if k > 0 {
					t += uniform(MinGestureGap, MaxGestureGap)
				}
				var hit hitRef
				if kind == 'C' {
					hit = cs.claps[clapPool.draw(rng)]
					tc.Claps++
				} else {
					hit = cs.bangs[bangPool.draw(rng)]
					tc.Bangs++
				}
				cf.Pieces = append(cf.Pieces, Piece{File: hit.file, From: hit.from, To: hit.to, At: t - (hit.t - hit.from), Fade: HitFade})
				tc.Times = append(tc.Times, t)
			}
			tc.Start, tc.End = tc.Times[0], tc.Times[len(tc.Times)-1]
			cf.Codes = append(cf.Codes, tc)
		}
		cf.Seconds = t + TailOut
	}
	return files
}

// drawOrder draws a code's gestures: 2 to 7, each a clap or a bang with
// even odds, until both kinds are in it.
func drawOrder(rng *rand.Rand) string {
	n := MinCodeGestures + rng.IntN(MaxCodeGestures-MinCodeGestures+1)
	b := make([]byte, n)
	for {
		for i := range b {
			b[i] = "BC"[rng.IntN(2)]
		}
		if s := string(b); strings.Contains(s, "B") && strings.Contains(s, "C") {
			return s
		}
	}
}

// planLaugh places a cut of laughter in the gap that starts at t, clear of
// the codes on both sides, or returns nil when no laughter is long enough.
func planLaugh(cs *codeSource, rng *rand.Rand, t, gap float64) *Piece {
	length := MinLaugh + (min(MaxLaugh, gap-2*LaughClear)-MinLaugh)*rng.Float64()
	var fit []int
	for _, i := range cs.laughs {
		if cs.secs[i] >= length {
			fit = append(fit, i)
		}
	}
	if len(fit) == 0 {
		return nil
	}
	f := fit[rng.IntN(len(fit))]
	from := (cs.secs[f] - length) * rng.Float64()
	at := t + LaughClear + (gap-2*LaughClear-length)*rng.Float64()
	return &Piece{File: f, From: from, To: from + length, At: at, Fade: LaughFade}
}

// deck deals indices without repeating one until all have been dealt;
// then it starts again (only a source with fewer hits of a kind than one
// recording needs, at most 35, ever reuses one).
type deck struct {
	n    int
	left []int
}

func newDeck(n int) *deck { return &deck{n: n} }

func (d *deck) draw(rng *rand.Rand) int {
	if len(d.left) == 0 {
		for i := range d.n {
			d.left = append(d.left, i)
		}
	}
	k := rng.IntN(len(d.left))
	v := d.left[k]
	d.left[k] = d.left[len(d.left)-1]
	d.left = d.left[:len(d.left)-1]
	return v
}

// cutKey names a piece of a plan: its code file's and its own index.
type cutKey struct{ file, piece int }

// cutPieces cuts from one source recording, already mixed down and at the
// code recordings' rate, every piece of the plans that uses it.
func cutPieces(mono []float64, rate, file int, plans []CodeFile, into map[cutKey][]float32) {
	for fi := range plans {
		for pi, p := range plans[fi].Pieces {
			if p.File != file {
				continue
			}
			a := min(len(mono), int(math.Round(p.From*float64(rate))))
			b := min(len(mono), int(math.Round(p.To*float64(rate))))
			c := make([]float32, b-a)
			for i, v := range mono[a:b] {
				c[i] = float32(v)
			}
			into[cutKey{fi, pi}] = c
		}
	}
}

// buildCodeFile lays a planned code recording's pieces over its background
// noise at rate Hz.
func buildCodeFile(cf *CodeFile, fi, rate int, cuts map[cutKey][]float32) []float64 {
	out := Pink(int(math.Round(cf.Seconds*float64(rate))), BackgroundRMS, cf.NoiseSeed)
	for pi, p := range cf.Pieces {
		c := cuts[cutKey{fi, pi}]
		x := make([]float64, len(c))
		for i, v := range c {
			x[i] = float64(v)
		}
		fade := int(math.Round(p.Fade * float64(rate)))
		addFaded(out, int(math.Round(p.At*float64(rate))), x, fade, fade)
	}
	return out
}

// CodeScore is how well the codes of code recordings were heard.
type CodeScore struct {
	Files     int `json:"files"`
	Codes     int `json:"codes"`      // true codes
	Exact     int `json:"exact"`      // heard as exactly one code with their bangs and claps
	Gestures  int `json:"gestures"`   // true gestures
	RightKind int `json:"right_kind"` // true gestures matched one to one, within MatchWindow, by a heard gesture of their kind
	Heard     int `json:"heard"`      // gestures heard
	Extra     int `json:"extra"`      // heard codes that overlap no true code
	// InLaughter is the gestures heard while laughter was laid in.
	InLaughter   int        `json:"in_laughter"`
	LaughSeconds float64    `json:"laugh_seconds"`
	Failed       int        `json:"failed"` // recordings that could not be built or heard
	Misses       []CodeMiss `json:"misses,omitempty"`
}

// CodeMiss is a true code not heard exactly.
type CodeMiss struct {
	File  string   `json:"file"`
	Start float64  `json:"start"`
	End   float64  `json:"end"`
	Want  string   `json:"want"`  // its order
	Heard []string `json:"heard"` // the heard codes overlapping it, as ORDER@START-END
}

// ExactRate is the share of codes heard exactly.
func (s CodeScore) ExactRate() float64 { return ratio(s.Exact, s.Codes) }

// ClassAccuracy is the share of true gestures heard, in time, as their kind.
func (s CodeScore) ClassAccuracy() float64 { return ratio(s.RightKind, s.Gestures) }

func (s *CodeScore) add(o CodeScore) {
	s.Files += o.Files
	s.Codes += o.Codes
	s.Exact += o.Exact
	s.Gestures += o.Gestures
	s.RightKind += o.RightKind
	s.Heard += o.Heard
	s.Extra += o.Extra
	s.InLaughter += o.InLaughter
	s.LaughSeconds += o.LaughSeconds
	s.Failed += o.Failed
	s.Misses = append(s.Misses, o.Misses...)
}

// ScoreCodes scores what was heard in a code recording against its plan.
//
// A true code is exact when exactly one heard code overlaps its span (from
// its first gesture to its last, widened by MatchWindow either side) and
// that code has its numbers of bangs and claps. A heard code overlapping no
// true code is an extra. Gestures are matched to the true ones of their
// own kind, one to one within MatchWindow, the nearest pairs first.
func ScoreCodes(cf *CodeFile, h *Heard) CodeScore {
	s := CodeScore{Files: 1, Heard: len(h.Gestures)}
	overlaps := func(c TrueCode, x float64, y float64) bool {
		return x <= c.End+MatchWindow && y >= c.Start-MatchWindow
	}
	used := make([]bool, len(h.Codes))
	type truth struct {
		t    float64
		kind gesture.Kind
	}
	var truths []truth
	for _, c := range cf.Codes {
		s.Codes++
		var hit []int
		for k, x := range h.Codes {
			if overlaps(c, x.Start, x.End) {
				hit = append(hit, k)
				used[k] = true
			}
		}
		if len(hit) == 1 && h.Codes[hit[0]].Bangs == c.Bangs && h.Codes[hit[0]].Claps == c.Claps {
			s.Exact++
		} else {
			m := CodeMiss{File: cf.Name, Start: c.Start, End: c.End, Want: c.Order, Heard: []string{}}
			for _, k := range hit {
				x := h.Codes[k]
				m.Heard = append(m.Heard, fmt.Sprintf("%s@%.2f-%.2f", x.Order, x.Start, x.End))
			}
			s.Misses = append(s.Misses, m)
		}
		for i, t := range c.Times {
			k := gesture.Bang
			if c.Order[i] == 'C' {
				k = gesture.Clap
			}
			truths = append(truths, truth{t, k})
		}
	}
	for k := range h.Codes {
		if !used[k] {
			s.Extra++
		}
	}
	s.Gestures = len(truths)
	type pair struct {
		d    float64
		i, j int
	}
	var pairs []pair
	for i, g := range truths {
		for j, o := range h.Gestures {
			if d := math.Abs(o.Time - g.t); d <= MatchWindow && o.Kind == g.kind {
				pairs = append(pairs, pair{d, i, j})
			}
		}
	}
	sort.SliceStable(pairs, func(a, b int) bool { return pairs[a].d < pairs[b].d })
	usedT, usedH := make([]bool, len(truths)), make([]bool, len(h.Gestures))
	for _, p := range pairs {
		if !usedT[p.i] && !usedH[p.j] {
			usedT[p.i], usedH[p.j] = true, true
			s.RightKind++
		}
	}
	for _, l := range cf.Laughs {
		s.LaughSeconds += l.End - l.Start
		for _, g := range h.Gestures {
			if g.Time >= l.Start && g.Time <= l.End {
				s.InLaughter++
			}
		}
	}
	return s
}
