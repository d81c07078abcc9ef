-- 6: the library folder a result is in (a team's index holds several
-- computers' folders; a computer's own index only its own, place '').

-- +goose Up
ALTER TABLE files ADD COLUMN place TEXT NOT NULL DEFAULT '';
