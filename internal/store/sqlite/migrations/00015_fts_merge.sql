-- +goose Up
-- A search reads every segment of the full-text index once per query term. KB writes now
-- merge in bounded steps (kbWritten); usermerge 2 lets a step merge any two segments of one
-- level instead of waiting for four. The index as it stands is merged into one segment once.
INSERT INTO chunks_fts (chunks_fts, rank) VALUES ('usermerge', 2);
INSERT INTO chunks_fts (chunks_fts) VALUES ('optimize');

-- +goose Down
INSERT INTO chunks_fts (chunks_fts, rank) VALUES ('usermerge', 4);
