package input

import "github.com/skipdesk/skipdesk/jobs/entity"

// rowWorker does the part of Inspect that looks at whole rows (company
// names, duplicate keys) on a second goroutine, so that it overlaps with
// reading: Inspect copies the needed fields of each row into a batch and
// hands full batches over. Results are final after finish.
type rowWorker struct {
	cols   []int  // the columns copied, ascending
	inKey  []bool // per copied column: part of the duplicate key
	inName []bool // per copied column: a name column

	in, free chan *rowBatch
	done     chan struct{}
	cur      *rowBatch
	closed   bool

	key        *keyBuf
	hasKey     bool // some column forms the duplicate key
	seen       dupCounter
	entityRows int
}

type rowBatch struct {
	data  []byte
	spans []int32 // start and end in data of each copied field
	lines []int   // line of each row
}

const (
	batchRows  = 2048
	batchBytes = 256 << 10
)

func newRowWorker(width int, keyIdx, nameIdx []int, expectRows int) *rowWorker {
	isKey := make([]bool, width)
	isName := make([]bool, width)
	for _, i := range keyIdx {
		isKey[i] = true
	}
	for _, i := range nameIdx {
		isName[i] = true
	}
	w := &rowWorker{
		in:   make(chan *rowBatch, 2),
		free: make(chan *rowBatch, 3),
		done: make(chan struct{}),
		key:  newKeyBuf(),
	}
	w.seen.presize(expectRows)
	w.hasKey = len(keyIdx) > 0
	for i := range width {
		if isKey[i] || isName[i] {
			w.cols = append(w.cols, i)
			w.inKey = append(w.inKey, isKey[i])
			w.inName = append(w.inName, isName[i])
		}
	}
	for range 2 {
		w.free <- &rowBatch{}
	}
	w.cur = &rowBatch{}
	go w.run()
	return w
}

// add queues a row (as wide as the header) found at line. When every field
// points into span (the record as the scanner holds it), span is copied
// once and the fields located in it; otherwise the fields are copied one
// by one.
func (w *rowWorker) add(row [][]byte, span []byte, line int) {
	if len(w.cols) == 0 {
		return // no name and no key column: nothing to do
	}
	b := w.cur
	base := int32(len(b.data))
	if span != nil {
		n0 := len(b.spans)
		for _, c := range w.cols {
			f := row[c]
			if len(f) == 0 {
				b.spans = append(b.spans, base, base)
				continue
			}
			// f is span[off:off+len(f)]: its capacity tells where.
			off := cap(span) - cap(f)
			if off < 0 || off+len(f) > len(span) {
				b.spans = b.spans[:n0]
				span = nil
				break
			}
			b.spans = append(b.spans, base+int32(off), base+int32(off+len(f)))
		}
		if span != nil {
			b.data = append(b.data, span...)
		}
	}
	if span == nil {
		for _, c := range w.cols {
			start := int32(len(b.data))
			b.data = append(b.data, row[c]...)
			b.spans = append(b.spans, start, int32(len(b.data)))
		}
	}
	b.lines = append(b.lines, line)
	if len(b.lines) >= batchRows || len(b.data) >= batchBytes {
		w.in <- b
		w.cur = <-w.free
	}
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
	defer close(w.done)
	for b := range w.in {
		w.process(b)
		b.data, b.spans, b.lines = b.data[:0], b.spans[:0], b.lines[:0]
		select {
		case w.free <- b:
		default:
		}
	}
}

func (w *rowWorker) process(b *rowBatch) {
	f := 0
	for _, line := range b.lines {
		w.key.reset()
		company := false
		for j := range w.cols {
			field := b.data[b.spans[f]:b.spans[f+1]]
			f += 2
			if w.inKey[j] {
				w.key.add(field)
			}
			if w.inName[j] && !company && entity.IsEntityBytes(field) {
				company = true
			}
		}
		if company {
			w.entityRows++
		}
		if w.hasKey {
			w.seen.add(w.key.sum(), line)
		}
	}
}
