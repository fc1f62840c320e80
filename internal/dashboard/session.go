package dashboard

import (
	"errors"
	"net/http"
	"net/url"

	"svc/internal/clientip"
	"svc/internal/i18n"
	"svc/internal/users"
)

// errNoSession: the request carries no usable session.
var errNoSession = errors.New("dashboard: no session")

// session loads the signed-in user of the request. A cookie that names no live session
// (signed out elsewhere, expired, the user removed) is cleared.
func (s *Server) session(w http.ResponseWriter, r *http.Request) (*reqCtx, error) {
	ck, err := r.Cookie(sessionCookie)
	if err != nil || ck.Value == "" {
		return nil, errNoSession
	}
	sig, err := s.d.Users.Session(r.Context(), ck.Value)
	if errors.Is(err, users.ErrNoSession) {
		s.clearCookie(w, sessionCookie)
		return nil, errNoSession
	}
	if err != nil {
		return nil, err
	}
	a, err := s.d.Accounts.Get(r.Context(), sig.User.AccountID)
	if err != nil {
		return nil, err
	}
	c := &reqCtx{User: sig.User, Account: a, Session: sig.Session, CSRF: sessionCSRF(ck.Value)}
	c.Lang = sig.User.Lang
	if !i18n.Supported(c.Lang) {
		c.Lang = a.Lang
	}
	if !i18n.Supported(c.Lang) {
		c.Lang = i18n.Default
	}
	return c, nil
}

// anonymous is the context of a signed-out request: the language from ?lang= or the
// browser's preference, and a signed-out form token.
func (s *Server) anonymous(w http.ResponseWriter, r *http.Request) *reqCtx {
	lang := r.URL.Query().Get("lang")
	if !i18n.Supported(lang) {
		lang = i18n.Negotiate(r.Header.Get("Accept-Language"))
	}
	if !i18n.Supported(lang) {
		lang = i18n.Default
	}
	return &reqCtx{Lang: lang, CSRF: s.anonToken()}
}

// toLogin sends a signed-out visitor to the sign-in page, remembering where they were going
// when that was a page (a GET), so they land there after signing in.
func (s *Server) toLogin(w http.ResponseWriter, r *http.Request) {
	target := "/dashboard/login"
	if r.Method == http.MethodGet && r.URL.Path != "/dashboard/" {
		target += "?next=" + url.QueryEscape(r.URL.RequestURI())
	}
	if isHTMX(r) {
		// htmx would swap the sign-in page into a fragment: make it load the page instead.
		w.Header().Set("HX-Redirect", target)
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	http.Redirect(w, r, target, http.StatusSeeOther)
}

// safeNext keeps a post-sign-in target only when it is a dashboard path on this origin.
func safeNext(next string) string {
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || len(next) > 512 {
		return "/dashboard/"
	}
	if len(u.Path) < len("/dashboard/") || u.Path[:len("/dashboard/")] != "/dashboard/" || u.Path == "/dashboard/logout" {
		return "/dashboard/"
	}
	return u.RequestURI()
}

// clientAddr is the request's client address as far as trusted proxies vouch for it.
func (s *Server) clientAddr(r *http.Request) string {
	a := clientip.Of(r, s.d.TrustedProxies)
	if !a.IsValid() {
		return ""
	}
	return a.String()
}
