package dashboard_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"svc/internal/account"
	"svc/internal/store"
	"svc/internal/store/storetest"
)

var (
	embedTokenRE   = regexp.MustCompile(`svc_emb_[A-Za-z0-9]{32}`)
	previewTokenRE = regexp.MustCompile(`data-svc-token="(svc_prev_[^"]+)"`)
	createdIDRE    = regexp.MustCompile(`id="w-new"[\s\S]*?href="/dashboard/widget\?preview=(\d+)&amp;`)
)

// widgetCall is a request of the widget's surface; origin "" sends none.
func (h *harness) callWidget(method, action, token, origin, body string) (int, http.Header, string) {
	h.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, _ := http.NewRequest(method, h.srv.URL+"/api/v1/embed/"+action, rd)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("X-SVC-Embed-Token", token)
	req.Header.Set("X-SVC-Visitor", "7d444840-9dc0-41d4-a716-000000000001")
	if origin != "" {
		req.Header.Set("Origin", origin)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(b)
}

// tokenUsage reads a token's entry of embedTokens through the API.
func (h *harness) embedTokenUsage(key string, id int64) (conversations int, status string) {
	h.t.Helper()
	code, body := h.api(http.MethodGet, "/api/v1/chat/embedTokens", key, nil)
	if code != http.StatusOK {
		h.t.Fatalf("embedTokens: %d %s", code, body)
	}
	var env struct {
		Data struct {
			Tokens []struct {
				ID            int64  `json:"id"`
				Status        string `json:"status"`
				Conversations int    `json:"conversations"`
			} `json:"tokens"`
		} `json:"data"`
	}
	if err := json.Unmarshal([]byte(body), &env); err != nil {
		h.t.Fatal(err)
	}
	for _, t := range env.Data.Tokens {
		if t.ID == id {
			return t.Conversations, t.Status
		}
	}
	h.t.Fatalf("token %d is not listed: %s", id, body)
	return 0, ""
}

// createToken creates a token on the widget page and returns the full token and its id.
func (b *browser) createEmbedToken(form url.Values) (string, int64) {
	b.h.t.Helper()
	p := b.post("/dashboard/widget/tokens", form)
	if p.Status != http.StatusOK {
		b.h.t.Fatalf("create token: %d %s", p.Status, p.Body)
	}
	tok := embedTokenRE.FindString(p.Body)
	if tok == "" {
		b.h.t.Fatal("the new token is not shown")
	}
	// The card that shows the new token links to its preview.
	m := createdIDRE.FindStringSubmatch(p.Body)
	if m == nil {
		b.h.t.Fatal("the new token has no preview link")
	}
	id, err := strconv.ParseInt(m[1], 10, 64)
	if err != nil {
		b.h.t.Fatal(err)
	}
	return tok, id
}

func TestWidgetTokenIsShownOnceWithASnippetThatWorksOnAnAllowedSite(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, key, email, pw := h.tenant("Shop")
	b := h.browser()
	b.signIn(email, pw)

	p := b.get("/dashboard/widget")
	if p.Status != http.StatusOK {
		t.Fatalf("widget page: %d", p.Status)
	}
	mustContain(t, p.Body, `action="/dashboard/widget/tokens"`, `name="domains"`, `name="daily_budget_usd"`, "<h2", "No embed tokens yet.")

	xss := `<script>alert("x")</script>`
	tok, id := b.createEmbedToken(url.Values{"domains": {"shop.example.com\nexample.org"}, "label": {xss},
		"daily_budget_usd": {"2.50"}, "lang": {"de"}, "color": {"#FF0000"}})
	p = b.post("/dashboard/widget/tokens", url.Values{"domains": {"other.example"}})
	if strings.Contains(p.Body, tok) {
		t.Error("a token is shown again on a later page")
	}
	// The snippet is the one to paste: the service's script, the token, the chosen language
	// and colour. The page shows it as text.
	created := b.post("/dashboard/widget/tokens", url.Values{"domains": {"third.example"}, "lang": {"tr"}, "color": {"#abc"}})
	snippet := `&lt;script src=&#34;` + h.srv.URL + `/widget.js&#34; data-svc-token=&#34;svc_emb_`
	mustContain(t, created.Body, snippet, `data-svc-lang=&#34;tr&#34; data-svc-color=&#34;#aabbcc&#34; defer&gt;&lt;/script&gt;`, `data-copy="#new-snippet"`)

	page := b.get("/dashboard/widget")
	if strings.Contains(page.Body, tok) {
		t.Error("the full token is on the widget page")
	}
	if strings.Contains(page.Body, xss) {
		t.Error("the label is not escaped")
	}
	mustContain(t, page.Body, `&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;`, "shop.example.com", "example.org", "$2.50",
		`<th scope="col">`, `<th scope="row">`)

	// The token works on an allowed site (a subdomain too), and nowhere else.
	send := `{"message":"Hello!"}`
	if code, hdr, body := h.callWidget(http.MethodPost, "send", tok, "https://www.shop.example.com", send); code != http.StatusOK ||
		hdr.Get("Access-Control-Allow-Origin") != "https://www.shop.example.com" {
		t.Fatalf("send from an allowed site: %d %s", code, body)
	}
	if code, _, _ := h.callWidget(http.MethodPost, "send", tok, "https://evil.example", send); code != http.StatusForbidden {
		t.Errorf("send from another site: %d", code)
	}
	if n, _ := h.embedTokenUsage(key, id); n != 1 {
		t.Errorf("conversations today: %d", n)
	}
}

func TestWidgetFormErrorsKeepTheValuesAndTheLimitIsExplained(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, _, email, pw := h.tenant("Shop")
	b := h.browser()
	b.signIn(email, pw)

	p := b.post("/dashboard/widget/tokens", url.Values{"domains": {""}, "label": {"Main shop"}})
	if p.Status != http.StatusBadRequest {
		t.Fatalf("no domains: %d", p.Status)
	}
	mustContain(t, p.Body, "Enter at least one domain", `value="Main shop"`)

	// account.Service's own sentences for what it refuses.
	p = b.post("/dashboard/widget/tokens", url.Values{"domains": {"shop.example.com"}, "label": {"Main shop"}, "daily_budget_usd": {"500"}})
	if p.Status != http.StatusBadRequest {
		t.Fatalf("budget out of range: %d", p.Status)
	}
	mustContain(t, p.Body, "out of range", `value="500"`, "shop.example.com</textarea>", `value="Main shop"`)
	if embedTokenRE.MatchString(p.Body) {
		t.Error("a refused form made a token")
	}

	for i := range 5 {
		b.createEmbedToken(url.Values{"domains": {"s" + itoa(i) + ".example.com"}})
	}
	p = b.post("/dashboard/widget/tokens", url.Values{"domains": {"six.example.com"}})
	if p.Status != http.StatusBadRequest {
		t.Fatalf("sixth token: %d", p.Status)
	}
	mustContain(t, p.Body, "An account can have at most 5 active tokens.", "six.example.com</textarea>")
}

// TestWidgetBudgetIsWrittenAsThePageWritesMoney: the budget field and its hint write amounts
// as the rest of the dashboard does ("1,00" and "0,05 $" on a Turkish page, never "1.0000"
// or "From 0.0500 to 100.0000"), the field takes the page's decimal comma, and a budget it
// cannot read is explained with an example in the page's style.
func TestWidgetBudgetIsWrittenAsThePageWritesMoney(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, _, email, pw := h.tenant("Shop")
	for _, c := range []struct {
		lang, field, hint, typed, bad, example string
		saved                                  int64
	}{
		{"en", `value="1.00"`, "From $0.05 to $100.00 a day.", "2.5", "2,50", "like 1.50.", 2_500_000},
		{"tr", `value="1,00"`, "Günde 0,05 $ ile 100,00 $ arası.", "2,75", "iki", "1,50 gibi", 2_750_000},
		{"de", `value="1,00"`, "Von 0,05 $ bis 100,00 $ pro Tag.", "0,0525", "1,2,3", "wie 1,50.", 52_500},
	} {
		b := inLang(t, h, email, pw, c.lang)
		p := b.get("/dashboard/widget")
		mustContain(t, p.Body, c.field, c.hint)
		for _, old := range []string{"1.0000", "0.0500", "100.0000"} {
			if strings.Contains(p.Body, old) {
				t.Errorf("%s: the widget page shows %q", c.lang, old)
			}
		}
		_, id := b.createEmbedToken(url.Values{"domains": {c.lang + ".shop.example"}, "daily_budget_usd": {c.typed}})
		tok, err := h.st.GetEmbedToken(context.Background(), a.ID, id)
		if err != nil || tok.DailyBudgetMicro != c.saved {
			t.Errorf("%s: %q saved as %d µUSD (%v), want %d", c.lang, c.typed, tok.DailyBudgetMicro, err, c.saved)
		}
		e := b.get("/dashboard/widget/tokens/" + itoa(int(id)) + "/edit")
		mustContain(t, e.Body, `value="`+budgetShown(c.lang, c.saved)+`"`, c.hint)
		p = b.post("/dashboard/widget/tokens", url.Values{"domains": {"x.shop.example"}, "daily_budget_usd": {c.bad}})
		kbMustStatus(t, c.lang+" unreadable budget", p, http.StatusBadRequest)
		mustContain(t, p.Body, c.example)
	}
}

// budgetShown is how the edit form writes the budgets of TestWidgetBudgetIsWrittenAsThePageWritesMoney.
func budgetShown(lang string, micro int64) string {
	s := map[int64]string{2_500_000: "2.50", 2_750_000: "2.75", 52_500: "0.0525"}[micro]
	if lang != "en" {
		s = strings.Replace(s, ".", ",", 1)
	}
	return s
}

func TestWidgetTokenEditAndRevoke(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, key, email, pw := h.tenant("Shop")
	other, _, _, _ := h.tenant("Other")
	_, foreign, err := h.accounts.CreateEmbedToken(context.Background(), other, account.EmbedTokenInput{Domains: ptr("x.example")})
	if err != nil {
		t.Fatal(err)
	}
	fid := itoa(int(foreign.ID))

	b := h.browser()
	b.signIn(email, pw)
	tok, id := b.createEmbedToken(url.Values{"domains": {"shop.example.com"}, "label": {"Old"}})
	sid := itoa(int(id))

	p := b.get("/dashboard/widget/tokens/" + sid + "/edit")
	if p.Status != http.StatusOK {
		t.Fatalf("edit page: %d", p.Status)
	}
	mustContain(t, p.Body, `value="Old"`, "shop.example.com</textarea>", `value="1.00"`)

	p = b.post("/dashboard/widget/tokens/"+sid, url.Values{"domains": {"com"}, "label": {"New"}, "daily_budget_usd": {"3"}})
	if p.Status != http.StatusBadRequest || !strings.Contains(p.Body, `value="New"`) {
		t.Fatalf("a public suffix as domain: %d", p.Status)
	}
	p = b.post("/dashboard/widget/tokens/"+sid, url.Values{"domains": {"new.example.com"}, "label": {"New"}, "daily_budget_usd": {"3"}})
	if p.Status != http.StatusSeeOther {
		t.Fatalf("update: %d %s", p.Status, p.Body)
	}
	page := b.get("/dashboard/widget")
	mustContain(t, page.Body, "Token saved.", "new.example.com", "$3.00")
	if !regexp.MustCompile(`<th scope="row">\s*New\s*<code`).MatchString(page.Body) {
		t.Error("the new label is not shown")
	}
	if code, _, _ := h.callWidget(http.MethodGet, "start", tok, "https://new.example.com", ""); code != http.StatusOK {
		t.Errorf("start from the new domain: %d", code)
	}

	// Another account's token is not there, whatever the route.
	for _, path := range []string{"/dashboard/widget/tokens/" + fid + "/edit", "/dashboard/widget/tokens/" + fid + "/preview"} {
		if p := b.get(path); p.Status != http.StatusNotFound {
			t.Errorf("GET %s: %d", path, p.Status)
		}
	}
	for _, path := range []string{"/dashboard/widget/tokens/" + fid, "/dashboard/widget/tokens/" + fid + "/revoke"} {
		if p := b.post(path, url.Values{"domains": {"evil.example"}}); p.Status != http.StatusNotFound {
			t.Errorf("POST %s: %d", path, p.Status)
		}
	}
	if _, status := h.embedTokenUsage(key, id); status != store.EmbedActive {
		t.Fatalf("status: %s", status)
	}
	if p := b.get("/dashboard/widget?preview=" + fid); strings.Contains(p.Body, "/tokens/"+fid+"/preview") ||
		!strings.Contains(p.Body, `<iframe class="preview" src="/dashboard/widget/tokens/`+sid+`/preview`) {
		t.Error("another account's token is previewed")
	}

	page = b.get("/dashboard/widget")
	mustContain(t, page.Body, `action="/dashboard/widget/tokens/`+sid+`/revoke"`, "data-confirm=")
	if p := b.post("/dashboard/widget/tokens/"+sid+"/revoke", url.Values{}); p.Status != http.StatusSeeOther {
		t.Fatalf("revoke: %d", p.Status)
	}
	if code, _, _ := h.callWidget(http.MethodGet, "start", tok, "https://new.example.com", ""); code != http.StatusUnauthorized {
		t.Errorf("revoked token: %d", code)
	}
	mustContain(t, b.get("/dashboard/widget").Body, "Token revoked.", "revoked")
	edit := b.get("/dashboard/widget/tokens/" + sid + "/edit")
	mustContain(t, edit.Body, "This token is revoked.")
	if strings.Contains(edit.Body, `name="domains"`) {
		t.Error("a revoked token has an edit form")
	}
}

func TestWidgetPreviewRunsTheRealWidgetOnTheTokensBudget(t *testing.T) {
	t.Parallel()
	clock := &storetest.Clock{}
	h := newHarness(t, withClock(clock.Now))
	_, key, email, pw := h.tenant("Shop")
	b := h.browser()
	b.signIn(email, pw)
	_, id := b.createEmbedToken(url.Values{"domains": {"shop.example.com"}})
	sid := itoa(int(id))

	page := b.get("/dashboard/widget?preview=" + sid + "&lang=de&color=%23112233")
	mustContain(t, page.Body, `<iframe class="preview" src="/dashboard/widget/tokens/`+sid+`/preview?color=%23112233&amp;lang=de" title="`)

	p := b.get("/dashboard/widget/tokens/" + sid + "/preview?lang=de&color=%23112233")
	if p.Status != http.StatusOK {
		t.Fatalf("preview page: %d", p.Status)
	}
	if p.Header.Get("X-Frame-Options") != "SAMEORIGIN" || !strings.Contains(p.Header.Get("Content-Security-Policy"), "frame-ancestors 'self'") {
		t.Errorf("the preview may not be framed by the dashboard: %v", p.Header)
	}
	mustContain(t, p.Body, `<script src="/widget.js" data-svc-token="svc_prev_`, `data-svc-lang="de" data-svc-color="#112233" defer></script>`)
	m := previewTokenRE.FindStringSubmatch(p.Body)
	if m == nil {
		t.Fatal("no preview token")
	}
	prev := m[1]

	// From the dashboard's own origin the preview works like the token, with no CORS headers
	// (same origin), and its conversations count against the token.
	code, hdr, body := h.callWidget(http.MethodGet, "start", prev, h.srv.URL, "")
	if code != http.StatusOK || hdr.Get("Access-Control-Allow-Origin") != "" {
		t.Fatalf("preview start: %d %v %s", code, hdr, body)
	}
	if code, _, body := h.callWidget(http.MethodPost, "send", prev, h.srv.URL, `{"message":"Do you have a store in Istanbul?"}`); code != http.StatusOK {
		t.Fatalf("preview send: %d %s", code, body)
	}
	if n, _ := h.embedTokenUsage(key, id); n != 1 {
		t.Errorf("conversations today after the preview: %d", n)
	}

	// A changed MAC, account, token or expiry is refused.
	i := strings.LastIndexByte(prev, '.')
	flip := "A"
	if prev[len(prev)-1] == 'A' {
		flip = "B"
	}
	parts := strings.Split(strings.TrimPrefix(prev, "svc_prev_"), ".")
	for name, bad := range map[string]string{
		"mac":     prev[:len(prev)-1] + flip,
		"no mac":  prev[:i],
		"token":   "svc_prev_" + parts[0] + "." + parts[1] + "1." + parts[2] + "." + parts[3],
		"expiry":  "svc_prev_" + parts[0] + "." + parts[1] + "." + parts[2] + "9." + parts[3],
		"garbage": "svc_prev_x",
	} {
		if code, _, _ := h.callWidget(http.MethodGet, "start", bad, h.srv.URL, ""); code != http.StatusUnauthorized {
			t.Errorf("%s tampered: %d", name, code)
		}
	}
	// The preview is for the dashboard's origin only: not another site, not another port of
	// the same host, and a write must say where it comes from.
	u, _ := url.Parse(h.srv.URL)
	for _, origin := range []string{"https://shop.example.com", "https://evil.example", "http://" + u.Hostname() + ":1"} {
		if code, _, _ := h.callWidget(http.MethodGet, "start", prev, origin, ""); code != http.StatusForbidden {
			t.Errorf("preview from %s: %d", origin, code)
		}
	}
	if code, _, _ := h.callWidget(http.MethodPost, "send", prev, "", `{"message":"Hi"}`); code != http.StatusForbidden {
		t.Errorf("preview write without Origin: %d", code)
	}

	// An hour later the preview token has expired; the page issues a fresh one.
	clock.Advance(time.Hour + time.Minute)
	if code, _, _ := h.callWidget(http.MethodGet, "start", prev, h.srv.URL, ""); code != http.StatusUnauthorized {
		t.Errorf("expired preview: %d", code)
	}
	fresh := previewTokenRE.FindStringSubmatch(b.get("/dashboard/widget/tokens/" + sid + "/preview").Body)
	if fresh == nil {
		t.Fatal("no fresh preview token")
	}
	if code, _, _ := h.callWidget(http.MethodGet, "start", fresh[1], h.srv.URL, ""); code != http.StatusOK {
		t.Errorf("fresh preview: %d", code)
	}

	// Revoking the token stops its preview at once.
	if p := b.post("/dashboard/widget/tokens/"+sid+"/revoke", url.Values{}); p.Status != http.StatusSeeOther {
		t.Fatalf("revoke: %d", p.Status)
	}
	if code, _, _ := h.callWidget(http.MethodGet, "start", fresh[1], h.srv.URL, ""); code != http.StatusUnauthorized {
		t.Errorf("preview of a revoked token: %d", code)
	}
	p = b.get("/dashboard/widget/tokens/" + sid + "/preview")
	if strings.Contains(p.Body, "svc_prev_") {
		t.Error("a revoked token gets a preview token")
	}
	mustContain(t, p.Body, "This token is revoked")
}

func TestAgentsCannotOpenTheOwnerPages(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, _, email, pw := h.tenant("Shop")
	owner := h.browser()
	owner.signIn(email, pw)
	_, id := owner.createEmbedToken(url.Values{"domains": {"shop.example.com"}})
	sid := itoa(int(id))
	agentEmail, agentPW := h.user(a.ID, store.UserAgent)
	agent := h.browser()
	agent.signIn(agentEmail, agentPW)
	for _, path := range []string{"/dashboard/widget", "/dashboard/widget/tokens/" + sid + "/preview",
		"/dashboard/widget/tokens/" + sid + "/edit", "/dashboard/studio", "/dashboard/team"} {
		if p := agent.get(path); p.Status != http.StatusForbidden {
			t.Errorf("agent GET %s: %d", path, p.Status)
		}
	}
	for _, path := range []string{"/dashboard/widget/tokens", "/dashboard/widget/tokens/" + sid + "/revoke",
		"/dashboard/studio/marketing", "/dashboard/studio/intelligence", "/dashboard/team/users"} {
		if p := agent.post(path, url.Values{"domains": {"evil.example"}, "brief": {"x"}, "email": {"x@example.test"}}); p.Status != http.StatusForbidden {
			t.Errorf("agent POST %s: %d", path, p.Status)
		}
	}
	if p := owner.get("/dashboard/widget"); !strings.Contains(p.Body, `<span class="badge good">active</span>`) {
		t.Error("an agent changed a token")
	}
	// The navigation hides the owner pages from agents.
	nav := agent.get("/dashboard/")
	for _, href := range []string{`href="/dashboard/widget"`, `href="/dashboard/studio"`, `href="/dashboard/team"`} {
		if strings.Contains(nav.Body, href) {
			t.Errorf("agent navigation has %s", href)
		}
	}
}
