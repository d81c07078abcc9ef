package tracker

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/client/clienttest"
	"github.com/skipdesk/skipdesk/client/sandbox"
	"github.com/skipdesk/skipdesk/client/webhook"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/ledger"
	"github.com/skipdesk/skipdesk/jobs/library"
	"github.com/skipdesk/skipdesk/jobs/submit"
	"github.com/skipdesk/skipdesk/jobs/testlists"
)

// counting counts the requests the client makes.
type counting struct {
	base                      http.RoundTripper
	reads, downloads, limited atomic.Int64
	// read, when set, is told of each read (without blocking).
	read chan struct{}
}

func (c *counting) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method == http.MethodGet {
		c.reads.Add(1)
		select {
		case c.read <- struct{}{}:
		default:
		}
		if strings.HasSuffix(r.URL.Path, "/download") {
			c.downloads.Add(1)
		}
	}
	resp, err := c.base.RoundTrip(r)
	if err == nil && resp.StatusCode == http.StatusTooManyRequests {
		c.limited.Add(1)
	}
	return resp, err
}

type env struct {
	srv  *sandbox.Server
	api  *client.Client
	rt   *counting
	led  *ledger.Ledger
	lib  *library.Library
	home string
}

func newEnv(t *testing.T, cfg sandbox.Config) *env {
	t.Helper()
	rt := &counting{base: http.DefaultTransport.(*http.Transport).Clone()}
	srv, api := clienttest.Sandbox(t, cfg, client.WithHTTPClient(&http.Client{Transport: rt}))
	home := t.TempDir()
	e := &env{srv: srv, api: api, rt: rt, home: home}
	e.open(t)
	return e
}

// open opens the ledger and the library of the env's home.
func (e *env) open(t *testing.T) {
	t.Helper()
	led, err := ledger.Open(e.home)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { led.Close() })
	lib, err := library.Open(filepath.Join(e.home, "results"))
	if err != nil {
		t.Fatal(err)
	}
	e.led, e.lib = led, lib
}

// wantDownloads fails the test unless the client has downloaded want
// results; when says at which point of the test.
func (e *env) wantDownloads(t *testing.T, want int64, when string) {
	t.Helper()
	if n := e.rt.downloads.Load(); n != want {
		t.Fatalf("%d downloads %s, want %d", n, when, want)
	}
}

// refreshAndWant asks tr to look at every job again, waits until it has
// done all it was asked (quiet), and then wants the downloads at want.
func (e *env) refreshAndWant(t *testing.T, ctx context.Context, tr *Tracker, want int64, when string) {
	t.Helper()
	tr.Refresh()
	quiet(t, ctx, tr)
	e.wantDownloads(t, want, when)
}

// newTraceEnv is an env over a quick sandbox with one owner list submitted
// for tracing.
func newTraceEnv(t *testing.T) (*env, *submit.Result) {
	t.Helper()
	e := newEnv(t, quickConfig())
	return e, e.submitTrace(t, "owners.csv")
}

func quickConfig() sandbox.Config {
	cfg := sandbox.DefaultConfig()
	cfg.Processing = sandbox.Processing{MinSeconds: 0.3, RowsPerSecond: 100000}
	return cfg
}

const ownersCSV = "First,Last,Street,City,State,Zip\r\n" +
	"Ann,Lee,1 Main St,Austin,TX,78701\r\n" +
	"Bob,Ray,2 Oak Ave,Austin,TX,78702\r\n" +
	"Cal,Poe,3 Elm Rd,Austin,TX,78703\r\n"

var ownersMapping = map[string]string{"first_name": "First", "last_name": "Last", "property_street": "Street",
	"property_city": "City", "property_state": "State", "property_zip": "Zip"}

func (e *env) submitTrace(t *testing.T, name string) *submit.Result {
	t.Helper()
	p := testlists.WriteFile(t, name, ownersCSV)
	sum := sha256.Sum256([]byte(ownersCSV))
	res, err := submit.Submit(context.Background(), e.api, e.led, submit.Request{Kind: jobs.KindTrace,
		File:    submit.File{Path: p, Name: name, SHA256: hex.EncodeToString(sum[:]), Size: int64(len(ownersCSV)), Rows: 3},
		Mapping: ownersMapping, Again: true})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func (e *env) submitDNC(t *testing.T, name string) *submit.Result {
	t.Helper()
	content := "Phone\r\n5125550101\r\n(512) 555-0102\r\nnot a phone\r\n"
	p := testlists.WriteFile(t, name, content)
	res, err := submit.Submit(context.Background(), e.api, e.led, submit.Request{Kind: jobs.KindDNC,
		File:    submit.File{Path: p, Name: name, SHA256: "x" + name, Rows: 3},
		Mapping: map[string]string{"phone": "Phone"}})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// recorder keeps every event.
type recorder struct {
	mu     sync.Mutex
	events []Event
	more   chan struct{} // closed at the next event
}

func (r *recorder) add(e Event) {
	r.mu.Lock()
	r.events = append(r.events, e)
	if r.more != nil {
		close(r.more)
		r.more = nil
	}
	r.mu.Unlock()
}

// await waits, event by event, until cond holds of the events recorded.
func (r *recorder) await(t *testing.T, ctx context.Context, what string, cond func() bool) {
	t.Helper()
	for {
		r.mu.Lock()
		if r.more == nil {
			r.more = make(chan struct{})
		}
		more := r.more
		r.mu.Unlock()
		if cond() {
			return
		}
		select {
		case <-more:
		case <-ctx.Done():
			t.Fatalf("no event brought %s", what)
		}
	}
}

// idle waits until the tracker has nothing to do.
func idle(t *testing.T, ctx context.Context, tr *Tracker) {
	t.Helper()
	if err := tr.WaitIdle(ctx); err != nil {
		t.Fatal(err)
	}
}

// quiet waits until tr has done what it was asked (Tracker.Quiet).
func quiet(t *testing.T, ctx context.Context, tr *Tracker) {
	t.Helper()
	if err := tr.Quiet(ctx); err != nil {
		t.Fatal(err)
	}
}

func (r *recorder) count(typ EventType, jobID string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, e := range r.events {
		if e.Type == typ && (jobID == "" || e.JobID == jobID) {
			n++
		}
	}
	return n
}

// firstWhere is the first recorded event that match accepts.
func (r *recorder) firstWhere(match func(Event) bool) (Event, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, e := range r.events {
		if match(e) {
			return e, true
		}
	}
	return Event{}, false
}

func (r *recorder) first(typ EventType, jobID string) (Event, bool) {
	return r.firstWhere(func(e Event) bool { return e.Type == typ && e.JobID == jobID })
}

// start runs a tracker until the test ends.
func start(t *testing.T, e *env, opts Options) (*Tracker, *recorder) {
	t.Helper()
	if opts.Library == nil {
		opts.Library = e.lib
	}
	if opts.DownloadRetry == 0 {
		opts.DownloadRetry = 100 * time.Millisecond // a failed download is tried again soon
	}
	tr := New(e.api, e.led, opts)
	rec := &recorder{}
	tr.Subscribe(rec.add)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { tr.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return tr, rec
}

func waitCtx(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

func TestCompletedJobsAreDownloadedOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t, quickConfig())
	trace := e.submitTrace(t, "owners.csv")
	dnc := e.submitDNC(t, "phones.csv")
	tr, rec := start(t, e, Options{})
	ctx := waitCtx(t, 15*time.Second)
	for _, id := range []string{trace.JobID, dnc.JobID} {
		o, err := tr.Wait(ctx, id)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		if o.Job.Status != jobs.StatusCompleted || o.Download == nil {
			t.Fatalf("%s: %+v", id, o)
		}
		// The ledger's spend is the API's.
		var charged, refunded int64
		if o.Job.Kind == jobs.KindDNC {
			j, _ := e.api.DNC.Get(ctx, id)
			charged, refunded = j.CreditsCharged, j.CreditsRefunded
		} else {
			j, _ := e.api.Traces.Get(ctx, id)
			charged, refunded = j.CreditsCharged, j.CreditsRefunded
		}
		if o.Spend.Charged != charged || o.Spend.Refunded != refunded || charged != 3 {
			t.Errorf("%s: spend %+v, API says %d/%d", id, o.Spend, charged, refunded)
		}
		// The file is whole, recorded with its checksum, rows and job record.
		data, err := os.ReadFile(o.Download.Path)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		if hex.EncodeToString(sum[:]) != o.Download.SHA256 || int64(len(data)) != o.Download.Size || o.Download.Rows != 3 {
			t.Errorf("%s: download record %+v does not describe the file (%d bytes)", id, o.Download, len(data))
		}
		meta, err := library.ReadRecord(library.RecordPath(o.Download.Path))
		if err != nil || meta.JobID != id || meta.CreditsCharged != charged || meta.CreditsRefunded != refunded {
			t.Errorf("%s: job record %+v, %v", id, meta, err)
		}
		// Events leave after the ledger is written, which Wait sees first.
		rec.await(t, ctx, id+"'s events", func() bool { return rec.count(Completed, id) > 0 && rec.count(Downloaded, id) > 0 })
		if rec.count(Completed, id) != 1 || rec.count(Downloaded, id) != 1 {
			t.Errorf("%s: %d Completed, %d Downloaded events", id, rec.count(Completed, id), rec.count(Downloaded, id))
		}
		if ev, ok := rec.first(Completed, id); !ok || ev.Job == nil || ev.Job.Status != jobs.StatusCompleted {
			t.Errorf("%s: Completed event %+v", id, ev)
		}
	}
	e.wantDownloads(t, 2, "for two completed jobs")
	idle(t, ctx, tr)
	// Hints about finished jobs download nothing again.
	tr.Hint(trace.JobID)
	e.refreshAndWant(t, ctx, tr, 2, "after hints")
}

func TestRestartResumesAndDownloadsOnce(t *testing.T) {
	t.Parallel()
	e, res := newTraceEnv(t)
	// The app closes before the job completes…
	e.led.Close()
	e.srv.FinishPending()
	if j, err := e.api.Traces.Get(context.Background(), res.JobID); err != nil || j.Status != client.StatusCompleted {
		t.Fatalf("the sandbox did not complete the job: %+v, %v", j, err)
	}
	// … and the next run finds it done and downloads it.
	e.open(t)
	tr, _ := start(t, e, Options{})
	ctx := waitCtx(t, 10*time.Second)
	o, err := tr.Wait(ctx, res.JobID)
	if err != nil || o.Download == nil {
		t.Fatalf("%+v, %v", o, err)
	}
	e.wantDownloads(t, 1, "after the restart")
	// A third run has nothing to do.
	e.led.Close()
	e.open(t)
	tr2, _ := start(t, e, Options{})
	idle(t, ctx, tr2)
	e.refreshAndWant(t, ctx, tr2, 1, "after a third run")
}

func TestFileAlreadyInPlaceIsNotDownloadedAgain(t *testing.T) {
	t.Parallel()
	e, res := newTraceEnv(t)
	ctx := waitCtx(t, 10*time.Second)
	// Complete the job in the ledger as a tracker would have, and put the
	// result in place as an interrupted run would have (renamed, not
	// recorded).
	e.srv.FinishPending()
	j, err := e.api.Traces.Get(ctx, res.JobID)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.led.Jobs().RecordJobState(ctx, submit.TraceJob(j), ledger.Spend{Charged: j.CreditsCharged, Refunded: j.CreditsRefunded}); err != nil {
		t.Fatal(err)
	}
	lj, _ := e.led.Jobs().Job(ctx, res.JobID)
	path := e.lib.PathFor(MetaFor(lj, nil))
	if _, err := e.api.Traces.Download(ctx, res.JobID, path, nil); err != nil {
		t.Fatal(err)
	}
	// A leftover of an interrupted download beside it is cleaned up.
	part := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".123.part")
	os.WriteFile(part, []byte("half"), 0o644)
	before := e.rt.downloads.Load()
	tr, rec := start(t, e, Options{})
	o, err := tr.Wait(ctx, res.JobID)
	if err != nil || o.Download == nil || o.Download.Path != path || o.Download.Rows != 3 {
		t.Fatalf("%+v, %v", o, err)
	}
	if n := e.rt.downloads.Load() - before; n != 0 {
		t.Fatalf("downloaded %d times although the file was in place", n)
	}
	// The event leaves after the download is recorded, which Wait sees.
	rec.await(t, ctx, "the Downloaded event", func() bool { return rec.count(Downloaded, res.JobID) > 0 })
	if n := rec.count(Downloaded, res.JobID); n != 1 {
		t.Fatalf("%d Downloaded events, want 1", n)
	}
	// A recorded download whose file was deleted is fetched again.
	os.Remove(path)
	_ = part
	tr.Hint(res.JobID)
	quiet(t, ctx, tr)
	if n := rec.count(Downloaded, res.JobID); n < 2 {
		t.Fatalf("%d Downloaded events after the file was deleted, want 2", n)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("a deleted result was not fetched again: %v", err)
	}
}

func TestFailedJob(t *testing.T) {
	t.Parallel()
	e := newEnv(t, quickConfig())
	res := e.submitTrace(t, "FAILJOB owners.csv")
	tr, rec := start(t, e, Options{})
	ctx := waitCtx(t, 10*time.Second)
	o, err := tr.Wait(ctx, res.JobID)
	if err != nil {
		t.Fatal(err)
	}
	rec.await(t, ctx, "the Failed event", func() bool { return rec.count(Failed, res.JobID) > 0 })
	if o.Job.Status != jobs.StatusFailed || o.Job.ErrorMessage == "" || o.Download != nil {
		t.Fatalf("%+v", o.Job)
	}
	if o.Spend.Charged != 3 || o.Spend.Refunded != 3 || o.Spend.Net() != 0 {
		t.Fatalf("spend of a failed job %+v", o.Spend)
	}
	if rec.count(Failed, res.JobID) != 1 || rec.count(Completed, res.JobID) != 0 {
		t.Fatal("events of a failed job")
	}
	if e.rt.downloads.Load() != 0 {
		t.Fatal("downloaded a failed job")
	}
}

func TestWebhookHintsAndDedupe(t *testing.T) {
	t.Parallel()
	cfg := quickConfig()
	e := newEnv(t, cfg)
	const secret = "whsec_test_only"
	// Poll rarely: the webhook is what makes the tracker look.
	tr, rec := start(t, e, Options{Interval: func(time.Duration) time.Duration { return time.Hour }})
	rcv, err := tr.StartWebhookReceiver("127.0.0.1:0", secret)
	if err != nil {
		t.Fatal(err)
	}
	defer rcv.Close()
	if err := e.srv.SetWebhook(sandbox.DemoKey, "http://"+rcv.Addr()+"/", secret); err != nil {
		t.Fatal(err)
	}
	res := e.submitTrace(t, "owners.csv")
	ctx := waitCtx(t, 10*time.Second)
	o, err := tr.Wait(ctx, res.JobID)
	if err != nil || o.Download == nil {
		t.Fatalf("%+v, %v", o, err)
	}
	// The same delivery again, and a forged one, change nothing.
	j, _ := e.api.Traces.Get(ctx, res.JobID)
	for i, s := range []string{secret, secret, "wrong"} {
		if got, want := deliverCompleted(t, rcv.Addr(), j, s, "whd_fixed"), map[bool]int{true: 200, false: 401}[s == secret]; got != want {
			t.Errorf("delivery %d: %d, want %d", i, got, want)
		}
	}
	quiet(t, ctx, tr)
	if n := rec.count(Completed, res.JobID); n != 1 {
		t.Fatalf("%d Completed events", n)
	}
	if seen, _ := e.led.Webhooks().SeenDelivery(ctx, "delivery:whd_fixed"); !seen {
		t.Fatal("delivery not recorded in the ledger")
	}
}

// Fifty jobs in flight: the tracker never meets a 429 and notices each
// completion within 3 s of the sandbox completing it.
func TestFiftyJobsInFlight(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("fifty jobs staggered over real time (about 9 s): run without -short, as make test does")
	}
	cfg := sandbox.DefaultConfig()
	cfg.Processing = sandbox.Processing{MinSeconds: 1.5, RowsPerSecond: 100000}
	e := newEnv(t, cfg)
	tr, rec := start(t, e, Options{})
	const n = 50
	ids := make([]string, 0, n)
	begin := time.Now()
	for i := range n {
		ids = append(ids, e.submitTrace(t, fmt.Sprintf("list-%02d.csv", i)).JobID)
		tr.Hint(ids[i])
		time.Sleep(40 * time.Millisecond) // staggered: completions spread over 2 s
	}
	ctx := waitCtx(t, 30*time.Second)
	idle(t, ctx, tr)
	elapsed := time.Since(begin)
	reads, downloads := e.rt.reads.Load(), e.rt.downloads.Load()
	var worst time.Duration
	for _, id := range ids {
		rec.await(t, ctx, id+"'s events", func() bool { return rec.count(Completed, id) > 0 && rec.count(Downloaded, id) > 0 })
		ev, ok := rec.first(Completed, id)
		if !ok {
			t.Fatalf("no Completed event for %s", id)
		}
		j, err := e.api.Traces.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		// How soon each completion was noticed is reported, not asserted:
		// on a loaded machine it is the machine's time, not the tracker's.
		worst = max(worst, ev.At.Sub(j.CompletedAt))
		if rec.count(Downloaded, id) != 1 {
			t.Errorf("%s: %d downloads", id, rec.count(Downloaded, id))
		}
	}
	if l := e.rt.limited.Load(); l != 0 {
		t.Fatalf("%d responses were 429", l)
	}
	perMin := float64(reads) / elapsed.Minutes()
	t.Logf("50 jobs: %d reads (%d downloads) in %v (%.0f/min), worst completion lag %v", reads, downloads, elapsed.Round(time.Millisecond), perMin, worst)
	if downloads != n {
		t.Fatalf("%d downloads, want %d", downloads, n)
	}
	// Polls (not downloads) stay far under the limit: list reads cover many jobs.
	if polls := reads - downloads; polls > 3*int64(elapsed.Seconds()+1) {
		t.Fatalf("%d poll reads in %v: one list read per second or so was expected", polls, elapsed)
	}
}

func TestDefaultIntervalBacksOff(t *testing.T) {
	t.Parallel()
	prev := time.Duration(0)
	for _, age := range []time.Duration{0, 4 * time.Second, 30 * time.Second, 2 * time.Minute, 11 * time.Minute, 2 * time.Hour} {
		d := DefaultInterval(age)
		if d < prev {
			t.Fatalf("interval at %v (%v) shorter than before (%v)", age, d, prev)
		}
		prev = d
	}
	if DefaultInterval(0) > 250*time.Millisecond || DefaultInterval(30*time.Second) > time.Second || DefaultInterval(11*time.Minute) < 15*time.Second {
		t.Fatal("schedule off")
	}
}

func TestWaitUnknownJob(t *testing.T) {
	t.Parallel()
	e := newEnv(t, quickConfig())
	tr := New(e.api, e.led, Options{})
	if _, err := tr.Wait(context.Background(), "trc_nope"); !errors.Is(err, ledger.ErrNotFound) {
		t.Fatalf("%v", err)
	}
}

func TestFetchOnDemand(t *testing.T) {
	t.Parallel()
	e := newEnv(t, quickConfig())
	ctx := waitCtx(t, 10*time.Second)
	// A job submitted elsewhere: not in the ledger.
	p := testlists.WriteFile(t, "elsewhere.csv", ownersCSV)
	created, err := e.api.Traces.Create(ctx, &client.TraceUpload{Path: p, ColumnMapping: ownersMapping})
	if err != nil {
		t.Fatal(err)
	}
	tr := New(e.api, e.led, Options{Library: e.lib})
	if _, err := tr.Fetch(ctx, jobs.KindTrace, created.ID, nil); err == nil || !strings.Contains(err.Error(), "processing") {
		t.Fatalf("fetch of a job in flight: %v", err)
	}
	e.srv.FinishPending()
	var calls atomic.Int64
	var wg sync.WaitGroup
	results := make([]string, 3)
	for i := range results {
		wg.Go(func() {
			d, err := tr.Fetch(ctx, jobs.KindTrace, created.ID, func(done, total int64) { calls.Add(1) })
			if err != nil {
				t.Error(err)
				return
			}
			results[i] = d.Path
		})
	}
	wg.Wait()
	if results[0] == "" || results[0] != results[1] || results[1] != results[2] {
		t.Fatalf("paths %q", results)
	}
	e.wantDownloads(t, 1, "for three concurrent fetches")
	if calls.Load() == 0 {
		t.Fatal("progress never reported")
	}
	j, err := e.led.Jobs().Job(ctx, created.ID)
	if err != nil || j.Status != jobs.StatusCompleted || j.Name != "elsewhere.csv" {
		t.Fatalf("recorded job %+v, %v", j, err)
	}
	if sp, _ := e.led.Jobs().JobSpend(ctx, created.ID); sp.Charged != 3 {
		t.Fatalf("spend %+v", sp)
	}
}

// pathLog records the GET requests' paths and queries.
type pathLog struct {
	base http.RoundTripper
	mu   sync.Mutex
	gets []string
}

func (p *pathLog) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method == http.MethodGet {
		p.mu.Lock()
		p.gets = append(p.gets, r.URL.Path+"?"+r.URL.RawQuery)
		p.mu.Unlock()
	}
	return p.base.RoundTrip(r)
}

func (p *pathLog) count(f func(string) bool) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, g := range p.gets {
		if f(g) {
			n++
		}
	}
	return n
}

// A job older than the first list page is found on the next page, not by
// one GET per job; a job no list shows is read by id.
func TestPagesThenGetByID(t *testing.T) {
	t.Parallel()
	cfg := sandbox.DefaultConfig()
	cfg.Processing = sandbox.Processing{MinSeconds: 600} // stays in flight
	e := newEnv(t, cfg)
	ctx := waitCtx(t, 20*time.Second)
	old := e.submitTrace(t, "old.csv")
	p := testlists.WriteFile(t, "newer.csv", ownersCSV)
	for range listLimit + 5 { // newer jobs, not in the ledger, push it to page 2
		if _, err := e.api.Traces.Create(ctx, &client.TraceUpload{Path: p, ColumnMapping: ownersMapping}); err != nil {
			t.Fatal(err)
		}
	}
	// A job the lists do not show (another key's, or gone).
	if err := e.led.Jobs().UpsertJob(ctx, ledger.Job{ID: "trc_elsewhere", Kind: jobs.KindTrace, Status: "processing", CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	log := &pathLog{base: http.DefaultTransport}
	api, err := client.New(e.srv.URL(), sandbox.DemoKey, client.WithHTTPClient(&http.Client{Transport: log}))
	if err != nil {
		t.Fatal(err)
	}
	tr := New(api, e.led, Options{Library: e.lib, Interval: func(time.Duration) time.Duration { return time.Minute }})
	rec := &recorder{}
	tr.Subscribe(rec.add)
	tr.reload(ctx)
	tr.pollDue(ctx)

	if n := log.count(func(g string) bool { return strings.Contains(g, "/traces?") && strings.Contains(g, "page=2") }); n != 1 {
		t.Errorf("page 2 read %d times, want 1: %q", n, log.gets)
	}
	if n := log.count(func(g string) bool { return strings.HasSuffix(g, "/traces/"+old.JobID+"?") }); n != 0 {
		t.Errorf("the job on page 2 was also read by id: %q", log.gets)
	}
	if n := log.count(func(g string) bool { return strings.HasSuffix(g, "/traces/trc_elsewhere?") }); n != 1 {
		t.Errorf("the job on no page was read by id %d times: %q", n, log.gets)
	}
	if rec.count(Error, "trc_elsewhere") != 1 {
		t.Error("no error event for a job the key cannot see")
	}
	j, _ := e.led.Jobs().Job(ctx, old.JobID)
	if len(j.Last) < 10 || j.Status != jobs.StatusProcessing {
		t.Errorf("the job on page 2 was not recorded: %+v", j)
	}
	// The next look is scheduled, not immediate: no busy loop.
	if d := tr.untilNext(time.Now()); d <= 0 {
		t.Errorf("next look in %v", d)
	}
}

// The budget waits for the server's window when the X-RateLimit headers
// say less than a tenth is left.
func TestBudgetHonoursServerRateLimit(t *testing.T) {
	t.Parallel()
	cfg := quickConfig()
	cfg.RateLimits.ReadPerMinute = 20
	e := newEnv(t, cfg)
	b := newBudget(600, e.api)
	if d := b.serverWait(time.Now()); d != 0 {
		t.Fatalf("wait %v before any response", d)
	}
	// Read until one request is left (a minute boundary in between only
	// means a few more reads).
	for i := 0; i < 45 && (e.api.RateLimit().Remaining < 0 || e.api.RateLimit().Remaining > 1); i++ {
		if _, err := e.api.Traces.List(context.Background(), &client.TraceListOptions{Limit: 1}); err != nil {
			t.Fatal(err)
		}
	}
	rl := e.api.RateLimit()
	d := b.serverWait(time.Now())
	if rl.Remaining != 1 || d <= 0 || d > 61*time.Second {
		t.Fatalf("remaining %d of %d: wait %v", rl.Remaining, rl.Limit, d)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := b.take(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("take did not wait for the window: %v", err)
	}
}

// A list read records every tracked job it shows, due or not (the sandbox
// sends both id and encoded_id: the ledger's id must be the one matched).
func TestListReadCoversJobsNotDue(t *testing.T) {
	t.Parallel()
	cfg := sandbox.DefaultConfig()
	cfg.Processing = sandbox.Processing{MinSeconds: 600}
	e := newEnv(t, cfg)
	ctx := waitCtx(t, 10*time.Second)
	a := e.submitTrace(t, "a.csv")
	b := e.submitTrace(t, "b.csv")
	tr := New(e.api, e.led, Options{Library: e.lib})
	if err := tr.reload(ctx); err != nil {
		t.Fatal(err)
	}
	tr.mu.Lock()
	tr.jobs[b.JobID].next = time.Now().Add(time.Hour) // not due
	tr.mu.Unlock()
	before := e.rt.reads.Load()
	tr.pollDue(ctx)
	if n := e.rt.reads.Load() - before; n != 1 {
		t.Fatalf("%d reads, want one list read", n)
	}
	for _, id := range []string{a.JobID, b.JobID} {
		j, err := e.led.Jobs().Job(ctx, id)
		if err != nil || !strings.Contains(string(j.Last), id) {
			t.Errorf("job %s not recorded from the list: %+v, %v", id, j, err)
		}
	}
	tr.mu.Lock()
	next := tr.jobs[b.JobID].next
	tr.mu.Unlock()
	if time.Until(next) > 2*time.Second {
		t.Errorf("the job seen for free keeps its old schedule (%v away)", time.Until(next))
	}
}

// An include_llcs trace keeps its breakdown in the ledger and in the
// library's job record.
func TestBreakdownKept(t *testing.T) {
	t.Parallel()
	e := newEnv(t, quickConfig())
	content := ownersCSV + "Acme,LLC,4 Pine Ct,Austin,TX,78704\r\n"
	p := testlists.WriteFile(t, "llcs.csv", content)
	sum := sha256.Sum256([]byte(content))
	res, err := submit.Submit(context.Background(), e.api, e.led, submit.Request{Kind: jobs.KindTrace,
		File:    submit.File{Path: p, Name: "llcs.csv", SHA256: hex.EncodeToString(sum[:]), Rows: 4},
		Mapping: ownersMapping, IncludeLLCs: true})
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := start(t, e, Options{})
	o, err := tr.Wait(waitCtx(t, 10*time.Second), res.JobID)
	if err != nil || o.Download == nil {
		t.Fatalf("%+v, %v", o, err)
	}
	api, _ := e.api.Traces.Get(context.Background(), res.JobID)
	if api.Breakdown == nil || api.Breakdown.LLCs.Rows != 1 {
		t.Fatalf("the sandbox sent no breakdown: %+v", api.Breakdown)
	}
	meta, err := library.ReadRecord(library.RecordPath(o.Download.Path))
	if err != nil {
		t.Fatal(err)
	}
	if meta.Breakdown == nil || *meta.Breakdown != *api.Breakdown || !meta.IncludeLLCs || meta.EntityRows != 1 {
		t.Fatalf("job record breakdown %+v, API %+v", meta.Breakdown, api.Breakdown)
	}
	if !strings.Contains(string(o.Job.Last), `"breakdown"`) {
		t.Fatalf("ledger job lost the breakdown: %s", o.Job.Last)
	}
}

// A job the key cannot see does not keep WaitIdle waiting for ever.
func TestWaitIdleReportsStuckJobs(t *testing.T) {
	t.Parallel()
	e := newEnv(t, quickConfig())
	ctx := waitCtx(t, 10*time.Second)
	res := e.submitTrace(t, "owners.csv")
	if err := e.led.Jobs().UpsertJob(ctx, ledger.Job{ID: "trc_other_account", Kind: jobs.KindTrace, Status: "processing", CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	tr, _ := start(t, e, Options{})
	err := tr.WaitIdle(ctx)
	var se *StuckError
	if !errors.As(err, &se) || len(se.Jobs) != 1 || !strings.Contains(se.Jobs["trc_other_account"], "not visible") {
		t.Fatalf("WaitIdle: %v", err)
	}
	// The good job finished first.
	if d, err := e.led.Jobs().JobDownload(ctx, res.JobID); err != nil || d == nil {
		t.Fatalf("the visible job: %v", err)
	}
}

// A subscriber may call back into the tracker from its callback.
func TestSubscriberMayCallBack(t *testing.T) {
	t.Parallel()
	e, res := newTraceEnv(t)
	ctx := waitCtx(t, 10*time.Second)
	// A status the first look changes: the StatusChanged callback then
	// fetches a job in flight, which reads it from the API and records it.
	if err := e.led.Jobs().UpsertJob(ctx, ledger.Job{ID: res.JobID, Kind: jobs.KindTrace, Status: "queued"}); err != nil {
		t.Fatal(err)
	}
	tr := New(e.api, e.led, Options{Library: e.lib})
	var fetched atomic.Int64
	fetchedCh := make(chan struct{})
	tr.Subscribe(func(ev Event) {
		if ev.JobID != res.JobID {
			return
		}
		switch ev.Type {
		case StatusChanged, Completed, Downloaded:
			tr.Hint(ev.JobID)
			if _, err := tr.Fetch(ctx, ev.Kind, ev.JobID, nil); err == nil && fetched.Add(1) == 1 {
				close(fetchedCh)
			}
		}
	})
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { tr.Run(runCtx); close(done) }()
	defer func() { cancel(); <-done }()
	if _, err := tr.Wait(ctx, res.JobID); err != nil {
		t.Fatalf("deadlocked or failed: %v", err)
	}
	select {
	case <-fetchedCh:
	case <-ctx.Done():
		t.Fatal("the callback's Fetch never succeeded")
	}
	e.wantDownloads(t, 1, "after the callback fetched")
}

func TestEventsChannel(t *testing.T) {
	t.Parallel()
	e, res := newTraceEnv(t)
	tr := New(e.api, e.led, Options{Library: e.lib})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	evs := tr.Events(ctx, 8)
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { tr.Run(runCtx); close(done) }()
	defer func() { stop(); <-done }()
	var seen []EventType
	for ev := range evs {
		if ev.JobID != res.JobID {
			continue
		}
		seen = append(seen, ev.Type)
		if ev.Type == Downloaded {
			cancel()
		}
	}
	got := fmt.Sprint(seen)
	if !strings.HasPrefix(got, "[status completed") || !strings.HasSuffix(got, "downloaded]") {
		t.Fatalf("events %v", got)
	}
}

// A library folder that cannot be written is this computer's problem: the
// job counts as stuck at once with a message naming the folder (no
// pointless downloads meanwhile), nothing half-written is left, and the
// result downloads once the folder is back.
func TestUnwritableLibraryFolder(t *testing.T) {
	t.Parallel()
	e, res := newTraceEnv(t)
	dir := e.lib.Dir()
	// The folder is gone and a file holds its name: every write in it
	// fails, whoever runs the test (root ignores permission bits).
	if err := os.Remove(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir, []byte("in the way"), 0o644); err != nil {
		t.Fatal(err)
	}
	tr, rec := start(t, e, Options{})
	ctx := waitCtx(t, 20*time.Second)
	_, err := tr.Wait(ctx, res.JobID)
	var se *StuckError
	if !errors.As(err, &se) || !se.Local() || !strings.Contains(se.Jobs[res.JobID], dir) {
		t.Fatalf("Wait with an unwritable library: %v", err)
	}
	var le *LibraryError
	rec.mu.Lock()
	for _, ev := range rec.events {
		if ev.Type == Error && errors.As(ev.Err, &le) {
			break
		}
	}
	rec.mu.Unlock()
	if le == nil || le.JobID != res.JobID || !strings.Contains(le.Error(), "done and recorded") {
		t.Fatalf("no LibraryError event: %+v", le)
	}
	if j, _ := e.led.Jobs().Job(ctx, res.JobID); j.Status != jobs.StatusCompleted {
		t.Fatalf("job %+v", j)
	}
	if _, err := e.led.Jobs().JobDownload(ctx, res.JobID); !errors.Is(err, ledger.ErrNotFound) {
		t.Fatalf("a download was recorded: %v", err)
	}
	e.wantDownloads(t, 0, "into a folder that cannot take them")

	// The folder is back: the next try downloads the result, once.
	os.Remove(dir)
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := e.led.Jobs().JobDownload(ctx, res.JobID); err == nil {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatal("the result was not downloaded once the folder was back")
		case <-time.After(100 * time.Millisecond):
		}
	}
	o, err := tr.Wait(ctx, res.JobID)
	if err != nil || o.Download == nil {
		t.Fatalf("after the folder came back: %+v, %v", o, err)
	}
	e.wantDownloads(t, 1, "once the folder was back")
	ents, _ := os.ReadDir(dir)
	if len(ents) != 2 {
		t.Fatalf("library holds %v", ents)
	}
}

// deliverCompleted posts a trace.completed delivery of j, signed with
// secret, to the webhook receiver at addr and returns the answer's status.
func deliverCompleted(t *testing.T, addr string, j *client.Trace, secret, deliveryID string) int {
	t.Helper()
	req, err := webhook.NewTestRequest("http://"+addr+"/", "trace.completed", j, secret, deliveryID, 1)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// A delivery handled before a restart is not acted on again after it: the
// dedupe lives in the ledger. (Acting on it would hint the job, and the
// tracker would fetch its result again, as the result file is gone.)
func TestWebhookDedupeAcrossRestart(t *testing.T) {
	t.Parallel()
	e := newEnv(t, quickConfig())
	const secret = "whsec_restart_test"
	rarely := Options{Interval: func(time.Duration) time.Duration { return time.Hour }}
	res := e.submitTrace(t, "owners.csv")
	ctx := waitCtx(t, 15*time.Second)
	e.srv.FinishPending()
	j, err := e.api.Traces.Get(ctx, res.JobID)
	if err != nil {
		t.Fatal(err)
	}
	deliver := func(addr string) {
		t.Helper()
		if status := deliverCompleted(t, addr, j, secret, "whd_once"); status != http.StatusOK {
			t.Fatalf("delivery answered %d", status)
		}
	}

	// First run: the delivery completes the job and its result downloads.
	runCtx, stop := context.WithCancel(ctx)
	tr := New(e.api, e.led, Options{Library: e.lib, Interval: rarely.Interval})
	done := make(chan struct{})
	go func() { tr.Run(runCtx); close(done) }()
	rcv, err := tr.StartWebhookReceiver("127.0.0.1:0", secret)
	if err != nil {
		t.Fatal(err)
	}
	deliver(rcv.Addr())
	o, err := tr.Wait(ctx, res.JobID)
	if err != nil || o.Download == nil {
		t.Fatalf("%+v, %v", o, err)
	}
	rcv.Close()
	stop()
	<-done
	e.led.Close()
	if err := os.Remove(o.Download.Path); err != nil {
		t.Fatal(err)
	}

	// After a restart the same delivery arrives again (the service retries
	// at least once): it is answered and ignored.
	e.open(t)
	tr2, rec := start(t, e, rarely)
	rcv2, err := tr2.StartWebhookReceiver("127.0.0.1:0", secret)
	if err != nil {
		t.Fatal(err)
	}
	defer rcv2.Close()
	deliver(rcv2.Addr())
	quiet(t, ctx, tr2)
	e.wantDownloads(t, 1, "after a replayed delivery")
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if n := len(rec.events); n != 0 {
		t.Fatalf("events after a replayed delivery: %+v", rec.events)
	}
}

// Whatever the number of jobs in flight, the tracker's reads stay within
// its budget: 300 jobs (three list pages), every one of them due all the
// time, make no more polls than the budget allows (a quarter of
// DefaultReadsPerMinute), and the service never answers 429.
func TestReadsBoundedWhateverTheJobs(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("measures the read budget, a rate in real time, over seconds; skipped with -short, make test runs it")
	}
	cfg := sandbox.DefaultConfig()
	cfg.Processing = sandbox.Processing{MinSeconds: 600} // all stay in flight
	cfg.RateLimits.WritePerMinute = -1                   // only to create them quickly
	e := newEnv(t, cfg)
	ctx := waitCtx(t, 30*time.Second)
	p := testlists.WriteFile(t, "many.csv", ownersCSV)
	var states []ledger.JobState
	for range 300 {
		c, err := e.api.Traces.Create(ctx, &client.TraceUpload{Path: p, ColumnMapping: ownersMapping})
		if err != nil {
			t.Fatal(err)
		}
		states = append(states, ledger.JobState{Job: ledger.Job{ID: c.ID, Kind: jobs.KindTrace, Name: "many.csv",
			Status: jobs.Status(c.Status), CreatedAt: time.Now()}, Spend: ledger.Spend{Charged: c.CreditsCharged}})
	}
	if err := e.led.Jobs().RecordJobStates(ctx, states); err != nil {
		t.Fatal(err)
	}
	// The budget is a rate in real time: the reads are counted until the
	// tenth, and how long they took says whether they kept to it.
	e.rt.read = make(chan struct{}, 1)
	before := e.rt.reads.Load()
	begin := time.Now()
	start(t, e, Options{Interval: func(time.Duration) time.Duration { return 0 }})
	for e.rt.reads.Load()-before < 10 {
		select {
		case <-e.rt.read:
		case <-ctx.Done():
			t.Fatalf("only %d polls: the tracker did not look at the jobs", e.rt.reads.Load()-before)
		}
	}
	polls := e.rt.reads.Load() - before
	elapsed := time.Since(begin).Seconds()
	rate := float64(DefaultReadsPerMinute/4) / 60
	allowed := int64(max(1, min(10, rate)) + rate*elapsed + 1)
	t.Logf("300 jobs always due: %d polls in %.1f s (budget %.0f/s, allowed %d)", polls, elapsed, rate, allowed)
	if polls > allowed {
		t.Fatalf("%d polls in %.1f s: over the budget of %d", polls, elapsed, allowed)
	}
	if l := e.rt.limited.Load(); l != 0 {
		t.Fatalf("%d responses were 429", l)
	}
	for _, s := range states[:5] {
		if j, _ := e.led.Jobs().Job(ctx, s.Job.ID); len(j.Last) < 10 {
			t.Errorf("job %s never seen in a list: %+v", s.Job.ID, j)
		}
	}
}

// Each job's next look follows its age: a new job is looked at within a
// second or two, one a few hours old once a minute.
func TestScheduleFollowsAge(t *testing.T) {
	t.Parallel()
	tr := New(nil, nil, Options{})
	now := time.Now()
	for _, c := range []struct {
		age  time.Duration
		want time.Duration
	}{{10 * time.Second, time.Second}, {5 * time.Minute, 2 * time.Second}, {30 * time.Minute, 20 * time.Second}, {3 * time.Hour, time.Minute}} {
		tk := &tracked{job: &ledger.Job{CreatedAt: now.Add(-c.age)}, firstSeen: now.Add(-c.age)}
		tr.schedule(tk, now, 0)
		if got := tk.next.Sub(now); got != c.want {
			t.Errorf("a job %v old: next look in %v, want %v", c.age, got, c.want)
		}
	}
	// A server clock behind ours does not make a job just submitted look
	// old.
	tk := &tracked{job: &ledger.Job{CreatedAt: now.Add(-3 * time.Hour)}, firstSeen: now}
	tr.schedule(tk, now, 0)
	if got := tk.next.Sub(now); got != DefaultInterval(0) {
		t.Errorf("a job just submitted whose server time is 3 h back: next look in %v", got)
	}
}

// The rows recorded for a download are the rows the viewer shows, also in a
// result with a quote inside an unquoted value.
func TestDownloadRowsAsTheViewerCounts(t *testing.T) {
	t.Parallel()
	body := "first_name,last_name\r\nJOHN \"JACK\",SMITH\r\nANN,O\"BRIEN\r\n,\r\nBOB,RAY\r\n"
	p := testlists.WriteFile(t, "r.csv", body)
	sum, size, rows, err := hashResult(p)
	want := sha256.Sum256([]byte(body))
	if err != nil || sum != hex.EncodeToString(want[:]) || size != int64(len(body)) {
		t.Fatalf("hashResult = %s, %d, %v", sum, size, err)
	}
	r, err := library.OpenResult(p)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if rows != 3 || r.Len() != rows {
		t.Fatalf("recorded %d rows, the viewer shows %d, want 3", rows, r.Len())
	}
}

// At start the tracker settles what a crashed or cut-off submission left
// unknown, without being asked: a job the POST created is found, adopted,
// tracked and downloaded once; a submission long past its window with no
// job is marked not created. Nothing is submitted again.
func TestStartReconcilesUnknownSubmissions(t *testing.T) {
	t.Parallel()
	e := newEnv(t, quickConfig())
	ctx := waitCtx(t, 20*time.Second)
	e.srv.SetFaults(sandbox.Faults{DropCreateResponses: 1})
	p := testlists.WriteFile(t, "owners.csv", ownersCSV)
	sum := sha256.Sum256([]byte(ownersCSV))
	_, err := submit.Submit(ctx, e.api, e.led, submit.Request{Kind: jobs.KindTrace,
		File:    submit.File{Path: p, Name: "owners.csv", SHA256: hex.EncodeToString(sum[:]), Size: int64(len(ownersCSV)), Rows: 3},
		Mapping: ownersMapping})
	var ue *submit.UnknownError
	if !errors.As(err, &ue) {
		t.Fatalf("Submit with the response dropped: %v", err)
	}
	// A submission from an hour ago, cut off after "sent", that made no job.
	old, err := e.led.Submissions().RecordIntent(ctx, &ledger.Submission{Kind: jobs.KindTrace, FileName: "gone.csv", FileHash: "h", Rows: 7,
		CreatedAt: time.Now().Add(-time.Hour)})
	if err == nil {
		err = e.led.Submissions().MarkSent(ctx, old)
	}
	if err != nil {
		t.Fatal(err)
	}
	posts := clienttest.Jobs(t, e.api)

	tr, rec := start(t, e, Options{})
	idle(t, ctx, tr)
	var adopted string
	rec.await(t, ctx, "the unknown submission reconciled", func() bool {
		ev, ok := rec.firstReconciled(ue.SubmissionID)
		adopted = ev.JobID
		return ok
	})
	s, _ := e.led.Submissions().Submission(ctx, ue.SubmissionID)
	if adopted == "" || s.State != ledger.StateCreated || s.JobID != adopted {
		t.Fatalf("unknown submission after start: %+v; event job %q", s, adopted)
	}
	o, err := tr.Wait(ctx, adopted)
	if err != nil || o.Download == nil || e.rt.downloads.Load() != 1 {
		t.Fatalf("adopted job: %+v, %v; %d downloads", o, err, e.rt.downloads.Load())
	}
	if g, _ := e.led.Submissions().Submission(ctx, old); g.State != ledger.StateNotCreated {
		t.Fatalf("old submission: %+v", g)
	}
	if ev, ok := rec.firstReconciled(old); !ok || ev.SubmissionState != string(ledger.StateNotCreated) || ev.Job != nil {
		t.Fatalf("event of the old submission: %+v", ev)
	}
	if n := clienttest.Jobs(t, e.api); n != posts || n != 1 {
		t.Fatalf("%d jobs on the server (was %d): something was submitted again", n, posts)
	}
}

func (r *recorder) firstReconciled(sub int64) (Event, bool) {
	return r.firstWhere(func(e Event) bool { return e.Type == Reconciled && e.Submission == sub })
}

// A result download that breaks at any stage (a server error before the
// first byte, a connection closed after the headers, one closed halfway
// through the body) is tried again until it succeeds: one whole result in
// the library, no temporary file left, one Downloaded event, the checksum
// of what the server sent.
func TestDownloadBrokenAtEachStage(t *testing.T) {
	t.Parallel()
	srv := clienttest.StartSandbox(t, quickConfig())
	h := srv.Handler()
	var attempts atomic.Int64
	stages := []string{"status 503", "closed after the headers", "closed halfway"}
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/download") {
			h.ServeHTTP(w, r)
			return
		}
		n := int(attempts.Add(1)) - 1
		if n >= len(stages) {
			h.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		body := rec.Body.Bytes()
		switch stages[n] {
		case "status 503":
			http.Error(w, `{"error":"unavailable"}`, http.StatusServiceUnavailable)
			return
		}
		conn, bw, err := w.(http.Hijacker).Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		defer conn.Close()
		fmt.Fprintf(bw, "HTTP/1.1 200 OK\r\nContent-Type: text/csv\r\nContent-Length: %d\r\n\r\n", len(body))
		if stages[n] == "closed halfway" {
			bw.Write(body[:len(body)/2])
		}
		bw.Flush()
	}))
	t.Cleanup(proxy.Close)
	rt := &counting{base: http.DefaultTransport.(*http.Transport).Clone()}
	api, err := client.New(proxy.URL+"/v1", sandbox.DemoKey, client.WithHTTPClient(&http.Client{Transport: rt}),
		client.WithRetryPolicy(client.RetryPolicy{MaxRetries: -1})) // each failure reaches the tracker
	if err != nil {
		t.Fatal(err)
	}
	e := &env{srv: srv, api: api, rt: rt, home: t.TempDir()}
	e.open(t)
	res := e.submitTrace(t, "owners.csv")
	tr, rec := start(t, e, Options{})
	ctx := waitCtx(t, 20*time.Second)
	// Wait reports the job stuck after three failures; the tracker goes on
	// until the download arrives.
	var o *Outcome
	for {
		o, err = tr.Wait(ctx, res.JobID)
		var se *StuckError
		if !errors.As(err, &se) {
			break
		}
		rec.await(t, ctx, "the download after the job was stuck", func() bool { return rec.count(Downloaded, res.JobID) > 0 })
	}
	if err != nil || o.Download == nil {
		t.Fatalf("%+v, %v", o, err)
	}
	if n := attempts.Load(); n != int64(len(stages)+1) {
		t.Fatalf("%d download attempts, want %d", n, len(stages)+1)
	}
	if n := rec.count(Error, res.JobID); n < len(stages) {
		t.Errorf("%d error events for %d broken downloads", n, len(stages))
	}
	if n := rec.count(Downloaded, res.JobID); n != 1 {
		t.Errorf("%d Downloaded events", n)
	}
	files, _ := os.ReadDir(e.lib.Dir())
	var names []string
	for _, f := range files {
		names = append(names, f.Name())
	}
	if len(names) != 2 || filepath.Join(e.lib.Dir(), names[0]) != o.Download.Path {
		t.Fatalf("library holds %q, want the result and its record", names)
	}
	direct, err := client.New(srv.URL(), sandbox.DemoKey)
	if err != nil {
		t.Fatal(err)
	}
	ref := filepath.Join(t.TempDir(), "ref.csv")
	if _, err := direct.Traces.Download(ctx, res.JobID, ref, nil); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(ref)
	sum := sha256.Sum256(b)
	if o.Download.SHA256 != hex.EncodeToString(sum[:]) || o.Download.Size != int64(len(b)) || o.Download.Rows != 3 {
		t.Fatalf("download %+v; the server's result is %d bytes", o.Download, len(b))
	}
}
