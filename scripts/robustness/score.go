package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os/exec"
	"sort"
	"strings"
	"time"
)

// The scoring here is a port of shared/tools/score-gestures: the same
// parsing of the binary's JSON lines, the same one-to-one matching within
// ±50 ms (pairs taken by distance, ties by truth then report index), the same
// code rule and the same "false gesture" rule (an unmatched reported
// gesture inside a speech span or 100 ms before to 300 ms after a clink).

const matchTol = 0.05

// Reported is what the binary said about one file.
type Reported struct {
	Gestures []Onset // onset events of kind clap or bang
	Codes    []Code  // code events
	OK       bool    // the binary exited 0
}

// runTimeout bounds one run of the binary, as score-gestures does.
const runTimeout = 120 * time.Second

// listen runs `bin listen --json --wav path`. A failed run returns OK false
// and no events (score-gestures counts its onsets as missed) and an error
// line for the user.
func listen(ctx context.Context, bin, path string) (Reported, error) {
	ctx, cancel := context.WithTimeout(ctx, runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "listen", "--json", "--wav", path)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		if ctx.Err() == context.DeadlineExceeded {
			msg = "timed out after " + runTimeout.String()
		}
		if msg == "" {
			msg = err.Error()
		} else {
			msg = err.Error() + ": " + msg
		}
		return Reported{}, errors.New(msg)
	}
	return parseEvents(stdout.Bytes()), nil
}

// parseEvents reads the JSON lines; lines that are not JSON are skipped.
func parseEvents(out []byte) Reported {
	r := Reported{OK: true}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	for sc.Scan() {
		var e struct {
			Event string   `json:"event"`
			Kind  string   `json:"kind"`
			T     *float64 `json:"t"`
			Start *float64 `json:"start"`
			End   *float64 `json:"end"`
			Bangs *float64 `json:"bangs"`
			Claps *float64 `json:"claps"`
		}
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			continue
		}
		switch {
		case e.Event == "onset" && (e.Kind == "clap" || e.Kind == "bang") && e.T != nil:
			r.Gestures = append(r.Gestures, Onset{T: *e.T, Kind: e.Kind})
		case e.Event == "code" && e.Start != nil && e.End != nil && e.Bangs != nil && e.Claps != nil:
			r.Codes = append(r.Codes, Code{Start: *e.Start, End: *e.End, Bangs: int(*e.Bangs), Claps: int(*e.Claps)})
		}
	}
	return r
}

// Counts add up over files.
type Counts struct {
	Files      int     `json:"files"`
	Gestures   int     `json:"gestures"` // labelled
	Reported   int     `json:"reported"` // reported gestures
	TP         int     `json:"tp"`
	FP         int     `json:"fp"` // reported gestures matching no labelled onset ("unmatched")
	FN         int     `json:"fn"`
	Cls        int     `json:"class_ok"`    // matched with the right kind
	Codes      int     `json:"codes"`       // labelled codes
	Exact      int     `json:"codes_exact"` // exactly decoded
	ExtraCodes int     `json:"extra_codes"` // reported codes overlapping no labelled code
	NoiseFP    int     `json:"false"`       // unmatched reported gestures in speech or clinks
	Failed     int     `json:"failed_runs"`
	Seconds    float64 `json:"audio_s"`
}

func (c *Counts) add(o Counts) {
	c.Files += o.Files
	c.Gestures += o.Gestures
	c.Reported += o.Reported
	c.TP += o.TP
	c.FP += o.FP
	c.FN += o.FN
	c.Cls += o.Cls
	c.Codes += o.Codes
	c.Exact += o.Exact
	c.ExtraCodes += o.ExtraCodes
	c.NoiseFP += o.NoiseFP
	c.Failed += o.Failed
	c.Seconds += o.Seconds
}

// F1 over all gestures, as score-gestures computes it.
func (c Counts) F1() float64 {
	return 2 * float64(c.TP) / float64(max(1, 2*c.TP+c.FP+c.FN))
}

// ClassAcc is the share of matched gestures with the right kind.
func (c Counts) ClassAcc() float64 { return float64(c.Cls) / float64(max(1, c.TP)) }

// CodeExact is the share of labelled codes decoded exactly.
func (c Counts) CodeExact() float64 { return float64(c.Exact) / float64(max(1, c.Codes)) }

// FalsePerMin is false gestures per minute of audio.
func (c Counts) FalsePerMin() float64 {
	if c.Seconds <= 0 {
		return 0
	}
	return float64(c.NoiseFP) / (c.Seconds / 60)
}

// matchOnsets pairs labelled and reported gestures one-to-one within ±50 ms:
// every pair within the tolerance, by distance, then truth index, then
// report index, taken greedily. It returns the pairs and which reports
// matched.
func matchOnsets(truth, found []Onset) (pairs [][2]int, matched []bool) {
	type cand struct {
		d    float64
		i, j int
	}
	var cs []cand
	for i, t := range truth {
		for j, f := range found {
			if d := math.Abs(t.T - f.T); d <= matchTol {
				cs = append(cs, cand{d, i, j})
			}
		}
	}
	sort.Slice(cs, func(a, b int) bool {
		if cs[a].d != cs[b].d {
			return cs[a].d < cs[b].d
		}
		if cs[a].i != cs[b].i {
			return cs[a].i < cs[b].i
		}
		return cs[a].j < cs[b].j
	})
	usedT := make([]bool, len(truth))
	matched = make([]bool, len(found))
	for _, c := range cs {
		if !usedT[c.i] && !matched[c.j] {
			usedT[c.i], matched[c.j] = true, true
			pairs = append(pairs, [2]int{c.i, c.j})
		}
	}
	return pairs, matched
}

// scoreFile scores one file's report against its labels.
func scoreFile(lab *Labels, r Reported) Counts {
	c := Counts{Files: 1, Gestures: len(lab.Onsets), Reported: len(r.Gestures), Seconds: lab.Duration}
	if !r.OK {
		c.Failed = 1
	}
	pairs, matched := matchOnsets(lab.Onsets, r.Gestures)
	c.TP = len(pairs)
	c.FP = len(r.Gestures) - c.TP
	c.FN = len(lab.Onsets) - c.TP
	for _, p := range pairs {
		if lab.Onsets[p[0]].Kind == r.Gestures[p[1]].Kind {
			c.Cls++
		}
	}
	var noise [][2]float64
	noise = append(noise, lab.Speech...)
	for _, d := range lab.Distractors {
		noise = append(noise, [2]float64{d.T - 0.1, d.T + 0.3})
	}
	for j, g := range r.Gestures {
		if matched[j] {
			continue
		}
		for _, s := range noise {
			if s[0] <= g.T && g.T <= s[1] {
				c.NoiseFP++
				break
			}
		}
	}
	used := make([]bool, len(r.Codes))
	for _, lc := range lab.Codes {
		c.Codes++
		var hits []int
		for k, x := range r.Codes {
			if x.Start <= lc.End+0.3 && x.End >= lc.Start-0.3 {
				hits = append(hits, k)
				used[k] = true
			}
		}
		if len(hits) == 1 && r.Codes[hits[0]].Bangs == lc.Bangs && r.Codes[hits[0]].Claps == lc.Claps {
			c.Exact++
		}
	}
	for _, u := range used {
		if !u {
			c.ExtraCodes++
		}
	}
	return c
}

func (c Counts) String() string {
	return fmt.Sprintf("files=%d F1=%.4f class_acc=%.4f code_exact=%.4f false=%d fp=%d fn=%d extra_codes=%d",
		c.Files, c.F1(), c.ClassAcc(), c.CodeExact(), c.NoiseFP, c.FP, c.FN, c.ExtraCodes)
}
