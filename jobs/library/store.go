package library

import (
	"bytes"
	"slices"
	"sort"
)

// store is the viewer's column store of a result, built once in one pass
// over the file (Result.Index): every row's cells folded (see fold), in
// segments of chunkRows rows, and the sort keys of the columns whose
// values are all numbers or all dates. Read-only once built; memory about
// the file's size.
type store struct {
	segs    []segment
	n       int // rows
	columns int // the header's
	// kinds say how each column sorts; keys are the stored sort keys of
	// the columns that need them (0: a blank cell), nil for the others.
	kinds []keyKind
	keys  [][]uint64
	// rarity counts each byte in a sample of the text: the rarest byte
	// of a word is looked for first.
	rarity [256]uint32
}

// segment is the folded text of chunkRows rows (fewer in the last one).
type segment struct {
	text []byte  // the rows' cells folded, each cell followed by cellEnd
	at   []int32 // where each row starts in text; len rows+1
	// lens are the folded lengths of the cells of the header's columns,
	// row after row (longLen: that long or longer), so that a cell is
	// found without reading the text before it.
	lens []uint8
}

// longLen is the length kept for a cell this long or longer.
const longLen = 255

// keyKind is how a column sorts.
type keyKind uint8

const (
	keyText   keyKind = iota // by its folded text
	keyPlain                 // by number, every value a plain whole number: its key is read from its folded digits
	keyStored                // by number or date, with keys stored
)

// rows is the number of rows in the store.
func (s *store) rows() int { return s.n }

// row is row i's folded text, its cells each followed by cellEnd.
func (s *store) row(i int) []byte {
	g := &s.segs[i/chunkRows]
	k := i % chunkRows
	return g.text[g.at[k]:g.at[k+1]]
}

// cellSpan is where row i's folded cell c (of the header's columns) is
// (see textRef) and its length (0 when the row has fewer cells).
func (s *store) cellSpan(i, c int) (textRef, int) {
	g := &s.segs[i/chunkRows]
	k := i % chunkRows
	at, end := int(g.at[k]), int(g.at[k+1])
	lens := g.lens[k*s.columns : (k+1)*s.columns]
	if n := lens[c]; n != longLen {
		// The lengths before it say where it is.
		for _, l := range lens[:c] {
			if l == longLen {
				return s.scanCell(i, c)
			}
			at += int(l) + 1
		}
		if at >= end {
			return 0, 0 // the row has fewer cells
		}
		return newTextRef(i/chunkRows, at), int(n)
	}
	return s.scanCell(i, c)
}

// scanCell is cellSpan read through the row's text.
func (s *store) scanCell(i, c int) (textRef, int) {
	g := &s.segs[i/chunkRows]
	k := i % chunkRows
	at, end := int(g.at[k]), int(g.at[k+1])
	for ; c > 0; c-- {
		j := bytes.IndexByte(g.text[at:end], cellEnd)
		if j < 0 {
			return 0, 0
		}
		at += j + 1
	}
	j := bytes.IndexByte(g.text[at:end], cellEnd)
	return newTextRef(i/chunkRows, at), max(j, 0)
}

// textRef is a place in the store's text: a segment and an offset in it.
type textRef int64

func newTextRef(seg, off int) textRef { return textRef(int64(seg)<<32 | int64(off)) }

// bytes are the n bytes at ref.
func (s *store) bytes(ref textRef, n int) []byte {
	t := s.segs[ref>>32].text
	off := int(ref & (1<<32 - 1))
	return t[off : off+n]
}

// key is row r's sort key in column col (0: blank) for a column sorted by
// number or date.
func (s *store) key(r int, col int) uint64 {
	if s.kinds[col] == keyStored {
		return s.keys[col][r]
	}
	ref, n := s.cellSpan(r, col)
	if n == 0 {
		return 0
	}
	return plainKey(s.bytes(ref, n))
}

// rarest is the index in w of its rarest byte.
func (s *store) rarest(w []byte) int {
	best := 0
	for i := 1; i < len(w); i++ {
		if s.rarity[w[i]] < s.rarity[w[best]] {
			best = i
		}
	}
	return best
}

// rowAt is the row of segment g whose text holds byte p, looked for from
// row from on (rows are found in order: the next is usually near).
func (g *segment) rowAt(p int32, from int) int {
	for i := from; i < from+8 && i+1 < len(g.at); i++ {
		if g.at[i+1] > p {
			return i
		}
	}
	return sort.Search(len(g.at)-1, func(i int) bool { return g.at[i+1] > p })
}

// storeParts is a store being assembled from chunks, in file order.
type storeParts struct {
	s     store
	typed []typedColumn
}

func newStoreParts(columns, expectRows int) *storeParts {
	p := &storeParts{typed: make([]typedColumn, columns)}
	p.s.columns = columns
	p.s.segs = make([]segment, 0, expectRows/chunkRows+1)
	return p
}

// add appends a folded chunk.
func (p *storeParts) add(c *chunkOut) {
	if p.s.rarity == ([256]uint32{}) {
		for _, b := range c.text { // the first chunk is a fair sample
			p.s.rarity[b]++
		}
	}
	first := p.s.n
	p.s.segs = append(p.s.segs, segment{text: c.text, at: append(c.at, int32(len(c.text))), lens: c.lens})
	p.s.n += c.rows()
	for col := range p.typed {
		p.typed[col].add(first, c.rows(), &c.typed[col])
	}
}

// done finishes the store.
func (p *storeParts) done() *store {
	s := &p.s
	s.kinds = make([]keyKind, len(p.typed))
	s.keys = make([][]uint64, len(p.typed))
	for col := range p.typed {
		s.kinds[col], s.keys[col] = p.typed[col].finish(s, col)
	}
	return s
}

// clipText is text with no spare capacity (it is kept for as long as the
// result is open).
func clipText(text []byte) []byte {
	if cap(text)-len(text) < 64 {
		return text
	}
	return slices.Clone(text)
}
