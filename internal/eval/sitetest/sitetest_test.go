package sitetest

import (
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

func get(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d", url, resp.StatusCode)
	}
	return string(b)
}

// The site serves every language's sections with the documentation furniture, resolves the
// Jekyll tags and glossary references, and its shop pages carry Product JSON-LD.
func TestServe(t *testing.T) {
	t.Parallel()
	site := Serve(t)
	kinds := map[string]map[string]int{}
	for _, p := range site.Pages {
		if kinds[p.Lang] == nil {
			kinds[p.Lang] = map[string]int{}
		}
		kinds[p.Lang][p.Kind]++
	}
	for _, lang := range Langs {
		k := kinds[lang]
		if k["guide"] < 20 || k["glossary"] < 40 || k["faq"] != 1 || k["product"] != len(products) || k["home"] != 1 {
			t.Errorf("%s: pages by kind %v", lang, k)
		}
	}

	guide := get(t, site.URL+"/en/resources/user-guides/howto_fix_stuck_funds.html")
	for _, want := range []string{`<html lang="en">`, "<h1>How to fix stuck funds</h1>", `aria-label="Breadcrumbs"`,
		`<a href="/en/resources/user-guides/">User guides</a>`, "Privacy policy", `href="` + site.URL + `/en/resources/user-guides/howto_fix_stuck_funds.html"`} {
		if !strings.Contains(guide, want) {
			t.Errorf("guide lacks %q", want)
		}
	}
	if strings.Contains(guide, "{%") || strings.Contains(guide, "{{") {
		t.Errorf("guide keeps Jekyll tags")
	}
	entry := get(t, site.URL+"/de/resources/moneropedia/account.html")
	if !strings.Contains(entry, `<html lang="de">`) || !strings.Contains(entry, `href="/de/resources/moneropedia/transaction.html">Transaktionen</a>`) {
		t.Errorf("German glossary entry: lang or @term link missing")
	}
	faq := get(t, site.URL+"/tr/get-started/faq/")
	if !strings.Contains(faq, "Anımsatıcı tohum nedir?") || !strings.Contains(faq, "<li><span aria-current=\"page\">SSS</span></li>") {
		t.Errorf("Turkish FAQ page lacks its questions or breadcrumbs")
	}

	prod := get(t, site.URL+"/tr/shop/kestrel-x2-pro.html")
	m := regexp.MustCompile(`(?s)<script type="application/ld\+json">(.*?)</script>`).FindStringSubmatch(prod)
	if m == nil {
		t.Fatal("product page without JSON-LD")
	}
	var ld struct {
		Type   string `json:"@type"`
		Name   string `json:"name"`
		Offers struct {
			Price, PriceCurrency, URL string
		} `json:"offers"`
	}
	if err := json.Unmarshal([]byte(m[1]), &ld); err != nil {
		t.Fatalf("JSON-LD: %v\n%s", err, m[1])
	}
	if ld.Type != "Product" || ld.Name != "Kestrel X2 Pro" || ld.Offers.Price != "18499.00" || ld.Offers.PriceCurrency != "TRY" ||
		ld.Offers.URL != site.URL+"/tr/shop/kestrel-x2-pro.html" {
		t.Errorf("JSON-LD %+v", ld)
	}
	if !strings.Contains(prod, "18.499,00 TL") {
		t.Errorf("Turkish price not shown as 18.499,00 TL")
	}
	sm := get(t, site.URL+"/sitemap.xml")
	if strings.Count(sm, "<loc>") != len(site.Pages) || !strings.Contains(get(t, site.URL+"/robots.txt"), "Sitemap: "+site.URL+"/sitemap.xml") {
		t.Errorf("sitemap or robots.txt incomplete")
	}
}

func TestShownPrice(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ price, lang, want string }{
		{"299.00", "en", "$299.00"}, {"1549.50", "en", "$1,549.50"}, {"279.00", "de", "279,00 €"},
		{"18499.00", "tr", "18.499,00 TL"}, {"649.00", "tr", "649,00 TL"},
	} {
		if got := shownPrice(c.price, c.lang); got != c.want {
			t.Errorf("shownPrice(%s, %s) = %q, want %q", c.price, c.lang, got, c.want)
		}
	}
}

func TestParseSource(t *testing.T) {
	t.Parallel()
	s := parseSource("x", "---\nsummary: 'it''s a test'\nterms: [\"a\", \"b\"]\nentry: \"P2Pool\"\n---\n\n{% include x.html %}\n# Body\n")
	if s.Summary != "it's a test" || len(s.Terms) != 2 || s.Entry != "P2Pool" || !strings.HasPrefix(s.Body, "\n{% include") {
		t.Errorf("parseSource: %+v", s)
	}
	md := linkTerms(expandLiquid("See @node and `@node` and a@b.c, [x]({{ site.baseurl }}/y)", "en"), "en", map[string]string{"node": "node"})
	want := "See [node](/en/resources/moneropedia/node.html) and `@node` and a@b.c, [x](/en/y)"
	if md != want {
		t.Errorf("linkTerms:\n got %q\nwant %q", md, want)
	}
}
