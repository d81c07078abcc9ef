package workflow

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/jobs/sqldb"
)

// Two data folders copied from one, opened as two more computers of the
// same team: each notices it is a copy and takes an id of its own (the
// original keeps its id), keeps the copied history (the result downloaded
// before the copy is its own, in its own folder), and none of the three
// erases the others' entries in the team's index: a result the original
// downloads after the copy is found by the copies as the original's.
func TestCopiedDataFolderTakesItsOwnID(t *testing.T) {
	t.Parallel()
	tm := newTestTeam(t)
	a := tm.computer("front-desk", nil)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	first := submitted(ctx, t, a, ownerPlan(t, t.TempDir(), "First", 3))
	waitResult(ctx, t, a, first)
	if _, err := a.Library().IndexLibrary(ctx, "", nil); err != nil {
		t.Fatal(err)
	}
	original := a.Sessions().Settings().ComputerID

	var copies []*Service
	ids := map[string]string{original: "front-desk"}
	for _, name := range []string{"laptop-2", "laptop-3"} {
		home := filepath.Join(t.TempDir(), "SkipDesk")
		if err := os.CopyFS(home, os.DirFS(a.Sessions().Home())); err != nil {
			t.Fatal(err)
		}
		d := tm.computer(name, func(c *Config) { c.Home = home })
		if _, _, err := d.Jobs().List(ctx, 1); err != nil { // opens the team's ledger
			t.Fatal(err)
		}
		id := d.Sessions().Settings().ComputerID
		if other, taken := ids[id]; taken {
			t.Fatalf("%s has the id of %s: %s", name, other, id)
		}
		ids[id] = name
		if j := waitResult(ctx, t, d, first); !strings.HasPrefix(j.ResultPath, home) {
			t.Errorf("%s's copied result of %s: %q, want it in its own folder", name, first, j.ResultPath)
		}
		copies = append(copies, d)
	}
	if a.Sessions().Settings().ComputerID != original {
		t.Fatal("the original's id changed")
	}
	for _, d := range copies {
		if _, err := d.Library().IndexLibrary(ctx, "", nil); err != nil {
			t.Fatal(err)
		}
	}
	second := submitted(ctx, t, a, ownerPlan(t, t.TempDir(), "Second", 3))
	waitResult(ctx, t, a, second)
	if _, err := a.Library().IndexLibrary(ctx, "", nil); err != nil {
		t.Fatal(err)
	}
	for _, d := range copies {
		teammateHit(ctx, t, d, "AnnSecond", second, "front-desk") // each syncs its own folder first
	}
	for _, d := range copies {
		teammateHit(ctx, t, d, "AnnSecond", second, "front-desk")
	}
}

// Team messages name the right computer: a row of a result in the back
// office's library (fetched there from the front desk's job) is named by the
// back office, or, once the team's records no longer name that computer,
// by no one — never by the computer that submitted the job; the same file
// submitted again on another computer says who submitted it.
func TestTeamMessagesNameTheRightComputer(t *testing.T) {
	t.Parallel()
	tm := newTestTeam(t)
	a, b := tm.frontAndBack()
	c := tm.computer("upstairs", nil)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	plan := ownerPlan(t, t.TempDir(), "Named", 3)
	id := submitted(ctx, t, a, plan)
	waitResult(ctx, t, a, id)
	if _, err := a.Library().IndexLibrary(ctx, "", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := submitFile(ctx, b, plan, false); !errors.Is(err, ErrDuplicate) {
		t.Fatalf("the same file on the back office: %v", err)
	} else if p := Explain(err, ""); !strings.Contains(p.What, "from front-desk") {
		t.Errorf("the duplicate does not say who submitted it: %q", p.What)
	}
	hit := teammateHit(ctx, t, b, "AnnNamed", id, "front-desk")
	if _, err := b.Library().FetchResult(ctx, *hit, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Library().IndexLibrary(ctx, "", nil); err != nil {
		t.Fatal(err)
	}
	b.Close() // the back office's sessions end; it never submitted anything
	db := teamDB(ctx, t, tm.dbURL)
	if _, err := db.ExecContext(ctx, "DELETE FROM sessions WHERE computer = 'back-office'"); err != nil {
		t.Fatal(err)
	}
	items, err := c.Library().SearchLibrary(ctx, "AnnNamed")
	if err != nil {
		t.Fatal(err)
	}
	by := map[string]int{}
	for _, it := range items {
		if it.JobID == id {
			by[it.Teammate]++
		}
	}
	if by["front-desk"] == 0 || by["another computer"] == 0 || by["front-desk"] != by["another computer"] {
		t.Errorf("upstairs's search names the two copies %v: want each row once in front-desk's library and once in another computer's", by)
	}
}

// teamDB is the team's database, for a test to change what it holds.
func teamDB(ctx context.Context, t *testing.T, url string) *sqldb.DB {
	t.Helper()
	db, err := sqldb.OpenPostgres(ctx, url, sqldb.PostgresOptions{AppName: "test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
