package api

import (
	"net/http"
	"strings"

	"svc/internal/errs"
	"svc/internal/widget"
)

// widgetScript serves the widget bundle at the stable URL {embed_script_url}. Browsers that
// accept gzip get the copy compressed once at start-up; the ETag lets a page revalidate
// without downloading it again, and the short max-age lets a new release reach every site
// within minutes.
func (s *Server) widgetScript(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		s.writeError(w, r, errs.New(errs.MethodNotAllowed, "Use GET."))
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/javascript; charset=utf-8")
	h.Set("Cache-Control", "public, max-age=300")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cross-Origin-Resource-Policy", "cross-origin")
	h.Add("Vary", "Accept-Encoding")
	// The two encodings are two representations, so they carry two strong ETags.
	body, etag := widget.Script(), widget.ETag()
	if acceptsGzip(r.Header.Get("Accept-Encoding")) {
		h.Set("Content-Encoding", "gzip")
		body, etag = widget.Gzip(), strings.TrimSuffix(etag, `"`)+`-gz"`
	}
	h.Set("ETag", etag)
	if etagMatch(r.Header.Get("If-None-Match"), etag) {
		h.Del("Content-Encoding")
		w.WriteHeader(http.StatusNotModified)
		return
	}
	if r.Method == http.MethodHead {
		return
	}
	_, _ = w.Write(body)
}

// etagMatch implements If-None-Match's comparison (RFC 9110: weak comparison, "*" matches).
func etagMatch(header, etag string) bool {
	for _, part := range strings.Split(header, ",") {
		part = strings.TrimPrefix(strings.TrimSpace(part), "W/")
		if part == "*" || part == etag {
			return true
		}
	}
	return false
}

func acceptsGzip(v string) bool {
	for _, part := range strings.Split(v, ",") {
		name, q, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(name), "gzip") && strings.ReplaceAll(strings.TrimSpace(q), " ", "") != "q=0" {
			return true
		}
	}
	return false
}

// demo serves the sample host page of `svc demo`.
func (s *Server) demo(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/demo/" {
		s.writeError(w, r, errs.New(errs.NotFound, "No such endpoint."))
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		s.writeError(w, r, errs.New(errs.MethodNotAllowed, "Use GET."))
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	_, _ = w.Write(s.demoPage)
}
