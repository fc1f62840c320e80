package dashboard

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"svc/internal/errs"
	"svc/internal/nultext"
	"svc/internal/store"
)

// access is who may use a route.
type access int

const (
	public    access = iota // signed out too: sign-in, links, assets
	member                  // any signed-in user of the account
	ownerOnly               // the account's owners
)

// reqCtx is what a handler knows about the signed-in user.
type reqCtx struct {
	User    store.User
	Account store.Account
	Session store.Session
	Lang    string
	// CSRF is the anti-forgery value the page's forms carry.
	CSRF string
}

// Owner reports whether the user is an owner of the account.
func (c *reqCtx) Owner() bool { return c != nil && c.User.Role == store.UserOwner }

// handlerFunc is a dashboard handler; an error it returns is rendered by renderError.
type handlerFunc func(w http.ResponseWriter, r *http.Request, c *reqCtx) error

// router registers routes with their access rule.
type router struct {
	s   *Server
	mux *http.ServeMux
}

// handle registers pattern (a net/http pattern with a method) for who; its body may be
// maxFormBody at most.
func (rt router) handle(pattern string, who access, fn handlerFunc) {
	rt.mux.Handle(pattern, rt.s.guard(who, maxFormBody, fn))
}

// upload registers a route that takes a file of up to maxBody bytes.
func (rt router) upload(pattern string, who access, maxBody int64, fn handlerFunc) {
	rt.mux.Handle(pattern, rt.s.guard(who, maxBody, fn))
}

func (s *Server) routes() http.Handler {
	rt := router{s: s, mux: http.NewServeMux()}
	rt.mux.HandleFunc("GET /dashboard/assets/{name...}", s.serveAsset)
	rt.mux.HandleFunc("/dashboard", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/dashboard/", http.StatusMovedPermanently)
	})
	s.authRoutes(rt)
	s.profileRoutes(rt)
	s.overviewRoutes(rt)
	s.conversationRoutes(rt)
	s.visitorDataRoutes(rt)
	s.reviewRoutes(rt)
	s.kbRoutes(rt)
	s.testsRoutes(rt)
	s.assistantRoutes(rt)
	s.widgetRoutes(rt)
	s.developerRoutes(rt)
	s.billingRoutes(rt)
	s.studioRoutes(rt)
	s.teamRoutes(rt)
	// Anything else under /dashboard/ is a page that does not exist.
	rt.handle("/dashboard/", member, func(w http.ResponseWriter, r *http.Request, c *reqCtx) error {
		return errs.New(errs.NotFound, "No such page.")
	})
	return s.secureHeaders(s.crossOrigin(rt.mux))
}

// guard loads the session for every route, sends the signed-out to the sign-in page,
// refuses agents the owners' pages, caps the body at maxBody and checks a POST's form token.
func (s *Server) guard(who access, maxBody int64, fn handlerFunc) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Body = http.MaxBytesReader(w, r.Body, maxBody)
		c, err := s.session(w, r)
		if err != nil && !errors.Is(err, errNoSession) {
			s.renderError(w, r, nil, err)
			return
		}
		if c == nil {
			c = s.anonymous(w, r)
		}
		if who != public && c.User.ID == 0 {
			s.toLogin(w, r)
			return
		}
		if who == ownerOnly && !c.Owner() {
			s.renderError(w, r, c, errs.New(errs.Forbidden, "Only an owner of the account can open this page."))
			return
		}
		if r.Method == http.MethodPost {
			if err := s.checkCSRF(r, c); err != nil {
				s.renderError(w, r, c, err)
				return
			}
		}
		if err := checkNUL(r); err != nil {
			s.renderError(w, r, c, err)
			return
		}
		if err := fn(w, r, c); err != nil {
			s.renderError(w, r, c, err)
		}
	})
}

// checkNUL refuses a request with a NUL in a query parameter or a form field, naming it
// (nultext: refused at the boundary, never dropped), before any handler reads it: a NUL in
// an e-mail, a search or a name must not reach the store. The one form that takes a file
// (the import) is read by its handler, which judges the file's lines itself.
func checkNUL(r *http.Request) error {
	if err := nultext.Values(r.URL.Query()); err != nil {
		return err
	}
	if r.Method != http.MethodPost || strings.HasPrefix(r.Header.Get("Content-Type"), "multipart/form-data") {
		return nil
	}
	// A form that cannot be read whole is the handler's to judge, as before; what was read
	// is checked.
	_ = r.ParseForm()
	return nultext.Values(r.PostForm)
}

// routeItemID reads the {id} of a route (a token, a user, a document, a site); anything but a
// positive number names nothing, a 404.
func routeItemID(r *http.Request) (int64, error) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil || id <= 0 {
		return 0, errs.New(errs.NotFound, "No such item.")
	}
	return id, nil
}

// routeItem reads the {id} of the route and, with get, the signed-in account's item of that
// id; get's error (a 404 for another account's item) is returned as it is.
func routeItem[T any](r *http.Request, c *reqCtx, get func(context.Context, *reqCtx, int64) (T, error)) (T, error) {
	id, err := routeItemID(r)
	if err != nil {
		var zero T
		return zero, err
	}
	return get(r.Context(), c, id)
}
