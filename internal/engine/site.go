package engine

import (
	"context"

	"svc/internal/store"
)

// ForSite returns an engine that reads only the documents of one site of the account: a
// shallow copy whose searcher sets SiteID on every SearchQuery and ProductQuery it sends,
// so that every retrieval path (answers, evidence, the Sales Mode shelf, ProductsIn through
// KB) is scoped without a parameter threaded through. Term statistics stay the account's
// (TermStats takes no query to scope). ForSite(0) returns e itself; ForSite on an engine
// already scoped to a site scopes the copy to the new site instead.
func (e *Engine) ForSite(siteID int64) *Engine {
	if siteID == 0 {
		return e
	}
	c := *e
	c.kb = SiteSearcher(e.kb, siteID)
	return &c
}

// KB is the searcher the engine reads, scoped to its site when it is ForSite's. Callers that
// look up products themselves (ProductsIn for the names guard) pass it, so that they see
// what the engine sees.
func (e *Engine) KB() Searcher { return e.kb }

// SiteSearcher returns kb restricted to one site: its SearchChunks and Products queries
// carry siteID (0 returns kb unchanged). A searcher already restricted is re-scoped, not
// wrapped twice.
func SiteSearcher(kb Searcher, siteID int64) Searcher {
	if siteID == 0 {
		return kb
	}
	if s, ok := kb.(siteSearcher); ok {
		kb = s.Searcher
	}
	return siteSearcher{Searcher: kb, siteID: siteID}
}

// siteSearcher is a Searcher that keeps only one site's documents.
type siteSearcher struct {
	Searcher
	siteID int64
}

func (s siteSearcher) SearchChunks(ctx context.Context, accountID int64, q store.SearchQuery) ([]store.ChunkHit, error) {
	q.SiteID = s.siteID
	return s.Searcher.SearchChunks(ctx, accountID, q)
}

func (s siteSearcher) Products(ctx context.Context, accountID int64, q store.ProductQuery) ([]store.ChunkHit, error) {
	q.SiteID = s.siteID
	return s.Searcher.Products(ctx, accountID, q)
}
