package api_test

import (
	"net/http"
	"net/url"
	"regexp"
	"testing"

	"svc/internal/account"
)

// wellFormedOrigin is an origin as a browser serialises it: lower-case http(s), an ASCII host
// (a name, dotted IPv4 or bracketed IPv6) and an optional port.
var wellFormedOrigin = regexp.MustCompile(`^https?://([a-z0-9.-]+|\[[0-9a-f:.]+\])(:[0-9]{1,5})?$`)

// Browsers send origins in their ASCII serialisation (an IDN as punycode), so a raw
// non-ASCII Origin is no browser's: it is refused like any origin that is not allowed, and
// never echoed. Whatever is echoed in Access-Control-Allow-Origin is a well-formed origin.
func TestEmbedOriginMustBeASCIIAndIsEchoedWellFormed(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, key := h.tenant(account.Settings{})
	tok, _ := h.createToken(key, url.Values{"domains": {"bücher.de, example.com"}})

	refused := []string{
		"https://bücher.de",
		"https://shop.bücher.de",
		"https://ｅｘａｍｐｌｅ.com", // full-width letters, which IDNA would map to example.com
		"https://example.com\u00a0",
		"https://exa\tmple.com",
	}
	for _, origin := range refused {
		c := widgetCall{token: tok, visitor: visitorID(1), origin: origin}
		for _, m := range []string{http.MethodGet, http.MethodPost} {
			action, body := "start", any(nil)
			if m == http.MethodPost {
				action, body = "send", map[string]string{"message": "How long does delivery take?"}
			}
			r := h.embed(m, action, c, body)
			if r.Status != http.StatusForbidden || r.Error != "forbidden" {
				t.Errorf("%s %s from %q: %d %s", m, action, origin, r.Status, r.raw)
			}
			if acao := r.Header.Get("Access-Control-Allow-Origin"); acao != "" {
				t.Errorf("%s %s from %q: echoed Access-Control-Allow-Origin %q", m, action, origin, acao)
			}
		}
		req, _ := http.NewRequest(http.MethodOptions, h.srv.URL+"/api/v1/embed/send", nil)
		req.Header.Set("Origin", origin)
		req.Header.Set("Access-Control-Request-Method", "POST")
		r := h.doReq(req)
		if r.Status != http.StatusForbidden || r.Header.Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("preflight from %q: %d, allow-origin %q", origin, r.Status, r.Header.Get("Access-Control-Allow-Origin"))
		}
	}

	accepted := map[string]string{
		"https://xn--bcher-kva.de":      "https://xn--bcher-kva.de",
		"https://shop.xn--bcher-kva.de": "https://shop.xn--bcher-kva.de",
		"https://example.com:8443":      "https://example.com:8443",
		"HTTPS://WWW.Example.COM":       "https://www.example.com",
		"https://example.com:443":       "https://example.com",
	}
	for origin, want := range accepted {
		r := h.embed(http.MethodGet, "start", widgetCall{token: tok, visitor: visitorID(2), origin: origin}, nil)
		acao := r.Header.Get("Access-Control-Allow-Origin")
		if r.Status != http.StatusOK || acao != want || !wellFormedOrigin.MatchString(acao) {
			t.Errorf("GET start from %q: %d, allow-origin %q, want %q", origin, r.Status, acao, want)
		}
		req, _ := http.NewRequest(http.MethodOptions, h.srv.URL+"/api/v1/embed/send", nil)
		req.Header.Set("Origin", origin)
		req.Header.Set("Access-Control-Request-Method", "POST")
		p := h.doReq(req)
		if acao := p.Header.Get("Access-Control-Allow-Origin"); p.Status != http.StatusNoContent || acao != want {
			t.Errorf("preflight from %q: %d, allow-origin %q, want %q", origin, p.Status, acao, want)
		}
	}
}
