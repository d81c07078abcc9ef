package input

import (
	"sync/atomic"

	"github.com/skipdesk/skipdesk/jobs/entity"
)

// rowWorker does the part of Inspect that looks at whole rows (company
// names, duplicate keys) on a second goroutine, so that it overlaps with
// reading: Inspect copies each row into a batch and hands full batches
// over. Results are final after finish.
//
// When the duplicate key is every column and a row is a plain CSV line (no
// quotes, as wide as the header), the key is made from the line in one
// pass, the delimiter standing for the field separator; otherwise field by
// field. Both give the same key.
//
// Once a tap is set (setTap), the rows added after are handed to it too,
// every column of each, as strings of their own, on a third goroutine that
// the worker passes each batch on to once it has keyed it: the tap's work
// runs beside the reading and the keying, and the reading pays no hand-off
// of its own.
type rowWorker struct {
	// plain is what is copied of a row, tapped what is copied once a
	// tap is set (every column); lay is the one add uses.
	plain, tapped, lay *rowLayout
	// lineKey: the key is every column, so plain lines can be keyed whole,
	// with lineTab (normTab with the delimiter kept as 0x1f).
	lineKey bool
	lineTab [256]uint16

	in, free chan *rowBatch
	tapIn    chan *rowBatch // the batches keyed, to the tap's goroutine
	done     chan struct{}  // closed when both goroutines are done
	cur      *rowBatch
	closed   bool

	tap    Tap         // set by setTap: handed the rows added after
	tapErr error       // the tap's first error (final after finish)
	failed atomic.Bool // tapErr is set: the reading may stop
	strs   []string    // a tapped row's fields

	key        *keyBuf
	hasKey     bool // some column forms the duplicate key
	seen       dupCounter
	keyed      int // rows whose key went into seen
	capLine    int // line of the first row past maxKeyedRows (0: none)
	entityRows int
}

// maxKeyedRows bounds the rows whose duplicate key is remembered, and so
// the memory of duplicate detection (16 to 32 bytes a row: at most 128 MB),
// whatever the file's size. It is eight times the rows of a 50 MB owner
// list (about as many as a 50 MB list of bare phone numbers holds); tests
// lower it.
var maxKeyedRows = 1 << 22

// rowLayout is what a batch holds of a row: cols copied field by field
// (inKey, inName per copied column), or for a whole line the line and
// then wholeCols (wholeName per column).
type rowLayout struct {
	cols          []int  // the columns copied field by field, ascending
	inKey, inName []bool // per copied column: part of the key, a name
	wholeCols     []int  // a whole line's columns copied after it
	wholeName     []bool // per column of wholeCols: a name
}

type rowBatch struct {
	lay   *rowLayout
	tap   Tap // handed every row (nil: none)
	data  []byte
	spans []int32 // start and end in data of each field (or line) copied
	lines []int   // line of each row
	whole []bool  // per row: spans hold the line, then the name fields
}

// A batch is handed over when it holds batchRows rows, batchBytes bytes
// of data or batchSpans spans (rows of thousands of columns).
const (
	batchRows  = 2048
	batchBytes = 256 << 10
	batchSpans = 64 << 10
)

// newRowWorker starts a worker for rows width wide. delim is the CSV
// delimiter, or 0 when rows do not come from CSV lines.
func newRowWorker(width int, keyIdx, nameIdx []int, expectRows int, delim byte) *rowWorker {
	isKey := make([]bool, width)
	isName := make([]bool, width)
	for _, i := range keyIdx {
		isKey[i] = true
	}
	for _, i := range nameIdx {
		isName[i] = true
	}
	w := &rowWorker{
		in:     make(chan *rowBatch, 2),
		free:   make(chan *rowBatch, 6),
		tapIn:  make(chan *rowBatch, 2),
		done:   make(chan struct{}),
		key:    newKeyBuf(),
		plain:  &rowLayout{},
		tapped: &rowLayout{},
	}
	w.lay = w.plain
	w.seen.presize(min(expectRows, maxKeyedRows))
	w.hasKey = len(keyIdx) > 0
	all := width > 0
	for i := range width {
		if isKey[i] || isName[i] {
			w.plain.cols = append(w.plain.cols, i)
			w.plain.inKey = append(w.plain.inKey, isKey[i])
			w.plain.inName = append(w.plain.inName, isName[i])
		}
		if isName[i] {
			w.plain.wholeCols = append(w.plain.wholeCols, i)
			w.plain.wholeName = append(w.plain.wholeName, true)
		}
		w.tapped.cols = append(w.tapped.cols, i)
		w.tapped.inKey = append(w.tapped.inKey, isKey[i])
		w.tapped.inName = append(w.tapped.inName, isName[i])
		all = all && isKey[i]
	}
	w.tapped.wholeCols, w.tapped.wholeName = w.tapped.cols, w.tapped.inName
	if all && delim != 0 {
		w.lineKey = true
		w.lineTab = normTab
		w.lineTab[delim] = 1<<8 | 0x1f
	}
	for range 5 {
		w.free <- &rowBatch{}
	}
	w.cur = &rowBatch{}
	go w.run()
	go w.runTap()
	return w
}

// add queues a row (as wide as the header) found at line. span is what
// the fields point into (nil if unknown); plain says the row is span split
// at the delimiter, nothing else.
func (w *rowWorker) add(row [][]byte, span []byte, plain bool, line int) {
	lay := w.lay
	if len(lay.cols) == 0 {
		return // no name and no key column, no tap: nothing to do
	}
	b := w.cur
	b.lay, b.tap = lay, w.tap
	base := int32(len(b.data))
	whole := plain && w.lineKey && span != nil
	ok := span != nil
	if ok {
		n0 := len(b.spans)
		if whole {
			b.spans = append(b.spans, base, base+int32(len(span)))
		}
		cols := lay.cols
		if whole {
			cols = lay.wholeCols
		}
		for _, c := range cols {
			f := row[c]
			if len(f) == 0 {
				b.spans = append(b.spans, base, base)
				continue
			}
			// f is span[off:off+len(f)]: its capacity tells where.
			off := cap(span) - cap(f)
			if off < 0 || off+len(f) > len(span) {
				b.spans = b.spans[:n0]
				ok = false
				break
			}
			b.spans = append(b.spans, base+int32(off), base+int32(off+len(f)))
		}
		if ok {
			b.data = append(b.data, span...)
		}
	}
	if !ok {
		whole = false
		for _, c := range lay.cols {
			start := int32(len(b.data))
			b.data = append(b.data, row[c]...)
			b.spans = append(b.spans, start, int32(len(b.data)))
		}
	}
	b.lines = append(b.lines, line)
	b.whole = append(b.whole, whole)
	if len(b.lines) >= batchRows || len(b.data) >= batchBytes || len(b.spans) >= batchSpans {
		w.send()
	}
}

// send hands the current batch over.
func (w *rowWorker) send() {
	w.in <- w.cur
	w.cur = <-w.free
}

// setTap hands tap every row added from now on, on the worker's
// goroutine, in order.
func (w *rowWorker) setTap(tap Tap) {
	if len(w.cur.lines) > 0 {
		w.send() // the rows before are not the tap's
	}
	w.tap, w.lay = tap, w.tapped
	w.strs = make([]string, len(w.tapped.cols))
}

// finish processes what is queued and stops the goroutine; calling it
// again does nothing.
func (w *rowWorker) finish() {
	if w.closed {
		return
	}
	w.closed = true
	if len(w.cur.lines) > 0 {
		w.in <- w.cur
	}
	close(w.in)
	<-w.done
	w.seen.flush()
}

func (w *rowWorker) run() {
	defer close(w.tapIn)
	for b := range w.in {
		w.process(b)
		if b.tap != nil {
			w.tapIn <- b
			continue
		}
		w.recycle(b)
	}
}

// runTap hands the tap the rows of each batch the worker has keyed, and
// closes done when there are no more (the worker has ended).
func (w *rowWorker) runTap() {
	defer close(w.done)
	for b := range w.tapIn {
		if w.tapErr == nil {
			w.tapBatch(b)
		}
		w.recycle(b)
	}
}

// recycle empties a batch and gives it back for reuse.
func (w *rowWorker) recycle(b *rowBatch) {
	b.data, b.spans, b.lines, b.whole = b.data[:0], b.spans[:0], b.lines[:0], b.whole[:0]
	select {
	case w.free <- b:
	default:
	}
}

func (w *rowWorker) process(b *rowBatch) {
	f := 0
	for r, line := range b.lines {
		w.key.reset()
		keyed := w.hasKey && w.keyed < maxKeyedRows
		if w.hasKey && !keyed && w.capLine == 0 {
			w.capLine = line
		}
		var company bool
		if b.whole[r] {
			if keyed {
				w.key.addWith(b.data[b.spans[f]:b.spans[f+1]], &w.lineTab)
			}
			f += 2
			company = wholeNames(b, f)
			f += 2 * len(b.lay.wholeCols)
		} else {
			company = w.fieldByField(b, f, keyed)
			f += 2 * len(b.lay.cols)
		}
		if company {
			w.entityRows++
		}
		if keyed {
			w.keyed++
			w.seen.add(w.key.sum(), line)
		}
	}
}

// tapBatch hands the tap each row of a batch whose rows were copied with
// every column (the tapped layout), until it fails.
func (w *rowWorker) tapBatch(b *rowBatch) {
	all := string(b.data)
	f := 0
	for r := range b.lines {
		if b.whole[r] {
			f += 2 // the line
		}
		w.tapRow(b.tap, all, b.spans[f:f+2*len(w.strs)], b.lines[r])
		f += 2 * len(w.strs)
		if w.tapErr != nil {
			return
		}
	}
}

// wholeNames reports whether the name fields of a whole line, from span f
// on, name a company.
func wholeNames(b *rowBatch, f int) bool {
	for j, name := range b.lay.wholeName {
		if name && entity.IsEntityBytes(b.data[b.spans[f+2*j]:b.spans[f+2*j+1]]) {
			return true
		}
	}
	return false
}

// fieldByField keys a row copied field by field, from span f on, and
// reports whether its names name a company.
func (w *rowWorker) fieldByField(b *rowBatch, f int, keyed bool) bool {
	company := false
	for j := range b.lay.cols {
		field := b.data[b.spans[f]:b.spans[f+1]]
		f += 2
		if b.lay.inKey[j] && keyed {
			w.key.add(field)
		}
		if b.lay.inName[j] && !company && entity.IsEntityBytes(field) {
			company = true
		}
	}
	return company
}

// tapRow hands tap the row found at line whose columns are spans of data:
// the strings are cut from one copy of the whole batch's bytes, made once
// a batch (one allocation a row was a tenth of the tap's work).
func (w *rowWorker) tapRow(tap Tap, data string, spans []int32, line int) {
	for i := range w.strs {
		w.strs[i] = data[spans[2*i]:spans[2*i+1]]
	}
	if err := tap(w.strs, line); err != nil {
		w.tapErr = err
		w.failed.Store(true)
	}
}
