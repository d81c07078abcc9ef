package tracker

import (
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/client/hostile"
	"github.com/skipdesk/skipdesk/jobs/ledger"
)

// Tracking against the hostile fake of client/hostile.

func hostileEnv(t *testing.T, opts ...client.Option) (*hostile.Server, *env) {
	t.Helper()
	s := hostile.New(t)
	api, err := client.New(s.URL, s.Key, append([]client.Option{client.WithRetryPolicy(client.RetryPolicy{MaxRetries: 1,
		BaseDelay: time.Millisecond, MaxDelay: time.Millisecond, Budget: 5 * time.Second})}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	e := &env{api: api, home: t.TempDir()}
	e.open(t)
	return s, e
}

// Item 3. One job of the list the client cannot read (its created_at is not
// a date) does not stop the tracking of the others: it is reported by its
// id, the list's other jobs are followed as usual, and the tracked job it
// hides is read on its own (GET /traces/:id).
func TestHostileOneBadListItem(t *testing.T) {
	t.Parallel()
	s, e := hostileEnv(t)
	a := e.submitTrace(t, "a.csv")
	b := e.submitTrace(t, "b.csv")
	c := e.submitTrace(t, "c.csv")
	// The list shows b with a created_at that is not a date; GET /traces/b
	// shows it well.
	s.Always(hostile.TraceList, func(w http.ResponseWriter, r *http.Request) {
		rec := &bodyRecorder{header: http.Header{}}
		s.Default(rec, r)
		var page map[string]any
		json.Unmarshal(rec.body, &page)
		for _, it := range page["traces"].([]any) {
			if m := it.(map[string]any); m["id"] == b.JobID {
				m["created_at"] = "yesterday"
			}
		}
		out, _ := json.Marshal(page)
		w.Header().Set("Content-Type", "application/json")
		w.Write(out)
	})
	for _, id := range []string{a.JobID, b.JobID, c.JobID} {
		s.Complete(id)
	}
	tr, rec := start(t, e, Options{})
	ctx := waitCtx(t, 20*time.Second)
	for _, id := range []string{a.JobID, c.JobID, b.JobID} {
		o, err := tr.Wait(ctx, id)
		if err != nil || o.Download == nil {
			t.Fatalf("job %s: %+v, %v", id, o, err)
		}
	}
	ev, ok := rec.first(Error, b.JobID)
	if !ok || !strings.Contains(ev.Err.Error(), "cannot be read") || !strings.Contains(ev.Err.Error(), b.JobID) {
		t.Fatalf("the bad item is not reported by its id: %+v", ev)
	}
	if s.Count(hostile.TraceGet) == 0 {
		t.Fatal("the hidden job was not read on its own")
	}
}

// bodyRecorder is a minimal http.ResponseWriter keeping the body.
type bodyRecorder struct {
	header http.Header
	body   []byte
}

func (b *bodyRecorder) Header() http.Header { return b.header }
func (b *bodyRecorder) WriteHeader(int)     {}
func (b *bodyRecorder) Write(p []byte) (int, error) {
	b.body = append(b.body, p...)
	return len(p), nil
}

// Item 8. A status the client does not know is kept as the service sent it
// (never taken for completed or failed, the job stays in flight), Wait
// follows it for Options.UnknownStatusWait and then says the job is still
// tracked and what to run later; the tracker goes on and downloads the
// result once the job completes.
func TestHostileUnknownStatus(t *testing.T) {
	t.Parallel()
	s, e := hostileEnv(t)
	res := e.submitTrace(t, "owners.csv")
	s.Update(res.JobID, func(j *hostile.Job) { j.Status = "on_hold" })
	tr, rec := start(t, e, Options{UnknownStatusWait: 300 * time.Millisecond})
	ctx := waitCtx(t, 20*time.Second)
	_, err := tr.Wait(ctx, res.JobID)
	var st *StillTrackedError
	if !errors.As(err, &st) || st.Status != "on_hold" || !strings.Contains(err.Error(), "still tracked") ||
		!strings.Contains(err.Error(), "jobs wait "+res.JobID) {
		t.Fatalf("Wait: %v", err)
	}
	rec.await(t, ctx, "the on_hold status event", func() bool { _, ok := rec.first(StatusChanged, res.JobID); return ok })
	j, _ := e.led.Jobs().Job(ctx, res.JobID)
	inflight, _ := e.led.Jobs().InFlight(ctx)
	if j.Status != "on_hold" || len(inflight) != 1 || rec.count(Completed, "")+rec.count(Failed, "") != 0 {
		t.Fatalf("the unknown status became %q (%d in flight)", j.Status, len(inflight))
	}
	if ev, ok := rec.first(StatusChanged, res.JobID); !ok || ev.Status != "on_hold" {
		t.Fatalf("status event %+v", ev)
	}
	// It completes; waiting again (as the message says) ends with its
	// result.
	s.Complete(res.JobID)
	tr.Hint(res.JobID)
	o, err := tr.Wait(ctx, res.JobID)
	for errors.As(err, &st) {
		o, err = tr.Wait(ctx, res.JobID)
	}
	if err != nil || o.Download == nil {
		t.Fatalf("after completion: %+v, %v", o, err)
	}
}

// Item 4. A result answered with something that is not a CSV file (a login
// page with 200) or that trickles past the download deadline is not kept:
// an Error says so, nothing is recorded, and the tracker asks again later,
// keeping the real result when it comes.
func TestHostileBadDownloadRetriedLater(t *testing.T) {
	t.Parallel()
	s, e := hostileEnv(t, client.WithDownloadTimeout(time.Second))
	res := e.submitTrace(t, "owners.csv")
	s.Complete(res.JobID)
	s.Next(hostile.TraceDownload, hostile.Reply(200, map[string]string{"Content-Type": "text/html"},
		"<!DOCTYPE html><html><title>Sign in</title><body>Please sign in</body></html>"))
	s.Next(hostile.TraceDownload, hostile.Trickle(map[string]string{"Content-Type": "text/csv"}, "a,b\r\n", strings.Repeat("1,2\r\n", 10000), 50*time.Millisecond))
	tr, rec := start(t, e, Options{})
	ctx := waitCtx(t, 30*time.Second)
	o, err := tr.Wait(ctx, res.JobID)
	if err != nil || o.Download == nil {
		t.Fatalf("%+v, %v", o, err)
	}
	got, _ := os.ReadFile(o.Download.Path)
	if !strings.HasPrefix(string(got), "first_name,") {
		t.Fatalf("kept %q", got)
	}
	var notCSV, deadline bool
	rec.mu.Lock()
	for _, ev := range rec.events {
		if ev.Type == Error && ev.JobID == res.JobID {
			notCSV = notCSV || errors.Is(ev.Err, client.ErrNotResult)
			var te *client.DownloadTimeoutError
			deadline = deadline || errors.As(ev.Err, &te)
		}
	}
	rec.mu.Unlock()
	if !notCSV || !deadline {
		t.Fatalf("errors reported: not a result %v, deadline %v", notCSV, deadline)
	}
	if n := s.Count(hostile.TraceDownload); n != 3 {
		t.Fatalf("%d downloads, want 3", n)
	}
}

// Item 9. Figures that cannot be right (a negative charge, a refund above
// the charge) are reported as an Error naming the job, kept as reported,
// and left out of the spend totals.
func TestHostileImplausibleFiguresFlagged(t *testing.T) {
	t.Parallel()
	s, e := hostileEnv(t)
	good := e.submitTrace(t, "a.csv")
	bad := e.submitTrace(t, "b.csv")
	s.Complete(good.JobID)
	s.Complete(bad.JobID)
	s.Update(bad.JobID, func(j *hostile.Job) { j.Charged, j.Refunded = 3, 50 })
	tr, rec := start(t, e, Options{})
	ctx := waitCtx(t, 20*time.Second)
	for _, id := range []string{good.JobID, bad.JobID} {
		if _, err := tr.Wait(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	ev, ok := rec.first(Error, bad.JobID)
	var fe *FiguresError
	if !ok || !errors.As(ev.Err, &fe) || !strings.Contains(fe.Problem, "above the charge") {
		t.Fatalf("no warning on the job: %+v", ev)
	}
	if _, ok := rec.first(Error, good.JobID); ok {
		t.Fatal("the plausible job was flagged")
	}
	total, _ := e.led.Jobs().TotalSpend(ctx)
	if total != (ledger.Spend{Charged: 3}) {
		t.Fatalf("total %+v: the implausible job was summed", total)
	}
	if sp, _ := e.led.Jobs().JobSpend(ctx, bad.JobID); sp.Refunded != 50 || sp.Problem() == "" {
		t.Fatalf("kept %+v", sp)
	}
}
