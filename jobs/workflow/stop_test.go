package workflow

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/client/sandbox"
	"github.com/skipdesk/skipdesk/jobs/secrets"
	"github.com/skipdesk/skipdesk/jobs/sqldb"
	"github.com/skipdesk/skipdesk/jobs/sqldb/pgtest"
)

// Stop sharing keeps on this computer what it needs to go on safely: a
// number a teammate put on the company's do-not-call list is still on this
// computer's list afterwards and never in its callable list; its jobs are
// still in its jobs list, the one in flight is followed and downloaded
// from here; a file it sent an hour earlier is still caught by the
// duplicate guard. (Before, the list came back empty, the jobs list said
// "no jobs yet" and the file was charged again without the question.)
func TestStopSharingKeepsWhatThisComputerNeeds(t *testing.T) {
	t.Parallel()
	tm := newTestTeam(t)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	a := sharingComputer(ctx, t, tm.sb.url, tm.dbURL, "front-desk")
	b := tm.computer("back-office", nil)

	// The front desk traces and scrubs a list; the back office hears one of
	// its numbers is not to be called.
	plan := samplePlan(ctx, t, a)
	job, dncID := traceAndScrub(ctx, t, a, plan)
	callable := callableNumbers(ctx, t, a, job)
	if len(callable) == 0 {
		t.Fatal("nothing callable to start with")
	}
	if _, err := b.Compliance().AddInternal(ctx, []string{callable[0]}, "asked not to be called", "phone"); err != nil {
		t.Fatal(err)
	}
	sentAnHourAgo(ctx, t, tm.dbURL)
	// The next job stays in flight until the test finishes it.
	tm.sb.srv.SetProcessing(sandbox.Processing{MinSeconds: 3600})
	flying := submitted(ctx, t, a, ownerPlan(t, t.TempDir(), "late", 3))

	if preview, err := a.Team().StopSharingPreview(ctx); err != nil || preview.Numbers != 1 || preview.Jobs != 3 || preview.InFlight < 1 {
		t.Fatalf("what stopping would keep: %+v, %v", preview, err)
	}
	kept, err := a.Team().StopSharing(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.Team().Sharing() || kept.Numbers != 1 || kept.Jobs != 3 {
		t.Fatalf("kept %+v; sharing %v", kept, a.Team().Sharing())
	}

	list, err := a.Compliance().InternalList(ctx)
	if err != nil || len(list) != 1 || list[0].By != "back-office" {
		t.Fatalf("this computer's list after stopping: %+v, %v", list, err)
	}
	if after := callableNumbers(ctx, t, a, job); slices.Contains(after, callable[0]) || len(after) != len(callable)-1 {
		t.Fatalf("%s, on the team's list, is in this computer's callable list after stopping (%d → %d numbers)",
			callable[0], len(callable), len(after))
	}
	checkJobsListed(ctx, t, a, job.ID, dncID, flying)
	if _, err := submitFile(ctx, a, plan, false); !errors.Is(err, ErrDuplicate) {
		t.Fatalf("the file sent an hour ago, sent again after stopping: %v", err)
	}
	tm.sb.srv.Finish(flying)
	if _, err := a.Jobs().Wait(ctx, flying, time.Minute); err != nil {
		t.Fatal(err)
	}
	waitResult(ctx, t, a, flying)
}

// checkJobsListed: d's jobs list shows every job of ids.
func checkJobsListed(ctx context.Context, t *testing.T, d *Service, ids ...string) {
	t.Helper()
	local, err := d.Jobs().LocalJobs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, j := range local {
		listed = append(listed, j.ID)
	}
	for _, id := range ids {
		if !slices.Contains(listed, id) {
			t.Fatalf("the jobs list after stopping: %v, without %s", listed, id)
		}
	}
}

// sharingComputer opens a SkipDesk with its own data folder and session
// on the sandbox at api, and shares the team's database at dbURL (kept in
// the keyring, as the window does it).
func sharingComputer(ctx context.Context, t *testing.T, api, dbURL, name string) *Service {
	t.Helper()
	d := openResumed(ctx, t, Config{Secrets: secrets.Memory(), Home: t.TempDir(), BaseURL: api, APIKey: sandbox.DemoKey, Computer: name, Track: true,
		Tracker: pollEvery(200 * time.Millisecond)})
	t.Cleanup(func() { d.Close() })
	if _, err := d.Team().ShareWithTeam(ctx, dbURL, name, nil); err != nil {
		t.Fatal(err)
	}
	return d
}

// traceAndScrub traces plan's list on d, scrubs its phones, and returns
// the trace's job (its result downloaded) and the scrub's id.
func traceAndScrub(ctx context.Context, t *testing.T, d *Service, plan Plan) (Job, string) {
	t.Helper()
	id := submitted(ctx, t, d, plan)
	if _, err := d.Jobs().Wait(ctx, id, time.Minute); err != nil {
		t.Fatal(err)
	}
	job := waitResult(ctx, t, d, id)
	return job, scrubResult(ctx, t, d, job)
}

// scrubResult scrubs the phones of job's downloaded result on d and
// returns the scrub's id once its result is downloaded too.
func scrubResult(ctx context.Context, t *testing.T, d *Service, job Job) string {
	t.Helper()
	phones, err := d.Submissions().TracePhones(ctx, job.ResultPath, job.ID)
	if err != nil {
		t.Fatal(err)
	}
	dncID := submitted(ctx, t, d, phones)
	if _, err := d.Jobs().Wait(ctx, dncID, time.Minute); err != nil {
		t.Fatal(err)
	}
	waitResult(ctx, t, d, dncID)
	return dncID
}

// sentAnHourAgo moves every submission in the team's database, and its
// duplicate guard's records, an hour back.
func sentAnHourAgo(ctx context.Context, t *testing.T, dbURL string) {
	t.Helper()
	db, err := sqldb.OpenPostgres(ctx, dbURL, sqldb.PostgresOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	hour := time.Hour.Milliseconds()
	for _, q := range []string{"UPDATE submissions SET created_at = created_at - ?", "UPDATE submission_claims SET claimed_at = claimed_at - ?"} {
		if _, err := db.ExecContext(ctx, q, hour); err != nil {
			t.Fatal(err)
		}
	}
}

// The team's database away: stopping is refused and nothing changes —
// sharing stays on, the connection string stays in the keyring, this
// computer's own records are as they were — until it answers and the
// records can be copied back.
func TestStopSharingRefusedWhileTheTeamIsAway(t *testing.T) {
	t.Parallel()
	proxy, viaProxy := pgtest.NewProxy(t, pgtest.URL(t))
	sb := newTeamSandbox(t, *fastSandbox())
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	a := sharingComputer(ctx, t, sb.url, viaProxy, "front-desk")
	if _, err := a.Compliance().AddInternal(ctx, []string{"512-555-0142"}, "asked", "by hand"); err != nil {
		t.Fatal(err)
	}
	proxy.Cut()
	_, err := a.Team().StopSharing(ctx, nil)
	if !errors.Is(err, ErrTeamUnreachable) || !strings.Contains(err.Error(), "sharing stays on") {
		t.Fatalf("stopping with the team's database away: %v", err)
	}
	if !a.Team().Sharing() {
		t.Fatal("sharing was turned off without the records")
	}
	if got, err := a.cfg.Secrets.Get(ctx, secrets.DatabaseURL); err != nil || got != viaProxy {
		t.Fatalf("the connection string after a refused stop: %v", err)
	}
	if _, err := a.Team().StopSharingPreview(ctx); !errors.Is(err, ErrTeamUnreachable) {
		t.Fatalf("the preview with the team's database away: %v", err)
	}
	proxy.Restore()
	kept, err := a.Team().StopSharing(ctx, nil)
	if err != nil || kept.Numbers != 1 || a.Team().Sharing() {
		t.Fatalf("once it answers: %+v, %v", kept, err)
	}
}
