package ledger

import (
	"context"
	"database/sql"
	"fmt"
)

// migrations bring the schema from version i to i+1 (PRAGMA user_version).
// Append only: a released migration is never edited.
var migrations = []string{
	// 1: the first schema.
	`
CREATE TABLE submissions (
	id            INTEGER PRIMARY KEY AUTOINCREMENT,
	created_at    INTEGER NOT NULL,           -- Unix ms, local clock
	kind          TEXT NOT NULL,              -- trace | dnc
	state         TEXT NOT NULL,              -- intent | sent | created | unknown | not_created | failed
	file_path     TEXT NOT NULL DEFAULT '',
	file_name     TEXT NOT NULL,
	file_hash     TEXT NOT NULL DEFAULT '',   -- sha256 hex of the uploaded bytes
	file_size     INTEGER NOT NULL DEFAULT 0,
	rows          INTEGER NOT NULL DEFAULT 0,
	mapping       TEXT NOT NULL DEFAULT '{}', -- JSON object
	mode          TEXT NOT NULL DEFAULT '',
	include_llcs  INTEGER NOT NULL DEFAULT 0,
	options       TEXT NOT NULL DEFAULT '{}', -- JSON object
	estimate      TEXT NOT NULL DEFAULT 'null',
	sent_at       INTEGER,
	job_id        TEXT,
	response      TEXT,
	error         TEXT NOT NULL DEFAULT '',
	reconciled_at INTEGER,
	updated_at    INTEGER NOT NULL
);
CREATE INDEX submissions_state ON submissions(state);
CREATE INDEX submissions_hash ON submissions(file_hash, created_at);
CREATE UNIQUE INDEX submissions_job ON submissions(job_id) WHERE job_id IS NOT NULL;

CREATE TABLE jobs (
	job_id        TEXT PRIMARY KEY,
	kind          TEXT NOT NULL,              -- trace | dnc | single
	name          TEXT NOT NULL DEFAULT '',
	status        TEXT NOT NULL DEFAULT '',
	total_rows    INTEGER NOT NULL DEFAULT 0,
	created_at    INTEGER,                    -- the server's time
	completed_at  INTEGER,
	last          TEXT NOT NULL DEFAULT 'null', -- the last API object seen, as JSON
	updated_at    INTEGER NOT NULL,
	next_poll_at  INTEGER,
	error_message TEXT NOT NULL DEFAULT ''
);
CREATE INDEX jobs_status ON jobs(status);

CREATE TABLE spend (
	job_id     TEXT PRIMARY KEY,
	charged    INTEGER NOT NULL DEFAULT 0,
	refunded   INTEGER NOT NULL DEFAULT 0,
	updated_at INTEGER NOT NULL
);

CREATE TABLE downloads (
	job_id        TEXT PRIMARY KEY,
	path          TEXT NOT NULL,
	size          INTEGER NOT NULL,
	sha256        TEXT NOT NULL,
	rows          INTEGER NOT NULL,
	downloaded_at INTEGER NOT NULL
);

CREATE TABLE presets (
	name       TEXT PRIMARY KEY,
	data       TEXT NOT NULL,                 -- JSON
	updated_at INTEGER NOT NULL
);

CREATE TABLE webhook_deliveries (
	delivery_id TEXT PRIMARY KEY,
	job_id      TEXT NOT NULL DEFAULT '',
	event       TEXT NOT NULL DEFAULT '',
	status      TEXT NOT NULL DEFAULT '',
	seen_at     INTEGER NOT NULL
);
`,
	// 2: the tag each submission's uploaded file name carries (reconcile
	// adopts only a job whose name has it), and the hash of the file the
	// person picked (the duplicate guard matches on it as well as on the
	// prepared upload's).
	`
ALTER TABLE submissions ADD COLUMN tag TEXT NOT NULL DEFAULT '';
ALTER TABLE submissions ADD COLUMN source_hash TEXT NOT NULL DEFAULT '';
CREATE INDEX submissions_source ON submissions(source_hash, created_at);
`,
	// 3: the company's own do-not-call list: the numbers on it now, and
	// every addition and removal with its date, reason and source (the
	// record a company keeps to show it honours the list).
	`
CREATE TABLE internal_dnc (
	number     TEXT PRIMARY KEY,              -- 10 digits
	added_at   INTEGER NOT NULL,              -- Unix ms
	reason     TEXT NOT NULL DEFAULT '',
	source     TEXT NOT NULL DEFAULT '',      -- by hand, pasted, a file, a result's row
	added_by   TEXT NOT NULL DEFAULT ''       -- the computer's name
);
CREATE TABLE internal_dnc_log (
	id      INTEGER PRIMARY KEY AUTOINCREMENT,
	number  TEXT NOT NULL,
	action  TEXT NOT NULL,                    -- added | removed
	at      INTEGER NOT NULL,
	reason  TEXT NOT NULL DEFAULT '',
	source  TEXT NOT NULL DEFAULT '',
	by      TEXT NOT NULL DEFAULT ''
);
CREATE INDEX internal_dnc_log_number ON internal_dnc_log(number, at);
`,
}

// SchemaVersion is the schema version this code writes.
var SchemaVersion = len(migrations)

// migrate applies the missing migrations, each in its own transaction with
// its version bump, so that an interrupted upgrade resumes where it stopped.
func migrate(ctx context.Context, db *sql.DB) error {
	var v int
	if err := db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	if v > len(migrations) {
		return fmt.Errorf("written by a newer SkipDesk (schema %d, this one knows %d)", v, len(migrations))
	}
	for ; v < len(migrations); v++ {
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return fmt.Errorf("migrate to schema %d: %w", v+1, err)
		}
		if _, err := tx.ExecContext(ctx, migrations[v]); err != nil {
			tx.Rollback()
			return fmt.Errorf("migrate to schema %d: %w", v+1, err)
		}
		// PRAGMA takes no parameters; v is our own integer.
		if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", v+1)); err != nil {
			tx.Rollback()
			return fmt.Errorf("migrate to schema %d: %w", v+1, err)
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("migrate to schema %d: %w", v+1, err)
		}
	}
	return nil
}
