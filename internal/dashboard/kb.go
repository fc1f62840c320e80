package dashboard

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"time"

	"svc/internal/crawl"
	"svc/internal/store"
)

// The knowledge-base pages share one template (kb.html): its views share the tab bar, the
// paging and the progress fragment, and templates cannot be shared between page files.
var pageKB = page{name: "kb", title: "kb.title", nav: "kb"}

// kbStore is what the kb pages read and change.
type kbStore interface {
	ListDocuments(ctx context.Context, accountID int64, q store.DocQuery) ([]store.DocumentRow, int, error)
	DeleteDocument(ctx context.Context, accountID, docID int64) error
	ReplaceDocument(ctx context.Context, accountID, oldID int64, doc *store.Document) error
	ImportDocuments(ctx context.Context, accountID int64, docs []store.Document) (store.ImportResult, error)
	UpsertProducts(ctx context.Context, accountID int64, docs []store.Document) (store.UpsertResult, error)
	GetDocument(ctx context.Context, accountID, docID int64) (store.Document, error)
	CountDocuments(ctx context.Context, accountID int64) (map[string]int, error)
	SiteDocuments(ctx context.Context, accountID, siteID int64) (map[string]int, error)
	CreateSite(ctx context.Context, s *store.Site) error
	GetSite(ctx context.Context, accountID, siteID int64) (store.Site, error)
	ListSites(ctx context.Context, accountID int64) ([]store.Site, error)
	ClaimSite(ctx context.Context, accountID, siteID int64, until time.Time) (bool, error)
	ReleaseSite(ctx context.Context, accountID, siteID int64, finishedAt time.Time, summary string) error
	EmbeddingStatus(ctx context.Context, accountID int64) (store.EmbeddingStatus, error)
}

// kbRoutes: agents may read everything and keep the curated Q&A; sites, crawls, uploads and
// removing documents are the owners'.
func (s *Server) kbRoutes(rt router) {
	rt.handle("GET /dashboard/kb", member, s.kbOverview)
	rt.handle("POST /dashboard/kb/sites", ownerOnly, s.kbAddSite)
	rt.handle("POST /dashboard/kb/sites/{id}/crawl", ownerOnly, s.kbCrawlNow)
	rt.handle("GET /dashboard/kb/sites/{id}/progress", member, s.kbCrawlProgress)

	rt.handle("GET /dashboard/kb/documents", member, s.kbDocuments)
	rt.handle("GET /dashboard/kb/documents/{id}", member, s.kbDocument)
	rt.handle("POST /dashboard/kb/documents/{id}/delete", ownerOnly, s.kbDeleteDocument)

	rt.handle("GET /dashboard/kb/qa", member, s.kbQAList)
	rt.handle("GET /dashboard/kb/qa/new", member, s.kbQANew)
	rt.handle("POST /dashboard/kb/qa", member, s.kbQACreate)
	rt.handle("GET /dashboard/kb/qa/{id}/edit", member, s.kbQAEdit)
	rt.handle("POST /dashboard/kb/qa/{id}", member, s.kbQAUpdate)
	rt.handle("POST /dashboard/kb/qa/{id}/delete", member, s.kbQADelete)

	rt.handle("GET /dashboard/kb/import", ownerOnly, s.kbImportPage)
	rt.upload("POST /dashboard/kb/import", ownerOnly, kbMaxUploadTotal+kbUploadSlack, s.kbImport)
}

// kbData is the dot's Data of every kb view; View picks the section kb.html renders and
// exactly one of the view fields is set.
type kbData struct {
	View string // "overview", "documents", "document", "qa", "qa_form", "import"
	Tabs []kbTab

	Overview *kbOverviewData
	Docs     *kbDocsData
	Doc      *kbDocData
	QAForm   *kbQAFormData
	Import   *kbImportData
}

// kbTab is one entry of the kb section's tab bar.
type kbTab struct {
	Href, Label string
	Current     bool
}

// kbView builds the page data with the tab bar; the import tab is the owners'.
func (s *Server) kbView(c *reqCtx, view, current string) kbData {
	tabs := []kbTab{
		{Href: "/dashboard/kb", Label: "kb.tab_overview", Current: current == "overview"},
		{Href: "/dashboard/kb/documents", Label: "kb.tab_documents", Current: current == "documents"},
		{Href: "/dashboard/kb/qa", Label: "kb.tab_qa", Current: current == "qa"},
	}
	if c.Owner() {
		tabs = append(tabs, kbTab{Href: "/dashboard/kb/import", Label: "kb.tab_import", Current: current == "import"})
	}
	return kbData{View: view, Tabs: tabs}
}

// kbDocTypes are the document types in the order the pages list them.
var kbDocTypes = []string{store.DocPage, store.DocProduct, store.DocArticle, store.DocQA}

// kbTypeCount is a document type with how many the account (or a site) has.
type kbTypeCount struct {
	Type  string
	Count int
}

func kbTypeCounts(m map[string]int) (out []kbTypeCount, total int) {
	for _, t := range kbDocTypes {
		out = append(out, kbTypeCount{Type: t, Count: m[t]})
		total += m[t]
	}
	return out, total
}

// accountDocument reads one of the account's documents; another account's is the store's
// ErrNotFound, a 404.
func (s *Server) accountDocument(ctx context.Context, c *reqCtx, id int64) (store.Document, error) {
	return s.st.GetDocument(ctx, c.Account.ID, id)
}

// accountSite reads one of the account's sites; another account's is the store's
// ErrNotFound, a 404.
func (s *Server) accountSite(ctx context.Context, c *reqCtx, id int64) (store.Site, error) {
	return s.st.GetSite(ctx, c.Account.ID, id)
}

// kbOverviewData is the overview tab: counts, sites with their crawls, the add-site form.
type kbOverviewData struct {
	Counts   []kbTypeCount
	Total    int
	Sites    []kbSiteRow
	CanCrawl bool // a crawler is configured and the user is an owner
	// Interval is the scheduler's re-crawl interval (0: off).
	Interval time.Duration
	// The add-site form's values, kept when it is refused, and its limits.
	SiteURL, SiteName       string
	SiteError               string
	MaxSiteURL, MaxSiteName int
	// Embedding is how much of the KB the embedding model covers; nil without a provider.
	Embedding *kbEmbedding
}

// kbEmbedding is the KB's coverage by the configured embedding model (semantic retrieval).
type kbEmbedding struct {
	Model            string
	Chunks, Embedded int
}

// Percent is the share embedded, rounded down, so that 100 means every passage.
func (e *kbEmbedding) Percent() int {
	if e.Chunks == 0 {
		return 0
	}
	return e.Embedded * 100 / e.Chunks
}

// kbEmbeddingStatus reads the account's coverage by the configured model.
func (s *Server) kbEmbeddingStatus(ctx context.Context, accountID int64) (*kbEmbedding, error) {
	if s.d.EmbedModel == "" {
		return nil, nil
	}
	st, err := s.st.EmbeddingStatus(ctx, accountID)
	if err != nil {
		return nil, err
	}
	e := &kbEmbedding{Model: s.d.EmbedModel, Chunks: st.Chunks}
	for _, m := range st.Models {
		if m.Model == s.d.EmbedModel {
			e.Embedded = m.Vectors
		}
	}
	return e, nil
}

// kbSiteRow is one site with its last crawl, its schedule and a crawl from here, if any.
type kbSiteRow struct {
	Site store.Site
	// Last is the last finished crawl's figures (nil: never crawled, or unreadable).
	Last       *crawl.Result
	LastFailed bool // the scheduler recorded a failed attempt
	// Next is when the scheduler re-crawls the site (zero with Never or Off).
	Next  time.Time
	Due   bool // Next has passed: at the scheduler's next round
	Never bool // never crawled: at the scheduler's next round
	Off   bool // automatic re-crawling is off
	Job   *kbProgressData
}

func (s *Server) kbOverview(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	d, err := s.kbOverviewData(r.Context(), c)
	if err != nil {
		return err
	}
	s.render(w, r, c, pageKB, 0, d)
	return nil
}

func (s *Server) kbOverviewData(ctx context.Context, c *reqCtx) (kbData, error) {
	d := s.kbView(c, "overview", "overview")
	counts, err := s.st.CountDocuments(ctx, c.Account.ID)
	if err != nil {
		return d, err
	}
	sites, err := s.st.ListSites(ctx, c.Account.ID)
	if err != nil {
		return d, err
	}
	o := &kbOverviewData{CanCrawl: s.d.Crawler != nil && c.Owner(), Interval: s.d.CrawlInterval,
		MaxSiteURL: crawl.MaxSiteURLLen, MaxSiteName: crawl.MaxSiteNameLen}
	o.Counts, o.Total = kbTypeCounts(counts)
	if o.Embedding, err = s.kbEmbeddingStatus(ctx, c.Account.ID); err != nil {
		return d, err
	}
	now := s.now()
	for _, site := range sites {
		o.Sites = append(o.Sites, s.kbSiteRow(c, site, now))
	}
	d.Overview = o
	return d, nil
}

// kbSiteRow reads a site's last crawl summary (crawl.Result as JSON, or the scheduler's
// {"error":true} after a failed attempt) and works out its schedule as the scheduler does:
// due once the last crawl is older than the interval.
func (s *Server) kbSiteRow(c *reqCtx, site store.Site, now time.Time) kbSiteRow {
	row := kbSiteRow{Site: site, Off: s.d.CrawlInterval <= 0}
	if site.LastCrawl != "" {
		var probe struct {
			Error bool `json:"error"`
		}
		var res crawl.Result
		if json.Unmarshal([]byte(site.LastCrawl), &probe) == nil && probe.Error {
			row.LastFailed = true
		} else if json.Unmarshal([]byte(site.LastCrawl), &res) == nil {
			row.Last = &res
		}
	}
	switch {
	case row.Off:
	case site.LastCrawlAt.IsZero():
		row.Never = true
	default:
		row.Next = site.LastCrawlAt.Add(s.d.CrawlInterval)
		row.Due = !row.Next.After(now)
	}
	if j, ok := s.crawls.get(c.Account.ID, site.ID, now); ok {
		row.Job = s.progressData(site, j)
	}
	return row
}

// kbListURL is a list page's address with its filters, "" values left out.
func kbListURL(path string, q url.Values) string {
	clean := url.Values{}
	for k, vs := range q {
		if len(vs) > 0 && vs[0] != "" {
			clean.Set(k, vs[0])
		}
	}
	if len(clean) == 0 {
		return path
	}
	return path + "?" + clean.Encode()
}

// kbStoppedKey is the catalog key of why a crawl ended early; a reason this page does not
// know yet gets a general wording rather than a raw key.
func kbStoppedKey(reason string) string {
	switch reason {
	case "max_pages", "max_queue", "time", "cancelled":
		return "kb.stopped_" + reason
	}
	return "kb.stopped_other"
}

// StoppedKey is why the site's last crawl ended early ("" when it was complete).
func (r kbSiteRow) StoppedKey() string {
	if r.Last == nil || r.Last.Complete {
		return ""
	}
	return kbStoppedKey(r.Last.Stopped)
}

// Crawling reports whether a crawl started here is running, which hides "Crawl now".
func (r kbSiteRow) Crawling() bool { return r.Job != nil && r.Job.State == "running" }

// IntervalHours and IntervalMinutes word the re-crawl interval: whole hours when it is
// some, else minutes (config allows 10 minutes and up).
func (o *kbOverviewData) IntervalHours() int {
	if o.Interval%time.Hour != 0 {
		return 0
	}
	return int(o.Interval / time.Hour)
}

func (o *kbOverviewData) IntervalMinutes() int { return int(o.Interval / time.Minute) }
