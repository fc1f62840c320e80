package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"svc/internal/store"
)

// excerptLen is how many characters of a document's text the browser shows; excerptRead is
// how many are read for it, so a long page's text is not read whole for an excerpt.
const (
	excerptLen  = 200
	excerptRead = 1000
)

// ListDocuments pages through the account's documents, newest first, with how many match.
func (s *Store) ListDocuments(ctx context.Context, accountID int64, q store.DocQuery) ([]store.DocumentRow, int, error) {
	if q.Limit <= 0 {
		q.Limit = 50
	}
	q.Offset = max(q.Offset, 0)
	where, args := documentsWhere(accountID, q, s.docsText)
	tx, err := s.ReadTx(ctx)
	if err != nil {
		return nil, 0, fmt.Errorf("list documents: %w", err)
	}
	defer tx.Rollback()
	var total int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM documents d WHERE `+where, args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("count documents: %w", err)
	}
	rows, err := tx.QueryContext(ctx, DocumentsPage(where), append(args, q.Limit, q.Offset)...)
	if err != nil {
		return nil, 0, fmt.Errorf("list documents: %w", err)
	}
	defer rows.Close()
	out := []store.DocumentRow{}
	for rows.Next() {
		var d store.DocumentRow
		var body, updated string
		var pName, pURL, pPrice, pCat, pImg, pSKU, aSlug, aExcerpt, aCatSlug, aCatName sql.NullString
		var aViews sql.NullInt64
		if err := rows.Scan(&d.ID, &d.SiteID, &d.Type, &d.URL, &d.Title, &d.Lang, &body, &d.SourceURL, &d.Origin,
			&updated, &d.Chunks, &pName, &pURL, &pPrice, &pCat, &pImg, &pSKU, &aSlug, &aExcerpt, &aCatSlug, &aCatName,
			&aViews); err != nil {
			return nil, 0, fmt.Errorf("list documents: %w", err)
		}
		d.Excerpt, d.UpdatedAt = ClipWords(body, excerptLen), ParseTS(updated)
		if pName.Valid {
			d.Product = &store.Product{Name: pName.String, URL: pURL.String, Price: pPrice.String,
				Category: pCat.String, Image: pImg.String, SKU: pSKU.String}
		}
		if aSlug.Valid {
			d.Article = &store.ArticleMeta{Slug: aSlug.String, Excerpt: aExcerpt.String, CategorySlug: aCatSlug.String,
				CategoryName: aCatName.String, ViewCount: int(aViews.Int64)}
		}
		out = append(out, d)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, fmt.Errorf("list documents: %w", err)
	}
	return out, total, nil
}

// documentsWhere is the filter of ListDocuments; textMatch is the text search condition
// (Store.docsText: the dialect's LikeASCIIFold operator).
func documentsWhere(accountID int64, q store.DocQuery, textMatch string) (string, []any) {
	where, args := `d.account_id = ?`, []any{accountID}
	if q.Type != "" {
		where += ` AND d.type = ?`
		args = append(args, q.Type)
	}
	if q.SiteID > 0 {
		where += ` AND d.site_id = ?`
		args = append(args, q.SiteID)
	}
	if q.Lang != "" {
		where += ` AND d.lang = ?`
		args = append(args, q.Lang)
	}
	if text := strings.TrimSpace(q.Query); text != "" {
		// The match ignores the case of ASCII letters (SQLite's LIKE; PostgreSQL's ILIKE,
		// which folds more), which is what the contract promises; the user's % and _ are
		// literal.
		pat := "%" + likeEscaper.Replace(text) + "%"
		where += textMatch
		args = append(args, pat, pat, pat)
	}
	return where, args
}

// DocumentsPage reads a page of the documents matching where, newest first.
func DocumentsPage(where string) string {
	return `SELECT d.id, COALESCE(d.site_id, 0), d.type, d.url, d.title, d.lang,
		substr(d.body, 1, ` + fmt.Sprint(excerptRead) + `), d.source_url, d.origin, d.updated_at,
		(SELECT COUNT(*) FROM chunks c WHERE c.document_id = d.id),
		p.name, p.url, p.price, p.category, p.image, p.sku,
		a.slug, a.excerpt, a.category_slug, a.category_name, a.view_count
		FROM documents d LEFT JOIN products p ON p.document_id = d.id LEFT JOIN articles a ON a.document_id = d.id
		WHERE ` + where + ` ORDER BY d.updated_at DESC, d.id DESC LIMIT ? OFFSET ?`
}

// likeEscaper makes user text literal inside a LIKE pattern with ESCAPE '\'.
var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

// DeleteDocument removes one of the account's documents the way a crawl drops a vanished one,
// and withdraws the cached answers drawn from it, in one transaction.
func (s *Store) DeleteDocument(ctx context.Context, accountID, docID int64) error {
	return s.InTx(ctx, func(tx *Tx) error {
		if err := s.d.LockKB(ctx, tx, accountID); err != nil {
			return err
		}
		var ch docChanges
		if err := s.deleteAccountDocument(ctx, tx, accountID, docID, &ch); err != nil {
			return err
		}
		return s.kbWritten(ctx, tx, accountID, ch)
	})
}

// ReplaceDocument deletes oldID and upserts doc in one transaction, so the KB never holds
// both entries nor neither.
func (s *Store) ReplaceDocument(ctx context.Context, accountID, oldID int64, doc *store.Document) error {
	if doc == nil {
		return fmt.Errorf("replace document %d: no document", oldID)
	}
	now := s.now().UTC()
	return s.InTx(ctx, func(tx *Tx) error {
		if err := s.d.LockKB(ctx, tx, accountID); err != nil {
			return err
		}
		var ch docChanges
		if err := s.deleteAccountDocument(ctx, tx, accountID, oldID, &ch); err != nil {
			return err
		}
		return s.upsertCurated(ctx, tx, accountID, doc, now, ch)
	})
}

// deleteAccountDocument deletes docID if it is the account's (deleteDocument itself goes by
// id alone) and records the deletion in ch.
func (s *Store) deleteAccountDocument(ctx context.Context, tx *Tx, accountID, docID int64, ch *docChanges) error {
	var id int64
	err := tx.QueryRowContext(ctx, `SELECT id FROM documents WHERE id = ? AND account_id = ?`, docID, accountID).Scan(&id)
	if err != nil {
		return NotFound(err, fmt.Sprintf("document %d", docID))
	}
	if err := s.deleteDocument(ctx, tx, id); err != nil {
		return err
	}
	ch.deleted(id)
	return nil
}

// upsertCurated stores one document (a curated Q&A entry) as ImportDocuments would and fills
// doc.ID, then withdraws the cached answers that it, or the earlier changes ch of the same
// transaction, made stale.
func (s *Store) upsertCurated(ctx context.Context, tx *Tx, accountID int64, doc *store.Document, now time.Time,
	ch docChanges) error {
	if doc.Origin == "" {
		doc.Origin = store.OriginEditor // written by a person in the dashboard
	}
	c, err := s.upsertDocument(ctx, tx, accountID, doc, now, &store.ImportResult{})
	if err != nil {
		return err
	}
	ch.upserted(c, doc.ID)
	return s.kbWritten(ctx, tx, accountID, ch)
}

// docsTextMatch is ListDocuments' text condition with the LIKE operator like.
func docsTextMatch(like string) string {
	return ` AND (d.title ` + like + ` ? ESCAPE '\' OR d.url ` + like + ` ? ESCAPE '\' OR d.body ` + like + ` ? ESCAPE '\')`
}

// DocumentsWhere is the filter of ListDocuments with SQLite's LIKE, for the SQLite store's
// query-plan test.
func DocumentsWhere(accountID int64, q store.DocQuery) (string, []any) {
	return documentsWhere(accountID, q, docsTextMatch("LIKE"))
}
