package sqlstore

import (
	"context"
	"fmt"
	"time"

	"svc/internal/store"
)

const siteColumns = `id, account_id, url, host, name, created_at, last_crawl_at, last_crawl`

func scanSite(row interface{ Scan(...any) error }) (store.Site, error) {
	var s store.Site
	var created, last string
	err := row.Scan(&s.ID, &s.AccountID, &s.URL, &s.Host, &s.Name, &created, &last, &s.LastCrawl)
	s.CreatedAt, s.LastCrawlAt = ParseTS(created), ParseTS(last)
	return s, err
}

// CreateSite stores a site; the URL is unique per account.
func (s *Store) CreateSite(ctx context.Context, site *store.Site) error {
	now := s.now().UTC()
	return s.InTx(ctx, func(tx *Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM sites WHERE account_id = ? AND url = ?`,
			site.AccountID, site.URL).Scan(&n); err != nil {
			return fmt.Errorf("find site: %w", err)
		}
		if n > 0 {
			return fmt.Errorf("create site %q: %w", site.URL, store.ErrConflict)
		}
		if err := tx.QueryRowContext(ctx, `INSERT INTO sites (account_id, url, host, name, created_at)
			VALUES (?, ?, ?, ?, ?) RETURNING id`, site.AccountID, site.URL, site.Host, site.Name, TS(now)).Scan(&site.ID); err != nil {
			if s.d.UniqueViolation(err) {
				// Another writer inserted the same site between the check and the insert.
				return fmt.Errorf("create site %q: %w", site.URL, store.ErrConflict)
			}
			return fmt.Errorf("create site: %w", err)
		}
		site.CreatedAt = now
		return nil
	})
}

// GetSite reads one site of the account.
func (s *Store) GetSite(ctx context.Context, accountID, siteID int64) (store.Site, error) {
	site, err := scanSite(s.r.QueryRowContext(ctx, `SELECT `+siteColumns+` FROM sites WHERE id = ? AND account_id = ?`,
		siteID, accountID))
	if err != nil {
		return store.Site{}, NotFound(err, "get site")
	}
	return site, nil
}

// ListSites lists the account's sites in creation order.
func (s *Store) ListSites(ctx context.Context, accountID int64) ([]store.Site, error) {
	return s.querySites(ctx, `SELECT `+siteColumns+` FROM sites WHERE account_id = ? ORDER BY id`, accountID)
}

// DueSites lists sites whose last crawl is older than finishedBefore and that are not leased.
// Empty last_crawl_at sorts before every timestamp, so never-crawled sites come first.
func (s *Store) DueSites(ctx context.Context, finishedBefore time.Time, limit int) ([]store.Site, error) {
	return s.querySites(ctx, `SELECT `+siteColumns+` FROM sites WHERE last_crawl_at < ? AND lease_until < ?
		ORDER BY last_crawl_at, id LIMIT ?`, TS(finishedBefore), TS(s.now()), limit)
}

func (s *Store) querySites(ctx context.Context, query string, args ...any) ([]store.Site, error) {
	rows, err := s.r.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fmt.Errorf("list sites: %w", err)
	}
	defer rows.Close()
	out := []store.Site{}
	for rows.Next() {
		site, err := scanSite(rows)
		if err != nil {
			return nil, fmt.Errorf("list sites: %w", err)
		}
		out = append(out, site)
	}
	return out, rows.Err()
}

// ClaimSite takes the lease with one conditional UPDATE, so two processes racing for the same
// site cannot both win.
func (s *Store) ClaimSite(ctx context.Context, accountID, siteID int64, until time.Time) (bool, error) {
	var won bool
	err := s.InTx(ctx, func(tx *Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE sites SET lease_until = ? WHERE id = ? AND account_id = ? AND lease_until < ?`,
			TS(until), siteID, accountID, TS(s.now()))
		if err != nil {
			return fmt.Errorf("claim site: %w", err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return fmt.Errorf("claim site: %w", err)
		}
		if n == 0 {
			var exists int
			if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM sites WHERE id = ? AND account_id = ?`,
				siteID, accountID).Scan(&exists); err != nil {
				return fmt.Errorf("claim site: %w", err)
			}
			if exists == 0 {
				return fmt.Errorf("claim site %d: %w", siteID, store.ErrNotFound)
			}
		}
		won = n == 1
		return nil
	})
	return won, err
}

// ReleaseSite clears the lease and records the finished crawl when there is a summary.
func (s *Store) ReleaseSite(ctx context.Context, accountID, siteID int64, finishedAt time.Time, summary string) error {
	return s.InTx(ctx, func(tx *Tx) error {
		q, args := `UPDATE sites SET lease_until = '' WHERE id = ? AND account_id = ?`, []any{siteID, accountID}
		if summary != "" {
			q = `UPDATE sites SET lease_until = '', last_crawl_at = ?, last_crawl = ? WHERE id = ? AND account_id = ?`
			args = []any{TS(finishedAt), summary, siteID, accountID}
		}
		if _, err := tx.ExecContext(ctx, q, args...); err != nil {
			return fmt.Errorf("release site: %w", err)
		}
		return nil
	})
}
