-- 5: the index as SkipDesk wrote it before its schema was a migration
-- (an index of an older version is rebuilt, never migrated).

-- +goose Up
CREATE TABLE files (
	id        INTEGER PRIMARY KEY AUTOINCREMENT, -- never reused: stale entries of a removed file match no file
	name      TEXT NOT NULL UNIQUE,  -- the result's file name in the library folder
	size      INTEGER NOT NULL,
	mtime     INTEGER NOT NULL,      -- Unix ns
	rec_size  INTEGER NOT NULL,      -- the job record's; -1 when there is none
	rec_mtime INTEGER NOT NULL,
	kind      TEXT NOT NULL,         -- trace | dnc | ''
	job_id    TEXT NOT NULL,
	job_name  TEXT NOT NULL,
	mode      TEXT NOT NULL,
	date      INTEGER NOT NULL,      -- Unix s: the job's completion; 0 unknown
	dated     INTEGER NOT NULL,      -- 1: the date comes from a job record
	rows      INTEGER NOT NULL,
	header    TEXT NOT NULL,         -- JSON array
	cols      TEXT NOT NULL,         -- how its columns were read (JSON)
	marks     BLOB NOT NULL,         -- offset and line of every 16th row
	skipped   TEXT NOT NULL,         -- why its rows are not indexed ('' when they are)
	merged_from TEXT NOT NULL        -- a merged result: the new job's own result it holds
);
CREATE TABLE terms (
	file INTEGER NOT NULL,
	term TEXT NOT NULL,
	seg  INTEGER NOT NULL,
	rows BLOB NOT NULL,              -- row numbers, delta varints
	PRIMARY KEY (file, term, seg)
) WITHOUT ROWID;
CREATE TABLE owners (             -- where each chunk of a file's owner runs is
	file  INTEGER NOT NULL,
	run   INTEGER NOT NULL,          -- a run of up to ownerRun rows, sorted by hash
	first INTEGER NOT NULL,          -- the first hash of the chunk
	chunk INTEGER NOT NULL,          -- its owner_chunks row
	PRIMARY KEY (file, run, first)
) WITHOUT ROWID;
CREATE TABLE owner_chunks (
	id   INTEGER PRIMARY KEY,
	data BLOB NOT NULL               -- about ownerChunk entries: hash (8 bytes), row, day (varints)
);
CREATE TABLE phones (
	file  INTEGER NOT NULL,
	key   INTEGER NOT NULL,          -- phone.Key
	row   INTEGER NOT NULL,
	flags INTEGER NOT NULL,          -- encodeFlags
	date  INTEGER,                   -- as owners.date
	PRIMARY KEY (file, key, row)
) WITHOUT ROWID;
CREATE TABLE meta (
	key   TEXT PRIMARY KEY,
	value TEXT NOT NULL
);
