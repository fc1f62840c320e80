package crawl_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"svc/internal/crawl"
	"svc/internal/crawl/crawltest"
)

// expectations mirrors testdata/sites/expect.json, which states what a correct crawl of each
// test site stores and never stores.
type expectations struct {
	Helpcenter struct {
		MustNotFetch         []string `json:"must_not_fetch"`
		MustNotFetchPatterns []string `json:"must_not_fetch_patterns"`
		NeverIndexedText     []string `json:"never_indexed_text"`
		Articles             []struct {
			Path, Lang, Title string
			CategoryName      string `json:"category_name"`
			CategorySlug      string `json:"category_slug"`
		} `json:"articles"`
		Duplicates []struct{ Path, Canonical string } `json:"duplicates"`
		Redirects  []struct{ From, To string }        `json:"redirects"`
		Orphans    []string                           `json:"orphans"`
		PageLangs  []struct{ Path, Lang string }      `json:"page_langs"`
	} `json:"helpcenter"`
	Shop struct {
		Products []struct {
			Path, Lang, Name, Price, Category, Image, URL string
		} `json:"products"`
		NotProducts      []string `json:"not_products"`
		NotProductPages  []string `json:"not_product_pages"`
		NeverIndexedText []string `json:"never_indexed_text"`
	} `json:"shop"`
}

func loadExpectations(t *testing.T) expectations {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "sites", "expect.json"))
	if err != nil {
		t.Fatal(err)
	}
	var x expectations
	if err := json.Unmarshal(b, &x); err != nil {
		t.Fatal(err)
	}
	return x
}

func byURL(ds []doc) map[string][]doc {
	out := map[string][]doc{}
	for _, d := range ds {
		key := d.URL
		if d.URL == "" {
			key = d.SourceURL
		}
		out[key] = append(out[key], d)
	}
	return out
}

func TestHelpCenterSite(t *testing.T) {
	x := loadExpectations(t).Helpcenter
	site := crawltest.Serve(t, filepath.Join("testdata", "sites", "helpcenter"))
	e := newEnv(t, site.URL+"/")
	res := e.crawl(t, crawl.Options{})
	t.Logf("crawl: %+v", res)
	if !res.Complete || res.Errors != 0 {
		t.Errorf("crawl incomplete or failing: %+v", res)
	}
	ds := e.docs(t)
	urls := byURL(ds)
	hits := site.Hits()

	for _, p := range x.MustNotFetch {
		if hits[p] > 0 {
			t.Errorf("fetched %s, which robots.txt forbids", p)
		}
	}
	for uri := range hits {
		for _, pat := range x.MustNotFetchPatterns {
			if strings.Contains(uri, pat) {
				t.Errorf("fetched %s (pattern %s)", uri, pat)
			}
		}
	}
	text := allText(ds)
	for _, s := range x.NeverIndexedText {
		if strings.Contains(text, s) {
			t.Errorf("site chrome indexed: %q", s)
		}
	}
	for _, a := range x.Articles {
		got := ofType(urls[site.URL+a.Path], "article")
		if len(got) != 1 {
			t.Errorf("article %s: stored as %+v", a.Path, summary(got))
			continue
		}
		d := got[0]
		if d.Lang != a.Lang || d.CategorySlug != a.CategorySlug || d.CategoryName != a.CategoryName || d.Title != a.Title {
			t.Errorf("article %s:\n got lang=%s title=%q cat=%q/%q\nwant lang=%s title=%q cat=%q/%q", a.Path,
				d.Lang, d.Title, d.CategorySlug, d.CategoryName, a.Lang, a.Title, a.CategorySlug, a.CategoryName)
		}
	}
	if n := len(ofType(ds, "article")); n != len(x.Articles) {
		t.Errorf("%d articles stored, want exactly the %d help-centre articles", n, len(x.Articles))
	}
	dup := map[string]bool{}
	for _, d := range x.Duplicates {
		dup[d.Path] = true
	}
	for _, p := range x.PageLangs {
		if dup[p.Path] {
			continue // stored under its canonical URL
		}
		got := urls[site.URL+p.Path]
		if len(got) == 0 {
			continue // home and category pages are link lists, crawled but not stored
		}
		if got[0].Lang != p.Lang {
			t.Errorf("page %s: lang %s, want %s", p.Path, got[0].Lang, p.Lang)
		}
	}
	for _, d := range x.Duplicates {
		if len(urls[site.URL+d.Path]) > 0 || len(urls[site.URL+d.Canonical]) != 1 {
			t.Errorf("duplicate %s stored apart from its canonical %s", d.Path, d.Canonical)
		}
	}
	for _, r := range x.Redirects {
		if len(urls[site.URL+r.From]) > 0 || len(urls[site.URL+r.To]) != 1 {
			t.Errorf("redirect %s stored apart from its target %s", r.From, r.To)
		}
	}
	for _, p := range x.Orphans {
		if len(urls[site.URL+p]) != 1 {
			t.Errorf("sitemap-only page %s not stored", p)
		}
	}
}

func TestShopSite(t *testing.T) {
	x := loadExpectations(t).Shop
	site := crawltest.Serve(t, filepath.Join("testdata", "sites", "shop"))
	e := newEnv(t, site.URL+"/")
	res := e.crawl(t, crawl.Options{})
	t.Logf("crawl: %+v", res)
	ds := e.docs(t)
	base := func(s string) string { return strings.ReplaceAll(s, "{{BASE}}", site.URL) }

	if arts := ofType(ds, "article"); len(arts) != 0 {
		t.Errorf("a shop without documentation has articles: %+v", summary(arts))
	}
	products := map[string]doc{}
	for _, d := range ds {
		if d.Type == "product" {
			if _, dup := products[d.Name]; dup {
				t.Errorf("product %q stored twice", d.Name)
			}
			products[d.Name] = d
		}
	}
	found := 0
	for _, p := range x.Products {
		d, ok := products[p.Name]
		if !ok {
			t.Errorf("product %q (%s) not learned", p.Name, p.Path)
			continue
		}
		found++
		if d.Price != p.Price || d.Category != p.Category || d.Image != base(p.Image) || d.URL != base(p.URL) || d.Lang != p.Lang {
			t.Errorf("product %q:\n got price=%q cat=%q img=%q url=%q lang=%s\nwant price=%q cat=%q img=%q url=%q lang=%s",
				p.Name, d.Price, d.Category, d.Image, d.URL, d.Lang, p.Price, p.Category, base(p.Image), base(p.URL), p.Lang)
		}
		if !strings.Contains(d.Chunks, p.Name) || len(d.Chunks) < 200 {
			t.Errorf("product %q: page text not in the KB (%d chars)", p.Name, len(d.Chunks))
		}
	}
	for _, n := range x.NotProducts {
		if _, ok := products[n]; ok {
			t.Errorf("invented a product card: %q", n)
		}
	}
	if extra := len(products) - found; extra > 0 {
		for n := range products {
			t.Logf("stored product %q", n)
		}
		t.Errorf("%d products stored beyond the expected ones", extra)
	}
	text := allText(ds)
	for _, s := range x.NeverIndexedText {
		if strings.Contains(text, s) {
			t.Errorf("site chrome indexed: %q", s)
		}
	}
}

func summary(ds []doc) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Type+" "+d.Title)
	}
	return out
}

func ofType(ds []doc, typ string) []doc {
	var out []doc
	for _, d := range ds {
		if d.Type == typ {
			out = append(out, d)
		}
	}
	return out
}
