// Command synth builds a held-out "Woodlouse Chaos" gesture corpus (hand claps and table bangs) in the
// format of shared/corpus/gestures. It mixes real drum-kit samples (hydrogen-drumkits, lmms-common,
// sonic-pi-samples) listed in samples.tsv, espeak-ng speech and glass clinks, using sox for resampling,
// speed (pitch) changes, reverb, laptop band limiting and the final WAV encoding.
//
//	go run ./scripts/synthcorpus -out DIR -n 60 -seed 7
//
// -half 1 / -half 2 restricts every source pool (each clap/bang/glass family of samples.tsv, the espeak voice
// list and the espeak variant list, each sorted and dealt alternately) to one half, so that two corpora made
// with different halves share no recorded sample and no voice or variant:
//
//	go run ./scripts/synthcorpus -out heldA -n 60 -seed 101 -half 1
//	go run ./scripts/synthcorpus -out heldB -n 60 -seed 202 -half 2
package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"github.com/tableref/tableref/scripts/internal/corpuslabel"
	"math"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

type sample struct{ class, family, path string }

type (
	onset      = corpuslabel.Onset
	code       = corpuslabel.Code
	distractor = corpuslabel.Distractor
	label      = corpuslabel.Labels
)

// event is one sound placed in the mix at sample index pos (its first audible sample).
type event struct {
	pos  int
	x    []float64
	gain [2]float64 // per channel
}

var (
	outDir   = flag.String("out", "", "output directory (required)")
	nFiles   = flag.Int("n", 60, "number of files")
	seed     = flag.Int64("seed", 7, "random seed")
	sampTSV  = flag.String("samples", "scripts/synthcorpus/samples.tsv", "sample list")
	debugDir = flag.String("debug", "", "if set, write per-hit details (sample, cents, level) here")
	half     = flag.Int("half", 0, "0: use every sample and voice; 1 or 2: use only that half of every pool")
	tmpDir   string
	rng      *rand.Rand
	usage    = map[string]int{}
)

func uni(a, b float64) float64 { return a + (b-a)*rng.Float64() }
func db(x float64) float64     { return math.Pow(10, x/20) }
func r4(x float64) float64     { return math.Round(x*1e4) / 1e4 }
func r3(x float64) float64     { return math.Round(x*1e3) / 1e3 }

func must(err error) {
	if err != nil {
		panic(err)
	}
}

// soxRaw runs sox with the given input args + effects and returns mono/multi float samples (interleaved).
func soxRaw(in []string, sr, ch int, effects ...string) []float64 {
	args := append([]string{"-V1", "-R"}, in...)
	args = append(args, "-t", "raw", "-e", "floating-point", "-b", "32", "-L", "-r", fmt.Sprint(sr), "-c", fmt.Sprint(ch), "-")
	args = append(args, effects...)
	cmd := exec.Command("sox", args...)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		panic(fmt.Sprintf("sox %q: %v: %s", args, err, stderr.String()))
	}
	b := out.Bytes()
	x := make([]float64, len(b)/4)
	for i := range x {
		x[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:])))
	}
	return x
}

func writeRaw(path string, x []float64) {
	b := make([]byte, 4*len(x))
	for i, v := range x {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(float32(v)))
	}
	must(os.WriteFile(path, b, 0o644))
}

func peak(x []float64) float64 {
	p := 0.0
	for _, v := range x {
		p = math.Max(p, math.Abs(v))
	}
	return p
}

// prepHit loads a sample, changes its speed by `cents` (pitch and length together, as a bigger or smaller
// hand/table would), resamples to sr, normalises the peak to 1 and trims the leading silence so that index 0
// is the start of the attack. Length is capped at maxLen seconds with a short fade.
func prepHit(path string, sr int, cents, maxLen float64) []float64 {
	x := soxRaw([]string{path}, sr, 1, "remix", "-", "speed", fmt.Sprintf("%.1fc", cents), "rate", "-v", fmt.Sprint(sr))
	p := peak(x)
	if p == 0 {
		panic("silent sample " + path)
	}
	for i := range x {
		x[i] /= p
	}
	// attack start: first sample at -30 dB re peak, walked back (max 3 ms) while above -50 dB.
	i1 := 0
	for i1 < len(x) && math.Abs(x[i1]) < db(-30) {
		i1++
	}
	i0 := i1
	for i0 > 0 && i1-i0 < sr*3/1000 && math.Abs(x[i0-1]) >= db(-50) {
		i0--
	}
	x = x[i0:]
	// drop the trailing part below -60 dB
	end := len(x)
	for end > 0 && math.Abs(x[end-1]) < db(-60) {
		end--
	}
	x = x[:end]
	if n := int(maxLen * float64(sr)); len(x) > n {
		x = x[:n]
	}
	fade(x, int(0.06*float64(sr)))
	return x
}

func fade(x []float64, n int) {
	if n > len(x)/2 {
		n = len(x) / 2
	}
	for i := 0; i < n; i++ {
		g := 0.5 - 0.5*math.Cos(math.Pi*float64(i)/float64(n))
		x[len(x)-1-i] *= g
	}
}

// synthClink makes a glass clink: a few inharmonic partials 1.5-6 kHz, sharp attack, exponential decay.
func synthClink(sr int) []float64 {
	dur := uni(0.3, 1.0) // time to about -60 dB
	n := int((dur + 0.05) * float64(sr))
	x := make([]float64, n)
	f0 := uni(1500, 2800)
	ratios := []float64{1, uni(1.9, 2.4), uni(2.6, 3.3), uni(3.5, 4.2)}
	np := 3 + rng.Intn(2)
	nyq := 0.45 * float64(sr)
	for k := 0; k < np; k++ {
		f := f0 * ratios[k]
		if f > 6000 || f > nyq {
			continue
		}
		a := uni(0.3, 1.0) / float64(k+1)
		tau := dur / 6.9 * uni(0.5, 1.0) / (1 + 0.3*float64(k))
		det := uni(0.5, 4) // beating between two nearly degenerate modes
		ph1, ph2 := uni(0, 2*math.Pi), uni(0, 2*math.Pi)
		for i := range x {
			t := float64(i) / float64(sr)
			e := math.Exp(-t / tau)
			x[i] += a * e * (math.Sin(2*math.Pi*f*t+ph1) + 0.6*math.Sin(2*math.Pi*(f+det)*t+ph2))
		}
	}
	// tick of the contact: 1.5 ms of noise
	nt := int(0.0015 * float64(sr))
	for i := 0; i < nt && i < n; i++ {
		x[i] += 0.4 * (rng.Float64()*2 - 1) * (1 - float64(i)/float64(nt))
	}
	// 0.3 ms attack ramp
	na := int(0.0003*float64(sr)) + 1
	for i := 0; i < na; i++ {
		x[i] *= float64(i+1) / float64(na)
	}
	p := peak(x)
	for i := range x {
		x[i] /= p
	}
	fade(x, int(0.02*float64(sr)))
	return x
}

type voice struct {
	v      string
	native string // "en", "de", "fr", ...
}

// person is one party guest: a fixed espeak voice+variant with their own speed and pitch.
type person struct {
	voice
	variant           string
	speed, pitch, amp int
}

var langs = []voice{{"en", "en"}, {"en-us", "en"}, {"en-gb-x-rp", "en"}, {"en-gb-scotland", "en"}, {"en-029", "en"},
	{"en-gb-x-gbclan", "en"}, {"en-gb-x-gbcwmd", "en"}, {"en-us-nyc", "en"}, {"de", "de"}, {"fr-fr", "fr"},
	{"nl", "nl"}, {"es", "es"}, {"it", "it"}, {"sv", "en"}, {"pl", "en"}}
var variants = []string{"m1", "m2", "m3", "m4", "m5", "m6", "m7", "f1", "f2", "f3", "f4", "f5", "Andy", "Annie",
	"Denis", "Jacky", "adam", "aunty", "boris", "david", "ed", "edward", "grandpa", "john", "linda", "max",
	"michel", "norbert", "paul", "steph", "quincy", "travis", "zac", "belinda", "benjamin", "caleb"}

var numbers = map[string][]string{
	"en": {"one", "two", "three", "four", "five"},
	"de": {"eins", "zwei", "drei", "vier", "fünf"},
	"fr": {"un", "deux", "trois", "quatre", "cinq"},
	"nl": {"een", "twee", "drie", "vier", "vijf"},
	"es": {"uno", "dos", "tres", "cuatro", "cinco"},
	"it": {"uno", "due", "tre", "quattro", "cinque"},
}
var critters = map[string][]string{
	"en": {"spiders", "rats", "flies", "woodlice", "snails", "beetles", "ants", "earwigs", "slugs", "moths", "centipedes", "worms", "bees", "crickets", "ladybirds"},
	"de": {"Spinnen", "Ratten", "Fliegen", "Asseln", "Schnecken", "Käfer", "Ameisen"},
	"fr": {"araignées", "rats", "mouches", "cloportes", "escargots", "fourmis"},
	"nl": {"spinnen", "ratten", "vliegen", "pissebedden", "slakken"},
	"es": {"arañas", "ratas", "moscas", "caracoles", "hormigas"},
	"it": {"ragni", "ratti", "mosche", "lumache", "formiche"},
}
var singles = map[string][]string{
	"en": {"snail!", "spider!", "woodlouse!", "rat!", "fly!", "beetle!", "the centipede!", "slug!"},
	"de": {"Schnecke!", "Spinne!", "Assel!"},
	"fr": {"escargot!", "araignée!", "cloporte!"},
	"nl": {"slak!", "spin!"}, "es": {"caracol!", "araña!"}, "it": {"lumaca!", "ragno!"},
}
var chatter = map[string][]string{
	"en": {"ha ha ha ha", "hahaha, no way", "oh come on!", "what was that?", "I have no idea", "wait, do it again",
		"that was way too fast", "you're making this up", "okay okay okay", "who's next?", "my turn!",
		"pass me the crisps", "hee hee hee", "ha! ha! ha!", "seriously?", "no, no, no, listen", "I was right!",
		"hah, told you", "ooh, this is hard", "is that even allowed?", "shh, shh, listen"},
	"de": {"ha ha ha", "was war das?", "nein, nochmal!", "keine Ahnung", "ich bin dran!"},
	"fr": {"ha ha ha", "quoi?", "encore une fois!", "aucune idée", "c'est mon tour!"},
	"nl": {"ha ha ha", "wat was dat?", "nog een keer!"}, "es": {"ja ja ja", "¿qué fue eso?", "¡otra vez!"},
	"it": {"ah ah ah", "che cosa?", "ancora!"},
}

func pick[T any](xs []T) T { return xs[rng.Intn(len(xs))] }

func guessText(lang string) string {
	if rng.Float64() < 0.2 {
		return pick(singles[lang])
	}
	s := pick(numbers[lang]) + " " + pick(critters[lang])
	switch r := rng.Float64(); {
	case r < 0.45:
		s += "!"
	case r < 0.6 && lang == "en":
		s = "no, " + s
	case r < 0.7 && lang == "en":
		s = "it's " + s + "!"
	case r < 0.8:
		s += "?"
	}
	return s
}

// speak renders text with espeak-ng and returns audio at sr trimmed to the audible part (-40 dB re peak).
func speak(text string, v person, sr int, shout bool) []float64 {
	vv := v.v + "+" + v.variant
	speed := v.speed + rng.Intn(21) - 10
	pitch := v.pitch + rng.Intn(11) - 5
	amp := v.amp
	if shout {
		speed += 15
		pitch += 10
	}
	f := filepath.Join(tmpDir, "speech.wav")
	cmd := exec.Command("espeak-ng", "-v", vv, "-s", fmt.Sprint(speed), "-p", fmt.Sprint(pitch), "-a", fmt.Sprint(amp), "-w", f, text)
	if out, err := cmd.CombinedOutput(); err != nil {
		panic(fmt.Sprintf("espeak %s: %v %s", vv, err, out))
	}
	usage["voice "+vv]++ // counted per utterance
	eff := []string{"rate", "-v", fmt.Sprint(sr)}
	if shout && rng.Float64() < 0.5 {
		eff = append(eff, "overdrive", fmt.Sprint(3+rng.Intn(8)))
	}
	x := soxRaw([]string{f}, sr, 1, eff...)
	p := peak(x)
	for i := range x {
		x[i] /= p
	}
	a, b := 0, len(x)
	for a < b && math.Abs(x[a]) < db(-40) {
		a++
	}
	for b > a && math.Abs(x[b-1]) < db(-40) {
		b--
	}
	x = x[a:b]
	fade(x, int(0.01*float64(sr)))
	return x
}

// deck hands out samples of a family in shuffled order, reshuffling when exhausted, so that every sample
// is used before any repeats.
type deck struct {
	items []sample
	i     int
}

func (d *deck) next() sample {
	if d.i == 0 {
		rng.Shuffle(len(d.items), func(a, b int) { d.items[a], d.items[b] = d.items[b], d.items[a] })
	}
	s := d.items[d.i]
	d.i = (d.i + 1) % len(d.items)
	return s
}

func loadSamples(path string) map[string]*deck {
	f, err := os.Open(path)
	must(err)
	defer f.Close()
	decks := map[string]*deck{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		p := strings.SplitN(line, "\t", 3)
		key := p[0] + "/" + p[1]
		if decks[key] == nil {
			decks[key] = &deck{}
		}
		decks[key].items = append(decks[key].items, sample{p[0], p[1], p[2]})
	}
	// deterministic order before shuffling
	for _, d := range decks {
		sort.Slice(d.items, func(a, b int) bool { return d.items[a].path < d.items[b].path })
	}
	return decks
}

// halfOf keeps the elements at even (h=1) or odd (h=2) positions.
func halfOf[T any](xs []T, h int) []T {
	var out []T
	for i := h - 1; i < len(xs); i += 2 {
		out = append(out, xs[i])
	}
	return out
}

func weighted(w map[string]float64) string {
	keys := make([]string, 0, len(w))
	tot := 0.0
	for k, v := range w {
		keys = append(keys, k)
		tot += v
	}
	sort.Strings(keys)
	r := rng.Float64() * tot
	for _, k := range keys {
		r -= w[k]
		if r < 0 {
			return k
		}
	}
	return keys[len(keys)-1]
}

// pinkNoise: Paul Kellet's refined pink filter over white noise, unit RMS.
func pinkNoise(n int) []float64 {
	x := make([]float64, n)
	var b0, b1, b2, b3, b4, b5, b6 float64
	for i := range x {
		w := rng.NormFloat64()
		b0 = 0.99886*b0 + w*0.0555179
		b1 = 0.99332*b1 + w*0.0750759
		b2 = 0.96900*b2 + w*0.1538520
		b3 = 0.86650*b3 + w*0.3104856
		b4 = 0.55000*b4 + w*0.5329522
		b5 = -0.7616*b5 - w*0.0168980
		x[i] = b0 + b1 + b2 + b3 + b4 + b5 + b6 + w*0.5362
		b6 = w * 0.115926
	}
	s := 0.0
	for _, v := range x {
		s += v * v
	}
	rms := math.Sqrt(s / float64(n))
	for i := range x {
		x[i] /= rms
	}
	return x
}

func main() {
	flag.Parse()
	if *outDir == "" {
		fmt.Fprintln(os.Stderr, "synthcorpus: -out DIR is required (see scripts/synthcorpus/README.md)")
		os.Exit(2)
	}
	rng = rand.New(rand.NewSource(*seed))
	var err error
	tmpDir, err = os.MkdirTemp("", "synth")
	must(err)
	defer os.RemoveAll(tmpDir)
	must(os.MkdirAll(*outDir, 0o755))
	decks := loadSamples(*sampTSV)
	if *half != 0 {
		if *half != 1 && *half != 2 {
			fmt.Fprintln(os.Stderr, "synthcorpus: -half must be 0, 1 or 2")
			os.Exit(2)
		}
		for _, d := range decks { // items are sorted by path: deal them alternately
			d.items = halfOf(d.items, *half)
		}
		sort.Slice(langs, func(a, b int) bool { return langs[a].v < langs[b].v })
		langs = halfOf(langs, *half)
		sort.Strings(variants)
		variants = halfOf(variants, *half)
	}

	// tiers and laptop flags: fixed proportions, shuffled
	n := *nFiles
	nClean, nNoisy := int(math.Round(0.2*float64(n))), int(math.Round(0.3*float64(n)))
	tiers := []string{}
	for i := 0; i < n; i++ {
		switch {
		case i < nClean:
			tiers = append(tiers, "clean")
		case i < nClean+nNoisy:
			tiers = append(tiers, "noisy")
		default:
			tiers = append(tiers, "party")
		}
	}
	rng.Shuffle(n, func(a, b int) { tiers[a], tiers[b] = tiers[b], tiers[a] })
	laptop := make([]bool, n)
	for i := 0; i < int(math.Round(0.3*float64(n))); i++ {
		laptop[i] = true
	}
	rng.Shuffle(n, func(a, b int) { laptop[a], laptop[b] = laptop[b], laptop[a] })

	names := []string{}
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("dev-%03d", i)
		names = append(names, name)
		makeFile(name, tiers[i], laptop[i], decks)
	}
	mb, _ := json.Marshal(names)
	must(os.WriteFile(filepath.Join(*outDir, "manifest.json"), []byte(strings.ReplaceAll(string(mb), ",", ", ")), 0o644))

	writeSamplesTxt(decks)
}

const samplesHeader = `Samples used by scripts/synthcorpus (go run . -out %s -n %d -seed %d -half %d).
Source list: scripts/synthcorpus/samples.tsv.%s Each hit: speed change of -300..+300 cents (pitch+length,
"other hands / other tables"), resampled, peak-normalised, leading silence trimmed (onset = first sample
above -30 dB re peak, walked back <=3 ms while above -50 dB), capped at 0.6-1.2 s with a fade.
Per file a pool of 3-6 clap and 4-8 bang samples is dealt from shuffled per-family decks (bang families
weighted handdrum 0.4 / kick 0.3 / tom 0.3, claps acoustic 0.55 / machine 0.45) and the hits cycle through it.

Deliberately NOT used: hi-hats, cymbals, rides, crashes, snares (wires), rim shots, side sticks, claves,
woodblocks, cowbells, agogos, bells, tambourines, maracas, shakers, finger snaps, bongo-hi, cajon slaps,
djembe slaps, dunun bells, tabla treble strokes (na/te/tun/re/tas/dhec), perc_door/impact (sustained, multi-
onset), long sine "808" booms (bd_808, bd_boom, kick02, kick_soft01, kick_long01), bassdrum_acoustic02 (two hits),
HardElectro1/Clap_1 (second burst at +100 ms), and five bangs with almost nothing above 300 Hz (inaudible
through the laptop high-pass: rumpf beats_08-18 and beats_06-46, bd_pure, CajonThumps-Softest, BJA BD_01).
lmms hit01.ogg and kick04.ogg cannot be decoded by sox. Unnamed rumpf_kit samples were not classified.

Format: uses<TAB>family<TAB>path   (uses = number of hits in the %d files; 0 = in this pool but not drawn)
`

func writeSamplesTxt(decks map[string]*deck) {
	var sb strings.Builder
	pool := ""
	if *half != 0 {
		pool = fmt.Sprintf(" POOL HALF %d OF 2: within each family (and in the sorted\nespeak voice and variant lists) only the entries at %s positions of the path-sorted list.\n",
			*half, map[int]string{1: "even (1st, 3rd, ...)", 2: "odd (2nd, 4th, ...)"}[*half])
	}
	fmt.Fprintf(&sb, samplesHeader, *outDir, *nFiles, *seed, *half, pool, *nFiles)
	for _, sec := range []struct{ title, prefix string }{{"CLAPS", "clap/"}, {"BANGS (flat hand / thump on table, wood, drum)", "bang/"}, {"GLASS CLINKS (distractors)", "glass/"}} {
		keys := []string{}
		for k := range decks {
			if strings.HasPrefix(k, sec.prefix) {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		listed, used, hits := 0, 0, 0
		var body strings.Builder
		for _, k := range keys {
			items := append([]sample(nil), decks[k].items...)
			sort.Slice(items, func(a, b int) bool { return items[a].path < items[b].path })
			for _, it := range items {
				u := usage[it.class+"\t"+it.family+"\t"+it.path]
				listed++
				hits += u
				if u > 0 {
					used++
				}
				fmt.Fprintf(&body, "%d\t%s\t%s\n", u, it.family, it.path)
			}
		}
		if sec.prefix == "glass/" {
			u := usage["glass\tsynth\t(synthesised clink)"]
			hits += u
			fmt.Fprintf(&body, "%d\tsynth\t(synthesised: 3-4 inharmonic partials 1.5-6 kHz, 0.3-1 s exponential decay)\n", u)
		}
		fmt.Fprintf(&sb, "\n== %s: %d samples listed, %d used, %d hits\n%s", sec.title, listed, used, hits, body.String())
	}
	vk := []string{}
	for k := range usage {
		if strings.HasPrefix(k, "voice ") {
			vk = append(vk, strings.TrimPrefix(k, "voice "))
		}
	}
	sort.Strings(vk)
	vl := []string{}
	for _, l := range langs {
		vl = append(vl, l.v)
	}
	fmt.Fprintf(&sb, "\n== ESPEAK-NG VOICE POOL: %d voices x %d variants\nvoices:   %s\nvariants: %s\n",
		len(langs), len(variants), strings.Join(vl, " "), strings.Join(variants, " "))
	fmt.Fprintf(&sb, "\n== ESPEAK-NG VOICES USED (%d voice+variant combinations)\n%s\n", len(vk), strings.Join(vk, " "))
	name := map[int]string{0: "SAMPLES.txt", 1: "SAMPLES-A.txt", 2: "SAMPLES-B.txt"}[*half]
	must(os.WriteFile(filepath.Join(*outDir, name), []byte(sb.String()), 0o644))
}

func makeFile(name, tier string, laptopMic bool, decks map[string]*deck) {
	sr := weightedInt(map[int]float64{16000: 0.12, 22050: 0.2, 44100: 0.48, 48000: 0.2})
	ch := 1
	if rng.Float64() < 0.3 {
		ch = 2
	}
	bits := 16
	if rng.Float64() < 0.3 {
		bits = 24
	}
	party := tier == "party"
	fsr := float64(sr)

	// this file's "hands and tables": a pool of clap and bang samples
	clapPool := []sample{}
	for k := 0; k < 3+rng.Intn(4); k++ {
		clapPool = append(clapPool, decks[weighted(map[string]float64{"clap/acoustic": 0.55, "clap/machine": 0.45})].next())
	}
	bangPool := []sample{}
	for k := 0; k < 4+rng.Intn(5); k++ {
		bangPool = append(bangPool, decks[weighted(map[string]float64{"bang/handdrum": 0.4, "bang/kick": 0.3, "bang/tom": 0.3})].next())
	}
	nClap, nBang := 0, 0                               // hits cycle through the (shuffled) pools so every pool member gets used
	ref := 0.25                                        // nominal gesture peak in the dry mix
	clapOff, bangOff := uni(-1.5, 1.5), uni(-1.5, 1.5) // class loudness offsets (dB)

	lab := label{Tier: tier, LaptopMic: laptopMic, Onsets: []onset{}, Codes: []code{}, Distractors: []distractor{},
		Speech: [][2]float64{}, File: name + ".wav", SampleRate: sr, Channels: ch, Bits: bits}
	var events []event
	chanGain := func(g float64) [2]float64 {
		if ch == 1 {
			return [2]float64{g, 0}
		}
		d := uni(-1.5, 1.5)
		return [2]float64{g * db(d/2), g * db(-d/2)}
	}
	// the room (reverb) and the laptop band limit are chosen up front: speech spans must include the reverb tail
	var rev []string
	if tier != "clean" {
		rev = []string{"reverb", fmt.Sprintf("%.0f", uni(15, 65)), fmt.Sprintf("%.0f", uni(20, 80)),
			fmt.Sprintf("%.0f", uni(20, 90)), "100", "0", fmt.Sprintf("%.1f", uni(-8, -2))}
	}
	var lapEff []string
	if laptopMic {
		hp := uni(150, 400)
		lp := math.Min(uni(6000, 9000), 0.45*fsr)
		lapEff = append(lapEff, "highpass", fmt.Sprintf("%.0f", hp), "lowpass", fmt.Sprintf("%.0f", lp))
		if rng.Float64() < 0.3 { // sometimes a steeper (4-pole) high-pass
			lapEff = append(lapEff, "highpass", fmt.Sprintf("%.0f", hp))
		}
	}
	// audible length of an utterance as heard in this file: the dry utterance alone through the file's reverb
	// and band limit, up to the last sample at -40 dB re the peak of that rendering (sox's reverb and filters
	// are linear, so this is the utterance's own contribution to the mix).
	audible := func(x []float64) float64 {
		if rev == nil && lapEff == nil {
			return float64(len(x)) / fsr // already trimmed at -40 dB
		}
		pad := make([]float64, len(x)+int(4*fsr))
		for i, v := range x {
			pad[i] = 0.3 * v // headroom, as for the mix
		}
		f := filepath.Join(tmpDir, "utt.f32")
		writeRaw(f, pad)
		in := []string{"-t", "raw", "-e", "floating-point", "-b", "32", "-L", "-r", fmt.Sprint(sr), "-c", "1", f}
		y := soxRaw(in, sr, 1, append(append([]string{}, rev...), lapEff...)...)
		thr := peak(y) * db(-40)
		end := len(y)
		for end > 0 && math.Abs(y[end-1]) < thr {
			end--
		}
		if end < len(x) {
			end = len(x)
		}
		return float64(end) / fsr
	}
	var dbg strings.Builder
	var speechLevels []float64
	addSpeech := func(x []float64, t0, d, lvl float64) {
		pos := int(math.Round(t0 * fsr))
		events = append(events, event{pos, x, chanGain(ref * db(lvl))})
		lab.Speech = append(lab.Speech, [2]float64{r3(float64(pos) / fsr), r3(float64(pos)/fsr + d)})
		speechLevels = append(speechLevels, lvl)
		fmt.Fprintf(&dbg, "%.4f\tspeech\tdry_end=%.3f\taudible_end=%.3f\t%.1f\n", float64(pos)/fsr, float64(pos+len(x))/fsr, float64(pos)/fsr+d, lvl)
	}
	// speech voices for this party (2-4 people)
	people := []person{}
	for k := 0; k < 2+rng.Intn(3); k++ {
		people = append(people, person{pick(langs), pick(variants), 130 + rng.Intn(90), 25 + rng.Intn(60), 100 + rng.Intn(100)})
	}
	var gaps [][2]float64 // time windows free of gestures, for clinks

	nCodes := 1 + weightedInt(map[int]float64{0: 0.15, 1: 0.55, 2: 0.3})
	t := uni(0.5, 1.5)
	var lastOnset, speechEnd float64
	for c := 0; c < nCodes; c++ {
		nb, nc := 1+rng.Intn(5), 1+rng.Intn(5)
		order := []byte(strings.Repeat("B", nb) + strings.Repeat("C", nc))
		rng.Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
		base := uni(0.2, 0.6)
		cd := code{Bangs: nb, Claps: nc, Order: string(order)}
		for k, g := range order {
			if k > 0 {
				t += math.Min(1.1, math.Max(0.15, base*uni(0.65, 1.5)))
			}
			var s sample
			var lvl float64
			kind := "bang"
			if g == 'C' {
				kind = "clap"
				s = clapPool[nClap%len(clapPool)]
				nClap++
				lvl = clapOff
			} else {
				s = bangPool[nBang%len(bangPool)]
				nBang++
				lvl = bangOff
			}
			lvl += uni(-4.5, 4.5)
			cents := uni(-300, 300)
			x := prepHit(s.path, sr, cents, uni(0.6, 1.2))
			usage[s.class+"\t"+s.family+"\t"+s.path]++
			pos := int(math.Round(t * fsr))
			fmt.Fprintf(&dbg, "%.4f\t%s\t%s\t%.0f\t%.1f\t%s\n", float64(pos)/fsr, kind, s.family, cents, lvl, s.path)
			events = append(events, event{pos, x, chanGain(ref * db(lvl))})
			ot := r4(float64(pos) / fsr)
			lab.Onsets = append(lab.Onsets, onset{T: ot, Kind: kind})
			if k == 0 {
				cd.Start = ot
			}
			cd.End = ot
			t = float64(pos) / fsr
		}
		lab.Codes = append(lab.Codes, cd)
		lastOnset = t
		var next float64
		if c < nCodes-1 {
			next = t + uni(3, 5)
		} else {
			next = t + uni(2, 4)
		}
		// gesture-free window after this code: [t+0.35, next-0.5]
		limit := next - 0.3 // speech must end by then (before the next code)
		if party {
			// 1-3 overlapping shouted guesses starting 0.2-0.8 s after the last gesture
			ng := 1 + rng.Intn(3)
			st := t + uni(0.2, 0.8)
			for k := 0; k < ng; k++ {
				for try := 0; try < 6; try++ {
					who := pick(people)
					x := speak(guessText(who.native), who, sr, true)
					d := audible(x)
					if st+d <= limit || (c == nCodes-1 && st+d < t+5) {
						addSpeech(x, st, d, uni(-7, 1))
						speechEnd = math.Max(speechEnd, st+d)
						break
					}
				}
				st += uni(0.15, 0.7)
			}
			// chatter/laughter somewhere in the gap, after the guesses have started
			if rng.Float64() < 0.7 {
				for try := 0; try < 6; try++ {
					who := pick(people)
					x := speak(pick(chatter[who.native]), who, sr, false)
					d := audible(x)
					lo, hi := t+0.9, limit-d
					if c == nCodes-1 {
						hi = t + 5 - d
					}
					if hi > lo {
						st := uni(lo, hi)
						addSpeech(x, st, d, uni(-10, -3))
						speechEnd = math.Max(speechEnd, st+d)
						break
					}
				}
			}
		}
		if c == nCodes-1 && speechEnd+0.3 > next {
			next = speechEnd + uni(0.3, 1.0)
		}
		gaps = append(gaps, [2]float64{t + 0.35, next - 0.6})
		t = next
	}
	_ = lastOnset
	total := int(math.Round(t * fsr))
	// glass clinks: 1-3 per party file, in gesture-free windows, preferably during speech
	if party {
		nGlass := 1 + rng.Intn(3)
		for k := 0; k < nGlass; k++ {
			var x []float64
			if rng.Float64() < 0.5 {
				s := decks["glass/waterglass"].next()
				x = prepHit(s.path, sr, uni(-300, 300), 1.2)
				usage[s.class+"\t"+s.family+"\t"+s.path]++
			} else {
				x = synthClink(sr)
				usage["glass\tsynth\t(synthesised clink)"]++
			}
			var tg float64
			ok := false
			dur := float64(len(x)) / fsr
			for try := 0; try < 100 && !ok; try++ {
				if rng.Float64() < 0.6 && len(lab.Speech) > 0 {
					sp := pick(lab.Speech)
					tg = uni(sp[0], sp[1])
				} else {
					g := pick(gaps)
					tg = uni(g[0], g[1])
				}
				ok = false
				for _, g := range gaps { // clear of gestures: >=0.35 s after, >=0.8 s before
					if tg >= g[0] && tg+0.2 <= g[1] {
						ok = true
					}
				}
				if tg+dur > float64(total)/fsr-0.05 {
					ok = false
				}
				for _, d := range lab.Distractors {
					if math.Abs(d.T-tg) < 0.4 {
						ok = false
					}
				}
			}
			if !ok {
				continue
			}
			pos := int(math.Round(tg * fsr))
			events = append(events, event{pos, x, chanGain(ref * db(uni(-12, -2)))})
			lab.Distractors = append(lab.Distractors, distractor{T: r4(float64(pos) / fsr), Kind: "glass"})
		}
		sort.Slice(lab.Distractors, func(a, b int) bool { return lab.Distractors[a].T < lab.Distractors[b].T })
		sort.Slice(lab.Speech, func(a, b int) bool { return lab.Speech[a][0] < lab.Speech[b][0] })
	}

	// render dry mix
	mix := make([]float64, total*ch)
	for _, e := range events {
		for i, v := range e.x {
			j := e.pos + i
			if j >= total {
				break
			}
			for c := 0; c < ch; c++ {
				mix[j*ch+c] += v * e.gain[c]
			}
		}
	}
	// headroom for sox's float->int internal path
	p := peak(mix)
	scale := 0.3 / p
	for i := range mix {
		mix[i] *= scale
	}
	dry := filepath.Join(tmpDir, "dry.f32")
	writeRaw(dry, mix)
	rawIn := []string{"-t", "raw", "-e", "floating-point", "-b", "32", "-L", "-r", fmt.Sprint(sr), "-c", fmt.Sprint(ch)}
	desc := fmt.Sprintf("%s %s sr=%d ch=%d bits=%d", name, tier, sr, ch, bits)
	if tier != "clean" {
		mix = soxRaw(append(rawIn, dry), sr, ch, rev...)
		mix = mix[:total*ch]
		// pink noise whose peaks sit 27-42 dB below the nominal gesture peak (RMS about 12 dB lower still;
		// the dev corpus measures 40-50 dB gesture-peak to noise-RMS)
		snr := uni(27, 42)
		nrms := ref * scale * db(-snr-12)
		for c := 0; c < ch; c++ {
			nz := pinkNoise(total)
			for i := 0; i < total; i++ {
				mix[i*ch+c] += nrms * nz[i]
			}
		}
		desc += fmt.Sprintf(" %v noise_peak_snr=%.1fdB", rev, snr)
		writeRaw(dry, mix)
	}
	eff := append([]string{}, lapEff...)
	eff = append(eff, "gain", "-n", fmt.Sprintf("%.1f", uni(-6, -1)))
	desc += fmt.Sprintf(" fx=%v", eff)
	out := filepath.Join(*outDir, name+".wav")
	args := append([]string{"-V1", "-R"}, rawIn...)
	args = append(args, dry, "-t", "wav", "-e", "signed-integer", "-b", fmt.Sprint(bits), out)
	args = append(args, eff...)
	if o, err := exec.Command("sox", args...).CombinedOutput(); err != nil {
		panic(fmt.Sprintf("%v %s", err, o))
	}
	lab.Duration = r3(float64(total) / fsr)
	jb, err := json.MarshalIndent(lab, "", " ")
	must(err)
	must(os.WriteFile(filepath.Join(*outDir, name+".json"), jb, 0o644))
	fmt.Println(desc, "codes:", len(lab.Codes), "onsets:", len(lab.Onsets), "speech:", len(lab.Speech), "glass:", len(lab.Distractors))
	_ = speechLevels
	if *debugDir != "" {
		must(os.MkdirAll(*debugDir, 0o755))
		must(os.WriteFile(filepath.Join(*debugDir, name+".tsv"), []byte(desc+"\n"+dbg.String()), 0o644))
	}
}

func weightedInt(w map[int]float64) int {
	keys := make([]int, 0, len(w))
	tot := 0.0
	for k, v := range w {
		keys = append(keys, k)
		tot += v
	}
	sort.Ints(keys)
	r := rng.Float64() * tot
	for _, k := range keys {
		r -= w[k]
		if r < 0 {
			return k
		}
	}
	return keys[len(keys)-1]
}
