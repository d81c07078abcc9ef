-- 7: how each file's layout was read (its header signature and the
-- person's answers for it): a file is indexed again when they change. The
-- flags of phones keep every list apart (16 lists), so every entry is
-- forgotten and each computer indexes its folder again at its next Sync.

-- +goose Up
ALTER TABLE files ADD COLUMN layout TEXT NOT NULL DEFAULT '';
DELETE FROM terms;
DELETE FROM owner_chunks;
DELETE FROM owners;
DELETE FROM phones;
DELETE FROM files;
