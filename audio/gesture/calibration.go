package gesture

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"time"
)

// A Calibration is what the microphone check taught tableref about one
// table, one pair of hands and one microphone: the features of the claps
// and bangs the table made when it was asked for them.
//
// The network was taught on many tables, and on one it has not heard it
// may be wrong in a way that holds for the whole evening: one person's
// claps on one phone, dark and dull, are heard as bangs one after the
// other. The check knows what it asked for (two claps, then two bangs), so
// it knows what the table's own gestures are even when the network names
// them wrongly.
//
// What it does with them is small and can be said in a sentence:
//
//   - When the network names every taught gesture rightly (a clap more
//     likely a clap than a bang, a bang the other way round), there is
//     nothing to correct, and the calibration changes nothing.
//   - Otherwise a sound the network takes for a gesture and that sounds
//     like the taught ones is named after the taught gestures it sounds
//     more like: a clap when it is nearer the taught claps than the taught
//     bangs. "Sounds like" is measured on what kind of sound it is (how it
//     starts and dies away, how bright, how noise-like, whether it rings),
//     never on how loud it is, each feature in units of its usual spread
//     over our recordings (calibScale). A sound nearer neither (further
//     from both than TaughtReach of the way between them) is left to the
//     network, and so is every sound the network does not take for a
//     gesture: the calibration tells claps from bangs, not gestures from
//     the room.
//   - Taught claps alone (no bangs) can only say what a clap is here: a
//     sound the network takes for a bang and that lies within
//     ClapsOnlyReach of the taught claps is a clap.
//   - Taught gestures that disagree among themselves teach nothing: when
//     what they teach would not name each of them as it was taught (a
//     taught clap nearer the taught bangs than the taught claps' middle, or
//     further from it than the reach), it was no clap like the others, or
//     the check heard something else, and the check had better be made
//     again.
//
// Whether the network names the taught gestures rightly is asked of the
// network that judges them now, not stored, so a calibration saved today
// steps aside by itself once a retrained network hears that table rightly.
// A calibration holds for the band it was taught in: the features of a
// telephone line's sounds are measured differently.
//
// What it gains is measured by go run ./audio/internal/realscore
// -calibrate (the README's Measured table). Tried there and not kept,
// because they did not help: moving the network's clap-or-bang boundary to lie between
// the taught claps' and bangs' log-odds (the network's scores of one
// person's claps and knocks on one phone overlap: it traded claps for
// knocks one for one), and a rule on the table's loudness (the laughter the
// network takes for gestures is as loud as the hands).
type Calibration struct {
	// Learned is when the check taught it (zero when unknown).
	Learned time.Time

	band         Band
	claps, bangs []Features

	teach      bool
	consistent bool      // the taught gestures agree among themselves
	misC, misB int       // taught claps the network takes for bangs, bangs for claps
	clap, bang []float64 // the middles of the taught claps and bangs (bang nil without bangs)
	reach2     float64   // the square of how far from a middle a sound is still like it
}

// CalibrationVersion is the version of the calibration file this tableref
// writes and reads.
const CalibrationVersion = 1

// MaxTaught is the most gestures of each kind a calibration holds.
const MaxTaught = 8

// TaughtReach is how far from the middle of the taught gestures of a kind
// a sound may lie and still count as like them, as a share of the distance
// between the taught claps' and bangs' middles.
const TaughtReach = 0.75

// ClapsOnlyReach is how far from the taught claps' middle a sound may lie
// and still count as a clap when no bangs were taught, in units of the
// features' usual spread (calibScale).
const ClapsOnlyReach = 3.0

// calibScale is the usual spread (the standard deviation) of each feature
// of calibPoint over the claps and bangs of the development corpus
// (testdata/dev.csv.gz; a test measures it again): the unit each is
// counted in.
var calibScale = [...]float64{
	5.28,   // AttackMs, ms
	7.61,   // Decay, dB
	5.42,   // Early, dB
	1.49,   // Centroid, octaves
	0.455,  // Flatness, decades
	0.402,  // Low, share
	0.803,  // High, decades
	0.193,  // Pitch
	0.0887, // Tonal, share
	14.6,   // Formant, dB
	0.174,  // Harmonic, share
}

// calibPoint is what kind of sound f is, for the calibration: how it starts
// and dies away, how bright and noise-like it is, whether it has a pitch or
// rings; nothing of how loud it is or how far it rose over the room, which
// say how hard a hand struck, not what it struck. Flatness and the share
// above 3 kHz count in decades (from 0.001): a dull clap's 0.05 and a
// knock's 0.002, both near nothing on a plain scale, are far apart.
func calibPoint(f Features) []float64 {
	decades := func(x float64) float64 { return math.Log10(math.Max(x, 1e-3)) }
	return []float64{
		f.AttackMs, f.Decay, f.Early, math.Log2(math.Max(f.Centroid, 20)), decades(f.Flatness),
		f.Low, decades(f.High), f.Pitch, f.Tonal, math.Max(f.Formant, -60), f.Harmonic,
	}
}

// dist2 is the square of the distance from a to b, each feature in its
// calibScale unit.
func dist2(a, b []float64) float64 {
	var s float64
	for i := range a {
		d := (a[i] - b[i]) / calibScale[i]
		s += d * d
	}
	return s
}

// middle is the mean of the points of fs.
func middle(fs []Features) []float64 {
	m := make([]float64, len(calibScale))
	for _, f := range fs {
		for i, v := range calibPoint(f) {
			m[i] += v / float64(len(fs))
		}
	}
	return m
}

// Learn makes the calibration taught by claps and bangs (the features of
// the table's own gestures, as the Listener measured them in band b). It
// needs a clap at least; bangs may be missing (claps only).
func Learn(b Band, claps, bangs []Features) (*Calibration, error) {
	switch {
	case b != Wide && b != Narrow:
		return nil, fmt.Errorf("no such band %d", b)
	case len(claps) == 0:
		return nil, errors.New("no clap to learn from")
	case len(claps) > MaxTaught || len(bangs) > MaxTaught:
		return nil, fmt.Errorf("more than %d claps or bangs", MaxTaught)
	}
	for _, fs := range [][]Features{claps, bangs} {
		for _, f := range fs {
			if err := finite(f); err != nil {
				return nil, err
			}
		}
	}
	c := &Calibration{band: b, claps: append([]Features(nil), claps...), bangs: append([]Features(nil), bangs...)}
	m := Model(b)
	for _, f := range c.claps {
		if p := m.Probs(f.Vector()); p[1] > p[0] {
			c.misC++
		}
	}
	for _, f := range c.bangs {
		if p := m.Probs(f.Vector()); p[0] >= p[1] {
			c.misB++
		}
	}
	c.clap = middle(c.claps)
	c.reach2 = ClapsOnlyReach * ClapsOnlyReach
	if len(c.bangs) > 0 {
		c.bang = middle(c.bangs)
		c.reach2 = TaughtReach * TaughtReach * dist2(c.clap, c.bang)
	}
	c.consistent = true
	for _, f := range c.claps {
		c.consistent = c.consistent && c.like(calibPoint(f)) == Clap
	}
	for _, f := range c.bangs {
		c.consistent = c.consistent && c.like(calibPoint(f)) == Bang
	}
	c.teach = c.misC+c.misB > 0 && c.consistent
	return c, nil
}

// like is the kind of the taught gestures that a sound at x sounds like:
// within reach of their middle, and nearer it than the other kind's; Other
// when it sounds like neither.
func (c *Calibration) like(x []float64) Kind {
	dc := dist2(x, c.clap)
	if c.bang == nil {
		if dc <= c.reach2 {
			return Clap
		}
		return Other
	}
	db := dist2(x, c.bang)
	switch {
	case min(dc, db) > c.reach2:
		return Other
	case dc < db:
		return Clap
	}
	return Bang
}

// finite reports a feature that is not a finite number.
func finite(f Features) error {
	v := reflect.ValueOf(f)
	for i := range v.NumField() {
		if x := v.Field(i).Float(); math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("the feature %s is %v", featureNames[i], x)
		}
	}
	return nil
}

// Band is the band the calibration was taught in: it names only the
// sounds of a stream heard in that band.
func (c *Calibration) Band() Band { return c.band }

// Taught is how many claps and bangs taught it.
func (c *Calibration) Taught() (claps, bangs int) { return len(c.claps), len(c.bangs) }

// Misnamed is how many of the taught claps the network takes for bangs,
// and of the taught bangs for claps.
func (c *Calibration) Misnamed() (claps, bangs int) { return c.misC, c.misB }

// Teaches reports whether the calibration changes anything: the network
// misnames some taught gesture, and the taught gestures agree among
// themselves.
func (c *Calibration) Teaches() bool { return c.teach }

// Consistent reports whether the taught gestures agree among themselves:
// what they teach names each of them as it was taught.
func (c *Calibration) Consistent() bool { return c.consistent }

// Name is the kind of a sound with features f that the network named k,
// once the calibration has had its say (see Calibration). A nil
// calibration changes nothing.
func (c *Calibration) Name(f Features, k Kind) Kind {
	if c == nil || !c.teach || !k.IsGesture() {
		return k
	}
	if like := c.like(calibPoint(f)); like != Other {
		return like
	}
	return k
}

// calibFile is the calibration as saved: each gesture's features by name
// (the names of the feature tables' columns, "attackms").
type calibFile struct {
	Version int                  `json:"version"`
	Learned string               `json:"learned,omitempty"`
	Band    string               `json:"band"`
	Claps   []map[string]float64 `json:"claps"`
	Bangs   []map[string]float64 `json:"bangs"`
}

// featureNames are the saved names of the fields of Features, in order
// (the feature tables' column names: internal/table.FeatureNames).
var featureNames = func() []string {
	t := reflect.TypeFor[Features]()
	names := make([]string, t.NumField())
	for i := range names {
		names[i] = strings.ToLower(t.Field(i).Name)
	}
	return names
}()

// MarshalJSON is the calibration as its file holds it.
func (c *Calibration) MarshalJSON() ([]byte, error) {
	out := calibFile{Version: CalibrationVersion, Band: c.band.String(), Claps: []map[string]float64{}, Bangs: []map[string]float64{}}
	if !c.Learned.IsZero() {
		out.Learned = c.Learned.UTC().Format(time.RFC3339)
	}
	for _, f := range c.claps {
		out.Claps = append(out.Claps, featureMap(f))
	}
	for _, f := range c.bangs {
		out.Bangs = append(out.Bangs, featureMap(f))
	}
	return json.Marshal(out)
}

func featureMap(f Features) map[string]float64 {
	v := reflect.ValueOf(f)
	m := make(map[string]float64, v.NumField())
	for i := range v.NumField() {
		m[featureNames[i]] = v.Field(i).Float()
	}
	return m
}

// MaxCalibrationBytes bounds the size of a calibration file.
const MaxCalibrationBytes = 1 << 20

// ParseCalibration reads a calibration as MarshalJSON wrote it. Its error
// says in one line what is wrong: not a calibration, another version, a
// feature missing or not a number.
func ParseCalibration(b []byte) (*Calibration, error) {
	if len(b) > MaxCalibrationBytes {
		return nil, fmt.Errorf("not a calibration: larger than %d bytes", MaxCalibrationBytes)
	}
	var head struct {
		Version *int `json:"version"`
	}
	if err := json.Unmarshal(b, &head); err != nil || head.Version == nil {
		return nil, errors.New("not a calibration (JSON with a version, as listen --check --save-calibration writes)")
	}
	if *head.Version != CalibrationVersion {
		return nil, fmt.Errorf("a calibration of version %d, and this tableref reads version %d: run the microphone check again", *head.Version, CalibrationVersion)
	}
	var in calibFile
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		return nil, fmt.Errorf("not a calibration: %v", err)
	}
	var band Band
	switch in.Band {
	case Wide.String():
		band = Wide
	case Narrow.String():
		band = Narrow
	default:
		return nil, fmt.Errorf("a calibration of an unknown band %q (wide or narrow)", in.Band)
	}
	var learned time.Time
	if in.Learned != "" {
		t, err := time.Parse(time.RFC3339, in.Learned)
		if err != nil {
			return nil, fmt.Errorf("a calibration learned at %q, which is no time (RFC 3339)", in.Learned)
		}
		learned = t
	}
	claps, err := featureList(in.Claps, "clap")
	if err != nil {
		return nil, err
	}
	bangs, err := featureList(in.Bangs, "bang")
	if err != nil {
		return nil, err
	}
	c, err := Learn(band, claps, bangs)
	if err != nil {
		return nil, fmt.Errorf("a calibration that teaches nothing: %v", err)
	}
	c.Learned = learned
	return c, nil
}

// featureList reads the saved gestures of one kind: every feature, by
// name, and nothing else.
func featureList(ms []map[string]float64, kind string) ([]Features, error) {
	if len(ms) > MaxTaught {
		return nil, fmt.Errorf("a calibration with %d %ss (at most %d)", len(ms), kind, MaxTaught)
	}
	out := make([]Features, len(ms))
	for k, m := range ms {
		v := reflect.ValueOf(&out[k]).Elem()
		for i := range featureNames {
			x, ok := m[featureNames[i]]
			if !ok {
				return nil, fmt.Errorf("%s %d of the calibration has no %s: it was made by another version of tableref; run the microphone check again", kind, k+1, featureNames[i])
			}
			v.Field(i).SetFloat(x)
		}
		for name := range m {
			if !slices.Contains(featureNames, name) {
				return nil, fmt.Errorf("%s %d of the calibration has an unknown feature %q: it was made by another version of tableref; run the microphone check again", kind, k+1, name)
			}
		}
	}
	return out, nil
}
