package sqlite_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"

	"svc/internal/store"
	"svc/internal/store/sqlite"
	"svc/internal/store/storetest"
)

// segments counts the full-text index's segments (each has its own rows in the %_idx table).
func segments(t *testing.T, dir string) int {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, sqlite.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow(`SELECT COUNT(DISTINCT segid) FROM chunks_fts_idx`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// A KB written in several transactions must not keep the segments each one flushed: a search
// reads every segment once per query term. Every KB write merges a bounded step, so the index
// keeps about one segment a level, and every document is still found.
func TestKBWritesMergeIndexSegments(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := open(t, dir)
	ctx := context.Background()
	a, _ := storetest.NewAccount(t, s, "Merged", 0)
	// Four imports of 300 pages each, of 40 words: a large write flushes several segments of
	// its own.
	const writes, pages = 4, 300
	for w := range writes {
		docs := make([]store.Document, pages)
		for i := range docs {
			n := w*pages + i
			terms := "boot ship"
			for j := range 40 {
				terms += fmt.Sprintf(" w%d", (n*7+j*13)%5000)
			}
			docs[i] = store.Document{Type: store.DocPage, Lang: "en", URL: fmt.Sprintf("https://example.com/p%d", n),
				Title: fmt.Sprintf("Page %d", n), Body: "Our boots ship fast.", Hash: fmt.Sprint(n),
				Chunks: []store.Chunk{{Text: "Our boots ship fast.", Terms: terms}}}
		}
		if _, err := s.ImportDocuments(ctx, a.ID, docs); err != nil {
			t.Fatal(err)
		}
	}
	hits, err := s.SearchChunks(ctx, a.ID, store.SearchQuery{Terms: []store.SearchTerm{{Text: "boot"}}, Limit: 2000})
	if err != nil || len(hits) != writes*pages {
		t.Fatalf("search after %d writes: %v, %d hits", writes, err, len(hits))
	}
	s.Close()
	// FTS5 alone (automerge 4, in proportion to what each write adds) left six here.
	if n := segments(t, dir); n > 3 {
		t.Fatalf("%d writes left %d index segments, want at most 3", writes, n)
	}
}

// Migration 15 merges an index left in many segments into one, and its down step keeps the
// index searchable.
func TestMigrationMergesIndex(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	migrationsAt(t, dir, 14)
	const at = "2025-01-02T08:00:00.000000Z"
	rawExec(t, dir, `INSERT INTO accounts (id, name, plan, lang, balance_micro, tone_preset, send_rate_per_min,
		daily_answers, input_rate_micro, output_rate_micro, created_at, updated_at, reserved_micro)
		VALUES (1, 'One', 'starter', 'en', 0, 'professional', 15, 200, 1, 1, '`+at+`', '`+at+`', 0)`)
	for i := 1; i <= 12; i++ {
		rawExec(t, dir,
			fmt.Sprintf(`INSERT INTO documents (id, account_id, type, natural_key, title, lang, created_at, updated_at)
				VALUES (%d, 1, 'page', 'p%d', 'Boots', 'en', '%s', '%s')`, i, i, at, at),
			fmt.Sprintf(`INSERT INTO chunks (id, account_id, document_id, ord, text, terms, term_count)
				VALUES (%d, 1, %d, 0, 'Boots ship.', 'boot ship', 2)`, i, i),
			fmt.Sprintf(`INSERT INTO chunks_fts (rowid, terms, scope) VALUES (%d, 'a1_boot a1_ship', 'a1_tpage')`, i))
	}
	if n := segments(t, dir); n < 12 {
		t.Fatalf("the set-up left %d segments, want one a write (12)", n)
	}
	migrationsAt(t, dir, 15)
	if n := segments(t, dir); n != 1 {
		t.Fatalf("after migration 15: %d segments, want 1", n)
	}
	migrationsAt(t, dir, 14)
	s := open(t, dir)
	defer s.Close()
	hits, err := s.SearchChunks(context.Background(), 1, store.SearchQuery{Terms: []store.SearchTerm{{Text: "ship"}}, Limit: 20})
	if err != nil || len(hits) != 12 {
		t.Fatalf("search after the migration: %v, %d hits", err, len(hits))
	}
}
