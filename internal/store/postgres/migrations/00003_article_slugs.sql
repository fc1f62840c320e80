-- +goose Up
-- A crawled article's slug is made unique in its account when it is saved (sqlstore.freeSlug),
-- which looks slugs up by account.
CREATE INDEX articles_slug ON articles (account_id, slug);

-- +goose Down
DROP INDEX articles_slug;
