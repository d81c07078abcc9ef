-- 6: an entry of the company's do-not-call list may be kept until a date
-- the law sets (an opt-out: Virginia's text opt-outs ten years, Washington's
-- one): keep_until, Unix milliseconds, 0 when none. A removal before it is
-- refused.

-- +goose Up
ALTER TABLE internal_dnc ADD COLUMN keep_until INTEGER NOT NULL DEFAULT 0;
