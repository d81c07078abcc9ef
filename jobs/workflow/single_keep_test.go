package workflow

import (
	"strings"
	"testing"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs"
)

// TestSingleLookupKeptInLibrary: a single lookup's answer is kept in the
// library — listed by its name, searched by the owner's name, read as a
// trace result with the phones found — and the job points at it.
func TestSingleLookupKeptInLibrary(t *testing.T) {
	t.Parallel()
	d, ctx := sandboxDesk(t)
	res, err := d.Submissions().Single(ctx, client.SingleTraceRequest{FirstName: "Ann", LastName: "Keeper", Address: "1 Main St",
		City: "Austin", State: "TX", Zip: "78701"})
	if err != nil {
		t.Fatal(err)
	}
	items, err := d.Library().SearchLibrary(ctx, "")
	if err != nil || len(items) != 1 || items[0].Kind != jobs.KindTrace || !strings.Contains(items[0].Name, "Ann Keeper") {
		t.Fatalf("library %+v %v", items, err)
	}
	r, err := d.Results().OpenResult(ctx, items[0].Path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := r.Index(ctx, nil); err != nil {
		t.Fatal(err)
	}
	row := r.Person(0)
	if r.Len() != 1 || len(row.DistinctPhones()) != len(res.Phones) {
		t.Errorf("kept %d rows, %d phones; the lookup found %d", r.Len(), len(row.DistinctPhones()), len(res.Phones))
	}
	hits, err := d.Library().SearchLibrary(ctx, "Keeper")
	if err != nil || len(hits) != 1 {
		t.Errorf("search: %+v %v", hits, err)
	}
	list, _, err := d.Jobs().List(ctx, 1)
	if err != nil || len(list) == 0 || list[0].Kind != jobs.KindSingle {
		t.Fatalf("jobs %+v %v", list, err)
	}
}
