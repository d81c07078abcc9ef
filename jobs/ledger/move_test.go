package ledger

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
)

// fillLocal gives a computer's own ledger n jobs (each with its
// submission, spend and download), presets, webhook deliveries and an
// internal list with its log.
func fillLocal(t testing.TB, l *Ledger, n int, prefix string) {
	t.Helper()
	ctx := context.Background()
	for i := range n {
		id, err := l.Submissions().RecordIntent(ctx, &Submission{Kind: jobs.KindTrace, FileName: fmt.Sprintf("%s-%d.csv", prefix, i),
			FileHash: fmt.Sprintf("%s-h%d", prefix, i), Mapping: map[string]string{"first_name": "F"}, Mode: jobs.ModeNormal, Rows: 10})
		if err != nil {
			t.Fatal(err)
		}
		l.Submissions().MarkSent(ctx, id)
		job := fmt.Sprintf("trc_%s%d", prefix, i)
		if err := l.Submissions().MarkCreated(ctx, id, Created{JobID: job, Charged: 10, Job: Job{Kind: jobs.KindTrace, Status: jobs.StatusProcessing,
			CreatedAt: time.Now()}}); err != nil {
			t.Fatal(err)
		}
		if err := l.Jobs().RecordJobState(ctx, Job{ID: job, Kind: jobs.KindTrace, Status: jobs.StatusCompleted, CompletedAt: time.Now()}, Spend{Charged: 10, Refunded: 3}); err != nil {
			t.Fatal(err)
		}
		if err := l.Jobs().RecordDownload(ctx, Download{JobID: job, Path: "/lib/" + job + ".csv", Size: 100, SHA256: "ab", Rows: 10}); err != nil {
			t.Fatal(err)
		}
	}
	l.Saved().SaveRawPreset(ctx, "county", json.RawMessage(`{"name":"county","mapping":{"first_name":"Owner"}}`))
	l.Saved().SaveRawPreset(ctx, prefix+" only", json.RawMessage(`{}`))
	l.Webhooks().MarkDelivery(ctx, "whd_"+prefix, "trc_"+prefix+"0", "trace.completed", "ok")
	l.CompanyList().AddInternal(ctx, []InternalEntry{{Number: "5125550101", Reason: "asked", By: prefix}, {Number: "5125550199", Reason: prefix}})
	l.CompanyList().RemoveInternal(ctx, "5125550199", "by mistake", prefix)
}

func count(t testing.TB, l *Ledger, table string) int {
	t.Helper()
	var n int
	if err := l.db.QueryRowContext(context.Background(), "SELECT COUNT(*) FROM "+table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// A computer's ledger moves into a team's whole; an interrupted move
// resumes without copying anything twice; a second computer's ledger joins
// the first's (the internal list is the union, a preset of the same name
// and other content keeps both). With -short the batches are smaller, and
// so is the ledger filled (the test's time is the filling of it).
func TestMoveIntoTeam(t *testing.T) {
	t.Parallel()
	local := sqliteStore().open(t)
	pg := postgresStore()
	team := pg.open(t)
	batch, more := moveBatch, 120
	if testing.Short() {
		batch, more = 20, 12
		team.batchRows = batch
	}
	n := batch + more
	fillLocal(t, local, n, "a")
	ctx, cancel := context.WithCancel(context.Background())
	// Interrupted after the first batch of submissions.
	_, err := team.MoveFrom(ctx, local, func(p MoveProgress) {
		if p.Part == "submissions" && p.Done >= batch {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("an interrupted move: %v", err)
	}
	if got := count(t, team, "submissions"); got != batch {
		t.Fatalf("%d submissions after the first batch, want %d", got, batch)
	}
	rep, err := team.MoveFrom(context.Background(), local, nil)
	if err != nil {
		t.Fatalf("resuming: %v", err)
	}
	if rep.Copied["submissions"] != n-batch || rep.Copied["jobs"] != n || rep.Copied["downloads"] != n {
		t.Fatalf("resumed move copied %v", rep.Copied)
	}
	for table, want := range map[string]int{"submissions": n, "jobs": n, "spend": n, "downloads": n, "presets": 2,
		"webhook_deliveries": 1, "internal_dnc": 1, "internal_dnc_log": 3} {
		if got := count(t, team, table); got != want {
			t.Errorf("%s: %d rows, want %d", table, got, want)
		}
	}
	if rep, _ := team.MoveFrom(context.Background(), local, nil); len(rep.Skipped) != len(MoveParts)-len(everyShare) ||
		rep.Copied["internal"] != 0 || rep.Copied["internal log"] != 0 {
		t.Fatalf("a finished move copied again: %v, skipped %v", rep.Copied, rep.Skipped)
	}
	ctx = context.Background()
	d, err := team.Jobs().JobDownload(ctx, "trc_a7")
	if err != nil || d.Path != "/lib/trc_a7.csv" {
		t.Fatalf("this computer's download after the move: %+v, %v", d, err)
	}
	s, err := team.Submissions().SubmissionForJob(ctx, "trc_a7")
	if err != nil || s.Computer != local.Team().Me().Computer || s.ComputerID != "id-laptop-1" {
		t.Fatalf("the moved submission: %+v, %v", s, err)
	}
	// Its content is still guarded, on the team's ledger.
	_, err = team.Submissions().RecordIntent(ctx, &Submission{Kind: jobs.KindTrace, FileName: "again.csv", FileHash: "a-h7",
		Mapping: map[string]string{"first_name": "F"}, Mode: jobs.ModeNormal})
	if !errors.Is(err, ErrClaimed) {
		t.Fatalf("a moved submission's file again: %v", err)
	}

	// A second computer joins.
	other := sqliteStore().open(t)
	fillLocal(t, other, 3, "b")
	other.CompanyList().AddInternal(ctx, []InternalEntry{{Number: "2145550100", Reason: "complaint"}})
	b := pg.other(t, team, "laptop-2")
	if _, err := b.MoveFrom(ctx, other, nil); err != nil {
		t.Fatal(err)
	}
	list, _ := team.CompanyList().InternalList(ctx)
	if len(list) != 2 {
		t.Fatalf("the team's list after the second move: %+v", list)
	}
	ps, _ := team.Saved().RawPresets(ctx)
	names := map[string]bool{}
	for _, p := range ps {
		names[p.Name] = true
	}
	if !names["county"] || !names["a only"] || !names["b only"] || len(ps) != 3 {
		t.Fatalf("presets %v", names)
	}
	if got := count(t, team, "jobs"); got != n+3 {
		t.Fatalf("%d jobs, want %d", got, n+3)
	}
}

// BenchmarkMove10k moves a computer's ledger of 10,000 jobs (each with its
// submission, spend and download) into a team's PostgreSQL database.
func BenchmarkMove10k(b *testing.B) {
	local := sqliteStore().open(b)
	fillLocal(b, local, 10_000, "a")
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		team := postgresStore().open(b)
		b.StartTimer()
		if _, err := team.MoveFrom(context.Background(), local, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// Sharing again moves the company's list again: a number this computer
// added on its own since (after it stopped sharing) reaches the team's
// list, once, with its history; a number the team took off after this
// computer added it stays off; nothing of the history is written twice.
func TestShareAgainMovesTheList(t *testing.T) {
	t.Parallel()
	s := newSharedThenStopped(t)
	ctx := context.Background()
	if err := s.mate.CompanyList().RemoveInternal(ctx, "5125550102", "the complaint was withdrawn", "laptop-2"); err != nil {
		t.Fatal(err)
	}
	kept := time.Date(2036, 1, 2, 0, 0, 0, 0, time.UTC)
	if _, err := s.mate.CompanyList().AddInternal(ctx, []InternalEntry{{Number: "2145550199", Reason: "litigator's client", KeepUntil: kept}}); err != nil {
		t.Fatal(err)
	}
	// Shared again with the computer's records as they were.
	logBefore := count(t, s.team, "internal_dnc_log")
	rep, err := s.team.MoveFrom(ctx, s.own, nil)
	if err != nil || rep.Copied["internal"] != 0 || rep.Copied["internal log"] != 0 {
		t.Fatalf("sharing again: %v, %v", rep.Copied, err)
	}
	checkTeamKeys(t, s.team, "[2145550199 5125550101]")
	// Stopped, a number added on its own, shared again.
	if _, err := s.own.CopyBack(ctx, s.team, nil); err != nil {
		t.Fatal(err)
	}
	checkKeepUntil(t, s.own, "2145550199", kept) // copied back with its date
	if _, err := s.own.CompanyList().AddInternal(ctx, []InternalEntry{{Number: "9725550100", Reason: "asked while on its own", KeepUntil: kept}}); err != nil {
		t.Fatal(err)
	}
	rep, err = s.team.MoveFrom(ctx, s.own, nil)
	if err != nil || rep.Copied["internal"] != 1 || rep.Copied["internal log"] != 1 {
		t.Fatalf("sharing after a stop: %v, %v", rep.Copied, err)
	}
	checkTeamKeys(t, s.team, "[2145550199 5125550101 9725550100]")
	checkKeepUntil(t, s.team, "9725550100", kept) // moved with its date
	if got := count(t, s.team, "internal_dnc_log"); got != logBefore+1 {
		t.Fatalf("the team's history: %d entries, want %d", got, logBefore+1)
	}
}

func checkTeamKeys(t *testing.T, team *Ledger, want string) {
	t.Helper()
	keys, err := team.CompanyList().InternalKeys(context.Background())
	if err != nil || fmt.Sprint(keys.Keys()) != want {
		t.Fatalf("the team's list: %v, %v; want %s", keys.Keys(), err, want)
	}
}

// checkKeepUntil: number is on l's list kept until want.
func checkKeepUntil(t *testing.T, l *Ledger, number string, want time.Time) {
	t.Helper()
	list, err := l.CompanyList().InternalList(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range list {
		if e.Number == number {
			if !e.KeepUntil.Equal(want) {
				t.Fatalf("%s kept until %v, want %v", number, e.KeepUntil, want)
			}
			return
		}
	}
	t.Fatalf("%s is not on the list", number)
}
