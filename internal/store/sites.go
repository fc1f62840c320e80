package store

import (
	"context"
	"time"
)

// Site is a website an account's KB is crawled from. An account may own several; documents
// learned from a site carry its id, which later scopes marketing and intelligence calls.
type Site struct {
	ID        int64
	AccountID int64
	URL       string // start URL, normalised (scheme, lower-case host, no default port)
	Host      string // lower-case host without "www." and port: the crawl scope's base
	Name      string
	CreatedAt time.Time
	// LastCrawlAt is when the last crawl finished (zero: never). LastCrawl is that crawl's
	// counts as JSON, kept as text because only operators read it.
	LastCrawlAt time.Time
	LastCrawl   string
}

// PageState is what a crawl remembers of one stored page: the validators for a conditional
// re-fetch and the hash of what was built from it, so an unchanged page costs no rebuild.
type PageState struct {
	URL          string
	ETag         string
	LastModified string
	Hash         string
	Links        []string // in-scope links the page had, followed again when it is unchanged
	FetchedAt    time.Time
}

// Sites stores the accounts' websites and who is crawling them.
type Sites interface {
	// CreateSite stores s and sets its ID; ErrConflict when the account already has that URL.
	CreateSite(ctx context.Context, s *Site) error
	GetSite(ctx context.Context, accountID, siteID int64) (Site, error)
	ListSites(ctx context.Context, accountID int64) ([]Site, error)
	// DueSites lists sites of every account whose last crawl finished before the given time
	// (or that were never crawled) and that no one holds a lease on, oldest first. It is the
	// only cross-tenant read, made for the re-crawl scheduler.
	DueSites(ctx context.Context, finishedBefore time.Time, limit int) ([]Site, error)
	// ClaimSite takes the site's crawl lease until the given time, unless another crawl
	// holds an unexpired one; it reports whether the lease was taken.
	ClaimSite(ctx context.Context, accountID, siteID int64, until time.Time) (bool, error)
	// ReleaseSite drops the lease and, when summary is not empty, records a finished crawl.
	ReleaseSite(ctx context.Context, accountID, siteID int64, finishedAt time.Time, summary string) error
}

// Crawls keeps a site's documents in step with its pages. Each method is one transaction,
// so the index never holds half of a page.
type Crawls interface {
	// PageStates returns the site's stored pages keyed by URL.
	PageStates(ctx context.Context, accountID, siteID int64) (map[string]PageState, error)
	// SavePage makes docs exactly what page p yields: documents of this site whose SourceURL
	// is p.URL are upserted (unchanged ones kept) and those not in docs are deleted; p's
	// state is stored. Cached answers are withdrawn when anything changed.
	SavePage(ctx context.Context, accountID, siteID int64, p PageState, docs []Document) (ImportResult, error)
	// TouchPage records that a page was fetched and found unchanged.
	TouchPage(ctx context.Context, accountID, siteID int64, p PageState) error
	// RemovePages deletes the pages (and every document learned from them) of the site;
	// it returns how many pages were removed.
	RemovePages(ctx context.Context, accountID, siteID int64, urls []string) (int, error)
	// SiteDocuments counts the site's documents by type.
	SiteDocuments(ctx context.Context, accountID, siteID int64) (map[string]int, error)
}
