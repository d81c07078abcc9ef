package reuse

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func benchHashes() []int64 {
	rnd := rand.New(rand.NewPCG(1, 2))
	hs := make([]int64, 486_912)
	for i := range hs {
		hs[i] = int64(rnd.Uint64())
	}
	return hs
}

// BenchmarkSortHashes sorts a 486,912-row list's hashes (bench/quote.sh's
// list) with sortHashes; BenchmarkSortHashesSlices with slices.Sort.
func BenchmarkSortHashes(b *testing.B) {
	hs := benchHashes()
	work := make([]int64, len(hs))
	for b.Loop() {
		copy(work, hs)
		sortHashes(work)
	}
}

func BenchmarkSortHashesSlices(b *testing.B) {
	hs := benchHashes()
	work := make([]int64, len(hs))
	for b.Loop() {
		copy(work, hs)
		slices.Sort(work)
	}
}
