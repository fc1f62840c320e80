-- +goose Up
-- Semantic retrieval (issue 25): which process is embedding an account's knowledge base, and
-- until when; SQLite's 00025. Replicas would otherwise embed, and bill, the same chunks side
-- by side; a worker embeds an account only while it holds the account's lease, renewed
-- before every batch and released when it is done. An expired lease is anyone's.
CREATE TABLE embedding_leases (
    account_id BIGINT PRIMARY KEY REFERENCES accounts (id),
    holder     TEXT   NOT NULL,
    expires_at TEXT   NOT NULL
);

-- +goose Down
DROP TABLE embedding_leases;
