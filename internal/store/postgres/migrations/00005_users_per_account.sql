-- +goose Up
-- One person may be a user of several accounts (an agency's staff in each client's
-- dashboard): an e-mail is unique within an account, no longer across all of them, so an
-- invite no longer tells whether an e-mail has a user elsewhere (SQLite's 00021).
ALTER TABLE users DROP CONSTRAINT users_email_key;
CREATE UNIQUE INDEX users_account_email ON users (account_id, email);
-- Sign-in and password resets: every account's user with an e-mail.
CREATE INDEX users_email ON users (email, id);

-- +goose Down
-- Back to one user per e-mail across all accounts: fails while an e-mail has users in two.
DROP INDEX users_email;
DROP INDEX users_account_email;
ALTER TABLE users ADD CONSTRAINT users_email_key UNIQUE (email);
