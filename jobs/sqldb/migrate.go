package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strconv"
	"strings"

	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/database"
	"github.com/pressly/goose/v3/lock"
)

// Schema migrations are goose's (github.com/pressly/goose/v3): numbered SQL
// files (00001_first.sql, with "-- +goose Up" above the statements), one
// folder per engine, each applied in its own transaction together with the
// record of its version, so that an interrupted upgrade resumes where it
// stopped and a failed step leaves nothing behind. Released files are never
// edited: a change is a new file.
//
// Where the version is kept differs by engine. A SQLite file keeps it in
// PRAGMA user_version, as SkipDesk's ledgers always have: a ledger written
// before goose carries on from its number, and an older SkipDesk still
// recognises a newer file and refuses it. A PostgreSQL database keeps it in
// goose's own table (named per store), and migrations there take a
// session-level advisory lock, so that two computers opening a new team
// database at once do not both apply a step.

// NewerError says the database was written by a newer SkipDesk.
type NewerError struct {
	Have, Know int64
}

func (e *NewerError) Error() string {
	return fmt.Sprintf("written by a newer SkipDesk (schema %d, this one knows %d): update SkipDesk on this computer", e.Have, e.Know)
}

// StepError names the migration that failed.
type StepError struct {
	Version int64
	Err     error
}

func (e *StepError) Error() string { return fmt.Sprintf("migrate to schema %d: %v", e.Version, e.Err) }
func (e *StepError) Unwrap() error { return e.Err }

// GoStep is a migration written in Go (a change of data SQL alone cannot
// make), numbered among the SQL files and run in its own transaction.
type GoStep struct {
	Version int64
	Up      func(ctx context.Context, tx *Tx) error
}

// Schema is the folder dir of an embedded tree of migrations (a store's
// schema/sqlite or schema/postgres); a missing folder is a build mistake.
func Schema(fsys fs.FS, dir string) fs.FS {
	f, err := fs.Sub(fsys, dir)
	if err != nil {
		panic(err)
	}
	return f
}

// Latest is the highest version among the migrations in fsys and steps.
func Latest(fsys fs.FS, steps ...GoStep) (int64, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return 0, err
	}
	var v int64
	for _, e := range entries {
		if n, ok := fileVersion(e.Name()); ok && n > v {
			v = n
		}
	}
	for _, s := range steps {
		v = max(v, s.Version)
	}
	return v, nil
}

func fileVersion(name string) (int64, bool) {
	if path.Ext(name) != ".sql" {
		return 0, false
	}
	num, _, ok := strings.Cut(name, "_")
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(num, 10, 64)
	return n, err == nil && n > 0
}

// Version is the schema version the database records (0: none yet).
func Version(ctx context.Context, d *DB, table string) (int64, error) {
	if d.engine == SQLite {
		var v int64
		err := d.raw.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v)
		return v, err
	}
	var exists bool
	if err := d.QueryRowContext(ctx, "SELECT to_regclass(?) IS NOT NULL", table).Scan(&exists); err != nil || !exists {
		return 0, err
	}
	var v int64
	err := d.QueryRowContext(ctx, `SELECT COALESCE(MAX(version_id), 0) FROM `+quoteIdent(table)+` WHERE is_applied`).Scan(&v)
	return v, err
}

// Migrate applies the migrations of fsys that db lacks. table names goose's
// version table on PostgreSQL (unused on SQLite). A database of a newer
// schema than fsys knows is refused with a *NewerError; a failing step is
// a *StepError, and the steps before it stay applied.
func Migrate(ctx context.Context, d *DB, fsys fs.FS, table string, steps ...GoStep) error {
	latest, err := Latest(fsys, steps...)
	if err != nil {
		return err
	}
	have, err := Version(ctx, d, table)
	if err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	if have > latest {
		return &NewerError{Have: have, Know: latest}
	}
	if have == latest {
		return nil
	}
	opts := []goose.ProviderOption{goose.WithDisableGlobalRegistry(true), goose.WithLogger(quiet{})}
	for _, st := range steps {
		up := st.Up
		opts = append(opts, goose.WithGoMigrations(goose.NewGoMigration(st.Version,
			&goose.GoFunc{RunTx: func(ctx context.Context, tx *sql.Tx) error { return up(ctx, &Tx{tx: tx, d: d}) }}, nil)))
	}
	dialect := goose.DialectCustom
	if d.engine == Postgres {
		dialect = goose.DialectPostgres
		opts = append(opts, goose.WithTableName(table))
		locker, err := lock.NewPostgresSessionLocker()
		if err != nil {
			return err
		}
		opts = append(opts, goose.WithSessionLocker(locker))
	} else {
		opts = append(opts, goose.WithStore(userVersion{}))
	}
	p, err := goose.NewProvider(dialect, d.raw, fsys, opts...)
	if err != nil {
		return err
	}
	if _, err := p.Up(ctx); err != nil {
		var pe *goose.PartialError
		if errors.As(err, &pe) && pe.Failed != nil {
			return &StepError{Version: pe.Failed.Source.Version, Err: d.wrap(pe.Err)}
		}
		return d.wrap(err)
	}
	return nil
}

// quiet is goose's logger: SkipDesk reports migrations' errors itself.
type quiet struct{}

func (quiet) Printf(string, ...any) {}
func (quiet) Fatalf(string, ...any) {}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// userVersion is a goose store that keeps a SQLite file's schema version in
// PRAGMA user_version: versions 1 to user_version are applied. It has no
// table of its own; goose sets the version inside each migration's
// transaction, so the step and its number commit together.
type userVersion struct{}

var _ database.StoreExtender = userVersion{}

func (userVersion) Tablename() string { return "PRAGMA user_version" }

func (userVersion) TableExists(context.Context, database.DBTxConn) (bool, error) { return true, nil }

func (userVersion) CreateVersionTable(context.Context, database.DBTxConn) error { return nil }

func (userVersion) Insert(ctx context.Context, db database.DBTxConn, req database.InsertRequest) error {
	if req.Version == 0 {
		return nil
	}
	// PRAGMA takes no parameters; the version is goose's integer.
	_, err := db.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", req.Version))
	return err
}

func (userVersion) Delete(ctx context.Context, db database.DBTxConn, version int64) error {
	_, err := db.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", max(version-1, 0)))
	return err
}

func current(ctx context.Context, db database.DBTxConn) (int64, error) {
	var v int64
	err := db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v)
	return v, err
}

func (userVersion) GetMigration(ctx context.Context, db database.DBTxConn, version int64) (*database.GetMigrationResult, error) {
	v, err := current(ctx, db)
	if err != nil {
		return nil, err
	}
	if version > v {
		return nil, database.ErrVersionNotFound
	}
	return &database.GetMigrationResult{IsApplied: true}, nil
}

func (userVersion) GetLatestVersion(ctx context.Context, db database.DBTxConn) (int64, error) {
	return current(ctx, db)
}

func (userVersion) ListMigrations(ctx context.Context, db database.DBTxConn) ([]*database.ListMigrationsResult, error) {
	v, err := current(ctx, db)
	if err != nil {
		return nil, err
	}
	out := make([]*database.ListMigrationsResult, 0, v+1)
	for i := v; i >= 0; i-- {
		out = append(out, &database.ListMigrationsResult{Version: i, IsApplied: true})
	}
	return out, nil
}
