package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/skipdesk/skipdesk/internal/backoff"
)

// What the database asks to be tried again. PostgreSQL ends one of two
// transactions that wait on each other ("deadlock detected", SQLSTATE
// 40P01) and, under repeatable read or serializable isolation, one that
// read what another changed meanwhile (40001); SQLite answers "database is
// locked" (SQLITE_BUSY, SQLITE_LOCKED) when another connection held the
// write lock past the busy timeout. Each time nothing of the transaction
// was kept, and running it again is the remedy the engines document. InTx
// (and ExecContext, a statement on its own) does that a bounded number of
// times, pausing longer each time, with jitter so that two computers do not
// meet again, and never past the context; past the bound the error is a
// *BusyError that says in words what happened, never the engine's text.

// ErrBusy is matched (errors.Is) by the error of a change the database
// refused every time it was tried (a *BusyError): nothing was recorded.
var ErrBusy = errors.New("the database was busy")

// BusyError is a change the database kept refusing because of others
// made at the same time.
type BusyError struct {
	Desc  string // the database
	Why   string // "two changes waited on each other", …
	Tries int
}

func (e *BusyError) Error() string {
	return fmt.Sprintf("%s was busy with other changes made at the same moment (%s); this change was tried %d times and not made, "+
		"so nothing of it was recorded: try again in a moment", e.Desc, e.Why, e.Tries)
}

// Is makes errors.Is(err, ErrBusy) true.
func (e *BusyError) Is(target error) bool { return target == ErrBusy }

// RetryPolicy bounds the tries of a change the database asks to retry.
type RetryPolicy struct {
	Tries int           // tries in all, the first included
	First time.Duration // pause after the first refusal; doubled each time
	Max   time.Duration // longest pause
}

// Retry is the stores' policy: six tries over about two seconds at most.
var Retry = RetryPolicy{Tries: 6, First: 25 * time.Millisecond, Max: time.Second}

// pause waits d or until ctx ends; tests replace it to count the pauses
// without waiting.
var pause = backoff.Sleep

// backoff is the pause after the try-th refusal: First doubled each time
// up to Max, then between half and all of it.
func (p RetryPolicy) backoff(try int) time.Duration {
	return backoff.Delay(p.First, p.Max, try-1)
}

// retryReason is the marker classify puts on the errors the engines ask to
// retry, with why in words.
type retryReason string

func (r retryReason) Error() string { return string(r) }

// The reasons, in words.
const (
	whyDeadlock  retryReason = "two changes waited on each other"
	whySerialize retryReason = "another change touched the same records"
	whyLocked    retryReason = "another program held the database's write lock"
)

// sqliteBusy and sqliteLocked are SQLite's primary result codes for a
// lock held by another connection.
const (
	sqliteBusy   = 5
	sqliteLocked = 6
)

// Retryable reports whether err is a refusal the database asks to retry
// (a deadlock, a serialisation failure, SQLite busy), and why in words.
func Retryable(err error) (string, bool) {
	if err == nil {
		return "", false
	}
	var r *RedactedError
	if errors.As(err, &r) && r.retry != "" {
		return string(r.retry), true
	}
	// SQLite's errors (modernc.org/sqlite) carry their result code.
	var coded interface{ Code() int }
	if errors.As(err, &coded) {
		if c := coded.Code() & 0xff; c == sqliteBusy || c == sqliteLocked {
			return string(whyLocked), true
		}
	}
	return "", false
}

// InTx runs fn in a transaction and commits it. A refusal the database
// asks to retry, from fn or from the commit, rolls the transaction back
// and runs fn again in a new one after a pause (fn must not keep what an
// earlier try did), up to Retry.Tries; then the error is a *BusyError. The
// context ends the tries and the pauses.
func (d *DB) InTx(ctx context.Context, opts *sql.TxOptions, fn func(*Tx) error) error {
	return d.retrying(ctx, func() error { return d.runTx(ctx, opts, fn) })
}

// retrying runs try until it succeeds, fails for another reason, or the
// policy's tries are spent.
func (d *DB) retrying(ctx context.Context, try func() error) error {
	p := Retry
	for n := 1; ; n++ {
		err := try()
		why, again := Retryable(err)
		if !again {
			return err
		}
		if n >= p.Tries {
			return &BusyError{Desc: d.desc, Why: why, Tries: n}
		}
		if err := pause(ctx, p.backoff(n)); err != nil {
			return err
		}
	}
}

func (d *DB) runTx(ctx context.Context, opts *sql.TxOptions, fn func(*Tx) error) error {
	tx, err := d.BeginTx(ctx, opts)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}
