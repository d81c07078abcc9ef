-- 4: a team on one database: as SQLite's (see its comments).

-- +goose Up
CREATE TABLE sessions (
	id          TEXT PRIMARY KEY,
	computer_id TEXT NOT NULL,
	computer    TEXT NOT NULL,
	started_at  BIGINT NOT NULL,
	seen_at     BIGINT NOT NULL
);

ALTER TABLE submissions ADD COLUMN session TEXT NOT NULL DEFAULT '';
ALTER TABLE submissions ADD COLUMN computer TEXT NOT NULL DEFAULT '';
ALTER TABLE submissions ADD COLUMN computer_id TEXT NOT NULL DEFAULT '';
ALTER TABLE submissions ADD COLUMN origin TEXT;
CREATE UNIQUE INDEX submissions_origin ON submissions(origin) WHERE origin IS NOT NULL;

CREATE TABLE submission_claims (
	key           TEXT PRIMARY KEY,
	submission_id BIGINT NOT NULL,
	claimed_at    BIGINT NOT NULL,
	released      INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX submission_claims_submission ON submission_claims(submission_id);

ALTER TABLE jobs ADD COLUMN lease_holder TEXT NOT NULL DEFAULT '';
ALTER TABLE jobs ADD COLUMN lease_until BIGINT;

ALTER TABLE downloads ADD COLUMN computer_id TEXT NOT NULL DEFAULT '';
ALTER TABLE downloads DROP CONSTRAINT downloads_pkey;
ALTER TABLE downloads ADD PRIMARY KEY (job_id, computer_id);

CREATE TABLE budget (
	bucket     TEXT PRIMARY KEY,
	tokens     DOUBLE PRECISION NOT NULL,
	updated_at BIGINT NOT NULL
);

CREATE TABLE layouts (
	signature  TEXT PRIMARY KEY,
	data       TEXT NOT NULL,
	updated_at BIGINT NOT NULL,
	updated_by TEXT NOT NULL DEFAULT ''
);

ALTER TABLE presets ADD COLUMN saved BIGINT NOT NULL DEFAULT 0;
ALTER TABLE presets ADD COLUMN updated_by TEXT NOT NULL DEFAULT '';

ALTER TABLE internal_dnc_log ADD COLUMN origin TEXT;
CREATE UNIQUE INDEX internal_dnc_log_origin ON internal_dnc_log(origin) WHERE origin IS NOT NULL;

CREATE TABLE moves (
	origin  TEXT NOT NULL,
	part    TEXT NOT NULL,
	count   BIGINT NOT NULL,
	done_at BIGINT NOT NULL,
	PRIMARY KEY (origin, part)
);
