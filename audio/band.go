package audio

import (
	"math"

	"github.com/tableref/tableref/audio/gesture"
	"github.com/tableref/tableref/audio/internal/decimate"
)

// A telephone line (a Bluetooth headset's microphone in its calling mode)
// carries nothing above 4 kHz, where a clap is brightest. Its sounds are
// judged by the network trained on recordings heard that way (gesture.Narrow).
// A stream sampled under gesture.NarrowBelow is narrow from the start. A
// faster one is narrow when the sound server has resampled such a line up:
// its loud moments carry next to nothing above 5 kHz, where a microphone
// heard in full always carries something (a clap's brightness, a room's
// hiss, a voice's sibilants).
//
// The onset analysis frames tell. A frame is loud when it stands BandLoudDB
// over the quiet frames (a floor that follows every drop at once and climbs
// back at RoomRisePerSecond) and reaches MinGestureDB; a run of loud frames
// is one sound. Each sound's brightness is the largest share of a frame's
// power at 5-7.5 kHz over its first SoundFrames loud frames (a bang rings
// on, dull, long after the hit). Once BandMinSounds sounds have been heard,
// the brightest of the last BandSounds decides: under NarrowTopDB, the
// stream is narrow; over WideTopDB, it is wide (again). A handful of sounds
// are needed, since a clean room's first ones may be dull bangs.
//
// In our recordings heard in full, no run of sounds stayed under -32 dB;
// 8 kHz recordings resampled up to 48 kHz stay under -40 dB in nine files
// in ten, and so does the virtual microphone's resampling (PulseAudio).
const (
	BandLoudDB    = 20.0
	SoundFrames   = 32
	BandSounds    = 16
	BandMinSounds = 3
	NarrowTopDB   = -40.0
	WideTopDB     = -25.0
)

// The room tells too, before the sounds do: a telephone line's hiss has
// nothing above 4 kHz either, while a microphone heard in full hears its own
// hiss there. Frames within BandRoomNearDB of the floor, and louder than
// BandRoomMinDB (a file's rounding noise is white whatever the line), are
// the room; once BandRoomFrames of them have been heard, and until
// BandMinSounds sounds have been, the room decides: narrow when its power
// at 5-7.5 kHz is under NarrowRoomDB of its power at 1-3.5 kHz (over the
// last BandRoomSeconds or so).
//
// In our recordings heard in full (dev and heldJ-Q, 304 files with a room
// above the rounding noise), the room's share never fell under -22 dB; the
// same resampled from 8 kHz (rate-8k-up, dev and heldN-Q, 166 files) never
// rose over -36 dB.
const (
	BandRoomNearDB  = 6.0
	BandRoomMinDB   = -80.0
	BandRoomFrames  = 30
	BandRoomSeconds = 2.0
	NarrowRoomDB    = -30.0
)

// midLo and midHi bound the band the room's top band is weighed against.
const midLo, midHi = 1000.0, 3500.0

// topLo and topHi bound the band, in Hz, that a telephone line lacks.
const topLo, topHi = 5000.0, 7500.0

// bandWatch decides which band a stream is heard in.
type bandWatch struct {
	band  gesture.Band
	fixed bool   // sampled too slowly to be anything but narrow
	top   [2]int // the bins of [topLo, topHi)
	norm  float64
	rise  float64 // dB the floor climbs per frame
	floor float64 // dBFS, of the frames
	init  bool
	// the sound under way: its loud frames so far, its brightest share
	// (dB), and the quiet frames since its last loud one
	frames int
	bright float64
	gap    int
	sounds ring // the brightness of the last BandSounds sounds
	// the room between sounds: its power in the top band and in the mid
	// band (decaying sums) and how many of its frames have been heard
	mid              [2]int
	roomTop, roomMid float64
	roomFrames       int
	decay            float64
}

// soundGap is how many quiet frames end a sound.
const soundGap = 3

// newBandWatch watches a stream sampled at rate Hz and analysed at arate Hz
// in frames of n samples every hop samples.
func newBandWatch(rate, arate, n, hop int) bandWatch {
	b := bandWatch{band: gesture.BandOfRate(rate), sounds: newRing(BandSounds)}
	bin := func(hz float64) int { return min(n/2, int(math.Round(hz*float64(n)/float64(arate)))) }
	b.top = [2]int{bin(topLo), bin(math.Min(topHi, 0.45*float64(arate)))}
	b.mid = [2]int{bin(midLo), bin(midHi)}
	b.fixed = b.band == gesture.Narrow || b.top[1]-b.top[0] < 2
	b.decay = math.Exp(-float64(hop) / float64(arate) / BandRoomSeconds)
	// a Hann-windowed frame's one-sided power sums to about 3/16 n² times
	// its mean square
	b.norm = 3.0 / 16 * float64(n) * float64(n)
	b.rise = RoomRisePerSecond * float64(hop) / float64(arate)
	return b
}

// frame takes one analysis frame's power spectrum.
func (b *bandWatch) frame(power []float64) {
	if b.fixed || len(power) <= b.top[1] {
		return
	}
	var top, mid, all float64
	for k, p := range power {
		all += p
		if k >= b.top[0] && k < b.top[1] {
			top += p
		}
		if k >= b.mid[0] && k < b.mid[1] {
			mid += p
		}
	}
	if all <= 0 {
		return // digital silence says nothing
	}
	db := 10 * math.Log10(all/b.norm)
	switch {
	case !b.init:
		b.floor, b.init = db, true
	case db < b.floor:
		b.floor = db
	default:
		b.floor += b.rise
	}
	if db < b.floor+BandRoomNearDB && db >= BandRoomMinDB {
		b.room(top, mid)
	}
	if db < b.floor+BandLoudDB || db < MinGestureDB {
		if b.frames > 0 {
			if b.gap++; b.gap >= soundGap {
				b.soundEnd()
			}
		}
		return
	}
	b.gap = 0
	if b.frames++; b.frames > SoundFrames {
		return
	}
	share := 10 * math.Log10(top/all+1e-12)
	if b.frames == 1 || share > b.bright {
		b.bright = share
	}
}

// room takes a frame of the room (near the floor, loud enough to be more
// than a file's rounding noise) into its decaying sums and, until sounds
// decide, lets the room decide.
func (b *bandWatch) room(top, mid float64) {
	b.roomTop = b.roomTop*b.decay + top
	b.roomMid = b.roomMid*b.decay + mid
	b.roomFrames++
	if b.sounds.n >= BandMinSounds || b.roomFrames < BandRoomFrames || b.roomMid <= 0 {
		return
	}
	share := 10 * math.Log10(b.roomTop/b.roomMid+1e-12)
	if share < NarrowRoomDB {
		b.band = gesture.Narrow
	} else {
		b.band = gesture.Wide
	}
}

// soundEnd takes the sound that has just ended into the decision.
func (b *bandWatch) soundEnd() {
	b.sounds.add(b.bright)
	b.frames, b.gap = 0, 0
	if b.sounds.n < BandMinSounds {
		return
	}
	most := b.sounds.max()
	switch {
	case most < NarrowTopDB:
		b.band = gesture.Narrow
	case most > WideTopDB:
		b.band = gesture.Wide
	}
}

// lineDown brings a segment of a stream down to about a telephone line's
// own rate, 8 kHz, by an integer factor: every factor-th sample, low-passed
// under the lower rate's Nyquist frequency by a symmetric windowed sinc (cut
// at 0.45 of the lower rate, centred on each sample kept), so that a line
// the sound server resampled up is measured as the line itself sounds (the
// features of a spectrum that is empty above 4 kHz are not those of the
// line's own). The zero value, and a stream at about 8 kHz already, have
// factor 1: nothing to do.
type lineDown struct {
	factor int
	fir    []float64
	out    []float64
}

// lineTaps is the low-pass's half-length, in samples of the lower rate.
const lineTaps = 8

func newLineDown(rate int) lineDown {
	k := max(1, int(math.Round(float64(rate)/8000)))
	d := lineDown{factor: k}
	if k == 1 {
		return d
	}
	d.fir = decimate.LowPass(lineTaps*k, 0.45/float64(k))
	return d
}

// down returns x brought down by the factor, with sample at of x on sample
// at/factor of the result (which is reused by the next call). Near the ends
// of x the filter uses what there is.
func (d *lineDown) down(x []float64, at int) []float64 {
	k, half := d.factor, len(d.fir)/2
	d.out = d.out[:0]
	for j := at % k; j < len(x); j += k {
		var acc, sum float64
		for i := max(0, half-j); i < min(len(d.fir), len(x)-j+half); i++ {
			acc += d.fir[i] * x[j+i-half]
			sum += d.fir[i]
		}
		d.out = append(d.out, acc/sum)
	}
	return d.out
}
