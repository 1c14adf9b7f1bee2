package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"

	"gonum.org/v1/gonum/dsp/fourier"
)

// biquad is one second-order section (RBJ's audio EQ cookbook), run in
// transposed direct form II.
type biquad struct{ b0, b1, b2, a1, a2, z1, z2 float64 }

func (q *biquad) run(x []float64) {
	for i, v := range x {
		y := q.b0*v + q.z1
		q.z1 = q.b1*v - q.a1*y + q.z2
		q.z2 = q.b2*v - q.a2*y
		x[i] = y
	}
}

func norm(b0, b1, b2, a0, a1, a2 float64) *biquad {
	return &biquad{b0: b0 / a0, b1: b1 / a0, b2: b2 / a0, a1: a1 / a0, a2: a2 / a0}
}

// clampHz keeps a corner frequency inside the band a rate can carry.
func clampHz(hz float64, rate int) float64 { return math.Max(5, math.Min(hz, 0.45*float64(rate))) }

func lowPass(hz, q float64, rate int) *biquad {
	w := 2 * math.Pi * clampHz(hz, rate) / float64(rate)
	al := math.Sin(w) / (2 * q)
	c := math.Cos(w)
	return norm((1-c)/2, 1-c, (1-c)/2, 1+al, -2*c, 1-al)
}

func highPass(hz, q float64, rate int) *biquad {
	w := 2 * math.Pi * clampHz(hz, rate) / float64(rate)
	al := math.Sin(w) / (2 * q)
	c := math.Cos(w)
	return norm((1+c)/2, -(1 + c), (1+c)/2, 1+al, -2*c, 1-al)
}

// bandPass has a peak gain of 1 at hz.
func bandPass(hz, q float64, rate int) *biquad {
	w := 2 * math.Pi * clampHz(hz, rate) / float64(rate)
	al := math.Sin(w) / (2 * q)
	c := math.Cos(w)
	return norm(al, 0, -al, 1+al, -2*c, 1-al)
}

func peaking(hz, q, gainDB float64, rate int) *biquad {
	w := 2 * math.Pi * clampHz(hz, rate) / float64(rate)
	al := math.Sin(w) / (2 * q)
	c := math.Cos(w)
	a := math.Pow(10, gainDB/40)
	return norm(1+al*a, -2*c, 1-al*a, 1+al/a, -2*c, 1-al/a)
}

func filter(x []float64, qs ...*biquad) {
	for _, q := range qs {
		q.run(x)
	}
}

func peakAbs(x []float64) float64 {
	p := 0.0
	for _, v := range x {
		p = math.Max(p, math.Abs(v))
	}
	return p
}

func rms(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	s := 0.0
	for _, v := range x {
		s += v * v
	}
	return math.Sqrt(s / float64(len(x)))
}

func scale(x []float64, g float64) {
	for i := range x {
		x[i] *= g
	}
}

func dbToAmp(db float64) float64 { return math.Pow(10, db/20) }

// fadeEnds tapers the first a and last b samples of x with half cosines.
func fadeEnds(x []float64, a, b int) {
	a, b = min(a, len(x)/2), min(b, len(x)/2)
	for i := 0; i < a; i++ {
		x[i] *= 0.5 - 0.5*math.Cos(math.Pi*float64(i)/float64(a))
	}
	for i := 0; i < b; i++ {
		x[len(x)-1-i] *= 0.5 - 0.5*math.Cos(math.Pi*float64(i)/float64(b))
	}
}

// convolve returns x convolved with h (full length), by FFT overlap-add.
func convolve(x, h []float64) []float64 {
	if len(x) == 0 || len(h) == 0 {
		return nil
	}
	out := make([]float64, len(x)+len(h)-1)
	block := 1 << 15
	n := 1
	for n < block+len(h)-1 {
		n <<= 1
	}
	fft := fourier.NewFFT(n)
	hb := make([]float64, n)
	copy(hb, h)
	hf := fft.Coefficients(nil, hb)
	buf := make([]float64, n)
	var cf []complex128
	for at := 0; at < len(x); at += block {
		clear(buf)
		copy(buf, x[at:min(at+block, len(x))])
		cf = fft.Coefficients(cf, buf)
		for k := range cf {
			cf[k] *= hf[k]
		}
		y := fft.Sequence(buf, cf)
		for i := 0; i < n && at+i < len(out); i++ {
			out[at+i] += y[i] / float64(n)
		}
	}
	return out
}

// spectralShape filters x by a random smooth magnitude response given in
// dB at log-spaced points (a microphone's or a phone's colour), zero phase.
func spectralShape(x []float64, rate int, pointsHz, gainsDB []float64) []float64 {
	n := 1
	for n < len(x) {
		n <<= 1
	}
	fft := fourier.NewFFT(n)
	buf := make([]float64, n)
	copy(buf, x)
	cf := fft.Coefficients(nil, buf)
	for k := range cf {
		f := float64(k) * float64(rate) / float64(n)
		cf[k] *= complex(dbToAmp(interpLog(f, pointsHz, gainsDB)), 0)
	}
	y := fft.Sequence(buf, cf)
	out := make([]float64, len(x))
	for i := range out {
		out[i] = y[i] / float64(n)
	}
	return out
}

// interpLog interpolates gains over log frequency, flat beyond the ends.
func interpLog(f float64, hz, g []float64) float64 {
	if f <= hz[0] {
		return g[0]
	}
	for i := 1; i < len(hz); i++ {
		if f <= hz[i] {
			t := (math.Log(f) - math.Log(hz[i-1])) / (math.Log(hz[i]) - math.Log(hz[i-1]))
			return g[i-1] + t*(g[i]-g[i-1])
		}
	}
	return g[len(g)-1]
}

// pink is unit-RMS pink noise (Paul Kellet's filter over white noise).
func pink(r *rand.Rand, n int) []float64 {
	x := make([]float64, n)
	var b0, b1, b2, b3, b4, b5, b6 float64
	for i := range x {
		w := r.NormFloat64()
		b0 = 0.99886*b0 + w*0.0555179
		b1 = 0.99332*b1 + w*0.0750759
		b2 = 0.96900*b2 + w*0.1538520
		b3 = 0.86650*b3 + w*0.3104856
		b4 = 0.55000*b4 + w*0.5329522
		b5 = -0.7616*b5 - w*0.0168980
		x[i] = b0 + b1 + b2 + b3 + b4 + b5 + b6 + w*0.5362
		b6 = w * 0.115926
	}
	scale(x, 1/math.Max(rms(x), 1e-12))
	return x
}

// brown is unit-RMS brown (1/f²) noise with its lowest octaves taken away.
func brown(r *rand.Rand, n, rate int) []float64 {
	x := make([]float64, n)
	v := 0.0
	for i := range x {
		v = 0.998*v + r.NormFloat64()
		x[i] = v
	}
	filter(x, highPass(20, 0.7, rate))
	scale(x, 1/math.Max(rms(x), 1e-12))
	return x
}

// sox runs sox over raw 32-bit float mono input at rate and returns its
// output as floats at outRate (effects as sox takes them).
func sox(x []float64, rate, outRate int, effects ...string) []float64 {
	in := rawFloats(x)
	args := []string{"-V1", "-R", "-t", "raw", "-e", "floating-point", "-b", "32", "-L", "-r", fmt.Sprint(rate), "-c", "1", "-",
		"-t", "raw", "-e", "floating-point", "-b", "32", "-L", "-r", fmt.Sprint(outRate), "-c", "1", "-"}
	args = append(args, effects...)
	cmd := exec.Command("sox", args...)
	cmd.Stdin = bytes.NewReader(in)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		fail("sox %v: %v: %s", effects, err, errb.String())
	}
	return fromRaw(out.Bytes())
}

// resample changes x's rate with sox's high-quality resampler.
func resample(x []float64, from, to int) []float64 {
	if from == to {
		return append([]float64(nil), x...)
	}
	return sox(x, from, to, "rate", "-v", fmt.Sprint(to))
}

// codec sends x through a lossy codec with ffmpeg and back, keeping its
// length and rate; the codec's own delay is cut by aligning on the input.
func codec(x []float64, rate int, args []string, tmp string) []float64 {
	raw := tmp + "/codec-in.f32"
	enc := tmp + "/codec." + args[0]
	if err := os.WriteFile(raw, rawFloats(x), 0o644); err != nil {
		fail("%v", err)
	}
	run := func(a ...string) {
		if o, err := exec.Command("ffmpeg", append([]string{"-hide_banner", "-loglevel", "error", "-y"}, a...)...).CombinedOutput(); err != nil {
			fail("ffmpeg %v: %v: %s", a, err, o)
		}
	}
	run(append([]string{"-f", "f32le", "-ar", fmt.Sprint(rate), "-ac", "1", "-i", raw}, append(args[1:], enc)...)...)
	run("-i", enc, "-f", "f32le", "-ar", fmt.Sprint(rate), "-ac", "1", raw)
	b, err := os.ReadFile(raw)
	if err != nil {
		fail("%v", err)
	}
	y := fromRaw(b)
	// align: the lag (0-100 ms) that best matches the output to the input
	best, lag := -1.0, 0
	span := min(len(x), rate*4)
	for d := 0; d < rate/10 && d+span <= len(y); d += 1 {
		var s float64
		for i := 0; i < span; i += 4 {
			s += x[i] * y[i+d]
		}
		if s > best {
			best, lag = s, d
		}
	}
	out := make([]float64, len(x))
	if lag < len(y) {
		copy(out, y[lag:])
	}
	return out
}

func rawFloats(x []float64) []byte {
	b := make([]byte, 4*len(x))
	for i, v := range x {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(float32(v)))
	}
	return b
}

func fromRaw(b []byte) []float64 {
	x := make([]float64, len(b)/4)
	for i := range x {
		x[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:])))
	}
	return x
}

func fail(format string, a ...any) {
	fmt.Fprintf(os.Stderr, "tablecorpus: "+format+"\n", a...)
	os.Exit(1)
}
