package realcorpus

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
)

// Print writes the table score-real prints, line for line in its formats
// (one line per source and class, then the totals against the goals), and
// then the code test: a line per source and one for all of them.
func (res *Result) Print(w io.Writer) error {
	for _, r := range res.Rows {
		failed := ""
		if r.Failed > 0 {
			failed = fmt.Sprintf("  FAILED %d", r.Failed)
		}
		if r.Kind == Noise {
			fmt.Fprintf(w, "%-26s %-15s files %4d %6.1f s  gestures %4d codes %3d  (%.1f gestures/min, %.2f codes/min)%s\n",
				r.Source, r.Class, r.Files, r.Seconds, r.Claps+r.Bangs, r.Codes, r.GesturesPerMinute(), r.CodesPerMinute(), failed)
			continue
		}
		fmt.Fprintf(w, "%-26s %-15s files %4d hits~%5d  clap %5d bang %5d  right %.3f found %.2f%s\n",
			r.Source, r.Class, r.Files, r.Hits, r.Claps, r.Bangs, r.Right(), r.FoundRate(), failed)
	}
	s := res.ScoreReal()
	fmt.Fprintf(w, "real recordings: claps heard as claps %.3f (found %.2f), knocks as bangs %.3f (found %.2f), laughter/talk %.1f gestures/min %.2f codes/min over %.1f min; failed %d (goal >= %g, >= %g, found >= %g, <= %g, <= %g)\n",
		s.ClapsRight, s.ClapsFound, s.KnocksRight, s.KnocksFound, s.NoiseGesturesPerMin, s.NoiseCodesPerMin, s.NoiseMinutes, s.Failed,
		Targets.ClapsRight, Targets.KnocksRight, Targets.Found, Targets.NoiseGesturesPerMin, Targets.NoiseCodesPerMin)
	for _, c := range res.Codes {
		failed := ""
		if c.Failed > 0 {
			failed = fmt.Sprintf("  FAILED %d", c.Failed)
		}
		fmt.Fprintf(w, "%-26s %-15s files %4d codes %4d  exact %.3f  right kind %.3f  extra %3d  %d gestures in %.1f min of laughter%s\n",
			c.Source, "codes", c.Files, c.Codes, c.ExactRate(), c.ClassAccuracy(), c.Extra, c.InLaughter, c.LaughSeconds/60, failed)
	}
	t := res.Totals.Codes
	var err error
	switch {
	case res.CodeFiles == 0:
		_, err = fmt.Fprintf(w, "codes from real hits: none built (0 recordings asked for) (goal exact >= %g)\n", Targets.CodesExact)
	case len(res.Codes) == 0:
		_, err = fmt.Fprintf(w, "codes from real hits: none built (no source has claps, knocks and laughter) (goal exact >= %g)\n", Targets.CodesExact)
	default:
		_, err = fmt.Fprintf(w, "codes from real hits: exact %.3f (%d of %d), gestures of the right kind %.3f, extra codes %d, %d gestures in %.1f min of laughter; failed %d; %d recordings of %d codes a source, seed %d (goal exact >= %g)\n",
			t.ExactRate(), t.Exact, t.Codes, t.ClassAccuracy(), t.Extra, t.InLaughter, t.LaughSeconds/60, t.Failed,
			res.CodeFiles, res.CodesPerFile, res.Seed, Targets.CodesExact)
	}
	return err
}

// ScoreRealTotals are the totals exactly as score-real's --json prints
// them: rounded as it rounds them (and prints them rounded once more).
type ScoreRealTotals struct {
	ClapsRight          float64 `json:"claps_right"`
	ClapsFound          float64 `json:"claps_found"`
	KnocksRight         float64 `json:"knocks_right"`
	KnocksFound         float64 `json:"knocks_found"`
	NoiseGesturesPerMin float64 `json:"noise_gestures_per_min"`
	NoiseCodesPerMin    float64 `json:"noise_codes_per_min"`
	NoiseMinutes        float64 `json:"noise_minutes"`
	Failed              int     `json:"failed"`
}

// ScoreReal is the totals as score-real reports them.
func (res *Result) ScoreReal() ScoreRealTotals {
	t := res.Totals
	return ScoreRealTotals{
		ClapsRight: round(t.ClapsRight, 3), ClapsFound: round(t.ClapsFound, 3),
		KnocksRight: round(t.KnocksRight, 3), KnocksFound: round(t.KnocksFound, 3),
		NoiseGesturesPerMin: round(t.NoiseGesturesPerMin, 2), NoiseCodesPerMin: round(t.NoiseCodesPerMin, 2),
		NoiseMinutes: round(t.NoiseMinutes, 1), Failed: t.Failed,
	}
}

// round rounds x to n decimals as Python's round does: to the nearest
// decimal of the float's exact value.
func round(x float64, n int) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'f', n, 64), 64)
	return v
}

// JSON is the result as one JSON object: the rows, the totals (unrounded),
// the code test by source, the errors, and under "score_real" the totals as
// score-real's --json line has them.
func (res *Result) JSON() ([]byte, error) {
	return json.Marshal(struct {
		*Result
		ScoreReal ScoreRealTotals `json:"score_real"`
	}{res, res.ScoreReal()})
}
