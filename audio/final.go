package audio

// finalQueue holds events back while a gesture may still be taken back, for
// a Listener with Config.Final. From a gesture held until its verdict is in,
// every event after it waits too; when the verdict comes, the gesture is
// kept or dropped, and the events before the next gesture still waiting go
// out in the order they were made. A gesture waits at most for its word
// watch and for the gap after it (see loneWatch), so at most about Gap
// seconds of events wait.
type finalQueue struct {
	out func(Event)
	q   []queued
}

// queued is an event in the queue; wait marks a gesture whose verdict is
// not in yet, drop one that was taken back.
type queued struct {
	ev         Event
	wait, drop bool
}

// emit passes ev on, or queues it behind a held gesture.
func (f *finalQueue) emit(ev Event) {
	if len(f.q) == 0 {
		f.out(ev)
		return
	}
	f.q = append(f.q, queued{ev: ev})
}

// hold queues the gesture o until keep or drop is called for it.
func (f *finalQueue) hold(o *Onset) {
	f.q = append(f.q, queued{ev: o, wait: true})
}

// keep ends the wait on the gesture that began at sample on: it goes out.
func (f *finalQueue) keep(on int64) { f.verdict(on, false) }

// drop ends the wait on the gesture that began at sample on: it never goes
// out.
func (f *finalQueue) drop(on int64) { f.verdict(on, true) }

func (f *finalQueue) verdict(on int64, drop bool) {
	for i := range f.q {
		if o, ok := f.q[i].ev.(*Onset); ok && f.q[i].wait && o.Sample == on {
			f.q[i].wait, f.q[i].drop = false, drop
			break
		}
	}
	n := 0
	for n < len(f.q) && !f.q[n].wait {
		if !f.q[n].drop {
			f.out(f.q[n].ev)
		}
		f.q[n] = queued{} // the queue's array is kept; the events are not
		n++
	}
	if n > 0 {
		m := copy(f.q, f.q[n:])
		clear(f.q[m:])
		f.q = f.q[:m]
	}
}
