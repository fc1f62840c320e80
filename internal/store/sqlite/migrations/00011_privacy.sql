-- +goose Up
-- Retention and data requests: finding a visitor's conversations and the stale ones without
-- scanning, and what a deleted account leaves behind for accounting.

-- A data request names a visitor of an account (any of its embed tokens).
CREATE INDEX conversations_visitor ON conversations (account_id, visitor) WHERE embed_token_id IS NOT NULL;
-- The retention sweep: widget conversations whose last message and last visit are both old.
-- '' (no message yet) sorts first, so empty conversations are found by their visit alone.
CREATE INDEX conversations_retention ON conversations (last_message_at, last_seen_at) WHERE embed_token_id IS NOT NULL;

-- A deleted account's record: its id (AUTOINCREMENT never hands it out again), name, plan and
-- the balance it had, which its archived ledger rows sum to. Nothing else of it is kept.
CREATE TABLE deleted_accounts (
    account_id          INTEGER PRIMARY KEY,
    name                TEXT    NOT NULL,
    plan                TEXT    NOT NULL,
    final_balance_micro INTEGER NOT NULL,
    created_at          TEXT    NOT NULL,
    deleted_at          TEXT    NOT NULL
);

-- A deleted account's ledger rows, moved from ledger as they were (same ids, amounts, running
-- balances, notes and times). message_id names a message that no longer exists.
CREATE TABLE ledger_archive (
    id            INTEGER PRIMARY KEY,
    account_id    INTEGER NOT NULL REFERENCES deleted_accounts (account_id),
    kind          TEXT    NOT NULL,
    amount_micro  INTEGER NOT NULL,
    balance_after INTEGER NOT NULL,
    message_id    INTEGER,
    note          TEXT    NOT NULL DEFAULT '',
    created_at    TEXT    NOT NULL
);
CREATE INDEX ledger_archive_account ON ledger_archive (account_id, id);

-- +goose Down
DROP TABLE ledger_archive;
DROP TABLE deleted_accounts;
DROP INDEX conversations_retention;
DROP INDEX conversations_visitor;
