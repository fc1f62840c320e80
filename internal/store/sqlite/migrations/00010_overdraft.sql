-- +goose NO TRANSACTION
-- +goose Up
-- An answer's settle may now take the balance below zero by at most one hold (the hold is sized
-- from what answers usually cost, store.Turn.OverdraftMicro), so the CHECK (balance_micro >= 0)
-- of 00001 goes. SQLite cannot drop a CHECK in place: the table is rebuilt as its documented
-- procedure says, with foreign keys off (outside any transaction, hence NO TRANSACTION) and the
-- rebuild itself in one transaction. The other tables' REFERENCES accounts (id) name the table,
-- so they hold again once the new one is renamed. The AUTOINCREMENT counter is carried over:
-- an id once handed out (a deleted account's included) is never handed out again.
PRAGMA foreign_keys = OFF;
BEGIN IMMEDIATE;
CREATE TABLE accounts_new (
    id                        INTEGER PRIMARY KEY AUTOINCREMENT,
    name                      TEXT    NOT NULL,
    email                     TEXT    NOT NULL DEFAULT '',
    plan                      TEXT    NOT NULL,
    lang                      TEXT    NOT NULL,
    balance_micro             INTEGER NOT NULL DEFAULT 0,
    sales_mode                INTEGER NOT NULL DEFAULT 1,
    tone_preset               TEXT    NOT NULL,
    tone_custom               TEXT    NOT NULL DEFAULT '',
    send_rate_per_min         INTEGER NOT NULL,
    daily_answers             INTEGER NOT NULL,
    input_rate_micro          INTEGER NOT NULL,
    output_rate_micro         INTEGER NOT NULL,
    created_at                TEXT    NOT NULL,
    updated_at                TEXT    NOT NULL,
    reserved_micro            INTEGER NOT NULL DEFAULT 0 CHECK (reserved_micro >= 0),
    marketing_rate_per_min    INTEGER NOT NULL DEFAULT 10,
    intelligence_rate_per_min INTEGER NOT NULL DEFAULT 60
);
INSERT INTO accounts_new (id, name, email, plan, lang, balance_micro, sales_mode, tone_preset, tone_custom,
    send_rate_per_min, daily_answers, input_rate_micro, output_rate_micro, created_at, updated_at, reserved_micro,
    marketing_rate_per_min, intelligence_rate_per_min)
SELECT id, name, email, plan, lang, balance_micro, sales_mode, tone_preset, tone_custom,
    send_rate_per_min, daily_answers, input_rate_micro, output_rate_micro, created_at, updated_at, reserved_micro,
    marketing_rate_per_min, intelligence_rate_per_min FROM accounts;
DELETE FROM sqlite_sequence WHERE name = 'accounts_new';
INSERT INTO sqlite_sequence (name, seq) SELECT 'accounts_new', seq FROM sqlite_sequence WHERE name = 'accounts';
DROP TABLE accounts;
ALTER TABLE accounts_new RENAME TO accounts;
CREATE INDEX accounts_name ON accounts (name);
COMMIT;
PRAGMA foreign_keys = ON;

-- +goose Down
-- Back to a balance that cannot be negative: fails while any account is overdrawn.
PRAGMA foreign_keys = OFF;
BEGIN IMMEDIATE;
CREATE TABLE accounts_old (
    id                        INTEGER PRIMARY KEY AUTOINCREMENT,
    name                      TEXT    NOT NULL,
    email                     TEXT    NOT NULL DEFAULT '',
    plan                      TEXT    NOT NULL,
    lang                      TEXT    NOT NULL,
    balance_micro             INTEGER NOT NULL DEFAULT 0 CHECK (balance_micro >= 0),
    sales_mode                INTEGER NOT NULL DEFAULT 1,
    tone_preset               TEXT    NOT NULL,
    tone_custom               TEXT    NOT NULL DEFAULT '',
    send_rate_per_min         INTEGER NOT NULL,
    daily_answers             INTEGER NOT NULL,
    input_rate_micro          INTEGER NOT NULL,
    output_rate_micro         INTEGER NOT NULL,
    created_at                TEXT    NOT NULL,
    updated_at                TEXT    NOT NULL,
    reserved_micro            INTEGER NOT NULL DEFAULT 0 CHECK (reserved_micro >= 0),
    marketing_rate_per_min    INTEGER NOT NULL DEFAULT 10,
    intelligence_rate_per_min INTEGER NOT NULL DEFAULT 60
);
INSERT INTO accounts_old SELECT id, name, email, plan, lang, balance_micro, sales_mode, tone_preset, tone_custom,
    send_rate_per_min, daily_answers, input_rate_micro, output_rate_micro, created_at, updated_at, reserved_micro,
    marketing_rate_per_min, intelligence_rate_per_min FROM accounts;
DELETE FROM sqlite_sequence WHERE name = 'accounts_old';
INSERT INTO sqlite_sequence (name, seq) SELECT 'accounts_old', seq FROM sqlite_sequence WHERE name = 'accounts';
DROP TABLE accounts;
ALTER TABLE accounts_old RENAME TO accounts;
CREATE INDEX accounts_name ON accounts (name);
COMMIT;
PRAGMA foreign_keys = ON;
