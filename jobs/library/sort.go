package library

import (
	"bytes"
	"context"
	"encoding/binary"
)

// A sort orders rows by a column's keys (typed, or the folded text),
// stable: ties keep file order, either way; blank cells go last, either
// way. The ascending order is computed once (a radix sort of the keys) and
// its groups of equal keys marked, so that descending is the groups in
// reverse, each still in file order: no second sort.

// colOrder is rows sorted by one column, ascending.
type colOrder struct {
	rows     []int32 // the rows with a value, ascending, then the blank ones in file order
	nonBlank int     // how many rows have a value
	group    bitset  // over positions: rows[i] starts a group of equal keys
}

// view is the order ascending, or descending.
func (o *colOrder) view(desc bool) []int32 {
	if !desc {
		return o.rows
	}
	out := make([]int32, 0, len(o.rows))
	end := o.nonBlank
	for i := o.nonBlank - 1; i >= 0; i-- {
		if o.group.has(int32(i)) {
			out = append(out, o.rows[i:end]...)
			end = i
		}
	}
	return append(out, o.rows[o.nonBlank:]...)
}

// restrict is the order of the rows in keep alone, groups kept.
func (o *colOrder) restrict(keep bitset, size int) *colOrder {
	out := &colOrder{rows: make([]int32, 0, size), group: newBitset(size)}
	open := false // the current group has a row in keep already
	for i, r := range o.rows {
		if i < o.nonBlank && o.group.has(int32(i)) {
			open = false
		}
		if !keep.has(r) {
			continue
		}
		if i < o.nonBlank && !open {
			out.group.set(int32(len(out.rows)))
			open = true
		}
		if i < o.nonBlank {
			out.nonBlank++
		}
		out.rows = append(out.rows, r)
	}
	return out
}

// sortItem is a row with the part of its key being sorted on.
type sortItem struct {
	key uint64
	row int32
	n   int32   // text: the cell's length
	at  textRef // text: where the cell is
}

// sortRows sorts rows (in file order; nil for every row) by column col.
func (s *store) sortRows(ctx context.Context, rows []int32, col int) (*colOrder, error) {
	n := s.rows()
	if rows != nil {
		n = len(rows)
	}
	// The keys are read on every core.
	type part struct{ items, blanks []sortItem }
	parts, err := inParts(ctx, n, func(lo, hi int) (p part) {
		p.items = make([]sortItem, 0, hi-lo)
		for k := lo; k < hi; k++ {
			r := int32(k)
			if rows != nil {
				r = rows[k]
			}
			if it, ok := s.item(r, col); ok {
				p.items = append(p.items, it)
			} else {
				p.blanks = append(p.blanks, sortItem{row: r})
			}
		}
		return p
	})
	if err != nil {
		return nil, err
	}
	items := make([]sortItem, 0, n)
	var blanks []int32
	for _, p := range parts {
		items = append(items, p.items...)
		for _, b := range p.blanks {
			blanks = append(blanks, b.row)
		}
	}
	tmp := make([]sortItem, len(items))
	o := &colOrder{rows: make([]int32, 0, n), nonBlank: len(items), group: newBitset(len(items))}
	if s.kinds[col] == keyText {
		// The groups are marked as the sort goes: comparing neighbours
		// afterwards would read the text in random order.
		s.sortText(items, tmp, 0, o.group, 0)
	} else {
		radixSort(items, tmp)
		for i := range items {
			if i == 0 || items[i-1].key != items[i].key {
				o.group.set(int32(i))
			}
		}
	}
	for i := range items {
		o.rows = append(o.rows, items[i].row)
	}
	o.rows = append(o.rows, blanks...)
	return o, ctx.Err()
}

// item is row r's sort item for column col; false for a blank cell.
func (s *store) item(r int32, col int) (sortItem, bool) {
	if s.kinds[col] != keyText {
		k := s.key(int(r), col)
		return sortItem{key: k, row: r}, k != 0
	}
	at, n := s.cellSpan(int(r), col)
	if n == 0 {
		return sortItem{}, false
	}
	return sortItem{key: chunk8(s.bytes(at, n), 0), row: r, n: int32(n), at: at}, true
}

// cellOf is a text item's cell.
func (s *store) cellOf(it *sortItem) []byte { return s.bytes(it.at, int(it.n)) }

// chunk8 is the 8 bytes of c from depth on, big-endian, zero-padded: as
// numbers they order as the bytes do.
func chunk8(c []byte, depth int) uint64 {
	if depth >= len(c) {
		return 0
	}
	c = c[depth:]
	if len(c) >= 8 {
		return binary.BigEndian.Uint64(c)
	}
	var b [8]byte
	copy(b[:], c)
	return binary.BigEndian.Uint64(b[:])
}

// sortText sorts text items by their cells' bytes from depth on (the
// bytes before are equal), 8 bytes a round, and marks in group where a
// run of equal cells starts (items are at position at of the whole).
// Folded text holds no zero byte, so equal 8-byte rounds with nothing
// after them are equal cells.
func (s *store) sortText(items, tmp []sortItem, depth int, group bitset, at int) {
	if len(items) <= 32 {
		s.insertionSort(items, depth)
		for i := range items {
			if i == 0 || !bytes.Equal(s.cellOf(&items[i-1]), s.cellOf(&items[i])) {
				group.set(int32(at + i))
			}
		}
		return
	}
	if depth > 0 {
		for i := range items {
			it := &items[i]
			it.key = chunk8(s.cellOf(it), depth)
		}
	}
	radixSort(items, tmp)
	// Runs of equal 8 bytes with more bytes after them go another round.
	for a := 0; a < len(items); {
		z := a + 1
		longer := int(items[a].n) > depth+8
		for z < len(items) && items[z].key == items[a].key {
			longer = longer || int(items[z].n) > depth+8
			z++
		}
		if z-a > 1 && longer {
			s.sortText(items[a:z], tmp[a:z], depth+8, group, at+a)
		} else {
			group.set(int32(at + a))
		}
		a = z
	}
}

// insertionSort sorts a few text items by their cells from depth on,
// stable.
func (s *store) insertionSort(items []sortItem, depth int) {
	tail := func(it *sortItem) []byte {
		c := s.cellOf(it)
		return c[min(depth, len(c)):]
	}
	for i := 1; i < len(items); i++ {
		for j := i; j > 0 && bytes.Compare(tail(&items[j-1]), tail(&items[j])) > 0; j-- {
			items[j-1], items[j] = items[j], items[j-1]
		}
	}
}

// radixSort sorts items by key, stable (least significant byte first;
// a byte that is the same in every key costs nothing).
func radixSort(items, tmp []sortItem) {
	if len(items) < 2 {
		return
	}
	var counts [8][256]int
	for i := range items {
		k := items[i].key
		for b := range 8 {
			counts[b][byte(k>>(8*b))]++
		}
	}
	src, dst := items, tmp
	for b := range 8 {
		c := &counts[b]
		if c[byte(src[0].key>>(8*b))] == len(src) {
			continue
		}
		sum := 0
		for v := range c {
			c[v], sum = sum, sum+c[v]
		}
		for i := range src {
			v := byte(src[i].key >> (8 * b))
			dst[c[v]] = src[i]
			c[v]++
		}
		src, dst = dst, src
	}
	if &src[0] != &items[0] {
		copy(items, src)
	}
}
