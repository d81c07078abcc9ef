package client

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/client/sandbox"
)

// sandboxConfig is the default sandbox with tiny delays.
func sandboxConfig() sandbox.Config {
	cfg := sandbox.DefaultConfig()
	cfg.Processing = sandbox.Processing{MinSeconds: 0.01}
	cfg.Webhook.RetryDelaysSeconds = []float64{0.01, 0.01, 0.01, 0.01, 0.01}
	cfg.Webhook.TimeoutSeconds = 2
	return cfg
}

func startSandbox(t testing.TB, cfg sandbox.Config) (*sandbox.Server, *Client) {
	t.Helper()
	if cfg.Keys[0].WebhookURL == "" {
		cfg.Keys[0].WebhookURL = newLoopbackServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
		cfg.Keys[0].WebhookSecret = "whsec_test"
	}
	srv, err := sandbox.Start(cfg, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	c, err := New(srv.URL(), sandbox.DemoKey, WithRetryPolicy(fastRetry()))
	if err != nil {
		t.Fatal(err)
	}
	return srv, c
}

// fastRetry retries at once. Its budget is wide: failed attempts count
// against it, and the tests count attempts, not time.
func fastRetry() RetryPolicy {
	return RetryPolicy{MaxRetries: 4, BaseDelay: time.Millisecond, MaxDelay: 5 * time.Millisecond,
		MaxRetryAfter: 20 * time.Millisecond, Budget: 30 * time.Second}
}

const ownersCSV = "First,Last,Street,City,State,Zip\r\n" +
	"John,Smith,1 Main St,Austin,TX,78701\r\n" +
	"Acme Holdings LLC,,2 Oak Ave,Austin,TX,78702\r\n" +
	"Mary,NOMATCH,3 Elm St,Austin,TX,78703\r\n" +
	" , , , , , \r\n" +
	"Ann,Lee,4 Pine Rd,Austin,TX,78704\r\n"

var ownersMapping = map[string]string{"first_name": "First", "last_name": "Last",
	"property_street": "Street", "property_city": "City", "property_state": "State", "property_zip": "Zip"}

func writeFile(t testing.TB, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestSandboxAccountAndPricing(t *testing.T) {
	t.Parallel()
	_, c := startSandbox(t, sandboxConfig())
	ctx := context.Background()
	a, err := c.Account(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if a.Credits != 25000 || a.BillingMode != BillingPrepaid || a.ID == "" || a.Subscription == nil || a.Subscription.PlanName == "" {
		t.Fatalf("account = %+v", a)
	}
	p, err := c.Pricing(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if r := p.Rates; r.Normal != 1 || r.Enhanced != 3 || r.LLC != 2 || r.DNC != 1 {
		t.Fatalf("rates = %+v", p.Rates)
	}
	rl := c.RateLimit()
	if rl.Limit != sandbox.DefaultWritePerMinute || rl.Remaining != sandbox.DefaultWritePerMinute-2 || rl.Reset.IsZero() || rl.Bucket != bucketWrite {
		t.Fatalf("rate limit = %+v", rl)
	}
}

func TestSandboxTraceLifecycle(t *testing.T) {
	t.Parallel()
	srv, c := startSandbox(t, sandboxConfig())
	ctx := context.Background()
	dir := t.TempDir()
	path := writeFile(t, dir, "owners.csv", ownersCSV)

	var progress []int64
	var total int64
	created, err := c.Traces.Create(ctx, &TraceUpload{Path: path, ColumnMapping: ownersMapping, IncludeLLCs: true,
		Progress: func(sent, tot int64) { progress = append(progress, sent); total = tot }})
	if err != nil {
		t.Fatal(err)
	}
	// 4 data rows (the blank one is ignored): 3 individuals at 1, 1 company at 2.
	if !created.Success || created.Status != StatusProcessing || created.TotalRows != 4 || created.EntityRows != 1 ||
		created.Cost != 5 || created.CreditsCharged != 5 || created.Columns["first_name"] != "First" || created.Mode != ModeNormal {
		t.Fatalf("created = %+v", created)
	}
	if len(progress) == 0 || progress[len(progress)-1] != total || total <= int64(len(ownersCSV)) {
		t.Fatalf("progress %v of %d", progress, total)
	}

	srv.FinishPending()
	tr := checkCompletedTrace(ctx, t, c, created.ID)
	checkTraceDownload(ctx, t, c, created.ID, dir)
	checkTraceAfterwards(ctx, t, c, created.ID, tr)
}

// checkCompletedTrace: the finished trace reads back completed, with its
// breakdown, counts and download link; its encoded id finds it too.
func checkCompletedTrace(ctx context.Context, t *testing.T, c *Client, id string) *Trace {
	t.Helper()
	tr, err := c.Traces.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if tr.Status != StatusCompleted || tr.Name != "owners.csv" || tr.Breakdown == nil || tr.Breakdown.LLCs.Rate != 2 ||
		tr.DownloadURL == nil || tr.CompletedAt.IsZero() || tr.Type != TypeBulk {
		t.Fatalf("trace = %+v", tr)
	}
	if tr.MatchCount+tr.NoMatchCount+tr.ErrorCount != 4 || tr.NoMatchCount < 1 {
		t.Fatalf("counts = %+v", tr)
	}
	// The encoded id works as well as the id.
	if tr.EncodedID != "" {
		if _, err := c.Traces.Get(ctx, tr.EncodedID); err != nil {
			t.Fatalf("get by encoded_id: %v", err)
		}
	}

	return tr
}

// checkTraceDownload: the result downloads whole, with progress, and
// leaves no temporary file.
func checkTraceDownload(ctx context.Context, t *testing.T, c *Client, id, dir string) {
	t.Helper()
	out := filepath.Join(dir, "result.csv")
	var last [2]int64
	n, err := c.Traces.Download(ctx, id, out, func(done, total int64) { last = [2]int64{done, total} })
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(out)
	if int64(len(data)) != n || last[0] != n || last[1] != n {
		t.Fatalf("downloaded %d, file %d, progress %v", n, len(data), last)
	}
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	if err != nil || len(recs) != 5 || recs[0][len(recs[0])-1] != "match_status" {
		t.Fatalf("result csv (%v): %q", err, data)
	}
	assertNoTempFiles(t, dir)
}

// checkTraceAfterwards: its webhook can be sent again, the list has it, and
// the balance is what it charged and refunded.
func checkTraceAfterwards(ctx context.Context, t *testing.T, c *Client, id string, tr *Trace) {
	t.Helper()
	d, err := c.Traces.RetryWebhook(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(d.DeliveryID, "whd_") || d.Status != "pending" || d.Attempt < 1 {
		t.Fatalf("delivery = %+v", d)
	}

	l, err := c.Traces.List(ctx, &TraceListOptions{Type: TypeBulk})
	if err != nil {
		t.Fatal(err)
	}
	if l.Metadata.TotalCount != 1 || len(l.Traces) != 1 || l.Traces[0].ID != id {
		t.Fatalf("list = %+v", l)
	}
	a, _ := c.Account(ctx)
	if want := int64(25000) - tr.CreditsCharged + tr.CreditsRefunded; a.Credits != want {
		t.Fatalf("credits %d, want %d", a.Credits, want)
	}
}

func assertNoTempFiles(t *testing.T, dir string) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".part") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}

func TestSandboxSingleAndPagination(t *testing.T) {
	t.Parallel()
	_, c := startSandbox(t, sandboxConfig())
	ctx := context.Background()
	req := SingleTraceRequest{FirstName: "John", LastName: "Smith", Address: "1 Main St", City: "Austin", State: "TX", Zip: "78701"}
	for i := range 7 {
		r := req
		r.LastName = fmt.Sprintf("Smith%d", i)
		if i == 0 {
			r.LastName = "NOMATCH"
		}
		res, err := c.Traces.Single(ctx, &r)
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 && (res.Matched || res.CreditsRefunded != 1) {
			t.Fatalf("no-match single = %+v", res)
		}
		for _, p := range res.Phones {
			if len(p.Number) != 10 || p.Type == "" {
				t.Fatalf("phone %+v", p)
			}
		}
	}
	ent, err := c.Traces.Single(ctx, &SingleTraceRequest{FirstName: "Acme Holdings LLC", Address: "1 Main St", City: "Austin", State: "TX", Zip: "78701"})
	if err != nil || !ent.IsEntity || ent.Credits != 2 {
		t.Fatalf("entity single = %+v, %v", ent, err)
	}

	var ids []string
	for tr, err := range c.Traces.All(ctx, &TraceListOptions{Limit: 3, Type: TypeSingle}) {
		if err != nil {
			t.Fatal(err)
		}
		if tr.Type != TypeSingle || tr.TotalRows != 1 || !strings.HasPrefix(tr.Name, "Single: ") {
			t.Fatalf("single trace item = %+v", tr)
		}
		ids = append(ids, tr.ID)
	}
	if len(ids) != 8 {
		t.Fatalf("All gave %d traces, want 8", len(ids))
	}
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			t.Fatalf("id %s twice", id)
		}
		seen[id] = true
	}
	page2, err := c.Traces.List(ctx, &TraceListOptions{Page: 2, Limit: 3})
	if err != nil || page2.Metadata.Page != 2 || page2.Metadata.PageCount != 3 || len(page2.Traces) != 3 || page2.Traces[0].ID != ids[3] {
		t.Fatalf("page 2 = %+v, %v", page2, err)
	}
	// Stopping early is honoured.
	n := 0
	for range c.Traces.All(ctx, &TraceListOptions{Limit: 2}) {
		n++
		if n == 3 {
			break
		}
	}
	if n != 3 {
		t.Fatalf("early stop after %d", n)
	}
}

func TestSandboxDNCLifecycle(t *testing.T) {
	t.Parallel()
	srv, c := startSandbox(t, sandboxConfig())
	ctx := context.Background()
	dir := t.TempDir()
	path := writeFile(t, dir, "phones.csv", "Phone,Name\n(212) 555-0147,a\n1-312-555-0100 x12,b\nbad,c\n,d\n")
	created, err := c.DNC.Create(ctx, &DNCUpload{Path: path, FileName: "list.csv", PhoneColumn: "Phone"})
	if err != nil {
		t.Fatal(err)
	}
	if created.Status != StatusProcessing || created.TotalRows != 4 || created.Rate != 1 || created.CreditsCharged != 4 || created.Name != "list.csv" {
		t.Fatalf("created = %+v", created)
	}
	srv.FinishPending()
	j, err := c.DNC.Get(ctx, created.ID)
	if err != nil || j.Status != StatusCompleted || j.ErrorCount != 2 || j.CreditsRefunded != 2 {
		t.Fatalf("job = %+v, %v", j, err)
	}
	out := filepath.Join(dir, "dnc-result.csv")
	if _, err := c.DNC.Download(ctx, created.ID, out, nil); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(out)
	if !bytes.Contains(data, []byte("2125550147")) || !bytes.Contains(data, []byte("phone_normalized")) {
		t.Fatalf("dnc result: %q", data)
	}
	l, err := c.DNC.List(ctx, nil)
	if err != nil || len(l.Jobs) != 1 || l.Jobs[0].ID != created.ID {
		t.Fatalf("list = %+v, %v", l, err)
	}
	n := 0
	for job, err := range c.DNC.All(ctx, &ListOptions{Limit: 1}) {
		if err != nil || job.ID != created.ID {
			t.Fatalf("All: %+v %v", job, err)
		}
		n++
	}
	if n != 1 {
		t.Fatalf("All gave %d", n)
	}
	if d, err := c.DNC.RetryWebhook(ctx, created.ID); err != nil || d.DeliveryID == "" {
		t.Fatalf("retry-webhook = %+v, %v", d, err)
	}
}

func TestSandboxErrors(t *testing.T) {
	t.Parallel()
	srv, c := startSandbox(t, sandboxConfig())
	ctx := context.Background()
	dir := t.TempDir()
	path := writeFile(t, dir, "owners.csv", ownersCSV)

	// Mapping validation: 400, every problem in Problems.
	_, err := c.Traces.Create(ctx, &TraceUpload{Path: path, ColumnMapping: map[string]string{"first_nme": "First", "property_street": "Nope"}})
	var ae *APIError
	if !errors.As(err, &ae) || !errors.Is(err, ErrBadRequest) || len(ae.Problems) < 2 {
		t.Fatalf("mapping error = %#v", err)
	}
	if !strings.Contains(strings.Join(ae.Problems, "\n"), "first_name") {
		t.Errorf("no did-you-mean in %q", ae.Problems)
	}
	// General shape with field details.
	_, err = c.Traces.Single(ctx, &SingleTraceRequest{FirstName: "John"})
	if !errors.As(err, &ae) || ae.Code != "VALIDATION_ERROR" || len(ae.Details) == 0 || ae.Details[0].Field == "" {
		t.Fatalf("validation error = %#v", err)
	}
	// 404, with ids escaped: a slash in an id cannot reach another route.
	for _, id := range []string{"trc_nope", "../account", "a b?c"} {
		if _, err := c.Traces.Get(ctx, id); !errors.Is(err, ErrNotFound) {
			t.Errorf("get %q: %v", id, err)
		}
	}
	// Download of a job still processing.
	srv.SetProcessing(sandbox.Processing{MinSeconds: 60})
	cr, err := c.Traces.Create(ctx, &TraceUpload{Path: path, ColumnMapping: ownersMapping})
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "r.csv")
	if _, err := c.Traces.Download(ctx, cr.ID, out, nil); !errors.As(err, &ae) || ae.StatusCode != http.StatusConflict {
		t.Fatalf("download while processing: %v", err)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatal("a file was left at the destination")
	}
	assertNoTempFiles(t, dir)
	// 402 with the balance unchanged.
	srv.SetCredits(sandbox.DemoKey, 1)
	if _, err := c.Traces.Create(ctx, &TraceUpload{Path: path, ColumnMapping: ownersMapping}); !errors.Is(err, ErrInsufficientCredits) {
		t.Fatalf("402: %v", err)
	}
	// 403 and 401.
	srv.SetBanned(sandbox.DemoKey, true)
	if _, err := c.Account(ctx); !errors.Is(err, ErrForbidden) {
		t.Fatalf("banned: %v", err)
	}
	bad, _ := New(srv.URL(), "sk_wrong_key", WithRetryPolicy(fastRetry()))
	_, err = bad.Account(ctx)
	if !errors.Is(err, ErrUnauthorized) || strings.Contains(err.Error(), "sk_wrong_key") {
		t.Fatalf("401: %v", err)
	}
}

func TestSandboxFaults(t *testing.T) {
	t.Parallel()
	cfg := sandboxConfig()
	cfg.Faults.ErrorRate = 0.5 // every second request is a 503
	srv, c := startSandbox(t, cfg)
	ctx := context.Background()
	for range 4 {
		if _, err := c.Pricing(ctx); err != nil {
			t.Fatalf("503s are retried: %v", err)
		}
	}

	// A reset in the middle of a download: the file still arrives whole.
	srv.SetFaults(sandbox.Faults{ResetDownloadsAfterBytes: 700})
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("First,Last,Street,City,State,Zip\n")
	for i := range 300 {
		fmt.Fprintf(&b, "John%d,Smith,%d Main St,Austin,TX,78701\n", i, i)
	}
	path := writeFile(t, dir, "big.csv", b.String())
	cr, err := c.Traces.Create(ctx, &TraceUpload{Path: path, ColumnMapping: ownersMapping})
	if err != nil {
		t.Fatal(err)
	}
	srv.FinishPending()
	out := filepath.Join(dir, "r.csv")
	n, err := c.Traces.Download(ctx, cr.ID, out, nil)
	if err != nil {
		t.Fatal(err)
	}
	whole := filepath.Join(dir, "again.csv")
	n2, err := c.Traces.Download(ctx, cr.ID, whole, nil)
	a, _ := os.ReadFile(out)
	b2, _ := os.ReadFile(whole)
	if err != nil || n != n2 || n < 700 || !bytes.Equal(a, b2) {
		t.Fatalf("resumed download differs: %d vs %d bytes, %v", n, n2, err)
	}

	// The server creates and charges the job, then drops the connection:
	// exactly one job exists and the error says the outcome is unknown.
	srv.SetFaults(sandbox.Faults{DropCreateResponses: 1})
	before, _ := c.Traces.List(ctx, nil)
	_, err = c.Traces.Create(ctx, &TraceUpload{Path: path, ColumnMapping: ownersMapping})
	if !errors.Is(err, ErrOutcomeUnknown) {
		t.Fatalf("dropped create: %v", err)
	}
	after, _ := c.Traces.List(ctx, nil)
	if after.Metadata.TotalCount != before.Metadata.TotalCount+1 {
		t.Fatalf("%d jobs before, %d after: the POST was resent or lost", before.Metadata.TotalCount, after.Metadata.TotalCount)
	}
}

func TestSandboxPacingAvoids429(t *testing.T) {
	t.Parallel()
	cfg := sandboxConfig()
	cfg.RateLimits = sandbox.RateLimits{ReadPerMinute: 20, WritePerMinute: 20}
	srv, c := startSandbox(t, cfg)
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	srv.SetClock(clock)
	c.limits.now = clock
	statuses := &statusCounter{rt: http.DefaultTransport}
	c.hc = &http.Client{Transport: statuses}
	// Use the clock for pacing waits: instead of sleeping, the test moves
	// time forward when the limiter asks to wait.
	waits := 0
	for i := range 40 {
		if d := c.limits.reserve(bucketRead); d > 0 {
			waits++
			mu.Lock()
			now = now.Add(d)
			mu.Unlock()
		}
		c.pacing = false // the wait was taken above
		if _, err := c.Traces.List(context.Background(), nil); err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		c.pacing = true
	}
	if waits == 0 {
		t.Fatal("the limiter never paced")
	}
	if statuses.n429.Load() != 0 || statuses.n200.Load() != 40 {
		t.Fatalf("%d answers 429, %d answers 200", statuses.n429.Load(), statuses.n200.Load())
	}
}

type statusCounter struct {
	rt         http.RoundTripper
	n200, n429 atomic.Int32
}

func (s *statusCounter) RoundTrip(r *http.Request) (*http.Response, error) {
	res, err := s.rt.RoundTrip(r)
	if err == nil {
		switch res.StatusCode {
		case 200:
			s.n200.Add(1)
		case 429:
			s.n429.Add(1)
		}
	}
	return res, err
}

func TestSandboxPlainIDsAndMeteredAccount(t *testing.T) {
	t.Parallel()
	cfg := sandboxConfig()
	cfg.IDStyle = "plain"
	cfg.Keys = append(cfg.Keys, sandbox.KeyConfig{Key: "sk_sandbox_metered", BillingMode: "metered", MeteredThreshold: 3, CardLast4: "4242"})
	srv, _ := startSandbox(t, cfg)
	c, err := New(srv.URL()+"/", "sk_sandbox_metered", WithRetryPolicy(fastRetry()))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	a, err := c.Account(ctx)
	if err != nil || a.BillingMode != BillingMetered || a.Metered == nil || a.Metered.Threshold != 3 || a.Metered.CardLast4 != "4242" {
		t.Fatalf("metered account %+v %v", a, err)
	}
	path := writeFile(t, t.TempDir(), "phones.csv", "Phone\n2125550147\n3125550100\n")
	cr, err := c.DNC.Create(ctx, &DNCUpload{Path: path, PhoneColumn: "Phone"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.HasPrefix(cr.ID, "dnc_") {
		t.Fatalf("id style plain gave %q", cr.ID)
	}
	srv.FinishPending()
	j, err := c.DNC.Get(ctx, cr.ID)
	if err != nil || j.ID != cr.ID || !strings.HasPrefix(j.EncodedID, "dnc_") {
		t.Fatalf("get by plain id: %+v %v", j, err)
	}
	if _, err := c.DNC.Get(ctx, j.EncodedID); err != nil {
		t.Fatalf("get by encoded id: %v", err)
	}
	a, _ = c.Account(ctx)
	if a.Metered.UnbilledUsage != 2 || a.Credits != 0 {
		t.Fatalf("usage %+v", a.Metered)
	}
	srv.SetPastDue("sk_sandbox_metered", true)
	if _, err := c.DNC.Create(ctx, &DNCUpload{Path: path, PhoneColumn: "Phone"}); !errors.Is(err, ErrInsufficientCredits) {
		t.Fatalf("past due: %v", err)
	}
}
