-- +goose Up
-- A not_helpful rating remembers the evidence (engine.Answer.Evidence) of the answer it
-- flags, so that no cached answer drawn from the same sentences is served again: not the
-- entry that made the message, not one that served it from the cache, not one cached later
-- for a similar question (SaveFeedback, CachedAnswer, SimilarCached).
ALTER TABLE feedback ADD COLUMN evidence TEXT NOT NULL DEFAULT '';
CREATE INDEX feedback_flagged_evidence ON feedback (account_id, evidence)
    WHERE rating = 'not_helpful' AND evidence <> '';

-- +goose Down
DROP INDEX feedback_flagged_evidence;
ALTER TABLE feedback DROP COLUMN evidence;
