package ledger

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
)

// sharedThenStopped is a computer that shared a team's database and is
// about to stop: its own ledger (moved into the team's before), the team's
// ledger as this computer, and a teammate's.
type sharedThenStopped struct {
	own, team, mate *Ledger
}

func newSharedThenStopped(t *testing.T) sharedThenStopped {
	t.Helper()
	ctx := context.Background()
	own := sqliteStore().open(t)
	// Before sharing: two numbers of its own, and one job.
	if _, err := own.CompanyList().AddInternal(ctx, []InternalEntry{{Number: "5125550101", Reason: "asked"}, {Number: "5125550102", Reason: "complaint"}}); err != nil {
		t.Fatal(err)
	}
	submitted(t, own, "before.csv", "trc_before", jobs.StatusCompleted)
	pg := postgresStore()
	team := pg.open(t)
	if _, err := team.MoveFrom(ctx, own, nil); err != nil {
		t.Fatal(err)
	}
	return sharedThenStopped{own: own, team: team, mate: pg.other(t, team, "laptop-2")}
}

// submitted records a submission of file that created job (in status) on
// l; it returns the submission's id.
func submitted(t *testing.T, l *Ledger, file, job string, status jobs.Status) int64 {
	t.Helper()
	ctx := context.Background()
	id, err := l.Submissions().RecordIntent(ctx, &Submission{Kind: jobs.KindTrace, FileName: file, FileHash: "h-" + file,
		Mapping: map[string]string{"first_name": "F"}, Mode: jobs.ModeNormal, Rows: 10})
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Submissions().MarkSent(ctx, id); err != nil {
		t.Fatal(err)
	}
	if err := l.Submissions().MarkCreated(ctx, id, Created{JobID: job, Charged: 10, Job: Job{Kind: jobs.KindTrace, Status: status, CreatedAt: l.now()}}); err != nil {
		t.Fatal(err)
	}
	return id
}

// Stopping sharing copies back what this computer needs on its own: the
// company's list as the team has it (a teammate's number included, a
// number the team took off taken off, with the history of both), this
// computer's jobs (one in flight, one downloaded) and the duplicate
// guard's record of a file sent an hour ago. Copying back again writes
// nothing twice.
func TestCopyBack(t *testing.T) {
	t.Parallel()
	s := newSharedThenStopped(t)
	ctx := context.Background()
	whileShared(t, s)
	plan, err := s.team.ToKeep(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if plan.Numbers != 2 || plan.Submissions != 3 || plan.Jobs != 3 || plan.InFlight != 1 || plan.Claims != 3 {
		t.Fatalf("what would be kept: %+v", plan)
	}
	var parts []string
	kept, err := s.own.CopyBack(ctx, s.team, func(p MoveProgress) {
		if p.Done == 0 {
			parts = append(parts, p.Part)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(parts, KeepParts) {
		t.Errorf("progress named %v", parts)
	}
	if kept.History != plan.History || kept.Numbers != 2 || kept.Removed != 1 || kept.Submissions != 3 || kept.Jobs != 3 || kept.InFlight != 1 || kept.Claims != 3 {
		t.Fatalf("kept %+v", kept)
	}
	checkKeptList(t, s.own)
	checkKeptJobs(t, s.own)

	logBefore, subsBefore := count(t, s.own, "internal_dnc_log"), count(t, s.own, "submissions")
	if _, err := s.own.CopyBack(ctx, s.team, nil); err != nil {
		t.Fatal(err)
	}
	if count(t, s.own, "internal_dnc_log") != logBefore || count(t, s.own, "submissions") != subsBefore {
		t.Fatalf("copying back again wrote rows twice: log %d → %d, submissions %d → %d", logBefore,
			count(t, s.own, "internal_dnc_log"), subsBefore, count(t, s.own, "submissions"))
	}
}

// whileShared: a teammate adds a number and takes one of this computer's
// off; this computer's own list gets a number the team has no record of;
// this computer sends two files an hour ago (one job still in flight, one
// downloaded), the teammate one.
func whileShared(t *testing.T, s sharedThenStopped) {
	t.Helper()
	ctx := context.Background()
	if _, err := s.mate.CompanyList().AddInternal(ctx, []InternalEntry{{Number: "2145550199", Reason: "litigator's client", By: "laptop-2"}}); err != nil {
		t.Fatal(err)
	}
	if err := s.mate.CompanyList().RemoveInternal(ctx, "5125550102", "the complaint was withdrawn", "laptop-2"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.own.CompanyList().AddInternal(ctx, []InternalEntry{{Number: "9725550100", Reason: "own"}}); err != nil {
		t.Fatal(err)
	}
	hourAgo := time.Now().Add(-time.Hour)
	s.team.now = func() time.Time { return hourAgo }
	submitted(t, s.team, "owners.csv", "trc_flying", jobs.StatusProcessing)
	submitted(t, s.team, "done.csv", "trc_done", jobs.StatusCompleted)
	s.team.now = time.Now
	if err := s.team.Jobs().RecordDownload(ctx, Download{JobID: "trc_done", Path: "/lib/trc_done.csv", Size: 9, SHA256: "ab", Rows: 3}); err != nil {
		t.Fatal(err)
	}
	submitted(t, s.mate, "theirs.csv", "trc_theirs", jobs.StatusProcessing)
}

// checkKeptList: the teammate's number is on this computer's list (and in
// its keys), the number the team took off is not, with its removal in the
// history; the number only this computer had is still on.
func checkKeptList(t *testing.T, own *Ledger) {
	t.Helper()
	ctx := context.Background()
	keys, err := own.CompanyList().InternalKeys(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(keys.Keys()); got != "[2145550199 5125550101 9725550100]" {
		t.Fatalf("this computer's list after stopping: %s", got)
	}
	log, err := own.CompanyList().InternalLog(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	var story []string
	for _, c := range log {
		story = append(story, c.Number+" "+c.Action+" "+c.Reason)
	}
	want := []string{"5125550101 added asked", "5125550102 added complaint", "9725550100 added own",
		"2145550199 added litigator's client", "5125550102 removed the complaint was withdrawn"}
	slices.Sort(story)
	slices.Sort(want)
	if !slices.Equal(story, want) {
		t.Fatalf("the history:\n%q\nwant\n%q", story, want)
	}
}

// checkKeptJobs: this computer's jobs are its own again, the one in
// flight followed from here, the downloaded one with its file; the
// teammate's are not; a file sent an hour ago is still guarded.
func checkKeptJobs(t *testing.T, own *Ledger) {
	t.Helper()
	ctx := context.Background()
	entries, err := own.Jobs().Entries(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Entry{}
	for _, e := range entries {
		got[e.ID] = e
	}
	if len(got) != 3 || got["trc_theirs"].ID != "" || got["trc_done"].Download == nil || got["trc_done"].Spend.Charged != 10 {
		t.Fatalf("this computer's jobs: %+v", entries)
	}
	flying, err := own.Jobs().InFlight(ctx)
	if err != nil || len(flying) != 1 || flying[0].ID != "trc_flying" {
		t.Fatalf("in flight: %+v, %v", flying, err)
	}
	_, err = own.Submissions().RecordIntent(ctx, &Submission{Kind: jobs.KindTrace, FileName: "owners again.csv", FileHash: "h-owners.csv",
		Mapping: map[string]string{"first_name": "F"}, Mode: jobs.ModeNormal})
	var ce *ClaimedError
	if !errors.As(err, &ce) {
		t.Fatalf("the file sent an hour ago, again: %v", err)
	}
	if s, err := own.Submissions().Submission(ctx, ce.Holder); err != nil || s.JobID != "trc_flying" {
		t.Fatalf("the guard names %+v, %v", s, err)
	}
}

// A copy back cut in the middle leaves this computer's ledger as it was.
func TestCopyBackIsOneStep(t *testing.T) {
	t.Parallel()
	s := newSharedThenStopped(t)
	ctx, cancel := context.WithCancel(context.Background())
	if _, err := s.mate.CompanyList().AddInternal(ctx, []InternalEntry{{Number: "2145550199", Reason: "litigator's client"}}); err != nil {
		t.Fatal(err)
	}
	submitted(t, s.team, "owners.csv", "trc_flying", jobs.StatusProcessing)
	before := map[string]int{}
	for _, table := range []string{"internal_dnc", "internal_dnc_log", "submissions", "jobs", "submission_claims"} {
		before[table] = count(t, s.own, table)
	}
	_, err := s.own.CopyBack(ctx, s.team, func(p MoveProgress) {
		if p.Part == "submissions" {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cut in the middle: %v", err)
	}
	for table, n := range before {
		if got := count(t, s.own, table); got != n {
			t.Errorf("%s: %d rows after a cut copy, %d before", table, got, n)
		}
	}
}
