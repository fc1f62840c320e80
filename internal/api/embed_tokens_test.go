package api_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"svc/internal/account"
)

func TestEmbedTokenManagement(t *testing.T) {
	h := newHarness(t)
	_, key := h.tenant(account.Settings{})

	t.Run("create validates and normalises", func(t *testing.T) {
		tests := []struct {
			name   string
			form   url.Values
			status int
			code   string
		}{
			{"domains required", url.Values{"label": {"x"}}, 400, "bad_request"},
			{"empty domains", url.Values{"domains": {" , "}}, 400, "bad_request"},
			{"bad domain", url.Values{"domains": {"exa mple.com"}}, 400, "bad_request"},
			{"user info", url.Values{"domains": {"user@example.com"}}, 400, "bad_request"},
			{"label too long", url.Values{"domains": {"example.com"}, "label": {strings.Repeat("é", 81)}}, 400, "bad_request"},
			{"budget too small", url.Values{"domains": {"example.com"}, "daily_budget_usd": {"0.0499"}}, 400, "bad_request"},
			{"budget too large", url.Values{"domains": {"example.com"}, "daily_budget_usd": {"100.0001"}}, 400, "bad_request"},
			{"budget five places", url.Values{"domains": {"example.com"}, "daily_budget_usd": {"1.00001"}}, 400, "bad_request"},
			{"budget not a number", url.Values{"domains": {"example.com"}, "daily_budget_usd": {"1e2"}}, 400, "bad_request"},
			{"budget negative", url.Values{"domains": {"example.com"}, "daily_budget_usd": {"-1"}}, 400, "bad_request"},
		}
		for _, tc := range tests {
			r := h.postForm("/api/v1/chat/embedTokenCreate", key, tc.form)
			if r.Status != tc.status || r.Error != tc.code {
				t.Errorf("%s: %d %s %s", tc.name, r.Status, r.Error, r.Message)
			}
		}
		tok, id := h.createToken(key, url.Values{"domains": {"https://Shop.Example.COM:443/cart?x=1, bücher.de., *.example.org, shop.example.com"},
			"label": {"  Main site  "}})
		if !strings.HasPrefix(tok, "svc_emb_") || len(tok) != len("svc_emb_")+32 {
			t.Fatalf("token %q", tok)
		}
		list := h.tokens(key)
		got := list[id]
		if strings.Join(got.AllowedDomains, ",") != "shop.example.com,xn--bcher-kva.de,example.org" || got.Label != "Main site" ||
			got.DailyBudgetUSD != "1.0000" || got.Status != "active" || got.LastUsedAt != nil {
			t.Fatalf("stored token: %+v", got)
		}
		if strings.Contains(got.Token, tok[len("svc_emb_")+8:]) || !strings.HasPrefix(got.Token, tok[:len("svc_emb_")+8]) {
			t.Fatalf("list shows %q for %q: only the prefix may be shown again", got.Token, tok)
		}
		_, id2 := h.createToken(key, url.Values{"domains": {"example.com"}, "daily_budget_usd": {"0.05"}})
		_, id3 := h.createToken(key, url.Values{"domains": {"example.com"}, "daily_budget_usd": {"100"}})
		if b := h.tokens(key); b[id2].DailyBudgetUSD != "0.0500" || b[id3].DailyBudgetUSD != "100.0000" {
			t.Fatalf("budgets %q %q", b[id2].DailyBudgetUSD, b[id3].DailyBudgetUSD)
		}
	})

	t.Run("five active at most, revocation frees a place", func(t *testing.T) {
		for len(h.activeTokens(key)) < account.MaxActiveEmbedTokens {
			h.createToken(key, url.Values{"domains": {"example.net"}})
		}
		r := h.postForm("/api/v1/chat/embedTokenCreate", key, url.Values{"domains": {"example.net"}})
		if r.Status != http.StatusBadRequest || r.Error != "limit_reached" {
			t.Fatalf("sixth token: %d %s", r.Status, r.raw)
		}
		victim := h.activeTokens(key)[0]
		r = h.postForm("/api/v1/chat/embedTokenRevoke", key, url.Values{"id": {itoa(victim)}})
		if r.Status != http.StatusOK {
			t.Fatalf("revoke: %d %s", r.Status, r.raw)
		}
		if r = h.postForm("/api/v1/chat/embedTokenRevoke", key, url.Values{"id": {itoa(victim)}}); r.Status != http.StatusOK {
			t.Fatalf("revoking again must succeed: %d %s", r.Status, r.raw)
		}
		if h.tokens(key)[victim].Status != "revoked" {
			t.Fatal("revoked token not listed as revoked")
		}
		h.createToken(key, url.Values{"domains": {"example.net"}})
	})

	t.Run("update", func(t *testing.T) {
		id := h.activeTokens(key)[0]
		r := h.postJSON("/api/v1/chat/embedTokenUpdate", key, map[string]any{"id": id, "label": "Shop", "daily_budget_usd": 2.5})
		if r.Status != http.StatusOK {
			t.Fatalf("update: %d %s", r.Status, r.raw)
		}
		got := h.tokens(key)[id]
		if got.Label != "Shop" || got.DailyBudgetUSD != "2.5000" || len(got.AllowedDomains) == 0 {
			t.Fatalf("after update: %+v", got)
		}
		r = h.postForm("/api/v1/chat/embedTokenUpdate", key, url.Values{"id": {itoa(id)}, "domains": {"Example.COM."}})
		if r.Status != http.StatusOK || strings.Join(h.tokens(key)[id].AllowedDomains, ",") != "example.com" {
			t.Fatalf("domains update: %d %s %+v", r.Status, r.raw, h.tokens(key)[id])
		}
		tests := []struct {
			form   url.Values
			status int
			code   string
		}{
			{url.Values{"label": {"x"}}, 400, "bad_request"},
			{url.Values{"id": {"abc"}}, 400, "bad_request"},
			{url.Values{"id": {"999999"}}, 404, "not_found"},
			{url.Values{"id": {itoa(id)}, "domains": {""}}, 400, "bad_request"},
			{url.Values{"id": {itoa(id)}, "daily_budget_usd": {"0.01"}}, 400, "bad_request"},
		}
		for _, tc := range tests {
			if r := h.postForm("/api/v1/chat/embedTokenUpdate", key, tc.form); r.Status != tc.status || r.Error != tc.code {
				t.Errorf("update %v: %d %s", tc.form, r.Status, r.raw)
			}
		}
		var revoked int64
		for tid, tk := range h.tokens(key) {
			if tk.Status == "revoked" {
				revoked = tid
			}
		}
		if r := h.postForm("/api/v1/chat/embedTokenUpdate", key, url.Values{"id": {itoa(revoked)}, "label": {"back"}}); r.Status != 400 {
			t.Errorf("updating a revoked token: %d %s", r.Status, r.raw)
		}
		if r := h.postForm("/api/v1/chat/embedTokenRevoke", key, url.Values{"id": {"424242"}}); r.Status != 404 || r.Error != "not_found" {
			t.Errorf("revoke unknown: %d %s", r.Status, r.raw)
		}
	})

	t.Run("other tenants and credentials", func(t *testing.T) {
		_, other := h.tenant(account.Settings{Name: ptr("Other Shop")})
		id := h.activeTokens(key)[0]
		if r := h.postForm("/api/v1/chat/embedTokenRevoke", other, url.Values{"id": {itoa(id)}}); r.Status != 404 {
			t.Errorf("another account revoked a token: %d %s", r.Status, r.raw)
		}
		if len(h.tokens(other)) != 0 {
			t.Error("another account lists our tokens")
		}
		h.postForm("/api/v1/chat/embedTokenRevoke", key, url.Values{"id": {itoa(id)}})
		tok, _ := h.createToken(key, url.Values{"domains": {"example.com"}})
		for _, path := range []string{"/api/v1/chat/embedTokens", "/api/v1/chat/apiKey", "/api/v1/chat/start"} {
			req, _ := http.NewRequest(http.MethodGet, h.srv.URL+path, nil)
			req.Header.Set("X-SVC-Embed-Token", tok)
			if r := h.doReq(req); r.Status != http.StatusUnauthorized {
				t.Errorf("embed token header on %s: %d", path, r.Status)
			}
			if r := h.get(path, tok); r.Status != http.StatusUnauthorized {
				t.Errorf("embed token as bearer on %s: %d", path, r.Status)
			}
		}
	})
}

type tokenView struct {
	ID             int64    `json:"id"`
	Token          string   `json:"token"`
	Label          string   `json:"label"`
	AllowedDomains []string `json:"allowed_domains"`
	DailyBudgetUSD string   `json:"daily_budget_usd"`
	Status         string   `json:"status"`
	TodaySpendUSD  float64  `json:"today_spend_usd"`
	BudgetUsedPct  int      `json:"budget_used_pct"`
	Conversations  int      `json:"conversations"`
	Visitors       int      `json:"visitors"`
	LastUsedAt     *string  `json:"last_used_at"`
	CreatedAt      string   `json:"created_at"`
}

// tokens lists the account's embed tokens by id.
func (h *harness) tokens(key string) map[int64]tokenView {
	h.t.Helper()
	r := h.get("/api/v1/chat/embedTokens", key)
	if r.Status != http.StatusOK {
		h.t.Fatalf("embedTokens: %d %s", r.Status, r.raw)
	}
	var d struct {
		Tokens []tokenView `json:"tokens"`
	}
	r.decode(h.t, &d)
	out := map[int64]tokenView{}
	for _, tk := range d.Tokens {
		out[tk.ID] = tk
	}
	return out
}

// activeTokens are the ids of the account's active tokens, in list order.
func (h *harness) activeTokens(key string) []int64 {
	h.t.Helper()
	r := h.get("/api/v1/chat/embedTokens", key)
	var d struct {
		Tokens []tokenView `json:"tokens"`
	}
	r.decode(h.t, &d)
	var out []int64
	for _, tk := range d.Tokens {
		if tk.Status == "active" {
			out = append(out, tk.ID)
		}
	}
	return out
}
