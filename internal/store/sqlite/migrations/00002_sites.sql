-- +goose Up
-- Sites are the websites an account's KB is crawled from. The lease columns let one crawl of a
-- site run at a time across processes (the scheduler inside serve and an operator's svc crawl).
CREATE TABLE sites (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id     INTEGER NOT NULL REFERENCES accounts (id),
    url            TEXT    NOT NULL,
    host           TEXT    NOT NULL,
    name           TEXT    NOT NULL DEFAULT '',
    created_at     TEXT    NOT NULL,
    last_crawl_at  TEXT    NOT NULL DEFAULT '',
    last_crawl     TEXT    NOT NULL DEFAULT '',
    lease_until    TEXT    NOT NULL DEFAULT '',
    UNIQUE (account_id, url)
);
CREATE INDEX sites_account ON sites (account_id, host);

-- site_pages remembers every page a crawl stored, for conditional re-fetches (ETag,
-- Last-Modified), for skipping unchanged content and for dropping pages that are gone. links
-- (one URL a line) lets a re-crawl follow a page that answered 304 Not Modified.
CREATE TABLE site_pages (
    site_id       INTEGER NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    account_id    INTEGER NOT NULL REFERENCES accounts (id),
    url           TEXT    NOT NULL,
    etag          TEXT    NOT NULL DEFAULT '',
    last_modified TEXT    NOT NULL DEFAULT '',
    hash          TEXT    NOT NULL DEFAULT '',
    links         TEXT    NOT NULL DEFAULT '',
    fetched_at    TEXT    NOT NULL,
    PRIMARY KEY (site_id, url)
);

-- source_url ties a crawled document to the page it was learned from: one page may yield a
-- page or article document, products and FAQ entries, and a re-crawl replaces that set whole.
ALTER TABLE documents ADD COLUMN source_url TEXT NOT NULL DEFAULT '';
CREATE INDEX documents_source ON documents (account_id, site_id, source_url);

-- +goose Down
DROP INDEX documents_source;
ALTER TABLE documents DROP COLUMN source_url;
DROP TABLE site_pages;
DROP TABLE sites;
