-- +goose Up
-- The similar-question lookup counts, for every cached entry, the question's terms it shares
-- (SimilarCached). With entry_id outside the index each matching term cost a second lookup
-- in the table; in the index, the count reads the index alone.
DROP INDEX answer_cache_terms_term;
CREATE INDEX answer_cache_terms_term ON answer_cache_terms (account_id, lang, term, entry_id);

-- +goose Down
DROP INDEX answer_cache_terms_term;
CREATE INDEX answer_cache_terms_term ON answer_cache_terms (account_id, lang, term);
