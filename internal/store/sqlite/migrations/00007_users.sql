-- +goose Up
-- Dashboard users, their signed-in sessions and their one-time links (invite, reset).

-- email is lower-cased by the caller and unique across every account, so a sign-in names
-- exactly one account. password_hash is a PHC argon2id string, '' until the user sets one.
-- Times that may not have happened yet are '' (never).
CREATE TABLE users (
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
-- The account's user list, oldest first.
CREATE INDEX users_account ON users (account_id, id);

-- Only the SHA-256 of a session's random id is kept, so a copy of the database signs nobody
-- in. account_id is the user's, copied so that tenant-scoped deletes need no join.
CREATE TABLE sessions (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    hash         BLOB    NOT NULL UNIQUE,
    user_id      INTEGER NOT NULL REFERENCES users (id),
    account_id   INTEGER NOT NULL REFERENCES accounts (id),
    user_agent   TEXT    NOT NULL DEFAULT '',
    created_at   TEXT    NOT NULL,
    last_seen_at TEXT    NOT NULL,
    expires_at   TEXT    NOT NULL
);
-- Ending every session of a user (removal, password change).
CREATE INDEX sessions_user ON sessions (user_id);
-- The sweep of idle and expired sessions.
CREATE INDEX sessions_last_seen ON sessions (last_seen_at);
CREATE INDEX sessions_expires ON sessions (expires_at);

-- One-time links; only the SHA-256 of the secret is kept. used_at is '' until redeemed.
CREATE TABLE auth_tokens (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    hash       BLOB    NOT NULL UNIQUE,
    user_id    INTEGER NOT NULL REFERENCES users (id),
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    kind       TEXT    NOT NULL CHECK (kind IN ('invite', 'reset')),
    created_at TEXT    NOT NULL,
    expires_at TEXT    NOT NULL,
    used_at    TEXT    NOT NULL DEFAULT ''
);
-- Ending a user's unused links (password set, removal).
CREATE INDEX auth_tokens_user ON auth_tokens (user_id, used_at);
-- The sweep of expired links.
CREATE INDEX auth_tokens_expires ON auth_tokens (expires_at);

-- +goose Down
DROP TABLE auth_tokens;
DROP TABLE sessions;
DROP TABLE users;
