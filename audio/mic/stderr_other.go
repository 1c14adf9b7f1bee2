//go:build !linux

package mic

// quietStderr is a no-op outside Linux: the ALSA probe noise it hides there
// does not occur elsewhere.
func quietStderr() (restore func()) { return func() {} }
