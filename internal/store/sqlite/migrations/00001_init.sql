-- +goose Up
-- Money is integer micro-USD; rates are micro-USD per 1M tokens. Timestamps are UTC text in one
-- fixed-width RFC 3339 layout, so they sort and compare as strings on every engine.

CREATE TABLE accounts (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    name              TEXT    NOT NULL,
    email             TEXT    NOT NULL DEFAULT '',
    plan              TEXT    NOT NULL,
    lang              TEXT    NOT NULL,
    balance_micro     INTEGER NOT NULL DEFAULT 0 CHECK (balance_micro >= 0),
    sales_mode        INTEGER NOT NULL DEFAULT 1,
    tone_preset       TEXT    NOT NULL,
    tone_custom       TEXT    NOT NULL DEFAULT '',
    send_rate_per_min INTEGER NOT NULL,
    daily_answers     INTEGER NOT NULL,
    input_rate_micro  INTEGER NOT NULL,
    output_rate_micro INTEGER NOT NULL,
    created_at        TEXT    NOT NULL,
    updated_at        TEXT    NOT NULL
);
CREATE INDEX accounts_name ON accounts (name);

CREATE TABLE api_keys (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id   INTEGER NOT NULL REFERENCES accounts (id),
    prefix       TEXT    NOT NULL,
    hash         BLOB    NOT NULL UNIQUE,
    status       TEXT    NOT NULL,
    created_at   TEXT    NOT NULL,
    last_used_at TEXT,
    revoked_at   TEXT
);
CREATE INDEX api_keys_prefix ON api_keys (prefix, status);
CREATE INDEX api_keys_account ON api_keys (account_id, status);

CREATE TABLE conversations (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    scope      TEXT    NOT NULL DEFAULT 'api',
    lang       TEXT    NOT NULL,
    summary    TEXT    NOT NULL DEFAULT '',
    created_at TEXT    NOT NULL,
    updated_at TEXT    NOT NULL,
    UNIQUE (account_id, scope)
);

CREATE TABLE messages (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    conversation_id INTEGER NOT NULL REFERENCES conversations (id),
    account_id      INTEGER NOT NULL REFERENCES accounts (id),
    role            TEXT    NOT NULL,
    body            TEXT    NOT NULL,
    source          TEXT    NOT NULL DEFAULT '',
    lang            TEXT    NOT NULL DEFAULT '',
    low_confidence  INTEGER NOT NULL DEFAULT 0,
    products        TEXT    NOT NULL DEFAULT '',
    doc_ids         TEXT    NOT NULL DEFAULT '',
    created_at      TEXT    NOT NULL
);
CREATE INDEX messages_conversation ON messages (conversation_id, id);

CREATE TABLE usage_events (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id    INTEGER NOT NULL REFERENCES accounts (id),
    event_type    TEXT    NOT NULL,
    cost_micro    INTEGER NOT NULL,
    input_tokens  INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0,
    message_id    INTEGER,
    created_at    TEXT    NOT NULL
);
CREATE INDEX usage_events_account ON usage_events (account_id, created_at);
CREATE INDEX usage_events_type ON usage_events (account_id, event_type, created_at);

CREATE TABLE ledger (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id    INTEGER NOT NULL REFERENCES accounts (id),
    kind          TEXT    NOT NULL,
    amount_micro  INTEGER NOT NULL,
    balance_after INTEGER NOT NULL,
    message_id    INTEGER,
    note          TEXT    NOT NULL DEFAULT '',
    created_at    TEXT    NOT NULL
);
CREATE INDEX ledger_account ON ledger (account_id, id);

CREATE TABLE answer_cache (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    lang       TEXT    NOT NULL,
    qkey       TEXT    NOT NULL,
    question   TEXT    NOT NULL,
    answer     TEXT    NOT NULL,
    doc_ids    TEXT    NOT NULL DEFAULT '',
    message_id INTEGER,
    hits       INTEGER NOT NULL DEFAULT 0,
    created_at TEXT    NOT NULL,
    UNIQUE (account_id, lang, qkey)
);
CREATE INDEX answer_cache_message ON answer_cache (message_id);

CREATE TABLE feedback (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    message_id INTEGER NOT NULL UNIQUE REFERENCES messages (id),
    rating     TEXT    NOT NULL,
    comment    TEXT    NOT NULL DEFAULT '',
    resolved   INTEGER NOT NULL DEFAULT 0,
    created_at TEXT    NOT NULL
);
CREATE INDEX feedback_account ON feedback (account_id, rating, resolved);

CREATE TABLE documents (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id  INTEGER NOT NULL REFERENCES accounts (id),
    site_id     INTEGER,
    type        TEXT    NOT NULL,
    natural_key TEXT    NOT NULL,
    url         TEXT    NOT NULL DEFAULT '',
    title       TEXT    NOT NULL DEFAULT '',
    body        TEXT    NOT NULL DEFAULT '',
    lang        TEXT    NOT NULL,
    hash        TEXT    NOT NULL DEFAULT '',
    created_at  TEXT    NOT NULL,
    updated_at  TEXT    NOT NULL,
    UNIQUE (account_id, type, natural_key)
);

CREATE TABLE chunks (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id  INTEGER NOT NULL REFERENCES accounts (id),
    document_id INTEGER NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    ord         INTEGER NOT NULL,
    heading     TEXT    NOT NULL DEFAULT '',
    text        TEXT    NOT NULL,
    terms       TEXT    NOT NULL,
    term_count  INTEGER NOT NULL
);
CREATE INDEX chunks_document ON chunks (document_id, ord);
CREATE INDEX chunks_account ON chunks (account_id);

CREATE TABLE products (
    document_id INTEGER PRIMARY KEY REFERENCES documents (id) ON DELETE CASCADE,
    account_id  INTEGER NOT NULL REFERENCES accounts (id),
    name        TEXT    NOT NULL,
    url         TEXT    NOT NULL DEFAULT '',
    price       TEXT    NOT NULL DEFAULT '',
    category    TEXT    NOT NULL DEFAULT '',
    image       TEXT    NOT NULL DEFAULT ''
);

CREATE TABLE articles (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    document_id   INTEGER NOT NULL UNIQUE REFERENCES documents (id) ON DELETE CASCADE,
    account_id    INTEGER NOT NULL REFERENCES accounts (id),
    slug          TEXT    NOT NULL,
    title         TEXT    NOT NULL,
    excerpt       TEXT    NOT NULL DEFAULT '',
    category_slug TEXT    NOT NULL DEFAULT '',
    category_name TEXT    NOT NULL DEFAULT '',
    view_count    INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX articles_account ON articles (account_id, view_count);

-- The analyzer's terms are already lower-cased, folded and stemmed in Go; FTS5 only splits on
-- spaces. Prefix indexes serve the Turkish prefix terms. rowid = chunks.id. The tenant column
-- holds one token per account ("a17"), indexed, so a query ANDs it with its terms and FTS5
-- intersects inside the index instead of scanning every tenant's matches; bm25 gives the
-- column weight 0 so it never shapes ranking.
CREATE VIRTUAL TABLE chunks_fts USING fts5 (
    terms,
    tenant,
    tokenize = 'unicode61 remove_diacritics 0',
    prefix = '2 3 4 5'
);

-- +goose Down
DROP TABLE chunks_fts;
DROP TABLE articles;
DROP TABLE products;
DROP TABLE chunks;
DROP TABLE documents;
DROP TABLE feedback;
DROP TABLE answer_cache;
DROP TABLE ledger;
DROP TABLE usage_events;
DROP TABLE messages;
DROP TABLE conversations;
DROP TABLE api_keys;
DROP TABLE accounts;
