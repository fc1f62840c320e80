-- +goose Up
-- Per-account rate limits of the marketing generator and the Intelligence API (requests a
-- minute; SERVICE.md leaves them open, the defaults are documented in the README).
ALTER TABLE accounts ADD COLUMN marketing_rate_per_min INTEGER NOT NULL DEFAULT 10;
ALTER TABLE accounts ADD COLUMN intelligence_rate_per_min INTEGER NOT NULL DEFAULT 60;

-- +goose Down
ALTER TABLE accounts DROP COLUMN intelligence_rate_per_min;
ALTER TABLE accounts DROP COLUMN marketing_rate_per_min;
