-- 1: the first schema.

-- +goose Up
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
