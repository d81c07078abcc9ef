package input

// hashSet is a set of 64-bit hashes with open addressing: 8 bytes per slot,
// kept at most half full, so about 16 bytes per distinct value and no
// per-entry allocation. The value 0 marks an empty slot; a hash of 0 is
// stored as 1 (a negligible extra collision).
type hashSet struct {
	slots []uint64
	n     int
}

// add inserts h and reports whether it was new.
func (s *hashSet) add(h uint64) bool {
	if h == 0 {
		h = 1
	}
	if s.n*2 >= len(s.slots) {
		s.grow()
	}
	mask := uint64(len(s.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		switch s.slots[i] {
		case 0:
			s.slots[i] = h
			s.n++
			return true
		case h:
			return false
		}
	}
}

func (s *hashSet) grow() {
	old := s.slots
	s.slots = make([]uint64, max(64, 2*len(old)))
	s.n = 0
	for _, h := range old {
		if h != 0 {
			s.add(h)
		}
	}
}

// dupCounter counts the values (row-key hashes) already seen. A plain hash
// set of half a million rows is several megabytes: each insert is a cache
// miss. dupCounter splits the hashes by their top byte into 256 small sets
// and queues the inserts of each part, inserting a part's queue in one go
// while its set is in cache. Equal hashes always go to the same part and
// each part's queue keeps file order, so the count is the same as with
// immediate inserts; only the answer comes later (after flush).
type dupCounter struct {
	parts     [256]hashSet
	queue     [256][]queued
	dups      int
	firstLine int // smallest line of a duplicate row
}

type queued struct {
	h    uint64
	line int
}

const dupQueue = 128

func (d *dupCounter) add(h uint64, line int) {
	p := h >> 56
	q := append(d.queue[p], queued{h, line})
	if len(q) == cap(q) && len(q) >= dupQueue {
		d.flushPart(int(p), q)
		q = q[:0]
	}
	d.queue[p] = q
}

func (d *dupCounter) flushPart(p int, q []queued) {
	set := &d.parts[p]
	for _, e := range q {
		if !set.add(e.h) {
			d.dups++
			if d.firstLine == 0 || e.line < d.firstLine {
				d.firstLine = e.line
			}
		}
	}
}

// presize makes room for about n distinct hashes, so that the sets do not
// grow (and rehash) while reading; a bad guess only costs memory or time.
func (d *dupCounter) presize(n int) {
	n = min(n, 1<<24) / len(d.parts)
	if n < 32 {
		return
	}
	size := 64
	for size <= 2*n {
		size *= 2
	}
	for i := range d.parts {
		d.parts[i].slots = make([]uint64, size)
	}
}

// flush inserts every queued hash; dups and firstLine are then final.
func (d *dupCounter) flush() {
	for p := range d.queue {
		d.flushPart(p, d.queue[p])
		d.queue[p] = d.queue[p][:0]
	}
}

// distinct returns the number of distinct hashes inserted so far.
func (d *dupCounter) distinct() int {
	n := 0
	for i := range d.parts {
		n += d.parts[i].n
	}
	return n
}
