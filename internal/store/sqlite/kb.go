package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"

	"svc/internal/store"
)

// SearchChunks returns candidate chunks of the account ranked by FTS5's bm25, of one of its
// sites when q.SiteID is set. The index ranks and cuts to the limit before any table is
// joined, so only the chunks returned are read: CROSS JOIN keeps that order, since the
// planner otherwise walked every chunk of the account and probed the ranked rows.
func (s *Store) SearchChunks(ctx context.Context, accountID int64, q store.SearchQuery) ([]store.ChunkHit, error) {
	expr := matchExpr(accountID, q.Terms, q.Types, q.SiteID)
	if expr == "" {
		return []store.ChunkHit{}, nil
	}
	if q.Limit <= 0 {
		q.Limit = 20
	}
	if len(q.Types) > 0 {
		// Narrowed to types the account has no chunk of (the curated-answer check of a KB
		// without Q&A entries, a product lookup in a KB without products): nothing to read.
		if has, err := s.HasChunksOf(ctx, accountID, q.Types); err != nil || !has {
			return []store.ChunkHit{}, err
		}
	}
	rows, err := s.r.QueryContext(ctx, `SELECT c.id, c.document_id, d.type, d.title, d.url, d.lang, c.heading, c.text,
		c.terms, c.tokens, f.score, p.name, p.url, p.price, p.category, p.image
		FROM (SELECT rowid AS id, -bm25(chunks_fts, 1.0, 0.0) AS score FROM chunks_fts WHERE chunks_fts MATCH ? || ''
			ORDER BY bm25(chunks_fts, 1.0, 0.0) LIMIT `+strconv.Itoa(q.Limit)+`) f
		CROSS JOIN chunks c ON c.id = f.id CROSS JOIN documents d ON d.id = c.document_id
		LEFT JOIN products p ON p.document_id = d.id
		WHERE c.account_id = ? ORDER BY f.score DESC, c.id`, expr, accountID)
	if err != nil {
		return nil, fmt.Errorf("search chunks: %w", err)
	}
	defer rows.Close()
	out := []store.ChunkHit{}
	for rows.Next() {
		var h store.ChunkHit
		var pName, pURL, pPrice, pCat, pImg sql.NullString
		if err := rows.Scan(&h.ChunkID, &h.DocID, &h.DocType, &h.Title, &h.URL, &h.Lang, &h.Heading, &h.Text,
			&h.Terms, &h.Tokens, &h.Rank, &pName, &pURL, &pPrice, &pCat, &pImg); err != nil {
			return nil, fmt.Errorf("search chunks: %w", err)
		}
		if pName.Valid {
			h.Product = &store.Product{Name: pName.String, URL: pURL.String, Price: pPrice.String,
				Category: pCat.String, Image: pImg.String}
		}
		out = append(out, h)
	}
	return out, rows.Err()
}

// TermStats counts, for the account only, its chunks, their mean length and each term's
// document frequency, so that ranking of one tenant never depends on another's corpus. The
// statistics stay the whole account's when its search is scoped to one site (the method
// takes no query to scope); the candidates themselves are the site's only. The counts of
// chunks and terms are running totals kept with the chunks (kb_stats); a term's frequency
// reads that term's list of this account in the index, and is remembered under the version
// of the account's chunks it was counted at (see docFreqs).
func (s *Store) TermStats(ctx context.Context, accountID int64, terms []store.SearchTerm) (store.TermStats, error) {
	st := store.TermStats{DocFreq: make(map[string]int, len(terms))}
	var total, version int64
	err := s.r.QueryRowContext(ctx, `SELECT COALESCE(SUM(chunks), 0), COALESCE(SUM(terms), 0), COALESCE(SUM(version), 0)
		FROM kb_stats WHERE account_id = ?`, accountID).Scan(&st.Chunks, &total, &version)
	if err != nil {
		return st, fmt.Errorf("chunk stats: %w", err)
	}
	if st.Chunks > 0 {
		st.AvgLength = float64(total) / float64(st.Chunks)
	}
	for _, t := range terms {
		expr := matchExpr(accountID, []store.SearchTerm{t}, nil, 0)
		if expr == "" {
			continue
		}
		if _, seen := st.DocFreq[t.Text]; seen {
			continue
		}
		key := dfKey{account: accountID, version: version, term: t.Text, prefix: t.Prefix}
		if n, ok := s.docFreqs.Get(key); ok {
			st.DocFreq[t.Text] = n
			continue
		}
		var n int
		if err := s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM chunks_fts WHERE chunks_fts MATCH ? || ''`,
			expr).Scan(&n); err != nil {
			return st, fmt.Errorf("term stats: %w", err)
		}
		st.DocFreq[t.Text] = n
		s.docFreqs.Add(key, n)
	}
	return st, nil
}

// dfKey names a term's document frequency in an account's chunks at one version of them.
//
// The versions of an account's kb_stats rows only grow, and every change of its chunks
// adds one to one of them in the same transaction, so their sum names one state of the
// chunks: a count remembered under it is the count of that state, and the first question
// after any change (by this process or another, such as `svc kb import`) reads a new sum and
// counts again. Counting was one FTS query a term, a sixth of a new answer's time.
type dfKey struct {
	account, version int64
	term             string
	prefix           bool
}

// docFreqsKept bounds the remembered term counts (a few MB at most).
const docFreqsKept = 32768
