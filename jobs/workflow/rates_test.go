package workflow

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/client/clienttest"
	"github.com/skipdesk/skipdesk/client/sandbox"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/secrets"
)

// A price asks GET /pricing and GET /account together, so that it waits
// one round trip to the provider, not two: here the pricing is answered
// only once the account has been asked for, and a quote asking the two
// one after the other would never be priced. The price is the sandbox's.
func TestQuoteAsksBothRatesAtOnce(t *testing.T) {
	t.Parallel()
	srv := clienttest.StartSandbox(t, sandbox.DefaultConfig())
	h := srv.Handler()
	var armed atomic.Bool
	accountAsked := make(chan struct{})
	var once atomic.Bool
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if armed.Load() && r.Method == http.MethodGet {
			switch {
			case strings.HasSuffix(r.URL.Path, "/account"):
				if once.CompareAndSwap(false, true) {
					close(accountAsked)
				}
			case strings.HasSuffix(r.URL.Path, "/pricing"):
				select {
				case <-accountAsked:
				case <-r.Context().Done():
					return
				}
			}
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(func() { hs.CloseClientConnections(); hs.Close() })
	// A hang's limit: the quote is answered at once when both are asked.
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	d := openResumed(ctx, t, Config{Secrets: secrets.Memory(), Home: t.TempDir(), BaseURL: hs.URL + "/v1", APIKey: sandbox.DemoKey})
	defer d.Close()
	p := samplePlan(ctx, t, d)
	ins, err := Inspect(ctx, p.Path, input.Options{})
	if err != nil {
		t.Fatal(err)
	}
	armed.Store(true)
	q, err := d.Quotes().Quote(ctx, p, ins)
	if err != nil {
		t.Fatalf("the quote, asking the pricing alone first: %v", err)
	}
	r, err := d.Quotes().Rates(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := int64(ins.Rows-ins.EntityRows) * r.Pricing.Rates.Normal; q.Rows != ins.Rows || q.Credits != want || want <= 0 {
		t.Errorf("priced %d rows at %d credits; the list has %d rows, %d companies (left out): %d credits", q.Rows, q.Credits, ins.Rows, ins.EntityRows, want)
	}
}
