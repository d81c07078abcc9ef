-- 2: as SQLite's: the submission's tag and the picked file's hash.

-- +goose Up
ALTER TABLE submissions ADD COLUMN tag TEXT NOT NULL DEFAULT '';
ALTER TABLE submissions ADD COLUMN source_hash TEXT NOT NULL DEFAULT '';
CREATE INDEX submissions_source ON submissions(source_hash, created_at);
