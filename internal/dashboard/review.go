package dashboard

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"svc/internal/errs"
	"svc/internal/i18n"
	"svc/internal/kb"
	"svc/internal/store"
)

var pageReview = page{name: "review", title: "review.title", nav: "review"}

const (
	reviewPerPage = 25
	// maxReviewAnswer caps a reviewer's answer: a curated answer is read in a chat bubble.
	maxReviewAnswer = 2000
)

// reviewStore is what the review pages read and change.
type reviewStore interface {
	ReviewQueue(ctx context.Context, accountID int64, kind string, offset, limit int) ([]store.ReviewQueueItem, int, error)
	ReviewItem(ctx context.Context, accountID int64, kind string, id int64) (store.ReviewQueueItem, error)
	DismissReview(ctx context.Context, accountID int64, kind string, id int64) error
	ResolveFallback(ctx context.Context, accountID, messageID int64, doc *store.Document) error
	ResolveReview(ctx context.Context, accountID, feedbackID int64, doc *store.Document) error
	ReviewList(ctx context.Context, accountID int64) ([]store.ReviewItem, error)
}

func (s *Server) reviewRoutes(rt router) {
	rt.handle("GET /dashboard/review", member, s.reviewPage)
	rt.handle("GET /dashboard/review/rated/{message}", member, s.reviewRated)
	rt.handle("GET /dashboard/review/{kind}/{id}", member, s.reviewItemPage)
	rt.handle("POST /dashboard/review/{kind}/{id}/answer", member, s.answerReview)
	rt.handle("POST /dashboard/review/{kind}/{id}/dismiss", member, s.dismissReview)
}

// reviewKinds are the queue's kinds, in the order of the page's tabs.
var reviewKinds = []string{store.ReviewNotHelpful, store.ReviewFallback}

func validKind(kind string) bool {
	return kind == store.ReviewNotHelpful || kind == store.ReviewFallback
}

func reviewItemURL(kind string, id int64) string {
	return "/dashboard/review/" + kind + "/" + strconv.FormatInt(id, 10)
}

// reviewItem is one item as the page shows it, with its form's state.
type reviewItem struct {
	store.ReviewQueueItem
	Back  string // where the item's forms return to without JavaScript
	Draft string // the answer sent, shown again with Error
	Lang  string // the language chosen for the answer
	Error string
	// Done is the notice that replaces a handled item (htmx); the item is gone.
	Done string
}

// MaxAnswer is the answer's limit, for the form.
func (reviewItem) MaxAnswer() int { return maxReviewAnswer }

type reviewTab struct {
	Kind, Href, Label string
	Current           bool
}

type reviewData struct {
	Kind        string
	Tabs        []reviewTab
	Items       []reviewItem
	Total       int
	Page, Pages int
	Links       []pagerLink
	Prev, Next  string
	Single      bool // one item's page (a link from a transcript, or a failed answer)
	Gone        bool // the item asked for is not open
}

// reviewListURL is the queue's page of a kind ("" both).
func reviewListURL(kind string, page int) string {
	q := url.Values{}
	if kind != "" {
		q.Set("kind", kind)
	}
	if page > 1 {
		q.Set("page", strconv.Itoa(page))
	}
	if len(q) == 0 {
		return "/dashboard/review"
	}
	return "/dashboard/review?" + q.Encode()
}

func (s *Server) reviewPage(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	q := r.URL.Query()
	d := reviewData{Kind: q.Get("kind"), Page: 1}
	d.Tabs = reviewTabs(d.Kind)
	if d.Kind != "" && !validKind(d.Kind) {
		s.formError(w, r, c, pageReview, invalid("review.error_kind"), d)
		return nil
	}
	if v := q.Get("page"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			s.formError(w, r, c, pageReview, invalid("review.error_page"), d)
			return nil
		}
		d.Page = n
	}
	items, total, err := s.st.ReviewQueue(r.Context(), c.Account.ID, d.Kind, (d.Page-1)*reviewPerPage, reviewPerPage)
	if err != nil {
		return err
	}
	d.Total, d.Pages = total, max(1, (total+reviewPerPage-1)/reviewPerPage)
	if d.Page > d.Pages {
		// Past the end, as after answering the last item of the last page: show the last.
		d.Page = d.Pages
		if items, total, err = s.st.ReviewQueue(r.Context(), c.Account.ID, d.Kind, (d.Page-1)*reviewPerPage, reviewPerPage); err != nil {
			return err
		}
		d.Total = total
	}
	back := reviewListURL(d.Kind, d.Page)
	for _, it := range items {
		d.Items = append(d.Items, reviewItem{ReviewQueueItem: it, Back: back, Lang: it.Lang})
	}
	d.Links = numberPages(d.Page, d.Pages, func(n int) string { return reviewListURL(d.Kind, n) })
	if d.Page > 1 {
		d.Prev = reviewListURL(d.Kind, d.Page-1)
	}
	if d.Page < d.Pages {
		d.Next = reviewListURL(d.Kind, d.Page+1)
	}
	s.render(w, r, c, pageReview, 0, d)
	return nil
}

func reviewTabs(current string) []reviewTab {
	tabs := []reviewTab{{Kind: "", Href: reviewListURL("", 1), Label: "review.tab_all", Current: current == ""}}
	for _, k := range reviewKinds {
		tabs = append(tabs, reviewTab{Kind: k, Href: reviewListURL(k, 1), Label: "review.tab_" + k, Current: current == k})
	}
	return tabs
}

// reviewItemPage shows one open item with its forms: the link from a transcript, and
// where a failed answer without JavaScript is shown again.
func (s *Server) reviewItemPage(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	it, err := s.openItem(r, c)
	if errs.KindOf(err) == errs.NotFound {
		s.renderItemGone(w, r, c)
		return nil
	}
	if err != nil {
		return err
	}
	s.renderItemPage(w, r, c, 0, reviewItem{ReviewQueueItem: it, Back: reviewListURL("", 1), Lang: it.Lang})
	return nil
}

func (s *Server) renderItemPage(w http.ResponseWriter, r *http.Request, c *reqCtx, status int, it reviewItem) {
	d := reviewData{Tabs: reviewTabs(""), Items: []reviewItem{it}, Total: 1, Single: true}
	s.render(w, r, c, pageReview, status, d)
}

// renderItemGone is the 404 of an item link: transcripts keep linking to items once they
// are answered, so the page says why there is nothing, in words that fit another
// account's id as well.
func (s *Server) renderItemGone(w http.ResponseWriter, r *http.Request, c *reqCtx) {
	s.render(w, r, c, pageReview, http.StatusNotFound, reviewData{Single: true, Gone: true})
}

// reviewRated finds the open item of a reply rated not helpful, by the reply's id (what a
// transcript knows), through the rating list the CLI reads too.
func (s *Server) reviewRated(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	id, err := strconv.ParseInt(r.PathValue("message"), 10, 64)
	if err != nil || id <= 0 {
		s.renderItemGone(w, r, c)
		return nil
	}
	items, err := s.st.ReviewList(r.Context(), c.Account.ID)
	if err != nil {
		return err
	}
	for _, it := range items {
		if it.MessageID == id && !it.Resolved {
			http.Redirect(w, r, reviewItemURL(store.ReviewNotHelpful, it.FeedbackID), http.StatusSeeOther)
			return nil
		}
	}
	s.renderItemGone(w, r, c)
	return nil
}

// errNoReviewItem is the 404 of an item that is not one of the account's open items.
var errNoReviewItem = errs.New(errs.NotFound, "No such review item.")

// reviewRoute reads the {kind} and {id} of an item's route; anything but a known kind and
// a positive id names nothing, a 404.
func reviewRoute(r *http.Request) (kind string, id int64, err error) {
	kind = r.PathValue("kind")
	id, err = strconv.ParseInt(r.PathValue("id"), 10, 64)
	if !validKind(kind) || err != nil || id <= 0 {
		return "", 0, errNoReviewItem
	}
	return kind, id, nil
}

// openItem finds the account's open item the route names; anything else is a 404.
func (s *Server) openItem(r *http.Request, c *reqCtx) (store.ReviewQueueItem, error) {
	kind, id, err := reviewRoute(r)
	if err != nil {
		return store.ReviewQueueItem{}, err
	}
	it, err := s.st.ReviewItem(r.Context(), c.Account.ID, kind, id)
	if errors.Is(err, store.ErrNotFound) {
		return store.ReviewQueueItem{}, errNoReviewItem
	}
	return it, err
}

// answerReview turns the reviewer's answer into a curated Q&A entry for the item's
// question, which the assistant serves (free) from then on. With htmx the item is replaced
// in place by a notice, or by itself with the error; without, the browser returns to the
// queue with a flash, or gets the item's own page with the error.
func (s *Server) answerReview(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	kind, htmx := r.PathValue("kind"), isHTMX(r)
	found, err := s.openItem(r, c)
	if err != nil {
		return s.reviewGone(w, r, c, err)
	}
	it := reviewItem{ReviewQueueItem: found, Back: reviewBack(r.PostFormValue("back")),
		Draft: r.PostFormValue("answer"), Lang: r.PostFormValue("lang")}
	fail := func(key string, args ...any) error {
		it.Error = s.cat.T(c.Lang, key, args...)
		if htmx {
			s.renderFragment(w, r, c, pageReview, "review-item-fragment", it)
		} else {
			s.renderItemPage(w, r, c, http.StatusBadRequest, it)
		}
		return nil
	}
	answer := strings.TrimSpace(it.Draft)
	if n := utf8.RuneCountInString(answer); n == 0 || n > maxReviewAnswer {
		return fail("review.error_answer", maxReviewAnswer)
	}
	if !i18n.Supported(it.Lang) {
		return fail("review.error_lang")
	}
	if strings.TrimSpace(found.Question) == "" {
		return fail("review.error_no_question")
	}
	doc, err := kb.CuratedAnswer(found.Question, answer, it.Lang)
	if err != nil {
		return fail("review.error_unusable")
	}
	if kind == store.ReviewFallback {
		err = s.st.ResolveFallback(r.Context(), c.Account.ID, found.ID, &doc)
	} else {
		err = s.st.ResolveReview(r.Context(), c.Account.ID, found.ID, &doc)
	}
	if err != nil {
		return s.reviewGone(w, r, c, err)
	}
	done := "flash.review_answered"
	if kind == store.ReviewFallback {
		// The store closes every open item asking the same question with this one.
		done = "flash.review_answered_all"
	}
	return s.reviewDone(w, r, c, it, done)
}

// dismissReview closes an item without an answer.
func (s *Server) dismissReview(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
	kind, id, err := reviewRoute(r)
	if err != nil {
		return s.reviewGone(w, r, c, err)
	}
	if err := s.st.DismissReview(r.Context(), c.Account.ID, kind, id); err != nil {
		return s.reviewGone(w, r, c, err)
	}
	it := reviewItem{ReviewQueueItem: store.ReviewQueueItem{Kind: kind, ID: id}, Back: reviewBack(r.PostFormValue("back"))}
	return s.reviewDone(w, r, c, it, "flash.review_dismissed")
}

// reviewDone answers a handled item: with htmx a notice in the item's place, else a
// redirect back to the queue with the same notice as a flash.
func (s *Server) reviewDone(w http.ResponseWriter, r *http.Request, c *reqCtx, it reviewItem, key string) error {
	if isHTMX(r) {
		it.Done = s.cat.T(c.Lang, key)
		s.renderFragment(w, r, c, pageReview, "review-item-fragment", it)
		return nil
	}
	s.redirect(w, r, it.Back, key)
	return nil
}

// reviewGone reports an item that is not (or no longer) open: a 404, or for htmx a notice in
// the item's place, since htmx leaves the page as it is on an error status.
func (s *Server) reviewGone(w http.ResponseWriter, r *http.Request, c *reqCtx, err error) error {
	if errors.Is(err, store.ErrNotFound) {
		err = errNoReviewItem
	}
	if errs.KindOf(err) != errs.NotFound || !isHTMX(r) {
		return err
	}
	id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
	it := reviewItem{ReviewQueueItem: store.ReviewQueueItem{Kind: r.PathValue("kind"), ID: id},
		Done: s.cat.T(c.Lang, "review.gone")}
	s.renderFragment(w, r, c, pageReview, "review-item-fragment", it)
	return nil
}

// reviewBack is where a review form returns to: a page of the queue, never elsewhere, so a
// forged field cannot send the browser off the dashboard.
func reviewBack(v string) string {
	u, err := url.Parse(v)
	if err != nil || u.Scheme != "" || u.Host != "" || u.Path != "/dashboard/review" {
		return reviewListURL("", 1)
	}
	kind, page := u.Query().Get("kind"), u.Query().Get("page")
	if kind != "" && !validKind(kind) {
		kind = ""
	}
	n, _ := strconv.Atoi(page)
	return reviewListURL(kind, max(n, 1))
}
