package api_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"svc/internal/account"
)

// A client controls the path, the query, the request id and values quoted back in error
// messages, so it can try to put a key into our logs: its own, or one it found. No log line,
// at any level, ever holds a secret key, an embed token, a preview token or a dashboard link
// secret, whichever way it came in; nor is a secret-shaped request id echoed back.
func TestSecretsNeverReachTheLog(t *testing.T) {
	t.Parallel()
	h, logs := newLoggedHarness(t)
	_, key := h.tenant(account.Settings{})
	tok, _ := h.createToken(key, url.Values{"domains": {"example.com"}})
	const (
		preview = "svc_prev_1.1.4102444800.Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6"
		link    = "k3J8s0_aZ-9qLmN1oP2rS3tU4vW5xY6zA7bC8dE9fG0"
	)
	secrets := []string{key, tok, preview, link}

	type call struct {
		name, method, path, requestID string
		header                        http.Header
		form                          url.Values
	}
	calls := []call{
		{name: "key as request id", method: "GET", path: "/api/v1/chat/start", requestID: key},
		{name: "token as request id", method: "GET", path: "/healthz", requestID: tok},
		{name: "preview token as request id", method: "GET", path: "/healthz", requestID: preview},
		{name: "key as action", method: "GET", path: "/api/v1/chat/" + key},
		{name: "key as action with the key", method: "GET", path: "/api/v1/chat/" + key, header: http.Header{"Authorization": {"Bearer " + key}}},
		{name: "key in the legacy query", method: "GET", path: "/api.php?endpoint=chat&action=" + key},
		{name: "key as legacy endpoint", method: "GET", path: "/api.php?endpoint=" + key},
		{name: "key as path", method: "GET", path: "/" + key},
		{name: "percent-encoded key", method: "GET", path: "/" + strings.ReplaceAll(key, "_", "%5F")},
		{name: "token as embed action", method: "GET", path: "/api/v1/embed/" + tok},
		{name: "token as intelligence op", method: "POST", path: "/api/v1/intelligence/" + tok, header: http.Header{"Authorization": {"Bearer " + key}}},
		{name: "preview as path", method: "GET", path: "/api/v1/chat/" + preview},
		{name: "reset link", method: "GET", path: "/dashboard/reset/" + link},
		{name: "invite link", method: "GET", path: "/dashboard/invite/" + link},
		{name: "reset link post", method: "POST", path: "/dashboard/reset/" + link, form: url.Values{"password": {"x"}}},
		{name: "key quoted in a refusal", method: "POST", path: "/api/v1/chat/embedTokenCreate",
			header: http.Header{"Authorization": {"Bearer " + key}}, form: url.Values{"domains": {key + ", " + tok}}},
		{name: "key as a bad token", method: "GET", path: "/api/v1/embed/start", header: http.Header{"X-Svc-Embed-Token": {key}}},
		{name: "key as a bad key", method: "GET", path: "/api/v1/chat/start", header: http.Header{"X-Svc-Key": {tok}}},
	}
	for _, c := range calls {
		var body *strings.Reader
		if c.form != nil {
			body = strings.NewReader(c.form.Encode())
		} else {
			body = strings.NewReader("")
		}
		req, err := http.NewRequest(c.method, h.srv.URL+c.path, body)
		if err != nil {
			t.Fatal(err)
		}
		if c.form != nil {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		if c.requestID != "" {
			req.Header.Set("X-Request-Id", c.requestID)
		}
		for k, vs := range c.header {
			req.Header[k] = vs
		}
		resp, err := h.srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		id := resp.Header.Get("X-Request-Id")
		if id == "" || strings.Contains(id, "svc_") {
			t.Errorf("%s: response X-Request-Id %q", c.name, id)
		}
		waitForAccessLines(t, logs, []string{id})
	}

	out := logs.String()
	for _, s := range secrets {
		if strings.Contains(out, s) {
			t.Errorf("the log holds the secret %q", s)
		}
		// Nor the secret part of it without its prefix (the part after "svc_pk_" and so on).
		if i := strings.LastIndexByte(s, '_'); i > 0 && len(s)-i > 12 && strings.Contains(out, s[i+1:]) {
			t.Errorf("the log holds the secret part of %q", s)
		}
	}
	if !strings.Contains(out, "[REDACTED]") {
		t.Errorf("nothing was redacted: the test sent no secret into the log")
	}
}
