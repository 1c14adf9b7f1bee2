// Package corpuslabel is a labelled recording's truth, in the JSON format of
// shared/corpus/README.md, for the scripts that make recordings
// (synthcorpus) and transform and score them (robustness).
package corpuslabel

// Labels is one recording's truth.
type Labels struct {
	Tier        string       `json:"tier"`
	LaptopMic   bool         `json:"laptop_mic"`
	Onsets      []Onset      `json:"onsets"`
	Codes       []Code       `json:"codes"`
	Distractors []Distractor `json:"distractors"`
	Speech      [][2]float64 `json:"speech"`
	File        string       `json:"file"`
	SampleRate  int          `json:"sample_rate"`
	Channels    int          `json:"channels"`
	Bits        int          `json:"bits"`
	Duration    float64      `json:"duration"`
	// Condition names the transform that made the file (ours, not the corpus's).
	Condition string `json:"condition,omitempty"`
}

// Onset is a labelled gesture.
type Onset struct {
	T    float64 `json:"t"`
	Kind string  `json:"kind"`
}

// Code is a labelled trainer code.
type Code struct {
	Start float64 `json:"start"`
	End   float64 `json:"end"`
	Bangs int     `json:"bangs"`
	Claps int     `json:"claps"`
	Order string  `json:"order"`
}

// Distractor is a labelled glass clink (not a gesture).
type Distractor struct {
	T    float64 `json:"t"`
	Kind string  `json:"kind"`
}

// Clone returns a deep copy of l, with empty (not nil) lists so that the
// JSON written from it always has them.
func Clone(l *Labels) *Labels {
	c := *l
	c.Onsets = append(make([]Onset, 0, len(l.Onsets)), l.Onsets...)
	c.Codes = append(make([]Code, 0, len(l.Codes)), l.Codes...)
	c.Distractors = append(make([]Distractor, 0, len(l.Distractors)), l.Distractors...)
	c.Speech = append(make([][2]float64, 0, len(l.Speech)), l.Speech...)
	return &c
}
