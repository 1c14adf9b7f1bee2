package audio

// grouper gathers gestures into codes: a code ends when no gesture has been
// heard for gap samples.
type grouper struct {
	gap         int64
	open        bool
	first, last int64
	order       []byte
}

func (g *grouper) add(o *Onset) {
	if !g.open {
		g.open, g.first, g.order = true, o.Sample, g.order[:0]
	}
	g.last = o.Sample
	g.order = append(g.order, o.Kind.Letter())
}

// due returns the open code once the gap has passed at position now, unless
// an onset still being judged (at sample hold, or -1 for none) started within
// the gap and could extend the code.
func (g *grouper) due(now, hold int64, rate int) *Code {
	if !g.open || now < g.last+g.gap || (hold >= 0 && hold < g.last+g.gap) {
		return nil
	}
	return g.flush(rate)
}

// flush returns the open code, if any, and closes it.
func (g *grouper) flush(rate int) *Code {
	if !g.open {
		return nil
	}
	g.open = false
	c := &Code{
		Start: float64(g.first) / float64(rate),
		End:   float64(g.last) / float64(rate),
		Order: string(g.order),
	}
	for _, b := range g.order {
		switch b {
		case 'B':
			c.Bangs++
		case 'C':
			c.Claps++
		}
	}
	return c
}
