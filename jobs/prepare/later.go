package prepare

import "math/bits"

// laterSet finds a count's duplicate rows after the rows are read rather
// than row by row (one probe of a whole-list set a row is a cache miss a
// row): the rows' keys are split by their top byte into 256 parts, each
// kept in file order as the rows come (appends: no look-up), and after the
// pass each part is looked up in a set of its own size, one part after
// the other, in cache. Equal keys always go to the same part in file
// order, so the rows found repeated are the ones a row-by-row look-up
// finds. Each key carries what its row added to the counts (rowEffect), so
// that a row found repeated is taken back out of the counts that leave
// duplicates out, and its place among the rows handed on (for a counter
// that hands them: NewCounterHanding). It holds 24 bytes a row, where a
// whole-list set held 32.
type laterSet struct {
	parts [256][]laterKey
	found func(rowEffect, uint32)
}

type laterKey struct {
	k   [2]uint64
	eff rowEffect
	row uint32 // the row's place among the rows handed on (when handed)
}

// rowEffect is what a counted row added beyond its row: bit 0 it was
// handed on (Keep did not leave it out), bit 1 it is a company row, bits
// 2–9 the ZIP codes it padded, bit 10+i the split i that failed on it.
type rowEffect uint32

const (
	effHanded   rowEffect = 1
	effCompany  rowEffect = 2
	effPadShift           = 2
	effPadMax             = 255
	effSplit0             = 10
	// maxLaterSplits is the most splits a rowEffect holds.
	maxLaterSplits = 32 - effSplit0
)

func (e rowEffect) padded() int { return int(e>>effPadShift) & effPadMax }

// failed calls fn with each split that failed on the row.
func (e rowEffect) failed(fn func(split int)) {
	for f := uint32(e >> effSplit0); f != 0; f &= f - 1 {
		fn(bits.TrailingZeros32(f))
	}
}

// newLaterSet is a set sized for about n rows; found is called with the
// effect and the place of each row found repeating an earlier one (by
// flush).
func newLaterSet(n int, found func(rowEffect, uint32)) *laterSet {
	s := &laterSet{found: found}
	for i := range s.parts {
		s.parts[i] = make([]laterKey, 0, n/len(s.parts)+n/len(s.parts)/8)
	}
	return s
}

func (s *laterSet) add(k [2]uint64, eff rowEffect, row uint32) {
	p := k[0] >> 56
	s.parts[p] = append(s.parts[p], laterKey{k, eff, row})
}

// flush looks every key up: the rows found repeated are then all known.
func (s *laterSet) flush() {
	most := 0
	for _, q := range s.parts {
		most = max(most, len(q))
	}
	set := newKeySet(most)
	for p, q := range s.parts {
		clear(set.slots)
		set.n = 0
		for _, e := range q {
			if set.seenBefore(e.k) {
				s.found(e.eff, e.row)
			}
		}
		s.parts[p] = nil
	}
}
