package index

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/skipdesk/skipdesk/jobs/library"
	"github.com/skipdesk/skipdesk/jobs/sqldb"
	"github.com/skipdesk/skipdesk/jobs/sqldb/pgtest"
)

// The tests that take a library run against both engines: a computer's own
// SQLite index and a team's PostgreSQL database (a throwaway server,
// skipped with the reason where PostgreSQL is not installed).

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// eachEngine runs f against each engine: openIndex opens the engine the
// subtest's name says.
func eachEngine(t *testing.T, f func(t *testing.T)) {
	t.Run("sqlite", f)
	t.Run("postgres", f)
}

// onPostgres reports whether t runs against PostgreSQL.
func onPostgres(t testing.TB) bool {
	n := t.Name()
	return strings.HasPrefix(n[strings.LastIndex(n, "/")+1:], "postgres")
}

// openIndex opens a new, empty index of the folder dir: a SQLite file in
// root, or a new team database where dir is this computer's place.
func openIndex(t testing.TB, root, dir string) *Index {
	t.Helper()
	if !onPostgres(t) {
		x, err := Open(filepath.Join(root, "index.db"), dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { x.Close() })
		return x
	}
	return openShared(t, pgtest.URL(t), "computer-a", dir)
}

// openShared opens the team index at url as the computer named place.
func openShared(t testing.TB, url, place, dir string) *Index {
	t.Helper()
	ctx := context.Background()
	db, err := sqldb.OpenPostgres(ctx, url, sqldb.PostgresOptions{AppName: place})
	if err != nil {
		t.Fatal(err)
	}
	x, err := OpenShared(ctx, db, place, dir)
	if err != nil {
		db.Close()
		t.Fatal(err)
	}
	t.Cleanup(func() { x.Close(); db.Close() })
	return x
}

// twoComputers are two library folders indexed in one team's database.
func twoComputers(t *testing.T) (a, b *lib) {
	url := pgtest.URL(t)
	dirA, dirB := filepath.Join(t.TempDir(), "results"), filepath.Join(t.TempDir(), "results")
	os.MkdirAll(dirA, 0o755)
	os.MkdirAll(dirB, 0o755)
	return &lib{t: t, dir: dirA, x: openShared(t, url, "computer-a", dirA)}, &lib{t: t, dir: dirB, x: openShared(t, url, "computer-b", dirB)}
}

// Two computers share a team's index: each one's Sync keeps its own
// folder's entries and leaves the other's; a search and the look-ups of
// earlier traces and scrubs see both folders; a row of the other computer's
// file is named (its job and row) but not read.
func TestTwoComputersShareOneIndex(t *testing.T) {
	a, b := twoComputers(t)
	a.put("owners 2026-11-02 abc123.csv", traceCSV, traceMeta("trc_abc123", day))
	b.put("phones 2026-11-03 def456.csv", dncCSV, dncMeta("dnc_def456", day.Add(24*time.Hour)))
	// The same name in both folders is two entries.
	b.put("owners 2026-11-02 abc123.csv", traceCSV, traceMeta("trc_abc123", day))
	if rep := a.sync(); rep.Indexed != 1 {
		t.Fatalf("computer A: %+v", rep)
	}
	if rep := b.sync(); rep.Indexed != 2 || rep.Removed != 0 {
		t.Fatalf("computer B: %+v", rep)
	}
	if rep := a.sync(); rep.Changed() {
		t.Fatalf("computer A again: %+v", rep)
	}
	ctx := context.Background()
	hits := a.search("(512) 555-0102")
	if len(hits) != 3 {
		t.Fatalf("hits from A: %+v", hits)
	}
	var here, there int
	for _, h := range hits {
		switch {
		case h.Path == "":
			there++
			if h.JobID == "" || h.Row == 0 || len(h.Fields) != 0 {
				t.Errorf("a hit in B's folder: %+v", h)
			}
		case filepath.Dir(h.Path) == a.dir && len(h.Fields) > 0:
			here++
		default:
			t.Errorf("hit %+v", h)
		}
	}
	if here != 1 || there != 2 {
		t.Errorf("%d hits in A's folder, %d in B's", here, there)
	}
	// A trace of B's folder and a scrub of B's are seen from A.
	var key string
	for _, r := range must(a.x.Find(ctx, "john.smith@example.com", 0)) {
		_ = a.x.Rows(ctx, []Ref{r}, func(_ int, row Row) error { key = row.OwnerKey; return nil })
	}
	if key == "" {
		t.Fatal("no owner key read from A's own file")
	}
	traced := must(a.x.Traced(ctx, []string{key}))
	var places []string
	for _, es := range traced {
		for _, e := range es {
			places = append(places, e.Place)
			if (e.Place == "computer-a") != (e.Path != "") {
				t.Errorf("earlier trace %+v", e)
			}
		}
	}
	slices.Sort(places)
	if !slices.Equal(places, []string{"computer-a", "computer-b"}) {
		t.Errorf("traced in %v", places)
	}
	sc := must(a.x.Scrubbed(ctx, []uint64{5125550102}, day))
	if s, ok := sc[5125550102]; !ok || s.Place != "computer-b" || s.Path != "" {
		t.Errorf("scrubbed: %+v", sc)
	}
	// B's row cannot be read from A.
	var bRef Ref
	for _, es := range traced {
		for _, e := range es {
			if e.Place == "computer-b" {
				bRef = e.Ref
			}
		}
	}
	if err := a.x.Rows(ctx, []Ref{bRef}, func(int, Row) error { return nil }); !errors.Is(err, ErrElsewhere) {
		t.Errorf("reading B's row from A: %v", err)
	}
	// A file removed from B's folder goes from the index; A's stays.
	os.Remove(filepath.Join(b.dir, "owners 2026-11-02 abc123.csv"))
	if rep := b.sync(); rep.Removed != 1 {
		t.Fatalf("B after a removal: %+v", rep)
	}
	if got := len(a.search("(512) 555-0102")); got != 2 {
		t.Errorf("%d hits after B's removal, want 2", got)
	}
}

// A search of a team's index sees the files another computer synced or
// removed since this computer's last search (what a search keeps of the
// files it found is never stale).
func TestSearchSeesTheOtherComputersSync(t *testing.T) {
	a, b := twoComputers(t)
	a.put("owners 2026-11-02 abc123.csv", traceCSV, traceMeta("trc_abc123", day))
	a.sync()
	first := func() []library.Hit {
		t.Helper()
		return must(a.x.Search(context.Background(), "(512) 555-0102", 1))
	}
	if h := first(); len(h) != 1 || h[0].JobID != "trc_abc123" || h[0].Path == "" {
		t.Fatalf("before B's sync: %+v", h)
	}
	// B's newer result is found first, from A, without A syncing.
	b.put("phones 2026-11-03 def456.csv", dncCSV, dncMeta("dnc_def456", day.Add(24*time.Hour)))
	b.sync()
	if h := first(); len(h) != 1 || h[0].JobID != "dnc_def456" || h[0].Path != "" || h[0].Row != 2 {
		t.Fatalf("after B's sync: %+v", h)
	}
	if got := len(a.search("(512) 555-0102")); got != 2 {
		t.Errorf("%d hits after B's sync, want 2", got)
	}
	// Gone from B's folder, gone from A's search.
	os.Remove(filepath.Join(b.dir, "phones 2026-11-03 def456.csv"))
	b.sync()
	if h := first(); len(h) != 1 || h[0].JobID != "trc_abc123" {
		t.Fatalf("after B's removal: %+v", h)
	}
	if got := len(a.search("(512) 555-0102")); got != 1 {
		t.Errorf("%d hits after B's removal, want 1", got)
	}
}

// An index of an older version (5: before files.place; 6: before every
// list was kept apart) is rebuilt from the files, then serves as ever.
func TestOlderVersionIsRebuilt(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "results")
	os.MkdirAll(dir, 0o755)
	path := filepath.Join(root, "index.db")
	v5, err := schemaFS.ReadFile("schema/sqlite/00005_index.sql")
	if err != nil {
		t.Fatal(err)
	}
	exec(t, path, string(v5)+"PRAGMA user_version = 5;")
	x, err := Open(path, dir)
	if err != nil {
		t.Fatal(err)
	}
	l := &lib{t: t, dir: dir, x: x}
	defer x.Close()
	if !strings.Contains(x.Rebuilt(), "schema version 5") {
		t.Fatalf("an index of version 5: rebuilt %q", x.Rebuilt())
	}
	var v int
	x.db.Raw().QueryRow("PRAGMA user_version").Scan(&v)
	if v != schemaVersion {
		t.Fatalf("user_version %d", v)
	}
	l.put("owners 2026-11-02 abc123.csv", traceCSV, traceMeta("trc_abc123", day))
	if rep := l.sync(); rep.Indexed != 1 || len(l.search("smith")) == 0 {
		t.Fatalf("%+v", rep)
	}
}

// The end of a prefix's range is valid UTF-8 (PostgreSQL takes nothing
// else) and above every string starting with the prefix.
func TestPrefixEndRune(t *testing.T) {
	for _, p := range []string{"smi", "o", "ωμέ", "mari\u00bf", "z\U0010fffe", "y\U0010ffff"} {
		e := prefixEndRune(p)
		if !utf8.ValidString(e) || e <= p || e <= p+"\U0010ffff" {
			t.Errorf("%q: %q", p, e)
		}
	}
}
