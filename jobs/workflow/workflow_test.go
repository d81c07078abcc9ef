package workflow

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/client/clienttest"
	"github.com/skipdesk/skipdesk/client/sandbox"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/ledger"
	"github.com/skipdesk/skipdesk/jobs/mapping"
	"github.com/skipdesk/skipdesk/jobs/secrets"
	"github.com/skipdesk/skipdesk/jobs/testlists"
	"github.com/skipdesk/skipdesk/jobs/tracker"
)

// fastSandbox processes jobs in a fraction of a second.
func fastSandbox() *sandbox.Config {
	cfg := sandbox.DefaultConfig()
	cfg.Processing = sandbox.Processing{MinSeconds: 0.2}
	return &cfg
}

// testConfig is the window's configuration on a fresh data folder, with a
// fast sandbox and a quick tracker.
func testConfig(t *testing.T) Config {
	return Config{Home: t.TempDir(), Sandbox: fastSandbox(), Track: true, Secrets: secrets.Memory(), Tracker: pollEvery(100 * time.Millisecond)}
}

// pollEvery is a tracker that polls every interval, however long the jobs.
func pollEvery(interval time.Duration) tracker.Options {
	return tracker.Options{Interval: func(time.Duration) time.Duration { return interval }}
}

// openResumed opens cfg and resumes its session, failing the test when
// either fails; the caller closes it.
func openResumed(ctx context.Context, t *testing.T, cfg Config) *Service {
	t.Helper()
	d, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Sessions().Resume(ctx); err != nil {
		d.Close()
		t.Fatal(err)
	}
	return d
}

func openDesk(t *testing.T) *Service {
	t.Helper()
	d, err := Open(testConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// sandboxFor starts a sandbox for d's tests. d is closed before it: its
// session closes the connections it dialed and never used, which the
// sandbox's close would otherwise wait for (2 s).
func sandboxFor(t *testing.T, d *Service, cfg sandbox.Config) *sandbox.Server {
	t.Helper()
	srv := clienttest.StartSandbox(t, cfg)
	t.Cleanup(func() { d.Close() })
	return srv
}

// submitFile reads path and submits it with m as the plan says.
func submitFile(ctx context.Context, d *Service, p Plan, again bool) (string, error) {
	ins, err := d.Quotes().Inspect(ctx, p.Path, p.Input)
	if err != nil {
		return "", err
	}
	res, err := d.Submissions().Submit(ctx, p, ins, SubmitOptions{Again: again})
	if err != nil {
		return "", err
	}
	return res.JobID, nil
}

// openIndexed opens the result at path on d and indexes it; the caller
// closes it.
func openIndexed(ctx context.Context, t *testing.T, d *Service, path string) Result {
	t.Helper()
	r, err := d.Results().OpenResult(ctx, path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Index(ctx, nil); err != nil {
		r.Close()
		t.Fatal(err)
	}
	return r
}

// samplePlan is the trace of d's sample owner list.
func samplePlan(ctx context.Context, t *testing.T, d *Service) Plan {
	t.Helper()
	sample, err := d.Quotes().SampleList(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return Plan{Kind: jobs.KindTrace, Path: sample, Mapping: sampleMapping, Mode: jobs.ModeNormal}
}

// sampleMapping maps the sample owner list's headers (testlists' lists
// have the sample's); a copy of its own, which no other test can change.
var sampleMapping = mapping.Mapping(testlists.Mapping).Clone()

func TestResumeWithoutKey(t *testing.T) {
	t.Parallel()
	d := openDesk(t)
	if _, err := d.Sessions().Resume(t.Context()); !errors.Is(err, ErrNoKey) {
		t.Fatalf("Resume with nothing stored: %v, want ErrNoKey", err)
	}
}

func TestConnectChecksKeyThenStoresIt(t *testing.T) {
	t.Parallel()
	d := openDesk(t)
	ctx := t.Context()
	srv := sandboxFor(t, d, *fastSandbox())

	if _, err := d.Sessions().Connect(ctx, srv.URL(), "sk_wrong", false); !errors.Is(err, client.ErrUnauthorized) {
		t.Fatalf("wrong key: %v", err)
	}
	if _, err := d.cfg.Secrets.Get(ctx, secrets.APIKey); !errors.Is(err, secrets.ErrNotFound) {
		t.Fatal("a refused key was stored")
	}
	if p := Explain(func() error { _, err := d.Sessions().Connect(ctx, srv.URL(), "sk_wrong", false); return err }(), ""); p.Title != "API key refused" {
		t.Fatalf("wording of a 401: %+v", p)
	}

	s, err := d.Sessions().Connect(ctx, srv.URL(), sandbox.DemoKey, false)
	if err != nil {
		t.Fatal(err)
	}
	if s.Sandbox || s.SessionOnly || s.BaseURL != srv.URL() {
		t.Fatalf("session %+v", s)
	}
	if got, _ := d.cfg.Secrets.Get(ctx, secrets.APIKey); got != sandbox.DemoKey {
		t.Fatal("the key was not stored in the keyring")
	}
	if d.Sessions().Settings().BaseURL != srv.URL() {
		t.Fatal("the base URL was not remembered")
	}
	// A new Desk on the same folder resumes with the stored key.
	d.Close()
	d2, err := Open(Config{Home: d.Sessions().Home(), Track: true, Secrets: d.cfg.Secrets})
	if err != nil {
		t.Fatal(err)
	}
	defer d2.Close()
	if s, err := d2.Sessions().Resume(ctx); err != nil || s.BaseURL != srv.URL() {
		t.Fatalf("resume: %+v %v", s, err)
	}
	if err := d2.Sessions().SignOut(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := d2.cfg.Secrets.Get(ctx, secrets.APIKey); !errors.Is(err, secrets.ErrNotFound) {
		t.Fatal("sign out left the key in the keyring")
	}
	if _, err := d2.Sessions().Resume(ctx); !errors.Is(err, ErrNoKey) {
		t.Fatalf("resume after sign out: %v", err)
	}
}

// noKeyring is a keyring that never answers (a Linux desktop without a
// Secret Service).
type noKeyring struct{}

func (noKeyring) Get(string, string) (string, error) { return "", errors.New("no secret service") }
func (noKeyring) Set(string, string, string) error   { return errors.New("no secret service") }
func (noKeyring) Delete(string, string) error        { return errors.New("no secret service") }

func TestConnectKeyringUnavailable(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	cfg.Secrets = secrets.NewStore(noKeyring{})
	d, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	srv := sandboxFor(t, d, *fastSandbox())
	if _, err := d.Sessions().Connect(t.Context(), srv.URL(), sandbox.DemoKey, false); !errors.Is(err, ErrKeyringUnavailable) {
		t.Fatalf("got %v, want ErrKeyringUnavailable", err)
	}
	s, err := d.Sessions().Connect(t.Context(), srv.URL(), sandbox.DemoKey, true)
	if err != nil || !s.SessionOnly {
		t.Fatalf("session-only: %+v %v", s, err)
	}
}

func TestUnreachableServerWording(t *testing.T) {
	t.Parallel()
	d := openDesk(t)
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	_, err := d.Sessions().Connect(ctx, "http://127.0.0.1:1/v1", "sk_x", false)
	if err == nil {
		t.Fatal("connected to a closed port")
	}
	p := Explain(err, HostOf("http://127.0.0.1:1/v1"))
	if !strings.Contains(p.What, "Can't reach 127.0.0.1:1") || !strings.Contains(p.Do, "Check your internet connection") {
		t.Fatalf("wording: %+v (from %v)", p, err)
	}
	if !Unreachable(err) || Unreachable(nil) || Unreachable(ErrNoKey) || Unreachable(&os.PathError{Op: "open", Path: "x", Err: os.ErrNotExist}) {
		t.Fatalf("Unreachable: %v", err)
	}
}

// TestSandboxTraceToViewer runs the sample list through the sandbox: submit,
// events until the result is in the library, the merged jobs list, the
// viewer's queries, exports, the library search.
func TestSandboxTraceToViewer(t *testing.T) {
	t.Parallel()
	d := openDesk(t)
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	s, err := d.Sessions().StartSandbox(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Sandbox || !strings.HasPrefix(s.BaseURL, "http://127.0.0.1:") {
		t.Fatalf("session %+v", s)
	}
	events := make(chan Event, 100)
	stop := d.Jobs().Subscribe(func(ev Event) { events <- ev })
	defer stop()

	sample, err := d.Quotes().SampleList(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if kind, err := d.Results().Classify(ctx, sample); err != nil || kind != FileOwners {
		t.Fatalf("sample list classified as %v (%v)", kind, err)
	}
	acc, err := d.Sessions().Account(ctx)
	if err != nil {
		t.Fatal(err)
	}
	id := submitted(ctx, t, d, Plan{Kind: jobs.KindTrace, Path: sample, Mapping: sampleMapping, Mode: jobs.ModeNormal, IncludeLLCs: true})
	done := waitDownloaded(ctx, t, events, id, "the trace")
	if done.Status != "completed" || done.Rows != 200 || done.Breakdown == nil || done.Breakdown.LLCs.Rows == 0 {
		t.Fatalf("completed job %+v", done)
	}
	after, _ := d.Sessions().Account(ctx)
	if after.Credits != acc.Credits-done.Net() {
		t.Fatalf("credits %d → %d, job net %d", acc.Credits, after.Credits, done.Net())
	}

	list, more, err := d.Jobs().List(ctx, 1)
	if err != nil || more {
		t.Fatalf("jobs: %v more=%v", err, more)
	}
	if len(list) != 1 || list[0].ID != id || list[0].ResultPath != done.ResultPath || list[0].Matches != done.Matches {
		t.Fatalf("jobs list %+v", list)
	}

	checkMatchedView(ctx, t, d, done)
	checkLibrarySearch(ctx, t, d, id)
	dncResult := scrubTracePhones(ctx, t, d, events, done)
	checkDNCResult(ctx, t, d, dncResult)

	checkRefetchAndCallable(ctx, t, d, done)
}

// waitDownloaded waits for the event of job id with its result in the
// library; what names the job in the failure.
func waitDownloaded(ctx context.Context, t *testing.T, events <-chan Event, id, what string) Job {
	t.Helper()
	for {
		select {
		case ev := <-events:
			if ev.Job.ID == id && ev.Job.ResultPath != "" {
				return ev.Job
			}
		case <-ctx.Done():
			t.Fatal("no Downloaded event for " + what)
		}
	}
}

// checkMatchedView opens the trace's result as the viewer does: the
// matched-only view holds the job's matches, and exports as it is shown.
func checkMatchedView(ctx context.Context, t *testing.T, d *Service, done Job) {
	t.Helper()
	if kind, _ := d.Results().Classify(ctx, done.ResultPath); kind != FileTraceResult {
		t.Fatalf("result classified as %v", kind)
	}
	r := openIndexed(ctx, t, d, done.ResultPath)
	defer r.Close()
	if r.Len() != 200 {
		t.Fatalf("result rows %d", r.Len())
	}
	v, err := r.Query(ctx, Query{Quick: []jobs.QuickFilter{jobs.QuickMatched}, SortCol: -1})
	if err != nil {
		t.Fatal(err)
	}
	if v.Len() != done.Matches {
		t.Fatalf("matched only: %d rows, job says %d matches", v.Len(), done.Matches)
	}
	status := indexOf(r.Headers(), "match_status")
	for i := 0; i < v.Len(); i++ {
		if v.Cell(i, status) != "matched" {
			t.Fatalf("row %d of matched-only view is %q", i, v.Cell(i, status))
		}
	}
	dest := filepath.Join(t.TempDir(), "matched.csv")
	if _, err := d.Results().ExportView(ctx, r, v, dest, nil, nil); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(dest)
	if n := strings.Count(string(b), "\n"); n != done.Matches+1 {
		t.Fatalf("exported %d lines, want %d", n, done.Matches+1)
	}
}

// checkLibrarySearch: the library lists the one result, and search finds
// its NOMATCH rows offline.
func checkLibrarySearch(ctx context.Context, t *testing.T, d *Service, id string) {
	t.Helper()
	items, err := d.Library().SearchLibrary(ctx, "")
	if err != nil || len(items) != 1 || items[0].JobID != id {
		t.Fatalf("library %+v %v", items, err)
	}
	// NOMATCH rows are in the result; search finds them offline, each row
	// with its row and the column that matched.
	items, err = d.Library().SearchLibrary(ctx, "nomatch")
	if err != nil || len(items) == 0 || items[0].JobID != id || items[0].Row == 0 || items[0].Column == "" || len(items[0].Hits) == 0 {
		t.Fatalf("search: %+v %v", items, err)
	}
}

// scrubTracePhones: the callable list of a trace needs a scrub of its
// phones first; the trace's phones, each number once, are submitted as a
// DNC scrub, whose downloaded result it returns.
func scrubTracePhones(ctx context.Context, t *testing.T, d *Service, events <-chan Event, done Job) string {
	t.Helper()
	if _, err := d.Jobs().ExportJob(ctx, done, filepath.Join(t.TempDir(), "c.xlsx"), &CallableChoices{}, nil); !errors.Is(err, ErrNeedScrub) {
		t.Fatalf("callable before a scrub: %v", err)
	}
	phones, err := d.Submissions().TracePhones(ctx, done.ResultPath, done.ID)
	if err != nil {
		t.Fatal(err)
	}
	if kind, _ := d.Results().Classify(ctx, phones.Path); kind != FilePhones {
		t.Fatalf("phone list classified as %v", kind)
	}
	// Each number once (the sandbox's fictional numbers repeat across rows).
	body, _ := os.ReadFile(phones.Path)
	lines := strings.Split(strings.TrimSpace(string(body)), "\r\n")
	seen := map[string]bool{}
	for _, l := range lines[1:] {
		if seen[l] {
			t.Fatalf("phone %s listed twice for the scrub", l)
		}
		seen[l] = true
	}
	if len(seen) == 0 {
		t.Fatal("no phones listed")
	}
	dncID := submitted(ctx, t, d, phones)
	return waitDownloaded(ctx, t, events, dncID, "the scrub").ResultPath
}

// checkDNCResult: a DNC result is recognised as one, and offers the quick
// filters its columns allow (mobile from its line_type), not matched-only.
func checkDNCResult(ctx context.Context, t *testing.T, d *Service, dncResult string) {
	t.Helper()
	if kind, _ := d.Results().Classify(ctx, dncResult); kind != FileDNCResult {
		t.Fatalf("DNC result classified as %v", kind)
	}
	dr := openIndexed(ctx, t, d, dncResult)
	defer dr.Close()
	// The DNC result's line_type column allows the mobile filter too.
	if got := fmt.Sprint(dr.QuickFilters()); got != "[mobile not-dnc not-litigator callable callable-now]" {
		t.Fatalf("quick filters of a DNC result: %s", got)
	}
	if _, err := dr.Query(ctx, Query{Quick: []jobs.QuickFilter{jobs.QuickMatched}, SortCol: -1}); err == nil {
		t.Fatal("matched-only on a DNC result pretended to filter")
	}
}

// checkRefetchAndCallable: a result removed from the library is fetched
// again on demand, and the scrubbed trace's callable list exports to Excel
// and CSV.
func checkRefetchAndCallable(ctx context.Context, t *testing.T, d *Service, done Job) {
	t.Helper()
	if err := os.Remove(done.ResultPath); err != nil {
		t.Fatal(err)
	}
	again := done
	again.ResultPath = ""
	got, err := d.Jobs().Download(ctx, again, nil)
	if err != nil || got.ResultPath == "" {
		t.Fatalf("download again: %+v %v", got, err)
	}
	if _, err := os.Stat(got.ResultPath); err != nil {
		t.Fatal(err)
	}
	for _, ext := range []string{".xlsx", ".csv"} {
		dest := filepath.Join(t.TempDir(), "callable"+ext)
		if _, err := d.Jobs().ExportJob(ctx, got, dest, &CallableChoices{}, nil); err != nil {
			t.Fatalf("callable %s: %v", ext, err)
		}
		if fi, err := os.Stat(dest); err != nil || fi.Size() == 0 {
			t.Fatalf("callable %s not written", ext)
		}
	}
}

// deskWithAccount is a desk whose session-only key is acct's on a sandbox
// of its own (the sandbox's configuration returned with it).
func deskWithAccount(t *testing.T, acct sandbox.KeyConfig) (*Service, *sandbox.Config) {
	t.Helper()
	d := openDesk(t)
	cfg := fastSandbox()
	acct.Email = acct.Key + "@example.com"
	cfg.Keys = []sandbox.KeyConfig{acct}
	srv := sandboxFor(t, d, *cfg)
	if _, err := d.Sessions().Connect(t.Context(), srv.URL(), acct.Key, true); err != nil {
		t.Fatal(err)
	}
	return d, cfg
}

func TestInsufficientCreditsNamesCostAndBalance(t *testing.T) {
	t.Parallel()
	d, _ := deskWithAccount(t, sandbox.KeyConfig{Key: "sk_poor", Credits: 50})
	ctx := t.Context()
	_, err := submitFile(ctx, d, samplePlan(ctx, t, d), false)
	var ce *CreditsError
	if !errors.As(err, &ce) || ce.Balance != 50 || ce.Needed <= 50 {
		t.Fatalf("got %v (%+v)", err, ce)
	}
	p := Explain(err, "")
	if !strings.Contains(p.What, "needs "+jobs.Credits(ce.Needed)) || !strings.Contains(p.Do, "Top up or lower the rows") {
		t.Fatalf("wording: %+v", p)
	}
	list, _, _ := d.Jobs().List(ctx, 1)
	if len(list) != 0 {
		t.Fatalf("a refused submission shows in the jobs list: %+v", list)
	}
}

func indexOf(h []string, s string) int {
	for i, x := range h {
		if x == s {
			return i
		}
	}
	return -1
}

func TestWebhookReceiverFollowsSettings(t *testing.T) {
	t.Parallel()
	d := openDesk(t)
	ctx := t.Context()
	srv := sandboxFor(t, d, *fastSandbox())
	if _, err := d.Sessions().Connect(ctx, srv.URL(), sandbox.DemoKey, false); err != nil {
		t.Fatal(err)
	}
	if d.Sessions().WebhookAddr() != "" {
		t.Fatal("a receiver runs with webhooks off")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()

	s := d.Sessions().Settings()
	s.WebhookEnabled, s.WebhookAddr = true, addr
	err = d.Sessions().SaveSettings(ctx, s)
	var we *WebhookError
	if !errors.As(err, &we) || !we.NoSecret {
		t.Fatalf("webhooks on without a secret: %v", err)
	}
	if p := Explain(err, ""); p.Title != "Webhooks are not on" || !strings.Contains(p.Do, "webhook secret") || !strings.Contains(p.What, "settings are saved") {
		t.Fatalf("wording: %+v", p)
	}
	if err := d.Sessions().SetWebhookSecret(ctx, "whsec_test"); err != nil {
		t.Fatal(err)
	}
	s.WebhookEnabled = false
	if err := d.Sessions().SaveSettings(ctx, s); err != nil {
		t.Fatal(err)
	}
	s.WebhookEnabled = true
	if err := d.Sessions().SaveSettings(ctx, s); err != nil {
		t.Fatal(err)
	}
	if d.Sessions().WebhookAddr() != addr {
		t.Fatalf("receiver on %q, want %q", d.Sessions().WebhookAddr(), addr)
	}
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatalf("nothing listens on %s: %v", addr, err)
	}
	c.Close()
	s.WebhookEnabled = false
	if err := d.Sessions().SaveSettings(ctx, s); err != nil {
		t.Fatal(err)
	}
	if d.Sessions().WebhookAddr() != "" {
		t.Fatal("the receiver still runs after webhooks were switched off")
	}
	if got, _ := d.cfg.Secrets.Get(ctx, secrets.WebhookSecret); got != "whsec_test" {
		t.Fatal("the webhook secret is not in the keyring")
	}
	b, _ := os.ReadFile(filepath.Join(d.Sessions().Home(), "settings.json"))
	if strings.Contains(string(b), "whsec") {
		t.Fatal("the webhook secret was written to the settings file")
	}
}

// TestJobsPagesBackThroughHistory: jobs the ledger never saw (made before,
// or elsewhere) come from the API's lists, a page of 100 at a time.
func TestJobsPagesBackThroughHistory(t *testing.T) {
	t.Parallel()
	d := openDesk(t)
	ctx := t.Context()
	srv, api := clienttest.Sandbox(t, *fastSandbox())
	for i := range 101 {
		_, err := api.Traces.Single(ctx, &client.SingleTraceRequest{FirstName: fmt.Sprintf("Owner%d", i), LastName: "Smith",
			Address: "1 Main St", City: "Columbus", State: "OH", Zip: "43215"})
		if err != nil {
			t.Fatal(err)
		}
	}
	if _, err := d.Sessions().Connect(ctx, srv.URL(), sandbox.DemoKey, true); err != nil {
		t.Fatal(err)
	}
	list, more, err := d.Jobs().List(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 100 || !more {
		t.Fatalf("first page: %d jobs, more=%v; want 100 and more", len(list), more)
	}
	for i := 1; i < len(list); i++ {
		if list[i].CreatedAt.After(list[i-1].CreatedAt) {
			t.Fatalf("not newest first at %d", i)
		}
	}
	if list[0].Kind != jobs.KindSingle || !strings.HasPrefix(list[0].Name, "Single: ") {
		t.Fatalf("single traces listed as %+v", list[0])
	}
	list, more, err = d.Jobs().List(ctx, 2)
	if err != nil || len(list) != 101 || more {
		t.Fatalf("two pages: %d jobs, more=%v, %v", len(list), more, err)
	}
	// A single lookup made through the desk is in the ledger and the list.
	res, err := d.Submissions().Single(ctx, client.SingleTraceRequest{FirstName: "ACME HOLDINGS LLC", Address: "2 Main St", City: "Columbus", State: "OH", Zip: "43215"})
	if err != nil {
		t.Fatal(err)
	}
	list, _, _ = d.Jobs().List(ctx, 1)
	if list[0].Kind != jobs.KindSingle || list[0].Charged != res.Credits {
		t.Fatalf("newest job %+v, want the single lookup charged %d", list[0], res.Credits)
	}
}

// A 402 when the balance covers the job (a prepaid account past due) is not
// called a shortage: the server's own reason is shown.
func TestPaymentRefusedWithEnoughCredits(t *testing.T) {
	t.Parallel()
	d, cfg := deskWithAccount(t, sandbox.KeyConfig{Key: "sk_late", Credits: 5000, PastDue: true})
	ctx := t.Context()
	_, err := submitFile(ctx, d, samplePlan(ctx, t, d), false)
	var ce *CreditsError
	if !errors.As(err, &ce) || ce.Balance != 5000 || ce.Needed == 0 || ce.Needed > 5000 {
		t.Fatalf("got %v (%+v)", err, ce)
	}
	p := Explain(err, "")
	if p.Title != "Payment past due" || strings.Contains(p.What, "short") || !strings.Contains(p.What, "past due") {
		t.Fatalf("wording: %+v", p)
	}

	// A single lookup's 402 names its price and the balance too.
	_, err = d.Submissions().Single(ctx, client.SingleTraceRequest{FirstName: "ACME HOLDINGS LLC", Address: "1 Main St", City: "Austin", State: "TX", Zip: "78701"})
	if !errors.As(err, &ce) || ce.Needed != cfg.Rates.LLC || ce.Balance != 5000 {
		t.Fatalf("single: %v (%+v)", err, ce)
	}
	if p := Explain(err, ""); p.Title != "Payment past due" {
		t.Fatalf("single wording: %+v", p)
	}
}

func TestSingleLookupWithoutCreditsNamesItsPrice(t *testing.T) {
	t.Parallel()
	d, _ := deskWithAccount(t, sandbox.KeyConfig{Key: "sk_empty", Credits: 0})
	ctx := t.Context()
	_, err := d.Submissions().Single(ctx, client.SingleTraceRequest{FirstName: "Ann", LastName: "Lee", Address: "1 Main St", City: "Austin", State: "TX", Zip: "78701"})
	p := Explain(err, "")
	if p.Title != "Not enough credits" || !strings.Contains(p.What, "needs 1 credit;") || !strings.Contains(p.What, "(1 short)") {
		t.Fatalf("wording: %+v (from %v)", p, err)
	}
}

// A file that cannot be opened is a file problem, not "can't reach the
// server" (a file's error satisfies net.Error).
func TestExplainFileErrors(t *testing.T) {
	t.Parallel()
	_, err := os.Open(filepath.Join(t.TempDir(), "gone.csv"))
	p := Explain(fmt.Errorf("sandbox config: %w", err), "")
	if p.Title != "File not available" || !strings.Contains(p.What, "gone.csv") || !strings.Contains(p.What, "does not exist") {
		t.Fatalf("wording: %+v", p)
	}
}

// An upload whose answer was lost shows as "unknown — may be charged"; the
// tracker settles it at once from the job lists, and the event names the
// row the job replaces, so the window swaps it without a reload.
func TestLostAnswerIsSettledAndReplacesItsRow(t *testing.T) {
	t.Parallel()
	d, ctx := sandboxDesk(t)
	events := make(chan Event, 100)
	stop := d.Jobs().Subscribe(func(ev Event) { events <- ev })
	defer stop()
	plan := samplePlan(ctx, t, d)
	d.sandbox.SetFaults(sandbox.Faults{DropCreateResponses: 1})
	_, err := submitFile(ctx, d, plan, false)
	if !errors.Is(err, client.ErrOutcomeUnknown) {
		t.Fatalf("submission with its answer dropped: %v", err)
	}
	// The lost answer is a submission of unknown outcome, shown as a row
	// of its own until the tracker settles it (which may already have
	// happened: it starts at once).
	sess, _ := d.current()
	subs, err := sess.led.Submissions().List(ctx)
	if err != nil || len(subs) != 1 {
		t.Fatalf("the ledger holds %d submissions (%v), want the one sent", len(subs), err)
	}
	unknown := submissionKey(subs[0].ID)
	list, _, err := d.Jobs().List(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range list {
		if j.Key == unknown && j.Status != jobs.StatusUnknown {
			t.Fatalf("the row of the lost answer: %+v, want its status unknown", j)
		}
	}
	if st := subs[0].State; st != ledger.StateUnknown && st != ledger.StateCreated {
		t.Fatalf("the lost answer's submission is %s, want unknown (or settled: created)", st)
	}
	for {
		select {
		case ev := <-events:
			if ev.Replaces == "" {
				continue
			}
			if ev.Replaces != unknown || ev.Job.ID == "" || ev.Job.Rows != 200 {
				t.Fatalf("settled: replaces %q (want %q) with %+v", ev.Replaces, unknown, ev.Job)
			}
			return
		case <-ctx.Done():
			t.Fatal("the unknown submission was not settled within 30 s")
		}
	}
}

func TestExplainLedgerTrouble(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	first, err := ledger.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, err = ledger.Open(dir)
	first.Close()
	if p := Explain(err, ""); p.Title != "SkipDesk is already running" || !strings.Contains(p.Do, "close it") {
		t.Fatalf("second instance: %+v (from %v)", p, err)
	}

	// An unwritable ledger file (chattr +i holds even for root).
	path := filepath.Join(dir, ledger.FileName)
	if err := exec.Command("chattr", "+i", path).Run(); err != nil {
		t.Logf("the unwritable-ledger wording is not checked: chattr +i %s: %v", path, err)
		return
	}
	defer exec.Command("chattr", "-i", path).Run()
	_, err = ledger.Open(dir)
	if p := Explain(err, ""); p.Title != "Job records can't be written" || !strings.Contains(p.What, path) || !strings.Contains(p.Do, "permissions") {
		t.Fatalf("unwritable ledger: %+v (from %v)", p, err)
	}
}
