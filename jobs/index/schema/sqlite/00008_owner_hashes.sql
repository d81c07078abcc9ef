-- 8: each owner run's hashes (and rows' own days) side by side, fixed
-- width: what a quote's "traced before" merge reads of a computer's
-- index, without walking the chunks' varints (owners and owner_chunks
-- stay: a search and a look-up by key read a row's entry through them).
-- An index of an older version is rebuilt.

-- +goose Up
CREATE TABLE owner_hashes (
	file   INTEGER NOT NULL,
	run    INTEGER NOT NULL,         -- as owners.run
	hashes BLOB NOT NULL,            -- the run's hashes, 8 bytes each (little-endian), ascending
	days   BLOB,                     -- each entry's day, 4 bytes (ownerDay); NULL when every one is 0
	PRIMARY KEY (file, run)
);
