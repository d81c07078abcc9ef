package input

// hashSet is a set of 64-bit hashes with open addressing: 8 bytes per slot,
// kept at most half full, so about 16 bytes per distinct value, and no
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
	s.slots = make([]uint64, max(1024, 2*len(old)))
	s.n = 0
	for _, h := range old {
		if h != 0 {
			s.add(h)
		}
	}
}

// len returns the number of distinct hashes.
func (s *hashSet) len() int { return s.n }
