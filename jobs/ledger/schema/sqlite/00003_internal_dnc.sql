-- 3: the company's own do-not-call list: the numbers on it now, and
-- every addition and removal with its date, reason and source (the
-- record a company keeps to show it honours the list).

-- +goose Up
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
