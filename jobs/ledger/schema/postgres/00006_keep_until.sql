-- 6: as SQLite's: the date an entry of the company's list is kept until.

-- +goose Up
ALTER TABLE internal_dnc ADD COLUMN keep_until BIGINT NOT NULL DEFAULT 0;
