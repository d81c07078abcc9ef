package ledger

import (
	"context"
	"testing"

	"github.com/skipdesk/skipdesk/jobs/sqldb"
	"github.com/skipdesk/skipdesk/jobs/sqldb/pgtest"
)

// The store suite: the tests that take a store run against both engines, a
// computer's own SQLite ledger and a team's PostgreSQL database (a
// throwaway server, skipped with the reason where PostgreSQL is not
// installed).

// store is one engine's ledger under test.
type store struct {
	name string
	// open is a new, empty ledger.
	open func(t testing.TB) *Ledger
	// reopen closes l and opens the same ledger again (a restart).
	reopen func(t testing.TB, l *Ledger) *Ledger
	// other opens the same ledger as another computer would (nil for
	// SQLite: one writer at a time).
	other func(t testing.TB, l *Ledger, computer string) *Ledger
}

// eachStore runs f against each engine.
func eachStore(t *testing.T, f func(t *testing.T, st store)) {
	t.Run("sqlite", func(t *testing.T) { f(t, sqliteStore()) })
	t.Run("postgres", func(t *testing.T) { f(t, postgresStore()) })
}

// eachLedger runs f on a new, empty ledger of each engine.
func eachLedger(t *testing.T, f func(t *testing.T, l *Ledger)) {
	eachStore(t, func(t *testing.T, st store) { f(t, st.open(t)) })
}

func sqliteStore() store {
	dirs := map[*Ledger]string{}
	st := store{name: "sqlite"}
	st.open = func(t testing.TB) *Ledger {
		t.Helper()
		dir := t.TempDir()
		l := openAt(t, dir)
		dirs[l] = dir
		return l
	}
	st.reopen = func(t testing.TB, l *Ledger) *Ledger {
		t.Helper()
		l.Close()
		l2 := openAt(t, dirs[l])
		dirs[l2] = dirs[l]
		return l2
	}
	return st
}

func postgresStore() store {
	urls := map[*Ledger]string{}
	st := store{name: "postgres"}
	connect := func(t testing.TB, url, computer string) *Ledger {
		t.Helper()
		ctx := context.Background()
		db, err := sqldb.OpenPostgres(ctx, url, sqldb.PostgresOptions{AppName: computer})
		if err != nil {
			t.Fatal(err)
		}
		l, err := OpenShared(ctx, db, Who{ComputerID: "id-" + computer, Computer: computer})
		if err != nil {
			db.Close()
			t.Fatal(err)
		}
		t.Cleanup(func() { l.Close(); db.Close() })
		urls[l] = url
		return l
	}
	st.open = func(t testing.TB) *Ledger { return connect(t, pgtest.URL(t), "laptop-1") }
	st.reopen = func(t testing.TB, l *Ledger) *Ledger {
		l.Close()
		return connect(t, urls[l], l.Team().Me().Computer)
	}
	st.other = func(t testing.TB, l *Ledger, computer string) *Ledger { return connect(t, urls[l], computer) }
	return st
}
