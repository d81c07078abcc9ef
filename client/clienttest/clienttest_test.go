package clienttest

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/client/sandbox"
)

// The client speaks to the sandbox started for it with the demo key, and
// the sandbox is closed when the test that started it ends.
func TestSandboxIsReachedThenClosed(t *testing.T) {
	var url string
	t.Run("running", func(t *testing.T) {
		srv, api := Sandbox(t, sandbox.DefaultConfig())
		url = srv.URL()
		a, err := api.Account(context.Background())
		if err != nil || a.Credits <= 0 {
			t.Fatalf("the account through the client: %+v, %v", a, err)
		}
	})
	if res, err := http.Get(url + "/account"); err == nil {
		res.Body.Close()
		t.Fatalf("the sandbox still answers after its test ended: %s", res.Status)
	}
}

// Jobs counts the bulk traces and DNC scrubs submitted, not the single
// lookups.
func TestJobsCountsSubmissions(t *testing.T) {
	_, api := Sandbox(t, sandbox.DefaultConfig())
	ctx := context.Background()
	if n := Jobs(t, api); n != 0 {
		t.Fatalf("%d jobs on a new sandbox", n)
	}
	dir := t.TempDir()
	owners := filepath.Join(dir, "owners.csv")
	phones := filepath.Join(dir, "phones.csv")
	os.WriteFile(owners, []byte("First,Last,Street,City,State,Zip\nAnn,Lee,1 Main St,Columbus,OH,43215\n"), 0o600)
	os.WriteFile(phones, []byte("Phone\n2125550101\n"), 0o600)
	if _, err := api.Traces.Create(ctx, &client.TraceUpload{Path: owners, ColumnMapping: map[string]string{
		"first_name": "First", "last_name": "Last", "property_street": "Street", "property_city": "City",
		"property_state": "State", "property_zip": "Zip"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := api.DNC.Create(ctx, &client.DNCUpload{Path: phones, PhoneColumn: "Phone"}); err != nil {
		t.Fatal(err)
	}
	if _, err := api.Traces.Single(ctx, &client.SingleTraceRequest{FirstName: "Ann", LastName: "Lee",
		Address: "1 Main St", City: "Columbus", State: "OH", Zip: "43215"}); err != nil {
		t.Fatal(err)
	}
	if n := Jobs(t, api); n != 2 {
		t.Fatalf("%d jobs after a trace, a scrub and a single lookup, want 2", n)
	}
}
