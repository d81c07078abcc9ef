package layout

import "math/bits"

// numberIDs maps numbers (phone.Key: never 0) to ids. It is an open-addressed
// table of keys with their ids beside them, at most three quarters full
// (four slots to a cache line, probed in line): a look-up
// mostly reads one slot, where a map reads its group's control word and
// then its slot; looking up every phone of a result in a join of 80,000
// numbers, that is a cache miss a phone less.
type numberIDs struct {
	slots []numberSlot // a power of two of them; key 0: empty
	n     int
	shift uint // 64 - log2(len(slots))
}

type numberSlot struct {
	key uint64
	id  int32
}

// slot is where key's search starts (Fibonacci hashing: the numbers of one
// exchange, adjacent, spread over the table).
func (t *numberIDs) slot(key uint64) int {
	return int((key * 0x9E3779B97F4A7C15) >> t.shift)
}

// get is key's id, and whether the table has key.
func (t *numberIDs) get(key uint64) (int32, bool) {
	if key == 0 || t.n == 0 {
		return 0, false
	}
	mask := len(t.slots) - 1
	for i := t.slot(key); ; i = (i + 1) & mask {
		s := &t.slots[i]
		switch s.key {
		case key:
			return s.id, true
		case 0:
			return 0, false
		}
	}
}

// put gives key (not 0, not in the table) its id.
func (t *numberIDs) put(key uint64, id int32) {
	if 4*(t.n+1) > 3*len(t.slots) {
		t.grow()
	}
	t.place(key, id)
	t.n++
}

func (t *numberIDs) place(key uint64, id int32) {
	mask := len(t.slots) - 1
	i := t.slot(key)
	for t.slots[i].key != 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = numberSlot{key, id}
}

// grow doubles the table (16 slots at first) and places every key again.
func (t *numberIDs) grow() {
	old := t.slots
	size := max(16, 2*len(old))
	t.slots = make([]numberSlot, size)
	t.shift = uint(64 - bits.TrailingZeros(uint(size)))
	for _, s := range old {
		if s.key != 0 {
			t.place(s.key, s.id)
		}
	}
}
