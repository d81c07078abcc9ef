package ledger

import (
	"context"
	"fmt"
	"testing"
)

// The company's do-not-call list at a million numbers (issue: import 235 s,
// 21.5 s added to every callable export, 526 s to move into a team's
// database). bench/dnclist.sh runs these beside the import through the
// application layer.

// million is how many numbers the list benchmarks hold.
const million = 1_000_000

// listNumbers are the numbers from..to-1 of a list: distinct valid
// numbers, "212555xxxx" upwards through the area codes, as a file's import
// would give them, with a source each.
func listNumbers(from, to int) []InternalEntry {
	out := make([]InternalEntry, 0, to-from)
	for i := from; i < to; i++ {
		out = append(out, InternalEntry{Number: fmt.Sprintf("%03d555%04d", 212+i/10_000, i%10_000), Reason: "imported",
			Source: fmt.Sprintf("file big.csv, line %d, column Phone", i+2), By: "bench"})
	}
	return out
}

// fillList puts n numbers on l's list, 10,000 a transaction (as the
// import does).
func fillList(tb testing.TB, l *Ledger, n int) {
	tb.Helper()
	for i := 0; i < n; i += 10_000 {
		if _, err := l.CompanyList().AddInternal(context.Background(), listNumbers(i, min(n, i+10_000))); err != nil {
			tb.Fatal(err)
		}
	}
}

// BenchmarkInternalAdd1M writes a million numbers onto an empty list, as
// an import does after reading its file.
func BenchmarkInternalAdd1M(b *testing.B) {
	for _, st := range []store{sqliteStore(), postgresStore()} {
		b.Run(st.name, func(b *testing.B) {
			for range b.N {
				b.StopTimer()
				l := st.open(b)
				b.StartTimer()
				fillList(b, l, million)
			}
		})
	}
}

// BenchmarkLedgerInternalKeys1M reads a list of a million numbers as the set
// every callable export checks: what the list adds to an export.
func BenchmarkLedgerInternalKeys1M(b *testing.B) {
	for _, st := range []store{sqliteStore(), postgresStore()} {
		b.Run(st.name, func(b *testing.B) {
			l := st.open(b)
			fillList(b, l, million)
			b.ResetTimer()
			for range b.N {
				keys, err := l.CompanyList().InternalKeys(context.Background())
				if err != nil || keys.Len() != million {
					b.Fatalf("%d keys, %v", keys.Len(), err)
				}
			}
		})
	}
}

// BenchmarkMoveInternal1M moves a computer's list of a million numbers
// (with its history of a million additions) into a team's database.
func BenchmarkMoveInternal1M(b *testing.B) {
	local := sqliteStore().open(b)
	fillList(b, local, million)
	for range b.N {
		b.StopTimer()
		team := postgresStore().open(b)
		b.StartTimer()
		rep, err := team.MoveFrom(context.Background(), local, nil)
		if err != nil || rep.Copied["internal"] != million || rep.Copied["internal log"] != million {
			b.Fatalf("moved %v, %v", rep.Copied, err)
		}
	}
}
