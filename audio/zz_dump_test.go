package audio_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/tableref/tableref/audio"
	"github.com/tableref/tableref/audio/gesture"
)

func TestZZDump(t *testing.T) {
	files := os.Getenv("DUMP")
	if files == "" {
		t.Skip()
	}
	for _, f := range strings.Split(files, ",") {
		w, err := audio.OpenWAV(f)
		if err != nil {
			t.Fatal(err)
		}
		l := audio.NewListener(w.Info().SampleRate, audio.Config{}, func(e audio.Event) {
			if o, ok := e.(*audio.Onset); ok && (o.Kind.IsGesture() || os.Getenv("ALL") != "") {
				p := gesture.ModelProbs(o.Features)
				fmt.Printf("%s %.4f %s p=%.2f/%.2f/%.2f %+v\n", f, o.Time, o.Kind, p[0], p[1], p[2], o.Features)
			}
		})
		audio.Drain(w, 4096, func(b []float64) error { l.Write(b); return nil })
		l.Close()
		w.Close()
	}
}
