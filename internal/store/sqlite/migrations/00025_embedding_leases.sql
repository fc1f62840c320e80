-- +goose Up
-- Semantic retrieval (issue 25): which process is embedding an account's knowledge base, and
-- until when. Replicas (and `svc kb reindex` beside a server) would otherwise embed, and
-- bill, the same chunks side by side; a worker embeds an account only while it holds the
-- account's lease, renewed before every batch and released when it is done. An expired lease
-- (its process died) is anyone's.
CREATE TABLE embedding_leases (
    account_id INTEGER PRIMARY KEY REFERENCES accounts (id),
    holder     TEXT    NOT NULL,
    expires_at TEXT    NOT NULL
);

-- +goose Down
DROP TABLE embedding_leases;
