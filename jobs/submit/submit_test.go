package submit

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/client/clienttest"
	"github.com/skipdesk/skipdesk/client/sandbox"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/ledger"
	"github.com/skipdesk/skipdesk/jobs/testlists"
)

type env struct {
	srv *sandbox.Server
	api *client.Client
	led *ledger.Ledger
	dir string
}

func newEnv(t *testing.T) *env {
	t.Helper()
	cfg := sandbox.DefaultConfig()
	cfg.Processing = sandbox.Processing{MinSeconds: 0.2, RowsPerSecond: 100000}
	srv, api := clienttest.Sandbox(t, cfg)
	dir := t.TempDir()
	return &env{srv: srv, api: api, led: openLedger(t, dir), dir: dir}
}

// newOwnersEnv is an env with the owner list written to owners.csv.
func newOwnersEnv(t *testing.T) (*env, File) {
	t.Helper()
	return newEnv(t), writeFile(t, "owners.csv", ownersCSV)
}

// reconcileByID runs Reconcile and returns its outcomes by submission id.
func (e *env) reconcileByID(t *testing.T, ctx context.Context) map[int64]Outcome {
	t.Helper()
	out, err := Reconcile(ctx, e.api, e.led, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[int64]Outcome{}
	for _, o := range out {
		got[o.Submission.ID] = o
	}
	return got
}

// openLedger opens the ledger in dir, closed when the test ends.
func openLedger(t *testing.T, dir string) *ledger.Ledger {
	t.Helper()
	led, err := ledger.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { led.Close() })
	return led
}

const ownersCSV = "First,Last,Street,City,State,Zip\r\n" +
	"Ann,Lee,1 Main St,Austin,TX,78701\r\n" +
	"Bob,Ray,2 Oak Ave,Austin,TX,78702\r\n" +
	"Acme,LLC,3 Elm Rd,Austin,TX,78703\r\n"

var ownersMapping = map[string]string{"first_name": "First", "last_name": "Last", "property_street": "Street",
	"property_city": "City", "property_state": "State", "property_zip": "Zip"}

func writeFile(t *testing.T, name, content string) File {
	t.Helper()
	p := testlists.WriteFile(t, name, content)
	sum := sha256.Sum256([]byte(content))
	rows := strings.Count(strings.TrimSpace(content), "\n")
	return File{Path: p, Name: name, SHA256: hex.EncodeToString(sum[:]), Size: int64(len(content)), Rows: rows}
}

func traceReq(f File) Request {
	return Request{Kind: jobs.KindTrace, File: f, Mapping: ownersMapping, Mode: jobs.ModeNormal,
		Options: Options{}, Estimate: &Estimate{Credits: 2, Rows: 2}}
}

// wantServerJobs fails the test unless the sandbox holds want bulk traces
// and DNC jobs; why says what more jobs would mean.
func wantServerJobs(t *testing.T, api *client.Client, want int, why string) {
	t.Helper()
	if n := clienttest.Jobs(t, api); n != want {
		t.Fatalf("%d jobs on the server, want %d %s", n, want, why)
	}
}

func TestSubmitCommitsEachStep(t *testing.T) {
	t.Parallel()
	e, f := newOwnersEnv(t)
	ctx := context.Background()
	var steps []Step
	req := traceReq(f)
	req.OnStep = func(s Step, sub *ledger.Submission) {
		steps = append(steps, s)
		got, err := e.led.Submissions().Submission(ctx, sub.ID)
		if err != nil {
			t.Fatal(err)
		}
		want := map[Step]ledger.State{StepIntent: ledger.StateIntent, StepSent: ledger.StateSent,
			StepPosted: ledger.StateSent, StepCreated: ledger.StateCreated}[s]
		if got.State != want {
			t.Errorf("at step %s the ledger says %s, want %s", s, got.State, want)
		}
		if s == StepSent && clienttest.Jobs(t, e.api) != 0 {
			t.Error("a job exists before the POST")
		}
	}
	res, err := Submit(ctx, e.api, e.led, req)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(stepNames(steps), ",") != "intent,sent,posted,created" {
		t.Fatalf("steps %v", steps)
	}
	if res.JobID == "" || res.Charged != 2 || res.Trace == nil {
		t.Fatalf("result %+v", res)
	}
	sub, _ := e.led.Submissions().Submission(ctx, res.Submission.ID)
	if sub.State != ledger.StateCreated || sub.JobID != res.JobID || sub.FileHash != f.SHA256 || sub.Rows != 3 ||
		!strings.Contains(string(sub.Estimate), "credits") || !strings.Contains(string(sub.Response), res.JobID) {
		t.Fatalf("submission %+v", sub)
	}
	j, err := e.led.Jobs().Job(ctx, res.JobID)
	if base, tag := Untag(j.Name); err != nil || j.Status != jobs.StatusProcessing || base != "owners.csv" || tag == "" || tag != sub.Tag || j.Kind != jobs.KindTrace {
		t.Fatalf("job %+v, %v", j, err)
	}
	if sp, _ := e.led.Jobs().JobSpend(ctx, res.JobID); sp.Charged != 2 {
		t.Fatalf("spend %+v", sp)
	}
	wantServerJobs(t, e.api, 1, "")
}

func stepNames(s []Step) []string {
	out := make([]string, len(s))
	for i, x := range s {
		out[i] = string(x)
	}
	return out
}

func TestDuplicateNeedsAgain(t *testing.T) {
	t.Parallel()
	e, f := newOwnersEnv(t)
	ctx := context.Background()
	first, err := Submit(ctx, e.api, e.led, traceReq(f))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Submit(ctx, e.api, e.led, traceReq(f))
	var de *DuplicateError
	if !errors.Is(err, ErrDuplicate) || !errors.As(err, &de) || de.Earlier.JobID != first.JobID {
		t.Fatalf("second submission: %v", err)
	}
	if !strings.Contains(err.Error(), first.JobID) {
		t.Fatalf("message does not name the earlier job: %v", err)
	}
	wantServerJobs(t, e.api, 1, "(a duplicate reached it)")
	// Other options, another mode, or a DNC of the same file are not duplicates.
	other := traceReq(f)
	other.IncludeLLCs = true
	if _, err := Submit(ctx, e.api, e.led, other); err != nil {
		t.Fatalf("include_llcs differs: %v", err)
	}
	again := traceReq(f)
	again.Again = true
	if _, err := Submit(ctx, e.api, e.led, again); err != nil {
		t.Fatalf("--again: %v", err)
	}
	wantServerJobs(t, e.api, 3, "")
}

func TestRefusedUploadIsFailedNotDuplicate(t *testing.T) {
	t.Parallel()
	e, f := newOwnersEnv(t)
	ctx := context.Background()
	req := traceReq(f)
	req.Mapping = map[string]string{"first_name": "First", "last_name": "Last"} // no address group
	_, err := Submit(ctx, e.api, e.led, req)
	if !errors.Is(err, client.ErrBadRequest) {
		t.Fatalf("want a 400: %v", err)
	}
	subs, _ := e.led.Submissions().List(ctx)
	if len(subs) != 1 || subs[0].State != ledger.StateFailed || subs[0].Error == "" {
		t.Fatalf("submissions %+v", subs)
	}
	// A refused submission is not a duplicate of the corrected one, nor of itself.
	if _, err := Submit(ctx, e.api, e.led, req); !errors.Is(err, client.ErrBadRequest) {
		t.Fatalf("resubmitting a refused upload: %v", err)
	}
}

func TestOutcomeUnknownIsReconciled(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	e.srv.SetFaults(sandbox.Faults{DropCreateResponses: 1})
	f := writeFile(t, "owners.csv", ownersCSV)
	_, err := Submit(ctx, e.api, e.led, traceReq(f))
	var ue *UnknownError
	if !errors.Is(err, client.ErrOutcomeUnknown) || !errors.As(err, &ue) {
		t.Fatalf("dropped response: %v", err)
	}
	sub, _ := e.led.Submissions().Submission(ctx, ue.SubmissionID)
	if sub.State != ledger.StateUnknown {
		t.Fatalf("state %s", sub.State)
	}
	wantServerJobs(t, e.api, 1, "(the client must not resend)")
	// Unknown counts as a possible duplicate.
	if _, err := Submit(ctx, e.api, e.led, traceReq(f)); !errors.Is(err, ErrDuplicate) {
		t.Fatalf("resubmitting an unknown submission: %v", err)
	}

	out, err := Reconcile(ctx, e.api, e.led, nil)
	if err != nil {
		t.Fatal(err)
	}
	tl, _ := e.api.Traces.List(ctx, &client.TraceListOptions{Type: client.TypeBulk})
	if len(out) != 1 || out[0].State != ledger.StateCreated || out[0].JobID != tl.Traces[0].ID {
		t.Fatalf("outcomes %+v", out)
	}
	sub, _ = e.led.Submissions().Submission(ctx, ue.SubmissionID)
	if sub.State != ledger.StateCreated || sub.JobID != tl.Traces[0].ID || sub.ReconciledAt.IsZero() {
		t.Fatalf("after reconcile: %+v", sub)
	}
	if sp, _ := e.led.Jobs().JobSpend(ctx, sub.JobID); sp.Charged != 2 {
		t.Fatalf("spend of the adopted job: %+v", sp)
	}
	if out, _ := Reconcile(ctx, e.api, e.led, nil); len(out) != 0 {
		t.Fatalf("second reconcile: %+v", out)
	}
}

func TestReconcileStates(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	now := time.Now()
	add := func(name, tag string, rows int, state ledger.State, created time.Time) int64 {
		id, err := e.led.Submissions().RecordIntent(ctx, &ledger.Submission{Kind: jobs.KindTrace, FileName: TagName(name, tag), Tag: tag,
			FileHash: name + tag, Rows: rows, Mode: "normal", CreatedAt: created})
		if err != nil {
			t.Fatal(err)
		}
		if state != ledger.StateIntent {
			e.led.Submissions().MarkSent(ctx, id)
		}
		if state == ledger.StateUnknown {
			e.led.Submissions().MarkUnknown(ctx, id, "test")
		}
		return id
	}
	// Two jobs on the server: owners.csv of 3 rows sent with the tag
	// sd-aaaaa, and other.csv of 3 rows sent without a tag (another
	// program, or another computer's older SkipDesk).
	for _, n := range []string{"owners [sd-aaaaa].csv", "other.csv"} {
		f := writeFile(t, "x.csv", ownersCSV)
		if _, err := e.api.Traces.Create(ctx, &client.TraceUpload{Path: f.Path, FileName: n, ColumnMapping: ownersMapping}); err != nil {
			t.Fatal(err)
		}
	}
	intent := add("owners.csv", "sd-22222", 3, ledger.StateIntent, now)
	adopt := add("owners.csv", "sd-aaaaa", 3, ledger.StateSent, now.Add(-time.Second))
	otherTag := add("owners.csv", "sd-bbbbb", 3, ledger.StateUnknown, now) // the job carries another tag
	wrongRows := add("other.csv", "sd-ccccc", 4, ledger.StateSent, now)
	alike := add("other.csv", "sd-ddddd", 3, ledger.StateUnknown, now)                  // an untagged job of its name and rows
	old := add("owners.csv", "sd-eeeee", 3, ledger.StateUnknown, now.Add(-2*time.Hour)) // window long past

	got := e.reconcileByID(t, ctx)
	want := map[int64]ledger.State{intent: ledger.StateNotCreated, adopt: ledger.StateCreated, otherTag: ledger.StateUnknown,
		wrongRows: ledger.StateUnknown, alike: ledger.StateUnknown, old: ledger.StateNotCreated}
	for id, w := range want {
		s, _ := e.led.Submissions().Submission(ctx, id)
		if got[id].State != w || s.State != w {
			t.Errorf("submission %d (%s, %d rows): outcome %s, ledger %s; want %s", id, s.FileName, s.Rows, got[id].State, s.State, w)
		}
	}
	if o := got[alike]; len(o.LookAlikes) != 1 || o.LookAlikes[0].Name != "other.csv" || !strings.Contains(o.Reason, "looks like this submission") {
		t.Errorf("the look-alike is not shown: %+v", o)
	}
	// Once the window has passed, what is still unknown is not created,
	// except a submission with a look-alike: that stays unknown until the
	// person says.
	later := func() time.Time { return now.Add(WindowAfter + time.Minute) }
	if _, err := Reconcile(ctx, e.api, e.led, &ReconcileOptions{Now: later}); err != nil {
		t.Fatal(err)
	}
	for id, w := range map[int64]ledger.State{otherTag: ledger.StateNotCreated, wrongRows: ledger.StateNotCreated, alike: ledger.StateUnknown} {
		if s, _ := e.led.Submissions().Submission(ctx, id); s.State != w {
			t.Errorf("submission %d after the window: %s, want %s", id, s.State, w)
		}
	}
	wantServerJobs(t, e.api, 2, "(reconcile created jobs)")
}

func TestSubmitDNC(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	f := writeFile(t, "phones.csv", "Phone\r\n(512) 555-0101\r\n512-555-0102\r\nbad\r\n")
	req := Request{Kind: jobs.KindDNC, File: f, Mapping: map[string]string{"phone": "Phone"}}
	res, err := Submit(ctx, e.api, e.led, req)
	if err != nil {
		t.Fatal(err)
	}
	if res.DNC == nil || res.Charged != 3 {
		t.Fatalf("result %+v", res)
	}
	j, err := e.led.Jobs().Job(ctx, res.JobID)
	if base, tag := Untag(j.Name); err != nil || j.Kind != jobs.KindDNC || base != "phones.csv" || tag != res.Submission.Tag || j.TotalRows != 3 {
		t.Fatalf("job %+v, %v", j, err)
	}
	if _, err := Submit(ctx, e.api, e.led, req); !errors.Is(err, ErrDuplicate) {
		t.Fatalf("duplicate DNC: %v", err)
	}
	// A DNC whose response was lost is adopted from GET /dnc.
	e.srv.SetFaults(sandbox.Faults{DropCreateResponses: 1})
	req.Again = true
	if _, err := Submit(ctx, e.api, e.led, req); !errors.Is(err, client.ErrOutcomeUnknown) {
		t.Fatalf("dropped response: %v", err)
	}
	out, err := Reconcile(ctx, e.api, e.led, nil)
	if err != nil || len(out) != 1 || out[0].State != ledger.StateCreated || out[0].JobID == res.JobID {
		t.Fatalf("reconcile: %+v, %v", out, err)
	}
}

func TestBadRequests(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	f := writeFile(t, "owners.csv", ownersCSV)
	for name, req := range map[string]Request{
		"kind":    {Kind: "fax", File: f},
		"mapping": {Kind: jobs.KindTrace, File: f},
		"phone":   {Kind: jobs.KindDNC, File: f, Mapping: map[string]string{"x": "y"}},
		"file":    {Kind: jobs.KindTrace, Mapping: ownersMapping},
		"hash":    {Kind: jobs.KindTrace, Mapping: ownersMapping, File: File{Path: f.Path}},
	} {
		if _, err := Submit(context.Background(), e.api, e.led, req); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if subs, _ := e.led.Submissions().List(context.Background()); len(subs) != 0 {
		t.Fatalf("invalid requests left submissions: %+v", subs)
	}
}

func TestSingleIsRecordedAndReconciled(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	req := client.SingleTraceRequest{FirstName: "Ann", LastName: "Lee", Address: "1 Main St", City: "Austin", State: "TX", Zip: "78701"}
	var steps []Step
	res, err := Single(ctx, e.api, e.led, SingleRequest{Trace: req, OnStep: func(s Step, _ *ledger.Submission) { steps = append(steps, s) }})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(stepNames(steps), ",") != "intent,sent,posted,created" {
		t.Fatalf("steps %v", steps)
	}
	j, err := e.led.Jobs().Job(ctx, res.JobID)
	if err != nil || j.Kind != jobs.KindSingle || j.Status != jobs.StatusCompleted || j.Name != "Single: Ann Lee" {
		t.Fatalf("job %+v, %v", j, err)
	}
	sp, _ := e.led.Jobs().JobSpend(ctx, res.JobID)
	if sp.Charged != res.Result.Credits || sp.Refunded != res.Result.CreditsRefunded || sp.Charged != 1 {
		t.Fatalf("spend %+v for %+v", sp, res.Result)
	}
	if inflight, _ := e.led.Jobs().InFlight(ctx); len(inflight) != 0 {
		t.Fatal("a single trace is in flight")
	}

	// A lookup whose answer was lost is found in GET /traces?type=single.
	lost := client.SingleTraceRequest{FirstName: "Bob", LastName: "Ray", Address: "2 Oak Ave", City: "Austin", State: "TX", Zip: "78702"}
	body, _ := json.Marshal(lost)
	id, err := e.led.Submissions().RecordIntent(ctx, &ledger.Submission{Kind: jobs.KindSingle, FileName: SingleName(&lost), FileHash: "x", Rows: 1, Options: body})
	if err != nil {
		t.Fatal(err)
	}
	e.led.Submissions().MarkSent(ctx, id)
	if _, err := e.api.Traces.Single(ctx, &lost); err != nil {
		t.Fatal(err)
	}
	out, err := Reconcile(ctx, e.api, e.led, nil)
	if err != nil || len(out) != 1 || out[0].State != ledger.StateCreated || out[0].JobID == res.JobID {
		t.Fatalf("reconcile: %+v, %v", out, err)
	}
	adopted, _ := e.led.Jobs().Job(ctx, out[0].JobID)
	if adopted.Kind != jobs.KindSingle || !strings.EqualFold(adopted.Name, "Single: Bob Ray") {
		t.Fatalf("adopted %+v", adopted)
	}
	if sp, _ := e.led.Jobs().JobSpend(ctx, adopted.ID); sp.Charged != 1 {
		t.Fatalf("adopted spend %+v", sp)
	}
}

func TestNameKey(t *testing.T) {
	t.Parallel()
	for _, c := range [][2]string{
		{"owners.csv", "Owners.CSV"},
		{"my list (1).csv", "my_list_1.csv"},
		{"Single: Ann Lee", "SINGLE:  ANN   LEE"},
	} {
		if nameKey(c[0]) != nameKey(c[1]) {
			t.Errorf("%q and %q should name the same job", c[0], c[1])
		}
	}
	if nameKey("owners.csv") == nameKey("owners2.csv") {
		t.Error("different names compare equal")
	}
}

// When the page cap stops the walk before the window, absence proves
// nothing: the submission stays unknown.
func TestReconcileIncompleteWalkStaysUnknown(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	old := maxReconcilePages
	maxReconcilePages = 1
	defer func() { maxReconcilePages = old }()
	f := writeFile(t, "filler.csv", ownersCSV)
	for range 101 {
		if _, err := e.api.Traces.Create(ctx, &client.TraceUpload{Path: f.Path, ColumnMapping: ownersMapping}); err != nil {
			t.Fatal(err)
		}
	}
	created := time.Now().Add(-time.Hour) // window long past
	id, _ := e.led.Submissions().RecordIntent(ctx, &ledger.Submission{Kind: jobs.KindTrace, FileName: "lost.csv", FileHash: "h", Rows: 3, CreatedAt: created})
	e.led.Submissions().MarkSent(ctx, id)
	e.led.Submissions().MarkUnknown(ctx, id, "test")
	// The list walk ends at page 1, whose oldest job is newer than the window.
	if _, err := Reconcile(ctx, e.api, e.led, nil); err != nil {
		t.Fatal(err)
	}
	if s, _ := e.led.Submissions().Submission(ctx, id); s.State != ledger.StateUnknown {
		t.Fatalf("state %s after an incomplete walk", s.State)
	}
	maxReconcilePages = 5
	if _, err := Reconcile(ctx, e.api, e.led, nil); err != nil {
		t.Fatal(err)
	}
	if s, _ := e.led.Submissions().Submission(ctx, id); s.State != ledger.StateNotCreated {
		t.Fatalf("state %s after a complete walk", s.State)
	}
}

// Of several jobs that fit an unknown submission, the one created when it
// was sent is its job: the same file submitted a minute earlier from
// another computer with the same key is not adopted in its place.
func TestReconcilePicksTheJobClosestToSending(t *testing.T) {
	t.Parallel()
	e, f := newOwnersEnv(t)
	ctx := context.Background()
	// Another computer sent the same file 70 s ago.
	past := time.Now().Add(-70 * time.Second)
	e.srv.SetClock(func() time.Time { return past })
	other, err := e.api.Traces.Create(ctx, &client.TraceUpload{Path: f.Path, ColumnMapping: ownersMapping})
	if err != nil {
		t.Fatal(err)
	}
	e.srv.SetClock(nil)
	// This one's answer is lost.
	mine := submitLost(t, e, f)

	out, err := Reconcile(ctx, e.api, e.led, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 1 || out[0].State != ledger.StateCreated || out[0].JobID != mine {
		t.Fatalf("outcomes %+v; want job %s adopted (not %s, sent earlier elsewhere)", out, mine, other.ID)
	}
	if !strings.Contains(out[0].Reason, "tag") || len(out[0].LookAlikes) != 0 {
		t.Errorf("reason %q, look-alikes %v", out[0].Reason, out[0].LookAlikes)
	}
	wantServerJobs(t, e.api, 2, "(reconcile created jobs)")
}

// Two unknown submissions of the same file and one job: the submission
// sent closer to the job's creation gets it, whatever their order; the
// other stays unknown while its window is open, then is not created.
func TestReconcileTwoUnknownOneJob(t *testing.T) {
	t.Parallel()
	e, f := newOwnersEnv(t)
	ctx := context.Background()
	// The older one, 90 s ago, never reached the server (no send time
	// recorded: the window is counted from when it was recorded).
	older, err := e.led.Submissions().RecordIntent(ctx, &ledger.Submission{Kind: jobs.KindTrace, FileName: "owners.csv", FileHash: f.SHA256,
		Rows: 3, Mode: "normal", Mapping: ownersMapping, CreatedAt: time.Now().Add(-90 * time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.led.Submissions().MarkUnknown(ctx, older, "test"); err != nil {
		t.Fatal(err)
	}
	mine := submitLost(t, e, f)
	sub, _ := e.led.Submissions().SubmissionForJob(ctx, mine)
	if sub != nil {
		t.Fatal("the lost job is already recorded")
	}

	got := e.reconcileByID(t, ctx)
	if o := got[older]; o.State != ledger.StateUnknown || !strings.Contains(o.Reason, "may still appear") {
		t.Fatalf("the older submission: %+v", o)
	}
	adopted, err := e.led.Submissions().SubmissionForJob(ctx, mine)
	if err != nil || adopted.ID == older {
		t.Fatalf("job %s went to %+v, %v", mine, adopted, err)
	}
	later := func() time.Time { return time.Now().Add(WindowAfter + time.Minute) }
	if _, err := Reconcile(ctx, e.api, e.led, &ReconcileOptions{Now: later}); err != nil {
		t.Fatal(err)
	}
	if s, _ := e.led.Submissions().Submission(ctx, older); s.State != ledger.StateNotCreated {
		t.Fatalf("the older submission after its window: %s", s.State)
	}
	wantServerJobs(t, e.api, 1, "")
}

// submitLost submits f with the answer lost on the way back and returns
// the id of the job the server created.
func submitLost(t *testing.T, e *env, f File) string {
	t.Helper()
	ctx := context.Background()
	before, err := e.api.Traces.List(ctx, &client.TraceListOptions{Limit: 100, Type: client.TypeBulk})
	if err != nil {
		t.Fatal(err)
	}
	e.srv.SetFaults(sandbox.Faults{DropCreateResponses: 1})
	req := traceReq(f)
	req.Again = true
	if _, err := Submit(ctx, e.api, e.led, req); !errors.Is(err, client.ErrOutcomeUnknown) {
		t.Fatalf("dropped response: %v", err)
	}
	after, err := e.api.Traces.List(ctx, &client.TraceListOptions{Limit: 100, Type: client.TypeBulk})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, tr := range before.Traces {
		seen[tr.ID] = true
	}
	for _, tr := range after.Traces {
		if !seen[tr.ID] {
			return tr.ID
		}
	}
	t.Fatal("the lost submission created no job")
	return ""
}

// A submission being sent by this process is left alone by a Reconcile
// running meanwhile (the window's Reconcile, the tracker's at start), from
// the moment its intent is recorded; a submission of the same number in
// another ledger is not mistaken for it.
func TestReconcileLeavesSubmissionsBeingSent(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	other := openLedger(t, t.TempDir())
	oid, err := other.Submissions().RecordIntent(ctx, &ledger.Submission{Kind: jobs.KindTrace, FileName: "other.csv", FileHash: "h", Rows: 1})
	if err != nil {
		t.Fatal(err)
	}
	req := traceReq(writeFile(t, "owners.csv", ownersCSV))
	var during []Outcome
	req.OnStep = func(s Step, sub *ledger.Submission) {
		if s != StepIntent && s != StepSent {
			return
		}
		if sub.ID != oid {
			t.Fatalf("submission %d, want the same number as the other ledger's (%d)", sub.ID, oid)
		}
		outs, err := Reconcile(ctx, e.api, e.led, nil)
		if err != nil {
			t.Fatal(err)
		}
		during = append(during, outs...)
		if s == StepIntent {
			if outs, err := Reconcile(ctx, e.api, other, nil); err != nil || len(outs) != 1 || outs[0].State != ledger.StateNotCreated {
				t.Fatalf("the other ledger's intent: %+v, %v", outs, err)
			}
		}
	}
	res, err := Submit(ctx, e.api, e.led, req)
	if err != nil {
		t.Fatal(err)
	}
	if len(during) != 0 {
		t.Fatalf("Reconcile touched a submission being sent: %+v", during)
	}
	if s, _ := e.led.Submissions().Submission(ctx, res.Submission.ID); s.State != ledger.StateCreated || s.JobID != res.JobID {
		t.Fatalf("submission after: %+v", s)
	}
}

// A laptop whose clock is a quarter of an hour off still finds the job its
// interrupted submission created: the window is read on the server's clock.
func TestReconcileReadsTheServersClock(t *testing.T) {
	t.Parallel()
	for _, skew := range []time.Duration{-20 * time.Minute, 20 * time.Minute} {
		t.Run(skew.String(), func(t *testing.T) {
			serverNow := func() time.Time { return time.Now().Add(skew) }
			cfg := sandbox.DefaultConfig()
			cfg.Processing = sandbox.Processing{MinSeconds: 0.2, RowsPerSecond: 100000}
			cfg.Now = serverNow
			srv, err := sandbox.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { srv.Close() })
			ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Date", serverNow().UTC().Format(http.TimeFormat))
				srv.Handler().ServeHTTP(w, r)
			}))
			t.Cleanup(ts.Close)
			api, err := client.New(ts.URL+"/v1", sandbox.DemoKey)
			if err != nil {
				t.Fatal(err)
			}
			led := openLedger(t, t.TempDir())
			ctx := context.Background()

			srv.SetFaults(sandbox.Faults{DropCreateResponses: 1})
			f := writeFile(t, "owners.csv", ownersCSV)
			if _, err := Submit(ctx, api, led, traceReq(f)); !errors.Is(err, client.ErrOutcomeUnknown) {
				t.Fatalf("dropped response: %v", err)
			}
			// Reconciled later, when this computer's window has passed.
			late := &ReconcileOptions{Now: func() time.Time { return time.Now().Add(WindowAfter + time.Minute) }}
			out, err := Reconcile(ctx, api, led, late)
			if err != nil {
				t.Fatal(err)
			}
			if len(out) != 1 || out[0].State != ledger.StateCreated || out[0].JobID == "" {
				t.Fatalf("server clock %v from ours: outcomes %+v", skew, out)
			}
			if off, ok := api.ServerClockOffset(); !ok || (off-skew).Abs() > 2*time.Second {
				t.Fatalf("measured offset %v, want %v", off, skew)
			}
		})
	}
}

// A job without a tag is alike a submission by its name, its time, its
// rows and, for a trace, its mode and include_llcs; each differing alone
// makes it another's.
func TestCandidateAlike(t *testing.T) {
	at := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	from, to := at.Add(-time.Minute), at.Add(time.Minute)
	trace := &ledger.Submission{Kind: jobs.KindTrace, FileName: "owners.csv", Rows: 3, Mode: jobs.ModeNormal}
	base := candidate{name: "Owners.csv", rows: 3, mode: jobs.ModeNormal, created: at}
	for _, c := range []struct {
		name string
		edit func(*candidate, *ledger.Submission)
		want bool
	}{
		{"the same", func(*candidate, *ledger.Submission) {}, true},
		{"another tag", func(c *candidate, _ *ledger.Submission) { c.name = "owners [sd-7f3k2].csv" }, false},
		{"another name", func(c *candidate, _ *ledger.Submission) { c.name = "tenants.csv" }, false},
		{"before", func(c *candidate, _ *ledger.Submission) { c.created = from.Add(-time.Second) }, false},
		{"after", func(c *candidate, _ *ledger.Submission) { c.created = to.Add(time.Second) }, false},
		{"other rows", func(c *candidate, _ *ledger.Submission) { c.rows = 4 }, false},
		{"rows not recorded", func(c *candidate, s *ledger.Submission) { c.rows, s.Rows = 4, 0 }, true},
		{"another mode", func(c *candidate, _ *ledger.Submission) { c.mode = jobs.ModeEnhanced }, false},
		{"mode not said", func(c *candidate, _ *ledger.Submission) { c.mode = "" }, true},
		{"LLCs included", func(c *candidate, _ *ledger.Submission) { c.includeLLCs = true }, false},
		{"a scrub ignores mode and LLCs", func(c *candidate, s *ledger.Submission) {
			s.Kind, c.mode, c.includeLLCs = jobs.KindDNC, jobs.ModeEnhanced, true
		}, true},
	} {
		cand, sub := base, *trace
		c.edit(&cand, &sub)
		if got := cand.alike(&sub, nameKey("owners.csv"), from, to); got != c.want {
			t.Errorf("%s: alike %v, want %v", c.name, got, c.want)
		}
	}
}
