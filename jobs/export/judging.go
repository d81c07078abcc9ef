package export

import (
	"runtime"
	"sync"
)

// A callable export's rows are judged on every core: one goroutine reads
// the result's rows in batches (and profiles them for the layout's guess,
// and hashes them for the proof: both want every row in order); a judge
// per core takes a batch and builds its written rows; Next hands the rows
// over batch by batch in the file's order. What the judges count is added
// up once every row is read. A number's answer must not depend on which
// judge read it: where a row's answer may differ from another row's, the
// numbers left out were read before the rows (readFlagged) and the judges
// only consult them; where the number decides (layout.NumberDecides) each
// row says it itself.

// judgedBatch is rows read (in, with the error that ended the reading:
// io.EOF at the end), then judged (out: the written rows, with the error
// that refused a row: a preset's).
type judgedBatch struct {
	in, out rowBatch
	done    chan struct{} // closed once judged
	taken   int           // written rows handed over
}

// judges is how many goroutines judge rows; judgedRows how many rows a
// batch holds (tests spread a few rows over every judge).
var (
	judges     = func() int { return max(2, runtime.GOMAXPROCS(0)) }
	judgedRows = aheadRows
)

// judging is the pipeline of a mergeSource that judges on every core.
type judging struct {
	work  chan *judgedBatch // to the judges
	order chan *judgedBatch // to Next, in the file's order
	free  chan *judgedBatch
	quit  chan struct{}
	wg    sync.WaitGroup
	cur   *judgedBatch // the batch Next hands rows from
}

// startJudging starts the reading and the judges.
func (m *mergeSource) startJudging() {
	n := judges()
	batches := 2*n + 2
	p := &judging{work: make(chan *judgedBatch, n), order: make(chan *judgedBatch, batches),
		free: make(chan *judgedBatch, batches), quit: make(chan struct{})}
	for range batches {
		p.free <- &judgedBatch{}
	}
	for range n {
		j := m.newRowJudge(m.time.clone())
		m.judges = append(m.judges, j)
		p.wg.Add(1)
		go p.judge(j)
	}
	p.wg.Add(1)
	go p.read(m)
	m.par = p
}

// read reads the source's rows into batches, each sent to Next's queue
// before a judge takes it; the last carries the error that ended it.
func (p *judging) read(m *mergeSource) {
	defer p.wg.Done()
	defer close(p.work)
	var profile func([]string)
	if m.guess != nil {
		profile = m.guess.add
	}
	for {
		b, ok := take(p.free, p.quit)
		if !ok {
			return
		}
		b.out.reset()
		b.taken, b.done = 0, make(chan struct{})
		if !b.in.fill(m.src, judgedRows, p.quit, profile) {
			return
		}
		p.order <- b // never blocks: it holds every batch
		if !give(p.work, b, p.quit) || b.in.err != nil {
			return
		}
	}
}

// judge judges the batches it takes until the reading ends.
func (p *judging) judge(j *rowJudge) {
	defer p.wg.Done()
	for b := range p.work {
		for i := range b.in.ends {
			out, ok := j.merge(b.in.row(i))
			if !ok {
				continue
			}
			n := b.in.src[i]
			if j.m.shape == nil {
				b.out.add(out, n)
				continue
			}
			rows, err := j.m.shape(j, n)
			if err != nil {
				b.out.err = err // the rows before it stand; none after
				break
			}
			for k, r := range rows {
				if k > 0 {
					n = 0 // a source row's second row and after
				}
				b.out.add(r, n)
			}
		}
		close(b.done)
	}
}

// next is the next written row and its row in the source, in the file's
// order; at the end of the rows, the error that ended the reading.
func (p *judging) next() ([]string, int, error) {
	for {
		b := p.cur
		if b == nil {
			b = <-p.order
			<-b.done
			p.cur = b
		}
		if b.taken < len(b.out.ends) {
			i := b.taken
			b.taken++
			return b.out.row(i), b.out.src[i], nil
		}
		if b.out.err != nil {
			return nil, 0, b.out.err
		}
		if b.in.err != nil {
			return nil, 0, b.in.err
		}
		p.cur = nil
		p.free <- b
	}
}

// stop ends the reading and waits for it and the judges: the source is
// the caller's again.
func (p *judging) stop() {
	close(p.quit)
	p.wg.Wait()
}
