package webhook

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/client/clienttest"
	"github.com/skipdesk/skipdesk/client/sandbox"
)

func TestSandboxWebhookEndToEnd(t *testing.T) {
	const secret = "whsec_e2e"
	got := make(chan Event, 4)
	recv := Handler([]string{secret}, func(e Event) { got <- e }, nil)
	hook := httptest.NewServer(recv)
	t.Cleanup(hook.Close)
	cfg := sandbox.DefaultConfig()
	cfg.Processing = sandbox.Processing{MinSeconds: 0.01}
	cfg.Keys[0].WebhookURL = hook.URL
	cfg.Keys[0].WebhookSecret = secret
	srv, c := clienttest.Sandbox(t, cfg)
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "owners.csv")
	os.WriteFile(path, []byte("First,Last,Street,City,State,Zip\nJohn,Smith,1 Main St,Austin,TX,78701\n"), 0o644)
	cr, err := c.Traces.Create(ctx, &client.TraceUpload{Path: path, ColumnMapping: map[string]string{"first_name": "First", "last_name": "Last",
		"property_street": "Street", "property_city": "City", "property_state": "State", "property_zip": "Zip"}})
	if err != nil {
		t.Fatal(err)
	}
	srv.FinishPending()
	select {
	case e := <-got:
		if e.Name != TraceCompleted || e.Trace == nil || e.Trace.ID != cr.ID || e.Delivery == "" || e.Attempt != 1 {
			t.Fatalf("event %+v", e)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no webhook")
	}
	// A manual re-send is acknowledged but deduped (same job and status).
	if _, err := c.Traces.RetryWebhook(ctx, cr.ID); err != nil {
		t.Fatal(err)
	}
	for timeout := time.After(5 * time.Second); len(srv.Deliveries()) < 2; {
		changed := srv.DeliveriesChanged()
		if len(srv.Deliveries()) >= 2 {
			break
		}
		select {
		case <-changed:
		case <-timeout:
			t.Fatal("the re-send was not delivered")
		}
	}
	select {
	case e := <-got:
		t.Fatalf("duplicate event handed over: %+v", e)
	case <-time.After(50 * time.Millisecond):
	}
}
