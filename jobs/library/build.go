package library

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sync"

	"github.com/skipdesk/skipdesk/jobs/calltime"
	"github.com/skipdesk/skipdesk/jobs/layout"
)

// The column store and the phone index are built in one pass over the
// file: one goroutine finds where rows start (the scanner: quotes decide,
// so this part cannot be split), the others parse and fold chunks of rows
// on every core, and the calling goroutine puts the chunks together in
// file order, reporting progress as they come.

// chunkRows is how many rows a worker takes at a time.
const chunkRows = 8192

// chunkIn is a run of rows to read.
type chunkIn struct {
	seq    int
	starts []int64 // where each row starts in the file
	end    int64   // where the last row ends
}

// chunkOut is what a worker read of a chunk.
type chunkOut struct {
	seq    int
	n      int // rows
	end    int64
	text   []byte  // the rows folded (nil when not folding)
	at     []int32 // where each row starts in text
	lens   []uint8 // the folded length of each cell (see segment)
	typed  []chunkTyped
	phones *phoneChunk // nil without a layout
	cells  []string    // the sink's cells, row after row (see RowSink)
	err    error
}

func (c *chunkOut) rows() int { return len(c.at) }

// builder is one pass over a result's rows.
type builder struct {
	r *Result
	// The rows known when the pass began: their starts, whether they are
	// every row, and where the scan of the others starts; the number of
	// rows expected.
	known    []int64
	complete bool
	tailOff  int64
	tailLine int
	expect   int

	fold    bool                  // build the column store
	reader  func() *layout.Reader // read phones through the layout; nil not
	places  *calltime.Places      // place each row's addresses (with reader); nil not
	sink    *RowSink              // sees every row, in file order; nil none
	columns int
	hints   *typeHints

	// What the pass found.
	starts   []int64
	unclosed int
}

// built is what a pass hands back.
type built struct {
	st       *store
	phones   *phoneIndex
	starts   []int64
	unclosed int
}

// run makes the pass: ctx cancels it; progress is called with bytes.
func (b *builder) run(parent context.Context, progress Progress) (*built, error) {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	workers := max(runtime.GOMAXPROCS(0), 1)
	in := make(chan chunkIn, workers)
	out := make(chan chunkOut, workers)
	var scanErr error
	var wg sync.WaitGroup
	wg.Go(func() {
		defer close(in)
		scanErr = b.produce(ctx, in)
	})
	var work sync.WaitGroup
	for range workers {
		work.Go(func() { b.work(ctx, in, out) })
	}
	go func() {
		work.Wait()
		close(out)
	}()
	res, err := b.collect(ctx, out, progress)
	cancel()
	for range out { // let the workers finish
	}
	wg.Wait()
	if err == nil {
		err = scanErr
	}
	if err == nil {
		err = parent.Err()
	}
	if err != nil {
		return nil, err
	}
	res.starts, res.unclosed = b.starts, b.unclosed
	return res, nil
}

// produce hands out chunks of rows: those whose starts are known, then
// those the scanner finds after the first page.
func (b *builder) produce(ctx context.Context, in chan<- chunkIn) error {
	r := b.r
	if b.complete {
		b.starts = b.known // every row's start is known: read-only from now
		return b.emit(ctx, in, 0, len(b.starts))
	}
	b.starts = slices.Grow(slices.Clone(b.known), b.expect-len(b.known))
	sc := newScanner(io.NewSectionReader(r.f, b.tailOff, r.size-b.tailOff), b.tailOff)
	sc.line = b.tailLine
	sent := 0
	for {
		start, rec, err := sc.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("library: read %s: line %d: %w", r.path, sc.line+1, err)
		}
		if blankRecord(rec) {
			continue
		}
		b.starts = append(b.starts, start)
		// A chunk goes once the row after it is found: its end is known.
		if len(b.starts)-sent > chunkRows {
			if err := b.emit(ctx, in, sent, sent+chunkRows); err != nil {
				return err
			}
			sent += chunkRows
		}
	}
	b.unclosed = sc.unclosed
	return b.emit(ctx, in, sent, len(b.starts))
}

// emit hands out rows [from, to) in chunks.
func (b *builder) emit(ctx context.Context, in chan<- chunkIn, from, to int) error {
	for a := from; a < to; a += chunkRows {
		z := min(a+chunkRows, to)
		end := b.r.size
		if z < len(b.starts) {
			end = b.starts[z]
		}
		select {
		case in <- chunkIn{seq: a / chunkRows, starts: b.starts[a:z:z], end: end}:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// work reads chunks until there are none.
func (b *builder) work(ctx context.Context, in <-chan chunkIn, out chan<- chunkOut) {
	var rd *layout.Reader
	if b.reader != nil {
		rd = b.reader()
	}
	w := chunkWorker{b: b, rd: rd}
	for c := range in {
		o := w.read(c)
		select {
		case out <- o:
		case <-ctx.Done():
			return
		}
	}
}

// chunkWorker reads chunks; its buffers are reused.
type chunkWorker struct {
	b   *builder
	rd  *layout.Reader
	raw []byte
	rec []string
	row layout.Row
}

func (w *chunkWorker) read(c chunkIn) chunkOut {
	b := w.b
	o := chunkOut{seq: c.seq, n: len(c.starts), end: c.end}
	from := c.starts[0]
	n := int(c.end - from)
	w.raw = slices.Grow(w.raw[:0], n)[:n]
	if _, err := b.r.f.ReadAt(w.raw, from); err != nil && !(errors.Is(err, io.EOF) && c.end == b.r.size) {
		o.err = fmt.Errorf("library: read %s: %w", b.r.path, err)
		return o
	}
	if b.fold {
		o.text = make([]byte, 0, n+len(c.starts))
		o.at = make([]int32, 0, len(c.starts)+1)
		o.lens = make([]uint8, 0, len(c.starts)*b.columns)
		o.typed = make([]chunkTyped, b.columns)
	}
	if w.rd != nil {
		o.phones = &phoneChunk{}
	}
	if b.sink != nil {
		o.cells = make([]string, 0, len(c.starts)*len(b.sink.Columns))
	}
	for i, s := range c.starts {
		e := c.end
		if i+1 < len(c.starts) {
			e = c.starts[i+1]
		}
		w.rec = parseRecord(w.raw[s-from:e-from], w.rec)
		fixRecord(w.raw[s-from:e-from], w.rec)
		if b.fold {
			w.foldRow(&o, i, len(c.starts))
		}
		if w.rd != nil {
			o.phones.add(w.rd, b.places, w.rec, &w.row)
		}
		if b.sink != nil {
			for _, c := range b.sink.Columns {
				o.cells = append(o.cells, cellOf(w.rec, c))
			}
		}
	}
	o.text = clipText(o.text)
	return o
}

// foldRow folds the record read (row i of n in the chunk) into o.
func (w *chunkWorker) foldRow(o *chunkOut, i, n int) {
	o.at = append(o.at, int32(len(o.text)))
	for c, v := range w.rec {
		at := len(o.text)
		o.text = appendFold(o.text, v)
		if c < len(o.typed) {
			o.lens = append(o.lens, uint8(min(len(o.text)-at, longLen)))
			o.typed[c].cell(w.b.hints, c, i, n, v)
		}
		o.text = append(o.text, cellEnd)
	}
	for c := len(w.rec); c < len(o.typed); c++ {
		o.lens = append(o.lens, 0) // a cell the row lacks
	}
}

// collect puts the chunks together in file order.
func (b *builder) collect(ctx context.Context, out <-chan chunkOut, progress Progress) (*built, error) {
	r := b.r
	var parts *storeParts
	if b.fold {
		parts = newStoreParts(b.columns, b.expect)
	}
	var phones *phoneIndex
	if b.reader != nil {
		phones = newPhoneIndex(b.expect)
	}
	var feed chan<- sinkChunk
	if b.sink != nil {
		var wait func()
		feed, wait = b.sink.start(len(r.headers))
		defer wait()
		defer close(feed)
	}
	if progress != nil {
		progress(0, r.size)
	}
	pending := map[int]chunkOut{}
	next := 0
	for o := range out {
		if o.err != nil {
			return nil, o.err
		}
		pending[o.seq] = o
		for c, ok := pending[next]; ok; c, ok = pending[next] {
			delete(pending, next)
			next++
			if parts != nil {
				parts.add(&c)
			}
			if phones != nil {
				phones.add(c.phones)
			}
			if feed != nil {
				feed <- sinkChunk{n: c.n, cells: c.cells}
			}
			if progress != nil {
				progress(c.end, r.size)
			}
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	if phones != nil {
		phones.done(b.places)
	}
	res := &built{phones: phones}
	if parts != nil {
		res.st = parts.done()
	}
	return res, nil
}

// RowSink sees every row of a result as Index reads it, in file order, on
// a goroutine of its own: only the cells of Columns are set (the others
// are ""). The rows are read on every core; Add is called for one row at
// a time and must not keep rec.
type RowSink struct {
	Columns []int
	Add     func(rec []string)
}

// sinkChunk is a chunk's rows for a sink: n rows of the sink's cells.
type sinkChunk struct {
	n     int
	cells []string
}

// start runs the sink: it is fed each chunk's rows, and wait waits for it
// to see the last once feed is closed.
func (k *RowSink) start(width int) (feed chan<- sinkChunk, wait func()) {
	ch := make(chan sinkChunk, 4)
	done := make(chan struct{})
	go func() {
		defer close(done)
		rec := make([]string, width)
		for c := range ch {
			for row := range c.n {
				for i, col := range k.Columns {
					if col >= 0 && col < width {
						rec[col] = c.cells[row*len(k.Columns)+i]
					}
				}
				k.Add(rec)
			}
		}
	}()
	return ch, func() { <-done }
}

// cellOf is rec's cell i, "" past its end.
func cellOf(rec []string, i int) string {
	if i < 0 || i >= len(rec) {
		return ""
	}
	return rec[i]
}
