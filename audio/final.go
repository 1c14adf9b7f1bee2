package audio

// finalQueue holds events back while a gesture may still be taken back, for
// a Listener with Config.Final. While a gesture's word watch is open, the
// gesture and every event after it wait; when the watch ends, the gesture is
// dropped (it began a word) or kept, and the events go out in the order
// they were made. At most WordWatch seconds of events wait.
type finalQueue struct {
	out  func(Event)
	q    []Event
	held int64 // the held gesture's first sample; -1 when none is held
}

// emit passes ev on, or queues it behind a held gesture.
func (f *finalQueue) emit(ev Event) {
	if f.held < 0 {
		f.out(ev)
		return
	}
	f.q = append(f.q, ev)
}

// hold queues the gesture o until settle is called for it.
func (f *finalQueue) hold(o *Onset) {
	if f.held < 0 {
		f.held = o.Sample
	}
	f.q = append(f.q, o)
}

// settle ends the wait on the gesture that began at sample on: it is
// dropped when word, and the events behind it go out.
func (f *finalQueue) settle(on int64, word bool) {
	if f.held != on {
		return
	}
	f.held = -1
	q := f.q
	f.q = f.q[:0]
	for i, ev := range q {
		q[i] = nil // the queue's array is kept; the events are not
		if o, ok := ev.(*Onset); ok && word && o.Sample == on {
			continue
		}
		f.out(ev)
	}
}
