package library

import "math/bits"

// bitset is a set of rows, one bit a row.
type bitset []uint64

func newBitset(n int) bitset { return make(bitset, (n+63)/64) }

func (b bitset) has(i int32) bool { return b[i>>6]&(1<<(uint(i)&63)) != 0 }

func (b bitset) set(i int32) { b[i>>6] |= 1 << (uint(i) & 63) }

// bitsetOf is the set of rows (of n) listed in rows.
func bitsetOf(rows []int32, n int) bitset {
	b := newBitset(n)
	for _, i := range rows {
		b.set(i)
	}
	return b
}

// rows lists the set's rows in order.
func (b bitset) rows() []int32 {
	n := 0
	for _, w := range b {
		n += bits.OnesCount64(w)
	}
	out := make([]int32, 0, n)
	for k, w := range b {
		for w != 0 {
			i := bits.TrailingZeros64(w)
			out = append(out, int32(k*64+i))
			w &= w - 1
		}
	}
	return out
}

// keep is the rows of rows (in order) that are in the set.
func (b bitset) keep(rows []int32) []int32 {
	out := make([]int32, 0, len(rows)/2)
	for _, i := range rows {
		if b.has(i) {
			out = append(out, i)
		}
	}
	return out
}
