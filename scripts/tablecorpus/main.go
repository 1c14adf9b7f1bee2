// Command tablecorpus makes labelled recordings of real-table conditions for
// training and testing the gesture classifier: claps and knocks modelled from
// how hands and surfaces make sound (scripts/tablecorpus/hits.go), laughter
// and talk between the codes, heard in a room at a distance, through a
// phone's or a laptop's microphone with its band, colour, automatic gain,
// clipping, noise gate, capture rate and codec, over a room's own noise.
// The output has the format of ../shared/corpus/gestures (WAV + JSON labels),
// so audio/gesture/internal/train reads it as it reads the corpus.
//
//	go run ./scripts/tablecorpus -out DIR -n 60 -seed 1
//
// Every file is one table: one trainer's hands, one surface, one room, one
// microphone, all drawn from the seed and written to DIR/NAME.txt.
package main

import (
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tableref/tableref/scripts/internal/corpuslabel"
)

const renderRate = 48000

func main() {
	out := flag.String("out", "", "directory to write the recordings to (required)")
	n := flag.Int("n", 40, "recordings to make")
	seed := flag.Uint64("seed", 1, "seed: the same seed makes the same recordings")
	secs := flag.Float64("seconds", 25, "about how long each recording is")
	talk := flag.Bool("talk", true, "put espeak-ng talk between codes too (needs espeak-ng)")
	debRoot := flag.String("debroot", "", "folder where scripts/tablecorpus/fetch.sh extracted the Debian packages of pool.tsv (none: modelled sounds only)")
	poolTSV := flag.String("pool", "scripts/tablecorpus/pool.tsv", "the recorded sounds to draw from, in the packages under -debroot")
	drums := flag.String("drums", "scripts/synthcorpus/samples.tsv", "drum-kit samples list: its acoustic claps are drawn from too (none: \"\")")
	pwolfe := flag.String("pwolfe", "", "the MIT-licensed pwolfe_fpga folder of ../shared/corpus/real: its claps are drawn from too")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: go run ./scripts/tablecorpus -out DIR [-n N] [-seed S] [-seconds S] [-talk=false]")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *out == "" {
		flag.Usage()
		os.Exit(2)
	}
	if *talk {
		if _, err := exec.LookPath("espeak-ng"); err != nil {
			fail("espeak-ng is missing (apt-get install espeak-ng), or run with -talk=false")
		}
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fail("%v", err)
	}
	pl, err := loadPools(*poolTSV, *debRoot, *drums)
	if err != nil {
		fail("%v", err)
	}
	if *pwolfe != "" {
		c, err := pwolfeClaps(*pwolfe)
		if err != nil {
			fail("%v", err)
		}
		pl["clap"] = append(pl["clap"], c...)
	}
	for _, k := range []string{"clap", "bang", "other", "laugh", "speech", "noise"} {
		fmt.Fprintf(os.Stderr, "recorded %s: %d\n", k, len(pl[k]))
	}
	tmp, err := os.MkdirTemp("", "tablecorpus")
	if err != nil {
		fail("%v", err)
	}
	defer os.RemoveAll(tmp)
	var names []string
	for i := 0; i < *n; i++ {
		name := fmt.Sprintf("tc-%03d", i)
		r := rand.New(rand.NewPCG(*seed, uint64(i)))
		desc := makeFile(r, filepath.Join(*out, name), *secs, *talk, pl, tmp)
		fmt.Fprintf(os.Stderr, "%s: %s\n", name, desc)
		names = append(names, name)
	}
	b, _ := json.Marshal(names)
	if err := os.WriteFile(filepath.Join(*out, "manifest.json"), b, 0o644); err != nil {
		fail("%v", err)
	}
}

// placed is a sound laid into a track at a sample.
type placed struct {
	at   int
	x    []float64
	gain float64
}

func makeFile(r *rand.Rand, base string, secs float64, talk bool, pl pools, tmp string) string {
	fs := float64(renderRate)
	rm := newRoom(r)
	mc := newMic(r)
	hh := newHands(r, rm.distance < 0.7 || rm.onTable)
	// half the time a table (or a door, a box), half the time a smaller
	// thing on one: a book, a case, a board, a tile, a laptop
	var small, large []material
	for _, m := range materials {
		if m.sparse {
			small = append(small, m)
		} else {
			large = append(large, m)
		}
	}
	mat := large[r.IntN(len(large))]
	if r.Float64() < 0.5 {
		mat = small[r.IntN(len(small))]
	}
	tb := newTable(r, mat)
	// the trainer bangs with one or two kinds of strike
	var strikes []striker
	weights := []float64{0.35, 0.15, 0.35, 0.1, 0.05}
	for k := 0; k < 1+r.IntN(2); k++ {
		strikes = append(strikes, strikers[pickWeighted(r, weights)])
	}
	lf := newLaugher(r)
	clapDB, bangDB := uni(r, -8, 4), uni(r, -8, 4)
	// some tables are heard as recorded: a few of the pool's sounds, used
	// for most of this file's hits of that kind
	recorded := func(class string, chance float64, most int) [][]float64 {
		if len(pl[class]) == 0 || r.Float64() >= chance {
			return nil
		}
		var xs [][]float64
		for k := 0; k < 1+r.IntN(most); k++ {
			if x := load(pl[class][r.IntN(len(pl[class]))], true, 0); len(x) > renderRate/200 {
				xs = append(xs, x)
			}
		}
		return xs
	}
	recClaps, recBangs := recorded("clap", 0.35, 4), recorded("bang", 0.35, 4)
	var recNote []string
	if recClaps != nil {
		recNote = append(recNote, fmt.Sprintf("%d recorded claps", len(recClaps)))
	}
	if recBangs != nil {
		recNote = append(recNote, fmt.Sprintf("%d recorded knocks", len(recBangs)))
	}

	lab := corpuslabel.Labels{Tier: "table", Onsets: []corpuslabel.Onset{}, Codes: []corpuslabel.Code{},
		Distractors: []corpuslabel.Distractor{}, Speech: [][2]float64{}}
	var hits, voices []placed
	var hitLog strings.Builder
	hit := func(t float64, clap bool) {
		var x []float64
		what := ""
		g := dbToAmp(uni(r, -4, 4))
		kind := "bang"
		switch {
		case clap && recClaps != nil && r.Float64() < 0.7:
			x, kind, what = recClaps[r.IntN(len(recClaps))], "clap", "recorded"
			g *= dbToAmp(clapDB)
		case clap:
			x, kind, what = hh.clap(r, renderRate), "clap", "modelled"
			g *= dbToAmp(clapDB)
		case recBangs != nil && r.Float64() < 0.7:
			x, what = recBangs[r.IntN(len(recBangs))], "recorded"
			g *= dbToAmp(bangDB)
		default:
			s := strikes[r.IntN(len(strikes))]
			x, what = tb.strike(r, s, renderRate), s.name+" on "+mat.name
			g *= dbToAmp(bangDB)
		}
		at := int(t * fs)
		hits = append(hits, placed{at, x, g})
		lab.Onsets = append(lab.Onsets, corpuslabel.Onset{T: round4(float64(at) / fs), Kind: kind})
		fmt.Fprintf(&hitLog, "%.4f\t%s\t%s\t%.1f\n", float64(at)/fs, kind, what, 20*math.Log10(g))
	}
	voice := func(t float64, x []float64, db float64) float64 {
		at := int(t * fs)
		voices = append(voices, placed{at, x, dbToAmp(db)})
		end := t + float64(len(x))/fs
		lab.Speech = append(lab.Speech, [2]float64{round4(t), round4(end + 0.1)})
		return end
	}
	t := uni(r, 0.4, 1.2)
	for t < secs {
		switch p := r.Float64(); {
		case p < 0.6: // a code: 2-7 gestures, a bang and a clap at least
			nb := 1 + r.IntN(5)
			nc := 1 + r.IntN(5)
			for nb+nc > 7 {
				if nb > nc {
					nb--
				} else {
					nc--
				}
			}
			order := []byte(strings.Repeat("B", nb) + strings.Repeat("C", nc))
			r.Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
			pace := uni(r, 0.2, 0.6)
			c := corpuslabel.Code{Start: round4(t), Bangs: nb, Claps: nc, Order: string(order)}
			for k, g := range order {
				if k > 0 {
					t += pace * uni(r, 0.8, 1.25)
				}
				hit(t, g == 'C')
			}
			c.End = round4(t)
			lab.Codes = append(lab.Codes, c)
		case p < 0.8: // a run: clapping or knocking along, 3-5 a second
			clap := r.Float64() < 0.5
			pace := uni(r, 0.18, 0.34)
			for k := 0; k < 4+r.IntN(12); k++ {
				if k > 0 {
					t += pace * uni(r, 0.9, 1.1)
				}
				hit(t, clap)
			}
		case p < 0.85: // a single hit
			hit(t, r.Float64() < 0.5)
		default:
			t += 0.3
		}
		// what the table does between codes: laugh, talk, or nothing
		t += uni(r, 0.3, 0.8)
		switch p := r.Float64(); {
		case p < 0.2 && len(pl["laugh"]) > 0:
			t = voice(t, load(pl["laugh"][r.IntN(len(pl["laugh"]))], false, 4), uni(r, -18, 3)) + uni(r, 0.3, 0.8)
		case p < 0.45:
			t = voice(t, lf.laugh(r, renderRate, rm.distance < 0.7 || rm.onTable), uni(r, -18, 3)) + uni(r, 0.3, 0.8)
		case p < 0.58 && len(pl["speech"]) > 0:
			t = voice(t, load(pl["speech"][r.IntN(len(pl["speech"]))], false, 3), uni(r, -18, 0)) + uni(r, 0.3, 0.8)
		case p < 0.7 && talk:
			t = voice(t, speak(r, tmp), uni(r, -18, 0)) + uni(r, 0.3, 0.8)
		case p < 0.78 && len(pl["other"]) > 0:
			// a sound of the table that is no gesture: a key, a step
			x := load(pl["other"][r.IntN(len(pl["other"]))], true, 0)
			at := int(t * fs)
			voices = append(voices, placed{at, x, dbToAmp(uni(r, -20, 0))})
			lab.Distractors = append(lab.Distractors, corpuslabel.Distractor{T: round4(t), Kind: "other"})
			t += uni(r, 1, 2)
		default:
			t += uni(r, 1.5, 3)
		}
	}
	total := int((t + 0.5) * fs)

	// the room: the hands and the voices, each heard from where they are
	hand := lay(hits, total)
	voc := lay(voices, total)
	hand = convolve(hand, rm.impulse(r, rm.distance, renderRate))[:total]
	voc = convolve(voc, rm.impulse(r, logUni(r, 0.4, 3), renderRate))[:total]
	mix := make([]float64, total)
	for i := range mix {
		mix[i] = hand[i] + voc[i]
	}
	pk := peakAbs(hand)
	bg, bgName := background(r, total, renderRate)
	if len(pl["noise"]) > 0 && r.Float64() < 0.5 {
		// a room's recorded noise, with a little of the microphone's hiss
		p := pl["noise"][r.IntN(len(pl["noise"]))]
		if x := load(p, false, 60); len(x) > renderRate/2 {
			y := loop(r, x, total)
			scale(y, 1/math.Max(rms(y), 1e-9))
			for i := range bg {
				bg[i] = y[i] + 0.05*bg[i]
			}
			bgName = filepath.Base(p)
		}
	}
	snr := uni(r, 22, 65)
	noise := pk * dbToAmp(-snr)
	for i := range mix {
		mix[i] += noise * bg[i]
	}
	// the microphone and the device behind it
	mix = mc.colour(mix, renderRate)
	level := uni(r, -24, -1)
	scale(mix, dbToAmp(level)/math.Max(peakAbs(mix), 1e-9))
	for i := range mix {
		mix[i] += mc.dc
	}
	mc.convert(mix, peakAbs(mix))
	if mc.agc != nil {
		mc.agc.run(mix, renderRate)
	}
	if mc.gate != nil {
		mc.gate.run(mix, renderRate, rms(mix[:min(len(mix), int(0.3*fs))]))
	}
	mix = resample(mix, renderRate, mc.rate)
	if mc.codec != nil {
		mix = codec(mix, mc.rate, mc.codec, tmp)
	}
	ch := 1
	if r.Float64() < 0.2 {
		ch = 2
	}
	writeWAV(base+".wav", mix, mc.rate, ch, r)
	lab.File = filepath.Base(base) + ".wav"
	lab.SampleRate, lab.Channels, lab.Bits = mc.rate, ch, 16
	lab.Duration = round4(float64(len(mix)) / float64(mc.rate))
	sort.Slice(lab.Speech, func(a, b int) bool { return lab.Speech[a][0] < lab.Speech[b][0] })
	jb, _ := json.MarshalIndent(lab, "", " ")
	if err := os.WriteFile(base+".json", jb, 0o644); err != nil {
		fail("%v", err)
	}
	var ks []string
	for _, s := range strikes {
		ks = append(ks, s.name)
	}
	desc := fmt.Sprintf("%s; %s; hands %+v; %s struck by %s; %s; %s at %.0f dB under the hits; peak %.1f dBFS; %d gestures, %d codes, %d voices",
		rm, mc, hh, mat.name, strings.Join(ks, "+"), strings.Join(recNote, ", "), bgName, snr, level, len(lab.Onsets), len(lab.Codes), len(lab.Speech))
	if err := os.WriteFile(base+".txt", []byte(desc+"\n"+hitLog.String()), 0o644); err != nil {
		fail("%v", err)
	}
	return desc
}

func lay(ps []placed, total int) []float64 {
	x := make([]float64, total)
	for _, p := range ps {
		for i, v := range p.x {
			if p.at+i < total {
				x[p.at+i] += p.gain * v
			}
		}
	}
	return x
}

func pickWeighted(r *rand.Rand, w []float64) int {
	var s float64
	for _, v := range w {
		s += v
	}
	u := r.Float64() * s
	for i, v := range w {
		if u -= v; u < 0 {
			return i
		}
	}
	return len(w) - 1
}

func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }

var phrases = []string{"ha ha ha", "no way", "what was that", "four spiders", "two rats", "pass the crisps",
	"it's my turn", "come on, pick a card", "that's cheating", "papa told me to", "take it back", "cut the cake",
	"top of the pops", "kick it", "tick tock", "pop goes the weasel", "ba ba black sheep", "the spider, the spider!"}

var espeakVoices = []string{"en", "en-us", "en-gb-scotland", "de", "fr-fr", "es", "nl", "it"}
var espeakVariants = []string{"m1", "m3", "m5", "f1", "f2", "f4", "klatt", "croak", "whisper"}

// speak renders a phrase with espeak-ng at renderRate.
func speak(r *rand.Rand, tmp string) []float64 {
	f := filepath.Join(tmp, "talk.wav")
	v := espeakVoices[r.IntN(len(espeakVoices))] + "+" + espeakVariants[r.IntN(len(espeakVariants))]
	cmd := exec.Command("espeak-ng", "-v", v, "-s", fmt.Sprint(140+r.IntN(80)), "-p", fmt.Sprint(20+r.IntN(60)), "-w", f, phrases[r.IntN(len(phrases))])
	if o, err := cmd.CombinedOutput(); err != nil {
		fail("espeak-ng: %v: %s", err, o)
	}
	o, err := exec.Command("sox", "-V1", f, "-t", "raw", "-e", "floating-point", "-b", "32", "-L", "-r", fmt.Sprint(renderRate), "-c", "1", "-").Output()
	if err != nil {
		fail("sox: %v", err)
	}
	x := fromRaw(o)
	scale(x, 1/math.Max(peakAbs(x), 1e-9))
	return x
}

// writeWAV writes x as 16-bit PCM, with dither; a second channel, when
// asked for, is the same sound a little louder or quieter.
func writeWAV(path string, x []float64, rate, ch int, r *rand.Rand) {
	g2 := dbToAmp(uni(r, -2, 2))
	data := make([]byte, 0, len(x)*2*ch)
	for _, v := range x {
		for c := 0; c < ch; c++ {
			s := v
			if c == 1 {
				s *= g2
			}
			q := math.Round(s*32767 + r.Float64() - r.Float64())
			q = math.Max(-32768, math.Min(32767, q))
			data = binary.LittleEndian.AppendUint16(data, uint16(int16(q)))
		}
	}
	var h []byte
	h = append(h, "RIFF"...)
	h = binary.LittleEndian.AppendUint32(h, uint32(36+len(data)))
	h = append(h, "WAVEfmt "...)
	h = binary.LittleEndian.AppendUint32(h, 16)
	h = binary.LittleEndian.AppendUint16(h, 1)
	h = binary.LittleEndian.AppendUint16(h, uint16(ch))
	h = binary.LittleEndian.AppendUint32(h, uint32(rate))
	h = binary.LittleEndian.AppendUint32(h, uint32(rate*2*ch))
	h = binary.LittleEndian.AppendUint16(h, uint16(2*ch))
	h = binary.LittleEndian.AppendUint16(h, 16)
	h = append(h, "data"...)
	h = binary.LittleEndian.AppendUint32(h, uint32(len(data)))
	if err := os.WriteFile(path, append(h, data...), 0o644); err != nil {
		fail("%v", err)
	}
}
