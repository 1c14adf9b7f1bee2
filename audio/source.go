// Package audio hears the table: it reads sound from a microphone or a WAV file
// as one mono stream, finds onsets, names each one clap, bang or other, and
// groups the gestures into Woodlouse Chaos codes.
//
// Sound flows through small pieces with one interface each, in the spirit of
// gopxl/beep: a Source yields mono samples; a Listener consumes them block by
// block and emits Events. A WAV file and a live microphone go through exactly
// the same Listener, so a recording is analysed as if it were heard live.
package audio

import (
	"errors"
	"io"
)

// Source is a mono stream of samples in [-1, 1] at a fixed rate.
//
// Read fills dst with the next samples and returns how many it wrote. At the
// end of the stream it returns io.EOF (possibly together with n > 0, as
// io.Reader does). A live source blocks until samples are available.
type Source interface {
	SampleRate() int
	Read(dst []float64) (n int, err error)
}

// ErrUnsupported reports audio in an encoding tableref cannot read.
var ErrUnsupported = errors.New("unsupported audio encoding")

// ErrNotWAV reports a file that is not a RIFF/WAVE file at all.
var ErrNotWAV = errors.New("not a WAV file")

// ErrTruncated reports a WAV whose data is shorter than its header declares.
var ErrTruncated = errors.New("truncated WAV file")

// Drain reads src to its end in blocks of the given size, passing each block
// to fn. It stops early and returns fn's error if fn fails. The end of the
// stream (io.EOF) is not an error.
func Drain(src Source, block int, fn func([]float64) error) error {
	if block <= 0 {
		block = 1024
	}
	buf := make([]float64, block)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			if ferr := fn(buf[:n]); ferr != nil {
				return ferr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
