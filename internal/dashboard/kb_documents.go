package dashboard

import (
	"context"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"svc/internal/errs"
	"svc/internal/i18n"
	"svc/internal/store"
)

// kbPageSize is how many documents a list page shows.
const kbPageSize = 25

// kbMaxQuery bounds the search text: it becomes a LIKE pattern over every document's text.
const kbMaxQuery = 200

// kbDocsData is a list of documents with its filters: the documents tab and the Q&A tab.
type kbDocsData struct {
	Type, Query, Lang string
	SiteID            int64
	Sites             []store.Site
	SiteNames         map[int64]string
	Counts            []kbTypeCount // the type tabs (documents tab only)
	Total             int           // documents of every type (the "all" tab)
	Rows              []store.DocumentRow
	Matches           int // documents matching the filters
	Page, Pages       int
	Pager             []pagerLink
	// QA marks the curated Q&A tab: rows link to the editor and the type tabs are hidden.
	QA bool
}

// kbFilter is a list page's query string, read leniently: an unknown type or language is no
// filter (links outlive renamed values), but a site id must be one of the account's.
type kbFilter struct {
	Type, Query, Lang string
	SiteID            int64
	Page              int
}

func readKBFilter(q url.Values) kbFilter {
	f := kbFilter{Type: q.Get("type"), Query: strings.TrimSpace(q.Get("q")), Lang: q.Get("lang")}
	if !slices.Contains(kbDocTypes, f.Type) {
		f.Type = ""
	}
	if !i18n.Supported(f.Lang) {
		f.Lang = ""
	}
	if utf8.RuneCountInString(f.Query) > kbMaxQuery {
		f.Query = string([]rune(f.Query)[:kbMaxQuery])
	}
	f.SiteID, _ = strconv.ParseInt(q.Get("site"), 10, 64)
	f.Page, _ = strconv.Atoi(q.Get("page"))
	f.Page = max(f.Page, 1)
	return f
}

// values is the filter as a query string, without the page.
func (f kbFilter) values() url.Values {
	v := url.Values{"type": {f.Type}, "q": {f.Query}, "lang": {f.Lang}}
	if f.SiteID > 0 {
		v.Set("site", strconv.FormatInt(f.SiteID, 10))
	}
	return v
}

// kbList reads one page of documents for the documents tab (qa false) or the Q&A tab.
func (s *Server) kbList(ctx context.Context, c *reqCtx, path string, f kbFilter, qa bool) (*kbDocsData, error) {
	if qa {
		f.Type = store.DocQA
	}
	d := &kbDocsData{Type: f.Type, Query: f.Query, Lang: f.Lang, SiteID: f.SiteID, Page: f.Page, QA: qa,
		SiteNames: map[int64]string{}}
	sites, err := s.st.ListSites(ctx, c.Account.ID)
	if err != nil {
		return nil, err
	}
	d.Sites = sites
	for _, st := range sites {
		d.SiteNames[st.ID] = st.Name
	}
	// The site filter must name one of the account's sites: another account's is a 404.
	if _, ok := d.SiteNames[f.SiteID]; f.SiteID != 0 && !ok {
		return nil, errs.New(errs.NotFound, "No such site.")
	}
	if !qa {
		// The tabs count what the site filter leaves, so a tab's number is what it lists
		// before a search narrows it.
		var counts map[string]int
		if f.SiteID > 0 {
			counts, err = s.st.SiteDocuments(ctx, c.Account.ID, f.SiteID)
		} else {
			counts, err = s.st.CountDocuments(ctx, c.Account.ID)
		}
		if err != nil {
			return nil, err
		}
		d.Counts, d.Total = kbTypeCounts(counts)
	}
	rows, n, err := s.st.ListDocuments(ctx, c.Account.ID, store.DocQuery{Type: f.Type, SiteID: f.SiteID, Lang: f.Lang,
		Query: f.Query, Offset: (f.Page - 1) * kbPageSize, Limit: kbPageSize})
	if err != nil {
		return nil, err
	}
	d.Rows, d.Matches = rows, n
	d.Pages = max(1, (n+kbPageSize-1)/kbPageSize)
	v := f.values()
	if qa {
		v.Del("type")
	}
	d.Pager = numberPages(f.Page, d.Pages, func(n int) string {
		q := maps.Clone(v)
		if n > 1 {
			q.Set("page", strconv.Itoa(n))
		}
		return kbListURL(path, q)
	})
	return d, nil
}

// TypeHref is the documents tab's address for one type with the other filters kept.
func (d *kbDocsData) TypeHref(typ string) string {
	v := kbFilter{Type: typ, Query: d.Query, Lang: d.Lang, SiteID: d.SiteID}.values()
	return kbListURL("/dashboard/kb/documents", v)
}

func (s *Server) kbDocuments(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	docs, err := s.kbList(r.Context(), c, "/dashboard/kb/documents", readKBFilter(r.URL.Query()), false)
	if err != nil {
		return err
	}
	d := s.kbView(c, "documents", "documents")
	d.Docs = docs
	s.render(w, r, c, pageKB, 0, d)
	return nil
}

// kbDocData is one document's page.
type kbDocData struct {
	Doc      store.Document
	SiteName string
	// Curated marks a Q&A entry of the account's own (not learned from a crawled page),
	// which the Q&A editor changes.
	Curated bool
	// Article is an article's help-centre data (GetDocument reads a product's card only).
	Article *store.ArticleMeta
}

func (s *Server) kbDocument(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	doc, err := routeItem(r, c, s.accountDocument)
	if err != nil {
		return err
	}
	dd := &kbDocData{Doc: doc, Curated: doc.Type == store.DocQA && doc.SourceURL == ""}
	if doc.SiteID > 0 {
		if site, err := s.st.GetSite(r.Context(), c.Account.ID, doc.SiteID); err == nil {
			dd.SiteName = site.Name
		}
	}
	if doc.Type == store.DocArticle {
		if dd.Article, err = s.articleMeta(r.Context(), c, doc); err != nil {
			return err
		}
	}
	d := s.kbView(c, "document", "documents")
	d.Doc = dd
	s.render(w, r, c, pageKB, 0, d)
	return nil
}

// articleMeta finds an article's category and slug through the browser's list, which
// carries them, searching by the article's title (nil when not found).
func (s *Server) articleMeta(ctx context.Context, c *reqCtx, doc store.Document) (*store.ArticleMeta, error) {
	rows, _, err := s.st.ListDocuments(ctx, c.Account.ID, store.DocQuery{Type: store.DocArticle, Lang: doc.Lang,
		Query: doc.Title, Limit: 50})
	if err != nil {
		return nil, err
	}
	for _, row := range rows {
		if row.ID == doc.ID {
			return row.Article, nil
		}
	}
	return nil, nil
}

// kbDeleteDocument removes a document; the store withdraws the cached answers drawn from it
// in the same transaction, so the assistant stops repeating what was removed.
func (s *Server) kbDeleteDocument(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	id, err := routeItemID(r)
	if err != nil {
		return err
	}
	if err := s.st.DeleteDocument(r.Context(), c.Account.ID, id); err != nil {
		return err
	}
	s.redirect(w, r, "/dashboard/kb/documents", "flash.kb_document_removed")
	return nil
}
