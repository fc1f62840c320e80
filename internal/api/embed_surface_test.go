package api_test

import (
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"svc/internal/account"
	"svc/internal/api"
	"svc/internal/config"
)

func TestEmbedSurfaceRules(t *testing.T) {
	h := newHarness(t)
	_, key := h.tenant(account.Settings{})
	tok, _ := h.createToken(key, url.Values{"domains": {"example.com, shop.test"}})
	ok := widgetCall{token: tok, visitor: visitorID(1), origin: "https://example.com"}
	with := func(f func(c *widgetCall)) widgetCall { c := ok; f(&c); return c }

	tests := []struct {
		name   string
		method string
		action string
		call   widgetCall
		status int
		code   string
	}{
		{"allowed origin", "GET", "start", ok, 200, ""},
		{"subdomain", "GET", "start", with(func(c *widgetCall) { c.origin = "https://www.shop.example.com:8443" }), 200, ""},
		{"http origin", "GET", "start", with(func(c *widgetCall) { c.origin = "http://shop.test" }), 200, ""},
		{"look-alike domain", "GET", "start", with(func(c *widgetCall) { c.origin = "https://evil-example.com" }), 403, "forbidden"},
		{"suffix domain", "GET", "start", with(func(c *widgetCall) { c.origin = "https://example.com.evil.io" }), 403, "forbidden"},
		{"null origin", "GET", "start", with(func(c *widgetCall) { c.origin = "null" }), 403, "forbidden"},
		{"read without origin", "GET", "sync", with(func(c *widgetCall) { c.origin = "" }), 200, ""},
		{"write without origin", "POST", "send", with(func(c *widgetCall) { c.origin = "" }), 403, "forbidden"},
		{"feedback without origin", "POST", "feedback", with(func(c *widgetCall) { c.origin = "" }), 403, "forbidden"},
		{"write from other site", "POST", "send", with(func(c *widgetCall) { c.origin = "https://other.test" }), 403, "forbidden"},
		{"chat action out of scope", "GET", "apiKey", ok, 403, "forbidden"},
		{"management out of scope", "POST", "embedTokenCreate", ok, 403, "forbidden"},
		{"unknown action", "GET", "nosuch", ok, 403, "forbidden"},
		{"wrong method", "GET", "send", ok, 405, "method_not_allowed"},
		{"no token", "GET", "start", with(func(c *widgetCall) { c.token = "" }), 401, "unauthorized"},
		{"malformed token", "GET", "start", with(func(c *widgetCall) { c.token = "svc_emb_short" }), 401, "unauthorized"},
		{"unknown token", "GET", "start", with(func(c *widgetCall) { c.token = "svc_emb_" + strings.Repeat("A", 32) }), 401, "unauthorized"},
		{"secret key", "GET", "start", with(func(c *widgetCall) { c.header = http.Header{"Authorization": {"Bearer " + key}} }), 401, "unauthorized"},
		{"secret key header", "GET", "start", with(func(c *widgetCall) { c.header = http.Header{"X-Svc-Key": {key}} }), 401, "unauthorized"},
		{"no visitor", "GET", "start", with(func(c *widgetCall) { c.visitor = "" }), 400, "bad_request"},
		{"bad visitor", "GET", "start", with(func(c *widgetCall) { c.visitor = "visitor-1" }), 400, "bad_request"},
	}
	for _, tc := range tests {
		var body any
		if tc.method == "POST" {
			body = map[string]any{"message": "How long does delivery take?", "messageId": 1, "rating": "helpful"}
		}
		r := h.embed(tc.method, tc.action, tc.call, body)
		if r.Status != tc.status || r.Error != tc.code {
			t.Errorf("%s: %d %s %s", tc.name, r.Status, r.Error, r.Message)
		}
		acao := r.Header.Get("Access-Control-Allow-Origin")
		if tc.status == 403 && tc.code == "forbidden" && tc.action == "start" && acao != "" {
			t.Errorf("%s: refused origin got CORS header %q", tc.name, acao)
		}
		if tc.status == 200 && tc.call.origin != "" && acao != tc.call.origin {
			t.Errorf("%s: Access-Control-Allow-Origin %q, want %q", tc.name, acao, tc.call.origin)
		}
	}

	t.Run("preflight answers only allowed origins", func(t *testing.T) {
		for origin, want := range map[string]int{"https://example.com": 204, "https://a.shop.test": 204,
			"https://evil-example.com": 403, "null": 403} {
			req, _ := http.NewRequest(http.MethodOptions, h.srv.URL+"/api/v1/embed/send", nil)
			req.Header.Set("Origin", origin)
			req.Header.Set("Access-Control-Request-Method", "POST")
			req.Header.Set("Access-Control-Request-Headers", "content-type,x-svc-embed-token,x-svc-visitor")
			r := h.doReq(req)
			acao := r.Header.Get("Access-Control-Allow-Origin")
			if r.Status != want || (want == 204) != (acao == origin) {
				t.Errorf("preflight from %s: %d, allow-origin %q", origin, r.Status, acao)
			}
			if want == 204 && !strings.Contains(strings.ToLower(r.Header.Get("Access-Control-Allow-Headers")), "x-svc-visitor") {
				t.Errorf("preflight allows headers %q", r.Header.Get("Access-Control-Allow-Headers"))
			}
		}
	})

	t.Run("messages over 1000 characters", func(t *testing.T) {
		c := with(func(c *widgetCall) { c.visitor = visitorID(2) })
		if r := h.embed("POST", "send", c, map[string]string{"message": strings.Repeat("ü", 1001)}); r.Status != 400 || r.Error != "bad_request" {
			t.Fatalf("1001 characters: %d %s", r.Status, r.raw)
		}
		if r := h.embed("POST", "send", c, map[string]string{"message": strings.Repeat("ü", 1000)}); r.Status != 200 {
			t.Fatalf("1000 characters: %d %s", r.Status, r.raw)
		}
		if r := h.embed("POST", "send", c, map[string]string{"message": "  "}); r.Status != 400 {
			t.Fatalf("empty: %d %s", r.Status, r.raw)
		}
	})

	t.Run("revocation is immediate", func(t *testing.T) {
		tok2, id2 := h.createToken(key, url.Values{"domains": {"example.com"}})
		c := widgetCall{token: tok2, visitor: visitorID(3), origin: "https://example.com"}
		if r := h.embed("GET", "start", c, nil); r.Status != 200 {
			t.Fatalf("before revoke: %d", r.Status)
		}
		h.postForm("/api/v1/chat/embedTokenRevoke", key, url.Values{"id": {itoa(id2)}})
		if r := h.embed("GET", "start", c, nil); r.Status != 401 {
			t.Fatalf("after revoke: %d %s", r.Status, r.raw)
		}
		if r := h.embed("POST", "send", c, map[string]string{"message": "hello"}); r.Status != 401 {
			t.Fatalf("send after revoke: %d %s", r.Status, r.raw)
		}
	})
}

func TestEmbedVisitorsAreIsolated(t *testing.T) {
	h := newHarness(t)
	_, key := h.tenant(account.Settings{BalanceMicro: ptr(int64(5_000_000))})
	tok, _ := h.createToken(key, url.Values{"domains": {"example.com"}})
	tok2, _ := h.createToken(key, url.Values{"domains": {"example.com"}})
	a := widgetCall{token: tok, visitor: visitorID(1), origin: "https://example.com"}
	b := widgetCall{token: tok, visitor: visitorID(2), origin: "https://example.com"}
	aOther := widgetCall{token: tok2, visitor: visitorID(1), origin: "https://example.com"}

	sa := h.widgetSend(a, "Which payment methods do you accept?")
	if sa.Messages[1].Source != "ai" || sa.Mode != "normal" {
		t.Fatalf("answer: %+v", sa)
	}
	reply := sa.Messages[1].ID
	for name, c := range map[string]widgetCall{"other visitor": b, "same visitor on another token": aOther} {
		var v embedView
		r := h.embed("GET", "start", c, nil)
		r.decode(t, &v)
		if len(v.Messages) != 0 || v.ConversationID == sa.ConversationID {
			t.Errorf("%s sees %d messages of conversation %d", name, len(v.Messages), v.ConversationID)
		}
		r = h.embed("GET", "sync?sinceId=0", c, nil)
		r.decode(t, &v)
		if len(v.Messages) != 0 {
			t.Errorf("%s syncs %d messages", name, len(v.Messages))
		}
		if r := h.embed("POST", "feedback", c, map[string]any{"messageId": reply, "rating": "not_helpful"}); r.Status != 404 {
			t.Errorf("%s rated a message of another visitor: %d %s", name, r.Status, r.raw)
		}
	}
	// The API conversation of the account is another conversation again.
	var api embedView
	h.get("/api/v1/chat/start", key).decode(t, &api)
	if len(api.Messages) != 0 {
		t.Errorf("the API conversation shows %d widget messages", len(api.Messages))
	}
	var v embedView
	h.embed("GET", "start", a, nil).decode(t, &v)
	if len(v.Messages) != 2 || v.ConversationID != sa.ConversationID || v.Name == "" {
		t.Fatalf("the visitor's own history: %+v", v)
	}
	if r := h.embed("POST", "feedback", a, map[string]any{"messageId": reply, "rating": "helpful"}); r.Status != 200 {
		t.Fatalf("own feedback: %d %s", r.Status, r.raw)
	}
	// Guessed ids: a message id of the API conversation is not found for the visitor either.
	_, _ = h.send(key, "Which payment methods do you accept?")
	var api2 embedView
	h.get("/api/v1/chat/start", key).decode(t, &api2)
	if r := h.embed("POST", "feedback", a, map[string]any{"messageId": api2.Messages[1].ID, "rating": "helpful"}); r.Status != 404 {
		t.Fatalf("visitor rated an API message: %d", r.Status)
	}
	var sg struct {
		Seeds []string `json:"seeds"`
	}
	r := h.embed("GET", "suggestions", a, nil)
	if r.Status != 200 {
		t.Fatalf("suggestions: %d %s", r.Status, r.raw)
	}
	r.decode(t, &sg)
	if len(sg.Seeds) == 0 {
		t.Error("no starter questions for the widget")
	}
}

func TestEmbedRateLimits(t *testing.T) {
	clock := newTestClock()
	h := newClockedHarness(t, config.Config{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}}, clock)
	_, key := h.tenant(account.Settings{BalanceMicro: ptr(int64(50_000_000))})
	tok, _ := h.createToken(key, url.Values{"domains": {"example.com"}, "daily_budget_usd": {"100"}})
	call := func(v, ip int) widgetCall {
		return widgetCall{token: tok, visitor: visitorID(v), origin: "https://example.com", ip: "203.0.113." + strconv.Itoa(ip)}
	}

	t.Run("10 messages a minute per visitor", func(t *testing.T) {
		for i := range 10 {
			h.widgetSend(call(1, 1), "hello "+strconv.Itoa(i))
		}
		r := h.embed("POST", "send", call(1, 2), map[string]string{"message": "one more"})
		if r.Status != 429 || r.Header.Get("Retry-After") == "" {
			t.Fatalf("11th message: %d %s", r.Status, r.raw)
		}
		h.widgetSend(call(2, 2), "another visitor is not limited")
	})
	clock.Advance(2 * 60e9)

	t.Run("30 requests a minute per address", func(t *testing.T) {
		for i := range 30 {
			if r := h.embed("GET", "sync", call(3, 9), nil); r.Status != 200 {
				t.Fatalf("request %d: %d", i+1, r.Status)
			}
		}
		r := h.embed("GET", "sync", call(4, 9), nil)
		if r.Status != 429 || r.Header.Get("Retry-After") == "" || r.Header.Get("Access-Control-Allow-Origin") == "" {
			t.Fatalf("31st request from one address: %d %v %s", r.Status, r.Header, r.raw)
		}
		if r := h.embed("GET", "sync", call(3, 10), nil); r.Status != 200 {
			t.Fatalf("another address: %d", r.Status)
		}
	})
	clock.Advance(2 * 60e9)

	t.Run("60 new answers a minute per token", func(t *testing.T) {
		// Each question is new (a cache miss): ten visitors ask six each, each question from
		// an address of its own (a crowd, which surge protection lets through).
		for i := range 60 {
			c := call(100+i/6, 100+i)
			if r := h.embed("POST", "send", c, map[string]string{"message": "Do you sell item number " + strconv.Itoa(1000+i) + "?"}); r.Status != 200 {
				t.Fatalf("question %d: %d %s", i+1, r.Status, r.raw)
			}
		}
		r := h.embed("POST", "send", call(200, 180), map[string]string{"message": "Do you sell item number 5000?"})
		if r.Status != 429 || r.Header.Get("Retry-After") == "" {
			t.Fatalf("61st new answer on the token: %d %s", r.Status, r.raw)
		}
		// Only new answers spend it: polling and small talk go on.
		for i := range 40 {
			if r := h.embed("GET", "sync", call(300+i, 200+i%50), nil); r.Status != 200 {
				t.Fatalf("sync %d after the token's answers ran out: %d %s", i+1, r.Status, r.raw)
			}
		}
		h.widgetSend(call(201, 181), "hello")
	})
	clock.Advance(2 * 60e9)

	t.Run("100 messages a day per visitor", func(t *testing.T) {
		sent := 0
		for sent < 100 {
			for range 10 {
				h.widgetSend(call(7, 40+sent%20), "hi "+strconv.Itoa(sent))
				sent++
			}
			clock.Advance(70e9)
		}
		r := h.embed("POST", "send", call(7, 99), map[string]string{"message": "and one more"})
		retry, _ := strconv.Atoi(r.Header.Get("Retry-After"))
		if r.Status != 429 || retry < 60 {
			t.Fatalf("101st message of the day: %d Retry-After %q %s", r.Status, r.Header.Get("Retry-After"), r.raw)
		}
		clock.Advance(24 * 60 * 60e9)
		h.widgetSend(call(7, 99), "a new day")
	})
}

func TestEmbedClientAddressIgnoresUntrustedForwarding(t *testing.T) {
	h := newHarness(t) // no trusted proxies: X-Forwarded-For is the client's own say
	_, key := h.tenant(account.Settings{})
	tok, _ := h.createToken(key, url.Values{"domains": {"example.com"}})
	for i := range 30 {
		c := widgetCall{token: tok, visitor: visitorID(1), origin: "https://example.com", ip: "198.51.100." + strconv.Itoa(i)}
		if r := h.embed("GET", "sync", c, nil); r.Status != 200 {
			t.Fatalf("request %d: %d", i, r.Status)
		}
	}
	c := widgetCall{token: tok, visitor: visitorID(1), origin: "https://example.com", ip: "198.51.100.200"}
	if r := h.embed("GET", "sync", c, nil); r.Status != 429 {
		t.Fatalf("a forged X-Forwarded-For escaped the address limit: %d", r.Status)
	}
}

// Anyone can read the public token from a page. Invalid requests sent with it, at the full
// rate one address allows, must not lock the token's real visitors out: they spend only that
// address's own allowance.
func TestEmbedTokenLockoutAttempt(t *testing.T) {
	t.Parallel()
	// A stopped clock: the per-address allowance does not refill while the test runs slowly.
	h := newClockedHarness(t, config.Config{TrustedProxies: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}}, newTestClock())
	_, key := h.tenant(account.Settings{BalanceMicro: ptr(int64(5_000_000))})
	tok, _ := h.createToken(key, url.Values{"domains": {"example.com"}})
	for _, junk := range []widgetCall{
		{token: tok, visitor: "not-a-uuid", ip: "192.0.2.66"}, // a bad visitor id, no Origin
		{token: tok, visitor: "not-a-uuid", ip: "192.0.2.67", origin: "https://example.com"},
	} {
		for i := range 60 {
			want := http.StatusBadRequest
			if i >= api.EmbedPerIP {
				want = http.StatusTooManyRequests // the attacker's own address is limited
			}
			if r := h.embed("GET", "sync", junk, nil); r.Status != want {
				t.Fatalf("junk request %d: %d, want %d", i+1, r.Status, want)
			}
		}
	}
	for i := range 5 {
		c := widgetCall{token: tok, visitor: visitorID(i), origin: "https://example.com", ip: "198.51.100." + strconv.Itoa(i+1)}
		if r := h.embed("GET", "start", c, nil); r.Status != 200 {
			t.Fatalf("visitor %d start after the attack: %d %s", i, r.Status, r.raw)
		}
		if r := h.embed("GET", "sync", c, nil); r.Status != 200 {
			t.Fatalf("visitor %d sync after the attack: %d %s", i, r.Status, r.raw)
		}
		h.widgetSend(c, "How long does delivery to Germany take?")
	}
}
