package workflow

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/estimate"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/mapping"
)

// earlyList writes an owner list of n rows, past the inspection's first
// rows: ZIP codes Excel shortened among the first rows and after them, a
// blank street and repeated rows after them, a company row.
func earlyList(t *testing.T, n int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("First,Last,Street,City,State,Zip\n")
	var line string
	for i := 0; i < n; i++ {
		if i%250 == 249 {
			b.WriteString(line) // the row before, again
			continue
		}
		street, zip := fmt.Sprintf("%d Elm St", i%700), fmt.Sprintf("%05d", 10000+i%80000)
		if i%37 == 0 {
			zip = fmt.Sprint(1000 + i%8000) // shortened
		}
		if i == n-2 {
			street = "" // left out
		}
		first := fmt.Sprintf("Ann%d", i%900)
		if i == n/2 {
			first = "Acme Holdings LLC"
		}
		line = fmt.Sprintf("%s,Lee,%s,Hoboken,NJ,%s\n", first, street, zip)
		b.WriteString(line)
	}
	p := filepath.Join(t.TempDir(), "owners.csv")
	if err := os.WriteFile(p, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

var earlyMapping = mapping.Mapping{mapping.FirstName: "First", mapping.LastName: "Last", mapping.PropertyStreet: "Street",
	mapping.PropertyCity: "City", mapping.PropertyState: "State", mapping.PropertyZip: "Zip"}

// submittedOnce reads path to submit it with plan and submits it: with
// early, the upload starts as the list is read (ReadToSubmit); without,
// after (Read, then Submit). It returns what was submitted, the ledger's
// submission and the job the service created.
func submittedOnce(t *testing.T, plan Plan, path string, early bool) (*Submitted, *Submission, *client.Trace) {
	t.Helper()
	d, ctx := sandboxDesk(t)
	settle := func(*input.Inspection) (Plan, error) { return plan, nil }
	var ins *input.Inspection
	var e *EarlyUpload
	var c *Counts
	var err error
	if early {
		ins, _, c, e, err = d.Submissions().ReadToSubmit(ctx, path, input.Options{Hash: true}, settle)
		if err == nil && e == nil {
			t.Fatal("the upload did not start as the list was read")
		}
	} else {
		ins, _, c, err = d.Quotes().Read(ctx, path, input.Options{Hash: true}, settle)
	}
	if err != nil {
		t.Fatal(err)
	}
	res, err := d.Submissions().Submit(ctx, plan, ins, SubmitOptions{Early: e})
	if err != nil {
		t.Fatal(err)
	}
	sess, _ := d.current()
	sub, err := sess.led.Submissions().Submission(ctx, res.Submission)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := sess.api.Traces.Get(ctx, res.JobID)
	if err != nil {
		t.Fatal(err)
	}
	return res, &Submission{FileHash: sub.FileHash, SourceHash: sub.SourceHash, FileSize: sub.FileSize, Rows: sub.Rows,
		Counted: [5]int{c.Rows, c.EntityRows, c.RowsWithout, c.EntityRowsWithout, c.Duplicates}}, tr
}

// Submission is what the ledger keeps of a submission's file, compared
// between the two ways of sending it.
type Submission struct {
	FileHash, SourceHash string
	FileSize             int64
	Rows                 int
	// Counted are the read's counts: rows, company rows, both without
	// duplicates, and the duplicates.
	Counted [5]int
}

// An upload made as the list is read is the upload made after it: the
// same bytes (SHA-256, size, rows in the ledger), the same fingerprint of
// the picked file, the same repairs, duplicates and counts reported, and
// the same job at the service.
func TestEarlyUploadIsTheUpload(t *testing.T) {
	t.Parallel()
	path := earlyList(t, 3000)
	plans := map[string]Plan{
		"repairs": {Kind: jobs.KindTrace, Path: path, Mapping: earlyMapping, Mode: jobs.ModeNormal, PadZips: true, LeaveOutNoAddress: true},
		"repairs, duplicates dropped, companies traced": {Kind: jobs.KindTrace, Path: path, Mapping: earlyMapping, Mode: jobs.ModeNormal,
			PadZips: true, LeaveOutNoAddress: true, DropDuplicates: true, IncludeLLCs: true, Name: "spring list"},
	}
	for name, plan := range plans {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			after, subAfter, trAfter := submittedOnce(t, plan, path, false)
			early, subEarly, trEarly := submittedOnce(t, plan, path, true)
			if !reflect.DeepEqual(early.Upload, after.Upload) || !reflect.DeepEqual(subEarly, subAfter) {
				t.Fatalf("early: %+v %+v\nafter: %+v %+v", early.Upload, subEarly, after.Upload, subAfter)
			}
			if trEarly.TotalRows != trAfter.TotalRows || trEarly.CreditsCharged != trAfter.CreditsCharged || trEarly.EntityRows != trAfter.EntityRows {
				t.Fatalf("job early %+v, after %+v", trEarly, trAfter)
			}
			if !early.Upload.Written || early.Upload.PaddedZips == 0 || early.Upload.LeftOutNoAddress != 2 || subEarly.SourceHash == "" ||
				(plan.DropDuplicates && early.Upload.DroppedDuplicates != 11) || subEarly.Counted[4] != 11 {
				t.Fatalf("upload %+v, submission %+v", early.Upload, subEarly)
			}
		})
	}
}

// serverTraces counts the bulk traces at d's service.
func serverTraces(t *testing.T, ctx context.Context, d *Service) int {
	t.Helper()
	l, err := d.API().ListTraces(ctx, client.TraceListOptions{Type: client.TypeBulk, Limit: 1}, false)
	if err != nil {
		t.Fatal(err)
	}
	return l.Metadata.TotalCount
}

// An upload started as the list is read and not sent — the person does
// not go ahead, nothing in the list is billable, the same list was sent
// already — reaches the service incomplete: no job, nothing charged.
func TestEarlyUploadNotSentCreatesNothing(t *testing.T) {
	t.Parallel()
	path := earlyList(t, 3000)
	plan := Plan{Kind: jobs.KindTrace, Path: path, Mapping: earlyMapping, Mode: jobs.ModeNormal, PadZips: true, LeaveOutNoAddress: true}
	cases := map[string]struct {
		before func(t *testing.T, ctx context.Context, d *Service)
		end    func(ctx context.Context, d *Service, ins *input.Inspection, e *EarlyUpload) error
		want   error
	}{
		"not submitted": {end: func(ctx context.Context, _ *Service, _ *input.Inspection, e *EarlyUpload) error {
			e.Abandon(ctx, errors.New("the mapping is wrong"))
			return nil
		}},
		"nothing billable": {end: func(ctx context.Context, d *Service, ins *input.Inspection, e *EarlyUpload) error {
			q := &Quote{Kind: jobs.KindTrace, Trace: &estimate.Result{}} // nothing billed
			_, err := d.Submissions().Submit(ctx, plan, ins, SubmitOptions{Early: e, Quote: q})
			return err
		}, want: ErrNothingBillable},
		"submitted before": {before: func(t *testing.T, ctx context.Context, d *Service) {
			ins, err := d.Quotes().Inspect(ctx, path, input.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := d.Submissions().Submit(ctx, plan, ins, SubmitOptions{}); err != nil {
				t.Fatal(err)
			}
		}, end: func(ctx context.Context, d *Service, ins *input.Inspection, e *EarlyUpload) error {
			_, err := d.Submissions().Submit(ctx, plan, ins, SubmitOptions{Early: e})
			return err
		}, want: ErrDuplicate},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			d, ctx := sandboxDesk(t)
			if c.before != nil {
				c.before(t, ctx, d)
			}
			jobsBefore := serverTraces(t, ctx, d)
			acc, err := d.Sessions().Account(ctx)
			if err != nil {
				t.Fatal(err)
			}
			ins, _, _, e, err := d.Submissions().ReadToSubmit(ctx, path, input.Options{Hash: true},
				func(*input.Inspection) (Plan, error) { return plan, nil })
			if err != nil || e == nil {
				t.Fatalf("early upload %v, %v", e, err)
			}
			if err := c.end(ctx, d, ins, e); !errors.Is(err, c.want) || (c.want == nil && err != nil) {
				t.Fatalf("err %v, want %v", err, c.want)
			}
			if n := serverTraces(t, ctx, d); n != jobsBefore {
				t.Fatalf("%d jobs, %d before: an upload not sent created one", n, jobsBefore)
			}
			// An earlier job's refunds may come meanwhile: only a charge
			// lowers the balance.
			if after, err := d.Sessions().Account(ctx); err != nil || after.Credits < acc.Credits {
				t.Fatalf("credits %d, then %d (%v)", acc.Credits, after.Credits, err)
			}
		})
	}
}
