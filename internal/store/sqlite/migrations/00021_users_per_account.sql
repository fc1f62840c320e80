-- +goose NO TRANSACTION
-- +goose Up
-- One person may be a user of several accounts (an agency's staff in each client's
-- dashboard): an e-mail is unique within an account, no longer across all of them. Inviting
-- an address another account has a user for now succeeds like any invite, so the invite no
-- longer tells whether an e-mail has a user elsewhere. SQLite cannot drop a column's UNIQUE in
-- place: the table is rebuilt as 00010 rebuilt accounts (foreign keys off, outside any
-- transaction, the rebuild in one; sessions and auth_tokens name the table, so their
-- REFERENCES hold again once the new one is renamed; the AUTOINCREMENT counter carried over).
PRAGMA foreign_keys = OFF;
BEGIN IMMEDIATE;
CREATE TABLE users_new (
    id                  INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id          INTEGER NOT NULL REFERENCES accounts (id),
    email               TEXT    NOT NULL,
    role                TEXT    NOT NULL CHECK (role IN ('owner', 'agent')),
    password_hash       TEXT    NOT NULL DEFAULT '',
    lang                TEXT    NOT NULL DEFAULT '',
    created_at          TEXT    NOT NULL,
    last_sign_in_at     TEXT    NOT NULL DEFAULT '',
    password_changed_at TEXT    NOT NULL DEFAULT '',
    UNIQUE (account_id, email)
);
INSERT INTO users_new (id, account_id, email, role, password_hash, lang, created_at, last_sign_in_at,
    password_changed_at)
SELECT id, account_id, email, role, password_hash, lang, created_at, last_sign_in_at, password_changed_at
FROM users;
DELETE FROM sqlite_sequence WHERE name = 'users_new';
INSERT INTO sqlite_sequence (name, seq) SELECT 'users_new', seq FROM sqlite_sequence WHERE name = 'users';
DROP TABLE users;
ALTER TABLE users_new RENAME TO users;
-- The account's user list, oldest first.
CREATE INDEX users_account ON users (account_id, id);
-- Sign-in and password resets: every account's user with an e-mail.
CREATE INDEX users_email ON users (email, id);
COMMIT;
PRAGMA foreign_keys = ON;

-- +goose Down
-- Back to one user per e-mail across all accounts: fails while an e-mail has users in two.
PRAGMA foreign_keys = OFF;
BEGIN IMMEDIATE;
CREATE TABLE users_old (
    id                  INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id          INTEGER NOT NULL REFERENCES accounts (id),
    email               TEXT    NOT NULL UNIQUE,
    role                TEXT    NOT NULL CHECK (role IN ('owner', 'agent')),
    password_hash       TEXT    NOT NULL DEFAULT '',
    lang                TEXT    NOT NULL DEFAULT '',
    created_at          TEXT    NOT NULL,
    last_sign_in_at     TEXT    NOT NULL DEFAULT '',
    password_changed_at TEXT    NOT NULL DEFAULT ''
);
INSERT INTO users_old (id, account_id, email, role, password_hash, lang, created_at, last_sign_in_at,
    password_changed_at)
SELECT id, account_id, email, role, password_hash, lang, created_at, last_sign_in_at, password_changed_at
FROM users;
DELETE FROM sqlite_sequence WHERE name = 'users_old';
INSERT INTO sqlite_sequence (name, seq) SELECT 'users_old', seq FROM sqlite_sequence WHERE name = 'users';
DROP TABLE users;
ALTER TABLE users_old RENAME TO users;
CREATE INDEX users_account ON users (account_id, id);
COMMIT;
PRAGMA foreign_keys = ON;
