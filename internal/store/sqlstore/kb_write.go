package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"iter"
	"slices"
	"strings"
	"time"

	"svc/internal/store"
)

// naturalKey is the identity under which a document is upserted, so that importing the same
// file twice (or re-crawling a page) updates rather than duplicates. Crawled documents are
// keyed by the page they came from, so a crawl never overwrites an imported record and two
// pages never fight over one document.
func naturalKey(d *store.Document) string {
	if d.SourceURL != "" {
		switch d.Type {
		case store.DocProduct:
			return "crawl:" + d.SourceURL + "|" + strings.ToLower(strings.TrimSpace(d.Title))
		case store.DocQA:
			return "crawl:" + d.SourceURL + "|" + d.Lang + "|" + strings.ToLower(strings.TrimSpace(d.Title))
		}
		return "crawl:" + d.SourceURL
	}
	switch d.Type {
	case store.DocQA:
		return d.Lang + "|" + strings.ToLower(strings.TrimSpace(d.Title))
	case store.DocArticle:
		if d.Article != nil && d.Article.Slug != "" {
			return d.Article.Slug
		}
	case store.DocProduct:
		if d.Product != nil && d.Product.SKU != "" {
			return skuKey(d.Product.SKU)
		}
		if d.URL == "" {
			return "name:" + strings.ToLower(strings.TrimSpace(d.Title))
		}
	}
	if d.URL != "" {
		return d.URL
	}
	return "title:" + strings.ToLower(strings.TrimSpace(d.Title))
}

// skuKey is the natural key of a product with a SKU: a catalogue's variants share a page
// (one URL, a SKU each), so the SKU, not the URL, is such a product's identity.
func skuKey(sku string) string { return "sku:" + sku }

// origin is the origin a document is stored with: its own, or else crawl for a crawled one
// and import for any other.
func origin(d *store.Document) string {
	switch {
	case d.Origin != "":
		return d.Origin
	case d.SourceURL != "":
		return store.OriginCrawl
	}
	return store.OriginImport
}

// ImportDocuments upserts docs in one transaction; unchanged documents (same hash) are left
// alone. The cached answers drawn from a document it updated are withdrawn, because they may
// rest on text that is no longer there; a new document withdraws nothing.
func (s *Store) ImportDocuments(ctx context.Context, accountID int64, docs []store.Document) (store.ImportResult, error) {
	return s.importDocs(ctx, accountID, func(yield func(*store.Document, error) bool) {
		for i := range docs {
			if !yield(&docs[i], nil) {
				return
			}
		}
	})
}

// ImportDocumentSeq is ImportDocuments for documents read one at a time, so that a large
// import never holds them all: each is written and dropped. An error from docs rolls the
// whole import back.
func (s *Store) ImportDocumentSeq(ctx context.Context, accountID int64, docs iter.Seq2[store.Document, error]) (store.ImportResult, error) {
	return s.importDocs(ctx, accountID, func(yield func(*store.Document, error) bool) {
		for d, err := range docs {
			if !yield(&d, err) {
				return
			}
		}
	})
}

func (s *Store) importDocs(ctx context.Context, accountID int64, docs iter.Seq2[*store.Document, error]) (store.ImportResult, error) {
	var res store.ImportResult
	now := s.now().UTC()
	err := s.InTx(ctx, func(tx *Tx) error {
		if err := s.d.LockKB(ctx, tx, accountID); err != nil {
			return err
		}
		var ch docChanges
		for d, err := range docs {
			if err != nil {
				return err
			}
			c, err := s.upsertDocument(ctx, tx, accountID, d, now, &res)
			if err != nil {
				return err
			}
			ch.upserted(c, d.ID)
		}
		return s.kbWritten(ctx, tx, accountID, ch)
	})
	if err != nil {
		return store.ImportResult{}, err
	}
	return res, nil
}

// docChange is what upsertDocument did to a document.
type docChange int

const (
	docUnchanged docChange = iota
	docInserted
	docUpdated
)

// docChanges collects what one transaction did to an account's documents, for withdrawCache.
type docChanges struct {
	written bool    // any document inserted, updated or deleted
	stale   []int64 // documents updated or deleted: answers drawn from them are stale
}

func (c *docChanges) upserted(change docChange, docID int64) {
	switch change {
	case docInserted:
		c.written = true
	case docUpdated:
		c.written = true
		c.stale = append(c.stale, docID)
	}
}

func (c *docChanges) deleted(docID int64) {
	c.written = true
	c.stale = append(c.stale, docID)
}

// withdrawBatch bounds the document ids bound in one DELETE.
const withdrawBatch = 500

// withdrawCache withdraws the account's cached answers drawn from a stale document of ch. An
// entry that names no document (made before answer_cache_docs existed, or from no document)
// may rest on anything, so it is withdrawn whenever any document was written.
func withdrawCache(ctx context.Context, tx *Tx, accountID int64, ch docChanges) error {
	if !ch.written {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM answer_cache WHERE account_id = ?
		AND NOT EXISTS (SELECT 1 FROM answer_cache_docs d WHERE d.entry_id = answer_cache.id)`, accountID); err != nil {
		return fmt.Errorf("withdraw cache: %w", err)
	}
	for ids := range slices.Chunk(ch.stale, withdrawBatch) {
		args := make([]any, 0, len(ids)+2)
		args = append(args, accountID, accountID)
		for _, id := range ids {
			args = append(args, id)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM answer_cache WHERE account_id = ? AND id IN (SELECT entry_id
			FROM answer_cache_docs WHERE account_id = ? AND doc_id IN (`+Placeholders(len(ids))+`))`, args...); err != nil {
			return fmt.Errorf("withdraw cache: %w", err)
		}
	}
	return nil
}

// upsertDocument inserts d or updates the document with its natural key, counting what it
// did in res, and reports what it did.
func (s *Store) upsertDocument(ctx context.Context, tx *Tx, accountID int64, d *store.Document, now time.Time,
	res *store.ImportResult) (docChange, error) {
	d.AccountID = accountID
	key := naturalKey(d)
	var id int64
	var hash string
	change := docUpdated
	err := tx.QueryRowContext(ctx, `SELECT id, hash FROM documents WHERE account_id = ? AND type = ? AND natural_key = ?`,
		accountID, d.Type, key).Scan(&id, &hash)
	switch {
	case err == sql.ErrNoRows:
		d.Origin = origin(d)
		err = tx.QueryRowContext(ctx, `INSERT INTO documents (account_id, site_id, type, natural_key, url, title, body,
			lang, hash, source_url, origin, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			RETURNING id`,
			accountID, NullInt(d.SiteID), d.Type, key, d.URL, d.Title, d.Body, d.Lang, d.Hash, d.SourceURL, d.Origin,
			TS(now), TS(now)).Scan(&d.ID)
		if err != nil {
			return docUnchanged, fmt.Errorf("insert document: %w", err)
		}
		d.CreatedAt = now
		change = docInserted
	case err != nil:
		return docUnchanged, fmt.Errorf("find document: %w", err)
	case hash == d.Hash && d.Hash != "":
		d.ID = id
		res.Unchanged++
		return docUnchanged, nil
	default:
		d.ID = id
		d.Origin = origin(d)
		if _, err := tx.ExecContext(ctx, `UPDATE documents SET site_id = ?, url = ?, title = ?, body = ?, lang = ?,
			hash = ?, source_url = ?, origin = ?, updated_at = ? WHERE id = ?`, NullInt(d.SiteID), d.URL, d.Title, d.Body,
			d.Lang, d.Hash, d.SourceURL, d.Origin, TS(now), id); err != nil {
			return docUnchanged, fmt.Errorf("update document: %w", err)
		}
		if err := s.d.DeleteChunks(ctx, tx, id); err != nil {
			return docUnchanged, err
		}
	}
	d.UpdatedAt = now
	if err := s.d.InsertChunks(ctx, tx, accountID, d); err != nil {
		return docUnchanged, err
	}
	if err := upsertTyped(ctx, tx, accountID, d); err != nil {
		return docUnchanged, err
	}
	switch d.Type {
	case store.DocPage:
		res.Pages++
	case store.DocQA:
		res.QA++
	case store.DocProduct:
		res.Products++
	case store.DocArticle:
		res.Articles++
	}
	return change, nil
}

func upsertTyped(ctx context.Context, tx *Tx, accountID int64, d *store.Document) error {
	if p := d.Product; d.Type == store.DocProduct && p != nil {
		if _, err := tx.ExecContext(ctx, `INSERT INTO products (document_id, account_id, name, url, price, category, image,
			sku) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (document_id) DO UPDATE SET name = excluded.name,
			url = excluded.url, price = excluded.price, category = excluded.category, image = excluded.image,
			sku = excluded.sku`,
			d.ID, accountID, p.Name, p.URL, p.Price, p.Category, p.Image, p.SKU); err != nil {
			return fmt.Errorf("upsert product: %w", err)
		}
	}
	if a := d.Article; d.Type == store.DocArticle && a != nil {
		if d.SourceURL != "" {
			slug, err := freeSlug(ctx, tx, accountID, d.ID, a.Slug, d.Lang)
			if err != nil {
				return err
			}
			a.Slug = slug
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO articles (document_id, account_id, slug, title, excerpt, category_slug,
			category_name) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (document_id) DO UPDATE SET slug = excluded.slug,
			title = excluded.title, excerpt = excluded.excerpt, category_slug = excluded.category_slug,
			category_name = excluded.category_name`,
			d.ID, accountID, a.Slug, d.Title, a.Excerpt, a.CategorySlug, a.CategoryName); err != nil {
			return fmt.Errorf("upsert article: %w", err)
		}
	}
	return nil
}

// freeSlug makes a crawled article's slug unique in its account: the slug its page gave when
// no other article has it, else the slug with the document's language ("install-de": the same
// guide in another language), else with the document's id. Checked on every save, so an
// article keeps the slug it has while no other article claims it; imported articles keep
// the slug they were given (it is their identity), and a crawled article steps aside.
func freeSlug(ctx context.Context, tx *Tx, accountID, docID int64, slug, lang string) (string, error) {
	if slug == "" {
		return fmt.Sprintf("article-%d", docID), nil
	}
	for _, cand := range []string{slug, slug + "-" + lang} {
		if cand == slug+"-" {
			continue
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM articles WHERE account_id = ? AND slug = ?
			AND document_id <> ?`, accountID, cand, docID).Scan(&n); err != nil {
			return "", fmt.Errorf("article slug: %w", err)
		}
		if n == 0 {
			return cand, nil
		}
	}
	return fmt.Sprintf("%s-%d", slug, docID), nil
}

// UpsertProducts writes product documents in one transaction (see store.KB): a product
// with a SKU first adopts the SKU-less product imported at its URL, when no product has
// its SKU yet, and is then upserted by its natural key like any document.
func (s *Store) UpsertProducts(ctx context.Context, accountID int64, docs []store.Document) (store.UpsertResult, error) {
	var out store.UpsertResult
	now := s.now().UTC()
	err := s.InTx(ctx, func(tx *Tx) error {
		if err := s.d.LockKB(ctx, tx, accountID); err != nil {
			return err
		}
		var ch docChanges
		for i := range docs {
			d := &docs[i]
			if d.Type != store.DocProduct || d.Product == nil {
				return fmt.Errorf("upsert products: document %d is not a product", i)
			}
			d.SourceURL = "" // a pushed product is never a crawled page's
			if d.Product.SKU != "" && d.URL != "" {
				if err := adoptByURL(ctx, tx, accountID, d.Product.SKU, d.URL); err != nil {
					return err
				}
			}
			var res store.ImportResult
			c, err := s.upsertDocument(ctx, tx, accountID, d, now, &res)
			if err != nil {
				return err
			}
			switch c {
			case docInserted:
				out.Created++
			case docUpdated:
				out.Updated++
			default:
				out.Unchanged++
			}
			ch.upserted(c, d.ID)
		}
		return s.kbWritten(ctx, tx, accountID, ch)
	})
	if err != nil {
		return store.UpsertResult{}, err
	}
	return out, nil
}

// adoptByURL gives sku to the account's product that was imported at url without a SKU
// (its natural key is its URL), unless a product already has the SKU: the first export
// with SKUs updates the cards an earlier one made rather than doubling them.
func adoptByURL(ctx context.Context, tx *Tx, accountID int64, sku, url string) error {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM documents WHERE account_id = ? AND type = ?
		AND natural_key = ?`, accountID, store.DocProduct, skuKey(sku)).Scan(&n); err != nil {
		return fmt.Errorf("find product by sku: %w", err)
	}
	if n > 0 {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `UPDATE documents SET natural_key = ? WHERE account_id = ? AND type = ?
		AND natural_key = ?`, skuKey(sku), accountID, store.DocProduct, url); err != nil {
		return fmt.Errorf("adopt product by url: %w", err)
	}
	return nil
}
