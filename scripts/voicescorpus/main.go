// Command voicescorpus builds a held-out Insomnia voices corpus in the format
// of shared/corpus/voices: 3–6 espeak-ng voices talking at once with no
// gaps, except labelled pauses (1–3 s, every voice silent) and labelled
// shouts (one voice about 12 dB louder than it talks otherwise). Optionally
// a steady pink or brown noise (a fan, a fridge) sits some 15 dB below the
// talk.
//
//	go run ./scripts/voicescorpus -out DIR [-n 16] [-seed 1] [-noise none|pink|brown|mixed] [-snr 15]
//
// The scorer beside it, score.py, adds false shouts to
// ../shared/tools/score-voices' figures.
//
// Everything is drawn from the seed: the voices (espeak-ng languages and
// variants, pitch, speed), their words, levels, the pauses and shouts, the
// sample rate (16, 22.05, 44.1 or 48 kHz), channels (mono or stereo) and
// bits (16 or 24). The same seed and espeak-ng give the same files. Shouts
// may start anywhere, from the first half second on.
package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

type shout struct {
	Start float64 `json:"start"`
	End   float64 `json:"end"`
	Voice int     `json:"voice"`
}

type label struct {
	Tier       string       `json:"tier"`
	Voices     int          `json:"voices"`
	Pauses     [][2]float64 `json:"pauses"`
	Shouts     []shout      `json:"shouts"`
	File       string       `json:"file"`
	SampleRate int          `json:"sample_rate"`
	Channels   int          `json:"channels"`
	Bits       int          `json:"bits"`
	Duration   float64      `json:"duration"`
	Noise      string       `json:"noise,omitempty"`    // pink or brown, steady
	NoiseDB    float64      `json:"noise_db,omitempty"` // the noise below the talk, dB
	ShoutDB    float64      `json:"shout_db,omitempty"` // mean gain of the shouts, dB
	Seed       int64        `json:"seed"`
	Languages  []string     `json:"languages,omitempty"` // each voice's espeak-ng voice
}

// espeak-ng voices (languages) and variants used.
var (
	languages = []string{"en", "en-us", "en-gb-scotland", "en-gb-x-rp", "en-gb-x-gbclan", "en-gb-x-gbcwmd", "en-029", "en-us-nyc",
		"de", "fr", "es", "it", "nl", "pl", "sv", "pt"}
	variants = []string{"m1", "m2", "m3", "m4", "m5", "m6", "m7", "f1", "f2", "f3", "f4", "f5", "klatt", "klatt2", "klatt3",
		"adam", "anika", "john", "linda", "max", "paul", "grandma", "grandpa", "edward", "iven", "michel", "norbert", "aunty", "david", "belinda"}
	words = strings.Fields(`the a one two three four five six seven eight nine ten card deck voice higher lower red black
		spade heart club diamond sleep dream night pillow blanket clock alarm morning tired yawn whisper quiet loud
		table chair window door garden kitchen coffee tea milk bread butter apple orange banana cherry lemon pepper
		salt sugar green blue yellow purple silver golden happy sad funny strange yes no maybe never always often
		today tomorrow yesterday again really quite very almost nearly perhaps certainly surely indeed matches
		number colour king queen jack ace joker round turn move play draw show answer silent talking still`)
)

// speech is one voice's continuous talk, at the working rate.
func speech(r *rand.Rand, lang, variant string, pitch, speed int, seconds float64) ([]float64, error) {
	var out []float64
	for float64(len(out))/workRate < seconds {
		n := 6 + r.Intn(10)
		ws := make([]string, n)
		for i := range ws {
			ws[i] = words[r.Intn(len(words))]
		}
		cmd := exec.Command("espeak-ng", "--stdout", "-v", lang+"+"+variant, "-p", fmt.Sprint(pitch), "-s", fmt.Sprint(speed), "-g", "0", "--", strings.Join(ws, " "))
		b, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("espeak-ng -v %s+%s: %v", lang, variant, err)
		}
		x, rate, err := readWAV(b)
		if err != nil {
			return nil, err
		}
		x = trim(resample(x, rate, workRate), 0.01)
		out = append(out, x...)
	}
	return out[:int(seconds*workRate)], nil
}

const workRate = 48000

// trim cuts leading and trailing stretches quieter than thr (of the peak).
func trim(x []float64, thr float64) []float64 {
	var peak float64
	for _, v := range x {
		peak = math.Max(peak, math.Abs(v))
	}
	a, b := 0, len(x)
	for a < b && math.Abs(x[a]) < thr*peak {
		a++
	}
	for b > a && math.Abs(x[b-1]) < thr*peak {
		b--
	}
	return x[a:b]
}

func resample(x []float64, from, to int) []float64 {
	if from == to {
		return x
	}
	n := int(int64(len(x)) * int64(to) / int64(from))
	out := make([]float64, n)
	step := float64(from) / float64(to)
	for i := range out {
		p := float64(i) * step
		j := int(p)
		f := p - float64(j)
		a := x[min(j, len(x)-1)]
		b := x[min(j+1, len(x)-1)]
		out[i] = a + (b-a)*f
	}
	return out
}

// readWAV reads espeak-ng's 16-bit mono WAV output.
func readWAV(b []byte) ([]float64, int, error) {
	if len(b) < 44 || string(b[:4]) != "RIFF" {
		return nil, 0, fmt.Errorf("espeak-ng gave no WAV")
	}
	rate := int(binary.LittleEndian.Uint32(b[24:28]))
	// espeak-ng streams with a placeholder data size: read to the end.
	i := 12
	for i+8 <= len(b) {
		id, size := string(b[i:i+4]), int(binary.LittleEndian.Uint32(b[i+4:i+8]))
		if id == "data" {
			d := b[i+8:]
			if size > 0 && size <= len(d) {
				d = d[:size]
			}
			x := make([]float64, len(d)/2)
			for k := range x {
				x[k] = float64(int16(binary.LittleEndian.Uint16(d[2*k:]))) / 32768
			}
			return x, rate, nil
		}
		i += 8 + size
	}
	return nil, 0, fmt.Errorf("espeak-ng's WAV has no data")
}

func rms(x []float64) float64 {
	var s float64
	n := 0
	for _, v := range x {
		s += v * v
		n++
	}
	if n == 0 {
		return 0
	}
	return math.Sqrt(s / float64(n))
}

// activeRMS is the RMS over 20 ms frames within 30 dB of the loudest.
func activeRMS(x []float64) float64 {
	const fr = workRate / 50
	var es []float64
	var top float64
	for i := 0; i+fr <= len(x); i += fr {
		e := rms(x[i : i+fr])
		es = append(es, e)
		top = math.Max(top, e)
	}
	var s float64
	n := 0
	for _, e := range es {
		if e > top*0.03 {
			s += e * e
			n++
		}
	}
	return math.Sqrt(s / float64(max(1, n)))
}

// ramp is a gain envelope: g inside [a, b), 1 outside, with fades of f
// seconds.
func ramp(t, a, b, g, f float64) float64 {
	switch {
	case t < a-f || t >= b+f:
		return 1
	case t < a:
		return 1 + (g-1)*(t-(a-f))/f
	case t < b:
		return g
	default:
		return g + (1-g)*(t-b)/f
	}
}

// noise is a steady coloured noise of unit RMS.
func noise(r *rand.Rand, kind string, n int) []float64 {
	x := make([]float64, n)
	var b0, b1, b2, b3, b4, b5, b6, brown float64
	for i := range x {
		w := r.NormFloat64()
		switch kind {
		case "pink": // Paul Kellet's filter
			b0 = 0.99886*b0 + w*0.0555179
			b1 = 0.99332*b1 + w*0.0750759
			b2 = 0.96900*b2 + w*0.1538520
			b3 = 0.86650*b3 + w*0.3104856
			b4 = 0.55000*b4 + w*0.5329522
			b5 = -0.7616*b5 - w*0.0168980
			x[i] = b0 + b1 + b2 + b3 + b4 + b5 + b6 + w*0.5362
			b6 = w * 0.115926
		default: // brown: leaky integration
			brown = 0.998*brown + w*0.05
			x[i] = brown
		}
	}
	g := 1 / rms(x)
	for i := range x {
		x[i] *= g
	}
	return x
}

// encode writes PCM WAV.
func encode(ch [][]float64, rate, bits int) []byte {
	var buf bytes.Buffer
	n := len(ch[0])
	bps := bits / 8
	data := n * len(ch) * bps
	le := binary.LittleEndian
	buf.WriteString("RIFF")
	binary.Write(&buf, le, uint32(36+data))
	buf.WriteString("WAVEfmt ")
	binary.Write(&buf, le, uint32(16))
	binary.Write(&buf, le, uint16(1))
	binary.Write(&buf, le, uint16(len(ch)))
	binary.Write(&buf, le, uint32(rate))
	binary.Write(&buf, le, uint32(rate*len(ch)*bps))
	binary.Write(&buf, le, uint16(len(ch)*bps))
	binary.Write(&buf, le, uint16(bits))
	buf.WriteString("data")
	binary.Write(&buf, le, uint32(data))
	full := math.Pow(2, float64(bits-1)) - 1
	for i := 0; i < n; i++ {
		for _, c := range ch {
			v := int32(math.Round(math.Max(-1, math.Min(1, c[i])) * full))
			if bits == 16 {
				binary.Write(&buf, le, int16(v))
			} else {
				buf.Write([]byte{byte(v), byte(v >> 8), byte(v >> 16)})
			}
		}
	}
	return buf.Bytes()
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }

// plan draws the pauses and shouts of a file of length dur.
func plan(r *rand.Rand, dur float64, voices int) (pauses [][2]float64, shouts []shout) {
	// Pauses: 1–3 s, at least 4 s of talk between them and from the ends.
	t := 4 + 4*r.Float64()
	for t+3 < dur-3 {
		l := 1 + 2*r.Float64()
		pauses = append(pauses, [2]float64{round3(t), round3(t + l)})
		t += l + 5 + 7*r.Float64()
	}
	// Shouts: 0.8–4 s of one voice, in talk, from 0.4 s on, apart from the
	// pauses and each other by 0.3 s.
	free := func(a, b float64) bool {
		if a < 0.4 || b > dur-0.3 {
			return false
		}
		for _, p := range pauses {
			if a < p[1]+0.3 && b > p[0]-0.3 {
				return false
			}
		}
		for _, s := range shouts {
			if a < s.End+0.3 && b > s.Start-0.3 {
				return false
			}
		}
		return true
	}
	want := 1 + r.Intn(int(dur/6))
	if r.Intn(3) == 0 {
		// A shout at the very start, while the room level is not yet known.
		l := 0.8 + 2.5*r.Float64()
		a := 0.4 + 0.4*r.Float64()
		if free(a, a+l) {
			shouts = append(shouts, shout{round3(a), round3(a + l), r.Intn(voices)})
		}
	}
	for tries := 0; len(shouts) < want && tries < 500; tries++ {
		l := 0.8 + 3.2*r.Float64()
		a := 0.4 + (dur-l-0.7)*r.Float64()
		if free(a, a+l) {
			shouts = append(shouts, shout{round3(a), round3(a + l), r.Intn(voices)})
		}
	}
	return pauses, shouts
}

func main() {
	out := flag.String("out", "", "the directory to write")
	n := flag.Int("n", 16, "how many files")
	seed := flag.Int64("seed", 1, "the seed")
	noiseKind := flag.String("noise", "none", "steady background noise: none, pink, brown or mixed (pink and brown in turn)")
	snr := flag.Float64("snr", 15, "with -noise: dB of the noise below the talk")
	flag.Parse()
	if *out == "" {
		fmt.Fprintln(os.Stderr, "voicescorpus: -out DIR is required")
		os.Exit(2)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "voicescorpus:", err)
		os.Exit(1)
	}
	var names []string
	for i := 0; i < *n; i++ {
		fileSeed := *seed*1000 + int64(i)
		r := rand.New(rand.NewSource(fileSeed))
		voices := 3 + r.Intn(4)
		dur := 30 + 20*r.Float64()
		rate := []int{16000, 22050, 44100, 48000}[r.Intn(4)]
		channels := 1 + r.Intn(2)
		bits := []int{16, 24}[r.Intn(2)]
		base := -32 + 10*r.Float64() // dBFS of one voice, talking
		pauses, shouts := plan(r, dur, voices)

		mix := make([]float64, int(dur*workRate))
		// Each voice starts talking a little after the recording starts,
		// the first within 0.7 s, as at a real table.
		starts := make([]float64, voices)
		for v := range starts {
			starts[v] = 0.1 + 0.8*r.Float64()
		}
		starts[r.Intn(voices)] = 0.1 + 0.6*r.Float64()
		for _, sh := range shouts {
			starts[sh.Voice] = min(starts[sh.Voice], math.Max(0.05, sh.Start-0.1))
		}
		var langs []string
		var gains []float64
		for v := 0; v < voices; v++ {
			lang := languages[r.Intn(len(languages))]
			variant := variants[r.Intn(len(variants))]
			x, err := speech(r, lang, variant, 25+r.Intn(50), 140+r.Intn(60), dur)
			if err != nil {
				fmt.Fprintln(os.Stderr, "voicescorpus:", err)
				os.Exit(1)
			}
			langs = append(langs, lang+"+"+variant)
			level := math.Pow(10, (base+4*r.Float64()-2)/20) / activeRMS(x)
			sg := 10.5 + 3*r.Float64() // this voice's shouts, dB over its talk
			gains = append(gains, sg)
			for i := range x {
				t := float64(i) / workRate
				g := level
				if t < starts[v] {
					continue
				}
				g *= ramp(t, -1, starts[v], 0, 0.02)
				for _, p := range pauses {
					g *= ramp(t, p[0], p[1], 0, 0.02)
				}
				for _, s := range shouts {
					if s.Voice == v {
						g *= ramp(t, s.Start, s.End, math.Pow(10, sg/20), 0.04)
					}
				}
				mix[i] += g * x[i]
			}
		}
		lab := label{Tier: "voices", Voices: voices, Pauses: pauses, Shouts: shouts, SampleRate: rate, Channels: channels, Bits: bits,
			Seed: fileSeed, Languages: langs}
		if lab.Pauses == nil {
			lab.Pauses = [][2]float64{}
		}
		if lab.Shouts == nil {
			lab.Shouts = []shout{}
		}
		var sg float64
		for _, s := range shouts {
			sg += gains[s.Voice]
		}
		if len(shouts) > 0 {
			lab.ShoutDB = math.Round(sg/float64(len(shouts))*10) / 10
		}
		// The room and the microphone are never silent: a faint hiss some
		// 45–55 dB below one voice.
		tone := noise(r, "pink", len(mix))
		tg := math.Pow(10, (base-45-10*r.Float64())/20)
		for i := range mix {
			mix[i] += tg * tone[i]
		}
		kind := *noiseKind
		if kind == "mixed" {
			kind = []string{"pink", "brown"}[i%2]
		}
		if kind == "pink" || kind == "brown" {
			// The talk's level: the mix outside pauses and shouts.
			var talk []float64
			for i := 0; i+workRate/50 <= len(mix); i += workRate / 50 {
				t := float64(i) / workRate
				ok := true
				for _, p := range pauses {
					ok = ok && (t < p[0]-0.1 || t > p[1]+0.1)
				}
				for _, s := range shouts {
					ok = ok && (t < s.Start-0.1 || t > s.End+0.1)
				}
				if ok {
					talk = append(talk, mix[i:i+workRate/50]...)
				}
			}
			g := rms(talk) * math.Pow(10, -(*snr)/20)
			nz := noise(r, kind, len(mix))
			for i := range mix {
				mix[i] += g * nz[i]
			}
			lab.Noise, lab.NoiseDB = kind, *snr
		}
		// The loudest sample at -1 dBFS at most.
		var peak float64
		for _, v := range mix {
			peak = math.Max(peak, math.Abs(v))
		}
		if peak > 0.89 {
			for i := range mix {
				mix[i] *= 0.89 / peak
			}
		}
		y := resample(mix, workRate, rate)
		ch := [][]float64{y}
		if channels == 2 {
			// The second microphone a little quieter.
			z := make([]float64, len(y))
			for i := range y {
				z[i] = 0.9 * y[i]
			}
			ch = append(ch, z)
		}
		name := fmt.Sprintf("held-%03d", i)
		lab.File = name + ".wav"
		lab.Duration = round3(float64(len(y)) / float64(rate))
		if err := os.WriteFile(filepath.Join(*out, lab.File), encode(ch, rate, bits), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "voicescorpus:", err)
			os.Exit(1)
		}
		b, _ := json.MarshalIndent(lab, "", " ")
		if err := os.WriteFile(filepath.Join(*out, name+".json"), b, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "voicescorpus:", err)
			os.Exit(1)
		}
		names = append(names, name)
		fmt.Printf("%s: %d voices, %.1f s, %d Hz, %d ch, %d bit, %d pauses, %d shouts%s\n", name, voices, lab.Duration, rate, channels, bits,
			len(pauses), len(shouts), map[bool]string{true: ", " + kind + " noise", false: ""}[lab.Noise != ""])
	}
	b, _ := json.Marshal(names)
	if err := os.WriteFile(filepath.Join(*out, "manifest.json"), b, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "voicescorpus:", err)
		os.Exit(1)
	}
}
