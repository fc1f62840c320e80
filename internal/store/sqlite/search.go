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
	if ok, err := s.SearchWorthwhile(ctx, accountID, &q); err != nil || !ok {
		return []store.ChunkHit{}, err
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
