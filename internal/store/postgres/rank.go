package postgres

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"svc/internal/store"
	"svc/internal/textindex/bm25"
)

// rankedChunk is a matching chunk and its BM25 score.
type rankedChunk struct {
	id    int64
	score float64
}

// rankMatches runs query, which yields (chunk id, terms, scope tokens, kept) for every chunk of the account
// matching any of terms, and returns the best limit kept chunks by BM25 (higher first, then
// by id). Every matching chunk counts towards a term's document frequency, kept or not, so
// narrowing a search to a type or a site does not change how rare a term is; the chunk count
// and mean length are the account's running totals (kb_stats). A chunk's length counts its
// terms and its scope tokens, as FTS5's counts every column of the row. This is the formula FTS5's
// bm25() computes, so a search picks the candidates the SQLite store picks, up to FTS5 taking
// its totals over the whole table where this takes the account's.
func (s *Store) rankMatches(ctx context.Context, accountID int64, terms []store.SearchTerm, query string, args []any,
	limit int) ([]rankedChunk, error) {
	var chunks, total int64
	if err := s.db.QueryRowContext(ctx, `SELECT COALESCE(SUM(chunks), 0), COALESCE(SUM(terms + scope_tokens), 0)
		FROM kb_stats WHERE account_id = ?`, accountID).Scan(&chunks, &total); err != nil {
		return nil, fmt.Errorf("search chunks: totals: %w", err)
	}
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("search chunks: %w", err)
	}
	defer rows.Close()
	type match struct {
		id   int64
		tf   []int
		size int
		kept bool
	}
	var matches []match
	df := make([]int, len(terms))
	for rows.Next() {
		var m match
		var text string
		var scope int
		if err := rows.Scan(&m.id, &text, &scope, &m.kept); err != nil {
			return nil, fmt.Errorf("search chunks: %w", err)
		}
		fields := strings.Fields(text)
		m.size, m.tf = len(fields)+scope, termFrequencies(terms, fields)
		for i, n := range m.tf {
			if n > 0 {
				df[i]++
			}
		}
		if m.kept {
			matches = append(matches, m)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("search chunks: %w", err)
	}
	n := float64(max(chunks, int64(len(matches))))
	avg := 1.0
	if chunks > 0 && total > 0 {
		avg = float64(total) / float64(chunks)
	}
	// The SQLite store ranks its candidates with bm25(chunks_fts, 1.0, 0.0): FTS5's IDF, which
	// floors a term in over half the rows at a millionth, and the usual K1 and B over the
	// terms column alone.
	model := bm25.FTS5()
	idf := make([]float64, len(terms))
	for i, d := range df {
		idf[i] = model.IDF(n, float64(d))
	}
	out := make([]rankedChunk, len(matches))
	for j, m := range matches {
		var score float64
		for i, f := range m.tf {
			score += model.Score(idf[i], float64(f), float64(m.size), avg)
		}
		out[j] = rankedChunk{id: m.id, score: score}
	}
	slices.SortFunc(out, func(a, b rankedChunk) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return cmp.Compare(a.id, b.id)
	})
	if len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// termFrequencies counts, for each query term, the chunk's terms it matches (bm25.Match:
// equal, or starting with it for a prefix term, as FTS5 counts every token a prefix phrase
// matches). An empty query term, which tsQuery drops, matches nothing.
func termFrequencies(terms []store.SearchTerm, fields []string) []int {
	tf := make([]int, len(terms))
	for i, t := range terms {
		for _, f := range fields {
			if bm25.Match(t.Text, t.Prefix, f) {
				tf[i]++
			}
		}
	}
	return tf
}

// sortHits orders hits as rankMatches ranked them.
func sortHits(hits []store.ChunkHit) {
	slices.SortFunc(hits, func(a, b store.ChunkHit) int {
		switch {
		case a.Rank > b.Rank:
			return -1
		case a.Rank < b.Rank:
			return 1
		}
		return cmp.Compare(a.ChunkID, b.ChunkID)
	})
}
