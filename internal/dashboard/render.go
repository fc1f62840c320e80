package dashboard

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"log/slog"
	"net/http"
	"path"
	"strings"
	"time"

	"svc/internal/errs"
	"svc/internal/i18n"
	"svc/internal/store"
)

//go:embed templates
var templateFS embed.FS

// pageSet is every page template, each parsed with the layout and the partials so that
// pages can define the same blocks ("title", "content") without clashing.
type pageSet struct {
	pages map[string]*template.Template
}

func loadPages(assets *assetSet) (*pageSet, error) {
	base := template.New("layout").Funcs(funcs(assets))
	base, err := base.ParseFS(templateFS, "templates/layout.html", "templates/partials/*.html")
	if err != nil {
		return nil, fmt.Errorf("dashboard templates: %w", err)
	}
	files, err := fs.Glob(templateFS, "templates/pages/*.html")
	if err != nil {
		return nil, err
	}
	ps := &pageSet{pages: map[string]*template.Template{}}
	for _, f := range files {
		t, err := template.Must(base.Clone()).ParseFS(templateFS, f)
		if err != nil {
			return nil, fmt.Errorf("dashboard template %s: %w", f, err)
		}
		ps.pages[strings.TrimSuffix(path.Base(f), ".html")] = t
	}
	return ps, nil
}

// view is what every template sees as its dot: the request's user and language, the
// page's own Data, and the catalog behind T and N.
type view struct {
	Lang    string
	Title   string // translated
	Nav     string // the navigation entry to mark current
	User    store.User
	Account store.Account
	CSRF    string
	CSRFKey string
	// Flash is a one-time notice after a redirect (already translated); FlashError marks
	// it as a failure.
	Flash      string
	FlashError bool
	// Error is a form's error, shown above it (translated or a domain's safe message).
	Error string
	Data  any
	Path  string
	Langs []string

	cat *i18n.Catalog
	ctx *reqCtx
}

// T translates key into the page's language.
func (v *view) T(key string, args ...any) string { return v.cat.T(v.Lang, key, args...) }

// SourceLabel names a message's source (ai, cache_tenant, …) in the page's language; a source
// the catalog does not know yet shows as its code rather than as a missing key.
func (v *view) SourceLabel(source string) string {
	key := "transcript.source." + source
	if !v.cat.Has(key) {
		return source
	}
	return v.T(key)
}

// N is the plural form of key for n.
func (v *view) N(key string, n int, args ...any) string { return v.cat.N(v.Lang, key, n, args...) }

// Owner reports whether the user may see the owners' pages.
func (v *view) Owner() bool { return v.ctx.Owner() }

// SignedIn reports whether there is a user.
func (v *view) SignedIn() bool { return v.User.ID != 0 }

// page names a template, its title key and its navigation entry.
type page struct {
	name  string
	title string // catalog key
	nav   string
}

// render writes a full page with status (200 when 0).
func (s *Server) render(w http.ResponseWriter, r *http.Request, c *reqCtx, p page, status int, data any) {
	v := s.newView(w, r, c, p, data)
	s.execute(w, r, p.name, "layout", status, v)
}

// renderFragment writes one named template of a page alone: the piece htmx swaps in.
func (s *Server) renderFragment(w http.ResponseWriter, r *http.Request, c *reqCtx, p page, block string, data any) {
	v := s.newView(w, r, c, p, data)
	s.execute(w, r, p.name, block, 0, v)
}

// isHTMX reports whether htmx sent the request, to swap a piece of the page in.
func isHTMX(r *http.Request) bool { return r.Header.Get("HX-Request") == "true" }

// renderPart answers a request htmx may send: the page's block alone for htmx (with 200,
// so htmx swaps it in), the whole page with status (200 when 0) otherwise.
func (s *Server) renderPart(w http.ResponseWriter, r *http.Request, c *reqCtx, p page, block string, status int, data any) {
	w.Header().Set("Vary", "HX-Request")
	if isHTMX(r) {
		s.renderFragment(w, r, c, p, block, data)
		return
	}
	s.render(w, r, c, p, status, data)
}

// formError renders a page again with a form error (400) and the data the user sent.
func (s *Server) formError(w http.ResponseWriter, r *http.Request, c *reqCtx, p page, err error, data any) {
	v := s.newView(w, r, c, p, data)
	v.Error = s.errorText(c, err)
	s.execute(w, r, p.name, "layout", http.StatusBadRequest, v)
}

func (s *Server) newView(w http.ResponseWriter, r *http.Request, c *reqCtx, p page, data any) *view {
	if c == nil {
		c = &reqCtx{Lang: i18n.Default}
	}
	v := &view{Lang: c.Lang, Nav: p.nav, User: c.User, Account: c.Account, CSRF: c.CSRF, CSRFKey: csrfField,
		Data: data, Path: r.URL.Path, Langs: i18n.Langs, cat: s.cat, ctx: c}
	if p.title != "" {
		v.Title = v.T(p.title)
	}
	v.Flash, v.FlashError = s.takeFlash(w, r, c)
	return v
}

func (s *Server) execute(w http.ResponseWriter, r *http.Request, name, block string, status int, v *view) {
	t, ok := s.pages.pages[name]
	if !ok {
		s.log.Error("dashboard: no such template", slog.String("template", name))
		http.Error(w, "Internal error", http.StatusInternalServerError)
		return
	}
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, block, v); err != nil {
		s.log.Error("dashboard: render", slog.String("template", name), slog.Any("err", err))
		http.Error(w, "Internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if status != 0 {
		w.WriteHeader(status)
	}
	_, _ = w.Write(buf.Bytes())
}

// errorText is what a user is told of err: a catalog message for the kinds a person can
// act on and for a domain error with a catalog key (errs.Error.Key), a domain's own safe
// sentence for other bad input, and nothing of an internal cause.
func (s *Server) errorText(c *reqCtx, err error) string {
	lang := i18n.Default
	if c != nil {
		lang = c.Lang
	}
	var fe formErr
	if errors.As(err, &fe) {
		return s.cat.T(lang, fe.key, fe.args...)
	}
	e, ok := errs.As(err)
	if !ok {
		return s.cat.T(lang, "error.internal")
	}
	switch e.Kind {
	case errs.NotFound:
		return s.cat.T(lang, "error.not_found")
	case errs.RateLimited:
		return s.cat.T(lang, "error.rate_limited", int(e.RetryAfter.Seconds()+0.999))
	case errs.Internal:
		return s.cat.T(lang, "error.internal")
	}
	// A domain error with a catalog key speaks the user's language; without one (or with a
	// key the catalog lacks) its English safe sentence is shown.
	if e.Key != "" && s.cat.Has(e.Key) {
		return s.cat.T(lang, e.Key, e.Args...)
	}
	if e.Kind == errs.Forbidden && e.Safe == "" {
		return s.cat.T(lang, "error.forbidden")
	}
	return e.Safe
}

// formErr is a form error whose text is a catalog key: the dashboard's own validation.
type formErr struct {
	key  string
	args []any
}

func (e formErr) Error() string { return "dashboard: " + e.key }

// invalid returns a 400 form error with a catalog message.
func invalid(key string, args ...any) error {
	return &errs.Error{Kind: errs.BadRequest, Safe: key, Cause: formErr{key: key, args: args}}
}

// renderError renders an error page (or, for htmx, a small fragment) with the status of
// err's kind; the store's ErrNotFound is a 404. An internal error is logged with its cause and shown as a generic message.
func (s *Server) renderError(w http.ResponseWriter, r *http.Request, c *reqCtx, err error) {
	if c == nil {
		c = s.anonymous(w, r)
	}
	if errors.Is(err, store.ErrNotFound) && errs.KindOf(err) == errs.Internal {
		// The store's not-found on any page: the id is not the account's (or does not
		// exist, which the user cannot tell apart, by design).
		err = errs.Wrap(errs.NotFound, "No such item.", err)
	}
	status := http.StatusInternalServerError
	switch errs.KindOf(err) {
	case errs.BadRequest, errs.TooMany:
		status = http.StatusBadRequest
	case errs.TooLarge:
		status = http.StatusRequestEntityTooLarge
	case errs.Unauthorized:
		status = http.StatusUnauthorized
	case errs.Forbidden:
		status = http.StatusForbidden
	case errs.NotFound:
		status = http.StatusNotFound
	case errs.MethodNotAllowed:
		status = http.StatusMethodNotAllowed
	case errs.RateLimited, errs.LimitReached:
		status = http.StatusTooManyRequests
		if e, ok := errs.As(err); ok && e.RetryAfter > 0 {
			w.Header().Set("Retry-After", fmt.Sprint(int(e.RetryAfter.Seconds()+0.999)))
		}
	default:
		if errs.ClientGone(r.Context(), err) {
			// The client went away: nothing went wrong here. A half-closed client can still
			// read, so it gets nginx's 499 ("client closed request", as the API answers)
			// rather than an empty 200 that would pass for success.
			w.WriteHeader(499)
			return
		}
		s.log.Error("dashboard request failed", slog.String("path", r.URL.Path), slog.Any("err", err))
	}
	data := struct {
		Status  int
		Message string
	}{status, s.errorText(c, err)}
	if isHTMX(r) {
		// The fragment keeps the status (a foreign id is a 404 for htmx too); the page's
		// htmx config swaps 4xx and 5xx answers in, so the message is seen.
		s.execute(w, r, "error", "error-fragment", status, s.newView(w, r, c, page{name: "error"}, data))
		return
	}
	v := s.newView(w, r, c, page{name: "error", title: "error.title"}, data)
	s.execute(w, r, "error", "layout", status, v)
}

// redirect answers a form with 303 to target and a one-time notice (a catalog key).
func (s *Server) redirect(w http.ResponseWriter, r *http.Request, target, flashKey string) {
	if flashKey != "" {
		s.setCookie(w, flashCookie, flashKey, time.Minute)
	}
	http.Redirect(w, r, target, http.StatusSeeOther)
}

// redirectError is redirect with a failure notice.
func (s *Server) redirectError(w http.ResponseWriter, r *http.Request, target, flashKey string) {
	s.setCookie(w, flashCookie, "!"+flashKey, time.Minute)
	http.Redirect(w, r, target, http.StatusSeeOther)
}

// takeFlash reads and clears the one-time notice. Only catalog keys are accepted, so a
// forged cookie cannot put text of its own into a page.
func (s *Server) takeFlash(w http.ResponseWriter, r *http.Request, c *reqCtx) (string, bool) {
	ck, err := r.Cookie(flashCookie)
	if err != nil || ck.Value == "" {
		return "", false
	}
	s.clearCookie(w, flashCookie)
	key, isErr := strings.CutPrefix(ck.Value, "!")
	if !s.cat.Has(key) || !strings.HasPrefix(key, "flash.") {
		return "", false
	}
	return s.cat.T(c.Lang, key), isErr
}

// navItem is one entry of the side navigation.
type navItem struct {
	Href, Label string
	Current     bool
}

// navigation lists the pages in menu order; owner entries are hidden from agents.
var navigation = []struct {
	href, label, nav string
	owner            bool
}{
	{"/dashboard/", "nav.overview", "overview", false},
	{"/dashboard/conversations", "nav.conversations", "conversations", false},
	{"/dashboard/review", "nav.review", "review", false},
	{"/dashboard/kb", "nav.kb", "kb", false},
	{"/dashboard/tests", "nav.tests", "tests", false},
	{"/dashboard/assistant", "nav.assistant", "assistant", true},
	{"/dashboard/widget", "nav.widget", "widget", true},
	{"/dashboard/studio", "nav.studio", "studio", true},
	{"/dashboard/developer", "nav.developer", "developer", true},
	{"/dashboard/billing", "nav.billing", "billing", true},
	{"/dashboard/team", "nav.team", "team", true},
}

// NavItems is the navigation the user may follow.
func (v *view) NavItems() []navItem {
	var out []navItem
	for _, n := range navigation {
		if n.owner && !v.Owner() {
			continue
		}
		out = append(out, navItem{Href: n.href, Label: n.label, Current: n.nav == v.Nav})
	}
	return out
}

// SessionStarted is when the current session signed in.
func (v *view) SessionStarted() time.Time { return v.ctx.Session.CreatedAt }

// pagerLink is one entry of a numbered pager; Gap is an ellipsis between numbers.
type pagerLink struct {
	N       int
	Href    string
	Current bool
	Gap     bool
}

// numberPages numbers the pages of a list: the first, the last and two either side of the
// current one, with gaps between, so a long list stays one line and any page is two clicks
// away at most. href is page n's address. One page needs no pager (nil).
func numberPages(cur, pages int, href func(n int) string) []pagerLink {
	if pages <= 1 {
		return nil
	}
	var out []pagerLink
	for n := 1; n <= pages; n++ {
		if n != 1 && n != pages && (n < cur-2 || n > cur+2) {
			if !out[len(out)-1].Gap {
				out = append(out, pagerLink{Gap: true})
			}
			continue
		}
		out = append(out, pagerLink{N: n, Href: href(n), Current: n == cur})
	}
	return out
}
