-- +goose Up
-- The browser widget: public embed tokens with their domain lock and daily budget, one
-- conversation per (token, visitor), the token's share of usage and reservations (its daily
-- spend), and the durable outbox of owner e-mails.

-- domains holds the normalised allowed domains, comma separated. Only the SHA-256 of the
-- full token is kept; prefix ("svc_emb_" + 8 characters) finds the candidates.
CREATE TABLE embed_tokens (
    id                 INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id         INTEGER NOT NULL REFERENCES accounts (id),
    prefix             TEXT    NOT NULL,
    hash               BLOB    NOT NULL,
    label              TEXT    NOT NULL DEFAULT '',
    domains            TEXT    NOT NULL,
    daily_budget_micro INTEGER NOT NULL CHECK (daily_budget_micro > 0),
    status             TEXT    NOT NULL DEFAULT 'active',
    created_at         TEXT    NOT NULL,
    updated_at         TEXT    NOT NULL,
    last_used_at       TEXT    NOT NULL DEFAULT '',
    revoked_at         TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX embed_tokens_prefix ON embed_tokens (prefix, status);
CREATE INDEX embed_tokens_account ON embed_tokens (account_id, status);

-- A visitor conversation has scope 'embed:<token id>:<visitor uuid>'; the API conversation
-- keeps scope 'api' and a NULL token. last_seen_at is when the visitor last opened the widget.
ALTER TABLE conversations ADD COLUMN embed_token_id INTEGER REFERENCES embed_tokens (id);
ALTER TABLE conversations ADD COLUMN visitor TEXT NOT NULL DEFAULT '';
ALTER TABLE conversations ADD COLUMN last_seen_at TEXT NOT NULL DEFAULT '';
CREATE INDEX conversations_token_seen ON conversations (embed_token_id, last_seen_at);
CREATE INDEX conversations_token_updated ON conversations (embed_token_id, updated_at);

-- The token a usage event or a reservation counts against (NULL: the API).
ALTER TABLE usage_events ADD COLUMN embed_token_id INTEGER;
CREATE INDEX usage_events_token ON usage_events (embed_token_id, created_at);
ALTER TABLE reservations ADD COLUMN embed_token_id INTEGER;
CREATE INDEX reservations_token ON reservations (embed_token_id, expires_at);

-- The outbox: a notice is written in the transaction of its cause and deleted never; status
-- moves pending -> sent, or pending -> failed after the last attempt.
CREATE TABLE notices (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id      INTEGER NOT NULL REFERENCES accounts (id),
    kind            TEXT    NOT NULL,
    dedupe_key      TEXT    NOT NULL UNIQUE,
    payload         TEXT    NOT NULL DEFAULT '{}',
    status          TEXT    NOT NULL DEFAULT 'pending',
    attempts        INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT    NOT NULL,
    last_error      TEXT    NOT NULL DEFAULT '',
    created_at      TEXT    NOT NULL,
    sent_at         TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX notices_due ON notices (status, next_attempt_at);
CREATE INDEX notices_account ON notices (account_id, id);

-- +goose Down
DROP TABLE notices;
DROP INDEX reservations_token;
ALTER TABLE reservations DROP COLUMN embed_token_id;
DROP INDEX usage_events_token;
ALTER TABLE usage_events DROP COLUMN embed_token_id;
DROP INDEX conversations_token_updated;
DROP INDEX conversations_token_seen;
ALTER TABLE conversations DROP COLUMN last_seen_at;
ALTER TABLE conversations DROP COLUMN visitor;
ALTER TABLE conversations DROP COLUMN embed_token_id;
DROP TABLE embed_tokens;
