package ledger

import (
	"context"
	"strings"
	"testing"

	"github.com/skipdesk/skipdesk/jobs"
)

// Item 9 of the hostile-server issue. Figures a server should never send —
// a negative charge or refund, a refund above the charge, a charge of more
// than a thousand million credits — are kept as reported, flagged, and left
// out of the spend totals.
func TestImplausibleSpendIsFlaggedNotSummed(t *testing.T) {
	t.Parallel()
	eachLedger(t, func(t *testing.T, l *Ledger) {
		ctx := context.Background()
		record := func(id string, s Spend) {
			t.Helper()
			if err := l.Jobs().RecordJobState(ctx, Job{ID: id, Kind: jobs.KindTrace, Status: jobs.StatusCompleted}, s); err != nil {
				t.Fatal(err)
			}
		}
		record("trc_ok1", Spend{Charged: 100, Refunded: 20})
		record("trc_ok2", Spend{Charged: 5, Refunded: 5})
		bad := map[string]Spend{
			"trc_neg":    {Charged: -50, Refunded: 0},
			"trc_negref": {Charged: 10, Refunded: -90},
			"trc_over":   {Charged: 10, Refunded: 11},
			"trc_huge":   {Charged: 4_000_000_000, Refunded: 0},
		}
		for id, s := range bad {
			record(id, s)
			if s.Problem() == "" {
				t.Errorf("%s %+v: no problem found", id, s)
			}
		}
		total, err := l.Jobs().TotalSpend(ctx)
		if err != nil || total != (Spend{Charged: 105, Refunded: 25}) {
			t.Fatalf("total %+v, %v; want only the plausible jobs summed", total, err)
		}
		flagged, err := l.Jobs().FlaggedSpend(ctx)
		if err != nil || len(flagged) != len(bad) || flagged["trc_over"] != bad["trc_over"] {
			t.Fatalf("flagged %+v, %v", flagged, err)
		}
		// Kept as reported.
		if sp, _ := l.Jobs().JobSpend(ctx, "trc_neg"); sp.Charged != -50 {
			t.Fatalf("spend %+v", sp)
		}
		for _, tc := range []struct {
			rows int
			s    Spend
			want string
		}{
			{10, Spend{Charged: 10, Refunded: 3}, ""},
			{-1, Spend{Charged: 10}, "negative row count"},
			{2_000_000_000, Spend{}, "absurd row count"},
			{1, Spend{Charged: 1, Refunded: 2}, "above the charge"},
		} {
			got := Implausible(tc.rows, tc.s)
			if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
				t.Errorf("Implausible(%d, %+v) = %q, want %q", tc.rows, tc.s, got, tc.want)
			}
		}
	})
}
