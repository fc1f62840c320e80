package api

import (
	"net/http"
	"path"
	"strings"

	"svc/internal/errs"
)

// cleanPath is the canonical form of an escaped request path, as net/http's ServeMux
// computes it: "." and ".." segments resolved, empty segments dropped, a trailing slash kept.
func cleanPath(p string) string {
	if p == "" {
		return "/"
	}
	if p[0] != '/' {
		p = "/" + p
	}
	np := path.Clean(p)
	if p[len(p)-1] == '/' && np != "/" {
		np += "/"
	}
	return np
}

// browserPage reports whether a canonical path is one a browser opens (the dashboard, the
// demo page, the widget script): there, the redirect to the canonical path that net/http
// answers is what a browser expects.
func browserPage(p string) bool {
	return p == "/dashboard" || strings.HasPrefix(p, "/dashboard/") || strings.HasPrefix(p, "/demo/") || p == "/widget.js"
}

// nonCanonical reports whether p is not the path it resolves to and does not lead to a
// browser page: cleanPath is computed once, as this runs before every request.
func nonCanonical(p string) bool {
	c := cleanPath(p)
	return c != p && !browserPage(c)
}

// plainPaths answers a request whose path is not canonical ("/api/v1/embed/../chat/apiKey",
// "//", "/./") as any path that names no endpoint, with the envelope's 404 not_found, unless
// it leads to a browser page.
// net/http's router would redirect it (307, with an HTML body) to the path it resolves to,
// so an API client following redirects would reach, under another surface's name, an
// action it never asked for; the client is told to send the path as meant instead. The
// path is not echoed: it may carry a secret.
func (s *Server) plainPaths(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodConnect { // the router leaves CONNECT's path alone too
			if p := r.URL.EscapedPath(); nonCanonical(p) {
				s.writeError(w, r, errs.New(errs.NotFound,
					`No such endpoint: the path has "." or ".." segments or an empty one, which are not resolved; send the path itself, such as /api/v1/chat/send.`))
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}
