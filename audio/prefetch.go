package audio

import "io"

// Prefetch reads src ahead in its own goroutine, block samples at a time and
// up to depth blocks ahead, so decoding a file overlaps with analysing it.
// The samples and the error at the end are exactly those of src. Close stops
// the reader (it does not close src).
func Prefetch(src Source, block, depth int) *Prefetcher {
	p := &Prefetcher{
		rate: src.SampleRate(),
		ch:   make(chan chunk, depth),
		free: make(chan []float64, depth+2),
		stop: make(chan struct{}),
		done: make(chan struct{}),
	}
	for range depth + 2 {
		p.free <- make([]float64, block)
	}
	go p.run(src)
	return p
}

// Prefetcher is a Source that reads ahead; see Prefetch.
type Prefetcher struct {
	rate int
	ch   chan chunk
	free chan []float64
	stop chan struct{}
	done chan struct{} // closed when the reader goroutine has returned
	cur  []float64     // unread part of the current chunk
	buf  []float64     // the current chunk's buffer, to recycle
	err  error         // the source's final error, once reached
}

type chunk struct {
	data []float64
	err  error
}

func (p *Prefetcher) run(src Source) {
	defer close(p.done)
	defer close(p.ch)
	for {
		var buf []float64
		select {
		case buf = <-p.free:
		case <-p.stop:
			return
		}
		n, err := src.Read(buf)
		select {
		case p.ch <- chunk{buf[:n], err}:
		case <-p.stop:
			return
		}
		if err != nil {
			return
		}
	}
}

// SampleRate implements Source.
func (p *Prefetcher) SampleRate() int { return p.rate }

// Read implements Source.
func (p *Prefetcher) Read(dst []float64) (int, error) {
	n := 0
	for n < len(dst) {
		if len(p.cur) == 0 {
			if p.err != nil {
				return n, p.err
			}
			if p.buf != nil {
				p.free <- p.buf[:cap(p.buf)]
				p.buf = nil
			}
			c, ok := <-p.ch
			if !ok {
				p.err = io.EOF
				continue
			}
			p.cur, p.buf = c.data, c.data
			if c.err != nil {
				p.err = c.err
			}
			continue
		}
		k := copy(dst[n:], p.cur)
		p.cur = p.cur[k:]
		n += k
	}
	return n, nil
}

// Close stops reading ahead and waits for the reader goroutine to return, so
// src may be closed afterwards.
func (p *Prefetcher) Close() error {
	select {
	case <-p.stop:
	default:
		close(p.stop)
	}
	<-p.done
	return nil
}
