package workflow

import (
	"os"
	"strings"
	"testing"
)

// TestScrubOfTracePhonesLeavesOutFlagged: a vendor's trace with its own
// flags puts some numbers on a list or says not to call them; a scrub
// cannot make those callable (a flagged answer stays flagged), so the
// scrub of its phones leaves them out, and its review says so: a saving
// the engine knows, on the path a person clicks.
func TestScrubOfTracePhonesLeavesOutFlagged(t *testing.T) {
	t.Parallel()
	d, ctx := sandboxDesk(t)
	trace := writeNumbers(t, "vendor.csv", "Owner,Phone 1,Phone 1 DNC,Phone 2,Phone 2 DNC,Litigator,Status\n"+
		"Ann Lee,5125550101,N,5125550102,Y,N,\n"+ // 0102 on the registry
		"Bo Wu,5125550103,N,,,Y,\n"+ // the row's litigator: 0103
		"Cy Ng,5125550104,N,5125550105,N,N,Do not call\n"+ // the row says not to call: both
		"Di Fox,5125550106,N,5125550102,N,N,\n"+ // 0102 again, clean here: listed in a row all the same
		"Ed Roy,4165550107,N,,,N,\n") // Toronto: no US scrub makes it callable
	plan, err := d.Submissions().TracePhones(ctx, trace, "vendor")
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(plan.Path)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Fields(string(b)), []string{"phone", "5125550101", "5125550106"}; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("the scrub's list %q, want %q", got, want)
	}
	if plan.Flagged != 4 || plan.Abroad != 1 {
		t.Errorf("flagged %d, abroad %d: want 4 (0102, 0103, 0104, 0105) and 1 (416)", plan.Flagged, plan.Abroad)
	}
	r, _, _ := reviewed(t, ctx, d, plan.WithDefaults())
	said := strings.Join(r.Sentences(), "\n")
	if !strings.Contains(said, "Left out: 4 rows — numbers the trace's result already puts on a do-not-call or litigator list") ||
		!strings.Contains(said, "Left out: 1 row — numbers outside the US") || r.Sent != 2 {
		t.Errorf("the review %q (sent %d)", said, r.Sent)
	}
}
