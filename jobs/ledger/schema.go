package ledger

import (
	"context"
	"embed"
	"fmt"
	"time"

	"github.com/skipdesk/skipdesk/jobs/sqldb"
)

// The schema's migrations, one folder per engine (schema/sqlite,
// schema/postgres), the same versions in both: numbered SQL files applied
// by jobs/sqldb (goose), plus the steps written in Go below. Append only: a
// released migration is never edited.
//
//go:embed schema
var schemaFS embed.FS

// sqliteSchema and postgresSchema are the migrations of each engine; tests
// replace them to try a newer SkipDesk's.
var (
	sqliteSchema   = sqldb.Schema(schemaFS, "schema/sqlite")
	postgresSchema = sqldb.Schema(schemaFS, "schema/postgres")
)

// versionTable is goose's record of the ledger's schema in a team's
// PostgreSQL database (a SQLite ledger keeps PRAGMA user_version).
const versionTable = "skipdesk_ledger_version"

// goSteps are the migrations written in Go.
var goSteps = []sqldb.GoStep{
	// 5: the claims of the submissions made within the duplicate window
	// before claims existed, so that a file submitted just before the
	// upgrade is still asked about.
	{Version: 5, Up: backfillClaims},
}

// SchemaVersion is the schema version this code writes.
var SchemaVersion = latestVersion()

func latestVersion() int {
	v, err := sqldb.Latest(sqliteSchema, goSteps...)
	if err != nil {
		panic(err)
	}
	return int(v)
}

// migrate applies the missing migrations, each in its own transaction with
// its version, so that an interrupted upgrade resumes where it stopped.
func migrate(ctx context.Context, db *sqldb.DB) error {
	fsys := sqliteSchema
	if db.Engine() == sqldb.Postgres {
		fsys = postgresSchema
	}
	return sqldb.Migrate(ctx, db, fsys, versionTable, goSteps...)
}

// claimWindow is how far back the duplicate guard looks.
const claimWindow = 24 * time.Hour

// backfillClaims claims the keys of the submissions of the last day that
// may have created a job.
func backfillClaims(ctx context.Context, tx *sqldb.Tx) error {
	since := time.Now().Add(-claimWindow).UnixMilli()
	subs, err := queryAll(ctx, tx, scanSubmission, "SELECT "+submissionCols+" FROM submissions WHERE created_at >= ? AND state IN (?, ?, ?) ORDER BY created_at, id",
		since, StateSent, StateCreated, StateUnknown)
	if err != nil {
		return err
	}
	for _, s := range subs {
		if s.Kind == "single" || s.FileHash == "" {
			continue
		}
		for _, k := range claimKeys(s) {
			// Newer submissions come later and take the key.
			if _, err := tx.ExecContext(ctx, `INSERT INTO submission_claims (key, submission_id, claimed_at) VALUES (?, ?, ?)
				ON CONFLICT (key) DO UPDATE SET submission_id = excluded.submission_id, claimed_at = excluded.claimed_at`,
				k, s.ID, s.CreatedAt.UnixMilli()); err != nil {
				return fmt.Errorf("claim of submission %d: %w", s.ID, err)
			}
		}
	}
	return nil
}
