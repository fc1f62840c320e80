-- +goose Up
-- Semantic retrieval (issue 25): each KB chunk's embedding, one per chunk and model, as the
-- vector package encoded it ("f32", "f16", "i8"). A chunk's text never changes under its id
-- (a changed document's chunks are deleted and inserted anew, AUTOINCREMENT never reuses an
-- id), so the cascade from chunks is all it takes for a vector to go with its text.
-- "What is not embedded yet" is the account's chunks in id order (chunks_account, whose
-- entries end in the rowid) probed against the primary key; "all vectors of an account and
-- model" is chunk_vectors_account, which also counts them without reading a row. A row
-- is kept with its rowid (not WITHOUT ROWID): a vector of 1,024 floats fills a page.
CREATE TABLE chunk_vectors (
    chunk_id   INTEGER NOT NULL REFERENCES chunks (id) ON DELETE CASCADE,
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    model      TEXT    NOT NULL,
    dim        INTEGER NOT NULL,
    encoding   TEXT    NOT NULL,
    data       BLOB    NOT NULL,
    created_at TEXT    NOT NULL,
    PRIMARY KEY (chunk_id, model)
);
CREATE INDEX chunk_vectors_account ON chunk_vectors (account_id, model, chunk_id);

-- One row per account and model that has had vectors: the shape of its last vectors (the
-- dashboard's status) and a version that grows with every change of them, which with the
-- KB's version (kb_stats) tells a process that its in-memory index is stale.
CREATE TABLE vector_models (
    account_id INTEGER NOT NULL REFERENCES accounts (id),
    model      TEXT    NOT NULL,
    dim        INTEGER NOT NULL,
    encoding   TEXT    NOT NULL,
    version    INTEGER NOT NULL,
    updated_at TEXT    NOT NULL,
    PRIMARY KEY (account_id, model)
);

-- +goose Down
DROP TABLE vector_models;
DROP TABLE chunk_vectors;
