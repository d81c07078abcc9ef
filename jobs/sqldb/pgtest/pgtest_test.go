package pgtest

import (
	"context"
	"database/sql"
	"os"
	"testing"
)

func TestMain(m *testing.M) { os.Exit(Main(m)) }

// A database a finished test gave back reaches the next test empty (its
// tables gone, and with them the migrations' record), under another name:
// a connection that outlived the test is cut, and the old name no longer
// opens anything.
func TestGivenBackDatabaseIsEmptyUnderAnotherName(t *testing.T) {
	ctx := context.Background()
	var first string
	var leftOpen *sql.DB
	t.Run("first", func(t *testing.T) {
		first = URL(t)
		leftOpen = open(t, first)
		for _, q := range []string{"CREATE TABLE kept (id INTEGER)", "INSERT INTO kept VALUES (1)", "CREATE SEQUENCE seq"} {
			if _, err := leftOpen.ExecContext(ctx, q); err != nil {
				t.Fatal(err)
			}
		}
	})
	if leftOpen != nil {
		defer leftOpen.Close()
	}
	if srv != nil && len(srv.spare) != 1 {
		t.Fatalf("%d databases given back after the first test, want 1", len(srv.spare))
	}
	second := URL(t)
	if second == first {
		t.Fatalf("the next test got the same name: %s", second)
	}
	db := open(t, second)
	defer db.Close()
	var n int
	if err := db.QueryRowContext(ctx, "SELECT COUNT(*) FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace WHERE s.nspname = 'public'").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Fatalf("the database given back still holds %d relations", n)
	}
	if _, err := db.ExecContext(ctx, "CREATE TABLE kept (id INTEGER)"); err != nil {
		t.Fatalf("a table of the same name in the emptied database: %v", err)
	}
	if err := leftOpen.PingContext(ctx); err == nil {
		t.Fatal("a connection the first test left open still reaches the server")
	}
	old := open(t, first)
	defer old.Close()
	if err := old.PingContext(ctx); err == nil {
		t.Fatal("the first test's database name still opens")
	}
}

func open(t *testing.T, url string) *sql.DB {
	t.Helper()
	db, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	return db
}
