package reuse

import (
	"slices"

	"github.com/skipdesk/skipdesk/jobs/index"
	"github.com/skipdesk/skipdesk/jobs/mapping"
)

// Owners gathers the rows of a trace's upload for the quote's look-up by
// the hash of their owner key (index.OwnerHash), keeping no key: a quote
// counts the rows the library holds by hash, as Traced matches them. It
// is Gather for a look-up in the index's owner runs read ahead
// (index.OwnerRuns), where Gather's keys serve Lookup.
type Owners struct {
	m    mapping.Mapping
	cols ownerCols
	k    index.Keyer
	rows []owner // the rows handed, in order
}

// owner is a row of the upload: its owner hash (keyed: it has one),
// whether its owner is a company and whether it repeats an earlier row.
type owner struct {
	h                  int64
	keyed, entity, dup bool
}

// NewOwners gathers the rows of an upload with mapping m, about n rows.
func NewOwners(m mapping.Mapping, n int) *Owners { return &Owners{m: m, rows: make([]owner, 0, n)} }

// Row takes the upload's header (header true), then each of its rows and
// whether it is a company row by the upload's name columns, the rule
// Keys.Row's Entity follows (the hand of prepare.NewCounterHanding).
func (o *Owners) Row(rec []string, header, company bool) error {
	if header {
		o.cols = ownerColumns(rec, o.m)
		return nil
	}
	r := owner{entity: company}
	if o.cols.street >= 0 {
		c := &o.cols
		r.h, r.keyed = o.k.Hash(at(rec, c.first), at(rec, c.last), "", index.Address{Street: at(rec, c.street),
			City: at(rec, c.city), State: at(rec, c.state), Zip: at(rec, c.zip)})
	}
	o.rows = append(o.rows, r)
	return nil
}

// Dup marks the i-th row handed (0 the first) as repeating an earlier
// row (the dup of prepare.NewCounterHanding).
func (o *Owners) Dup(i int) { o.rows[i].dup = true }

// Hashes are the rows' owner hashes, sorted, each once.
func (o *Owners) Hashes() []int64 {
	hs := make([]int64, 0, len(o.rows))
	for _, r := range o.rows {
		if r.keyed {
			hs = append(hs, r.h)
		}
	}
	sortHashes(hs)
	return slices.Compact(hs)
}

// sortHashes sorts hashes as slices.Sort does, by their bytes from the
// lowest (a radix sort: half a million of a list's hashes sort in about a
// quarter of slices.Sort's time, BenchmarkSortHashes).
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
