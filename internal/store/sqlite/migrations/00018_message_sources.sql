-- +goose Up
-- A reply's sources ([{title,url}] as JSON, '' for none) are kept with the message and with
-- the cached answer, so that a reply served again from the cache names them too; an embed
-- token can hide them in its widget.
ALTER TABLE messages ADD COLUMN sources TEXT NOT NULL DEFAULT '';
ALTER TABLE answer_cache ADD COLUMN sources TEXT NOT NULL DEFAULT '';
ALTER TABLE embed_tokens ADD COLUMN hide_sources INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE embed_tokens DROP COLUMN hide_sources;
ALTER TABLE answer_cache DROP COLUMN sources;
ALTER TABLE messages DROP COLUMN sources;
