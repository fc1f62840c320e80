package sqlite

import (
	"context"
	"fmt"
	"iter"
	"strings"
	"testing"
	"time"

	"svc/internal/store"
	"svc/internal/store/sqlstore"
)

// vectorFixture builds accounts of the given chunk counts, each with the first half of its
// chunks embedded (an embedder's run half done), and returns the store and the account ids.
func vectorFixture(tb testing.TB, sizes ...int) (*Store, []int64) {
	tb.Helper()
	ctx := context.Background()
	s, err := Open(ctx, tb.TempDir(), Options{})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	var ids []int64
	for i, n := range sizes {
		a := store.Account{Name: fmt.Sprintf("a%d", i), Plan: store.PlanGrowth, Lang: "en", TonePreset: store.ToneProfessional}
		if err := s.CreateAccount(ctx, &a, nil); err != nil {
			tb.Fatal(err)
		}
		ids = append(ids, a.ID)
		docs := iter.Seq2[store.Document, error](func(yield func(store.Document, error) bool) {
			for d := 0; d < n; d += 10 {
				doc := store.Document{Type: store.DocPage, URL: fmt.Sprintf("https://shop.test/%d", d), Title: "Page",
					Body: "Body.", Lang: "en", Hash: fmt.Sprint(d)}
				for c := d; c < min(d+10, n); c++ {
					doc.Chunks = append(doc.Chunks, store.Chunk{Text: fmt.Sprintf("Part %d.", c), Terms: fmt.Sprintf("part p%d", c)})
				}
				if !yield(doc, nil) {
					return
				}
			}
		})
		if _, err := s.ImportDocumentSeq(ctx, a.ID, docs); err != nil {
			tb.Fatal(err)
		}
		for left := n / 2; left > 0; {
			todo, err := s.ChunksToEmbed(ctx, a.ID, "m", 0, min(left, 500))
			if err != nil {
				tb.Fatal(err)
			}
			vecs := make([]store.ChunkVector, len(todo))
			for k, c := range todo {
				vecs[k] = store.ChunkVector{ChunkID: c.ID, Dim: 1024, Encoding: "i8", Data: make([]byte, 1024)}
			}
			if _, err := s.PutChunkVectors(ctx, a.ID, "m", vecs); err != nil {
				tb.Fatal(err)
			}
			left -= len(todo)
		}
	}
	return s, ids
}

// The embedder's queries read indexes bounded by the account (and model), never a whole
// table: the queue walks the account's chunks in id order, the counts read indexes alone.
func TestVectorQueryPlans(t *testing.T) {
	s, ids := vectorFixture(t, 300, 200)
	ctx := context.Background()
	for _, c := range []struct {
		name  string
		query string
		args  []any
		uses  []string
	}{
		{"ChunksToEmbed", sqlstore.ChunksToEmbedQuery, []any{ids[0], 0, "m", 64},
			[]string{"SEARCH c USING INDEX chunks_account (account_id=? AND rowid>?)",
				"SEARCH v USING COVERING INDEX sqlite_autoindex_chunk_vectors_1 (chunk_id=? AND model=?)"}},
		{"AccountsToEmbed", sqlstore.AccountsToEmbedQuery, []any{0, "m", 10},
			[]string{"SEARCH c USING COVERING INDEX chunks_account (account_id=?)",
				"SEARCH v USING COVERING INDEX chunk_vectors_account (account_id=? AND model=?)"}},
		{"ChunkVectors", sqlstore.ChunkVectorsQuery, []any{ids[0], "m"},
			[]string{"SEARCH v USING INDEX chunk_vectors_account (account_id=? AND model=?)"}},
		{"ModelVectors", sqlstore.ModelVectorsQuery, []any{ids[0]},
			[]string{"SEARCH m USING INDEX sqlite_autoindex_vector_models_1 (account_id=?)",
				"SEARCH v USING COVERING INDEX chunk_vectors_account (account_id=? AND model=?)"}},
	} {
		rows, err := s.r.QueryContext(ctx, "EXPLAIN QUERY PLAN "+c.query, c.args...)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var lines []string
		for rows.Next() {
			var id, parent, unused int
			var detail string
			if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
				t.Fatal(err)
			}
			lines = append(lines, detail)
		}
		rows.Close()
		text := strings.Join(lines, "\n")
		if testing.Verbose() {
			t.Logf("%s:\n%s", c.name, text)
		}
		for _, line := range lines {
			// Only the accounts are walked whole (AccountsToEmbed pages them by id).
			if m := baseScan.FindStringSubmatch(line); m != nil && m[1] != "a" {
				t.Errorf("%s scans %s:\n%s", c.name, m[1], text)
			}
			if strings.Contains(line, "TEMP B-TREE") {
				t.Errorf("%s sorts:\n%s", c.name, text)
			}
		}
		for _, use := range c.uses {
			if !strings.Contains(text, use) {
				t.Errorf("%s does not use %s:\n%s", c.name, use, text)
			}
		}
	}
}

// BenchmarkVectorQueue times the embedder's reads on an account of 50,000 chunks, the first
// half of them embedded, beside ten accounts of 1,000: a page of the queue from the start
// (walking the 25,000 embedded chunks) and from the last id the walk was given, the
// accounts with work, the status, the version, and loading every vector of the account.
func BenchmarkVectorQueue(b *testing.B) {
	sizes := []int{50_000}
	for range 10 {
		sizes = append(sizes, 1_000)
	}
	start := time.Now()
	s, ids := vectorFixture(b, sizes...)
	b.Logf("fixture: %v", time.Since(start))
	ctx := context.Background()
	todo, err := s.ChunksToEmbed(ctx, ids[0], "m", 0, 25_000)
	if err != nil || len(todo) != 25_000 {
		b.Fatal(len(todo), err)
	}
	middle := todo[12_500].ID // a cursor in the part still to embed
	for _, c := range []struct {
		name string
		fn   func() error
	}{
		{"ChunksToEmbed/start", func() error { _, err := s.ChunksToEmbed(ctx, ids[0], "m", 0, 64); return err }},
		{"ChunksToEmbed/middle", func() error { _, err := s.ChunksToEmbed(ctx, ids[0], "m", middle, 64); return err }},
		{"AccountsToEmbed", func() error { _, err := s.AccountsToEmbed(ctx, "m", 0, 100); return err }},
		{"EmbeddingStatus", func() error { _, err := s.EmbeddingStatus(ctx, ids[0]); return err }},
		{"VectorVersion", func() error { _, err := s.VectorVersion(ctx, ids[0], "m"); return err }},
		{"ChunkVectors", func() error {
			return s.ChunkVectors(ctx, ids[0], "m", func(store.StoredVector) error { return nil })
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if err := c.fn(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
