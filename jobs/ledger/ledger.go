// Package ledger is SkipDesk's local record of everything that costs money or
// must not be lost: submissions (the intent written before a job-creating
// POST, then its outcome), the last known state of every job, credits charged
// and refunded, downloaded results, mapping presets and the webhook deliveries
// already handled.
//
// A computer's own ledger is one SQLite database (WAL, synchronous=FULL)
// written through a single connection, and every method commits before it
// returns, so that a crash or a closed laptop lid loses nothing that a
// method reported as done. One process at a time may open it for writing:
// an exclusive lock on a file next to the database makes a second instance
// fail at once with ErrLocked instead of waiting on SQLite's busy handler.
// OpenReadOnly lets a command line tool read while the desktop app holds the
// lock. A damaged database file is refused at open (ErrDamaged) and left
// exactly as it was.
//
// A team's ledger is the same tables in a PostgreSQL database
// (OpenShared), written by several computers at once: what must happen once
// is a constraint or a conditional write there, never a read followed by a
// write (team.go: sessions, the duplicate guard's claims, leases on jobs,
// the shared request budget). The SQL is the same for both engines
// (jobs/sqldb rewrites the placeholders).
//
// The ledger never holds the API key, the webhook secret or the team
// database's connection string.
package ledger

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/skipdesk/skipdesk/jobs/sqldb"
	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// FileName is the database file name inside the SkipDesk home folder.
const FileName = "ledger.db"

// lockName is the lock file beside the database.
const lockName = "ledger.lock"

// ErrLocked is matched (errors.Is) by the error Open returns when another
// process holds the ledger. The error's text names that process.
var ErrLocked = errors.New("SkipDesk is already running")

// ErrNotFound is returned by lookups of a row that does not exist.
var ErrNotFound = errors.New("ledger: not found")

// ErrNoLedger is returned by OpenReadOnly when no ledger has been created yet.
var ErrNoLedger = errors.New("ledger: no ledger yet")

// LockedError says which process holds the ledger.
type LockedError struct {
	Path string // the lock file
	PID  int    // 0 when the holder did not write its pid
}

func (e *LockedError) Error() string {
	if e.PID > 0 {
		return fmt.Sprintf("SkipDesk is already running (pid %d); close it first (lock %s)", e.PID, e.Path)
	}
	return fmt.Sprintf("SkipDesk is already running; close it first (lock %s)", e.Path)
}

// Is makes errors.Is(err, ErrLocked) true.
func (e *LockedError) Is(target error) bool { return target == ErrLocked }

// book is the state of an open ledger that its parts share: the database,
// the clock and who writes.
type book struct {
	db       *sqldb.DB
	path     string // the SQLite file; "" for a team's database
	readOnly bool
	unlock   func() error
	// now is the clock; tests replace it.
	now func() time.Time
	// me is who writes: the computer and this SkipDesk's session (team.go).
	me Who
	// stopBeat ends the session's heartbeat (a team's ledger).
	stopBeat func()
	// leaseTTL is how long the lease this SkipDesk takes on a job it
	// records at submission lasts (a team's ledger; SetLeaseTTL).
	leaseTTL atomic.Int64
	// batchRows is how many rows a move copies in one transaction
	// (moveBatch where 0; tests make it smaller).
	batchRows int

	closeOnce sync.Once
	closeErr  error
}

// Open opens the ledger in dir for reading and writing, creating dir and the
// database when needed and bringing the schema up to date. It fails at once
// with an error matching ErrLocked when another process (or another Open in
// this process) has it open.
func Open(dir string) (*Ledger, error) {
	path := filepath.Join(dir, FileName)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, notWritable(path, err)
	}
	makePrivate(dir)
	unlock, err := lockFile(filepath.Join(dir, lockName))
	if err != nil {
		var pe *fs.PathError
		if !errors.Is(err, ErrLocked) && errors.As(err, &pe) {
			return nil, notWritable(path, err)
		}
		return nil, err
	}
	// SQLite creates the database readable by everyone (0644, whatever the
	// umask), and its -wal and -shm files with the database's permissions:
	// the database is created here first, private, and older files made
	// private.
	if f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600); err == nil {
		f.Close()
	}
	for _, p := range []string{path, path + "-wal", path + "-shm", filepath.Join(dir, lockName)} {
		makePrivate(p)
	}
	// A ledger that cannot be written is refused now, with the reason,
	// rather than at the first step of a submission.
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		f, err := os.OpenFile(p, os.O_RDWR, 0)
		if err == nil {
			f.Close()
		} else if !errors.Is(err, fs.ErrNotExist) {
			unlock()
			return nil, notWritable(p, err)
		}
	}
	raw, err := sql.Open("sqlite", dsn(path, false))
	if err != nil {
		unlock()
		return nil, fmt.Errorf("ledger: open %s: %w", path, err)
	}
	// One connection: SQLite has one writer anyway, and a single connection
	// makes every write ordered and every read see every earlier write.
	raw.SetMaxOpenConns(1)
	raw.SetMaxIdleConns(1)
	raw.SetConnMaxLifetime(0)
	db := sqldb.Wrap(raw, sqldb.SQLite, path)
	l := &Ledger{&book{db: db, path: path, unlock: unlock, now: time.Now, me: localWho()}}
	if err := l.checkPragmas(); err != nil {
		l.Close()
		return nil, err
	}
	if err := quickCheck(raw, path); err != nil {
		l.Close()
		return nil, err
	}
	if err := migrate(context.Background(), db); err != nil {
		l.Close()
		if sqliteCode(err) != 0 {
			return nil, explainOpen(path, err)
		}
		return nil, fmt.Errorf("ledger: %s: %w", path, err)
	}
	return l, nil
}

// makePrivate takes group and other permissions away from path when it has
// any. The ledger records what was submitted and charged: nobody else on
// the computer needs to read it. Errors are ignored: a folder of another
// user, or a file system without Unix permissions, stays as it is.
func makePrivate(path string) {
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm()&0o077 == 0 {
		return
	}
	os.Chmod(path, st.Mode().Perm()&^0o077)
}

// ErrNotWritable is matched (errors.Is) by the error Open returns when the
// ledger's file or folder cannot be written: read-only, no permission, a
// read-only disk.
var ErrNotWritable = errors.New("ledger: the ledger cannot be written")

type notWritableError struct {
	path string
	err  error
}

func (e *notWritableError) Error() string {
	cause := e.err
	var pe *fs.PathError
	if errors.As(cause, &pe) {
		cause = pe.Err
	}
	return fmt.Sprintf("the ledger %s cannot be written (%v). SkipDesk records every submission there before sending it, "+
		"so it submits and tracks nothing until the file and its folder %s can be written again; reading the ledger still works",
		e.path, cause, filepath.Dir(e.path))
}

func (e *notWritableError) Unwrap() error { return e.err }

// Is makes errors.Is(err, ErrNotWritable) true.
func (e *notWritableError) Is(target error) bool { return target == ErrNotWritable }

func notWritable(path string, err error) error { return &notWritableError{path: path, err: err} }

// OpenReadOnly opens the ledger in dir for reading only. It takes no lock, so
// it works while the app has the ledger open; it sees every committed write.
// It returns ErrNoLedger when dir holds no ledger.
func OpenReadOnly(dir string) (*Ledger, error) {
	path := filepath.Join(dir, FileName)
	if _, err := os.Stat(path); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, ErrNoLedger
		}
		return nil, fmt.Errorf("ledger: %w", err)
	}
	raw, err := sql.Open("sqlite", dsn(path, true))
	if err != nil {
		return nil, fmt.Errorf("ledger: open %s: %w", path, err)
	}
	raw.SetMaxOpenConns(2)
	l := &Ledger{&book{db: sqldb.Wrap(raw, sqldb.SQLite, path), path: path, readOnly: true, now: time.Now, me: localWho()}}
	var v int
	if err := raw.QueryRow("PRAGMA user_version").Scan(&v); err != nil {
		l.Close()
		return nil, explainOpen(path, err)
	}
	switch {
	case v == 0:
		l.Close()
		return nil, ErrNoLedger
	case v > SchemaVersion:
		l.Close()
		return nil, fmt.Errorf("ledger: %s was written by a newer SkipDesk (schema %d, this one knows %d)", path, v, SchemaVersion)
	case v < SchemaVersion:
		l.Close()
		return nil, fmt.Errorf("ledger: %s has an older schema (%d); open it once for writing to upgrade it", path, v)
	}
	if err := quickCheck(raw, path); err != nil {
		l.Close()
		return nil, err
	}
	return l, nil
}

func dsn(path string, readOnly bool) string {
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(10000)")
	if readOnly {
		q.Set("mode", "ro")
	} else {
		q.Add("_pragma", "journal_mode(WAL)")
		q.Add("_pragma", "synchronous(FULL)")
		q.Add("_pragma", "foreign_keys(1)")
		q.Set("_txlock", "immediate")
	}
	return "file:" + (&url.URL{Path: path}).EscapedPath() + "?" + q.Encode()
}

// checkPragmas makes sure the durability settings took effect: a silently
// ignored pragma would turn every "committed" into "probably committed".
func (l *book) checkPragmas() error {
	var mode string
	if err := l.db.Raw().QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil {
		return explainOpen(l.path, err)
	}
	if mode != "wal" {
		return fmt.Errorf("ledger: %s: journal mode is %q, want wal", l.path, mode)
	}
	var sync int
	if err := l.db.Raw().QueryRow("PRAGMA synchronous").Scan(&sync); err != nil {
		return explainOpen(l.path, err)
	}
	if sync != 2 { // FULL
		return fmt.Errorf("ledger: %s: synchronous is %d, want 2 (FULL)", l.path, sync)
	}
	return nil
}

// Path is the database file ("" for a team's database).
func (l *Ledger) Path() string { return l.path }

// Shared reports whether the ledger is a team's database, written by
// several computers.
func (l *Ledger) Shared() bool { return l.shared() }

func (b *book) shared() bool { return b.db.Engine() == sqldb.Postgres }

// String names the ledger in messages: its file, or the team's database.
func (l *Ledger) String() string { return l.db.String() }

// ReadOnly reports whether the ledger was opened with OpenReadOnly.
func (l *Ledger) ReadOnly() bool { return l.readOnly }

// Close closes the database and releases the lock.
func (l *Ledger) Close() error {
	l.closeOnce.Do(func() {
		if l.stopBeat != nil {
			l.stopBeat()
		}
		l.closeErr = l.db.Close()
		if l.unlock != nil {
			if err := l.unlock(); err != nil && l.closeErr == nil {
				l.closeErr = err
			}
		}
	})
	return l.closeErr
}

// tx runs fn in one transaction (immediate, on SQLite) and commits it. A
// deadlock or serialisation failure (another computer's change at the
// same moment) runs fn again in a new transaction, a bounded number of
// times (sqldb.DB.InTx): fn keeps nothing of an earlier try.
func (l *book) tx(ctx context.Context, fn func(*sqldb.Tx) error) error {
	if l.readOnly {
		return errors.New("ledger: opened read-only")
	}
	return explainWrite(l.db.InTx(ctx, nil, fn))
}

// ms stores a time as Unix milliseconds; the zero time as NULL.
func ms(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UnixMilli()
}

// fromMS reads what ms stored.
func fromMS(v sql.NullInt64) time.Time {
	if !v.Valid {
		return time.Time{}
	}
	return time.UnixMilli(v.Int64).UTC()
}
