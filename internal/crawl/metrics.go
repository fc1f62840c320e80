package crawl

// PageCounter is what a crawl reports to the service's metrics (Options.Metrics).
type PageCounter interface {
	// CrawlPage counts one fetched (attempted) page by its result: "updated", "unchanged",
	// "skipped", "error", or "other" (a page found gone, say).
	CrawlPage(result string)
}

// result names what a visit came to, for PageCounter: an error first, since a page that
// failed stored nothing whatever else its outcome says.
func (o outcome) result() string {
	switch {
	case o.err != nil:
		return "error"
	case o.updated:
		return "updated"
	case o.unchanged:
		return "unchanged"
	case o.skip != "":
		return "skipped"
	default:
		return "other"
	}
}
