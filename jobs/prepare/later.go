package prepare

import (
	"math/bits"
)

// laterSet finds a count's duplicate rows after the rows are read rather
// than row by row: the rows' keys are split by their top byte into 256
// small sets, and each part's keys are queued and inserted in one go while
// its set is in cache (one probe of a whole-list set a row is a cache miss
// a row). Equal keys always go to the same part and each queue keeps file
// order, so the rows found repeated are the ones a row-by-row look-up
// finds. Each key carries what its row added to the counts (rowEffect), so
// that a row found repeated is taken back out of the counts that leave
// duplicates out.
type laterSet struct {
	parts [256]keySet
	queue [256][]laterKey
	found func(rowEffect)
}

type laterKey struct {
	k   [2]uint64
	eff rowEffect
}

// rowEffect is what a counted row added beyond its row: bit 0 it was
// handed on (Keep did not leave it out), bit 1 it is a company row, bits
// 2–9 the ZIP codes it padded, bit 10+i the split i that failed on it.
type rowEffect uint64

const (
	effHanded   rowEffect = 1
	effCompany  rowEffect = 2
	effPadShift           = 2
	effPadMax             = 255
	effSplit0             = 10
	// maxLaterSplits is the most splits a rowEffect holds.
	maxLaterSplits = 64 - effSplit0
)

func (e rowEffect) padded() int { return int(e>>effPadShift) & effPadMax }

// failed calls fn with each split that failed on the row.
func (e rowEffect) failed(fn func(split int)) {
	for f := uint64(e >> effSplit0); f != 0; f &= f - 1 {
		fn(bits.TrailingZeros64(f))
	}
}

const laterQueue = 256

// newLaterSet is a set sized for about n rows; found is called with the
// effect of each row found repeating an earlier one.
func newLaterSet(n int, found func(rowEffect)) *laterSet {
	s := &laterSet{found: found}
	for i := range s.parts {
		s.parts[i] = *newKeySet(n / len(s.parts))
	}
	return s
}

func (s *laterSet) add(k [2]uint64, eff rowEffect) {
	p := k[0] >> 56
	q := append(s.queue[p], laterKey{k, eff})
	if len(q) >= laterQueue {
		s.flushPart(int(p), q)
		q = q[:0]
	}
	s.queue[p] = q
}

func (s *laterSet) flushPart(p int, q []laterKey) {
	set := &s.parts[p]
	for _, e := range q {
		if set.seenBefore(e.k) {
			s.found(e.eff)
		}
	}
}

// flush looks up every queued key: the rows found repeated are then all
// known.
func (s *laterSet) flush() {
	for p := range s.queue {
		s.flushPart(p, s.queue[p])
		s.queue[p] = s.queue[p][:0]
	}
}
