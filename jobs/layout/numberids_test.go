package layout

import (
	"math/rand/v2"
	"testing"
)

// The table of numbers answers as a map does: numbers of one exchange side
// by side, of every area code, spread at random; present and absent; 0 is
// never in it.
func TestNumberIDsAsAMap(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(7, 11))
	var tab numberIDs
	want := map[uint64]int32{}
	add := func(k uint64) {
		if _, ok := want[k]; ok || k == 0 {
			return
		}
		want[k] = int32(len(want))
		tab.put(k, want[k])
	}
	for npa := uint64(200); npa < 1000; npa += 7 {
		for line := range uint64(100) {
			add(npa*1e7 + 5550000 + line)
		}
	}
	for range 20000 {
		add(2e9 + r.Uint64N(8e9))
	}
	if tab.n != len(want) || 4*tab.n > 3*len(tab.slots) {
		t.Fatalf("%d numbers in %d slots, want %d at most three quarters full", tab.n, len(tab.slots), len(want))
	}
	for k, id := range want {
		if got, ok := tab.get(k); !ok || got != id {
			t.Fatalf("%d: %d, %v; want %d", k, got, ok, id)
		}
	}
	for range 20000 {
		k := r.Uint64N(1e10)
		_, in := want[k]
		if _, ok := tab.get(k); ok != in {
			t.Fatalf("%d: found %v, in the map %v", k, ok, in)
		}
	}
	if _, ok := tab.get(0); ok {
		t.Fatal("0 found")
	}
	var empty numberIDs
	if _, ok := empty.get(2125550101); ok {
		t.Fatal("found in an empty table")
	}
}
