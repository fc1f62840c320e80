package api

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"

	"svc/internal/account"
	"svc/internal/errs"
	"svc/internal/kb"
	"svc/internal/store"
)

// The KB API (DECISIONS.md, "Knowledge-base API"): /api/v1/kb/<action>, in the chat API's
// style: the same secret key, envelope, error codes, request ids, access log and metrics.
// Every write goes through the app's store, whose KB writes withdraw the cached answers
// drawn from what changed and move the KB's version in the same transaction, and which the
// app wraps so that the background embedder and the owner's regression tests see them.

const kbPattern = "/api/v1/kb/{action}"

// Rate limits of the KB API, per account (SERVICE.md leaves them to us): every call counts
// against the first; the calls that read a whole file or start a crawl against the second
// too, since one of them costs what a hundred small ones do.
const (
	KBRequestsPerMinute = 120
	KBHeavyPerMinute    = 30
)

// kbAction is one KB API action.
type kbAction struct {
	methods []string
	// heavy: the action reads a file or a bulk body, or starts a crawl (KBHeavyPerMinute).
	heavy bool
	fn    func(w http.ResponseWriter, r *http.Request, c account.Caller) error
}

func (s *Server) kbRoutes() map[string]kbAction {
	get, post := []string{http.MethodGet, http.MethodHead}, []string{http.MethodPost}
	return map[string]kbAction{
		"documents":      {get, false, s.kbDocuments},
		"documentUpload": {post, true, s.kbDocumentUpload},
		"documentDelete": {post, false, s.kbDocumentDelete},
		"qaCreate":       {post, false, s.kbQACreate},
		"qaUpdate":       {post, false, s.kbQAUpdate},
		"qaDelete":       {post, false, s.kbQADelete},
		"productsUpsert": {post, true, s.kbProductsUpsert},
		"import":         {post, true, s.kbImport},
		"crawlStart":     {post, true, s.kbCrawlStart},
		"crawlStatus":    {get, false, s.kbCrawlStatus},
	}
}

// kbDispatch serves /api/v1/kb/<action>: the action, its method, the key and the account's
// rate, in that order, then the action, which reads its own parameters (an upload's body
// is not a form).
func (s *Server) kbDispatch(w http.ResponseWriter, r *http.Request) {
	if err := s.kbServe(w, r, r.PathValue("action")); err != nil {
		s.writeError(w, r, err)
	}
}

func (s *Server) kbServe(w http.ResponseWriter, r *http.Request, name string) error {
	a, ok := s.kbActions[name]
	if !ok {
		return errs.Newf(errs.UnknownAction, "Unknown KB action %q.", truncate(name, 40))
	}
	if !slices.Contains(a.methods, r.Method) {
		w.Header().Set("Allow", strings.Join(a.methods, ", "))
		return errs.Newf(errs.MethodNotAllowed, "Use %s for %s.", a.methods[0], name)
	}
	c, err := s.authenticate(r)
	if err != nil {
		return err
	}
	if err := s.kbAllow(c.Account.ID, a.heavy); err != nil {
		return err
	}
	return a.fn(w, r, c)
}

// kbAllow counts one KB API call of the account against its limits.
func (s *Server) kbAllow(accountID int64, heavy bool) error {
	now := s.now().UTC()
	if ok, wait := s.limiter.Allow(fmt.Sprintf("kb:acct:%d", accountID), KBRequestsPerMinute, now); !ok {
		return &errs.Error{Kind: errs.RateLimited, RetryAfter: wait,
			Safe: fmt.Sprintf("Too many KB API requests: at most %d a minute for this account. Try again shortly.", KBRequestsPerMinute)}
	}
	if !heavy {
		return nil
	}
	if ok, wait := s.limiter.Allow(fmt.Sprintf("kbfile:acct:%d", accountID), KBHeavyPerMinute, now); !ok {
		return &errs.Error{Kind: errs.RateLimited, RetryAfter: wait,
			Safe: fmt.Sprintf("Too many uploads, imports and crawl starts: at most %d a minute for this account. Try again shortly.", KBHeavyPerMinute)}
	}
	return nil
}

// Paging of the documents list.
const (
	kbDefaultLimit = 20
	kbMaxLimit     = 100
	kbMaxPage      = 100_000
	kbMaxQuery     = 200
)

var kbDocTypes = []string{store.DocPage, store.DocQA, store.DocProduct, store.DocArticle}

// documentView is one document of the documents list.
type documentView struct {
	ID        int64  `json:"id"`
	Type      string `json:"type"`
	Title     string `json:"title"`
	URL       string `json:"url"`
	Lang      string `json:"lang"`
	Origin    string `json:"origin"`
	UpdatedAt string `json:"updated_at"`
}

func (s *Server) kbDocuments(w http.ResponseWriter, r *http.Request, c account.Caller) error {
	p, err := readParams(r)
	if err != nil {
		return err
	}
	q := store.DocQuery{Type: strings.TrimSpace(p["type"]), Query: strings.TrimSpace(p["q"])}
	if q.Type != "" && !slices.Contains(kbDocTypes, q.Type) {
		return errs.Newf(errs.BadRequest, "type must be one of page, qa, product, article; got %q.", truncate(q.Type, 40))
	}
	if utf8.RuneCountInString(q.Query) > kbMaxQuery {
		return errs.Newf(errs.BadRequest, "q may be at most %d characters.", kbMaxQuery)
	}
	page, err := p.int64Param("page", 1)
	if err != nil {
		return err
	}
	if page < 1 || page > kbMaxPage {
		return errs.Newf(errs.BadRequest, "page must be 1 to %d.", kbMaxPage)
	}
	limit, err := p.int64Param("limit", kbDefaultLimit)
	if err != nil {
		return err
	}
	if limit < 1 || limit > kbMaxLimit {
		return errs.Newf(errs.BadRequest, "limit must be 1 to %d.", kbMaxLimit)
	}
	q.Offset, q.Limit = int(page-1)*int(limit), int(limit)
	rows, total, err := s.st.ListDocuments(r.Context(), c.Account.ID, q)
	if err != nil {
		return err
	}
	out := make([]documentView, 0, len(rows))
	for _, d := range rows {
		out = append(out, documentView{ID: d.ID, Type: d.Type, Title: d.Title, URL: d.URL, Lang: d.Lang, Origin: d.Origin,
			UpdatedAt: timestamp(d.UpdatedAt)})
	}
	writeData(w, map[string]any{"documents": out, "total": total})
	return nil
}

// idParam reads a required record id.
func (p params) idParam(name string) (int64, error) {
	if strings.TrimSpace(p[name]) == "" {
		return 0, errs.Newf(errs.BadRequest, "The %s field is required.", name)
	}
	id, err := p.int64Param(name, 0)
	if err != nil {
		return 0, err
	}
	if id < 1 {
		return 0, errs.Newf(errs.BadRequest, "%s must be a positive integer.", name)
	}
	return id, nil
}

// notFound turns the store's ErrNotFound for one of the account's records into the 404 the
// caller sees: another account's id is answered exactly as an id that does not exist.
func notFound(err error, format string, args ...any) error {
	if errors.Is(err, store.ErrNotFound) {
		return errs.Wrap(errs.NotFound, fmt.Sprintf(format, args...), err)
	}
	return err
}

func (s *Server) kbDocumentDelete(w http.ResponseWriter, r *http.Request, c account.Caller) error {
	p, err := readParams(r)
	if err != nil {
		return err
	}
	id, err := p.idParam("id")
	if err != nil {
		return err
	}
	if err := s.st.DeleteDocument(r.Context(), c.Account.ID, id); err != nil {
		return notFound(err, "No document with id %d on this account.", id)
	}
	writeData(w, map[string]bool{"deleted": true})
	return nil
}

// The curated Q&A entries: built as an import line of type qa is (kb.Validate, kb.Build), so
// an entry made here is analysed exactly like an imported one, and stored with origin api.

// kbQARecord builds an entry from its fields; lang "" is detected.
func kbQARecord(question, answer, lang string) (store.Document, error) {
	rec := kb.Record{Type: kb.TypeQA, Question: question, Answer: answer, Lang: lang}
	if err := kb.Validate(&rec); err != nil {
		if e, ok := errs.As(err); ok {
			return store.Document{}, errs.Wrap(errs.BadRequest, e.Safe+".", err)
		}
		return store.Document{}, err
	}
	doc, err := kb.Build(rec)
	if err != nil {
		return store.Document{}, errs.Wrap(errs.BadRequest, "The answer holds no text.", err)
	}
	return doc, nil
}

// qaLang reads an entry's language: "", or one of tr, en, de.
func qaLang(p params) (string, error) {
	l := strings.ToLower(strings.TrimSpace(p["lang"]))
	switch l {
	case "", "tr", "en", "de":
		return l, nil
	}
	return "", errs.Newf(errs.BadRequest, "lang must be tr, en or de (or left out to detect it); got %q.", truncate(l, 10))
}

// curatedQA reads one of the account's own Q&A entries. Entries learned from a crawled page
// are the crawl's to change (the next crawl would undo an edit), so they are not found
// here, as in the dashboard's editor; documentDelete still removes them.
func (s *Server) curatedQA(r *http.Request, c account.Caller, id int64) (store.Document, error) {
	doc, err := s.st.GetDocument(r.Context(), c.Account.ID, id)
	if err == nil && (doc.Type != store.DocQA || doc.SourceURL != "") {
		err = store.ErrNotFound
	}
	if err != nil {
		return doc, notFound(err, "No Q&A entry with id %d on this account.", id)
	}
	return doc, nil
}

// qaTaken is the id of another curated entry with doc's question in its language, or 0.
// Entries are keyed by question and language, so storing doc would overwrite that one,
// which the caller should do by updating it, knowingly.
func (s *Server) qaTaken(r *http.Request, c account.Caller, doc store.Document, self int64) (int64, error) {
	rows, _, err := s.st.ListDocuments(r.Context(), c.Account.ID, store.DocQuery{Type: store.DocQA, Lang: doc.Lang,
		Query: doc.Title, Limit: 50})
	if err != nil {
		return 0, err
	}
	for _, row := range rows {
		if row.ID != self && row.SourceURL == "" && strings.EqualFold(strings.TrimSpace(row.Title), doc.Title) {
			return row.ID, nil
		}
	}
	return 0, nil
}

func (s *Server) kbQACreate(w http.ResponseWriter, r *http.Request, c account.Caller) error {
	p, err := readParams(r)
	if err != nil {
		return err
	}
	lang, err := qaLang(p)
	if err != nil {
		return err
	}
	doc, err := kbQARecord(p["question"], p["answer"], lang)
	if err != nil {
		return err
	}
	taken, err := s.qaTaken(r, c, doc, 0)
	if err != nil {
		return err
	}
	if taken != 0 {
		return errs.Newf(errs.BadRequest, "A Q&A entry with this question in %s exists already (id %d); change it with qaUpdate.", doc.Lang, taken)
	}
	doc.AccountID, doc.Origin = c.Account.ID, store.OriginAPI
	docs := []store.Document{doc}
	if _, err := s.st.ImportDocuments(r.Context(), c.Account.ID, docs); err != nil {
		return err
	}
	writeData(w, map[string]int64{"id": docs[0].ID})
	return nil
}

// kbQAUpdate changes the fields sent. An entry is keyed by its question and language, so a
// change of either replaces the entry in one transaction (never both, never neither) and it
// gets a new id, which data.id returns; otherwise it is updated in place and keeps its id.
// Either way the cached answers drawn from the old text are withdrawn by the store.
func (s *Server) kbQAUpdate(w http.ResponseWriter, r *http.Request, c account.Caller) error {
	p, err := readParams(r)
	if err != nil {
		return err
	}
	id, err := p.idParam("id")
	if err != nil {
		return err
	}
	_, hasQ := p["question"]
	_, hasA := p["answer"]
	_, hasL := p["lang"]
	if !hasQ && !hasA && !hasL {
		return errs.New(errs.BadRequest, "Send at least one of question, answer and lang to change.")
	}
	old, err := s.curatedQA(r, c, id)
	if err != nil {
		return err
	}
	question, answer, lang := old.Title, old.Body, old.Lang
	if hasQ {
		question = p["question"]
	}
	if hasA {
		answer = p["answer"]
	}
	if hasL {
		if lang, err = qaLang(p); err != nil {
			return err
		}
	}
	doc, err := kbQARecord(question, answer, lang)
	if err != nil {
		return err
	}
	doc.AccountID, doc.SiteID, doc.Origin = c.Account.ID, old.SiteID, store.OriginAPI
	if doc.Title != old.Title || doc.Lang != old.Lang {
		taken, err := s.qaTaken(r, c, doc, old.ID)
		if err != nil {
			return err
		}
		if taken != 0 {
			return errs.Newf(errs.BadRequest, "Another Q&A entry has this question in %s (id %d); change or delete that one instead.", doc.Lang, taken)
		}
		if err := s.st.ReplaceDocument(r.Context(), c.Account.ID, old.ID, &doc); err != nil {
			return notFound(err, "No Q&A entry with id %d on this account.", id)
		}
	} else {
		docs := []store.Document{doc}
		if _, err := s.st.ImportDocuments(r.Context(), c.Account.ID, docs); err != nil {
			return err
		}
		doc.ID = docs[0].ID
	}
	writeData(w, map[string]any{"updated": true, "id": doc.ID})
	return nil
}

func (s *Server) kbQADelete(w http.ResponseWriter, r *http.Request, c account.Caller) error {
	p, err := readParams(r)
	if err != nil {
		return err
	}
	id, err := p.idParam("id")
	if err != nil {
		return err
	}
	if _, err := s.curatedQA(r, c, id); err != nil {
		return err
	}
	if err := s.st.DeleteDocument(r.Context(), c.Account.ID, id); err != nil {
		return notFound(err, "No Q&A entry with id %d on this account.", id)
	}
	writeData(w, map[string]bool{"deleted": true})
	return nil
}

// kbSiteParam reads an optional site_id, which must name one of the account's sites: 0
// when absent.
func (s *Server) kbSiteParam(r *http.Request, c account.Caller, p params) (int64, error) {
	if strings.TrimSpace(p["site_id"]) == "" {
		return 0, nil
	}
	id, err := p.idParam("site_id")
	if err != nil {
		return 0, err
	}
	if _, err := s.st.GetSite(r.Context(), c.Account.ID, id); err != nil {
		return 0, notFound(err, "No site with id %d on this account.", id)
	}
	return id, nil
}
