-- 7: how each file's layout was read (its header signature and the
-- person's answers for it): a file is indexed again when they change. The
-- flags of phones keep every list apart (16 lists); an index of an older
-- version is rebuilt.

-- +goose Up
ALTER TABLE files ADD COLUMN layout TEXT NOT NULL DEFAULT '';
