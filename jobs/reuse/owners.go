package reuse

import (
	"slices"
	"sync"

	"github.com/skipdesk/skipdesk/jobs/index"
	"github.com/skipdesk/skipdesk/jobs/mapping"
)

// Owners gathers the rows of a trace's upload for the quote's look-up by
// the hash of their owner key (index.OwnerHash), keeping no key: a quote
// counts the rows the library holds by hash, as Traced matches them. It
// is Gather for a look-up in the index's owner runs read ahead
// (index.OwnerRuns), where Gather's keys serve Lookup.
//
// The owner keys are made and hashed on a goroutine of Owners' own, a
// batch of rows' fields at a time, beside the count that hands the rows:
// Hashes waits for it, and Close stops it when Hashes is not called.
type Owners struct {
	m    mapping.Mapping
	cols ownerCols
	rows []owner // the rows handed, in order

	batch  *ownerBatch      // the rows handed since the last batch went
	work   chan *ownerBatch // to the hashing goroutine
	free   chan *ownerBatch // batches it is done with
	done   chan struct{}    // closed when it has hashed every batch
	hashed []hashed         // its answers, a row each in order (once done)
	once   sync.Once
}

// owner is a row of the upload: its owner hash (keyed: it has one),
// whether its owner is a company and whether it repeats an earlier row.
type owner struct {
	h                  int64
	keyed, entity, dup bool
}

type hashed struct {
	h     int64
	keyed bool
}

// ownerBatch is rows' owner key fields, ownerFields a row.
type ownerBatch struct{ fields []string }

const (
	ownerFields = 6 // first, last, street, city, state, zip
	batchRows   = 1024
)

// NewOwners gathers the rows of an upload with mapping m, about n rows.
func NewOwners(m mapping.Mapping, n int) *Owners { return &Owners{m: m, rows: make([]owner, 0, n)} }

// Row takes the upload's header (header true), then each of its rows and
// whether it is a company row by the upload's name columns, the rule
// Keys.Row's Entity follows (the hand of prepare.NewCounterHanding).
func (o *Owners) Row(rec []string, header, company bool) error {
	if header {
		o.cols = ownerColumns(rec, o.m)
		if o.cols.street >= 0 {
			o.start()
		}
		return nil
	}
	o.rows = append(o.rows, owner{entity: company})
	if o.work == nil {
		return nil // no property address: no row has a key
	}
	c := &o.cols
	o.batch.fields = append(o.batch.fields, at(rec, c.first), at(rec, c.last), at(rec, c.street), at(rec, c.city),
		at(rec, c.state), at(rec, c.zip))
	if len(o.batch.fields) == batchRows*ownerFields {
		o.send()
	}
	return nil
}

// start starts the hashing goroutine.
func (o *Owners) start() {
	o.work, o.free, o.done = make(chan *ownerBatch, 4), make(chan *ownerBatch, 8), make(chan struct{})
	o.hashed = make([]hashed, 0, cap(o.rows))
	o.batch = &ownerBatch{fields: make([]string, 0, batchRows*ownerFields)}
	go func() {
		defer close(o.done)
		var k index.Keyer
		for b := range o.work {
			for f := b.fields; len(f) > 0; f = f[ownerFields:] {
				h, ok := k.Hash(f[0], f[1], "", index.Address{Street: f[2], City: f[3], State: f[4], Zip: f[5]})
				o.hashed = append(o.hashed, hashed{h, ok})
			}
			clear(b.fields) // the strings go
			b.fields = b.fields[:0]
			select {
			case o.free <- b:
			default:
			}
		}
	}()
}

// send hands the batch to the hashing goroutine and starts another.
func (o *Owners) send() {
	o.work <- o.batch
	select {
	case o.batch = <-o.free:
	default:
		o.batch = &ownerBatch{fields: make([]string, 0, batchRows*ownerFields)}
	}
}

// wait hands the last batch on and waits for every row's hash.
func (o *Owners) wait() {
	o.once.Do(func() {
		if o.work == nil {
			return
		}
		if len(o.batch.fields) > 0 {
			o.work <- o.batch
		}
		close(o.work)
		<-o.done
		for i, h := range o.hashed {
			o.rows[i].h, o.rows[i].keyed = h.h, h.keyed
		}
		o.hashed = nil
	})
}

// Close stops the hashing goroutine (Hashes has it finish first).
func (o *Owners) Close() {
	if o != nil {
		o.wait()
	}
}

// Dup marks the i-th row handed (0 the first) as repeating an earlier
// row (the dup of prepare.NewCounterHanding).
func (o *Owners) Dup(i int) { o.rows[i].dup = true }

// Hashes are the rows' owner hashes, sorted, each once. The rows are all
// handed: Row is not called again.
func (o *Owners) Hashes() []int64 {
	o.wait()
	hs := make([]int64, 0, len(o.rows))
	for i := range o.rows {
		// Only h and keyed are read: the count may be marking rows' dup
		// meanwhile (its duplicates are found after the pass too).
		if r := &o.rows[i]; r.keyed {
			hs = append(hs, r.h)
		}
	}
	sortHashes(hs)
	return slices.Compact(hs)
}

// sortHashes sorts hashes as slices.Sort does, by their bytes from the
// lowest (a radix sort: half a million of a list's hashes sort in about a
// quarter of slices.Sort's time, BenchmarkSortHashes). It is the viewer's
// radixSort (jobs/library/sort.go) over plain hashes: one generic sort
// taking a key function served both, but made the viewer's sorts a
// quarter slower (BenchmarkSort400k 24 ms to 31 ms), so each keeps its
// own loop.
func sortHashes(hs []int64) {
	if len(hs) < 1<<12 {
		slices.Sort(hs)
		return
	}
	var counts [8][256]int
	for _, h := range hs {
		k := uint64(h) ^ 1<<63 // in int64's order
		for d := range counts {
			counts[d][byte(k>>(8*d))]++
		}
	}
	tmp := make([]int64, len(hs))
	src, dst := hs, tmp
	for d := range counts {
		c := &counts[d]
		if c[byte((uint64(hs[0])^1<<63)>>(8*d))] == len(hs) {
			continue // every hash has this byte
		}
		at := 0
		for b, n := range c {
			c[b] = at
			at += n
		}
		for _, h := range src {
			b := byte((uint64(h) ^ 1<<63) >> (8 * d))
			dst[c[b]] = h
			c[b]++
		}
		src, dst = dst, src
	}
	if &src[0] != &hs[0] {
		copy(hs, src)
	}
}

// Hits are the rows the library holds (with the rows repeating an earlier
// one and without them), given what it holds of each of Hashes.
func (o *Owners) Hits(hashes []int64, held []index.Newest) (all, noDup []Hit) {
	found := map[int64]index.Newest{}
	for i, n := range held {
		if n.Found {
			found[hashes[i]] = n
		}
	}
	if len(found) == 0 {
		return nil, nil
	}
	for _, r := range o.rows {
		n, ok := found[r.h]
		if !ok || !r.keyed {
			continue
		}
		h := Hit{Date: n.Date, Enhanced: n.Enhanced, Entity: r.entity}
		all = append(all, h)
		if !r.dup {
			noDup = append(noDup, h)
		}
	}
	return all, noDup
}
