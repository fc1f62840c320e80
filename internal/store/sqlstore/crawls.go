package sqlstore

import (
	"context"
	"fmt"
	"strings"

	"svc/internal/store"
)

// PageStates returns the site's stored pages keyed by URL.
func (s *Store) PageStates(ctx context.Context, accountID, siteID int64) (map[string]store.PageState, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT url, etag, last_modified, hash, links, fetched_at FROM site_pages
		WHERE site_id = ? AND account_id = ?`, siteID, accountID)
	if err != nil {
		return nil, fmt.Errorf("page states: %w", err)
	}
	defer rows.Close()
	out := map[string]store.PageState{}
	for rows.Next() {
		var p store.PageState
		var fetched, links string
		if err := rows.Scan(&p.URL, &p.ETag, &p.LastModified, &p.Hash, &links, &fetched); err != nil {
			return nil, fmt.Errorf("page states: %w", err)
		}
		p.FetchedAt = ParseTS(fetched)
		if links != "" {
			p.Links = strings.Split(links, "\n")
		}
		out[p.URL] = p
	}
	return out, rows.Err()
}

// SavePage replaces what one page yields, in one transaction, and withdraws the cached answers
// drawn from a document it updated or deleted.
func (s *Store) SavePage(ctx context.Context, accountID, siteID int64, p store.PageState, docs []store.Document) (store.ImportResult, error) {
	var res store.ImportResult
	now := s.now().UTC()
	err := s.InTx(ctx, func(tx *Tx) error {
		if err := s.d.LockKB(ctx, tx, accountID); err != nil {
			return err
		}
		if err := s.siteExists(ctx, tx, accountID, siteID); err != nil {
			return err
		}
		var ch docChanges
		keep := map[int64]bool{}
		for i := range docs {
			d := &docs[i]
			d.SiteID, d.SourceURL = siteID, p.URL
			c, err := s.upsertDocument(ctx, tx, accountID, d, now, &res)
			if err != nil {
				return err
			}
			ch.upserted(c, d.ID)
			keep[d.ID] = true
		}
		old, err := sourceDocuments(ctx, tx, accountID, siteID, []string{p.URL})
		if err != nil {
			return err
		}
		for _, id := range old {
			if keep[id] {
				continue
			}
			if err := s.deleteDocument(ctx, tx, id); err != nil {
				return err
			}
			ch.deleted(id)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO site_pages (site_id, account_id, url, etag, last_modified, hash, links,
			fetched_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (site_id, url) DO UPDATE SET etag = excluded.etag,
			last_modified = excluded.last_modified, hash = excluded.hash, links = excluded.links,
			fetched_at = excluded.fetched_at`,
			siteID, accountID, p.URL, p.ETag, p.LastModified, p.Hash, strings.Join(p.Links, "\n"), TS(now)); err != nil {
			return fmt.Errorf("save page state: %w", err)
		}
		return s.kbWritten(ctx, tx, accountID, ch)
	})
	return res, err
}

// TouchPage updates a page's validators and fetch time without touching its documents.
func (s *Store) TouchPage(ctx context.Context, accountID, siteID int64, p store.PageState) error {
	return s.InTx(ctx, func(tx *Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE site_pages SET etag = ?, last_modified = ?, links = ?, fetched_at = ?
			WHERE site_id = ? AND account_id = ? AND url = ?`, p.ETag, p.LastModified, strings.Join(p.Links, "\n"),
			TS(s.now()), siteID, accountID, p.URL); err != nil {
			return fmt.Errorf("touch page: %w", err)
		}
		return nil
	})
}

// RemovePages deletes pages and every document learned from them, withdrawing the cached
// answers drawn from those documents.
func (s *Store) RemovePages(ctx context.Context, accountID, siteID int64, urls []string) (int, error) {
	removed := 0
	err := s.InTx(ctx, func(tx *Tx) error {
		if err := s.d.LockKB(ctx, tx, accountID); err != nil {
			return err
		}
		ids, err := sourceDocuments(ctx, tx, accountID, siteID, urls)
		if err != nil {
			return err
		}
		var ch docChanges
		for _, id := range ids {
			if err := s.deleteDocument(ctx, tx, id); err != nil {
				return err
			}
			ch.deleted(id)
		}
		for _, u := range urls {
			res, err := tx.ExecContext(ctx, `DELETE FROM site_pages WHERE site_id = ? AND account_id = ? AND url = ?`,
				siteID, accountID, u)
			if err != nil {
				return fmt.Errorf("remove page: %w", err)
			}
			n, _ := res.RowsAffected()
			removed += int(n)
		}
		return s.kbWritten(ctx, tx, accountID, ch)
	})
	return removed, err
}

func (s *Store) siteExists(ctx context.Context, tx *Tx, accountID, siteID int64) error {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM sites WHERE id = ? AND account_id = ?`,
		siteID, accountID).Scan(&n); err != nil {
		return fmt.Errorf("find site: %w", err)
	}
	if n == 0 {
		return fmt.Errorf("site %d: %w", siteID, store.ErrNotFound)
	}
	return nil
}

// sourceDocuments lists the ids of the site's documents learned from any of urls.
func sourceDocuments(ctx context.Context, tx *Tx, accountID, siteID int64, urls []string) ([]int64, error) {
	var ids []int64
	for _, u := range urls {
		rows, err := tx.QueryContext(ctx, `SELECT id FROM documents WHERE account_id = ? AND site_id = ? AND source_url = ?`,
			accountID, siteID, u)
		if err != nil {
			return nil, fmt.Errorf("source documents: %w", err)
		}
		for rows.Next() {
			var id int64
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return nil, fmt.Errorf("source documents: %w", err)
			}
			ids = append(ids, id)
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, fmt.Errorf("source documents: %w", err)
		}
	}
	return ids, nil
}

// deleteDocument removes a document, its chunks and index rows; products and articles go
// with it through ON DELETE CASCADE.
func (s *Store) deleteDocument(ctx context.Context, tx *Tx, docID int64) error {
	if err := s.d.DeleteChunks(ctx, tx, docID); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM documents WHERE id = ?`, docID); err != nil {
		return fmt.Errorf("delete document: %w", err)
	}
	return nil
}

// SiteDocuments counts the site's documents by type.
func (s *Store) SiteDocuments(ctx context.Context, accountID, siteID int64) (map[string]int, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT type, COUNT(*) FROM documents WHERE account_id = ? AND site_id = ?
		GROUP BY type`, accountID, siteID)
	if err != nil {
		return nil, fmt.Errorf("site documents: %w", err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var t string
		var n int
		if err := rows.Scan(&t, &n); err != nil {
			return nil, fmt.Errorf("site documents: %w", err)
		}
		out[t] = n
	}
	return out, rows.Err()
}
