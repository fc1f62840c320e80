package storetest

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"svc/internal/store"
)

var catalogTests = []suiteTest{
	{"SiteScopedSearch", testSiteScopedSearch},
	{"SiteScopedProducts", testSiteScopedProducts},
	{"CatalogProductsPaging", testCatalogProductsPaging},
	{"CatalogProductFilters", testCatalogProductFilters},
	{"CatalogCategoryTurkish", testCatalogCategoryTurkish},
	{"CatalogTerms", testCatalogTerms},
	{"CatalogFAQ", testCatalogFAQ},
	{"CatalogCategories", testCatalogCategories},
	{"CatalogTenantIsolation", testCatalogTenantIsolation},
	{"ChargeUsageWithoutReservation", testChargeUsageWithoutReservation},
	{"ChargeUsageWithReservation", testChargeUsageWithReservation},
}

// product is an imported product document of a site (0 = none) with one chunk whose terms
// are the name's words plus terms.
func product(siteID int64, url, name, category, lang, body, terms string) store.Document {
	t := strings.ToLower(name) + " " + terms
	return store.Document{Type: store.DocProduct, SiteID: siteID, URL: url, Title: name, Body: body, Lang: lang,
		Hash:    fmt.Sprintf("%s|%s|%s|%s", url, name, category, body),
		Product: &store.Product{Name: name, URL: url, Price: "10 €", Category: category},
		Chunks:  []store.Chunk{{Heading: name, Text: name + "\n" + body, Terms: strings.TrimSpace(t)}}}
}

// faq is an imported curated Q&A entry as kb.Build makes one: the question as the title,
// the answer as the body, one chunk of both.
func faq(siteID int64, question, answer, lang, terms string) store.Document {
	return store.Document{Type: store.DocQA, SiteID: siteID, Title: question, Body: answer, Lang: lang,
		Hash:   question + "|" + answer,
		Chunks: []store.Chunk{{Heading: question, Text: question + "\n" + answer, Terms: terms}}}
}

// article is an imported help-centre article of a site in a category.
func article(siteID int64, slug, lang, catSlug, catName string) store.Document {
	return store.Document{Type: store.DocArticle, SiteID: siteID, Title: slug, Body: "Text of " + slug, Lang: lang, Hash: slug,
		Article: &store.ArticleMeta{Slug: slug, CategorySlug: catSlug, CategoryName: catName},
		Chunks:  []store.Chunk{{Text: "Text of " + slug, Terms: "text " + slug}}}
}

func importDocs(t *testing.T, s store.Store, accountID int64, docs ...store.Document) []store.Document {
	t.Helper()
	if _, err := s.ImportDocuments(ctx(), accountID, docs); err != nil {
		t.Fatalf("import: %v", err)
	}
	return docs
}

// siteFixture is an account with two sites and documents of no site, and another account
// with a site of its own; every store holds the same kinds of documents, all matching "tent".
type siteFixture struct {
	a, b         store.Account
	siteA, siteB store.Site
	siteC        store.Site // b's
	owner        map[int64]string
}

func newSiteFixture(t *testing.T, s store.Store) siteFixture {
	t.Helper()
	f := siteFixture{owner: map[int64]string{}}
	f.a, _ = NewAccount(t, s, "Sited", 0)
	f.b, _ = NewAccount(t, s, "Neighbour", 0)
	f.siteA, f.siteB = newSite(t, s, f.a.ID, "https://a.test/"), newSite(t, s, f.a.ID, "https://b.test/")
	f.siteC = newSite(t, s, f.b.ID, "https://c.test/")
	for _, set := range []struct {
		owner   string
		account int64
		site    int64
		host    string
	}{
		{"A", f.a.ID, f.siteA.ID, "a.test"},
		{"B", f.a.ID, f.siteB.ID, "b.test"},
		{"none", f.a.ID, 0, "shop.test"},
		{"other", f.b.ID, f.siteC.ID, "c.test"},
	} {
		docs := importDocs(t, s, set.account,
			product(set.site, "https://"+set.host+"/p/tent", "Tent "+set.owner, "Tents", "en", "A tent.", "tent"),
			product(set.site, "https://"+set.host+"/p/zelt", "Zelt "+set.owner, "Zelte", "de", "Ein Zelt.", "zelt tent"),
			store.Document{Type: store.DocPage, SiteID: set.site, URL: "https://" + set.host + "/tents", Title: "Tents",
				Body: "About tents.", Lang: "en", Hash: set.host, Chunks: []store.Chunk{{Text: "About tents.", Terms: "tent"}}},
			faq(set.site, "Is the tent waterproof? ("+set.owner+")", "Yes.", "en", "tent waterproof"),
		)
		for _, d := range docs {
			f.owner[d.ID] = set.owner
		}
	}
	return f
}

// owners lists the owners of hits' documents, sorted and each once.
func (f siteFixture) owners(hits []store.ChunkHit) []string {
	var out []string
	for _, h := range hits {
		if o := f.owner[h.DocID]; !slices.Contains(out, o) {
			out = append(out, o)
		}
	}
	slices.Sort(out)
	return out
}

func testSiteScopedSearch(t *testing.T, s store.Store) {
	f := newSiteFixture(t, s)
	tent := []store.SearchTerm{{Text: "tent"}}
	for _, tc := range []struct {
		name    string
		account int64
		site    int64
		types   []string
		want    []string
		hits    int
	}{
		{"site A", f.a.ID, f.siteA.ID, nil, []string{"A"}, 4},
		{"site B", f.a.ID, f.siteB.ID, nil, []string{"B"}, 4},
		{"whole account", f.a.ID, 0, nil, []string{"A", "B", "none"}, 12},
		{"site A products", f.a.ID, f.siteA.ID, []string{store.DocProduct}, []string{"A"}, 2},
		{"site A for another account", f.b.ID, f.siteA.ID, nil, nil, 0},
		{"another account's site", f.a.ID, f.siteC.ID, nil, nil, 0},
		{"a site that does not exist", f.a.ID, f.siteC.ID + 100, nil, nil, 0},
		{"the other account", f.b.ID, f.siteC.ID, nil, []string{"other"}, 4},
	} {
		hits, err := s.SearchChunks(ctx(), tc.account, store.SearchQuery{Terms: tent, Types: tc.types, Limit: 50, SiteID: tc.site})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := f.owners(hits); len(hits) != tc.hits || !slices.Equal(got, tc.want) {
			t.Errorf("%s: %d hits of %v, want %d of %v", tc.name, len(hits), got, tc.hits, tc.want)
		}
	}
	// The limit applies after the site filter: site A's chunks are found even when the
	// account's other chunks rank as well.
	hits, _ := s.SearchChunks(ctx(), f.a.ID, store.SearchQuery{Terms: tent, Limit: 2, SiteID: f.siteB.ID})
	if got := f.owners(hits); len(hits) != 2 || !slices.Equal(got, []string{"B"}) {
		t.Errorf("limited site search: %d hits of %v", len(hits), got)
	}
}

func testSiteScopedProducts(t *testing.T, s store.Store) {
	f := newSiteFixture(t, s)
	for _, tc := range []struct {
		name    string
		account int64
		q       store.ProductQuery
		want    []string
		n       int
	}{
		{"site A", f.a.ID, store.ProductQuery{SiteID: f.siteA.ID}, []string{"A"}, 2},
		{"site A in en", f.a.ID, store.ProductQuery{SiteID: f.siteA.ID, Lang: "en"}, []string{"A"}, 1},
		{"site B in de", f.a.ID, store.ProductQuery{SiteID: f.siteB.ID, Lang: "de"}, []string{"B"}, 1},
		{"whole account", f.a.ID, store.ProductQuery{}, []string{"A", "B", "none"}, 6},
		{"site A for another account", f.b.ID, store.ProductQuery{SiteID: f.siteA.ID}, nil, 0},
		{"another account's site", f.a.ID, store.ProductQuery{SiteID: f.siteC.ID}, nil, 0},
	} {
		hits, err := s.Products(ctx(), tc.account, tc.q)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := f.owners(hits); len(hits) != tc.n || !slices.Equal(got, tc.want) {
			t.Errorf("%s: %d products of %v, want %d of %v", tc.name, len(hits), got, tc.n, tc.want)
		}
	}
	// By document id, the site still applies.
	var ids []int64
	for id := range f.owner {
		ids = append(ids, id)
	}
	hits, _ := s.Products(ctx(), f.a.ID, store.ProductQuery{DocIDs: ids, SiteID: f.siteB.ID})
	if got := f.owners(hits); len(hits) != 2 || !slices.Equal(got, []string{"B"}) {
		t.Errorf("by id on site B: %d products of %v", len(hits), got)
	}
}

// productNames lists the names of a catalog page.
func productNames(ps []store.CatalogProduct) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Name
	}
	return out
}

func catalogProducts(t *testing.T, s store.Store, accountID int64, q store.CatalogQuery) ([]store.CatalogProduct, int) {
	t.Helper()
	ps, total, err := s.CatalogProducts(ctx(), accountID, q)
	if err != nil {
		t.Fatalf("catalog products %+v: %v", q, err)
	}
	return ps, total
}

func testCatalogProductsPaging(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Pager", 0)
	long := strings.Repeat("Sturdy waterproof fabric ", 40) // 1,000 characters
	docs := importDocs(t, s, a.ID,
		product(0, "https://shop.test/p/d", "Delta Pack", "Bags", "en", long, "pack"),
		product(0, "https://shop.test/p/b", "Bravo Boot", "Shoes", "en", "Leather.", "boot"),
		product(0, "https://shop.test/p/e", "Echo Tent", "Tents", "en", "Light.", "tent"),
		product(0, "https://shop.test/p/a", "Alpha Boot", "Shoes", "en", "Suede.", "boot"),
		product(0, "https://shop.test/p/c", "Charlie Cap", "Hats", "en", "Wool.", "cap"),
		product(0, "https://shop.test/p/b2", "Bravo Boot", "Shoes", "en", "The other one.", "boot"),
	)
	// Pages and Q&A entries are no products.
	importDocs(t, s, a.ID, page("https://shop.test/about", "x", "about"), faq(0, "Boots?", "Yes.", "en", "boot"))

	all, total := catalogProducts(t, s, a.ID, store.CatalogQuery{})
	want := []string{"Alpha Boot", "Bravo Boot", "Bravo Boot", "Charlie Cap", "Delta Pack", "Echo Tent"}
	if total != 6 || !slices.Equal(productNames(all), want) {
		t.Fatalf("all: %d %v", total, productNames(all))
	}
	if all[1].DocID != docs[1].ID || all[2].DocID != docs[5].ID {
		t.Fatalf("equal names not in id order: %d %d", all[1].DocID, all[2].DocID)
	}
	boot := all[0]
	if boot.DocID != docs[3].ID || boot.URL != "https://shop.test/p/a" || boot.Price != "10 €" || boot.Category != "Shoes" ||
		boot.Description != "Suede." || boot.Lang != "en" {
		t.Fatalf("product row: %+v", boot)
	}
	// The description is the document's text, clipped at a word boundary to 500 characters.
	d := all[4].Description
	kept, clipped := strings.CutSuffix(d, "…")
	if n := utf8.RuneCountInString(d); n > 500 || n < 400 || !clipped || !strings.HasPrefix(long, kept) ||
		long[len(kept)] != ' ' {
		t.Fatalf("clipped description (%d characters): %q", utf8.RuneCountInString(d), d)
	}

	for _, tc := range []struct {
		offset, limit int
		want          []string
	}{
		{0, 2, want[:2]},
		{2, 2, want[2:4]},
		{4, 2, want[4:]},
		{5, 10, want[5:]},
		{6, 2, nil},
		{60, 2, nil},
	} {
		got, total := catalogProducts(t, s, a.ID, store.CatalogQuery{Offset: tc.offset, Limit: tc.limit})
		if total != 6 || !slices.Equal(productNames(got), tc.want) {
			t.Errorf("offset %d limit %d: total %d, %v; want %v", tc.offset, tc.limit, total, productNames(got), tc.want)
		}
		if got == nil {
			t.Errorf("offset %d limit %d: a nil page", tc.offset, tc.limit)
		}
	}
}

func testCatalogProductFilters(t *testing.T, s store.Store) {
	f := newSiteFixture(t, s)
	for _, tc := range []struct {
		name    string
		account int64
		q       store.CatalogQuery
		want    []string
	}{
		{"whole account", f.a.ID, store.CatalogQuery{}, []string{"Tent A", "Tent B", "Tent none", "Zelt A", "Zelt B", "Zelt none"}},
		{"site A", f.a.ID, store.CatalogQuery{SiteID: f.siteA.ID}, []string{"Tent A", "Zelt A"}},
		{"site B in de", f.a.ID, store.CatalogQuery{SiteID: f.siteB.ID, Lang: "de"}, []string{"Zelt B"}},
		{"in en", f.a.ID, store.CatalogQuery{Lang: "en"}, []string{"Tent A", "Tent B", "Tent none"}},
		{"category, another case", f.a.ID, store.CatalogQuery{Category: "zELTE"}, []string{"Zelt A", "Zelt B", "Zelt none"}},
		{"category is exact, not a prefix", f.a.ID, store.CatalogQuery{Category: "Tent"}, nil},
		{"category and site", f.a.ID, store.CatalogQuery{Category: "tents", SiteID: f.siteB.ID}, []string{"Tent B"}},
		{"another account's site", f.a.ID, store.CatalogQuery{SiteID: f.siteC.ID}, nil},
		{"the other account", f.b.ID, store.CatalogQuery{}, []string{"Tent other", "Zelt other"}},
	} {
		got, total := catalogProducts(t, s, tc.account, tc.q)
		if total != len(tc.want) || !slices.Equal(productNames(got), tc.want) {
			t.Errorf("%s: total %d, %v; want %v", tc.name, total, productNames(got), tc.want)
		}
	}
}

func testCatalogCategoryTurkish(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Türk", 0)
	importDocs(t, s, a.ID,
		product(0, "https://shop.test/p/1", "Atlet", "İç Giyim", "tr", "Pamuk.", "atlet"),
		product(0, "https://shop.test/p/2", "Boxer", "iç giyim", "tr", "Pamuk.", "boxer"),
		product(0, "https://shop.test/p/3", "Fener", "Işık", "tr", "Parlak.", "fener"),
		product(0, "https://shop.test/p/4", "Kazak", "Dış Giyim", "tr", "Yün.", "kazak"),
		product(0, "https://shop.test/p/5", "Lamba", "Isik", "tr", "Parlak.", "lamba"),
	)
	for _, tc := range []struct {
		category string
		want     []string
	}{
		{"İç Giyim", []string{"Atlet", "Boxer"}},
		{"iç giyim", []string{"Atlet", "Boxer"}},
		{"İÇ GİYİM", []string{"Atlet", "Boxer"}},
		{"  iç  giyim ", []string{"Atlet", "Boxer"}},
		{"IŞIK", []string{"Fener", "Lamba"}},
		{"ışık", []string{"Fener", "Lamba"}},
		{"dış giyim", []string{"Kazak"}},
		{"giyim", nil},
	} {
		got, total := catalogProducts(t, s, a.ID, store.CatalogQuery{Category: tc.category})
		if total != len(tc.want) || !slices.Equal(productNames(got), tc.want) {
			t.Errorf("category %q: total %d, %v; want %v", tc.category, total, productNames(got), tc.want)
		}
	}
}

func testCatalogTerms(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Termed", 0)
	b, _ := NewAccount(t, s, "Bystander", 0)
	twoChunks := product(0, "https://shop.test/p/tent", "Etna Tent", "Tents", "en", "Light. Waterproof.", "light")
	twoChunks.Chunks = append(twoChunks.Chunks, store.Chunk{Text: "Waterproof.", Terms: "waterproof seam"})
	importDocs(t, s, a.ID,
		twoChunks,
		product(0, "https://shop.test/p/boot", "Kaçkar Boot", "Shoes", "en", "Waterproof leather.", "waterproof leather"),
		product(0, "https://shop.test/p/ayak", "Ayakkabı", "Ayakkabı", "tr", "Deri.", "ayakk deri"),
		faq(0, "Is the tent waterproof?", "Yes, every seam is taped.", "en", "tent waterproof seam tape"),
		faq(0, "Do boots need care?", "Wax them.", "en", "boot care wax"),
	)
	importDocs(t, s, b.ID, product(0, "https://other.test/p/tent", "Other Tent", "Tents", "en", "x", "waterproof"))
	term := func(text string) store.SearchTerm { return store.SearchTerm{Text: text} }
	for _, tc := range []struct {
		name  string
		terms []store.SearchTerm
		want  []string
	}{
		{"one term", []store.SearchTerm{term("waterproof")}, []string{"Etna Tent", "Kaçkar Boot"}},
		{"every term must match", []store.SearchTerm{term("waterproof"), term("leather")}, []string{"Kaçkar Boot"}},
		{"terms from different chunks", []store.SearchTerm{term("light"), term("seam")}, []string{"Etna Tent"}},
		{"a term nothing has", []store.SearchTerm{term("waterproof"), term("zzz")}, nil},
		{"prefix term", []store.SearchTerm{{Text: "ayak", Prefix: true}}, []string{"Ayakkabı"}},
		{"not a prefix unless asked", []store.SearchTerm{term("ayak")}, nil},
		{"FTS syntax is text", []store.SearchTerm{term(`waterproof" OR "x`), term("NEAR(")}, nil},
		{"empty terms are ignored", []store.SearchTerm{term(""), term("leather")}, []string{"Kaçkar Boot"}},
	} {
		got, total, err := s.CatalogProducts(ctx(), a.ID, store.CatalogQuery{Terms: tc.terms})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if total != len(tc.want) || !slices.Equal(productNames(got), tc.want) {
			t.Errorf("%s: total %d, %v; want %v", tc.name, total, productNames(got), tc.want)
		}
	}
	// The same filter on Q&A entries.
	got, total, err := s.CatalogFAQ(ctx(), a.ID, store.CatalogQuery{Terms: []store.SearchTerm{term("waterproof"), term("seam")}})
	if err != nil || total != 1 || len(got) != 1 || got[0].Question != "Is the tent waterproof?" {
		t.Fatalf("faq by terms: %v %d %+v", err, total, got)
	}
	// Terms with the category and the site.
	got2, total := catalogProducts(t, s, a.ID, store.CatalogQuery{Terms: []store.SearchTerm{term("waterproof")}, Category: "SHOES"})
	if total != 1 || !slices.Equal(productNames(got2), []string{"Kaçkar Boot"}) {
		t.Fatalf("terms and category: %d %v", total, productNames(got2))
	}
}

func testCatalogFAQ(t *testing.T, s store.Store) {
	f := newSiteFixture(t, s)
	// More entries on site A, in two languages; the Q&A entries are listed oldest first.
	importDocs(t, s, f.a.ID,
		faq(f.siteA.ID, "How long is delivery?", "Two to four days.", "en", "long deliveri day"),
		faq(f.siteA.ID, "Wie lange dauert die Lieferung?", "Zwei bis vier Tage.", "de", "lang liefer tag"),
		faq(f.siteA.ID, "Can I pay by card?", "Yes, every card.", "en", "pay card"),
	)
	list := func(accountID int64, q store.CatalogQuery) ([]store.CatalogFAQ, int) {
		t.Helper()
		got, total, err := s.CatalogFAQ(ctx(), accountID, q)
		if err != nil {
			t.Fatalf("catalog faq %+v: %v", q, err)
		}
		if got == nil {
			t.Fatalf("catalog faq %+v: a nil page", q)
		}
		return got, total
	}
	questions := func(es []store.CatalogFAQ) []string {
		out := make([]string, len(es))
		for i, e := range es {
			out[i] = e.Question
		}
		return out
	}
	siteA := []string{"Is the tent waterproof? (A)", "How long is delivery?", "Wie lange dauert die Lieferung?", "Can I pay by card?"}
	got, total := list(f.a.ID, store.CatalogQuery{SiteID: f.siteA.ID})
	if total != 4 || !slices.Equal(questions(got), siteA) {
		t.Fatalf("site A: %d %v", total, questions(got))
	}
	if e := got[1]; e.Answer != "Two to four days." || e.Lang != "en" || e.DocID == 0 {
		t.Fatalf("entry: %+v", e)
	}
	if got, total = list(f.a.ID, store.CatalogQuery{SiteID: f.siteA.ID, Offset: 1, Limit: 2}); total != 4 ||
		!slices.Equal(questions(got), siteA[1:3]) {
		t.Fatalf("page: %d %v", total, questions(got))
	}
	if got, total = list(f.a.ID, store.CatalogQuery{SiteID: f.siteA.ID, Lang: "de"}); total != 1 || got[0].Answer != "Zwei bis vier Tage." {
		t.Fatalf("in de: %d %+v", total, got)
	}
	// Category is ignored for Q&A entries.
	if _, total = list(f.a.ID, store.CatalogQuery{SiteID: f.siteA.ID, Category: "Tents"}); total != 4 {
		t.Fatalf("category applied to Q&A: %d", total)
	}
	if got, total = list(f.a.ID, store.CatalogQuery{}); total != 6 || got[0].Question != "Is the tent waterproof? (A)" {
		t.Fatalf("whole account: %d %v", total, questions(got))
	}
	if got, total = list(f.a.ID, store.CatalogQuery{Offset: 10}); total != 6 || len(got) != 0 {
		t.Fatalf("past the end: %d %v", total, questions(got))
	}
	if got, total = list(f.b.ID, store.CatalogQuery{}); total != 1 || got[0].Question != "Is the tent waterproof? (other)" {
		t.Fatalf("the other account: %d %v", total, questions(got))
	}
	if _, total = list(f.b.ID, store.CatalogQuery{SiteID: f.siteA.ID}); total != 0 {
		t.Fatalf("the other account read site A: %d", total)
	}
}

func testCatalogCategories(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Categorised", 0)
	b, _ := NewAccount(t, s, "Other", 0)
	siteA, siteB := newSite(t, s, a.ID, "https://a.test/"), newSite(t, s, a.ID, "https://b.test/")
	importDocs(t, s, a.ID,
		product(siteA.ID, "https://a.test/p/1", "Atlet", "İç Giyim", "tr", "x", "atlet"),
		product(siteA.ID, "https://a.test/p/2", "Boxer", "iç giyim", "tr", "x", "boxer"),
		product(siteA.ID, "https://a.test/p/3", "Slip", "İç Giyim", "tr", "x", "slip"),
		product(siteA.ID, "https://a.test/p/4", "Boot", "Shoes", "en", "x", "boot"),
		product(siteB.ID, "https://b.test/p/5", "Sandal", "Shoes", "en", "x", "sandal"),
		product(siteB.ID, "https://b.test/p/6", "Tent", "Tents", "en", "x", "tent"),
		product(0, "https://shop.test/p/7", "Cap", "", "en", "x", "cap"),
		article(siteA.ID, "returns", "en", "orders", "Orders"),
		article(siteA.ID, "refunds", "en", "orders", "Orders"),
		article(siteA.ID, "iade", "tr", "siparis", "Sipariş"),
		article(siteB.ID, "care", "en", "care", "Care"),
		article(0, "loose", "en", "", ""),
	)
	importDocs(t, s, b.ID, product(0, "https://other.test/p/1", "Hat", "Hats", "en", "x", "hat"),
		article(0, "other", "en", "misc", "Misc"))
	cats := func(accountID, siteID int64, lang string) []string {
		t.Helper()
		got, err := s.CatalogCategories(ctx(), accountID, siteID, lang)
		if err != nil {
			t.Fatalf("categories: %v", err)
		}
		out := make([]string, len(got))
		for i, c := range got {
			out[i] = fmt.Sprintf("%s:%s:%s:%d", c.Kind, c.Name, c.Slug, c.Count)
		}
		return out
	}
	for _, tc := range []struct {
		name    string
		account int64
		site    int64
		lang    string
		want    []string
	}{
		{"whole account", a.ID, 0, "", []string{"article:Care:care:1", "article:Orders:orders:2", "article:Sipariş:siparis:1",
			"product:İç Giyim::3", "product:Shoes::2", "product:Tents::1"}},
		{"site A", a.ID, siteA.ID, "", []string{"article:Orders:orders:2", "article:Sipariş:siparis:1",
			"product:İç Giyim::3", "product:Shoes::1"}},
		{"site B", a.ID, siteB.ID, "", []string{"article:Care:care:1", "product:Shoes::1", "product:Tents::1"}},
		{"in tr", a.ID, 0, "tr", []string{"article:Sipariş:siparis:1", "product:İç Giyim::3"}},
		{"site A in en", a.ID, siteA.ID, "en", []string{"article:Orders:orders:2", "product:Shoes::1"}},
		{"another account's site", a.ID, newSite(t, s, b.ID, "https://c.test/").ID, "", []string{}},
		{"the other account", b.ID, 0, "", []string{"article:Misc:misc:1", "product:Hats::1"}},
		{"the other account, site A", b.ID, siteA.ID, "", []string{}},
	} {
		if got := cats(tc.account, tc.site, tc.lang); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

func testCatalogTenantIsolation(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Owner", 0)
	b, _ := NewAccount(t, s, "Stranger", 0)
	site := newSite(t, s, a.ID, "https://a.test/")
	importDocs(t, s, a.ID, kbDocs()...)
	importDocs(t, s, a.ID, product(site.ID, "https://a.test/p/x", "Sited Boot", "Shoes", "en", "x", "boot"),
		faq(site.ID, "Sited?", "Yes.", "en", "site"))
	for _, q := range []store.CatalogQuery{{}, {SiteID: site.ID}, {Terms: []store.SearchTerm{{Text: "boot"}}}, {Category: "Shoes"}} {
		if ps, total, err := s.CatalogProducts(ctx(), b.ID, q); err != nil || total != 0 || len(ps) != 0 {
			t.Errorf("B read A's products with %+v: %v %d %+v", q, err, total, ps)
		}
		if es, total, err := s.CatalogFAQ(ctx(), b.ID, q); err != nil || total != 0 || len(es) != 0 {
			t.Errorf("B read A's Q&A with %+v: %v %d %+v", q, err, total, es)
		}
	}
	for _, siteID := range []int64{0, site.ID} {
		if cs, err := s.CatalogCategories(ctx(), b.ID, siteID, ""); err != nil || len(cs) != 0 {
			t.Errorf("B read A's categories (site %d): %v %+v", siteID, err, cs)
		}
	}
	if ps, total := catalogProducts(t, s, a.ID, store.CatalogQuery{}); total != 2 || len(ps) != 2 {
		t.Fatalf("A's own products: %d %v", total, productNames(ps))
	}
}

// usageEvent is the type of the charges of these tests: an event outside any conversation.
const usageEvent = "intelligence"

// lastLedger returns the account's newest ledger row.
func lastLedger(t *testing.T, s store.Store, accountID int64) store.LedgerEntry {
	t.Helper()
	entries, err := s.Ledger(ctx(), accountID)
	if err != nil || len(entries) == 0 {
		t.Fatalf("ledger: %v %+v", err, entries)
	}
	return entries[len(entries)-1]
}

func testChargeUsageWithoutReservation(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Metered", 10_000)
	calls := []store.CallUsage{{Call: "plan", Model: "m", InputTokens: 100, OutputTokens: 10, CostMicro: 1_000},
		{Call: "reply", Model: "m", InputTokens: 200, OutputTokens: 40, CostMicro: 2_000}}
	c := store.Charge{EventType: usageEvent, AmountMicro: 3_000, InputTokens: 300, OutputTokens: 50, Calls: calls}
	capped, err := s.ChargeUsage(ctx(), a.ID, &c, 0)
	if err != nil || capped != 0 || c.AmountMicro != 3_000 || c.EventID == 0 {
		t.Fatalf("charge: %v capped %d %+v", err, capped, c)
	}
	assertMoney(t, s, a.ID, 7_000, 0)
	if e := lastLedger(t, s, a.ID); e.Kind != "charge" || e.AmountMicro != -3_000 || e.BalanceAfter != 7_000 ||
		e.MessageID != 0 || e.Note != usageEvent {
		t.Fatalf("ledger row: %+v", e)
	}
	sum, _ := s.UsageSummary(ctx(), a.ID, time.Now().Add(-time.Hour), 10)
	if sum.ByEvent[usageEvent] != (store.EventTotal{Count: 1, CostMicro: 3_000}) || len(sum.Recent) != 1 {
		t.Fatalf("usage: %+v", sum)
	}
	if ev := sum.Recent[0]; ev.ID != c.EventID || ev.MessageID != 0 || ev.InputTokens != 300 || ev.OutputTokens != 50 ||
		ev.EventType != usageEvent {
		t.Fatalf("event: %+v", ev)
	}
	if got, _ := s.UsageCalls(ctx(), a.ID, c.EventID); !slices.Equal(got, calls) {
		t.Fatalf("calls: %+v", got)
	}

	// Over the free balance (another answer holds most of it): refused, nothing written.
	held := reserve(t, s, a.ID, 5_000)
	over := store.Charge{EventType: usageEvent, AmountMicro: 2_001, Calls: calls}
	if capped, err := s.ChargeUsage(ctx(), a.ID, &over, 0); !errors.Is(err, store.ErrInsufficientBalance) || capped != 0 {
		t.Fatalf("a charge over the free balance: %v capped %d", err, capped)
	}
	if over.AmountMicro != 2_001 || over.EventID != 0 {
		t.Fatalf("a refused charge changed: %+v", over)
	}
	assertMoney(t, s, a.ID, 7_000, 5_000)
	if n, _ := s.CountEvents(ctx(), a.ID, usageEvent, time.Now().Add(-time.Hour)); n != 1 {
		t.Fatalf("%d events after a refused charge, want 1", n)
	}
	if entries, _ := s.Ledger(ctx(), a.ID); len(entries) != 2 {
		t.Fatalf("%d ledger rows after a refused charge, want 2", len(entries))
	}
	// Exactly the free balance fits.
	exact := store.Charge{EventType: usageEvent, AmountMicro: 2_000}
	if _, err := s.ChargeUsage(ctx(), a.ID, &exact, 0); err != nil {
		t.Fatalf("a charge of the free balance: %v", err)
	}
	assertMoney(t, s, a.ID, 5_000, 5_000)
	if err := s.Release(ctx(), a.ID, held.ID); err != nil {
		t.Fatal(err)
	}

	// A free event is recorded without a ledger row.
	free := store.Charge{EventType: usageEvent}
	if _, err := s.ChargeUsage(ctx(), a.ID, &free, 0); err != nil || free.EventID == 0 {
		t.Fatalf("free event: %v %+v", err, free)
	}
	if entries, _ := s.Ledger(ctx(), a.ID); len(entries) != 3 {
		t.Fatalf("%d ledger rows after a free event, want 3", len(entries))
	}
	sum, _ = s.UsageSummary(ctx(), a.ID, time.Now().Add(-time.Hour), 10)
	if sum.ByEvent[usageEvent] != (store.EventTotal{Count: 3, CostMicro: 5_000}) {
		t.Fatalf("usage after three events: %+v", sum.ByEvent)
	}
	assertMoney(t, s, a.ID, 5_000, 0)

	// Malformed charges are refused.
	for _, bad := range []store.Charge{{EventType: usageEvent, AmountMicro: -1}, {AmountMicro: 10}} {
		if _, err := s.ChargeUsage(ctx(), a.ID, &bad, 0); err == nil {
			t.Errorf("charge %+v accepted", bad)
		}
	}
	assertMoney(t, s, a.ID, 5_000, 0)

	// Another account's balance and usage are untouched.
	b, _ := NewAccount(t, s, "Untouched", 1_000)
	if sum, _ := s.UsageSummary(ctx(), b.ID, time.Now().Add(-time.Hour), 10); sum.AllTimeCount != 0 {
		t.Fatalf("the other account has usage: %+v", sum)
	}
	assertMoney(t, s, b.ID, 1_000, 0)
}

func testChargeUsageWithReservation(t *testing.T, s store.Store) {
	for i, tc := range []struct {
		name      string
		balance   int64
		hold      int64
		others    int64 // another call's live reservation
		released  bool  // this call's reservation is already gone
		charge    int64
		wantTaken int64
		capped    int64
		balanceTo int64
	}{
		{name: "within the reservation", balance: 5_000, hold: 3_000, charge: 2_500, wantTaken: 2_500, balanceTo: 2_500},
		{name: "over the reservation, within the free balance", balance: 5_000, hold: 2_000, charge: 4_000,
			wantTaken: 4_000, balanceTo: 1_000},
		{name: "over the whole balance", balance: 5_000, hold: 5_000, charge: 8_000, wantTaken: 5_000, capped: 3_000},
		{name: "never from another reservation", balance: 6_000, hold: 3_000, others: 3_000, charge: 4_000,
			wantTaken: 3_000, capped: 1_000, balanceTo: 3_000},
		{name: "reservation gone and nothing free", balance: 5_000, hold: 5_000, released: true, others: 5_000,
			charge: 1_000, wantTaken: 0, capped: 1_000, balanceTo: 5_000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, _ := NewAccount(t, s, fmt.Sprintf("Reserved %d", i), tc.balance)
			r := reserve(t, s, a.ID, tc.hold)
			if tc.released {
				if err := s.Release(ctx(), a.ID, r.ID); err != nil {
					t.Fatal(err)
				}
			}
			if tc.others > 0 {
				reserve(t, s, a.ID, tc.others)
			}
			entriesBefore, _ := s.Ledger(ctx(), a.ID)
			c := store.Charge{EventType: usageEvent, AmountMicro: tc.charge, InputTokens: 10, OutputTokens: 5,
				Calls: []store.CallUsage{{Call: "reply", Model: "m", CostMicro: tc.charge}}}
			capped, err := s.ChargeUsage(ctx(), a.ID, &c, r.ID)
			if err != nil {
				t.Fatalf("a reserved charge failed: %v", err)
			}
			if c.AmountMicro != tc.wantTaken || capped != tc.capped || c.EventID == 0 {
				t.Fatalf("took %d, capped %d, event %d; want %d and %d", c.AmountMicro, capped, c.EventID, tc.wantTaken, tc.capped)
			}
			assertMoney(t, s, a.ID, tc.balanceTo, tc.others)
			entries, _ := s.Ledger(ctx(), a.ID)
			switch {
			case tc.wantTaken == 0 && len(entries) != len(entriesBefore):
				t.Fatalf("a charge of nothing wrote a ledger row: %+v", entries)
			case tc.wantTaken > 0:
				if e := entries[len(entries)-1]; len(entries) != len(entriesBefore)+1 || e.AmountMicro != -tc.wantTaken ||
					e.MessageID != 0 || e.Note != usageEvent {
					t.Fatalf("ledger: %+v", entries)
				}
			}
			sum, _ := s.UsageSummary(ctx(), a.ID, time.Now().Add(-time.Hour), 10)
			if got := sum.ByEvent[usageEvent]; got.Count != 1 || got.CostMicro != tc.wantTaken {
				t.Fatalf("usage %+v, want one event costing %d", got, tc.wantTaken)
			}
			// The calls keep the provider's own cost, whatever was written off.
			if calls, _ := s.UsageCalls(ctx(), a.ID, c.EventID); len(calls) != 1 || calls[0].CostMicro != tc.charge {
				t.Fatalf("calls %+v", calls)
			}
			// The reservation is gone: releasing it again changes nothing.
			if err := s.Release(ctx(), a.ID, r.ID); err != nil {
				t.Fatal(err)
			}
			assertMoney(t, s, a.ID, tc.balanceTo, tc.others)
		})
	}
}
