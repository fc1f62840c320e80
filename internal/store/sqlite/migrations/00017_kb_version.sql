-- +goose Up
-- Every change of an account's chunks adds one to a version of its running totals, so the
-- term statistics counted at one version can be remembered until the next change (TermStats).
ALTER TABLE kb_stats ADD COLUMN version INTEGER NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE kb_stats DROP COLUMN version;
