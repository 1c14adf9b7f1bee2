package gesture

// Kind names what made a sound.
type Kind string

// The kinds of onset. Only claps and bangs are gestures.
const (
	Clap  Kind = "clap"
	Bang  Kind = "bang"
	Other Kind = "other"
)

// IsGesture reports whether k is a clap or a bang.
func (k Kind) IsGesture() bool { return k == Clap || k == Bang }

// Letter is the one-letter code of a gesture (C or B), or 0.
func (k Kind) Letter() byte {
	switch k {
	case Clap:
		return 'C'
	case Bang:
		return 'B'
	}
	return 0
}
