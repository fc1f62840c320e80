-- +goose Up
-- File ingestion (issue 27). documents.origin says how a document came in — crawl, import
-- (JSON Lines), upload (a file read by internal/ingest), api (the KB API), editor (the
-- dashboard's Q&A editor and review answers) — so the dashboard can show it beside each
-- document. Existing documents were crawled (a source_url) or imported.
ALTER TABLE documents ADD COLUMN origin TEXT NOT NULL DEFAULT '';
UPDATE documents SET origin = CASE WHEN source_url <> '' THEN 'crawl' ELSE 'import' END;
-- products.sku is a product's stock-keeping unit from a products spreadsheet or the KB API;
-- UpsertProducts matches a product by it (its document's natural key is then 'sku:' || sku)
-- before its URL, so a nightly catalogue export updates the same cards.
ALTER TABLE products ADD COLUMN sku TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE products DROP COLUMN sku;
ALTER TABLE documents DROP COLUMN origin;
