package phone

// numberSet is a set of 10-digit numbers (below 2³⁴) that costs about 5 to
// 11 bytes a number, where a Go map of uint64 costs over 40: a 50 MB list
// of bare numbers holds 4.5 million of them. The low 10 bits of a number
// choose one of 1024 tables; the table keeps the other 24 bits (plus one,
// so that 0 marks an empty slot) in 32-bit slots, with linear probing, at
// most three quarters full.
type numberSet struct {
	parts [1024]numberTable
	n     int
}

type numberTable struct {
	slots []uint32
	n     int
}

// add inserts num and reports whether it was new.
func (s *numberSet) add(num uint64) bool {
	t := &s.parts[num&1023]
	if t.add(uint32(num>>10) + 1) {
		s.n++
		return true
	}
	return false
}

// len is the number of distinct numbers added.
func (s *numberSet) len() int { return s.n }

func (t *numberTable) add(v uint32) bool {
	if 4*(t.n+1) > 3*len(t.slots) {
		t.grow()
	}
	mask := uint32(len(t.slots) - 1)
	for i := (v * 2654435761) & mask; ; i = (i + 1) & mask {
		switch t.slots[i] {
		case 0:
			t.slots[i] = v
			t.n++
			return true
		case v:
			return false
		}
	}
}

func (t *numberTable) grow() {
	old := t.slots
	t.slots = make([]uint32, max(16, 2*len(old)))
	t.n = 0
	for _, v := range old {
		if v != 0 {
			t.add(v)
		}
	}
}
