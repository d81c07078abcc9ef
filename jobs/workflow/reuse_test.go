package workflow

import (
	"context"
	"encoding/csv"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/library"
	"github.com/skipdesk/skipdesk/jobs/testlists"
)

func writeCSV(t *testing.T, path string, recs [][]string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := csv.NewWriter(f)
	w.WriteAll(recs)
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// traceAndWait submits a plan and waits for its result (merged when it
// reused rows).
func traceAndWait(t *testing.T, ctx context.Context, d *Service, p Plan, q *Quote) (*Submitted, *Outcome) {
	t.Helper()
	ins, err := d.Quotes().Inspect(ctx, p.Path, p.Input)
	if err != nil {
		t.Fatal(err)
	}
	res, err := d.Submissions().Submit(ctx, p, ins, SubmitOptions{Again: true, Quote: q})
	if err != nil {
		t.Fatal(err)
	}
	if res.JobID == "" {
		return res, nil
	}
	o, err := d.Jobs().Wait(ctx, res.JobID, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	// The app indexes the result in the background once downloaded; a
	// reading that finds the index behind leaves its look-up to Count.
	if _, err := d.Library().IndexLibrary(ctx, "", nil); err != nil {
		t.Fatal(err)
	}
	return res, o
}

// quote inspects p's file and prices p.
func quote(t *testing.T, ctx context.Context, d *Service, p Plan) *Quote {
	t.Helper()
	q, _ := quoted(t, ctx, d, p)
	return q
}

// quoted is quote with the file's inspection.
func quoted(t *testing.T, ctx context.Context, d *Service, p Plan) (*Quote, *input.Inspection) {
	t.Helper()
	ins, err := d.Quotes().Inspect(ctx, p.Path, p.Input)
	if err != nil {
		t.Fatal(err)
	}
	q, err := d.Quotes().Quote(ctx, p, ins)
	if err != nil {
		t.Fatal(err)
	}
	return q, ins
}

// col is the index of a header.
func col(t *testing.T, header []string, name string) int {
	t.Helper()
	i := slices.Index(header, name)
	if i < 0 {
		t.Fatalf("no column %q in %v", name, header)
	}
	return i
}

// A list that repeats owners traced before — written differently (case,
// St/Street, punctuation), in another order, among new owners — is quoted
// with what reusing saves; with that choice only the new rows are uploaded
// and charged, and the result holds every row of the list in its order,
// each saying where its data came from. The library's search then finds
// the merged result, not the job's own part of it.
func TestReuseTracedRows(t *testing.T) {
	t.Parallel()
	d, ctx := sandboxDesk(t)
	sample, err := d.Quotes().SampleList(ctx)
	if err != nil {
		t.Fatal(err)
	}
	base := Plan{Kind: jobs.KindTrace, Path: sample, Mapping: sampleMapping, Mode: jobs.ModeNormal, IncludeLLCs: true}
	_, first := traceAndWait(t, ctx, d, base, nil)
	// The result's record learns the mapping its upload was sent with
	// (Wait has noted it before it returns).
	if m, _ := library.ReadRecord(library.RecordPath(first.ResultPath)); m.Mapping["property_street"] != "Property Address" {
		t.Fatalf("record without the mapping: %+v", m)
	}
	rl := repeatList(t, sample, testlists.ReadCSV(t, first.ResultPath))
	p := base
	p.Path = rl.path
	qr := checkReuseQuotes(t, ctx, d, p, rl)
	p.Reuse = true
	acc, _ := d.Sessions().Account(ctx)
	res, o := traceAndWait(t, ctx, d, p, qr)
	if res.Reused != rl.nReused || res.Upload.Rows != len(rl.rows)-rl.nReused || res.Charged != qr.Credits {
		t.Fatalf("submitted %+v, want %d reused, %d uploaded, %d charged", res, rl.nReused, len(rl.rows)-rl.nReused, qr.Credits)
	}
	after, _ := d.Sessions().Account(ctx)
	if acc.Credits-after.Credits+o.Job.Refunded != qr.Credits {
		t.Errorf("charged %d, quoted %d", acc.Credits-after.Credits+o.Job.Refunded, qr.Credits)
	}
	checkMergedRows(t, o.ResultPath, rl, first, res.JobID)
	checkMergedRecord(t, o.ResultPath, rl, first, res)
	checkAfterMerge(t, ctx, d, o.ResultPath, res.JobID)
	// Nothing is skipped without the choice: the same list again without
	// Reuse uploads every row.
	p.Reuse = false
	if q := quote(t, ctx, d, p); q.Rows != len(rl.rows) || q.Reuse.Skipped {
		t.Errorf("without the choice: %d rows, %+v", q.Rows, q.Reuse)
	}
}

// repeats is a list that repeats rows of a traced list.
type repeats struct {
	path    string
	rows    [][]string
	reused  []bool // by list row: its owner was found by the earlier trace
	oldRow  []int  // the earlier result's row of each, -1 none
	old     [][]string
	nReused int
}

// repeatList writes 30 rows of the sample (every third, backwards),
// rewritten, then 10 owners never traced.
func repeatList(t *testing.T, sample string, old [][]string) repeats {
	t.Helper()
	src := testlists.ReadCSV(t, sample)
	status := col(t, old[0], "match_status")
	rl := repeats{old: old}
	for i := 90; i > 0 && len(rl.rows) < 30; i -= 3 {
		r := slices.Clone(src[i])
		switch len(rl.rows) % 3 {
		case 0:
			r[0], r[1] = strings.ToUpper(r[0]), strings.ToUpper(r[1])
		case 1:
			r[2] = strings.Replace(strings.Replace(r[2], " St", " Street", 1), " Ave", " Avenue.", 1)
		case 2:
			r[0] = r[0] + " " // spacing
		}
		rl.rows = append(rl.rows, r)
		rl.reused = append(rl.reused, old[i][status] == "matched")
		rl.oldRow = append(rl.oldRow, i)
	}
	for i := 0; i < 10; i++ {
		r := slices.Clone(src[150+i])
		r[2] = "77" + r[2] // another house
		rl.rows = append(rl.rows, r)
		rl.reused = append(rl.reused, false)
		rl.oldRow = append(rl.oldRow, -1)
	}
	rl.path = filepath.Join(t.TempDir(), "again.csv")
	writeCSV(t, rl.path, append([][]string{src[0]}, rl.rows...))
	for _, b := range rl.reused {
		if b {
			rl.nReused++
		}
	}
	if rl.nReused < 10 {
		t.Fatalf("only %d matched rows to reuse: pick other rows", rl.nReused)
	}
	return rl
}

// checkReuseQuotes: without the choice the quote offers the saving; with
// it the rows and credits drop by it; the age allowed counts. It returns
// the quote with the choice.
func checkReuseQuotes(t *testing.T, ctx context.Context, d *Service, p Plan, rl repeats) *Quote {
	t.Helper()
	reused, n := rl.nReused, len(rl.rows)
	q := quote(t, ctx, d, p)
	if q.Reuse == nil || q.Reuse.Rows != reused || q.Reuse.Skipped || *q.AlreadyTraced != reused || q.Rows != n {
		t.Fatalf("quote without reuse: rows %d, reuse %+v, want %d traced before", q.Rows, q.Reuse, reused)
	}
	if q.Reuse.Savings <= 0 || q.Reuse.Newest.IsZero() {
		t.Fatalf("the offer: %+v", q.Reuse)
	}
	t.Logf("%d of %d rows traced before; reusing them saves %d credits", reused, n, q.Reuse.Savings)
	offer := q.Reuse.Offer(jobs.KindTrace)
	if !strings.Contains(offer, "rows were traced before (newest ") || !strings.Contains(offer, "skip them and reuse their results — saves ") {
		t.Errorf("offer %q", offer)
	}
	p.Reuse = true
	qr := quote(t, ctx, d, p)
	if qr.Rows != n-reused || qr.Credits != q.Credits-q.Reuse.Savings || !qr.Reuse.Skipped || !qr.Upload.Written {
		t.Fatalf("quote with reuse: rows %d credits %d (without: %d, saving %d) %+v", qr.Rows, qr.Credits, q.Credits, q.Reuse.Savings, qr.Upload)
	}
	// A reused result no older than a day: the sample's trace qualifies.
	p.ReuseWithin = 24 * time.Hour
	if q := quote(t, ctx, d, p); q.Reuse.Rows != reused {
		t.Errorf("within a day: %+v", q.Reuse)
	}
	return qr
}

// checkMergedRows: every row of the list in its order; reused rows carry
// the earlier job, its date and its phones; the others the new job.
func checkMergedRows(t *testing.T, path string, rl repeats, first *Outcome, jobID string) {
	t.Helper()
	merged := testlists.ReadCSV(t, path)
	mh, oh := merged[0], rl.old[0]
	if len(merged)-1 != len(rl.rows) {
		t.Fatalf("merged result: %d rows, the list has %d", len(merged)-1, len(rl.rows))
	}
	source, job, date := col(t, mh, "source"), col(t, mh, "source_job"), col(t, mh, "source_date")
	street, phone1, oldPhone := col(t, mh, "Property Address"), col(t, mh, "phone_1"), col(t, oh, "phone_1")
	firstDay := first.Job.CompletedAt.UTC().Format(time.DateOnly)
	for i, r := range merged[1:] {
		if r[street] != rl.rows[i][2] {
			t.Fatalf("row %d is %q, the list's is %q: order lost", i+1, r[street], rl.rows[i][2])
		}
		switch {
		case !rl.reused[i]:
			if r[source] != "new" || r[job] != jobID {
				t.Errorf("row %d: %v, want new from %s", i+1, r[len(r)-3:], jobID)
			}
		case r[source] != "reused" || r[job] != first.Job.ID || r[date] != firstDay:
			t.Errorf("row %d: %v, want reused from %s", i+1, r[len(r)-3:], first.Job.ID)
		case r[phone1] != rl.old[rl.oldRow[i]][oldPhone]:
			t.Errorf("row %d: phone %q, the earlier result's %q", i+1, r[phone1], rl.old[rl.oldRow[i]][oldPhone])
		}
	}
}

// checkMergedRecord: the merged result's record is the new job's (the
// one charged), with the counts and the earlier job it reused.
func checkMergedRecord(t *testing.T, path string, rl repeats, first *Outcome, res *Submitted) {
	t.Helper()
	meta, err := library.ReadRecord(library.RecordPath(path))
	m := meta.Merged
	if err != nil || meta.JobID != res.JobID || m == nil || m.ReusedRows != rl.nReused || m.NewRows != len(rl.rows)-rl.nReused ||
		m.MissingRows != 0 || meta.CreditsCharged != res.Charged || len(m.Sources) != 1 || m.Sources[0].JobID != first.Job.ID {
		t.Fatalf("merged record %+v %+v (%v)", meta, m, err)
	}
}

// checkAfterMerge: the jobs list opens the merged result; the search finds
// the new rows in it, not in the job's own result it holds.
func checkAfterMerge(t *testing.T, ctx context.Context, d *Service, path, jobID string) {
	t.Helper()
	jl, err := d.Jobs().LocalJobs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range jl {
		if j.ID == jobID && j.ResultPath != path {
			t.Errorf("jobs list result %q, want the merged %q", j.ResultPath, path)
		}
	}
	meta, _ := library.ReadRecord(library.RecordPath(path))
	merged := testlists.ReadCSV(t, path)
	newPhone := merged[len(merged)-1][col(t, merged[0], "phone_1")]
	if newPhone == "" {
		return
	}
	hits, err := d.Library().SearchRows(ctx, libDir(d), newPhone, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range hits {
		if filepath.Base(h.Path) == meta.Merged.Raw {
			t.Errorf("the job's own result is searched: %+v", h)
		}
	}
	if len(hits) == 0 {
		t.Errorf("%s not found", newPhone)
	}
}

// libDir is the session's library folder.
func libDir(d *Service) string {
	lib, _ := d.library()
	return lib.Dir()
}

// Every row of a list traced before: no job, nothing charged, the merged
// result at once.
func TestReuseEveryRow(t *testing.T) { reuseEveryRow(t, nil) }

// reuseEveryRow traces the sample list on a fresh desk, runs between when
// set, then submits five of its matched rows again: every row is reused,
// no job is made, nothing is charged, the merged result is there at once.
func reuseEveryRow(t *testing.T, between func(ctx context.Context, d *Service)) {
	d, ctx := sandboxDesk(t)
	sample, _ := d.Quotes().SampleList(ctx)
	base := Plan{Kind: jobs.KindTrace, Path: sample, Mapping: sampleMapping, Mode: jobs.ModeNormal}
	_, first := traceAndWait(t, ctx, d, base, nil)
	if between != nil {
		between(ctx, d)
	}
	src, list := matchedRows(t, sample, first.ResultPath, 5)
	merged := submitAllReused(ctx, t, d, base, append([][]string{src[0]}, list...))
	if merged[1][col(t, merged[0], "source")] != "reused" {
		t.Errorf("merged %v", merged)
	}
}

// matchedRows reads the list sample (returned whole) and the n first of
// its rows that result found.
func matchedRows(t *testing.T, sample, result string, n int) (src, list [][]string) {
	t.Helper()
	res := testlists.ReadCSV(t, result)
	src = testlists.ReadCSV(t, sample)
	for i := 1; i < len(res) && len(list) < n; i++ {
		if res[i][col(t, res[0], "match_status")] == "matched" {
			list = append(list, src[i])
		}
	}
	if len(list) < n {
		t.Fatalf("%d matched rows in %s, want %d", len(list), result, n)
	}
	return src, list
}

// submitAllReused quotes and submits recs (a header and rows traced
// before) on d with reuse: every row is reused, no job is made, nothing is
// charged. It returns the merged result's records.
func submitAllReused(ctx context.Context, t *testing.T, d *Service, base Plan, recs [][]string) [][]string {
	t.Helper()
	n := len(recs) - 1
	path := filepath.Join(t.TempDir(), "again.csv")
	writeCSV(t, path, recs)
	p := base
	p.Path, p.Reuse = path, true
	q := quote(t, ctx, d, p)
	if q.Rows != 0 || q.Credits != 0 || q.Reuse == nil || q.Reuse.Rows != n {
		t.Fatalf("%s's quote: %d rows, %d credits, %+v; want the %d rows reused", d.Team().Computer(), q.Rows, q.Credits, q.Reuse, n)
	}
	acc, _ := d.Sessions().Account(ctx)
	sub, _ := traceAndWait(t, ctx, d, p, q)
	if sub.JobID != "" || sub.Reused != n || sub.ResultPath == "" {
		t.Fatalf("%s's submission: %+v", d.Team().Computer(), sub)
	}
	if after, _ := d.Sessions().Account(ctx); after.Credits != acc.Credits {
		t.Errorf("charged %d", acc.Credits-after.Credits)
	}
	merged := testlists.ReadCSV(t, sub.ResultPath)
	if len(merged) != n+1 {
		t.Fatalf("the merged result: %v", merged)
	}
	return merged
}

// The library changed between the quote and the submission: nothing is
// sent, the price must be looked at again.
func TestReuseQuoteChanged(t *testing.T) {
	t.Parallel()
	d, ctx := sandboxDesk(t)
	sample, _ := d.Quotes().SampleList(ctx)
	base := Plan{Kind: jobs.KindTrace, Path: sample, Mapping: sampleMapping, Mode: jobs.ModeNormal, Reuse: true}
	_, first := traceAndWait(t, ctx, d, Plan{Kind: jobs.KindTrace, Path: sample, Mapping: sampleMapping, Mode: jobs.ModeNormal}, nil)
	q := quote(t, ctx, d, base)
	if q.Reuse.Rows == 0 {
		t.Fatal("nothing to reuse")
	}
	// The earlier result is removed from the library.
	os.Remove(first.ResultPath)
	ins, _ := d.Quotes().Inspect(ctx, sample, base.Input)
	_, err := d.Submissions().Submit(ctx, base, ins, SubmitOptions{Again: true, Quote: q})
	var qc *QuoteChangedError
	if !errors.As(err, &qc) || !errors.Is(err, ErrQuoteChanged) || qc.Quoted != q.Reuse.Rows || qc.Now != 0 {
		t.Fatalf("submit after the library changed: %v", err)
	}
	jl, _ := d.Jobs().LocalJobs(ctx)
	if len(jl) != 1 {
		t.Errorf("a job was created: %+v", jl)
	}
}

// A scrub reuses the answers of phones scrubbed in the last 31 days (in any
// format) and scrubs the others; older answers are scrubbed again.
func TestReuseScrubbedPhones(t *testing.T) {
	t.Parallel()
	d, ctx := sandboxDesk(t)
	dir := t.TempDir()
	var first [][]string
	for i := 0; i < 10; i++ {
		first = append(first, []string{"2125550" + string(rune('1'+i/10)) + string(rune('0'+i%10)) + "0"})
	}
	p1 := filepath.Join(dir, "first.csv")
	writeCSV(t, p1, append([][]string{{"phone"}}, first...))
	plan := Plan{Kind: jobs.KindDNC, Path: p1, Mapping: map[string]string{"phone": "phone"}}
	_, o1 := traceAndWait(t, ctx, d, plan, nil)
	r1 := testlists.ReadCSV(t, o1.ResultPath)
	flagsOf := map[string][]string{} // number → dnc, litigator
	for _, r := range r1[1:] {
		flagsOf[r[col(t, r1[0], "phone_normalized")]] = []string{r[col(t, r1[0], "dnc")], r[col(t, r1[0], "litigator")]}
	}
	// The second list: six numbers scrubbed above, written otherwise, and
	// four new ones, mixed.
	second := [][]string{{"phone"}}
	var reusedAt []bool
	for i := 0; i < 10; i++ {
		if i%5 < 3 {
			n := first[i][0]
			second = append(second, []string{"(" + n[:3] + ") " + n[3:6] + "-" + n[6:]})
			reusedAt = append(reusedAt, true)
		} else {
			second = append(second, []string{"3135550" + string(rune('0'+i)) + "99"})
			reusedAt = append(reusedAt, false)
		}
	}
	p2 := filepath.Join(dir, "second.csv")
	writeCSV(t, p2, second)
	plan.Path = p2
	q := quote(t, ctx, d, plan)
	if q.Reuse == nil || q.Reuse.Rows != 6 || q.ReusablePhones == nil || *q.ReusablePhones != 6 || q.Rows != 10 {
		t.Fatalf("quote: %d rows, %+v", q.Rows, q.Reuse)
	}
	// Scrubbed 40 days ago: past the registry's 31 days.
	meta, _ := library.ReadRecord(library.RecordPath(o1.ResultPath))
	fresh := meta
	meta.CompletedAt = time.Now().Add(-40 * 24 * time.Hour)
	lib, _ := d.library()
	lib.Record(meta, o1.ResultPath)
	if q := quote(t, ctx, d, plan); q.Reuse.Rows != 0 {
		t.Errorf("answers 40 days old reused: %+v", q.Reuse)
	}
	lib.Record(fresh, o1.ResultPath)
	// With the choice only the four new numbers are sent.
	plan.Reuse = true
	q = quote(t, ctx, d, plan)
	if q.Rows != 4 || q.Credits != 4*q.DNC.Rate {
		t.Fatalf("quote with reuse: %d rows %d credits", q.Rows, q.Credits)
	}
	res, o := traceAndWait(t, ctx, d, plan, q)
	if res.Reused != 6 || res.Upload.Rows != 4 {
		t.Fatalf("submitted %+v", res)
	}
	merged := testlists.ReadCSV(t, o.ResultPath)
	mh := merged[0]
	if len(merged)-1 != 10 {
		t.Fatalf("merged %d rows", len(merged)-1)
	}
	for i, r := range merged[1:] {
		if r[col(t, mh, "phone")] != second[i+1][0] {
			t.Fatalf("row %d: %q, the list's %q", i+1, r[col(t, mh, "phone")], second[i+1][0])
		}
		num := r[col(t, mh, "phone_normalized")]
		if reusedAt[i] {
			if r[col(t, mh, "source")] != "reused" || r[col(t, mh, "source_job")] != o1.Job.ID ||
				!slices.Equal([]string{r[col(t, mh, "dnc")], r[col(t, mh, "litigator")]}, flagsOf[num]) {
				t.Errorf("row %d: %v, want the flags %v of %s", i+1, r, flagsOf[num], o1.Job.ID)
			}
		} else if r[col(t, mh, "source")] != "new" || r[col(t, mh, "source_job")] != res.JobID {
			t.Errorf("row %d: %v, want scrubbed by %s", i+1, r, res.JobID)
		}
	}
}
