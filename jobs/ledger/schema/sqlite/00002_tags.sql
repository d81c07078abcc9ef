-- 2: the tag each submission's uploaded file name carries (reconcile
-- adopts only a job whose name has it), and the hash of the file the
-- person picked (the duplicate guard matches on it as well as on the
-- prepared upload's).

-- +goose Up
ALTER TABLE submissions ADD COLUMN tag TEXT NOT NULL DEFAULT '';
ALTER TABLE submissions ADD COLUMN source_hash TEXT NOT NULL DEFAULT '';
CREATE INDEX submissions_source ON submissions(source_hash, created_at);
