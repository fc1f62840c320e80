package api_test

import (
	"net/http"
	"strings"
	"testing"

	"svc/internal/account"
	"svc/internal/config"
)

// A path with "." or ".." segments, or an empty one, names no endpoint: the envelope's 404
// not_found (DECISIONS.md's unknown path), never a way to another action. net/http answered a
// 307 with an HTML body pointing /api/v1/embed/../chat/apiKey at /api/v1/chat/apiKey.
func TestDotSegmentsGetTheEnvelope(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, key := h.tenant(account.Settings{})
	for _, p := range []string{
		"/api/v1/embed/../chat/apiKey",
		"/api/v1/chat/./apiKey",
		"/api//v1/chat/apiKey",
		"/api/v1/chat/apiKey/..",
		"/demo/../api/v1/chat/apiKey",
		"/dashboard/../api.php?endpoint=chat&action=apiKey",
		"/api/v1/../../healthz",
		"/x/../readyz",
	} {
		for _, method := range []string{http.MethodGet, http.MethodPost} {
			r := h.do(method, p, key, nil, "")
			if r.Status != http.StatusNotFound || r.Error != "not_found" || !strings.Contains(r.Message, `".."`) ||
				r.Header.Get("Location") != "" || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") {
				t.Errorf("%s %s: %d %s %q Location %q", method, p, r.Status, r.Error, r.Message, r.Header.Get("Location"))
			}
		}
	}
	// The plain path still works.
	if r := h.get("/api/v1/chat/apiKey", key); r.Status != http.StatusOK {
		t.Fatalf("apiKey: %d %s", r.Status, r.raw)
	}
}

// A browser page's path with ".." keeps net/http's redirect to the page it means.
func TestDotSegmentsRedirectBrowserPages(t *testing.T) {
	t.Parallel()
	h := newHarnessWith(t, config.Config{LLMProvider: "builtin"})
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for p, want := range map[string]string{
		"/demo/../dashboard/": "/dashboard/",
		"/api/../dashboard/":  "/dashboard/",
		"/dashboard//login":   "/dashboard/login",
	} {
		resp, err := c.Get(h.srv.URL + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusTemporaryRedirect || resp.Header.Get("Location") != want {
			t.Errorf("%s: %d Location %q, want a redirect to %s", p, resp.StatusCode, resp.Header.Get("Location"), want)
		}
	}
}
