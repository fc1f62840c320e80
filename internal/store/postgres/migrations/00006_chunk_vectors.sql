-- +goose Up
-- Semantic retrieval (issue 25): each KB chunk's embedding, one per chunk and model, as the
-- vector package encoded it ("f32", "f16", "i8"); SQLite's 00022. A chunk's text never
-- changes under its id (a changed document's chunks are deleted and inserted anew under new
-- identity values), so the cascade from chunks is all it takes for a vector to go with its
-- text. "All vectors of an account and model" is chunk_vectors_account.
CREATE TABLE chunk_vectors (
    chunk_id   BIGINT NOT NULL REFERENCES chunks (id) ON DELETE CASCADE,
    account_id BIGINT NOT NULL REFERENCES accounts (id),
    model      TEXT   NOT NULL,
    dim        BIGINT NOT NULL,
    encoding   TEXT   NOT NULL,
    data       BYTEA  NOT NULL,
    created_at TEXT   NOT NULL,
    PRIMARY KEY (chunk_id, model)
);
-- Vectors barely compress: a vector past TOAST's threshold (2 KB: 512 floats) is moved out
-- of line without the attempt.
ALTER TABLE chunk_vectors ALTER COLUMN data SET STORAGE EXTERNAL;
CREATE INDEX chunk_vectors_account ON chunk_vectors (account_id, model, chunk_id);

-- "What is not embedded yet" walks the account's chunks in id order, probing the primary
-- key above: chunks_account gains the id, as SQLite's index has it (its rowid).
CREATE INDEX chunks_account_id ON chunks (account_id, id);
DROP INDEX chunks_account;

-- One row per account and model that has had vectors: the shape of its last vectors (the
-- dashboard's status) and a version that grows with every change of them, which with the
-- KB's version (kb_stats) tells a process that its in-memory index is stale.
CREATE TABLE vector_models (
    account_id BIGINT NOT NULL REFERENCES accounts (id),
    model      TEXT   NOT NULL,
    dim        BIGINT NOT NULL,
    encoding   TEXT   NOT NULL,
    version    BIGINT NOT NULL,
    updated_at TEXT   NOT NULL,
    PRIMARY KEY (account_id, model)
);

-- +goose Down
DROP TABLE vector_models;
CREATE INDEX chunks_account ON chunks (account_id);
DROP INDEX chunks_account_id;
DROP TABLE chunk_vectors;
