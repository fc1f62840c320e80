package sqlite_test

import (
	"context"
	"testing"

	"svc/internal/store"
)

// Migration 12 rebuilds the full-text index with account-scoped tokens and fills the running
// chunk totals. Chunks indexed the old way (a tenant token per row) must be found after it,
// by their own account only, narrowed by type, and counted by TermStats.
func TestUpgradeToScopedIndex(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	migrationsAt(t, dir, 11)
	const at = "2025-01-02T08:00:00.000000Z"
	rawExec(t, dir,
		`INSERT INTO accounts (id, name, plan, lang, balance_micro, tone_preset, send_rate_per_min, daily_answers,
			input_rate_micro, output_rate_micro, created_at, updated_at, reserved_micro)
			VALUES (1, 'One', 'starter', 'en', 0, 'professional', 15, 200, 1, 1, '`+at+`', '`+at+`', 0),
			       (2, 'Two', 'starter', 'en', 0, 'professional', 15, 200, 1, 1, '`+at+`', '`+at+`', 0)`,
		`INSERT INTO documents (id, account_id, type, natural_key, title, lang, created_at, updated_at)
			VALUES (1, 1, 'page', 'p1', 'Boots', 'en', '`+at+`', '`+at+`'),
			       (2, 1, 'qa', 'q1', 'Do boots ship?', 'en', '`+at+`', '`+at+`'),
			       (3, 2, 'page', 'p2', 'Boots', 'en', '`+at+`', '`+at+`')`,
		`INSERT INTO chunks (id, account_id, document_id, ord, text, terms, term_count)
			VALUES (1, 1, 1, 0, 'Boots ship free.', 'boot ship free', 3),
			       (2, 1, 2, 0, 'They ship in a day.', 'boot ship day', 3),
			       (3, 2, 3, 0, 'Boots.', 'boot', 1)`,
		`INSERT INTO chunks_fts (rowid, terms, tenant) VALUES (1, 'boot ship free', 'a1'), (2, 'boot ship day', 'a1'),
			(3, 'boot', 'a2')`,
	)
	s := open(t, dir)
	defer s.Close()
	ctx := context.Background()
	boot := []store.SearchTerm{{Text: "boot"}}
	hits, err := s.SearchChunks(ctx, 1, store.SearchQuery{Terms: boot, Limit: 10})
	if err != nil || len(hits) != 2 {
		t.Fatalf("account 1 after the rebuild: %v %+v", err, hits)
	}
	qa, err := s.SearchChunks(ctx, 1, store.SearchQuery{Terms: boot, Types: []string{store.DocQA}, Limit: 10})
	if err != nil || len(qa) != 1 || qa[0].DocID != 2 {
		t.Fatalf("account 1's Q&A after the rebuild: %v %+v", err, qa)
	}
	if hits, err := s.SearchChunks(ctx, 2, store.SearchQuery{Terms: []store.SearchTerm{{Text: "ship"}}, Limit: 10}); err != nil || len(hits) != 0 {
		t.Fatalf("account 2 found account 1's chunks: %v %+v", err, hits)
	}
	st, err := s.TermStats(ctx, 1, []store.SearchTerm{{Text: "ship"}, {Text: "fre", Prefix: true}})
	if err != nil || st.Chunks != 2 || st.AvgLength != 3 || st.DocFreq["ship"] != 2 || st.DocFreq["fre"] != 1 {
		t.Fatalf("account 1's statistics after the rebuild: %v %+v", err, st)
	}
	if st, _ := s.TermStats(ctx, 2, nil); st.Chunks != 1 || st.AvgLength != 1 {
		t.Fatalf("account 2's statistics after the rebuild: %+v", st)
	}
}
