package ledger

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
)

// A ledger written by the release before teams (schema 3) opens, is
// upgraded, and keeps everything it held: its submissions (a recent one
// still guards against paying twice), jobs, spend, downloads (now this
// computer's), presets in their order, and the internal list.
func TestSchema3LedgerUpgrades(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	raw, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"00001_first.sql", "00002_tags.sql", "00003_internal_dnc.sql"} {
		b, err := fs.ReadFile(sqliteSchema, name)
		if err != nil {
			t.Fatal(err)
		}
		_, up, _ := strings.Cut(string(b), "-- +goose Up")
		if _, err := raw.Exec(up); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	now := time.Now().UnixMilli()
	for _, q := range []string{
		fmt.Sprintf(`INSERT INTO submissions (created_at, kind, state, file_name, file_hash, mapping, mode, options, job_id, updated_at, tag, source_hash)
			VALUES (%d, 'trace', 'created', 'owners [sd-aaaaa].csv', 'h1', '{"first_name":"F"}', 'normal', '{"drop_duplicates":true}', 'trc_1', %d, 'sd-aaaaa', 's1')`, now-3600_000, now),
		fmt.Sprintf(`INSERT INTO jobs (job_id, kind, name, status, total_rows, created_at, updated_at) VALUES ('trc_1', 'trace', 'owners', 'completed', 12, %d, %d)`, now-3600_000, now),
		fmt.Sprintf(`INSERT INTO spend (job_id, charged, refunded, updated_at) VALUES ('trc_1', 12, 3, %d)`, now),
		fmt.Sprintf(`INSERT INTO downloads (job_id, path, size, sha256, rows, downloaded_at) VALUES ('trc_1', '/lib/owners.csv', 99, 'ab', 12, %d)`, now),
		fmt.Sprintf(`INSERT INTO presets (name, data, updated_at) VALUES ('second', '{}', %d), ('first', '{}', %d)`, now, now),
		fmt.Sprintf(`INSERT INTO internal_dnc (number, added_at, reason, added_by) VALUES ('5125550101', %d, 'asked', 'laptop')`, now),
		`PRAGMA user_version = 3`,
	} {
		if _, err := raw.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	raw.Close()

	l, err := Open(dir)
	if err != nil {
		t.Fatalf("opening a schema-3 ledger: %v", err)
	}
	defer l.Close()
	ctx := context.Background()
	var v int
	l.db.Raw().QueryRow("PRAGMA user_version").Scan(&v)
	if v != SchemaVersion {
		t.Fatalf("user_version %d, want %d", v, SchemaVersion)
	}
	d, err := l.Jobs().JobDownload(ctx, "trc_1")
	if err != nil || d.Path != "/lib/owners.csv" || d.Rows != 12 {
		t.Fatalf("the download after the upgrade: %+v, %v", d, err)
	}
	if nd, _ := l.Jobs().NotDownloaded(ctx); len(nd) != 0 {
		t.Fatalf("a downloaded result is to download again: %+v", nd)
	}
	if sp, _ := l.Jobs().JobSpend(ctx, "trc_1"); sp.Net() != 9 {
		t.Fatalf("spend %+v", sp)
	}
	ps, _ := l.Saved().RawPresets(ctx)
	if len(ps) != 2 || ps[0].Name != "second" || ps[1].Name != "first" {
		t.Fatalf("presets in the order saved: %+v", ps)
	}
	if list, _ := l.CompanyList().InternalList(ctx); len(list) != 1 || list[0].By != "laptop" {
		t.Fatalf("internal list: %+v", list)
	}
	// The submission of an hour ago still guards its content.
	key := DuplicateKey{Kind: jobs.KindTrace, FileHash: "other-bytes", SourceHash: "s1", Mapping: map[string]string{"first_name": "F"},
		Mode: "normal", Options: json.RawMessage(`{"drop_duplicates":true}`)}
	dup, err := l.Submissions().FindDuplicate(ctx, key, time.Now().Add(-24*time.Hour))
	if err != nil || dup == nil || dup.JobID != "trc_1" {
		t.Fatalf("the recent submission's guard: %+v, %v", dup, err)
	}
	_, err = l.Submissions().RecordIntent(ctx, &Submission{Kind: jobs.KindTrace, FileName: "owners.csv", FileHash: "h1", Mapping: map[string]string{"first_name": "F"},
		Mode: "normal", Options: json.RawMessage(`{"drop_duplicates":true}`)})
	if !errors.Is(err, ErrClaimed) {
		t.Fatalf("the same file again after the upgrade: %v", err)
	}
}

// Two computers submitting the same file at the same moment: one intent is
// recorded, the others are refused naming it. Run many times: a
// read-then-write guard lets two through now and then.
func TestClaimsAcrossComputers(t *testing.T) {
	t.Parallel()
	a, b := twoComputers(t)
	ctx := context.Background()
	for round := range 25 {
		var ok atomic.Int32
		var holders sync.Map
		var wg sync.WaitGroup
		for i, l := range []*Ledger{a, b, a, b} {
			wg.Go(func() {
				id, err := l.Submissions().RecordIntent(ctx, &Submission{Kind: jobs.KindDNC, FileName: "phones.csv",
					FileHash: fmt.Sprintf("h%d", round), Mapping: map[string]string{"phone": "Phone"}})
				var ce *ClaimedError
				switch {
				case err == nil:
					ok.Add(1)
					holders.Store(i, id)
				case errors.As(err, &ce):
					holders.Store(i, -ce.Holder)
				default:
					t.Errorf("round %d: %v", round, err)
				}
			})
		}
		wg.Wait()
		if ok.Load() != 1 {
			t.Fatalf("round %d: %d intents recorded, want 1", round, ok.Load())
		}
		var winner int64
		holders.Range(func(_, v any) bool {
			if id := v.(int64); id > 0 {
				winner = id
			}
			return true
		})
		holders.Range(func(_, v any) bool {
			if id := v.(int64); id < 0 && -id != winner {
				t.Errorf("round %d: refused naming %d, the intent recorded is %d", round, -id, winner)
			}
			return true
		})
		s, err := b.Submissions().Submission(ctx, winner)
		if err != nil || s.Computer == "" || s.Session == "" {
			t.Fatalf("the recorded intent: %+v, %v", s, err)
		}
	}
}

// An unknown submission is settled once, whichever computers try at the
// same moment; a job is adopted by one submission only.
func TestSettledOnce(t *testing.T) {
	t.Parallel()
	a, b := twoComputers(t)
	ctx := context.Background()
	for round := range 15 {
		id, err := a.Submissions().RecordIntent(ctx, &Submission{Kind: jobs.KindTrace, FileName: "o.csv", FileHash: fmt.Sprintf("s%d", round), Mapping: map[string]string{"x": "y"}})
		if err != nil {
			t.Fatal(err)
		}
		a.Submissions().MarkSent(ctx, id)
		a.Submissions().MarkUnknown(ctx, id, "lost")
		job := fmt.Sprintf("trc_r%d", round)
		var wins atomic.Int32
		var wg sync.WaitGroup
		for i, l := range []*Ledger{a, b, b} {
			wg.Go(func() {
				var err error
				if i == 2 {
					err = l.Submissions().MarkNotCreated(ctx, id, "nothing found")
				} else {
					err = l.Submissions().MarkCreated(ctx, id, Created{JobID: job, Charged: 4, Adopted: true, Job: Job{Kind: jobs.KindTrace, Status: jobs.StatusProcessing}})
				}
				switch {
				case err == nil:
					wins.Add(1)
				case errors.Is(err, ErrSettled), errors.Is(err, ErrAdopted):
				default:
					t.Errorf("round %d: %v", round, err)
				}
			})
		}
		wg.Wait()
		if wins.Load() != 1 {
			t.Fatalf("round %d: settled %d times", round, wins.Load())
		}
		// Another submission cannot take the job.
		other, _ := b.Submissions().RecordIntent(ctx, &Submission{Kind: jobs.KindTrace, FileName: "p.csv", FileHash: fmt.Sprintf("p%d", round)})
		if s, _ := a.Submissions().Submission(ctx, id); s.State == StateCreated {
			if err := b.Submissions().MarkCreated(ctx, other, Created{JobID: job}); !errors.Is(err, ErrAdopted) {
				t.Fatalf("round %d: a job adopted twice: %v", round, err)
			}
		}
	}
}

// A job is followed by one SkipDesk at a time; when it closes, or
// disappears and its lease runs out, another takes it.
func TestLeases(t *testing.T) {
	t.Parallel()
	st := postgresStore()
	a := st.open(t)
	b := st.other(t, a, "laptop-2")
	c := st.other(t, a, "laptop-3")
	ctx := context.Background()
	ids := []string{"trc_1", "trc_2", "dnc_3"}
	for _, id := range ids {
		if err := a.Jobs().UpsertJob(ctx, Job{ID: id, Kind: jobs.KindTrace, Status: jobs.StatusProcessing}); err != nil {
			t.Fatal(err)
		}
	}
	held, err := a.Team().TakeLeases(ctx, ids[:2], time.Minute)
	if err != nil || len(held) != 2 {
		t.Fatalf("a: %v %v", held, err)
	}
	held, _ = b.Team().TakeLeases(ctx, ids, time.Minute)
	if len(held) != 1 || !held["dnc_3"] {
		t.Fatalf("b took %v, want only dnc_3", held)
	}
	if f, _ := c.Team().Followers(ctx); f["trc_1"] != "laptop-1" || f["dnc_3"] != "laptop-2" {
		t.Fatalf("followers %v", f)
	}
	// a renews; b still cannot take them. Each computer reads the
	// server's clock through its own measure of the skew, off by up to a
	// round trip: on a loaded machine a tenth of a second or more, so the
	// lease and the clock's move are seconds apart.
	if held, err := a.Team().TakeLeases(ctx, ids[:2], 5*time.Second); len(held) != 2 {
		t.Fatalf("renewal: %v %v", held, err)
	}
	if held, err := b.Team().TakeLeases(ctx, ids, time.Minute); len(held) != 1 {
		t.Fatalf("b took a held lease: %v %v", held, err)
	}
	// a disappears without a word: once its lease runs out (c's clock
	// moves past it), c takes over.
	c.db.Advance(10 * time.Second)
	if held, err := c.Team().TakeLeases(ctx, ids, time.Minute); len(held) != 2 || !held["trc_1"] || !held["trc_2"] {
		t.Fatalf("after a's lease ran out c took %v %v", held, err)
	}
	// b closes: its job is free at once.
	b.Close()
	if held, _ := c.Team().TakeLeases(ctx, ids, time.Minute); len(held) != 3 {
		t.Fatalf("after b closed c holds %v", held)
	}
}

// The computer that records a job at submission follows it: a teammate's
// tracker looking in the same instant does not take it, until the lease
// runs out without being renewed.
func TestSubmitterHoldsItsJob(t *testing.T) {
	t.Parallel()
	a, b := twoComputers(t)
	ctx := context.Background()
	// Seconds: each computer's reading of the server's clock is off by up
	// to a round trip (see TestLeases); nothing waits for them.
	a.Team().SetLeaseTTL(5 * time.Second)
	id, err := a.Submissions().RecordIntent(ctx, &Submission{Kind: jobs.KindTrace, FileName: "o.csv", FileHash: "held", Mapping: map[string]string{"x": "y"}})
	if err != nil {
		t.Fatal(err)
	}
	a.Submissions().MarkSent(ctx, id)
	if err := a.Submissions().MarkCreated(ctx, id, Created{JobID: "trc_held", Job: Job{Kind: jobs.KindTrace, Status: jobs.StatusProcessing}}); err != nil {
		t.Fatal(err)
	}
	if f, _ := b.Team().Followers(ctx); f["trc_held"] != "laptop-1" {
		t.Fatalf("followers right after submission: %v", f)
	}
	if held, _ := b.Team().TakeLeases(ctx, []string{"trc_held"}, time.Minute); held["trc_held"] {
		t.Fatal("a teammate took the job its submitter had just recorded")
	}
	if held, err := a.Team().TakeLeases(ctx, []string{"trc_held"}, 5*time.Second); !held["trc_held"] {
		t.Fatal("the submitter could not renew its lease:", err)
	}
	b.db.Advance(10 * time.Second) // the lease runs out for b
	if held, err := b.Team().TakeLeases(ctx, []string{"trc_held"}, time.Minute); !held["trc_held"] {
		t.Fatal("the lease ran out and the teammate still could not take the job:", err)
	}
}

// The budget is shared: however many SkipDesks take from it at once, the
// requests let through stay within burst + rate × time, and one that waits
// as told is not starved. The time is the database's clock, moved on by the
// shortest wait each round (no test waits on a budget in real time).
func TestBudgetShared(t *testing.T) {
	t.Parallel()
	eachStore(t, func(t *testing.T, st store) {
		a := st.open(t)
		ledgers := []*Ledger{a}
		if st.other != nil {
			ledgers = append(ledgers, st.other(t, a, "laptop-2"), st.other(t, a, "laptop-3"))
		}
		const rate, burst, span = 40.0, 5.0, time.Second
		start := a.db.Now()
		taken := 0
		for a.db.Now().Sub(start) < span {
			n, wait := budgetRound(t, ledgers, rate, burst)
			taken += n
			for _, l := range ledgers {
				l.db.Advance(wait)
			}
		}
		elapsed := a.db.Now().Sub(start).Seconds()
		limit := burst + rate*elapsed
		got := float64(taken)
		t.Logf("%s: %v requests in %.2f s of the database's time (limit %.0f)", st.name, got, elapsed, limit)
		if got > limit+1 {
			t.Fatalf("%v requests let through in %.2f s; the budget allows %.0f", got, elapsed, limit)
		}
		if got < limit*0.5 {
			t.Fatalf("only %v requests in %.2f s: the budget starves its users (allows %.0f)", got, elapsed, limit)
		}
	})
}

// budgetRound has six SkipDesks, spread over ledgers, take from the budget
// at once until each is told to wait; it returns how many requests went and
// the shortest wait.
func budgetRound(t *testing.T, ledgers []*Ledger, rate, burst float64) (int, time.Duration) {
	t.Helper()
	var taken atomic.Int64
	waits := make([]time.Duration, 6)
	var wg sync.WaitGroup
	for i := range waits {
		l := ledgers[i%len(ledgers)]
		wg.Go(func() {
			for {
				wait, err := l.Team().TakeBudget(context.Background(), "read", rate, burst)
				if err != nil {
					t.Error(err)
					return
				}
				if wait > 0 {
					waits[i] = wait
					return
				}
				taken.Add(1)
			}
		})
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	return int(taken.Load()), slices.Min(waits)
}

// Each SkipDesk on a team's ledger is a session with its computer's name;
// the names go with what it records.
func TestSessionsNameComputers(t *testing.T) {
	t.Parallel()
	a, b := twoComputers(t)
	ctx := context.Background()
	list, err := a.Team().Sessions(ctx)
	if err != nil || len(list) != 2 || list[0].Computer != "laptop-1" || list[1].Computer != "laptop-2" {
		t.Fatalf("sessions %+v, %v", list, err)
	}
	id, err := b.Submissions().RecordIntent(ctx, &Submission{Kind: jobs.KindTrace, FileName: "x.csv", FileHash: "x"})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.Submissions().MarkCreated(ctx, id, Created{JobID: "trc_9", Job: Job{Status: jobs.StatusProcessing}}); err != nil {
		t.Fatal(err)
	}
	entries, _ := a.Jobs().Entries(ctx)
	if len(entries) != 1 || entries[0].SubmittedBy != "laptop-2" {
		t.Fatalf("submitted by: %+v", entries)
	}
	b.Close()
	if list, _ := a.Team().Sessions(ctx); len(list) != 1 {
		t.Fatalf("a closed session is still listed: %+v", list)
	}
}

// twoComputers opens a new team database as laptop-1 (a) and as laptop-2.
func twoComputers(t *testing.T) (a, b *Ledger) {
	t.Helper()
	st := postgresStore()
	a = st.open(t)
	return a, st.other(t, a, "laptop-2")
}
