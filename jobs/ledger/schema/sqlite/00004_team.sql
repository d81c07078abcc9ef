-- 4: a team on one database. The same tables serve a computer's own
-- ledger, where one SkipDesk at a time writes.
--
-- sessions: every SkipDesk with the ledger open, with its computer's name;
-- seen_at is refreshed while it runs, so that the others tell a live one
-- (whose submissions are being sent, whose leases hold) from one that is
-- gone. submissions.session and .computer say who made each submission.
-- origin marks rows moved from a computer's own ledger into a team's
-- (computer id / row id): moving again skips them.
--
-- submission_claims: the duplicate guard as a constraint. A submission
-- claims the keys of what makes it the same as another (its content, the
-- file picked, the mapping, the options); a key held by a live claim is
-- refused, whichever computer asks, in the same transaction as the intent.
--
-- jobs.lease_*: the one SkipDesk that follows a job, until lease_until
-- (the database's clock), renewed while it runs.
--
-- downloads: a result file is kept per computer: the key has it ('' for a
-- computer's own ledger).
--
-- budget: the requests the whole team may still make with the API key,
-- a token bucket per rate-limit class.
--
-- layouts: the layout corrections remembered per header signature (in a
-- team's database; a computer's own stay in layouts.json).
--
-- moves: what a computer's move of its own data into the team's database
-- has done, so that an interrupted move resumes.

-- +goose Up
CREATE TABLE sessions (
	id          TEXT PRIMARY KEY,
	computer_id TEXT NOT NULL,
	computer    TEXT NOT NULL,
	started_at  INTEGER NOT NULL,
	seen_at     INTEGER NOT NULL
);

ALTER TABLE submissions ADD COLUMN session TEXT NOT NULL DEFAULT '';
ALTER TABLE submissions ADD COLUMN computer TEXT NOT NULL DEFAULT '';
ALTER TABLE submissions ADD COLUMN computer_id TEXT NOT NULL DEFAULT '';
ALTER TABLE submissions ADD COLUMN origin TEXT;
CREATE UNIQUE INDEX submissions_origin ON submissions(origin) WHERE origin IS NOT NULL;

CREATE TABLE submission_claims (
	key           TEXT PRIMARY KEY,
	submission_id INTEGER NOT NULL,
	claimed_at    INTEGER NOT NULL,
	released      INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX submission_claims_submission ON submission_claims(submission_id);

ALTER TABLE jobs ADD COLUMN lease_holder TEXT NOT NULL DEFAULT '';
ALTER TABLE jobs ADD COLUMN lease_until INTEGER;

CREATE TABLE downloads_by_computer (
	job_id        TEXT NOT NULL,
	computer_id   TEXT NOT NULL,
	path          TEXT NOT NULL,
	size          INTEGER NOT NULL,
	sha256        TEXT NOT NULL,
	rows          INTEGER NOT NULL,
	downloaded_at INTEGER NOT NULL,
	PRIMARY KEY (job_id, computer_id)
);
INSERT INTO downloads_by_computer (job_id, computer_id, path, size, sha256, rows, downloaded_at)
	SELECT job_id, '', path, size, sha256, rows, downloaded_at FROM downloads;
DROP TABLE downloads;
ALTER TABLE downloads_by_computer RENAME TO downloads;

CREATE TABLE budget (
	bucket     TEXT PRIMARY KEY,
	tokens     REAL NOT NULL,
	updated_at INTEGER NOT NULL
);

CREATE TABLE layouts (
	signature  TEXT PRIMARY KEY,
	data       TEXT NOT NULL,
	updated_at INTEGER NOT NULL,
	updated_by TEXT NOT NULL DEFAULT ''
);

ALTER TABLE presets ADD COLUMN saved INTEGER NOT NULL DEFAULT 0;
UPDATE presets SET saved = rowid;
ALTER TABLE presets ADD COLUMN updated_by TEXT NOT NULL DEFAULT '';

ALTER TABLE internal_dnc_log ADD COLUMN origin TEXT;
CREATE UNIQUE INDEX internal_dnc_log_origin ON internal_dnc_log(origin) WHERE origin IS NOT NULL;

CREATE TABLE moves (
	origin  TEXT NOT NULL,
	part    TEXT NOT NULL,
	count   INTEGER NOT NULL,
	done_at INTEGER NOT NULL,
	PRIMARY KEY (origin, part)
);
