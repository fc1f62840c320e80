package dashboard

import (
	"context"
	"errors"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"svc/internal/errs"
	"svc/internal/i18n"
	"svc/internal/ingest"
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
	// Replaceable marks a page not learned from a crawl, which a file may replace
	// (kbReplaceDocument); ReplaceError is why the last file was refused, MaxMiB its bound.
	Replaceable  bool
	ReplaceError string
	MaxMiB       int
	// Article is an article's help-centre data (GetDocument reads a product's card only).
	Article *store.ArticleMeta
}

// replaceable reports whether a file may take the place of doc: a page of the account's own
// (uploaded, imported, pushed through the API). A crawled page is its site's (the next crawl
// would bring it back beside the file), and Q&A entries, products and articles have fields a
// file does not carry; their own editors and imports change them.
func replaceable(doc store.Document) bool { return doc.Type == store.DocPage && doc.SourceURL == "" }

func (s *Server) kbDocument(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	doc, err := routeItem(r, c, s.accountDocument)
	if err != nil {
		return err
	}
	d, err := s.kbDocumentData(r.Context(), c, doc)
	if err != nil {
		return err
	}
	s.render(w, r, c, pageKB, 0, d)
	return nil
}

func (s *Server) kbDocumentData(ctx context.Context, c *reqCtx, doc store.Document) (kbData, error) {
	var err error
	dd := &kbDocData{Doc: doc, Curated: doc.Type == store.DocQA && doc.SourceURL == "", Replaceable: replaceable(doc),
		MaxMiB: kbMaxUpload >> 20}
	if doc.SiteID > 0 {
		if site, err := s.st.GetSite(ctx, c.Account.ID, doc.SiteID); err == nil {
			dd.SiteName = site.Name
		}
	}
	if doc.Type == store.DocArticle {
		if dd.Article, err = s.articleMeta(ctx, c, doc); err != nil {
			return kbData{}, err
		}
	}
	d := s.kbView(c, "document", "documents")
	d.Doc = dd
	return d, nil
}

// kbReplaceDocument reads a new file (any format ingest reads) into the place of a page:
// the document keeps its id, title, address and site, and takes the file's text, language
// and passages; its origin becomes upload. It is an upsert of the document under its own
// key (a page not learned from a crawl is keyed by its address, else its title, both kept),
// so the store changes it in place and withdraws the cached answers drawn from the old text
// in the same transaction. A file that cannot be read changes nothing and is named on the
// page with its problem.
func (s *Server) kbReplaceDocument(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	old, err := routeItem(r, c, s.accountDocument)
	if err != nil {
		return err
	}
	if !replaceable(old) {
		return errs.New(errs.NotFound, "This document cannot be replaced by a file.")
	}
	refuse := func(status int, err error) error {
		d, derr := s.kbDocumentData(r.Context(), c, old)
		if derr != nil {
			return derr
		}
		d.Doc.ReplaceError = s.errorText(c, err)
		s.render(w, r, c, pageKB, status, d)
		return nil
	}
	if ok, wait := s.d.Limiter.Allow("dash:kbimport:"+strconv.FormatInt(c.Account.ID, 10), kbImportsPerMinute, s.now()); !ok {
		return refuse(http.StatusTooManyRequests, invalid("error.rate_limited", int(wait.Seconds()+0.999)))
	}
	if err := r.ParseMultipartForm(1 << 20); err != nil {
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			return refuse(http.StatusRequestEntityTooLarge, invalid("kb.import_error_too_large", kbMaxUpload>>20))
		}
		return refuse(http.StatusBadRequest, invalid("kb.import_error_no_file"))
	}
	defer r.MultipartForm.RemoveAll()
	files := r.MultipartForm.File["file"]
	if len(files) != 1 {
		return refuse(http.StatusBadRequest, invalid("kb.replace_error_one_file"))
	}
	fh := files[0]
	if fh.Size > kbMaxUpload {
		return refuse(http.StatusRequestEntityTooLarge, invalid("kb.import_error_too_large", kbMaxUpload>>20))
	}
	f, err := fh.Open()
	if err != nil {
		return err
	}
	defer f.Close()
	res, err := ingest.Read(r.Context(), f, ingest.Options{Name: fh.Filename, Title: old.Title, URL: old.URL,
		Limits: ingest.Limits{MaxBytes: kbMaxUpload}})
	if err != nil {
		if k := errs.KindOf(err); k != errs.BadRequest && k != errs.TooLarge {
			return err
		}
		return refuse(http.StatusBadRequest, err)
	}
	if len(res.Documents) != 1 {
		return refuse(http.StatusBadRequest, invalid("kb.replace_error_one_document"))
	}
	doc := res.Documents[0]
	doc.AccountID, doc.SiteID, doc.Origin = c.Account.ID, old.SiteID, store.OriginUpload
	docs := []store.Document{doc}
	if _, err := s.st.ImportDocuments(r.Context(), c.Account.ID, docs); err != nil {
		return err
	}
	if docs[0].ID != old.ID {
		// Not expected: the page's key is made of the title and address kept above. Should it
		// happen, the old page must not stay beside the new one.
		s.log.Warn("replaced document stored under another id", "account", c.Account.ID, "old", old.ID, "new", docs[0].ID)
		if err := s.st.DeleteDocument(r.Context(), c.Account.ID, old.ID); err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
	}
	s.redirect(w, r, "/dashboard/kb/documents/"+strconv.FormatInt(docs[0].ID, 10), "flash.kb_document_replaced")
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
