-- +goose Up
-- A chunk's token count, made when the chunk is built: an answer bills every chunk it read,
-- and counting them again was a sixth of a new answer's time. 0 (rows from before) means
-- the engine counts the text itself, as it did.
ALTER TABLE chunks ADD COLUMN tokens INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE chunks DROP COLUMN tokens;
