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
	seen       dupCounter
	entityRows int
}

type rowBatch struct {
	data  []byte
	ends  []int32 // end of each copied field in data
	lines []int   // line of each row
}

const (
	batchRows  = 2048
	batchBytes = 256 << 10
)

func newRowWorker(width int, keyIdx, nameIdx []int) *rowWorker {
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

// add queues a row (as wide as the header) found at line.
func (w *rowWorker) add(row [][]byte, line int) {
	b := w.cur
	for _, c := range w.cols {
		b.data = append(b.data, row[c]...)
		b.ends = append(b.ends, int32(len(b.data)))
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
		b.data, b.ends, b.lines = b.data[:0], b.ends[:0], b.lines[:0]
		select {
		case w.free <- b:
		default:
		}
	}
}

func (w *rowWorker) process(b *rowBatch) {
	f, start := 0, int32(0)
	for _, line := range b.lines {
		w.key.reset()
		company := false
		for j := range w.cols {
			field := b.data[start:b.ends[f]]
			start = b.ends[f]
			f++
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
		w.seen.add(w.key.sum(), line)
	}
}
