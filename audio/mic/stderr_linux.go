//go:build linux

package mic

import (
	"os"
	"syscall"
)

// quietStderr points file descriptor 2 at /dev/null until the returned
// function is called, which puts the original stderr back. PortAudio's ALSA
// back end (and alsa-lib itself) print probe noise such as
// "ALSA lib pcm.c:2664:(snd_pcm_open_noupdate) Unknown PCM cards.pcm.rear"
// straight to fd 2 from C while Pa_Initialize enumerates devices; Go's
// os.Stderr cannot intercept that, so the descriptor itself is swapped.
//
// The swap is process-wide: anything another goroutine writes to stderr
// during the (short) window is lost too. If anything fails, stderr is left
// as it was and the noise simply gets through.
func quietStderr() (restore func()) {
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		return func() {}
	}
	defer null.Close()
	// Keep the saved copy out of any child started meanwhile (as os/exec does).
	syscall.ForkLock.RLock()
	saved, err := syscall.Dup(2)
	if err == nil {
		syscall.CloseOnExec(saved)
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return func() {}
	}
	if err := syscall.Dup3(int(null.Fd()), 2, 0); err != nil {
		syscall.Close(saved)
		return func() {}
	}
	return func() {
		_ = syscall.Dup3(saved, 2, 0)
		_ = syscall.Close(saved)
	}
}
