package phone

import "slices"

// KeySet is a set of numbers by their Key, held as one sorted slice: about
// 8 bytes a number, built once (the company's do-not-call list of a million
// numbers is 8 MB) and tested by binary search. The zero value is the empty
// set.
type KeySet struct{ keys []uint64 }

// NewKeySet makes a set of keys (taken over: sorted and deduplicated in
// place). Zero keys (not a valid number) are dropped.
func NewKeySet(keys []uint64) KeySet {
	slices.Sort(keys)
	keys = slices.Compact(keys)
	if len(keys) > 0 && keys[0] == 0 {
		keys = keys[1:]
	}
	return KeySet{keys: keys}
}

// Has reports whether key is in the set.
func (s KeySet) Has(key uint64) bool {
	_, ok := slices.BinarySearch(s.keys, key)
	return ok
}

// Len is the number of keys in the set.
func (s KeySet) Len() int { return len(s.keys) }

// Keys are the set's keys in ascending order (not to be modified).
func (s KeySet) Keys() []uint64 { return s.keys }
