package postgres

import (
	"context"
	"database/sql"
	"fmt"

	"svc/internal/store"
	"svc/internal/store/sqlstore"
)

// SearchChunks returns candidate chunks of the account ranked by BM25 as FTS5 computes it
// (k1 1.2, b 0.75; see rank.go), of one of its sites when q.SiteID is set. The GIN index finds
// the matching chunks of the account; only their ids and terms are read to rank them, and
// the full rows of the best Limit are read after.
func (s *Store) SearchChunks(ctx context.Context, accountID int64, q store.SearchQuery) ([]store.ChunkHit, error) {
	expr := tsQuery(accountID, q.Terms)
	if expr == "" {
		return []store.ChunkHit{}, nil
	}
	if ok, err := s.SearchWorthwhile(ctx, accountID, &q); err != nil || !ok {
		return []store.ChunkHit{}, err
	}
	// The narrowing by type and site is a column, not a condition: a term's document
	// frequency counts the whole account's chunks, as FTS5's bm25 does.
	keep, args := "TRUE", []any{}
	if len(q.Types) > 0 || q.SiteID != 0 {
		keep = `c.document_id IN (SELECT d.id FROM documents d WHERE d.account_id = ?`
		args = append(args, accountID)
		if len(q.Types) > 0 {
			keep += ` AND d.type IN (` + sqlstore.Placeholders(len(q.Types)) + `)`
			for _, t := range q.Types {
				args = append(args, t)
			}
		}
		if q.SiteID != 0 {
			keep += ` AND d.site_id = ?`
			args = append(args, q.SiteID)
		}
		keep += `)`
	}
	args = append(args, accountID, expr)
	ranked, err := s.rankMatches(ctx, accountID, q.Terms, `SELECT c.id, c.terms, c.scope_tokens, `+keep+` FROM chunks c
		WHERE c.account_id = ? AND c.terms_tsv @@ ?::tsquery`, args, q.Limit)
	if err != nil || len(ranked) == 0 {
		return []store.ChunkHit{}, err
	}
	ids := make([]any, 0, len(ranked)+1)
	ids = append(ids, accountID)
	score := make(map[int64]float64, len(ranked))
	for _, r := range ranked {
		ids = append(ids, r.id)
		score[r.id] = r.score
	}
	rows, err := s.db.QueryContext(ctx, `SELECT c.id, c.document_id, d.type, d.title, d.url, d.lang, c.heading, c.text,
		c.terms, c.tokens, p.name, p.url, p.price, p.category, p.image
		FROM chunks c JOIN documents d ON d.id = c.document_id LEFT JOIN products p ON p.document_id = d.id
		WHERE c.account_id = ? AND c.id IN (`+sqlstore.Placeholders(len(ranked))+`)`, ids...)
	if err != nil {
		return nil, fmt.Errorf("search chunks: %w", err)
	}
	defer rows.Close()
	out := make([]store.ChunkHit, 0, len(ranked))
	for rows.Next() {
		var h store.ChunkHit
		var pName, pURL, pPrice, pCat, pImg sql.NullString
		if err := rows.Scan(&h.ChunkID, &h.DocID, &h.DocType, &h.Title, &h.URL, &h.Lang, &h.Heading, &h.Text,
			&h.Terms, &h.Tokens, &pName, &pURL, &pPrice, &pCat, &pImg); err != nil {
			return nil, fmt.Errorf("search chunks: %w", err)
		}
		h.Rank = score[h.ChunkID]
		if pName.Valid {
			h.Product = &store.Product{Name: pName.String, URL: pURL.String, Price: pPrice.String,
				Category: pCat.String, Image: pImg.String}
		}
		out = append(out, h)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("search chunks: %w", err)
	}
	sortHits(out)
	return out, nil
}
