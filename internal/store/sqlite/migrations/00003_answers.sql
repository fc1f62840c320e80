-- +goose Up
-- Model-backed answers: balance held while an answer is in progress, the provider calls behind
-- each usage event, a conversation summary that remembers how far it reaches, and the terms and
-- documents of each cached answer (similar-question lookup, withdrawal by document).

-- reserved_micro is the sum of the account's rows in reservations; the free balance is
-- balance_micro - reserved_micro.
ALTER TABLE accounts ADD COLUMN reserved_micro INTEGER NOT NULL DEFAULT 0 CHECK (reserved_micro >= 0);

CREATE TABLE reservations (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id   INTEGER NOT NULL REFERENCES accounts (id),
    amount_micro INTEGER NOT NULL CHECK (amount_micro > 0),
    created_at   TEXT    NOT NULL,
    expires_at   TEXT    NOT NULL
);
CREATE INDEX reservations_account ON reservations (account_id, expires_at);

-- summarized_through is the id of the newest message folded into summary (0 = none).
ALTER TABLE conversations ADD COLUMN summarized_through INTEGER NOT NULL DEFAULT 0;

CREATE TABLE usage_calls (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id      INTEGER NOT NULL REFERENCES usage_events (id) ON DELETE CASCADE,
    account_id    INTEGER NOT NULL REFERENCES accounts (id),
    ord           INTEGER NOT NULL,
    call          TEXT    NOT NULL,
    model         TEXT    NOT NULL DEFAULT '',
    input_tokens  INTEGER NOT NULL DEFAULT 0,
    output_tokens INTEGER NOT NULL DEFAULT 0,
    cost_micro    INTEGER NOT NULL DEFAULT 0,
    UNIQUE (event_id, ord)
);

-- One row per distinct analyzed term of a cached question.
-- evidence names the KB sentences the built-in engine answers the cached question from; a
-- similar question is served the entry only when its own evidence is the same.
ALTER TABLE answer_cache ADD COLUMN evidence TEXT NOT NULL DEFAULT '';

CREATE TABLE answer_cache_terms (
    entry_id   INTEGER NOT NULL REFERENCES answer_cache (id) ON DELETE CASCADE,
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    lang       TEXT    NOT NULL,
    term       TEXT    NOT NULL,
    PRIMARY KEY (entry_id, term)
);
CREATE INDEX answer_cache_terms_term ON answer_cache_terms (account_id, lang, term);

-- The documents a cached answer was drawn from. doc_id has no foreign key on purpose: the
-- rows must outlive a deleted document until the transaction that deletes it has withdrawn
-- the entries, and a reply may name a document that no longer exists.
CREATE TABLE answer_cache_docs (
    entry_id   INTEGER NOT NULL REFERENCES answer_cache (id) ON DELETE CASCADE,
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    doc_id     INTEGER NOT NULL,
    PRIMARY KEY (entry_id, doc_id)
);
CREATE INDEX answer_cache_docs_doc ON answer_cache_docs (account_id, doc_id);

-- +goose Down
DROP TABLE answer_cache_docs;
DROP TABLE answer_cache_terms;
ALTER TABLE answer_cache DROP COLUMN evidence;
DROP TABLE usage_calls;
ALTER TABLE conversations DROP COLUMN summarized_through;
DROP TABLE reservations;
ALTER TABLE accounts DROP COLUMN reserved_micro;
