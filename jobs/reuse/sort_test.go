package reuse

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// sortHashes sorts as slices.Sort does: both ends of int64, negatives,
// repeats, a byte the same in every hash, lists short and long.
func TestSortHashesAsSlicesSort(t *testing.T) {
	t.Parallel()
	rnd := rand.New(rand.NewPCG(3, 5))
	for _, n := range []int{0, 1, 100, 1 << 12, 5000, 100_000} {
		for _, shape := range []string{"random", "ends", "one byte"} {
			hs := make([]int64, n)
			for i := range hs {
				switch shape {
				case "random":
					hs[i] = int64(rnd.Uint64())
				case "ends":
					hs[i] = []int64{math.MinInt64, math.MaxInt64, -1, 0, 1, int64(rnd.Uint64())}[rnd.IntN(6)]
				default:
					hs[i] = int64(rnd.Uint64()&^0xff00) | 0x4200
				}
			}
			want := slices.Clone(hs)
			slices.Sort(want)
			sortHashes(hs)
			if !slices.Equal(hs, want) {
				t.Errorf("%d hashes, %s: not sorted as slices.Sort sorts them", n, shape)
			}
		}
	}
}
