package testlists

import (
	"strings"
	"testing"
)

// Check checks the generated case of seed: what the case is (for the
// message) and how it broke its promise (none: kept).
type Check func(t *testing.T, seed int64) (what string, problems []string)

// RunSeeds checks n generated cases from seed first, naming each that
// breaks the promise with how, up to five of them.
func RunSeeds(t *testing.T, what string, first int64, n int, check Check) {
	t.Helper()
	failed := 0
	for seed := first; seed < first+int64(n) && failed < 5; seed++ {
		if c, problems := check(t, seed); len(problems) > 0 {
			failed++
			t.Errorf("seed %d (%s): %s", seed, c, strings.Join(problems, "; "))
		}
	}
	t.Logf("%s: %d files from seed %d, %d failed", what, n, first, failed)
}

// FuzzSeeds holds check over random seeds.
func FuzzSeeds(f *testing.F, check Check) {
	for seed := int64(1); seed <= 4; seed++ {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, seed int64) {
		if c, problems := check(t, seed); len(problems) > 0 {
			t.Errorf("seed %d (%s): %s", seed, c, strings.Join(problems, "; "))
		}
	})
}
