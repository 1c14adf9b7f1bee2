package main

import (
	"github.com/tableref/tableref/scripts/internal/corpuslabel"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tableref/tableref/audio"
)

func condByName(t *testing.T, name string) Condition {
	t.Helper()
	for _, c := range conditions() {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no condition %q", name)
	return Condition{}
}

// testSignal is secs seconds of quiet pink noise (−60 dBFS RMS) with a loud
// decaying noise burst (a "clap", peak about −6 dBFS) at each onset.
func testSignal(rate int, secs float64, onsets []float64, seed uint64) ([]float64, *Labels) {
	rng := rand.New(rand.NewPCG(seed, 1))
	n := int(secs * float64(rate))
	x := pinkNoise(n, rng)
	for i := range x {
		x[i] *= dbToAmp(-60)
	}
	lab := &Labels{Tier: "clean", Onsets: []Onset{}, Codes: []Code{}, Distractors: []Distractor{}, Speech: [][2]float64{}, Duration: secs}
	for _, t := range onsets {
		a := int(t * float64(rate))
		for i := 0; i < int(0.08*float64(rate)) && a+i < n; i++ {
			x[a+i] += 0.25 * rng.NormFloat64() * math.Exp(-float64(i)/(0.012*float64(rate)))
		}
		lab.Onsets = append(lab.Onsets, Onset{T: t, Kind: "clap"})
	}
	clip1(x)
	return x, lab
}

func applyCond(t *testing.T, name string, x []float64, rate int, lab *Labels, env *Env) *Clip {
	t.Helper()
	c := condByName(t, name)
	clip := &Clip{Rate: rate, Ch: [][]float64{append([]float64(nil), x...)}, Lab: corpuslabel.Clone(lab), Format: Int16}
	out, err := c.Apply(clip, seedFor(1, "test", name), env)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return out
}

func TestConditionNamesUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range conditions() {
		if seen[c.Name] || c.Desc == "" {
			t.Errorf("condition %q duplicated or undescribed", c.Name)
		}
		seen[c.Name] = true
		if c.Apply == nil && !c.NoGestures {
			t.Errorf("condition %q has no transform", c.Name)
		}
	}
}

func TestDC(t *testing.T) {
	x, lab := testSignal(16000, 1, []float64{0.5}, 1)
	for name, dc := range map[string]float64{"dc-0.003": 0.003, "dc-0.01": 0.01, "dc-0.03": 0.03} {
		out := applyCond(t, name, x, 16000, lab, nil)
		got := 0.0
		for i, v := range out.Ch[0] {
			got += v - x[i]
		}
		got /= float64(len(x))
		if math.Abs(got-dc) > 1e-4*dc {
			t.Errorf("%s: mean shift %g, want %g", name, got, dc)
		}
	}
}

func TestHumPeak(t *testing.T) {
	for _, rate := range []int{16000, 22050, 44100} {
		silent := make([]float64, rate)
		lab := &Labels{Onsets: []Onset{}}
		for name, db := range map[string]float64{
			"hum-50Hz-40dB": -40, "hum-50Hz-30dB": -30, "hum-50Hz-20dB": -20, "hum-60Hz-30dB": -30,
			"hum-50Hz-harm-30dB": -30, "hum-60Hz-harm-20dB": -20,
		} {
			out := applyCond(t, name, silent, rate, lab, nil)
			// measure on what is written: 16-bit
			q := quantised(out.Ch[0], 16)
			got := 20 * math.Log10(peak(q))
			if math.Abs(got-db) > 0.5 {
				t.Errorf("%s at %d Hz: peak %.2f dBFS, want %g ± 0.5", name, rate, got, db)
			}
		}
		out := applyCond(t, "zeros-first-hum", silent, rate, lab, nil)
		for i, v := range out.Ch[0][:rate] {
			if v != 0 {
				t.Fatalf("zeros-first-hum: sample %d of the leading second is %g", i, v)
			}
		}
		if got := 20 * math.Log10(peak(out.Ch[0][rate:])); math.Abs(got+30) > 0.5 {
			t.Errorf("zeros-first-hum: hum peak %.2f dBFS after the zeros", got)
		}
	}
}

func quantised(x []float64, bits int) []float64 {
	full := float64(int64(1) << (bits - 1))
	q := make([]float64, len(x))
	for i, v := range x {
		q[i] = math.Max(-full, math.Min(full-1, math.Round(v*full))) / full
	}
	return q
}

func TestStereo(t *testing.T) {
	for _, rate := range []int{16000, 44100, 48000} {
		x, lab := testSignal(rate, 0.5, []float64{0.1, 0.3}, 2)
		inv := applyCond(t, "stereo-inverted", x, rate, lab, nil)
		if len(inv.Ch) != 2 {
			t.Fatalf("stereo-inverted: %d channels", len(inv.Ch))
		}
		for i := range x {
			if inv.Ch[0][i]+inv.Ch[1][i] != 0 || inv.Ch[0][i] != x[i] {
				t.Fatalf("stereo-inverted: sample %d: %g + %g", i, inv.Ch[0][i], inv.Ch[1][i])
			}
		}
		for name, ms := range map[string]float64{"stereo-delay-0.5ms": 0.5, "stereo-delay-3ms": 3} {
			d := applyCond(t, name, x, rate, lab, nil)
			k := int(math.Round(ms / 1000 * float64(rate)))
			l, r := d.Ch[0], d.Ch[1]
			if len(l) != len(x) || len(r) != len(x) {
				t.Fatalf("%s: lengths %d, %d, want %d", name, len(l), len(r), len(x))
			}
			for i := range x {
				want := 0.0
				if i >= k {
					want = x[i-k]
				}
				if r[i] != want || l[i] != x[i] {
					t.Fatalf("%s at %d Hz: sample %d: right %g want %g", name, rate, i, r[i], want)
				}
			}
		}
		dead := applyCond(t, "stereo-dead", x, rate, lab, nil)
		for _, v := range dead.Ch[1] {
			if v != 0 {
				t.Fatal("stereo-dead: the right channel is not zeros")
			}
		}
		dn := applyCond(t, "stereo-dead-noise", x, rate, lab, nil)
		if got := powerDB(meanPower(dn.Ch[1])); math.Abs(got+70) > 0.1 {
			t.Errorf("stereo-dead-noise: right channel at %.2f dBFS RMS, want −70", got)
		}
	}
}

func TestGate(t *testing.T) {
	const rate = 16000
	onsets := []float64{0.5, 1.5, 2.5}
	x, lab := testSignal(rate, 3, onsets, 3)
	for _, name := range []string{"gate-zero-fast", "gate-zero-slow", "gate-duck30", "gate-duck30-slow"} {
		out := applyCond(t, name, x, rate, lab, nil).Ch[0]
		duck := name == "gate-duck30" || name == "gate-duck30-slow"
		for _, o := range onsets {
			a := int(o * rate)
			// quiet, well before the burst: closed
			for i := a - int(0.3*rate); i < a-int(0.01*rate); i++ {
				want := 0.0
				if duck {
					want = x[i] * dbToAmp(-30)
				}
				if math.Abs(out[i]-want) > 1e-15 || (!duck && out[i] != 0) {
					t.Fatalf("%s: sample %d (%.3f s) in a quiet part is %g, want %g", name, i, float64(i)/rate, out[i], want)
				}
			}
			// the burst, once the gate has opened (1 ms late, 1.5 ms attack): untouched
			for i := a + int(0.003*rate); i < a+int(0.05*rate); i++ {
				if out[i] != x[i] {
					t.Fatalf("%s: burst sample %d is %g, want %g", name, i, out[i], x[i])
				}
			}
			// the very start of the burst is let through late
			if out[a] == x[a] && x[a] != 0 {
				t.Errorf("%s: the gate was already open at the onset", name)
			}
		}
	}
}

// sineAt is amplitude a at f Hz, n samples at rate.
func sineAt(n, rate int, f, a float64) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = a * math.Sin(2*math.Pi*f*float64(i)/float64(rate))
	}
	return x
}

func TestResampler(t *testing.T) {
	pairs := [][2]int{{44100, 8000}, {44100, 16000}, {44100, 48000}, {44100, 96000}, {22050, 96000}, {16000, 48000}, {48000, 8000}, {16000, 44100}}
	for _, p := range pairs {
		fin, fout := p[0], p[1]
		n := fin / 4
		x := sineAt(n, fin, 1000, 0.5)
		y, err := resample(x, fin, fout)
		if err != nil {
			t.Fatal(err)
		}
		if want := (n*fout + fin - 1) / fin; len(y) != want {
			t.Errorf("%d→%d: %d samples, want %d", fin, fout, len(y), want)
		}
		// compare with the ideal sine away from the edges: amplitude and timing
		ideal := sineAt(len(y), fout, 1000, 0.5)
		a, b := len(y)/4, 3*len(y)/4
		got := 20 * math.Log10(math.Sqrt(meanPower(y[a:b]))/math.Sqrt(meanPower(ideal[a:b])))
		if math.Abs(got) > 0.2 {
			t.Errorf("%d→%d: 1 kHz sine changed by %.3f dB", fin, fout, got)
		}
		errp := 0.0
		for i := a; i < b; i++ {
			errp += (y[i] - ideal[i]) * (y[i] - ideal[i])
		}
		if e := powerDB(errp/float64(b-a)) - powerDB(meanPower(ideal[a:b])); e > -60 {
			t.Errorf("%d→%d: residual against the ideal sine %.1f dB (delayed or distorted)", fin, fout, e)
		}
		// an out-of-band tone (above the new Nyquist) is removed
		if fout < fin {
			f := 0.6 * float64(fout)
			z, _ := resample(sineAt(n, fin, f, 0.5), fin, fout)
			lv := powerDB(meanPower(z[len(z)/4:3*len(z)/4])) - powerDB(0.125)
			if lv > -60 {
				t.Errorf("%d→%d: a %.0f Hz tone comes through at %.1f dB", fin, fout, f, lv)
			}
		}
	}
	if _, err := resample(make([]float64, 10), 44101, 48000); err == nil {
		t.Error("a pathological rate pair was accepted")
	}
}

func TestNoiseSNR(t *testing.T) {
	dir := t.TempDir()
	// a small voices corpus of our own: two talkers' worth of modulated noise
	for k, rate := range []int{16000, 44100} {
		rng := rand.New(rand.NewPCG(uint64(k), 9))
		x := pinkNoise(rate*3, rng)
		for i := range x {
			x[i] *= 0.1 * (1.2 + math.Sin(2*math.Pi*4*float64(i)/float64(rate)))
		}
		if err := writeWAV(filepath.Join(dir, "v"+string(rune('0'+k))+".wav"), rate, [][]float64{x, x}, Int16); err != nil {
			t.Fatal(err)
		}
	}
	v, err := loadVoices(dir)
	if err != nil {
		t.Fatal(err)
	}
	env := &Env{Voices: v}
	for _, rate := range []int{22050, 44100} {
		x, lab := testSignal(rate, 5, []float64{0.5, 1.2, 2.5, 4}, 4)
		ps := gesturePower(x, rate, lab.Onsets)
		pf := meanPower(x)
		for name, snr := range map[string]float64{"pink-20dB": 20, "pink-10dB": 10, "babble-20dB": 20, "babble-10dB": 10,
			"pink-20dB-file": 20, "pink-10dB-file": 10, "babble-20dB-file": 20, "babble-10dB-file": 10} {
			out := applyCond(t, name, x, rate, lab, env)
			n := make([]float64, len(x))
			for i := range x {
				n[i] = out.Ch[0][i] - x[i]
			}
			ref := ps
			if strings.HasSuffix(name, "-file") {
				ref = pf
			}
			got := powerDB(ref) - powerDB(meanPower(n))
			if math.Abs(got-snr) > 0.5 {
				t.Errorf("%s at %d Hz: SNR %.2f dB, want %g", name, rate, got, snr)
			}
			if name[0] == 'b' && (len(out.Lab.Speech) != 1 || out.Lab.Speech[0][1] < 4.99) {
				t.Errorf("%s: speech labels %v, want the whole file", name, out.Lab.Speech)
			}
		}
	}
	// gated-noise: no gestures, digital zeros somewhere, speech everywhere
	c, err := gatedNoise(v, 10, 16000, rand.New(rand.NewPCG(1, 2)), true)
	if err != nil {
		t.Fatal(err)
	}
	zeros := 0
	for _, s := range c.Ch[0] {
		if s == 0 {
			zeros++
		}
	}
	if c.frames() != 160000 || len(c.Lab.Onsets) != 0 || zeros == 0 || zeros == c.frames() {
		t.Errorf("gated-noise: %d frames, %d onsets, %d exact zeros", c.frames(), len(c.Lab.Onsets), zeros)
	}
}

func TestSilenceInsertion(t *testing.T) {
	const rate = 16000
	x, lab := testSignal(rate, 10, []float64{1, 1.4, 5, 5.3, 8.8}, 5)
	lab.Codes = []Code{{Start: 1, End: 1.4, Claps: 2}, {Start: 5, End: 5.3, Claps: 2}, {Start: 8.8, End: 8.8, Claps: 1}}
	lab.Speech = [][2]float64{{2.0, 3.4}}                   // covers the middle of the first gap (3.2)
	lab.Distractors = []Distractor{{T: 7.0, Kind: "glass"}} // covers the middle of the second (7.05)

	zf := applyCond(t, "zeros-first", x, rate, lab, nil)
	if len(zf.Ch[0]) != len(x)+rate || zf.Lab.Onsets[0].T != 2 || zf.Lab.Codes[2].End != 9.8 {
		t.Errorf("zeros-first: %d samples, onsets %v", len(zf.Ch[0]), zf.Lab.Onsets)
	}
	for _, v := range zf.Ch[0][:rate] {
		if v != 0 {
			t.Fatal("zeros-first: not exact zeros")
		}
	}

	pts := betweenCodes(lab)
	if len(pts) != 2 {
		t.Fatalf("betweenCodes: %v, want two points", pts)
	}
	for _, p := range pts {
		if p > 1.951 && p < 3.449 || p > 6.901 && p < 7.299 {
			t.Errorf("insertion point %.2f cuts a speech span or clink", p)
		}
	}
	zb := applyCond(t, "zeros-between", x, rate, lab, nil)
	if len(zb.Ch[0]) != len(x)+rate {
		t.Fatalf("zeros-between: %d samples, want %d", len(zb.Ch[0]), len(x)+rate)
	}
	wantT := []float64{1, 1.4, 5.5, 5.8, 9.8}
	for i, o := range zb.Lab.Onsets {
		if math.Abs(o.T-wantT[i]) > 1e-9 {
			t.Errorf("zeros-between: onset %d at %g, want %g", i, o.T, wantT[i])
		}
	}
	if s := zb.Lab.Speech[0]; s != [2]float64{2.0, 3.4} {
		t.Errorf("zeros-between: speech moved to %v", s)
	}
	if d := zb.Lab.Distractors[0].T; math.Abs(d-8) > 1e-9 {
		t.Errorf("zeros-between: clink at %g", d)
	}
	// the audio around each labelled onset is the original's
	for i, o := range zb.Lab.Onsets {
		a, b := int(math.Round(o.T*rate)), int(math.Round(lab.Onsets[i].T*rate))
		for k := 0; k < rate/10; k++ {
			if zb.Ch[0][a+k] != x[b+k] {
				t.Fatalf("zeros-between: onset %d's audio moved", i)
			}
		}
	}
	for _, p := range pts {
		a := int(math.Round(p * rate))
		// the zeros sit at p plus the zeros inserted before it
		if p > pts[0] {
			a += rate / 2
		}
		for _, v := range zb.Ch[0][a : a+rate/2] {
			if v != 0 {
				t.Fatalf("zeros-between: no exact zeros at %.2f s", p)
			}
		}
	}

	fi := applyCond(t, "fade-in", x, rate, lab, nil)
	if len(fi.Ch[0]) != len(x)+rate || fi.Ch[0][rate] != 0 || fi.Ch[0][rate+rate] != x[rate]*0.5 || fi.Ch[0][3*rate+5] != x[2*rate+5] {
		t.Error("fade-in: wrong ramp or offset")
	}
}

func TestReverbAndClip(t *testing.T) {
	const rate = 16000
	h := roomIR(rate, 0.6, rand.New(rand.NewPCG(1, 1)))
	direct := h[0] * h[0]
	rest := meanPower(h[1:]) * float64(len(h)-1)
	if drr := 10 * math.Log10(direct/rest); math.Abs(drr) > 0.01 {
		t.Errorf("direct-to-reverberant ratio %.2f dB, want 0", drr)
	}
	// decay: the last 100 ms are 60 dB under the first 100 ms after the build-up, give or take
	e1 := meanPower(h[int(0.02*rate):int(0.12*rate)])
	e2 := meanPower(h[int(0.62*rate):int(0.72*rate)])
	if d := powerDB(e1) - powerDB(e2); d < 50 || d > 70 {
		t.Errorf("the tail falls %.1f dB in 0.6 s, want about 60", d)
	}
	// FFT convolution against direct convolution
	x, lab := testSignal(rate, 1, []float64{0.2}, 6)
	y := convolve(x, h)
	for _, i := range []int{0, 100, 3200, 9000, len(x) - 1} {
		s := 0.0
		for k := 0; k <= i && k < len(h); k++ {
			s += h[k] * x[i-k]
		}
		if math.Abs(s-y[i]) > 1e-9 {
			t.Fatalf("convolve: sample %d is %g, want %g", i, y[i], s)
		}
	}
	rv := applyCond(t, "reverb", x, rate, lab, nil)
	if len(rv.Ch[0]) != len(x) || peak(rv.Ch[0]) > 0.98+1e-12 {
		t.Errorf("reverb: %d samples, peak %g", len(rv.Ch[0]), peak(rv.Ch[0]))
	}
	cl := applyCond(t, "clip-12dB", x, rate, lab, nil)
	for i, v := range cl.Ch[0] {
		want := math.Max(-1, math.Min(1, x[i]*dbToAmp(12)))
		if v != want {
			t.Fatalf("clip-12dB: sample %d is %g, want %g", i, v, want)
		}
	}
	lg := applyCond(t, "laptop-8k-gate", x, rate, lab, nil)
	if lg.Rate != 8000 || len(lg.Ch[0]) != len(x)/2 {
		t.Errorf("laptop-8k-gate: %d Hz, %d samples", lg.Rate, len(lg.Ch[0]))
	}
	// rate-8k-up: 48 kHz again, but a tone above 4 kHz is gone and one under
	// it kept
	hi, lo := sineAt(16000, rate, 6000, 0.5), sineAt(16000, rate, 1000, 0.5)
	for i := range hi {
		hi[i] += lo[i]
	}
	up := applyCond(t, "rate-8k-up", hi, rate, lab, nil)
	if up.Rate != 48000 || len(up.Ch[0]) != len(hi)*48000/rate {
		t.Fatalf("rate-8k-up: %d Hz, %d samples", up.Rate, len(up.Ch[0]))
	}
	got := up.Ch[0][4800 : len(up.Ch[0])-4800]
	if p := peak(got); p < 0.45 || p > 0.55 {
		t.Errorf("rate-8k-up: peak %g, want the 1 kHz tone alone (0.5)", p)
	}
}

func TestWAVRoundTrip(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(7, 7))
	formats := []Format{{Bits: 16}, {Bits: 24}, {Bits: 32}, {Bits: 32, Float: true}, {Bits: 64, Float: true}}
	for _, f := range formats {
		for _, nch := range []int{1, 2, 3} {
			for _, rate := range []int{8000, 44100, 96000} {
				n := 1001 // odd: the data chunk may need padding
				x := make([]float64, n)
				for i := range x {
					x[i] = math.Max(-1, math.Min(1, rng.NormFloat64()*0.3))
				}
				x[0], x[1], x[2] = 0, 1, -1
				chans := make([][]float64, nch)
				for c := range chans {
					chans[c] = x // identical channels: the audio package's mixdown gives x back
				}
				path := filepath.Join(dir, "t.wav")
				if err := writeWAV(path, rate, chans, f); err != nil {
					t.Fatal(err)
				}
				w, err := audio.OpenWAV(path)
				if err != nil {
					t.Fatalf("%s ×%d @%d: OpenWAV: %v", f, nch, rate, err)
				}
				info := w.Info()
				if info.SampleRate != rate || info.Channels != nch || info.Bits != f.Bits || info.Float != f.Float || info.Frames != int64(n) {
					t.Fatalf("%s ×%d @%d: Info %+v", f, nch, rate, info)
				}
				got := make([]float64, 0, n)
				buf := make([]float64, 256)
				for {
					k, err := w.Read(buf)
					got = append(got, buf[:k]...)
					if err == io.EOF {
						break
					}
					if err != nil {
						t.Fatal(err)
					}
				}
				w.Close()
				if len(got) != n {
					t.Fatalf("%s ×%d: read %d samples, want %d", f, nch, len(got), n)
				}
				tol := 1e-15 // the mixdown of identical float64 channels may round
				switch {
				case f.Float && f.Bits == 32:
					tol = 1e-7
				case !f.Float:
					tol = 1.0001 / float64(int64(1)<<(f.Bits-1))
				}
				for i := range x {
					if math.Abs(got[i]-x[i]) > tol {
						t.Fatalf("%s ×%d @%d: sample %d reads %g, wrote %g", f, nch, rate, i, got[i], x[i])
					}
				}
				if got[0] != 0 {
					t.Fatalf("%s: zero reads back as %g", f, got[0])
				}
			}
		}
	}
	// integer files keep their channels through our own reader
	chans := [][]float64{sineAt(500, 8000, 440, 0.5), sineAt(500, 8000, 440, -0.25), make([]float64, 500)}
	for _, bits := range []int{16, 24, 32} {
		path := filepath.Join(dir, "c.wav")
		if err := writeWAV(path, 8000, chans, Format{Bits: bits}); err != nil {
			t.Fatal(err)
		}
		rate, got, b, err := readWAV(path)
		if err != nil || rate != 8000 || b != bits || len(got) != 3 {
			t.Fatalf("readWAV %d-bit: %v %d %d %d", bits, err, rate, b, len(got))
		}
		for c := range chans {
			for i, v := range chans[c] {
				if math.Abs(got[c][i]-v) > 1/float64(int64(1)<<(bits-1)) {
					t.Fatalf("readWAV %d-bit: channel %d sample %d: %g, want %g", bits, c, i, got[c][i], v)
				}
			}
		}
	}
	// a file that is not a WAV gives an error, not a panic
	bad := filepath.Join(dir, "bad.wav")
	os.WriteFile(bad, []byte("RIFF\x04\x00\x00\x00WAVEjunk"), 0o644)
	if _, _, _, err := readWAV(bad); err == nil {
		t.Error("readWAV accepted a broken file")
	}
}
