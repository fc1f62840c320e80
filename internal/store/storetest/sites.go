package storetest

import (
	"errors"
	"sync"
	"testing"
	"time"

	"svc/internal/store"
)

func newSite(t *testing.T, s store.Store, accountID int64, url string) store.Site {
	t.Helper()
	site := store.Site{AccountID: accountID, URL: url, Host: "shop.test", Name: "Shop"}
	if err := s.CreateSite(ctx(), &site); err != nil {
		t.Fatalf("create site: %v", err)
	}
	return site
}

func testSites(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "A", 0)
	b, _ := NewAccount(t, s, "B", 0)
	one := newSite(t, s, a.ID, "https://shop.test/")
	two := newSite(t, s, a.ID, "https://help.shop.test/")
	if one.ID == 0 || two.ID == one.ID || one.CreatedAt.IsZero() {
		t.Fatalf("ids: %+v %+v", one, two)
	}
	dup := store.Site{AccountID: a.ID, URL: "https://shop.test/", Host: "shop.test"}
	if err := s.CreateSite(ctx(), &dup); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("duplicate url: %v", err)
	}
	// Another account may add the same URL: sites are per tenant.
	other := newSite(t, s, b.ID, "https://shop.test/")

	list, err := s.ListSites(ctx(), a.ID)
	if err != nil || len(list) != 2 || list[0].ID != one.ID || list[1].URL != "https://help.shop.test/" {
		t.Fatalf("list: %v %+v", err, list)
	}
	if _, err := s.GetSite(ctx(), b.ID, one.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("site of A read as B: %v", err)
	}
	got, err := s.GetSite(ctx(), b.ID, other.ID)
	if err != nil || got.AccountID != b.ID || !got.LastCrawlAt.IsZero() {
		t.Fatalf("get: %v %+v", err, got)
	}

	due, err := s.DueSites(ctx(), time.Now().Add(-time.Hour), 10)
	if err != nil || len(due) != 3 {
		t.Fatalf("never-crawled sites are due: %v %+v", err, due)
	}
	if err := s.ReleaseSite(ctx(), a.ID, one.ID, time.Now(), `{"pages":3}`); err != nil {
		t.Fatal(err)
	}
	due, _ = s.DueSites(ctx(), time.Now().Add(-time.Hour), 10)
	if len(due) != 2 {
		t.Fatalf("a fresh crawl is not due: %+v", due)
	}
	got, _ = s.GetSite(ctx(), a.ID, one.ID)
	if got.LastCrawl != `{"pages":3}` || got.LastCrawlAt.IsZero() {
		t.Fatalf("last crawl not recorded: %+v", got)
	}
}

func testSiteLease(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "A", 0)
	site := newSite(t, s, a.ID, "https://shop.test/")
	until := time.Now().Add(time.Hour)

	var wins int
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok, err := s.ClaimSite(ctx(), a.ID, site.ID, until)
			if err != nil {
				t.Error(err)
			}
			if ok {
				mu.Lock()
				wins++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if wins != 1 {
		t.Fatalf("%d crawls won the lease, want 1", wins)
	}
	if due, _ := s.DueSites(ctx(), time.Now(), 10); len(due) != 0 {
		t.Fatalf("a leased site is due: %+v", due)
	}
	if err := s.ReleaseSite(ctx(), a.ID, site.ID, time.Time{}, ""); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.ClaimSite(ctx(), a.ID, site.ID, until); err != nil || !ok {
		t.Fatalf("claim after release: %v %v", ok, err)
	}
	if _, err := s.ClaimSite(ctx(), a.ID, site.ID+99, until); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("claim of a missing site: %v", err)
	}
}

// crawledDocs is what one product page yields: the page text as a product and a FAQ entry.
func crawledDocs(price string) []store.Document {
	return []store.Document{
		{Type: store.DocProduct, URL: "https://shop.test/p/boot", Title: "Trail Boot", Body: "Waterproof.", Lang: "en",
			Hash:    "p-" + price,
			Product: &store.Product{Name: "Trail Boot", URL: "https://shop.test/p/boot", Price: price},
			Chunks:  []store.Chunk{{Text: "Trail Boot " + price, Terms: "trail boot waterproof"}}},
		{Type: store.DocQA, Title: "Is it waterproof?", Body: "Yes.", Lang: "en", Hash: "q1",
			Chunks: []store.Chunk{{Text: "Is it waterproof? Yes.", Terms: "waterproof ye"}}},
	}
}

func testCrawledPages(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "A", 0)
	site := newSite(t, s, a.ID, "https://shop.test/")
	page := store.PageState{URL: "https://shop.test/p/boot", ETag: `"v1"`, Hash: "h1",
		Links: []string{"https://shop.test/p/a", "https://shop.test/p/b"}}

	// An imported record with the same URL is never overwritten by the crawl.
	imported := kbDocs()[2]
	if _, err := s.ImportDocuments(ctx(), a.ID, []store.Document{imported}); err != nil {
		t.Fatal(err)
	}
	res, err := s.SavePage(ctx(), a.ID, site.ID, page, crawledDocs("119,90 €"))
	if err != nil || res.Products != 1 || res.QA != 1 {
		t.Fatalf("save: %v %+v", err, res)
	}
	if counts, _ := s.CountDocuments(ctx(), a.ID); counts[store.DocProduct] != 2 {
		t.Fatalf("crawl overwrote the imported product: %v", counts)
	}
	states, err := s.PageStates(ctx(), a.ID, site.ID)
	if err != nil || states[page.URL].ETag != `"v1"` || states[page.URL].Hash != "h1" || states[page.URL].FetchedAt.IsZero() ||
		len(states[page.URL].Links) != 2 || states[page.URL].Links[1] != "https://shop.test/p/b" {
		t.Fatalf("states: %v %+v", err, states)
	}
	if n, err := s.SiteDocuments(ctx(), a.ID, site.ID); err != nil || n[store.DocProduct] != 1 || n[store.DocQA] != 1 {
		t.Fatalf("site documents: %v %v", n, err)
	}

	// The same page again: nothing rewritten.
	res, err = s.SavePage(ctx(), a.ID, site.ID, page, crawledDocs("119,90 €"))
	if err != nil || res.Unchanged != 2 || res.Products != 0 {
		t.Fatalf("resave: %v %+v", err, res)
	}

	// A cached answer is withdrawn when the page changes; the FAQ entry that vanished from the
	// page is deleted, the product is updated in place.
	c, _ := s.OpenConversation(ctx(), a.ID, "en")
	tr := turn(a, c, "boot?", "It costs 119,90 €.", store.Charge{EventType: store.EventCacheTenant})
	tr.Cache = &store.CacheEntry{Lang: "en", Key: "boot", Question: "boot?", Answer: "It costs 119,90 €."}
	if err := s.SaveTurn(ctx(), tr); err != nil {
		t.Fatal(err)
	}
	page.Hash = "h2"
	if _, err := s.SavePage(ctx(), a.ID, site.ID, page, crawledDocs("99,90 €")[:1]); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CachedAnswer(ctx(), a.ID, "en", "boot"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("cached answer survived a page change: %v", err)
	}
	if hits, _ := s.SearchChunks(ctx(), a.ID, store.SearchQuery{Terms: []store.SearchTerm{{Text: "ye"}}}); len(hits) != 0 {
		t.Fatalf("a FAQ entry gone from the page is still indexed: %+v", hits)
	}
	hits, _ := s.SearchChunks(ctx(), a.ID, store.SearchQuery{Terms: []store.SearchTerm{{Text: "trail"}}, Types: []string{store.DocProduct}})
	prices := map[string]bool{}
	for _, h := range hits {
		prices[h.Product.Price] = true
	}
	if len(hits) != 2 || !prices["99,90 €"] || !prices["119,90 €"] {
		t.Fatalf("product update: %+v", hits)
	}

	// Touch keeps the documents and records new validators.
	page.ETag, page.Links = `"v2"`, nil
	if err := s.TouchPage(ctx(), a.ID, site.ID, page); err != nil {
		t.Fatal(err)
	}
	if states, _ := s.PageStates(ctx(), a.ID, site.ID); states[page.URL].ETag != `"v2"` || len(states[page.URL].Links) != 0 {
		t.Fatalf("touch: %+v", states)
	}

	// Removing the page removes what it yielded, and only that.
	n, err := s.RemovePages(ctx(), a.ID, site.ID, []string{page.URL, "https://shop.test/never-stored"})
	if err != nil || n != 1 {
		t.Fatalf("remove: %d %v", n, err)
	}
	if counts, _ := s.CountDocuments(ctx(), a.ID); counts[store.DocProduct] != 1 || counts[store.DocQA] != 0 {
		t.Fatalf("after remove: %v", counts)
	}
	if states, _ := s.PageStates(ctx(), a.ID, site.ID); len(states) != 0 {
		t.Fatalf("state left: %+v", states)
	}
	if _, err := s.SavePage(ctx(), a.ID, site.ID+99, page, nil); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("save to a missing site: %v", err)
	}
}

func testCrawlTenantIsolation(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "A", 0)
	b, _ := NewAccount(t, s, "B", 0)
	site := newSite(t, s, a.ID, "https://shop.test/")
	page := store.PageState{URL: "https://shop.test/p/boot"}
	if _, err := s.SavePage(ctx(), a.ID, site.ID, page, crawledDocs("1 €")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SavePage(ctx(), b.ID, site.ID, page, nil); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("B wrote into A's site: %v", err)
	}
	if states, _ := s.PageStates(ctx(), b.ID, site.ID); len(states) != 0 {
		t.Fatalf("B read A's pages: %+v", states)
	}
	if n, _ := s.RemovePages(ctx(), b.ID, site.ID, []string{page.URL}); n != 0 {
		t.Fatalf("B removed A's page")
	}
	if counts, _ := s.CountDocuments(ctx(), a.ID); counts[store.DocProduct] != 1 {
		t.Fatalf("A's documents touched: %v", counts)
	}
}

func testArticlesByLanguage(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "A", 0)
	mk := func(slug, lang string) store.Document {
		return store.Document{Type: store.DocArticle, Title: slug, Body: "x", Lang: lang, Hash: slug,
			Article: &store.ArticleMeta{Slug: slug}, Chunks: []store.Chunk{{Text: "x", Terms: "x"}}}
	}
	if _, err := s.ImportDocuments(ctx(), a.ID, []store.Document{mk("en-1", "en"), mk("de-1", "de"), mk("en-2", "en"), mk("de-2", "de")}); err != nil {
		t.Fatal(err)
	}
	// Only the language asked for: a German conversation lists no English article.
	arts, err := s.Articles(ctx(), a.ID, "de", 3)
	if err != nil || len(arts) != 2 || arts[0].Slug != "de-1" || arts[1].Slug != "de-2" {
		t.Fatalf("articles for de: %v %+v", err, arts)
	}
	if arts, _ := s.Articles(ctx(), a.ID, "tr", 3); len(arts) != 0 {
		t.Fatalf("articles for tr: %+v", arts)
	}
	if arts, _ := s.Articles(ctx(), a.ID, "", 10); len(arts) != 4 {
		t.Fatalf("articles in any language: %+v", arts)
	}
}
