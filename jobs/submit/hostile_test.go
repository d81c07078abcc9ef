package submit

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/client/hostile"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/ledger"
)

// Submission against the hostile fake of client/hostile: a provider whose
// answers a test scripts.

func hostileEnv(t *testing.T) (*hostile.Server, *client.Client, *ledger.Ledger) {
	t.Helper()
	s := hostile.New(t)
	api, err := client.New(s.URL, s.Key, client.WithRetryPolicy(client.RetryPolicy{MaxRetries: 2, BaseDelay: time.Millisecond,
		MaxDelay: time.Millisecond, Budget: 10 * time.Second}))
	if err != nil {
		t.Fatal(err)
	}
	return s, api, openLedger(t, t.TempDir())
}

// Item 1. A redirect, a 408, a 409 or a 5xx answering POST /traces or POST
// /dnc after the job was created is "unknown — may be charged", never
// "failed": the duplicate guard then stops the same file being paid for
// again, and Reconcile finds the job (by its tag) instead.
func TestHostileAnswerAfterCreateIsUnknown(t *testing.T) {
	answers := map[string]http.HandlerFunc{
		"302 redirect": hostile.Redirect("/v1/traces", http.StatusFound),
		"303 redirect": hostile.Redirect("/v1/traces", http.StatusSeeOther),
		"307 redirect": hostile.Redirect("/v1/elsewhere", http.StatusTemporaryRedirect),
		"408":          hostile.Reply(408, nil, `{"error":"request timeout"}`),
		"409":          hostile.Reply(409, nil, `{"error":"conflict"}`),
		"502":          hostile.Reply(502, map[string]string{"Content-Type": "text/html"}, "<html><title>Bad Gateway</title></html>"),
		"201 no id":    hostile.Reply(201, nil, `{"success":true,"status":"processing"}`),
	}
	kinds := map[jobs.Kind]string{jobs.KindTrace: hostile.TraceCreate, jobs.KindDNC: hostile.DNCCreate}
	for kind, route := range kinds {
		for name, answer := range answers {
			t.Run(string(kind)+"/"+name, func(t *testing.T) {
				s, api, led := hostileEnv(t)
				ctx := context.Background()
				req := traceReq(writeFile(t, "owners.csv", ownersCSV))
				if kind == jobs.KindDNC {
					req = Request{Kind: jobs.KindDNC, File: writeFile(t, "phones.csv", "Phone\r\n5125550101\r\n5125550102\r\n"),
						Mapping: map[string]string{"phone": "Phone"}}
				}
				s.Next(route, s.AfterCreating(answer))
				_, err := Submit(ctx, api, led, req)
				var ue *UnknownError
				if !errors.As(err, &ue) {
					t.Fatalf("the job exists and was charged, but Submit said %v", err)
				}
				if sub, _ := led.Submissions().Submission(ctx, ue.SubmissionID); sub.State != ledger.StateUnknown {
					t.Fatalf("recorded as %s, want unknown", sub.State)
				}
				// The same file again: the guard treats unknown as charged.
				if _, err := Submit(ctx, api, led, req); !errors.Is(err, ErrDuplicate) {
					t.Fatalf("the same file again: %v, want ErrDuplicate", err)
				}
				var de *DuplicateError
				if errors.As(err, &de) && !de.MaybeCharged {
					t.Error("the duplicate does not say the earlier one may be charged")
				}
				if s.Created() != 1 {
					t.Fatalf("%d jobs created, want 1", s.Created())
				}
				out, err := Reconcile(ctx, api, led, nil)
				if err != nil || len(out) != 1 || out[0].State != ledger.StateCreated || out[0].JobID != s.Jobs()[0].ID {
					t.Fatalf("reconcile: %+v, %v", out, err)
				}
			})
		}
	}
}

// Item 2. Reconcile never adopts another computer's job: an upload of the
// same file name and row count, made with the same key in the same minutes,
// carries no tag of ours. It is shown as a look-alike, the submission stays
// unknown (even after its window), and only the person's word (Adopt)
// settles it. Our own job, when it exists, is found by its tag whatever
// else looks like it.
func TestHostileReconcileNeverAdoptsAStranger(t *testing.T) {
	s, api, led := hostileEnv(t)
	ctx := context.Background()
	f := writeFile(t, "owners.csv", ownersCSV)
	// Another computer's upload of owners.csv, 3 rows (other rows).
	stranger := s.Add(&hostile.Job{Name: "owners.csv", TotalRows: 3, Charged: 3})
	// Ours never reaches the server, but the connection breaks after
	// sending: unknown.
	s.Next(hostile.TraceCreate, hostile.Drop)
	if _, err := Submit(ctx, api, led, traceReq(f)); !errors.Is(err, client.ErrOutcomeUnknown) {
		t.Fatalf("dropped: %v", err)
	}
	out, err := Reconcile(ctx, api, led, nil)
	if err != nil || len(out) != 1 {
		t.Fatalf("%+v, %v", out, err)
	}
	o := out[0]
	if o.State != ledger.StateUnknown || o.JobID != "" {
		t.Fatalf("the stranger's job was adopted: %+v", o)
	}
	if len(o.LookAlikes) != 1 || o.LookAlikes[0].JobID != stranger.ID || !strings.Contains(o.Reason, "looks like this submission") ||
		!strings.Contains(o.Reason, stranger.ID) {
		t.Fatalf("the look-alike is not reported: %+v", o)
	}
	// Long after the window: still unknown, never "not created" while a
	// job like it exists.
	later := &ReconcileOptions{Now: func() time.Time { return time.Now().Add(2 * WindowAfter) }}
	if out, _ := Reconcile(ctx, api, led, later); len(out) != 1 || out[0].State != ledger.StateUnknown {
		t.Fatalf("after the window: %+v", out)
	}
	if held, _ := led.Submissions().JobAdopted(ctx, stranger.ID); held {
		t.Fatal("the stranger's job is in the ledger")
	}
	// The person recognises it: Adopt takes it.
	if err := Adopt(ctx, api, led, o.Submission.ID, stranger.ID); err != nil {
		t.Fatal(err)
	}
	if sub, _ := led.Submissions().Submission(ctx, o.Submission.ID); sub.State != ledger.StateCreated || sub.JobID != stranger.ID {
		t.Fatalf("after Adopt: %+v", sub)
	}

	// Both exist: ours (its answer lost) and a stranger's. Ours is found by
	// its tag, the stranger's left alone.
	s2, api2, led2 := hostileEnv(t)
	stranger2 := s2.Add(&hostile.Job{Name: "owners.csv", TotalRows: 3})
	s2.Next(hostile.TraceCreate, s2.AfterCreating(hostile.Drop))
	req := traceReq(f)
	if _, err := Submit(ctx, api2, led2, req); !errors.Is(err, client.ErrOutcomeUnknown) {
		t.Fatalf("dropped: %v", err)
	}
	// The stranger's job is newer than ours and closer to when ours was sent.
	s2.Update(stranger2.ID, func(j *hostile.Job) { j.CreatedAt = time.Now() })
	out, err = Reconcile(ctx, api2, led2, nil)
	ours := s2.Jobs()[1]
	if err != nil || len(out) != 1 || out[0].State != ledger.StateCreated || out[0].JobID != ours.ID {
		t.Fatalf("want our job %s (%q) adopted, not %s: %+v, %v", ours.ID, ours.Name, stranger2.ID, out, err)
	}
	if base, tag := Untag(ours.Name); base != "owners.csv" || tag == "" {
		t.Fatalf("the name sent %q is not the person's name with a tag", ours.Name)
	}
}

// Item 6. A single lookup is charged: its answers are classified as any
// charged POST's (a redirect or a 409 after the charge is unknown, not
// failed), and Reconcile settles an unknown single by the lookup whose
// result repeats the address sent, never by a stranger's lookup of the same
// name.
func TestHostileSingleClassifiedAndSettled(t *testing.T) {
	req := client.SingleTraceRequest{FirstName: "Ann", LastName: "Lee", Address: "1 Main St", City: "Austin", State: "TX", Zip: "78701"}
	for name, answer := range map[string]http.HandlerFunc{
		"302 redirect": hostile.Redirect("/v1/traces", http.StatusFound),
		"409":          hostile.Reply(409, nil, `{"error":"conflict"}`),
		"504":          hostile.Reply(504, nil, ""),
	} {
		t.Run(name, func(t *testing.T) {
			s, api, led := hostileEnv(t)
			ctx := context.Background()
			// Someone else looked up the same name at another address.
			s.Add(&hostile.Job{Kind: "single", Name: "Single: Ann Lee", TotalRows: 1, Status: "completed",
				Result: hostile.SingleResult("Ann", "Lee", "9 Elm St", "Dallas", "TX", "75201")})
			s.Next(hostile.TraceSingle, s.AfterCreating(answer))
			_, err := Single(ctx, api, led, SingleRequest{Trace: req})
			var ue *UnknownError
			if !errors.As(err, &ue) {
				t.Fatalf("charged, but Single said %v", err)
			}
			out, err := Reconcile(ctx, api, led, nil)
			ours := s.Jobs()[1]
			if err != nil || len(out) != 1 || out[0].State != ledger.StateCreated || out[0].JobID != ours.ID {
				t.Fatalf("want lookup %s adopted: %+v, %v", ours.ID, out, err)
			}
			if sp, _ := led.Jobs().JobSpend(ctx, ours.ID); sp.Charged != 1 {
				t.Fatalf("spend %+v", sp)
			}
		})
	}
	// Only the stranger's lookup exists: a look-alike, not adopted.
	s, api, led := hostileEnv(t)
	ctx := context.Background()
	other := s.Add(&hostile.Job{Kind: "single", Name: "Single: Ann Lee", TotalRows: 1, Status: "completed",
		Result: hostile.SingleResult("Ann", "Lee", "9 Elm St", "Dallas", "TX", "75201")})
	s.Next(hostile.TraceSingle, hostile.Drop)
	if _, err := Single(ctx, api, led, SingleRequest{Trace: req}); !errors.Is(err, client.ErrOutcomeUnknown) {
		t.Fatalf("dropped: %v", err)
	}
	out, err := Reconcile(ctx, api, led, nil)
	if err != nil || len(out) != 1 || out[0].State != ledger.StateUnknown || len(out[0].LookAlikes) != 1 || out[0].LookAlikes[0].JobID != other.ID {
		t.Fatalf("a stranger's lookup: %+v, %v", out, err)
	}
}

// Item 10. The duplicate guard matches the content of the file the person
// picked (another preparation of it has other bytes), says what became of
// the earlier submission, and lets a file whose job failed and was refunded
// in full be sent again.
func TestHostileDuplicateByContent(t *testing.T) {
	s, api, led := hostileEnv(t)
	ctx := context.Background()
	first := writeFile(t, "owners.csv", ownersCSV)
	first.SourceSHA256 = "picked-owners"
	res, err := Submit(ctx, api, led, traceReq(first))
	if err != nil {
		t.Fatal(err)
	}
	// The same picked file, prepared into other bytes (a header line
	// chosen, a workbook read): still the same content.
	again := writeFile(t, "owners.csv", ownersCSV+"\r\n")
	again.SourceSHA256 = "picked-owners"
	_, err = Submit(ctx, api, led, traceReq(again))
	var de *DuplicateError
	if !errors.As(err, &de) || de.Earlier.ID != res.Submission.ID || de.Job == nil || de.Job.ID != res.JobID ||
		de.Spend.Charged != 3 || de.MaybeCharged {
		t.Fatalf("same picked file: %v (%+v)", err, de)
	}
	if !strings.Contains(err.Error(), "owners.csv") || strings.Contains(err.Error(), "[sd-") || !strings.Contains(err.Error(), "charged 3") {
		t.Errorf("message %q", err)
	}
	// A different file is not a duplicate.
	other := writeFile(t, "owners.csv", strings.Replace(ownersCSV, "Ann", "Amy", 1))
	other.SourceSHA256 = "picked-other"
	if _, err := Submit(ctx, api, led, traceReq(other)); err != nil {
		t.Fatalf("a different file: %v", err)
	}
	// The first job failed and was refunded in full: sending the file
	// again is not paying twice.
	led.Jobs().RecordJobState(ctx, ledger.Job{ID: res.JobID, Kind: jobs.KindTrace, Status: jobs.StatusFailed}, ledger.Spend{Charged: 3, Refunded: 3})
	if _, err := Submit(ctx, api, led, traceReq(again)); err != nil {
		t.Fatalf("after a failed, refunded job: %v", err)
	}
	if s.Created() != 3 {
		t.Fatalf("%d jobs", s.Created())
	}
}

func TestTagName(t *testing.T) {
	for _, tc := range []struct{ name, tag, want string }{
		{"owners.csv", "sd-7f3k2", "owners [sd-7f3k2].csv"},
		{"my list (1).CSV", "sd-abcde", "my list (1) [sd-abcde].CSV"},
		{"no extension", "sd-abcde", "no extension [sd-abcde]"},
		{"owners [sd-22222].csv", "sd-33333", "owners [sd-33333].csv"},
		{".csv", "sd-abcde", "upload [sd-abcde].csv"},
	} {
		got := TagName(tc.name, tc.tag)
		if got != tc.want {
			t.Errorf("TagName(%q) = %q, want %q", tc.name, got, tc.want)
		}
		if base, tag := Untag(got); tag != tc.tag || (base != tc.name && !strings.Contains(tc.name, "[sd-") && tc.name != ".csv") {
			t.Errorf("Untag(%q) = %q, %q", got, base, tag)
		}
	}
	tag := NewTag()
	if len(tag) != 8 || !strings.HasPrefix(tag, "sd-") || NewTag() == tag {
		t.Errorf("NewTag() = %q", tag)
	}
	// A server that tidies names still shows the tag.
	for _, tidied := range []string{"owners_SD_7F3K2.csv", "owners sd-7f3k2 .csv", "OWNERS[SD-7F3K2].CSV"} {
		if !carriesTag(tidied, "sd-7f3k2") {
			t.Errorf("%q does not carry sd-7f3k2", tidied)
		}
	}
	if carriesTag("owners.csv", "sd-7f3k2") || carriesTag("owners [sd-7f3k3].csv", "sd-7f3k2") {
		t.Error("a name without the tag carries it")
	}
}

// Item 3. A job in the lists that the client cannot read may be the one an
// unknown submission made: absence proves nothing while one is unreadable,
// so the submission stays unknown past its window instead of becoming "not
// created" (which would let the file be paid for again).
func TestHostileUnreadableListItemKeepsUnknown(t *testing.T) {
	s, api, led := hostileEnv(t)
	ctx := context.Background()
	bad := s.Add(&hostile.Job{})
	bad.Raw = `{"id":"` + bad.ID + `","name":"owners.csv","status":"processing","created_at":"not a date"}`
	s.Next(hostile.TraceCreate, hostile.Drop)
	if _, err := Submit(ctx, api, led, traceReq(writeFile(t, "owners.csv", ownersCSV))); !errors.Is(err, client.ErrOutcomeUnknown) {
		t.Fatalf("dropped: %v", err)
	}
	later := &ReconcileOptions{Now: func() time.Time { return time.Now().Add(2 * WindowAfter) }}
	out, err := Reconcile(ctx, api, led, later)
	if err != nil || len(out) != 1 || out[0].State != ledger.StateUnknown || !strings.Contains(out[0].Reason, "could not be read") {
		t.Fatalf("%+v, %v", out, err)
	}
	// Once the list reads, absence is proof again.
	s.Update(bad.ID, func(j *hostile.Job) { j.Raw = "" })
	if out, err := Reconcile(ctx, api, led, later); err != nil || len(out) != 1 || out[0].State != ledger.StateNotCreated {
		t.Fatalf("%+v, %v", out, err)
	}
}
