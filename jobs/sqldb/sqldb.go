// Package sqldb is what SkipDesk's stores (the ledger, the library index)
// share about the two database engines they run on: SQLite files in the
// data folder, the default that needs no setup, and a team's PostgreSQL
// server. The stores write their SQL once, with ? placeholders; a DB
// rewrites it for PostgreSQL ($1, $2, …), tells the engines' errors apart
// (a server that cannot be reached, a broken constraint), keeps the time
// by the database server's clock for what several computers compare
// (leases, budgets), and brings a schema up to date with versioned
// migrations (migrate.go). Connection strings never appear in an error:
// Redact takes their passwords out.
package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Engine is a database engine.
type Engine int

// Engines.
const (
	SQLite Engine = iota
	Postgres
)

func (e Engine) String() string {
	if e == Postgres {
		return "PostgreSQL"
	}
	return "SQLite"
}

// DB is an open database of one engine. Its query methods take SQL written
// with ? placeholders, for either engine.
type DB struct {
	raw    *sql.DB
	engine Engine
	// redact is applied to every error's text (a connection string's
	// password); nil for SQLite.
	redact func(string) string
	// skew is how far the database server's clock is ahead of this
	// computer's, in nanoseconds (PostgreSQL; 0 for SQLite).
	skew atomic.Int64
	// desc names the database in messages (the file, or host and name).
	desc string
}

// Wrap makes a DB of an open *sql.DB; desc names it in messages.
func Wrap(raw *sql.DB, e Engine, desc string) *DB {
	return &DB{raw: raw, engine: e, desc: desc}
}

// Engine is the database's engine.
func (d *DB) Engine() Engine { return d.engine }

// Raw is the *sql.DB underneath, for what is engine-specific (PRAGMAs).
func (d *DB) Raw() *sql.DB { return d.raw }

// String names the database: its file, or its server and name.
func (d *DB) String() string { return d.desc }

// Close closes the database.
func (d *DB) Close() error { return d.raw.Close() }

// Now is the database server's time (this computer's for SQLite): what
// leases and budgets shared by several computers are measured with, so
// that a computer whose clock is off neither steals a lease nor overspends.
func (d *DB) Now() time.Time { return time.Now().Add(time.Duration(d.skew.Load())) }

// Advance moves this computer's reading of the server's clock on by d, as
// if that much time had passed for it: how tests see a lease run out
// without waiting for it.
func (d *DB) Advance(by time.Duration) { d.skew.Add(int64(by)) }

// SyncClock measures how far the server's clock is from this computer's
// (PostgreSQL; nothing to do for SQLite).
func (d *DB) SyncClock(ctx context.Context) error {
	if d.engine != Postgres {
		return nil
	}
	before := time.Now()
	var ms int64
	err := d.raw.QueryRowContext(ctx, "SELECT CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)").Scan(&ms)
	if err != nil {
		return d.wrap(err)
	}
	after := time.Now()
	mid := before.Add(after.Sub(before) / 2)
	d.skew.Store(int64(time.UnixMilli(ms).Sub(mid)))
	return nil
}

// Ping checks that the database answers.
func (d *DB) Ping(ctx context.Context) error { return d.wrap(d.raw.PingContext(ctx)) }

// ExecContext runs a statement, on its own: one the database asks to
// retry (a deadlock with another computer's) is run again (retry.go).
func (d *DB) ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error) {
	var r sql.Result
	err := d.retrying(ctx, func() error {
		var err error
		r, err = d.raw.ExecContext(ctx, d.Bind(q), args...)
		return d.wrap(err)
	})
	return r, err
}

// QueryContext runs a query.
func (d *DB) QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	r, err := d.raw.QueryContext(ctx, d.Bind(q), args...)
	return r, d.wrap(err)
}

// QueryRowContext runs a query of one row.
func (d *DB) QueryRowContext(ctx context.Context, q string, args ...any) *Row {
	return &Row{r: d.raw.QueryRowContext(ctx, d.Bind(q), args...), d: d}
}

// PrepareContext prepares a statement.
func (d *DB) PrepareContext(ctx context.Context, q string) (*sql.Stmt, error) {
	st, err := d.raw.PrepareContext(ctx, d.Bind(q))
	return st, d.wrap(err)
}

// BeginTx starts a transaction.
func (d *DB) BeginTx(ctx context.Context, opts *sql.TxOptions) (*Tx, error) {
	tx, err := d.raw.BeginTx(ctx, opts)
	if err != nil {
		return nil, d.wrap(err)
	}
	return &Tx{tx: tx, d: d}, nil
}

// Row is one row of a query; Scan reports sql.ErrNoRows as database/sql
// does.
type Row struct {
	r *sql.Row
	d *DB
}

// Scan reads the row.
func (r *Row) Scan(dest ...any) error {
	err := r.r.Scan(dest...)
	if errors.Is(err, sql.ErrNoRows) {
		return err
	}
	return r.d.wrap(err)
}

// Tx is a transaction.
type Tx struct {
	tx *sql.Tx
	d  *DB
}

// Engine is the transaction's database's engine.
func (t *Tx) Engine() Engine { return t.d.engine }

// ExecContext runs a statement in the transaction.
func (t *Tx) ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error) {
	r, err := t.tx.ExecContext(ctx, t.d.Bind(q), args...)
	return r, t.d.wrap(err)
}

// QueryContext runs a query in the transaction.
func (t *Tx) QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	r, err := t.tx.QueryContext(ctx, t.d.Bind(q), args...)
	return r, t.d.wrap(err)
}

// QueryRowContext runs a query of one row in the transaction.
func (t *Tx) QueryRowContext(ctx context.Context, q string, args ...any) *Row {
	return &Row{r: t.tx.QueryRowContext(ctx, t.d.Bind(q), args...), d: t.d}
}

// PrepareContext prepares a statement in the transaction.
func (t *Tx) PrepareContext(ctx context.Context, q string) (*sql.Stmt, error) {
	st, err := t.tx.PrepareContext(ctx, t.d.Bind(q))
	return st, t.d.wrap(err)
}

// Commit commits the transaction.
func (t *Tx) Commit() error { return t.d.wrap(t.tx.Commit()) }

// Rollback abandons the transaction.
func (t *Tx) Rollback() error { return t.tx.Rollback() }

// binds caches the PostgreSQL form of each query.
var binds sync.Map

// Bind is q in the engine's placeholders: unchanged for SQLite, ? → $n for
// PostgreSQL (a ? inside quotes or a comment stays as it is).
func (d *DB) Bind(q string) string {
	if d.engine != Postgres || !strings.Contains(q, "?") {
		return q
	}
	if b, ok := binds.Load(q); ok {
		return b.(string)
	}
	b := rebind(q)
	binds.Store(q, b)
	return b
}

// rebind numbers the ? placeholders of q outside quotes and comments.
func rebind(q string) string {
	var b strings.Builder
	b.Grow(len(q) + 16)
	n := 0
	for i := 0; i < len(q); i++ {
		c := q[i]
		switch {
		case c == '\'' || c == '"':
			j := i + 1
			for j < len(q) && q[j] != c {
				j++
			}
			b.WriteString(q[i:min(j+1, len(q))])
			i = j
		case c == '-' && i+1 < len(q) && q[i+1] == '-':
			j := strings.IndexByte(q[i:], '\n')
			if j < 0 {
				j = len(q) - i
			}
			b.WriteString(q[i : i+j])
			i += j - 1
		case c == '?':
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// Placeholders is "(?, ?), (?, ?)": rows groups of cols placeholders.
func Placeholders(rows, cols int) string {
	one := "(" + strings.TrimSuffix(strings.Repeat("?, ", cols), ", ") + ")"
	return strings.TrimSuffix(strings.Repeat(one+", ", rows), ", ")
}

// wrap turns a PostgreSQL error into one a person can act on (the server
// cannot be reached: ErrUnreachable) with the connection's password taken
// out of its text.
func (d *DB) wrap(err error) error {
	if err == nil || d.engine != Postgres {
		return err
	}
	return classify(err, d.desc, d.redact)
}

// Least is the engine's function for the smaller of two values (SQLite's
// two-argument min, PostgreSQL's least).
func (d *DB) Least() string {
	if d.engine == Postgres {
		return "LEAST"
	}
	return "MIN"
}

// Greatest is the engine's function for the larger of two values.
func (d *DB) Greatest() string {
	if d.engine == Postgres {
		return "GREATEST"
	}
	return "MAX"
}

// ErrConflict is matched (errors.Is) by an error a unique or primary key
// constraint raised: another row (another computer's, perhaps) holds the
// key.
var ErrConflict = errors.New("sqldb: the row exists already")

// IsConflict reports whether err is a broken unique constraint.
func IsConflict(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, ErrConflict) {
		return true
	}
	s := err.Error()
	return strings.Contains(s, "UNIQUE constraint failed") || strings.Contains(s, "(SQLSTATE 23505)") ||
		strings.Contains(s, "constraint failed: UNIQUE")
}

// Stmts prepares each statement of a transaction once and runs it as often
// as asked: a bulk write's statement of a thousand rows is parsed once,
// not once a run (parsing was a quarter of SQLite's time writing a
// million numbers). Close releases them.
type Stmts struct {
	tx *Tx
	m  map[string]*sql.Stmt
}

// Stmts is a cache of prepared statements in t.
func (t *Tx) Stmts() *Stmts { return &Stmts{tx: t, m: map[string]*sql.Stmt{}} }

func (s *Stmts) get(ctx context.Context, q string) (*sql.Stmt, error) {
	if st, ok := s.m[q]; ok {
		return st, nil
	}
	st, err := s.tx.PrepareContext(ctx, q)
	if err != nil {
		return nil, err
	}
	s.m[q] = st
	return st, nil
}

// ExecContext runs statement q (? placeholders) prepared once.
func (s *Stmts) ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error) {
	st, err := s.get(ctx, q)
	if err != nil {
		return nil, err
	}
	r, err := st.ExecContext(ctx, args...)
	return r, s.tx.d.wrap(err)
}

// QueryContext runs query q (? placeholders) prepared once.
func (s *Stmts) QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	st, err := s.get(ctx, q)
	if err != nil {
		return nil, err
	}
	r, err := st.QueryContext(ctx, args...)
	return r, s.tx.d.wrap(err)
}

// Close releases the statements.
func (s *Stmts) Close() {
	for _, st := range s.m {
		st.Close()
	}
	clear(s.m)
}
