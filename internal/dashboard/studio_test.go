package dashboard_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"svc/internal/account"
	"svc/internal/kb"
)

func TestStudioMarketingWithAndWithoutJavaScript(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, _, email, pw := h.tenant("Yolcu Outdoor")
	b := h.browser()
	b.signIn(email, pw)

	p := b.get("/dashboard/studio")
	if p.Status != http.StatusOK {
		t.Fatalf("studio: %d", p.Status)
	}
	mustContain(t, p.Body, `action="/dashboard/studio/marketing"`, `hx-post="/dashboard/studio/marketing"`,
		`action="/dashboard/studio/intelligence"`, `<label for="m-brief">`, `<label for="i-op">`, `id="marketing-result"`, `id="intel-result"`)

	// Without JavaScript the page comes back whole, the result in it and the form filled in.
	brief := "Returns and delivery for hikers"
	p = b.post("/dashboard/studio/marketing", url.Values{"brief": {brief}, "variants": {"2"}, "depth": {"lean"}, "lang": {"en"}, "format": {"email"}})
	if p.Status != http.StatusOK {
		t.Fatalf("marketing: %d %s", p.Status, p.Body)
	}
	mustContain(t, p.Body, "<h1>Studio</h1>", "Headline", "Call to action", "Alternative headlines", "Tokens billed", brief+"</textarea>",
		`<option value="email" selected>`)
	if n := strings.Count(p.Body, "<ol><li>"); n != 1 {
		t.Errorf("variants list: %d", n)
	}

	// With htmx only the result block is swapped in.
	p = b.hxPost("/dashboard/studio/marketing", url.Values{"brief": {brief}, "depth": {"full"}})
	if p.Status != http.StatusOK || strings.Contains(p.Body, "<html") || !strings.HasPrefix(strings.TrimSpace(p.Body), `<div id="marketing-result"`) {
		t.Fatalf("htmx marketing: %d %s", p.Status, p.Body)
	}
	mustContain(t, p.Body, "Positioning", "Angles", "Objections", "Next experiment", `<th scope="col">`)

	p = b.hxPost("/dashboard/studio/marketing", url.Values{"brief": {brief}, "depth": {"strategy"}, "lang": {"de"}})
	if p.Status != http.StatusOK || strings.Count(p.Body, `class="strategy-section"`) != 12 {
		t.Fatalf("strategy: %d sections", strings.Count(p.Body, `class="strategy-section"`))
	}

	// The studio's own sentence for bad input, on the form; a rate limit says so.
	p = b.post("/dashboard/studio/marketing", url.Values{"brief": {"  "}, "product": {"Boots"}})
	if p.Status != http.StatusBadRequest {
		t.Fatalf("empty brief: %d", p.Status)
	}
	mustContain(t, p.Body, "The brief field is required", `value="Boots"`, `role="alert"`)
	p = b.hxPost("/dashboard/studio/marketing", url.Values{"brief": {brief}, "variants": {"9"}})
	mustContain(t, p.Body, "Choose 1 to 5 alternative headlines.")

	one := 1
	if _, err := h.accounts.Update(context.Background(), a.ID, account.Settings{MarketingRatePerMin: &one}); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if p = b.post("/dashboard/studio/marketing", url.Values{"brief": {brief}}); p.Status != http.StatusOK {
			break
		}
	}
	if p.Status != http.StatusTooManyRequests {
		t.Fatalf("rate limited: %d", p.Status)
	}
	mustContain(t, p.Body, "Too many requests. Try again in")
}

func TestStudioIntelligenceShowsEachShapeAndEscapesKBText(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, _, email, pw := h.tenant("Yolcu Outdoor")
	// A product whose crawled name carries markup: the page shows it as text.
	xss := `<img src=x onerror=alert(1)> Trail Boots`
	line := `{"type":"product","name":"<img src=x onerror=alert(1)> Trail Boots","url":"https://yolcu.example/boots","price":"99 EUR","category":"Shoes","description":"Waterproof hiking boots."}` + "\n"
	if _, err := kb.Import(context.Background(), h.st, a.ID, 0, strings.NewReader(line)); err != nil {
		t.Fatal(err)
	}
	b := h.browser()
	b.signIn(email, pw)

	p := b.post("/dashboard/studio/intelligence", url.Values{"op": {"data"}, "type": {"products"}, "format": {"table"}, "data_query": {"boots"}})
	if p.Status != http.StatusOK {
		t.Fatalf("data: %d %s", p.Status, p.Body)
	}
	if strings.Contains(p.Body, xss) || strings.Contains(p.Body, "<img src=x") {
		t.Fatal("KB text is not escaped")
	}
	mustContain(t, p.Body, "&lt;img src=x onerror=alert(1)&gt; Trail Boots", `<th scope="col">name</th>`, "Matching rows")

	p = b.hxPost("/dashboard/studio/intelligence", url.Values{"op": {"answer"}, "question": {"How long does delivery take?"}, "format": {"text"}, "lang": {"en"}})
	if p.Status != http.StatusOK || !strings.HasPrefix(strings.TrimSpace(p.Body), `<div id="intel-result"`) {
		t.Fatalf("answer: %d %s", p.Status, p.Body)
	}
	mustContain(t, p.Body, "Answer a question", "Grounded on your data", `class="prewrap result-text"`)

	p = b.hxPost("/dashboard/studio/intelligence", url.Values{"op": {"summarize"}, "topic": {"returns"}, "format": {"list"}})
	mustContain(t, p.Body, "<ul><li>")
	p = b.hxPost("/dashboard/studio/intelligence", url.Values{"op": {"extract"}, "topic": {"returns"}, "fields": {"return period, delivery time"}, "format": {"json"}})
	mustContain(t, p.Body, "<pre><code>")
	p = b.hxPost("/dashboard/studio/intelligence", url.Values{"op": {"compare"}, "items": {"Trail Boots\nHiking Backpack"}, "format": {"table"}})
	mustContain(t, p.Body, "<table")

	// Bad input: the studio's sentence; an op that does not exist: the catalog's.
	p = b.post("/dashboard/studio/intelligence", url.Values{"op": {"compare"}, "items": {"Only one"}, "question": {"kept"}})
	if p.Status != http.StatusBadRequest {
		t.Fatalf("one item: %d", p.Status)
	}
	mustContain(t, p.Body, "compare needs at least two items", "kept</textarea>")
	p = b.post("/dashboard/studio/intelligence", url.Values{"op": {"drop"}})
	if p.Status != http.StatusBadRequest {
		t.Fatalf("unknown op: %d", p.Status)
	}
	mustContain(t, p.Body, "Choose one of the operations offered.")
	p = b.post("/dashboard/studio/intelligence", url.Values{"op": {"data"}, "type": {"products"}, "limit": {"lots"}})
	mustContain(t, p.Body, "Page and rows per page must be whole numbers.")
}
