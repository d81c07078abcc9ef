package export

import (
	"runtime"
	"sync"

	"github.com/skipdesk/skipdesk/jobs/layout"
)

// A callable export reads each row through the result's layout (names,
// addresses, each phone's number, type and flags joined with the DNC
// results) before judging it. That reading depends on the row alone, so
// readAhead does it on other cores: a goroutine reads the source's rows in
// batches, worker goroutines read each batch through the layout, and Next
// hands the rows back in the source's order. The judging itself (which
// depends on the rows before: a number left out in one row is left out of
// every row, the counts, the places met first) stays in order on the
// caller's goroutine. Memory is bounded by a few batches.

const (
	aheadBatch = 256 // rows per batch
)

// readRow is a row read through the layout, with its addresses read as
// the calling rules read them (when the export gives calling windows).
type readRow struct {
	row   layout.Row
	place rowPlace
}

// rowBatch is a batch of rows read from the source and through the layout.
type rowBatch struct {
	recs  [][]string
	nums  []int // each row's 1-based data row in the file
	rows  []readRow
	n     int
	err   error         // the source's error after the n rows (io.EOF at its end)
	ready chan struct{} // closed once the rows are read through the layout
}

// readAhead reads a source's rows and each row through the layout ahead of
// the caller, on other goroutines, in order.
type readAhead struct {
	src  source
	read func() func(rec []string, row *readRow) // a reader for one goroutine

	started bool
	stopped bool
	// serial reads each row on the caller's goroutine when it is asked for:
	// the reference the tests compare the read-ahead with.
	serial    bool
	serialRow readRow
	serialRd  func(rec []string, row *readRow)
	free      chan *rowBatch
	order     chan *rowBatch
	stop      chan struct{}
	wg        sync.WaitGroup
	cur       *rowBatch
	i         int
}

// newReadAhead reads src's rows ahead; read makes the function that reads a
// row through the layout, one per worker goroutine (a layout.Reader keeps
// caches: one per goroutine).
func newReadAhead(src source, read func() func(rec []string, row *readRow), serial bool) *readAhead {
	return &readAhead{src: src, read: read, serial: serial}
}

// start starts the reading goroutines.
func (a *readAhead) start() {
	workers := max(1, runtime.GOMAXPROCS(0))
	pool := 2*workers + 2
	a.free = make(chan *rowBatch, pool)
	a.order = make(chan *rowBatch, pool)
	a.stop = make(chan struct{})
	work := make(chan *rowBatch, pool)
	for range pool {
		a.free <- &rowBatch{recs: make([][]string, aheadBatch), nums: make([]int, aheadBatch), rows: make([]readRow, aheadBatch)}
	}
	a.wg.Add(1 + workers)
	go func() {
		defer a.wg.Done()
		defer close(work)
		a.produce(work)
	}()
	for range workers {
		go func() {
			defer a.wg.Done()
			read := a.read()
			for b := range work {
				for i := range b.n {
					read(b.recs[i], &b.rows[i])
				}
				close(b.ready)
			}
		}()
	}
	a.started = true
}

// produce fills batches from the source until its end, an error or stop.
func (a *readAhead) produce(work chan<- *rowBatch) {
	for {
		var b *rowBatch
		select {
		case b = <-a.free:
		case <-a.stop:
			return
		}
		b.n, b.err, b.ready = 0, nil, make(chan struct{})
		for b.n < aheadBatch {
			rec, n, err := a.src.Next()
			if err != nil {
				b.err = err
				break
			}
			b.recs[b.n] = append(b.recs[b.n][:0], rec...)
			b.nums[b.n] = n
			b.n++
		}
		select {
		case a.order <- b:
		case <-a.stop:
			return
		}
		work <- b // never blocks: it holds every batch
		if b.err != nil {
			return
		}
	}
}

// next returns the next row, its 1-based data row and the row read through
// the layout (valid until the next call), or the source's error.
func (a *readAhead) next() ([]string, int, *readRow, error) {
	if a.serial {
		return a.nextSerial()
	}
	if !a.started {
		a.start()
	}
	for a.cur == nil || a.i >= a.cur.n {
		if a.cur != nil {
			if a.cur.err != nil {
				return nil, 0, nil, a.cur.err
			}
			a.free <- a.cur
		}
		a.cur, a.i = <-a.order, 0
		<-a.cur.ready
	}
	i := a.i
	a.i++
	return a.cur.recs[i], a.cur.nums[i], &a.cur.rows[i], nil
}

// nextSerial reads the next row on the caller's goroutine.
func (a *readAhead) nextSerial() ([]string, int, *readRow, error) {
	if a.serialRd == nil {
		a.serialRd = a.read()
	}
	rec, n, err := a.src.Next()
	if err != nil {
		return nil, 0, nil, err
	}
	a.serialRd(rec, &a.serialRow)
	return rec, n, &a.serialRow, nil
}

// close stops the reading goroutines and waits for them: the source may be
// closed after.
func (a *readAhead) close() {
	if !a.started || a.stopped {
		return
	}
	a.stopped = true
	close(a.stop)
	a.wg.Wait()
}
