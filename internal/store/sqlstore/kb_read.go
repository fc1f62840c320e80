package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"

	"svc/internal/store"
)

// Products reads product documents' first chunks and cards in one query, of one of the
// account's sites when q.SiteID is set. An account without products (the running totals
// say so) reads nothing more: every cached answer asks for its documents' cards.
func (s *Store) Products(ctx context.Context, accountID int64, q store.ProductQuery) ([]store.ChunkHit, error) {
	if q.Limit <= 0 {
		q.Limit = 50
	}
	if has, err := s.HasChunksOf(ctx, accountID, []string{store.DocProduct}); err != nil || !has {
		return []store.ChunkHit{}, err
	}
	where, args := ` AND d.lang = ?`, []any{q.Lang}
	switch {
	case len(q.DocIDs) > 0:
		where, args = ` AND d.id IN (`+strings.TrimSuffix(strings.Repeat("?,", len(q.DocIDs)), ",")+`)`, nil
		for _, id := range q.DocIDs {
			args = append(args, id)
		}
	case q.Lang == "":
		where, args = "", nil
	}
	if q.SiteID != 0 {
		where += ` AND d.site_id = ?`
		args = append(args, q.SiteID)
	}
	args = append([]any{accountID, store.DocProduct}, args...)
	rows, err := s.r.QueryContext(ctx, `SELECT c.id, d.id, d.type, d.title, d.url, d.lang, c.heading, c.text, c.terms,
		c.tokens, p.name, p.url, p.price, p.category, p.image
		FROM documents d JOIN products p ON p.document_id = d.id JOIN chunks c ON c.document_id = d.id AND c.ord = 0
		WHERE d.account_id = ? AND d.type = ?`+where+` ORDER BY d.id LIMIT `+strconv.Itoa(q.Limit), args...)
	if err != nil {
		return nil, fmt.Errorf("products: %w", err)
	}
	defer rows.Close()
	out := []store.ChunkHit{}
	for rows.Next() {
		var h store.ChunkHit
		p := &store.Product{}
		if err := rows.Scan(&h.ChunkID, &h.DocID, &h.DocType, &h.Title, &h.URL, &h.Lang, &h.Heading, &h.Text, &h.Terms,
			&h.Tokens, &p.Name, &p.URL, &p.Price, &p.Category, &p.Image); err != nil {
			return nil, fmt.Errorf("products: %w", err)
		}
		h.Product = p
		out = append(out, h)
	}
	return out, rows.Err()
}

// HasChunksOf reports whether the account has a chunk of any of the document types, from the
// running totals (KBState).
func (s *Store) HasChunksOf(ctx context.Context, accountID int64, types []string) (bool, error) {
	st, err := s.KBState(ctx, accountID)
	if err != nil {
		return false, err
	}
	for _, t := range types {
		if st.Chunks[t] > 0 {
			return true, nil
		}
	}
	return false, nil
}

// KBState reads the account's running chunk totals by type and their version (kb_stats): the
// sum of the rows' versions, which only grow, as TermStats reads it. A type's row stays when
// its chunks are all gone, and its version counts still.
func (s *Store) KBState(ctx context.Context, accountID int64) (store.KBState, error) {
	st := store.KBState{Chunks: map[string]int{}}
	rows, err := s.r.QueryContext(pointRead(ctx), `SELECT type, chunks, version FROM kb_stats WHERE account_id = ?`, accountID)
	if err != nil {
		return st, fmt.Errorf("kb state: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var typ string
		var n int
		var v int64
		if err := rows.Scan(&typ, &n, &v); err != nil {
			return st, fmt.Errorf("kb state: %w", err)
		}
		if n > 0 {
			st.Chunks[typ] = n
		}
		st.Version += v
	}
	return st, rows.Err()
}

// GetDocument reads one document of the account with its chunks.
func (s *Store) GetDocument(ctx context.Context, accountID, docID int64) (store.Document, error) {
	var d store.Document
	var site sql.NullInt64
	var created, updated string
	var pName, pURL, pPrice, pCat, pImg, pSKU sql.NullString
	err := s.r.QueryRowContext(ctx, `SELECT d.id, d.account_id, d.site_id, d.type, d.url, d.title, d.body, d.lang, d.hash,
		d.source_url, d.origin, d.created_at, d.updated_at, p.name, p.url, p.price, p.category, p.image, p.sku
		FROM documents d LEFT JOIN products p ON p.document_id = d.id WHERE d.id = ? AND d.account_id = ?`,
		docID, accountID).Scan(&d.ID, &d.AccountID, &site, &d.Type, &d.URL, &d.Title, &d.Body, &d.Lang, &d.Hash,
		&d.SourceURL, &d.Origin, &created, &updated, &pName, &pURL, &pPrice, &pCat, &pImg, &pSKU)
	if err != nil {
		return d, NotFound(err, "get document")
	}
	d.SiteID, d.CreatedAt, d.UpdatedAt = site.Int64, ParseTS(created), ParseTS(updated)
	if pName.Valid {
		d.Product = &store.Product{Name: pName.String, URL: pURL.String, Price: pPrice.String,
			Category: pCat.String, Image: pImg.String, SKU: pSKU.String}
	}
	rows, err := s.r.QueryContext(ctx, `SELECT id, ord, heading, text, terms, tokens FROM chunks WHERE document_id = ?
		ORDER BY ord`, d.ID)
	if err != nil {
		return d, fmt.Errorf("get chunks: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var c store.Chunk
		if err := rows.Scan(&c.ID, &c.Ord, &c.Heading, &c.Text, &c.Terms, &c.Tokens); err != nil {
			return d, fmt.Errorf("get chunks: %w", err)
		}
		d.Chunks = append(d.Chunks, c)
	}
	return d, rows.Err()
}

// QAQuestions returns curated questions in lang.
func (s *Store) QAQuestions(ctx context.Context, accountID int64, lang string, limit int) ([]string, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT title FROM documents WHERE account_id = ? AND type = ? AND lang = ?
		ORDER BY id LIMIT ?`, accountID, store.DocQA, lang, limit)
	if err != nil {
		return nil, fmt.Errorf("qa questions: %w", err)
	}
	return ScanStrings(rows)
}

// headingDocs bounds the documents Headings reads (their chunks, through chunks_document), so
// that starter questions cost the same on a KB of any size.
const headingDocs = 500

// Headings returns the section headings of the account's pages and articles in lang, each
// once per document, at most limit (a chunk's heading path "A › B" as it is stored), from
// the first headingDocs such documents: those with the most headings that end in a question
// mark first (a FAQ page), then in document order.
func (s *Store) Headings(ctx context.Context, accountID int64, lang string, limit int) ([]store.Heading, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT c.document_id, c.heading FROM chunks c
		JOIN (SELECT document_id, SUM(CASE WHEN heading LIKE ? THEN 1 ELSE 0 END) AS questions FROM chunks
			WHERE document_id IN (SELECT id FROM documents WHERE account_id = ? AND lang = ? AND type IN (?, ?)
				ORDER BY id LIMIT ?)
			GROUP BY document_id) d ON d.document_id = c.document_id
		WHERE c.heading <> '' ORDER BY d.questions DESC, c.document_id, c.ord LIMIT ?`,
		"%?", accountID, lang, store.DocArticle, store.DocPage, headingDocs, 4*limit)
	if err != nil {
		return nil, fmt.Errorf("headings: %w", err)
	}
	defer rows.Close()
	out := []store.Heading{}
	seen := map[store.Heading]bool{}
	for rows.Next() {
		var h store.Heading
		if err := rows.Scan(&h.DocID, &h.Text); err != nil {
			return nil, fmt.Errorf("headings: %w", err)
		}
		if len(out) < limit && !seen[h] {
			seen[h] = true
			out = append(out, h)
		}
	}
	return out, rows.Err()
}

// Articles lists the account's articles in lang ("" = every language), most viewed first.
func (s *Store) Articles(ctx context.Context, accountID int64, lang string, limit int) ([]store.Article, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT a.id, a.document_id, a.slug, a.title, a.excerpt, a.category_slug,
		a.category_name, a.view_count FROM articles a JOIN documents d ON d.id = a.document_id
		WHERE a.account_id = ? AND (? = '' OR d.lang = ?) ORDER BY a.view_count DESC, a.id LIMIT ?`,
		accountID, lang, lang, limit)
	if err != nil {
		return nil, fmt.Errorf("articles: %w", err)
	}
	defer rows.Close()
	out := []store.Article{}
	for rows.Next() {
		var a store.Article
		if err := rows.Scan(&a.ID, &a.DocID, &a.Slug, &a.Title, &a.Excerpt, &a.CategorySlug, &a.CategoryName,
			&a.ViewCount); err != nil {
			return nil, fmt.Errorf("articles: %w", err)
		}
		out = append(out, a)
	}
	return out, rows.Err()
}

// CountDocuments counts the account's documents by type.
func (s *Store) CountDocuments(ctx context.Context, accountID int64) (map[string]int, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT type, COUNT(*) FROM documents WHERE account_id = ? GROUP BY type`, accountID)
	if err != nil {
		return nil, fmt.Errorf("count documents: %w", err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var t string
		var n int
		if err := rows.Scan(&t, &n); err != nil {
			return nil, fmt.Errorf("count documents: %w", err)
		}
		out[t] = n
	}
	return out, rows.Err()
}

// SearchWorthwhile applies SearchChunks' default limit to q and reports whether the search
// can find anything: narrowed to types the account has no chunk of (the curated-answer check
// of a KB without Q&A entries, a product lookup in a KB without products), there is nothing
// to read.
func (s *Store) SearchWorthwhile(ctx context.Context, accountID int64, q *store.SearchQuery) (bool, error) {
	if q.Limit <= 0 {
		q.Limit = 20
	}
	if len(q.Types) > 0 {
		return s.HasChunksOf(ctx, accountID, q.Types)
	}
	return true, nil
}

// SectionChunks returns the run of the chunk's document around it, at most reach chunks on
// either side, whose headings lie under its own (store.UnderHeading), in document order.
func (s *Store) SectionChunks(ctx context.Context, accountID, chunkID int64, reach int) ([]store.ChunkHit, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT c.id, c.ord, d.id, d.type, d.title, d.url, d.lang, c.heading, c.text,
		c.terms, c.tokens FROM chunks a JOIN chunks c ON c.document_id = a.document_id AND c.ord BETWEEN a.ord - ? AND a.ord + ?
		JOIN documents d ON d.id = c.document_id WHERE a.id = ? AND a.account_id = ? ORDER BY c.ord`,
		reach, reach, chunkID, accountID)
	if err != nil {
		return nil, fmt.Errorf("section chunks: %w", err)
	}
	defer rows.Close()
	var run []store.ChunkHit
	var ords []int64
	at := -1
	for rows.Next() {
		var h store.ChunkHit
		var ord int64
		if err := rows.Scan(&h.ChunkID, &ord, &h.DocID, &h.DocType, &h.Title, &h.URL, &h.Lang, &h.Heading, &h.Text,
			&h.Terms, &h.Tokens); err != nil {
			return nil, fmt.Errorf("section chunks: %w", err)
		}
		if h.ChunkID == chunkID {
			at = len(run)
		}
		run = append(run, h)
		ords = append(ords, ord)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("section chunks: %w", err)
	}
	if at < 0 {
		return []store.ChunkHit{}, nil
	}
	// The run is contiguous: it ends at the first chunk on either side outside the section
	// (ords are contiguous too; a gap would end it).
	section := run[at].Heading
	lo, hi := at, at
	for lo > 0 && ords[lo-1] == ords[lo]-1 && store.UnderHeading(run[lo-1].Heading, section) {
		lo--
	}
	for hi+1 < len(run) && ords[hi+1] == ords[hi]+1 && store.UnderHeading(run[hi+1].Heading, section) {
		hi++
	}
	return run[lo : hi+1], nil
}
