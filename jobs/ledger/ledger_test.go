package ledger

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/skipdesk/skipdesk/client/webhook"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/mapping"
	"github.com/skipdesk/skipdesk/jobs/sqldb/pgtest"
)

// The test binary doubles as a second process: with LEDGER_TEST_CHILD set it
// runs one of the child roles below instead of the tests.
func TestMain(m *testing.M) {
	switch os.Getenv("LEDGER_TEST_CHILD") {
	case "":
		os.Exit(pgtest.Main(m))
	case "hold":
		// Open the ledger, say so, and wait to be killed.
		l, err := Open(os.Getenv("LEDGER_TEST_DIR"))
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		defer l.Close()
		fmt.Println("locked")
		waitToBeKilled()
	case "sent":
		// Record an intent, mark it sent, say so, and wait to be killed:
		// what a crash right before the POST leaves behind.
		l, err := Open(os.Getenv("LEDGER_TEST_DIR"))
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		ctx := context.Background()
		id, err := l.Submissions().RecordIntent(ctx, &Submission{Kind: jobs.KindTrace, FileName: "crash.csv", FileHash: "abc", Rows: 3})
		if err == nil {
			err = l.Submissions().MarkSent(ctx, id)
		}
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		fmt.Println("sent", id)
		waitToBeKilled()
	}
}

// waitToBeKilled blocks the helper process until the test kills it: it
// waits for a signal that never comes (SIGKILL cannot be caught).
func waitToBeKilled() {
	never := make(chan os.Signal, 1)
	signal.Notify(never, os.Interrupt)
	<-never
	os.Exit(3)
}

func openTest(t *testing.T) (*Ledger, string) {
	t.Helper()
	dir := t.TempDir()
	return openAt(t, dir), dir
}

// openAt opens the ledger in dir, closed when the test ends.
func openAt(t testing.TB, dir string) *Ledger {
	t.Helper()
	l, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

func TestMigrateFromEmptyAndReopen(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	l := openAt(t, dir)
	ctx := context.Background()
	var v int
	if err := l.db.Raw().QueryRow("PRAGMA user_version").Scan(&v); err != nil || v != SchemaVersion {
		t.Fatalf("user_version = %d, %v; want %d", v, err, SchemaVersion)
	}
	for _, table := range []string{"submissions", "jobs", "spend", "downloads", "presets", "webhook_deliveries"} {
		var n int
		if err := l.db.Raw().QueryRow("SELECT COUNT(*) FROM sqlite_master WHERE type='table' AND name=?", table).Scan(&n); err != nil || n != 1 {
			t.Errorf("table %s: %d, %v", table, n, err)
		}
	}
	var mode string
	var sync, conns int
	l.db.Raw().QueryRow("PRAGMA journal_mode").Scan(&mode)
	l.db.Raw().QueryRow("PRAGMA synchronous").Scan(&sync)
	conns = l.db.Raw().Stats().MaxOpenConnections
	if mode != "wal" || sync != 2 || conns != 1 {
		t.Errorf("journal_mode = %q, synchronous = %d (2 is FULL), connections = %d; want wal, FULL, one writer", mode, sync, conns)
	}
	id, err := l.Submissions().RecordIntent(ctx, &Submission{Kind: jobs.KindTrace, FileName: "a.csv", Rows: 2})
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}

	l, err = Open(dir)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer l.Close()
	s, err := l.Submissions().Submission(ctx, id)
	if err != nil || s.FileName != "a.csv" || s.State != StateIntent || s.Rows != 2 {
		t.Fatalf("after reopen: %+v, %v", s, err)
	}
	if err := l.db.Raw().QueryRow("PRAGMA user_version").Scan(&v); err != nil || v != SchemaVersion {
		t.Fatalf("user_version after reopen = %d, %v", v, err)
	}
}

func TestNewerSchemaRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	l := openAt(t, dir)
	if _, err := l.db.Raw().Exec(fmt.Sprintf("PRAGMA user_version = %d", SchemaVersion+1)); err != nil {
		t.Fatal(err)
	}
	l.Close()
	if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Fatalf("Open of a newer schema: %v", err)
	}
	if _, err := OpenReadOnly(dir); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Fatalf("OpenReadOnly of a newer schema: %v", err)
	}
}

func TestSecondOpenInProcessIsLocked(t *testing.T) {
	t.Parallel()
	l, dir := openTest(t)
	_, err := Open(dir)
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("second Open: %v, want ErrLocked", err)
	}
	var le *LockedError
	if !errors.As(err, &le) || le.PID != os.Getpid() {
		t.Fatalf("second Open: %v, want the pid %d", err, os.Getpid())
	}
	if !strings.Contains(err.Error(), fmt.Sprintf("already running (pid %d)", os.Getpid())) {
		t.Fatalf("message %q", err)
	}
	l.Close()
	l2, err := Open(dir)
	if err != nil {
		t.Fatalf("Open after Close: %v", err)
	}
	l2.Close()
}

// startChild runs the test binary in a child role and returns it with the
// first line it printed.
func startChild(t *testing.T, role, dir string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "LEDGER_TEST_CHILD="+role, "LEDGER_TEST_DIR="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("child %s: %v", role, err)
	}
	return cmd, strings.TrimSpace(line)
}

func TestLockHeldByAnotherProcess(t *testing.T) {
	dir := t.TempDir()
	child, line := startChild(t, "hold", dir)
	if line != "locked" {
		t.Fatalf("child said %q", line)
	}
	start := time.Now()
	_, err := Open(dir)
	var le *LockedError
	if !errors.As(err, &le) || le.PID != child.Process.Pid {
		t.Fatalf("Open while another process holds it: %v, want ErrLocked naming pid %d", err, child.Process.Pid)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Fatalf("Open took %v to refuse: it must not wait", d)
	}
	// Readers are welcome while the other process runs.
	ro, err := OpenReadOnly(dir)
	if err != nil {
		t.Fatalf("OpenReadOnly while locked: %v", err)
	}
	if _, err := ro.Jobs().Entries(context.Background()); err != nil {
		t.Fatal(err)
	}
	ro.Close()

	// A crash releases the lock.
	child.Process.Kill()
	child.Wait()
	l, err := Open(dir)
	if err != nil {
		t.Fatalf("Open after the holder died: %v", err)
	}
	l.Close()
}

func TestCommittedStepSurvivesKill(t *testing.T) {
	dir := t.TempDir()
	child, line := startChild(t, "sent", dir)
	var id int64
	if _, err := fmt.Sscanf(line, "sent %d", &id); err != nil {
		t.Fatalf("child said %q", line)
	}
	child.Process.Kill() // SIGKILL: no deferred Close, no clean shutdown
	child.Wait()
	l := openAt(t, dir)
	s, err := l.Submissions().Submission(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if s.State != StateSent || s.SentAt.IsZero() || s.FileName != "crash.csv" {
		t.Fatalf("after a kill: %+v", s)
	}
	pending, err := l.Submissions().List(context.Background(), StateIntent, StateSent, StateUnknown)
	if err != nil || len(pending) != 1 || pending[0].ID != id {
		t.Fatalf("pending after a kill: %v, %v", pending, err)
	}
}

func TestReadOnly(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if _, err := OpenReadOnly(dir); !errors.Is(err, ErrNoLedger) {
		t.Fatalf("OpenReadOnly of nothing: %v", err)
	}
	l := openAt(t, dir)
	ctx := context.Background()
	ro, err := OpenReadOnly(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if err := l.Jobs().UpsertJob(ctx, Job{ID: "trc_1", Kind: jobs.KindTrace, Status: jobs.StatusProcessing, Name: "x.csv"}); err != nil {
		t.Fatal(err)
	}
	j, err := ro.Jobs().Job(ctx, "trc_1")
	if err != nil || j.Name != "x.csv" {
		t.Fatalf("read-only sees the writer's commit: %+v, %v", j, err)
	}
	if err := ro.Jobs().UpsertJob(ctx, Job{ID: "trc_2", Kind: jobs.KindTrace}); err == nil {
		t.Fatal("a read-only ledger accepted a write")
	}
}

// makeUnwritable makes path unwritable for this process: read-only mode,
// or, for root (whom modes do not stop), the immutable attribute. It skips
// the test when neither works here.
func makeUnwritable(t *testing.T, path string) {
	t.Helper()
	os.Chmod(path, 0o444)
	t.Cleanup(func() { os.Chmod(path, 0o644) })
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return
	}
	f.Close()
	if err := exec.Command("chattr", "+i", path).Run(); err != nil {
		t.Skipf("cannot make %s unwritable here (root without chattr)", path)
	}
	t.Cleanup(func() { exec.Command("chattr", "-i", path).Run() })
	if f, err := os.OpenFile(path, os.O_RDWR, 0); err == nil {
		f.Close()
		t.Skipf("cannot make %s unwritable here", path)
	}
}

// A ledger file that cannot be written is refused at Open, naming the file
// and the reason, instead of failing at the first step of a submission;
// reading it still works.
func TestUnwritableLedgerIsRefused(t *testing.T) {
	t.Parallel()
	l, dir := openTest(t)
	ctx := context.Background()
	if err := l.Jobs().UpsertJob(ctx, Job{ID: "trc_1", Kind: jobs.KindTrace, Status: jobs.StatusCompleted, Name: "x.csv"}); err != nil {
		t.Fatal(err)
	}
	l.Close()
	path := filepath.Join(dir, FileName)
	makeUnwritable(t, path)
	_, err := Open(dir)
	if !errors.Is(err, ErrNotWritable) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "cannot be written") {
		t.Fatalf("Open of an unwritable ledger: %v", err)
	}
	ro, err := OpenReadOnly(dir)
	if err != nil {
		t.Fatalf("reading an unwritable ledger: %v", err)
	}
	defer ro.Close()
	if j, err := ro.Jobs().Job(ctx, "trc_1"); err != nil || j.Name != "x.csv" {
		t.Fatalf("read back %+v, %v", j, err)
	}
	// The lock is not left held: once writable again, it opens.
	exec.Command("chattr", "-i", path).Run()
	os.Chmod(path, 0o644)
	l2, err := Open(dir)
	if err != nil {
		t.Fatalf("Open once writable again: %v", err)
	}
	l2.Close()
}

func TestSubmissionLifecycle(t *testing.T) {
	t.Parallel()
	eachLedger(t, func(t *testing.T, l *Ledger) {
		ctx := context.Background()
		s := &Submission{Kind: jobs.KindTrace, FileName: "owners.csv", FilePath: "/tmp/owners.csv", FileHash: "h1", FileSize: 10, Rows: 5,
			Mapping: map[string]string{"last_name": "Last", "first_name": "First"}, Mode: "normal", IncludeLLCs: true,
			Options: json.RawMessage(`{"drop_duplicates":true}`), Estimate: json.RawMessage(`{"credits":5}`)}
		id, err := l.Submissions().RecordIntent(ctx, s)
		if err != nil {
			t.Fatal(err)
		}
		if err := l.Submissions().MarkSent(ctx, id); err != nil {
			t.Fatal(err)
		}
		if err := l.Submissions().MarkCreated(ctx, id, Created{JobID: "trc_1", Charged: 5}); err != nil {
			t.Fatal(err)
		}
		if j, err := l.Jobs().Job(ctx, "trc_1"); err != nil || j.Kind != jobs.KindTrace {
			t.Fatalf("job of a created submission: %+v, %v", j, err)
		}
		id2, _ := l.Submissions().RecordIntent(ctx, &Submission{Kind: jobs.KindTrace, FileName: "b.csv"})
		if err := l.Submissions().MarkSent(ctx, id2); err != nil {
			t.Fatal(err)
		}
		if err := l.Submissions().MarkSent(ctx, id2); err == nil {
			t.Fatal("MarkSent twice accepted")
		}
		err = l.Submissions().MarkCreated(ctx, id2, Created{JobID: "trc_1", Charged: 5})
		if err == nil || !strings.Contains(err.Error(), "already belongs") {
			t.Fatalf("a job adopted twice: %v", err)
		}
		resp := json.RawMessage(`{"id":"trc_2","cost":7}`)
		if err := l.Submissions().MarkCreated(ctx, id2, Created{JobID: "trc_2", Response: resp, Charged: 7,
			Job: Job{Kind: jobs.KindTrace, Name: "b.csv", Status: jobs.StatusProcessing, TotalRows: 5}}); err != nil {
			t.Fatal(err)
		}
		got, err := l.Submissions().Submission(ctx, id2)
		if err != nil {
			t.Fatal(err)
		}
		if got.State != StateCreated || got.JobID != "trc_2" || string(got.Response) != string(resp) {
			t.Fatalf("created submission: %+v", got)
		}
		if err := l.Submissions().MarkUnknown(ctx, id2, "x"); err == nil {
			t.Fatal("a created submission became unknown")
		}
		checkJobOfSubmission(ctx, t, l, id2)
		checkUnknownThenNotCreated(ctx, t, l)
	})
}

// checkJobOfSubmission: the job a submission created is recorded with its
// spend, found from the submission and known to be adopted.
func checkJobOfSubmission(ctx context.Context, t *testing.T, l *Ledger, id2 int64) {
	t.Helper()
	j, err := l.Jobs().Job(ctx, "trc_2")
	if err != nil || j.Status != jobs.StatusProcessing || j.TotalRows != 5 {
		t.Fatalf("job: %+v, %v", j, err)
	}
	sp, _ := l.Jobs().JobSpend(ctx, "trc_2")
	if sp.Charged != 7 || sp.Refunded != 0 {
		t.Fatalf("spend: %+v", sp)
	}
	byJob, err := l.Submissions().SubmissionForJob(ctx, "trc_2")
	if err != nil || byJob.ID != id2 {
		t.Fatalf("SubmissionForJob: %+v, %v", byJob, err)
	}
	if ok, _ := l.Submissions().JobAdopted(ctx, "trc_2"); !ok {
		t.Fatal("JobAdopted(trc_2) = false")
	}
	if ok, _ := l.Submissions().JobAdopted(ctx, "trc_9"); ok {
		t.Fatal("JobAdopted(trc_9) = true")
	}
}

// checkUnknownThenNotCreated: a submission whose answer was lost becomes
// unknown, then not created once reconcile finds no job.
func checkUnknownThenNotCreated(ctx context.Context, t *testing.T, l *Ledger) {
	t.Helper()
	id3, _ := l.Submissions().RecordIntent(ctx, &Submission{Kind: jobs.KindDNC, FileName: "c.csv"})
	l.Submissions().MarkSent(ctx, id3)
	if err := l.Submissions().MarkUnknown(ctx, id3, "connection reset"); err != nil {
		t.Fatal(err)
	}
	if err := l.Submissions().MarkNotCreated(ctx, id3, "not found"); err != nil {
		t.Fatal(err)
	}
	got, _ := l.Submissions().Submission(ctx, id3)
	if got.State != StateNotCreated || got.ReconciledAt.IsZero() || got.Error != "not found" {
		t.Fatalf("not created: %+v", got)
	}
	if _, err := l.Submissions().Submission(ctx, 999); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing submission: %v", err)
	}
}

// The duplicate guard is a claim taken with the intent: the same content,
// mapping, mode, company rows and options (in any key order) is refused
// while a submission that may have been charged holds it; a submission that
// created nothing, one older than the window, or the person's "submit
// again" lets the next one through.
func TestFindDuplicate(t *testing.T) {
	t.Parallel()
	eachLedger(t, func(t *testing.T, l *Ledger) {
		ctx := context.Background()
		base := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
		l.now = func() time.Time { return base }
		mapping := map[string]string{"first_name": "F", "last_name": "L"}
		key := DuplicateKey{Kind: jobs.KindTrace, FileHash: "h", Mapping: mapping, Mode: "normal",
			Options: json.RawMessage(`{"b":1,"a":2}`)}
		since := base.Add(-24 * time.Hour)
		intent := func(created time.Time, opts string, m map[string]string, again bool) (int64, error) {
			return l.Submissions().RecordIntent(ctx, &Submission{Kind: jobs.KindTrace, FileName: "f.csv", FileHash: "h", Mode: "normal",
				Mapping: m, Options: json.RawMessage(opts), CreatedAt: created, Again: again})
		}
		if d, err := l.Submissions().FindDuplicate(ctx, key, since); err != nil || d != nil {
			t.Fatalf("empty ledger: %v, %v", d, err)
		}
		// Created 25 hours ago: outside the window.
		old, err := intent(base.Add(-25*time.Hour), `{"a":2,"b":1}`, mapping, false)
		if err != nil {
			t.Fatal(err)
		}
		l.Submissions().MarkSent(ctx, old)
		if d, _ := l.Submissions().FindDuplicate(ctx, key, since); d != nil {
			t.Fatalf("a submission older than the window counts: %+v", d)
		}
		// Created nothing: free again.
		none, err := intent(base.Add(-time.Hour), `{"a":2,"b":1}`, mapping, false)
		if err != nil {
			t.Fatalf("the window's first submission: %v", err)
		}
		l.Submissions().MarkSent(ctx, none)
		if err := l.Submissions().MarkNotCreated(ctx, none, "refused"); err != nil {
			t.Fatal(err)
		}
		// Other options or another mapping are other submissions.
		for _, c := range []struct {
			opts string
			m    map[string]string
		}{{`{"a":3}`, mapping}, {`{"a":2,"b":1}`, map[string]string{"first_name": "F"}}} {
			if _, err := intent(base.Add(-time.Hour), c.opts, c.m, false); err != nil {
				t.Fatalf("a different submission refused: %v", err)
			}
		}
		if d, _ := l.Submissions().FindDuplicate(ctx, key, since); d != nil {
			t.Fatalf("found a duplicate among non-matching submissions: %+v", d)
		}
		want, err := intent(base.Add(-2*time.Hour), `{"a":2,"b":1}`, map[string]string{"last_name": "L", "first_name": "F"}, false)
		if err != nil {
			t.Fatal(err)
		}
		l.Submissions().MarkSent(ctx, want)
		l.Submissions().MarkUnknown(ctx, want, "lost")
		d, err := l.Submissions().FindDuplicate(ctx, key, since)
		if err != nil || d == nil || d.ID != want {
			t.Fatalf("FindDuplicate = %+v, %v; want submission %d", d, err, want)
		}
		_, err = intent(base, `{"b":1,"a":2}`, mapping, false)
		var ce *ClaimedError
		if !errors.As(err, &ce) || ce.Holder != want {
			t.Fatalf("the same submission again: %v, want a claim held by %d", err, want)
		}
		again, err := intent(base, `{"b":1,"a":2}`, mapping, true)
		if err != nil {
			t.Fatalf("submit again: %v", err)
		}
		if d, _ := l.Submissions().FindDuplicate(ctx, key, since); d == nil || d.ID != again {
			t.Fatalf("after submitting again the holder is %+v, want %d", d, again)
		}
		other := key
		other.IncludeLLCs = true
		if d, _ := l.Submissions().FindDuplicate(ctx, other, since); d != nil {
			t.Fatal("include_llcs ignored by the duplicate check")
		}
	})
}

func TestUpsertJobNeverRegresses(t *testing.T) {
	t.Parallel()
	eachLedger(t, func(t *testing.T, l *Ledger) {
		ctx := context.Background()
		created := time.Date(2026, 1, 2, 3, 4, 5, 6e6, time.UTC)
		must := func(err error) {
			t.Helper()
			if err != nil {
				t.Fatal(err)
			}
		}
		must(l.Jobs().UpsertJob(ctx, Job{ID: "dnc_1", Kind: jobs.KindDNC, Name: "p.csv", Status: jobs.StatusProcessing, CreatedAt: created, TotalRows: 9,
			Last: json.RawMessage(`{"status":"processing"}`)}))
		inflight, _ := l.Jobs().InFlight(ctx)
		if len(inflight) != 1 {
			t.Fatalf("in flight: %d", len(inflight))
		}
		done := created.Add(time.Minute)
		must(l.Jobs().UpsertJob(ctx, Job{ID: "dnc_1", Kind: jobs.KindDNC, Status: jobs.StatusCompleted, CompletedAt: done, Last: json.RawMessage(`{"status":"completed"}`)}))
		must(l.Jobs().UpsertJob(ctx, Job{ID: "dnc_1", Kind: jobs.KindDNC, Status: jobs.StatusProcessing, Last: json.RawMessage(`{"status":"processing"}`)}))
		j, err := l.Jobs().Job(ctx, "dnc_1")
		if err != nil {
			t.Fatal(err)
		}
		if j.Status != jobs.StatusCompleted || string(j.Last) != `{"status":"completed"}` || !j.CompletedAt.Equal(done) ||
			!j.CreatedAt.Equal(created) || j.Name != "p.csv" || j.TotalRows != 9 {
			t.Fatalf("job after a stale update: %+v", j)
		}
		inflight, _ = l.Jobs().InFlight(ctx)
		if len(inflight) != 0 {
			t.Fatalf("a completed job is in flight: %+v", inflight)
		}
		nd, _ := l.Jobs().NotDownloaded(ctx)
		if len(nd) != 1 || nd[0].ID != "dnc_1" {
			t.Fatalf("not downloaded: %+v", nd)
		}
		must(l.Jobs().SetSpend(ctx, "dnc_1", Spend{Charged: 9, Refunded: 2}))
		must(l.Jobs().RecordDownload(ctx, Download{JobID: "dnc_1", Path: "/lib/p.csv", Size: 100, SHA256: "ABC", Rows: 9}))
		nd, _ = l.Jobs().NotDownloaded(ctx)
		if len(nd) != 0 {
			t.Fatalf("downloaded job still listed: %+v", nd)
		}
		d, err := l.Jobs().JobDownload(ctx, "dnc_1")
		if err != nil || d.SHA256 != "abc" || d.Rows != 9 {
			t.Fatalf("download: %+v, %v", d, err)
		}
		must(l.Jobs().UpsertJob(ctx, Job{ID: "s1", Kind: jobs.KindSingle, Status: jobs.StatusCompleted}))
		entries, err := l.Jobs().Entries(ctx)
		if err != nil || len(entries) != 2 {
			t.Fatalf("entries: %+v, %v", entries, err)
		}
		var e Entry
		for _, x := range entries {
			if x.ID == "dnc_1" {
				e = x
			}
		}
		if e.Spend.Net() != 7 || e.Download == nil || e.Download.Path != "/lib/p.csv" {
			t.Fatalf("entry: %+v", e)
		}
		total, _ := l.Jobs().TotalSpend(ctx)
		if total != (Spend{Charged: 9, Refunded: 2}) {
			t.Fatalf("total spend %+v", total)
		}
	})
}

func TestPresetsAndDeliveriesPersist(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, st store) {
		l := st.open(t)
		ctx := context.Background()
		if err := l.Saved().SaveRawPreset(ctx, "county", json.RawMessage(`{"first_name":"Owner 1"}`)); err != nil {
			t.Fatal(err)
		}
		if err := l.Saved().SaveRawPreset(ctx, "county", json.RawMessage(`{"first_name":"Owner"}`)); err != nil {
			t.Fatal(err)
		}
		if err := l.Saved().SaveRawPreset(ctx, "bad", json.RawMessage(`{`)); err == nil {
			t.Fatal("invalid JSON preset accepted")
		}
		first, err := l.Webhooks().MarkDelivery(ctx, "whd_1", "trc_1", "trace.completed", "ok")
		if err != nil || !first {
			t.Fatalf("first delivery: %v, %v", first, err)
		}
		first, err = l.Webhooks().MarkDelivery(ctx, "whd_1", "trc_1", "trace.completed", "ok")
		if err != nil || first {
			t.Fatalf("repeated delivery: %v, %v", first, err)
		}
		l = st.reopen(t, l)
		ps, err := l.Saved().RawPresets(ctx)
		if err != nil || len(ps) != 1 || string(ps[0].Data) != `{"first_name":"Owner"}` {
			t.Fatalf("presets after reopen: %+v, %v", ps, err)
		}
		if seen, _ := l.Webhooks().SeenDelivery(ctx, "whd_1"); !seen {
			t.Fatal("delivery forgotten across a restart")
		}
		if first, _ := l.Webhooks().MarkDelivery(ctx, "whd_1", "trc_1", "trace.completed", "ok"); first {
			t.Fatal("delivery handled again after a restart")
		}
		if err := l.Saved().DeleteRawPreset(ctx, "county"); err != nil {
			t.Fatal(err)
		}
		if ps, _ := l.Saved().RawPresets(ctx); len(ps) != 0 {
			t.Fatalf("presets after delete: %+v", ps)
		}
	})
}

var _ = sql.ErrNoRows

func TestPresetStoreOrderAndRoundTrip(t *testing.T) {
	t.Parallel()
	eachLedger(t, func(t *testing.T, l *Ledger) {
		st := PresetStore{L: l}
		var _ mapping.PresetStore = st
		a := mapping.NewPreset("a", []string{"First", "Last"}, jobs.KindTrace, mapping.Mapping{"first_name": "First"}, "normal", true)
		b := mapping.NewPreset("b", []string{"Phone"}, jobs.KindDNC, mapping.Mapping{"phone": "Phone"}, "", false)
		for _, p := range []mapping.Preset{a, b, a} {
			if err := st.SavePreset(p); err != nil {
				t.Fatal(err)
			}
		}
		ps, err := st.Presets()
		if err != nil {
			t.Fatal(err)
		}
		if len(ps) != 2 || ps[0].Name != "b" || ps[1].Name != "a" {
			t.Fatalf("presets, oldest saved first: %+v", ps)
		}
		if ps[1].Signature != a.Signature || ps[1].Mapping["first_name"] != "First" || !ps[1].IncludeLLCs {
			t.Fatalf("round trip: %+v", ps[1])
		}
		got, err := mapping.MatchPreset(st, []string{"last", "first"}, jobs.KindTrace)
		if err != nil || got == nil || got.Name != "a" {
			t.Fatalf("MatchPreset through the ledger: %+v, %v", got, err)
		}
		if err := st.DeletePreset("a"); err != nil {
			t.Fatal(err)
		}
		if err := st.DeletePreset("missing"); err != nil {
			t.Fatal(err)
		}
		if ps, _ := st.Presets(); len(ps) != 1 {
			t.Fatalf("after delete: %+v", ps)
		}
	})
}

func TestDeliveryDedupe(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, st store) {
		l := st.open(t)
		var d webhook.Dedupe = DeliveryDedupe{L: l}
		if seen, err := d.Seen("delivery:whd_9"); err != nil || seen {
			t.Fatalf("first: %v, %v", seen, err)
		}
		if seen, _ := d.Seen("delivery:whd_9"); !seen {
			t.Fatal("second sighting not reported")
		}
		if seen, _ := d.Seen("job:trace.completed:trc_7:completed"); seen {
			t.Fatal("new job key reported as seen")
		}
		var jobID, event, status string
		l.db.QueryRowContext(context.Background(), "SELECT job_id, event, status FROM webhook_deliveries WHERE delivery_id = ?", "job:trace.completed:trc_7:completed").Scan(&jobID, &event, &status)
		if jobID != "trc_7" || event != "trace.completed" || status != "completed" {
			t.Fatalf("recorded %q %q %q", jobID, event, status)
		}
		l2 := st.reopen(t, l)
		if seen, _ := (DeliveryDedupe{L: l2}).Seen("delivery:whd_9"); !seen {
			t.Fatal("dedupe forgot across a restart")
		}
	})
}

// A damaged ledger file is refused with a message that names it, and is
// left exactly as it was: it still records what was charged.
func TestDamagedLedgerIsRefused(t *testing.T) {
	t.Parallel()
	// A healthy ledger with enough jobs to span many pages.
	good := t.TempDir()
	l := openAt(t, good)
	ctx := context.Background()
	var states []JobState
	for i := range 300 {
		states = append(states, JobState{Job: Job{ID: fmt.Sprintf("trc_%04d", i), Kind: jobs.KindTrace, Name: strings.Repeat("n", 100),
			Status: jobs.StatusProcessing}, Spend: Spend{Charged: 3}})
	}
	if err := l.Jobs().RecordJobStates(ctx, states); err != nil {
		t.Fatal(err)
	}
	l.Close() // checkpoints the WAL into the file
	healthy, err := os.ReadFile(filepath.Join(good, FileName))
	if err != nil {
		t.Fatal(err)
	}
	if len(healthy) < 8*4096 {
		t.Fatalf("the healthy ledger has only %d bytes", len(healthy))
	}
	noise := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(i*7919 + 13)
		}
		return b
	}
	for name, damage := range map[string]func([]byte) []byte{
		"garbage":   func(b []byte) []byte { return noise(len(b)) },
		"header":    func(b []byte) []byte { copy(b, "not a database!!"); return b },
		"page":      func(b []byte) []byte { copy(b[5*4096:], noise(4096)); return b },
		"cut short": func(b []byte) []byte { return b[:len(b)/3+100] },
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, FileName)
			bad := damage(append([]byte(nil), healthy...))
			if err := os.WriteFile(path, bad, 0o600); err != nil {
				t.Fatal(err)
			}
			_, err := Open(dir)
			if !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "damaged") {
				t.Fatalf("Open of a damaged ledger: %v", err)
			}
			if _, err := OpenReadOnly(dir); !errors.Is(err, ErrDamaged) {
				t.Fatalf("OpenReadOnly of a damaged ledger: %v", err)
			}
			after, _ := os.ReadFile(path)
			if !bytes.Equal(after, bad) {
				t.Fatal("the damaged ledger was changed")
			}
			// The refusal released the lock: once the file is moved
			// aside, a new ledger opens in the same folder.
			if err := os.Rename(path, path+".damaged"); err != nil {
				t.Fatal(err)
			}
			for _, ext := range []string{"-wal", "-shm"} {
				os.Remove(path + ext)
			}
			l, err := Open(dir)
			if err != nil {
				t.Fatalf("a fresh ledger beside the damaged one: %v", err)
			}
			l.Close()
		})
	}
}

// An older ledger is brought up to date by the migrations it lacks, each
// in its own transaction, keeping what it holds.
func TestMigrationUpgradesOlderLedger(t *testing.T) {
	dir := t.TempDir()
	l := openAt(t, dir)
	ctx := context.Background()
	id, err := l.Submissions().RecordIntent(ctx, &Submission{Kind: jobs.KindTrace, FileName: "kept.csv", Rows: 7})
	if err != nil {
		t.Fatal(err)
	}
	l.Close()

	// A newer SkipDesk with two more schema steps, the second of which
	// fails the first time it runs.
	saved, savedVersion := sqliteSchema, SchemaVersion
	t.Cleanup(func() { sqliteSchema, SchemaVersion = saved, savedVersion })
	next := func(n int) string { return fmt.Sprintf("%05d_next.sql", savedVersion+n) }
	newer := withFiles(t, saved, map[string]string{
		next(1): `ALTER TABLE submissions ADD COLUMN note TEXT NOT NULL DEFAULT 'v2';`,
		next(2): `CREATE TABLE extra (x INTEGER); INSERT INTO no_such_table VALUES (1);`})
	sqliteSchema, SchemaVersion = newer, savedVersion+2
	if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("schema %d", savedVersion+2)) {
		t.Fatalf("a failing migration: %v", err)
	}
	// The first step stayed; the failed one left nothing behind.
	ro, err := sql.Open("sqlite", "file:"+filepath.Join(dir, FileName)+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	var v, extra int
	ro.QueryRow("PRAGMA user_version").Scan(&v)
	ro.QueryRow("SELECT COUNT(*) FROM sqlite_master WHERE name = 'extra'").Scan(&extra)
	ro.Close()
	if v != savedVersion+1 || extra != 0 {
		t.Fatalf("after a failed step: version %d, extra table %d; want %d, 0", v, extra, savedVersion+1)
	}

	sqliteSchema = withFiles(t, saved, map[string]string{
		next(1): `ALTER TABLE submissions ADD COLUMN note TEXT NOT NULL DEFAULT 'v2';`,
		next(2): `CREATE TABLE extra (x INTEGER);`})
	l, err = Open(dir)
	if err != nil {
		t.Fatalf("resuming the upgrade: %v", err)
	}
	defer l.Close()
	if err := l.db.Raw().QueryRow("PRAGMA user_version").Scan(&v); err != nil || v != savedVersion+2 {
		t.Fatalf("version %d, %v", v, err)
	}
	var note string
	if err := l.db.Raw().QueryRow("SELECT note FROM submissions WHERE id = ?", id).Scan(&note); err != nil || note != "v2" {
		t.Fatalf("the upgraded row: %q, %v", note, err)
	}
	if s, err := l.Submissions().Submission(ctx, id); err != nil || s.FileName != "kept.csv" || s.Rows != 7 {
		t.Fatalf("the submission after the upgrade: %+v, %v", s, err)
	}
}

// withFiles is fsys with more migration files.
func withFiles(t *testing.T, fsys fs.FS, more map[string]string) fs.FS {
	t.Helper()
	out := fstest.MapFS{}
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := fs.ReadFile(fsys, e.Name())
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = &fstest.MapFile{Data: b}
	}
	for name, q := range more {
		out[name] = &fstest.MapFile{Data: []byte("-- +goose Up\n" + q + "\n")}
	}
	return out
}

// The company list's pages are checked where the list is read, not at
// open (a list of a million numbers is most of the file): a damaged page
// of it is a DamagedError naming the file when the list is read, for the
// set a callable export checks as for the listing, never a silent answer.
func TestDamagedListIsRefusedWhereRead(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	l := openAt(t, dir)
	ctx := context.Background()
	fillList(t, l, 5000)
	var root int64
	if err := l.db.QueryRowContext(ctx, "SELECT rootpage FROM sqlite_schema WHERE tbl_name = 'internal_dnc' AND type = 'index'").Scan(&root); err != nil {
		t.Fatal(err)
	}
	var pageSize int64
	l.db.QueryRowContext(ctx, "PRAGMA page_size").Scan(&pageSize)
	l.Close()
	path := filepath.Join(dir, FileName)
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	noise := make([]byte, pageSize)
	for i := range noise {
		noise[i] = byte(i*7919 + 13)
	}
	if _, err := f.WriteAt(noise, (root-1)*pageSize); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for name, open := range map[string]func(string) (*Ledger, error){"Open": Open, "OpenReadOnly": OpenReadOnly} {
		l, err := open(dir)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := l.CompanyList().InternalKeys(ctx); !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: the list's set from a damaged page: %v", name, err)
		}
		if _, _, err := l.CompanyList().FindInternal(ctx, InternalFilter{Digits: "2125550001"}); !errors.Is(err, ErrDamaged) {
			t.Errorf("%s: a search of a damaged page: %v", name, err)
		}
		l.Close()
	}
}
