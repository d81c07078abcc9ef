package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/skipdesk/skipdesk/jobs/sqldb/pgtest"
	_ "modernc.org/sqlite"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

func TestRebind(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"SELECT 1", "SELECT 1"},
		{"SELECT a FROM t WHERE b = ? AND c IN (?, ?)", "SELECT a FROM t WHERE b = $1 AND c IN ($2, $3)"},
		{"SELECT '?' FROM t WHERE b = ?", "SELECT '?' FROM t WHERE b = $1"},
		{`SELECT "a?b" FROM t WHERE b = ? -- what?` + "\nAND c = ?", `SELECT "a?b" FROM t WHERE b = $1 -- what?` + "\nAND c = $2"},
		{"INSERT INTO t VALUES (?, 'it''s ?', ?)", "INSERT INTO t VALUES ($1, 'it''s ?', $2)"},
	} {
		if got := rebind(c.in); got != c.want {
			t.Errorf("rebind(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if got := Placeholders(2, 3); got != "(?, ?, ?), (?, ?, ?)" {
		t.Errorf("Placeholders = %q", got)
	}
}

func TestRedact(t *testing.T) {
	for _, c := range []struct{ conn, text, leak string }{
		{"postgres://ann:s3cr%21t@db.example:5432/team", "failed for postgres://ann:s3cr%21t@db.example:5432/team: s3cr!t", "s3cr"},
		{"host=db user=ann password=hunter22 dbname=team", "password=hunter22 was wrong; hunter22", "hunter22"},
		{"host=db user=ann password='two words' dbname=team", "it said two words", "two words"},
		{"postgres://db.example/team?password=qwerty99", "connecting to postgres://db.example/team?password=qwerty99 (qwerty99)", "qwerty99"},
	} {
		got := Redact(c.text, c.conn)
		if strings.Contains(got, c.leak) {
			t.Errorf("Redact(%q) = %q: still holds %q", c.text, got, c.leak)
		}
		if r := RedactConnString(c.conn); strings.Contains(r, c.leak) {
			t.Errorf("RedactConnString(%q) = %q", c.conn, r)
		}
	}
	if got := Redact("nothing secret", "postgres://ann@db/team"); got != "nothing secret" {
		t.Errorf("a string without a password changed: %q", got)
	}
}

func TestBadConnString(t *testing.T) {
	for _, conn := range []string{"", "postgres://ann:pw123456@db.example:notaport/team", "host=db password='unterminated pw123456"} {
		_, err := OpenPostgres(context.Background(), conn, PostgresOptions{})
		if !errors.Is(err, ErrBadConnString) {
			t.Errorf("%q: %v, want ErrBadConnString", conn, err)
			continue
		}
		if strings.Contains(err.Error(), "pw123456") {
			t.Errorf("the error shows the password: %v", err)
		}
	}
}

// engines runs f against a new SQLite file and a new PostgreSQL database.
func engines(t *testing.T, f func(t *testing.T, d *DB)) {
	t.Run("sqlite", func(t *testing.T) {
		raw, err := sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "t.db"))
		if err != nil {
			t.Fatal(err)
		}
		raw.SetMaxOpenConns(1)
		t.Cleanup(func() { raw.Close() })
		f(t, Wrap(raw, SQLite, "t.db"))
	})
	t.Run("postgres", func(t *testing.T) {
		d, err := OpenPostgres(context.Background(), pgtest.URL(t), PostgresOptions{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { d.Close() })
		f(t, d)
	})
}

func migrations(files ...string) fstest.MapFS {
	fs := fstest.MapFS{}
	for i, f := range files {
		fs[fmt.Sprintf("%05d_step.sql", i+1)] = &fstest.MapFile{Data: []byte("-- +goose Up\n" + f + "\n")}
	}
	return fs
}

// Migrations apply in order, each with its version; a failing one leaves
// nothing behind and the ones before it applied; a database of a newer
// schema is refused.
func TestMigrate(t *testing.T) {
	engines(t, func(t *testing.T, d *DB) {
		ctx := context.Background()
		steps := []string{"CREATE TABLE a (x INTEGER);", "INSERT INTO a (x) VALUES (7);", "CREATE TABLE b (y INTEGER); INSERT INTO no_such_table VALUES (1);"}
		err := Migrate(ctx, d, migrations(steps...), "test_version")
		var se *StepError
		if !errors.As(err, &se) || se.Version != 3 {
			t.Fatalf("a failing third step: %v", err)
		}
		if v, err := Version(ctx, d, "test_version"); err != nil || v != 2 {
			t.Fatalf("version after the failure: %d, %v; want 2", v, err)
		}
		var n int
		if err := d.QueryRowContext(ctx, "SELECT COUNT(*) FROM b").Scan(&n); err == nil {
			t.Fatal("the failed step's table exists")
		}
		steps[2] = "CREATE TABLE b (y INTEGER);"
		var gone bool
		step := GoStep{Version: 4, Up: func(ctx context.Context, tx *Tx) error {
			gone = true
			_, err := tx.ExecContext(ctx, "INSERT INTO b (y) VALUES (?)", 42)
			return err
		}}
		if err := Migrate(ctx, d, migrations(steps...), "test_version", step); err != nil {
			t.Fatalf("resuming: %v", err)
		}
		var x, y int
		if err := d.QueryRowContext(ctx, "SELECT a.x, b.y FROM a, b").Scan(&x, &y); err != nil || x != 7 || y != 42 || !gone {
			t.Fatalf("after the upgrade: %d %d %v", x, y, err)
		}
		if v, _ := Version(ctx, d, "test_version"); v != 4 {
			t.Fatalf("version %d, want 4", v)
		}
		var ne *NewerError
		if err := Migrate(ctx, d, migrations(steps[:2]...), "test_version"); !errors.As(err, &ne) || ne.Have != 4 || ne.Know != 2 {
			t.Fatalf("an older SkipDesk on a newer database: %v", err)
		}
	})
}

// A SQLite file keeps its version in user_version, so a ledger written
// before goose (user_version 2) carries on from there.
func TestSQLiteVersionIsUserVersion(t *testing.T) {
	raw, err := sql.Open("sqlite", "file:"+filepath.Join(t.TempDir(), "old.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	raw.SetMaxOpenConns(1)
	if _, err := raw.Exec("CREATE TABLE a (x INTEGER); INSERT INTO a VALUES (1); CREATE TABLE b (y INTEGER); PRAGMA user_version = 2;"); err != nil {
		t.Fatal(err)
	}
	d := Wrap(raw, SQLite, "old.db")
	ctx := context.Background()
	fs := migrations("CREATE TABLE a (x INTEGER);", "CREATE TABLE b (y INTEGER);", "ALTER TABLE a ADD COLUMN z TEXT NOT NULL DEFAULT 'new';")
	if err := Migrate(ctx, d, fs, ""); err != nil {
		t.Fatal(err)
	}
	var v int
	var z string
	raw.QueryRow("PRAGMA user_version").Scan(&v)
	if err := raw.QueryRow("SELECT z FROM a WHERE x = 1").Scan(&z); err != nil || v != 3 || z != "new" {
		t.Fatalf("user_version %d, z %q, %v", v, z, err)
	}
	var tables int
	raw.QueryRow("SELECT COUNT(*) FROM sqlite_master WHERE name LIKE 'goose%'").Scan(&tables)
	if tables != 0 {
		t.Fatal("goose made a table of its own in the SQLite file")
	}
}

// A server that goes away is ErrUnreachable, and comes back by itself; a
// wrong password is ErrRefused; no message holds the password.
func TestUnreachableAndRefused(t *testing.T) {
	url := pgtest.URL(t)
	proxy, viaProxy := pgtest.NewProxy(t, url)
	ctx := context.Background()
	d, err := OpenPostgres(ctx, viaProxy, PostgresOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, err := d.ExecContext(ctx, "CREATE TABLE t (x INTEGER)"); err != nil {
		t.Fatal(err)
	}
	proxy.Cut()
	cctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	_, err = d.ExecContext(cctx, "INSERT INTO t VALUES (?)", 1)
	if !errors.Is(err, ErrUnreachable) {
		t.Fatalf("with the server away: %v, want ErrUnreachable", err)
	}
	if strings.Contains(err.Error(), pgtest.Password()) {
		t.Fatalf("the password is in %q", err)
	}
	proxy.Restore()
	// The pool's cut connections are dropped as bad and a new one dialled:
	// the first statement once the server is back works.
	if _, err = d.ExecContext(ctx, "INSERT INTO t VALUES (?)", 2); err != nil {
		t.Fatalf("after the server came back: %v", err)
	}

	bad := strings.Replace(url, pgtest.Password(), "wrong-"+pgtest.Password()[:6], 1)
	_, err = OpenPostgres(ctx, bad, PostgresOptions{})
	if !errors.Is(err, ErrRefused) {
		t.Fatalf("a wrong password: %v, want ErrRefused", err)
	}
	if strings.Contains(err.Error(), "wrong-") {
		t.Fatalf("the password is in %q", err)
	}
}

func TestConflict(t *testing.T) {
	engines(t, func(t *testing.T, d *DB) {
		ctx := context.Background()
		if _, err := d.ExecContext(ctx, "CREATE TABLE u (k TEXT PRIMARY KEY)"); err != nil {
			t.Fatal(err)
		}
		d.ExecContext(ctx, "INSERT INTO u VALUES (?)", "a")
		_, err := d.ExecContext(ctx, "INSERT INTO u VALUES (?)", "a")
		if !IsConflict(err) {
			t.Fatalf("a second row of the same key: %v", err)
		}
	})
}
