package audio

import "github.com/tableref/tableref/audio/gesture"

// A judge is the stage that names an onset: it is given the onset's
// features and everything else it may go by (judgeContext), and returns its
// judgement. It changes nothing but itself: what it found (a gesture only
// as heard in a hall, the features measured again for the repeat rule) is
// in the judgement, for the Listener to pass on to its watches.
//
// The shipped judge is shippedJudge; Config.Judge replaces it (funcJudge).
// A table's calibration (Config.Calibration) is an option of shippedJudge,
// applied where its judge method says.
type judge interface {
	judge(f gesture.Features, c judgeContext) judgement
	// sure reports whether a gesture judged with features f in context c
	// tells the loud room how far the hands stand over the room: named
	// with the full margin, over the room itself (see loudRoom).
	sure(f gesture.Features, c judgeContext) bool
}

// judgeContext is what a judge goes by besides the onset's features.
type judgeContext struct {
	// On is the onset's first sample (Config.Judge is told it).
	On int64
	// Band is the stream's band: which network names the onset.
	Band gesture.Band
	// Holed: digital silence came before the onset, so it was measured
	// against the room as last heard. A hall's margin and rules, and the
	// repeat rule, do not apply then.
	Holed bool
	// Wet is how reverberant the room has been found, 0 (dry) to 1
	// (reverbWatch): at 1 a late peak and a hold are the room's.
	Wet float64
	// Noisy: the room is loud with a steady noise, and the loud room's
	// network has a say (loudRoom.noisy).
	Noisy bool
	// Margin is how much more likely than "other" a gesture must be
	// (Listener.context: lowered in a reverberant or a loud room, raised
	// for a sound faint beside the hands heard).
	Margin float64
	// Last is the last gesture reported (on -1 before any), and Since the
	// seconds from it to this onset: a bang of a run follows a bang.
	Last  lastGesture
	Since float64
	// Remeasure measures the onset again, in full although it rose only
	// rise dB (gesture.Analyzer.Rise), for the repeat rule. Nil: it cannot
	// be measured again.
	Remeasure func(rise float64) gesture.Features
}

// judgement is what a judge made of an onset.
type judgement struct {
	Kind gesture.Kind
	// Features are the onset's features as judged: those given, or those
	// measured again for the repeat rule.
	Features gesture.Features
	// Hall: a gesture only as heard in a hall (see HallAttackMs); its word
	// watch takes it back at its first voiced frame.
	Hall bool
	// Repeat: another bang of a run, by the repeat rule (gesture.Repeats).
	Repeat bool
}

// lastGesture is the last onset emitted as a gesture.
type lastGesture struct {
	on    int64 // -1 before any
	kind  gesture.Kind
	level float64
}

// shippedJudge judges with the shipped networks: the band's own, with the
// loud room's beside it in a loud room (gesture.LoudRoomModel), under the
// context's margin; in a hall, a hit's late peak and hold are taken for the
// room's; a calibration taught in the context's band names this table's
// claps and bangs as the microphone check heard them; and an onset named
// "other" may yet be another bang of a run.
type shippedJudge struct {
	// cal is what the microphone check taught about this table
	// (Config.Calibration, Listener.SetCalibration), or nil.
	cal *gesture.Calibration
}

func (s *shippedJudge) judge(f gesture.Features, c judgeContext) judgement {
	m := gesture.Model(c.Band)
	if c.Band == gesture.Wide && c.Noisy {
		m = gesture.LoudRoomModel()
	}
	j := judgement{Kind: m.ClassifyWith(f, c.Margin), Features: f}
	if !c.Holed && c.Wet >= 1 && (f.AttackMs > HallAttackMs || f.Decay > HallDecayDB) {
		h := f
		h.AttackMs = min(h.AttackMs, HallAttackMs)
		h.Decay = min(h.Decay, HallDecayDB)
		k := m.ClassifyWith(h, c.Margin)
		j.Hall = k.IsGesture() && !j.Kind.IsGesture()
		j.Kind = k
	}
	if s.cal != nil && s.cal.Band() == c.Band {
		// this table's own claps and bangs, as the check taught them:
		// before the repeat rule, which asks the network again
		j.Kind = s.cal.Name(f, j.Kind)
	}
	if j.Kind != gesture.Other || !mayRepeat(c) {
		return j
	}
	if !f.Considered() && f.Sudden >= gesture.RepeatRise && c.Since <= gesture.RepeatMax && c.Remeasure != nil {
		// It may be a bang of the run that barely lifted the ringing of
		// the last: measured in full to be asked.
		j.Features = c.Remeasure(gesture.RepeatRise)
	}
	if gesture.Model(c.Band).Repeats(j.Features, c.Since, c.Last.level) {
		j.Kind, j.Repeat = gesture.Bang, true // another bang of a run, on the ringing of the last
	}
	return j
}

func (*shippedJudge) sure(f gesture.Features, c judgeContext) bool {
	return !c.Holed && gesture.Model(c.Band).ClassifyWith(f, gesture.Margin).IsGesture()
}

// mayRepeat reports whether an onset the network named "other" may still
// be another bang of a run (see gesture.Repeats): the last gesture was a
// bang. Never after digital silence: a gate that closed between them left
// no ringing for a bang to land on, and a gate opening on talk after a
// false bang would otherwise make a run of them.
func mayRepeat(c judgeContext) bool {
	return !c.Holed && c.Last.on >= 0 && c.Last.kind == gesture.Bang
}

// funcJudge is Config.Judge as a judge: it names each onset from its first
// sample and features, and nothing else (no hall, no repeat rule); every
// gesture it names over the room itself counts for the loud room.
type funcJudge func(sample int64, f gesture.Features) gesture.Kind

func (j funcJudge) judge(f gesture.Features, c judgeContext) judgement {
	return judgement{Kind: j(c.On, f), Features: f}
}

func (funcJudge) sure(_ gesture.Features, c judgeContext) bool { return !c.Holed }
