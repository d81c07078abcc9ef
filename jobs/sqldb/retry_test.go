package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/skipdesk/skipdesk/jobs/sqldb/pgtest"
)

// noPauses makes the pauses between tries return at once, recording them.
func noPauses(t *testing.T, then func(n int)) *[]time.Duration {
	t.Helper()
	var got []time.Duration
	old := pause
	pause = func(ctx context.Context, d time.Duration) error {
		got = append(got, d)
		if then != nil {
			then(len(got))
		}
		return ctx.Err()
	}
	t.Cleanup(func() { pause = old })
	return &got
}

// codedError is an error with a SQLite result code, as modernc.org/sqlite's.
type codedError int

func (e codedError) Error() string { return "database is locked" }
func (e codedError) Code() int     { return int(e) }

func TestRetryable(t *testing.T) {
	for _, c := range []struct {
		err  error
		want bool
	}{
		{classify(&pgconn.PgError{Code: "40P01", Message: "deadlock detected"}, "db", nil), true},
		{classify(&pgconn.PgError{Code: "40001", Message: "could not serialize access"}, "db", nil), true},
		{classify(&pgconn.PgError{Code: "23505", Message: "duplicate key"}, "db", nil), false},
		{classify(&pgconn.PgError{Code: "42P01", Message: "no such table"}, "db", nil), false},
		{codedError(5), true},
		{codedError(5 | 2<<8), true}, // SQLITE_BUSY_SNAPSHOT
		{codedError(6), true},
		{codedError(19), false}, // a constraint
		{errors.New("deadlock detected"), false},
		{nil, false},
	} {
		if _, got := Retryable(c.err); got != c.want {
			t.Errorf("Retryable(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}

// A change the database refuses every time is tried Retry.Tries times,
// with growing pauses no longer than Retry.Max, and then fails with a
// *BusyError in words: no SQLSTATE, no engine text.
func TestRetryIsBoundedAndInWords(t *testing.T) {
	pauses := noPauses(t, nil)
	d := &DB{engine: Postgres, desc: `the team database "team" on db.example`}
	tries := 0
	err := d.retrying(context.Background(), func() error {
		tries++
		return classify(&pgconn.PgError{Code: "40P01", Message: "deadlock detected"}, d.desc, nil)
	})
	if tries != Retry.Tries || len(*pauses) != Retry.Tries-1 {
		t.Fatalf("%d tries, %d pauses; want %d tries", tries, len(*pauses), Retry.Tries)
	}
	for i, p := range *pauses {
		if p <= 0 || p > Retry.Max {
			t.Errorf("pause %d: %v", i, p)
		}
	}
	if last := (*pauses)[len(*pauses)-1]; last < Retry.First {
		t.Errorf("the pauses do not grow: %v", *pauses)
	}
	var be *BusyError
	if !errors.As(err, &be) || !errors.Is(err, ErrBusy) {
		t.Fatalf("after the last try: %v", err)
	}
	if msg := err.Error(); strings.Contains(msg, "SQLSTATE") || strings.Contains(msg, "40P01") || !strings.Contains(msg, "nothing of it was recorded") ||
		!strings.Contains(msg, "db.example") {
		t.Fatalf("the message: %q", msg)
	}
}

// A context that ends stops the tries.
func TestRetryObeysTheContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	d := &DB{engine: SQLite, desc: "t.db"}
	tries := 0
	err := d.retrying(ctx, func() error {
		tries++
		cancel()
		return codedError(5)
	})
	if !errors.Is(err, context.Canceled) || tries != 1 {
		t.Fatalf("%d tries, %v", tries, err)
	}
}

// PostgreSQL: a transaction that read a row another changed meanwhile
// (repeatable read: "could not serialize access", 40001) is run again and
// succeeds.
func TestInTxRetriesASerializationFailure(t *testing.T) {
	noPauses(t, nil)
	d := openPG(t)
	ctx := context.Background()
	mustExec(t, d, "CREATE TABLE s (id INTEGER PRIMARY KEY, v INTEGER)")
	mustExec(t, d, "INSERT INTO s VALUES (1, 0)")
	tries := 0
	err := d.InTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead}, func(tx *Tx) error {
		tries++
		var v int
		if err := tx.QueryRowContext(ctx, "SELECT v FROM s WHERE id = 1").Scan(&v); err != nil {
			return err
		}
		if tries == 1 {
			mustExec(t, d, "UPDATE s SET v = v + 100 WHERE id = 1") // another connection's change
		}
		_, err := tx.ExecContext(ctx, "UPDATE s SET v = ? WHERE id = 1", v+1)
		return err
	})
	if err != nil || tries != 2 {
		t.Fatalf("%d tries: %v", tries, err)
	}
	var v int
	d.QueryRowContext(ctx, "SELECT v FROM s WHERE id = 1").Scan(&v)
	if v != 101 {
		t.Fatalf("v = %d, want 101: the second try read the other change", v)
	}
}

// PostgreSQL: two transactions that lock two rows in opposite orders
// deadlock; the one the server ends (40P01) is run again and succeeds, and
// the other was never disturbed.
func TestInTxRetriesADeadlock(t *testing.T) {
	// The second try starts once the other transaction has committed.
	committed := make(chan struct{})
	noPauses(t, func(int) { <-committed })
	d := openPG(t)
	ctx := context.Background()
	mustExec(t, d, "CREATE TABLE k (id INTEGER PRIMARY KEY, v INTEGER)")
	mustExec(t, d, "INSERT INTO k VALUES (1, 0), (2, 0)")
	other, err := d.Raw().Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	// The other transaction waits a minute before it looks for a deadlock:
	// the one under test (50 ms) is the one the server ends.
	for _, q := range []string{"BEGIN", "SET LOCAL deadlock_timeout = '60s'", "UPDATE k SET v = v + 1 WHERE id = 1"} {
		if _, err := other.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	holds2 := make(chan struct{})
	done := make(chan error, 1)
	tries := 0
	go func() {
		done <- d.InTx(ctx, nil, func(tx *Tx) error {
			tries++
			for _, q := range []string{"SET LOCAL deadlock_timeout = '50ms'", "UPDATE k SET v = v + 10 WHERE id = 2"} {
				if _, err := tx.ExecContext(ctx, q); err != nil {
					return err
				}
			}
			if tries == 1 {
				close(holds2)
			}
			_, err := tx.ExecContext(ctx, "UPDATE k SET v = v + 10 WHERE id = 1")
			return err
		})
	}()
	<-holds2
	if _, err := other.ExecContext(ctx, "UPDATE k SET v = v + 1 WHERE id = 2"); err != nil {
		t.Fatalf("the other transaction was ended: %v", err)
	}
	if _, err := other.ExecContext(ctx, "COMMIT"); err != nil {
		t.Fatal(err)
	}
	close(committed)
	if err := <-done; err != nil || tries != 2 {
		t.Fatalf("%d tries: %v", tries, err)
	}
	var a, b int
	d.QueryRowContext(ctx, "SELECT (SELECT v FROM k WHERE id = 1), (SELECT v FROM k WHERE id = 2)").Scan(&a, &b)
	if a != 11 || b != 11 {
		t.Fatalf("rows %d and %d, want 11 and 11", a, b)
	}
}

// SQLite: a write while another connection holds the write lock fails
// busy; it is run again once the lock is let go.
func TestInTxRetriesSQLiteBusy(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	open := func() *sql.DB {
		raw, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)")
		if err != nil {
			t.Fatal(err)
		}
		raw.SetMaxOpenConns(1)
		t.Cleanup(func() { raw.Close() })
		return raw
	}
	d := Wrap(open(), SQLite, path)
	ctx := context.Background()
	mustExec(t, d, "CREATE TABLE t (x INTEGER)")
	holder, err := open().Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	if _, err := holder.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	noPauses(t, func(n int) {
		if n == 2 {
			holder.ExecContext(ctx, "COMMIT")
		}
	})
	tries := 0
	err = d.InTx(ctx, nil, func(tx *Tx) error {
		tries++
		_, err := tx.ExecContext(ctx, "INSERT INTO t VALUES (1)")
		return err
	})
	if err != nil || tries != 3 {
		t.Fatalf("%d tries: %v", tries, err)
	}
}

func openPG(t *testing.T) *DB {
	t.Helper()
	d, err := OpenPostgres(context.Background(), pgtest.URL(t), PostgresOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

func mustExec(t *testing.T, d *DB, q string) {
	t.Helper()
	if _, err := d.ExecContext(context.Background(), q); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}
