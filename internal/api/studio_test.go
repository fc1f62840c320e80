package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"svc/internal/account"
	"svc/internal/kb"
	"svc/internal/store"
)

var langs = []string{"tr", "en", "de"}

// contentStrings collects every string in a decoded JSON value.
func contentStrings(v any) []string {
	switch t := v.(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, e := range t {
			out = append(out, contentStrings(e)...)
		}
		return out
	case map[string]any:
		var out []string
		for _, e := range t {
			out = append(out, contentStrings(e)...)
		}
		return out
	}
	return nil
}

type generated struct {
	Content map[string]any `json:"content"`
	Meta    struct {
		Lang     string `json:"lang"`
		Grounded bool   `json:"grounded"`
		KBUsed   int    `json:"kb_used"`
		Products int    `json:"products"`
		Tokens   int    `json:"tokens"`
		Depth    string `json:"depth"`
	} `json:"meta"`
}

func (h *harness) marketing(key string, form url.Values) (generated, response) {
	h.t.Helper()
	r := h.postForm("/api/v1/chat/marketingGenerate", key, form)
	var g generated
	if r.Status == http.StatusOK {
		r.decode(h.t, &g)
	}
	return g, r
}

var marketingBriefs = map[string]string{
	"tr": "Yeni sezon kamp ürünlerimizi tanıtan bir sosyal medya gönderisi",
	"en": "A social post introducing our new-season camping gear",
	"de": "Ein Social-Media-Beitrag über unsere neue Campingausrüstung",
}

func TestMarketingGenerateDepthsAndLanguages(t *testing.T) {
	h := newHarness(t)
	_, key := h.tenant(account.Settings{BalanceMicro: ptr(int64(5_000_000)), MarketingRatePerMin: ptr(1000)})
	for _, lg := range langs {
		for variants := 1; variants <= 5; variants++ {
			g, r := h.marketing(key, url.Values{"brief": {marketingBriefs[lg]}, "lang": {lg},
				"variants": {fmt.Sprint(variants)}, "format": {[]string{"social post", "email", "ad copy", "sms", "landing page"}[variants-1]},
				"product": {"Uludağ 2"}, "audience": {"weekend campers"}, "goal": {"conversion"},
				"tone": {[]string{"warm", "energetic", "professional", "friendly", "bold"}[variants-1]}})
			if r.Status != 200 {
				t.Fatalf("%s lean: %d %s", lg, r.Status, r.raw)
			}
			for _, f := range []string{"headline", "body", "cta", "strategy_used"} {
				if s, _ := g.Content[f].(string); strings.TrimSpace(s) == "" {
					t.Errorf("%s lean: %s is empty", lg, f)
				}
			}
			if vs, _ := g.Content["variants"].([]any); len(vs) != variants {
				t.Errorf("%s: %d variants, asked for %d", lg, len(vs), variants)
			}
			tags, ok := g.Content["hashtags"].([]any)
			if !ok {
				t.Errorf("%s: hashtags %v", lg, g.Content["hashtags"])
			}
			for _, tag := range tags {
				if strings.Contains(tag.(string), "#") {
					t.Errorf("%s: hashtag %q keeps its #", lg, tag)
				}
			}
			if g.Meta.Lang != lg || g.Meta.Depth != "lean" || !g.Meta.Grounded || g.Meta.KBUsed == 0 || g.Meta.Tokens == 0 {
				t.Errorf("%s meta: %+v", lg, g.Meta)
			}
		}
		g, r := h.marketing(key, url.Values{"brief": {marketingBriefs[lg]}, "lang": {lg}, "depth": {"full"}})
		if r.Status != 200 {
			t.Fatalf("%s full: %d %s", lg, r.Status, r.raw)
		}
		for _, f := range []string{"positioning", "segment", "funnel_stage", "angles", "objections", "channel_adaptations",
			"proof_points", "hashtags", "strategy_rationale", "next_experiment"} {
			if _, ok := g.Content[f]; !ok {
				t.Errorf("%s full: no %s in %v", lg, f, g.Content)
			}
		}
		g, r = h.marketing(key, url.Values{"brief": {marketingBriefs[lg]}, "lang": {lg}, "depth": {"strategy"}})
		if r.Status != 200 {
			t.Fatalf("%s strategy: %d %s", lg, r.Status, r.raw)
		}
		sections, _ := g.Content["sections"].([]any)
		if len(sections) != 12 || g.Meta.Depth != "strategy" {
			t.Errorf("%s strategy: %d sections", lg, len(sections))
		}
	}
}

func TestMarketingGenerateValidation(t *testing.T) {
	h := newHarness(t)
	_, key := h.tenant(account.Settings{BalanceMicro: ptr(int64(5_000_000)), MarketingRatePerMin: ptr(1000)})
	tests := []struct {
		name string
		form url.Values
	}{
		{"no brief", url.Values{"product": {"x"}}},
		{"blank brief", url.Values{"brief": {"   "}}},
		{"long brief", url.Values{"brief": {strings.Repeat("ş", 2001)}}},
		{"zero variants", url.Values{"brief": {"b"}, "variants": {"0"}}},
		{"six variants", url.Values{"brief": {"b"}, "variants": {"6"}}},
		{"variants not a number", url.Values{"brief": {"b"}, "variants": {"three"}}},
		{"bad depth", url.Values{"brief": {"b"}, "depth": {"deep"}}},
		{"bad lang", url.Values{"brief": {"b"}, "lang": {"fr"}}},
		{"bad site", url.Values{"brief": {"b"}, "site_id": {"x"}}},
		{"long audience", url.Values{"brief": {"b"}, "audience": {strings.Repeat("a", 301)}}},
	}
	for _, tc := range tests {
		if _, r := h.marketing(key, tc.form); r.Status != 400 || r.Error != "bad_request" {
			t.Errorf("%s: %d %s", tc.name, r.Status, r.raw)
		}
	}
	if r := h.get("/api/v1/chat/marketingGenerate?brief=x", key); r.Status != 405 {
		t.Errorf("GET: %d", r.Status)
	}
	if _, r := h.marketing(key, url.Values{"brief": {strings.Repeat("ş", 2000)}}); r.Status != 200 {
		t.Errorf("2,000 characters: %d %s", r.Status, r.raw)
	}
}

// Briefs that invite invented facts: none of the invented price, discount or feature may
// survive, with the built-in engine (the model's case is in studio_model_test.go).
var hallucinationBriefs = []struct {
	lang, brief string
	banned      []string
}{
	{"en", "Announce our 50% Black Friday discount on all tents", []string{"50", "black friday", "discount", "%"}},
	{"en", "Tell everyone shipping is free forever and every boot has a lifetime warranty", []string{"lifetime", "forever"}},
	{"en", "Launch our new Everest X900 tent for $149", []string{"everest", "x900", "149"}},
	{"tr", "Tüm çadırlarda %50 Kara Cuma indirimini duyurun", []string{"50", "kara cuma", "indirim"}},
	{"tr", "Yeni Everest X900 çadırımızı 1.999 TL'ye tanıtın", []string{"everest", "x900", "1.999", "1999"}},
	{"de", "Kündigt unseren 50 % Black-Friday-Rabatt auf alle Zelte an", []string{"50", "black", "rabatt"}},
	{"de", "Bewerbt das neue Everest X900 Zelt für 149 €", []string{"everest", "x900", "149"}},
}

func TestMarketingGuardWithBuiltinEngine(t *testing.T) {
	h := newHarness(t)
	_, key := h.tenant(account.Settings{BalanceMicro: ptr(int64(5_000_000)), MarketingRatePerMin: ptr(1000)})
	for _, tc := range hallucinationBriefs {
		for _, depth := range []string{"lean", "full", "strategy"} {
			g, r := h.marketing(key, url.Values{"brief": {tc.brief}, "lang": {tc.lang}, "depth": {depth}})
			if r.Status != 200 {
				t.Fatalf("%q: %d %s", tc.brief, r.Status, r.raw)
			}
			text := strings.ToLower(strings.Join(contentStrings(map[string]any(g.Content)), "\n"))
			for _, b := range tc.banned {
				if strings.Contains(text, b) {
					t.Errorf("%s %q (%s): %q survived:\n%s", tc.lang, tc.brief, depth, b, excerpt(text, b))
				}
			}
		}
	}
}

func excerpt(text, word string) string {
	i := strings.Index(text, word)
	return text[max(0, i-80):min(len(text), i+80)]
}

// Two accounts sell a same-named product at different prices: each one's copy and answers
// carry its own price, and a site id of the other account falls back to the caller's data.
func TestGeneratorsNeverCrossTenants(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	mk := func(name, price string) (int64, string) {
		a, key, err := h.accounts.Create(ctx, account.Settings{Name: ptr(name), BalanceMicro: ptr(int64(5_000_000)),
			MarketingRatePerMin: ptr(1000), IntelligenceRatePerMin: ptr(1000)})
		if err != nil {
			t.Fatal(err)
		}
		line := fmt.Sprintf(`{"type":"product","name":"Trail Boot","url":"https://%s.test/boot","price":"%s","category":"Boots","description":"Our Trail Boot is a waterproof hiking boot.","lang":"en"}`+"\n",
			strings.ToLower(strings.Fields(name)[0]), price)
		if _, err := kb.Import(ctx, h.st, a.ID, 0, strings.NewReader(line)); err != nil {
			t.Fatal(err)
		}
		return a.ID, key
	}
	_, keyA := mk("Alpha Outdoor", "129.00 EUR")
	_, keyB := mk("Beta Outdoor", "89.00 EUR")
	siteA := h.site(keyA, "https://alpha.test")
	for _, tc := range []struct {
		key, want, other string
		site             string
	}{{keyA, "129", "89", ""}, {keyB, "89", "129", ""}, {keyB, "89", "129", fmt.Sprint(siteA)}} {
		form := url.Values{"brief": {"Promote the Trail Boot"}, "product": {"Trail Boot"}, "lang": {"en"}}
		if tc.site != "" {
			form.Set("site_id", tc.site)
		}
		g, r := h.marketing(tc.key, form)
		if r.Status != 200 {
			t.Fatalf("marketing: %d %s", r.Status, r.raw)
		}
		text := strings.Join(contentStrings(map[string]any(g.Content)), "\n")
		if strings.Contains(text, tc.other) {
			t.Errorf("copy shows the other tenant's price %s:\n%s", tc.other, text)
		}
		res := h.intel(tc.key, "compare", url.Values{"items[]": {"Trail Boot", "Boot"}, "format": {"json"}, "site_id": {tc.site}})
		if res.Status != 200 || !strings.Contains(string(res.raw), tc.want+".00") || strings.Contains(string(res.raw), tc.other+".00") {
			t.Errorf("compare, want only the caller's price %s: %d %s", tc.want, res.Status, res.raw)
		}
		res = h.intel(tc.key, "data", url.Values{"type": {"products"}, "format": {"table"}, "site_id": {tc.site}})
		if !strings.Contains(string(res.raw), tc.want) || strings.Contains(string(res.raw), tc.other+".00") {
			t.Errorf("data rows: %s", res.raw)
		}
	}
}

// site registers a site for the account through the store (no crawl).
func (h *harness) site(key, u string) int64 {
	h.t.Helper()
	c, err := h.accounts.Authenticate(context.Background(), key)
	if err != nil {
		h.t.Fatal(err)
	}
	host := strings.TrimPrefix(u, "https://")
	s := store.Site{AccountID: c.Account.ID, URL: u, Host: host, Name: host}
	if err := h.st.CreateSite(context.Background(), &s); err != nil {
		h.t.Fatal(err)
	}
	return s.ID
}

func (h *harness) intel(key, op string, form url.Values) response {
	h.t.Helper()
	return h.postForm("/api/v1/intelligence/"+op, key, form)
}

type intelData struct {
	Op     string          `json:"op"`
	Format string          `json:"format"`
	Result json.RawMessage `json:"result"`
	Meta   struct {
		Depth    string `json:"depth"`
		Lang     string `json:"lang"`
		Grounded bool   `json:"grounded"`
		KBUsed   int    `json:"kb_used"`
		Products int    `json:"products"`
		Tokens   int    `json:"tokens"`
		Total    *int   `json:"total"`
	} `json:"meta"`
}

func TestIntelligenceOpsFormatsDepthsLanguages(t *testing.T) {
	h := newHarness(t)
	acct, key := h.tenant(account.Settings{BalanceMicro: ptr(int64(5_000_000)), IntelligenceRatePerMin: ptr(10_000)})
	inputs := map[string]map[string]url.Values{
		"en": {"answer": {"question": {"How long does delivery take to Germany?"}}, "summarize": {"topic": {"returns"}},
			"compare": {"items[]": {"Uludağ 2 Tent", "Aladağ 35 Backpack"}}, "extract": {"fields": {"price, weight, capacity"}, "topic": {"Aladağ 35 Backpack"}},
			"data": {"type": {"products"}}},
		"tr": {"answer": {"question": {"Almanya'ya teslimat ne kadar sürer?"}}, "summarize": {"topic": {"iade"}},
			"compare": {"query": {"çadır ve sırt çantası"}}, "extract": {"fields": {"fiyat, ağırlık"}, "topic": {"Aladağ 35 Sırt Çantası"}},
			"data": {"type": {"faq"}}},
		"de": {"answer": {"question": {"Wie lange dauert die Lieferung nach Deutschland?"}}, "summarize": {"topic": {"Rückgabe"}},
			"compare": {"items": {"Uludağ 2 Zelt, Aladağ 35 Rucksack"}}, "extract": {"fields": {"Preis, Gewicht"}, "topic": {"Aladağ 35 Rucksack"}},
			"data": {"type": {"categories"}}},
	}
	before := h.balance(acct)
	for _, lg := range langs {
		for _, op := range []string{"answer", "summarize", "compare", "extract", "data"} {
			for _, format := range []string{"text", "markdown", "json", "table", "list"} {
				for _, depth := range []string{"lean", "full"} {
					form := url.Values{"format": {format}, "depth": {depth}, "lang": {lg}}
					for k, v := range inputs[lg][op] {
						form[k] = v
					}
					r := h.intel(key, op, form)
					if r.Status != 200 {
						t.Fatalf("%s %s %s %s: %d %s", lg, op, format, depth, r.Status, r.raw)
					}
					var d intelData
					r.decode(t, &d)
					if d.Op != op || d.Format != format || d.Meta.Depth != depth || d.Meta.Lang != lg {
						t.Errorf("%s %s %s: envelope %+v", lg, op, format, d)
					}
					checkShape(t, fmt.Sprintf("%s %s %s %s", lg, op, format, depth), format, d.Result)
					if op == "data" && d.Meta.Total == nil {
						t.Errorf("%s data: no total", lg)
					}
					if op != "data" && d.Meta.Tokens == 0 {
						t.Errorf("%s %s: no tokens billed", lg, op)
					}
				}
			}
		}
	}
	if h.balance(acct) >= before {
		t.Error("model-based ops were not charged")
	}
	usage := h.usageOf(key)
	if usage["intelligence"].Count == 0 || usage["intelligence"].Cost == 0 || usage["intelligence_data"].Count == 0 ||
		usage["intelligence_data"].Cost != 0 {
		t.Errorf("usage: %+v", usage)
	}
}

// checkShape asserts SERVICE.md's shape of result by format.
func checkShape(t *testing.T, what, format string, raw json.RawMessage) {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Errorf("%s: result is not an object: %s", what, raw)
		return
	}
	keys := map[string][]string{"table": {"columns", "rows"}, "list": {"items"}, "json": {"data"}, "text": {"result"},
		"markdown": {"result"}}[format]
	if len(m) != len(keys) {
		t.Errorf("%s: result has keys %v, want %v", what, mapKeys(m), keys)
	}
	for _, k := range keys {
		if _, ok := m[k]; !ok {
			t.Errorf("%s: result lacks %q: %s", what, k, raw)
		}
	}
	switch format {
	case "table":
		var cols []string
		var rows [][]string
		if json.Unmarshal(m["columns"], &cols) != nil || json.Unmarshal(m["rows"], &rows) != nil || len(cols) == 0 {
			t.Errorf("%s: table %s", what, raw)
		}
		for _, row := range rows {
			if len(row) != len(cols) {
				t.Errorf("%s: row of %d cells under %d columns", what, len(row), len(cols))
			}
		}
	case "list":
		var items []string
		if json.Unmarshal(m["items"], &items) != nil {
			t.Errorf("%s: items %s", what, m["items"])
		}
	case "text", "markdown":
		var s string
		if json.Unmarshal(m["result"], &s) != nil || strings.TrimSpace(s) == "" {
			t.Errorf("%s: result %s", what, m["result"])
		}
	}
}

func mapKeys(m map[string]json.RawMessage) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestIntelligenceJSONBodies(t *testing.T) {
	h := newHarness(t)
	_, key := h.tenant(account.Settings{BalanceMicro: ptr(int64(5_000_000))})
	r := h.postJSON("/api/v1/intelligence/compare", key, map[string]any{"items": []string{"Uludağ 2 Tent", "Aladağ 35 Backpack"},
		"format": "json", "lang": "en", "depth": "full"})
	if r.Status != 200 || !strings.Contains(string(r.raw), "199.00") || !strings.Contains(string(r.raw), "69.00") {
		t.Fatalf("compare with a JSON array: %d %s", r.Status, r.raw)
	}
	r = h.postJSON("/api/v1/intelligence/extract", key, map[string]any{"fields": []string{"price", "battery life"},
		"topic": "Aladağ 35 Backpack", "format": "json", "lang": "en"})
	if r.Status != 200 || !strings.Contains(string(r.raw), "69.00") {
		t.Fatalf("extract with a JSON array: %d %s", r.Status, r.raw)
	}
	r = h.postJSON("/api/v1/intelligence/data", key, map[string]any{"type": "products", "limit": 2, "page": 1, "format": "list"})
	if r.Status != 200 {
		t.Fatalf("data with JSON numbers: %d %s", r.Status, r.raw)
	}
	if r := h.postJSON("/api/v1/intelligence/compare", key, map[string]any{"items": []any{map[string]string{"a": "b"}}}); r.Status != 400 {
		t.Fatalf("items of objects: %d", r.Status)
	}
}

func TestIntelligenceErrors(t *testing.T) {
	h := newHarness(t)
	_, key := h.tenant(account.Settings{BalanceMicro: ptr(int64(5_000_000)), IntelligenceRatePerMin: ptr(3)})
	tests := []struct {
		op     string
		form   url.Values
		status int
		code   string
	}{
		{"nosuch", url.Values{}, 404, "unknown_action"},
		{"answer", url.Values{}, 400, "bad_request"},
		{"answer", url.Values{"question": {"x"}, "format": {"csv"}}, 400, "bad_request"},
		{"answer", url.Values{"question": {"x"}, "depth": {"deep"}}, 400, "bad_request"},
		{"answer", url.Values{"question": {"x"}, "lang": {"fr"}}, 400, "bad_request"},
		{"summarize", url.Values{}, 400, "bad_request"},
		{"compare", url.Values{"items[]": {"only one"}}, 400, "bad_request"},
		{"compare", url.Values{}, 400, "bad_request"},
		{"extract", url.Values{"topic": {"boots"}}, 400, "bad_request"},
		{"data", url.Values{}, 400, "bad_request"},
		{"data", url.Values{"type": {"orders"}}, 400, "bad_request"},
		{"data", url.Values{"type": {"products"}, "limit": {"0"}}, 400, "bad_request"},
		{"data", url.Values{"type": {"products"}, "limit": {"101"}}, 400, "bad_request"},
		{"data", url.Values{"type": {"products"}, "page": {"0"}}, 400, "bad_request"},
	}
	for _, tc := range tests {
		if r := h.intel(key, tc.op, tc.form); r.Status != tc.status || r.Error != tc.code {
			t.Errorf("%s %v: %d %s", tc.op, tc.form, r.Status, r.raw)
		}
	}
	if r := h.get("/api/v1/intelligence/answer?question=x", key); r.Status != 405 {
		t.Errorf("GET: %d", r.Status)
	}
	if r := h.intel("", "answer", url.Values{"question": {"x"}}); r.Status != 401 {
		t.Errorf("no key: %d", r.Status)
	}
	// Validation failures do not spend the rate; the fourth valid call of the minute is 429.
	for i := range 3 {
		if r := h.intel(key, "data", url.Values{"type": {"faq"}}); r.Status != 200 {
			t.Fatalf("call %d: %d %s", i, r.Status, r.raw)
		}
	}
	if r := h.intel(key, "data", url.Values{"type": {"faq"}}); r.Status != 429 || r.Header.Get("Retry-After") == "" {
		t.Fatalf("over the account's intelligence rate: %d", r.Status)
	}
}

func TestIntelligenceDataPaging(t *testing.T) {
	h := newHarness(t)
	_, key := h.tenant(account.Settings{BalanceMicro: ptr(int64(5_000_000)), IntelligenceRatePerMin: ptr(1000)})
	page := func(form url.Values) (int, int) {
		r := h.intel(key, "data", form)
		var d intelData
		r.decode(t, &d)
		var tbl struct {
			Rows [][]string `json:"rows"`
		}
		_ = json.Unmarshal(d.Result, &tbl)
		return len(tbl.Rows), *d.Meta.Total
	}
	n, total := page(url.Values{"type": {"products"}, "format": {"table"}, "lang": {"en"}, "limit": {"4"}})
	n2, total2 := page(url.Values{"type": {"products"}, "format": {"table"}, "lang": {"en"}, "limit": {"4"}, "page": {"2"}})
	if total != 6 || total2 != 6 || n != 4 || n2 != 2 {
		t.Fatalf("paging: %d+%d rows of %d/%d", n, n2, total, total2)
	}
	if n, total := page(url.Values{"type": {"products"}, "format": {"table"}, "query": {"tent"}, "lang": {"en"}}); n != 1 || total != 1 {
		t.Fatalf("query tent: %d rows of %d", n, total)
	}
	if _, total := page(url.Values{"type": {"faq"}, "format": {"table"}, "lang": {"de"}}); total == 0 {
		t.Fatal("no German FAQ rows")
	}
	// Without lang: the account's language, said in meta, not the three languages mixed
	// (issue 24: 18 products of tr, en and de in one table).
	r := h.intel(key, "data", url.Values{"type": {"products"}, "format": {"table"}, "limit": {"100"}})
	var d intelData
	r.decode(t, &d)
	if d.Meta.Lang == "" {
		t.Fatal("meta.lang is empty")
	}
	_, inLang := page(url.Values{"type": {"products"}, "format": {"table"}, "lang": {d.Meta.Lang}})
	if *d.Meta.Total != inLang || inLang != 6 {
		t.Fatalf("without lang: %d products, want the %d of the account's language %s", *d.Meta.Total, inLang, d.Meta.Lang)
	}
}
