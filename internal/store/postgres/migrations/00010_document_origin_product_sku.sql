-- +goose Up
-- File ingestion (issue 27); SQLite's 00026. documents.origin says how a document came in
-- (crawl, import, upload, api, editor) for the dashboard; existing documents were crawled
-- (a source_url) or imported. products.sku is a product's stock-keeping unit, by which
-- UpsertProducts matches it before its URL.
ALTER TABLE documents ADD COLUMN origin TEXT NOT NULL DEFAULT '';
UPDATE documents SET origin = CASE WHEN source_url <> '' THEN 'crawl' ELSE 'import' END;
ALTER TABLE products ADD COLUMN sku TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE products DROP COLUMN sku;
ALTER TABLE documents DROP COLUMN origin;
