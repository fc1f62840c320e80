package storetest

import (
	"slices"
	"strings"
	"testing"

	"svc/internal/store"
)

var productUpsertTests = []suiteTest{
	{"UpsertProductsBySKUThenURL", testUpsertProducts},
	{"UpsertProductsTenantIsolation", testUpsertProductsTenants},
	{"DocumentOrigin", testDocumentOrigin},
}

// skuProduct is a product document as a products spreadsheet makes one.
func skuProduct(sku, url, name, price string) store.Document {
	return store.Document{Type: store.DocProduct, URL: url, Title: name, Body: name, Lang: "en",
		Hash:    sku + "|" + url + "|" + name + "|" + price,
		Origin:  store.OriginUpload,
		Product: &store.Product{Name: name, URL: url, Price: price, SKU: sku},
		Chunks:  []store.Chunk{{Heading: name, Text: name + "\nPrice: " + price, Terms: "boot price " + price}}}
}

func upsert(t *testing.T, s store.Store, accountID int64, docs ...store.Document) store.UpsertResult {
	t.Helper()
	res, err := s.UpsertProducts(ctx(), accountID, docs)
	if err != nil {
		t.Fatalf("upsert products: %v", err)
	}
	return res
}

// productCards are the account's product cards by name, with price and SKU.
func productCards(t *testing.T, s store.Store, accountID int64) map[string]store.Product {
	t.Helper()
	rows, _ := listDocuments(t, s, accountID, store.DocQuery{Type: store.DocProduct, Limit: 100})
	out := map[string]store.Product{}
	for _, r := range rows {
		if r.Product == nil {
			t.Fatalf("product row without a card: %+v", r)
		}
		out[r.Title] = *r.Product
	}
	return out
}

// A catalogue pushed again updates its cards: by SKU (variants share a URL), an earlier
// SKU-less import by URL, a SKU-less product by URL; counts are created/updated/unchanged;
// a changed product's cached answers are withdrawn and the KB version moves.
func testUpsertProducts(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Shop", 0)
	// An earlier JSON Lines import without SKUs, and a crawled product at the same URL as
	// one of them (crawled products are never matched).
	importDocs(t, s, a.ID, product(0, "https://shop.test/boot", "Boot", "Shoes", "en", "A boot.", "boot"))
	crawled := product(0, "https://shop.test/boot", "Boot", "Shoes", "en", "A crawled boot.", "boot")
	crawled.SourceURL = "https://shop.test/boot"
	importDocs(t, s, a.ID, crawled)

	first := upsert(t, s, a.ID,
		skuProduct("B-42", "https://shop.test/boot", "Boot 42", "119,90 €"),
		skuProduct("B-43", "https://shop.test/boot", "Boot 43", "119,90 €"),
		skuProduct("", "https://shop.test/sock", "Sock", "5 €"))
	if first != (store.UpsertResult{Created: 2, Updated: 1}) {
		t.Fatalf("first upsert: %+v (B-42 adopts the imported boot, B-43 and Sock are new)", first)
	}
	cards := productCards(t, s, a.ID)
	if len(cards) != 4 || cards["Boot 42"].SKU != "B-42" || cards["Boot 43"].SKU != "B-43" || cards["Sock"].Price != "5 €" {
		t.Fatalf("cards after the first upsert: %+v", cards)
	}
	if _, ok := cards["Boot"]; !ok {
		t.Fatalf("the crawled boot was matched: %+v", cards)
	}

	var b42 int64
	rows, _ := listDocuments(t, s, a.ID, store.DocQuery{Type: store.DocProduct, Limit: 100})
	for _, r := range rows {
		if r.Product.SKU == "B-42" {
			b42 = r.ID
			if r.Origin != store.OriginUpload {
				t.Fatalf("B-42's origin: %q", r.Origin)
			}
		}
	}
	saveCached(t, s, a, "en", "boot price", []string{"boot", "price"}, []int64{b42})
	before, err := s.KBState(ctx(), a.ID)
	if err != nil {
		t.Fatal(err)
	}

	// The nightly export again: B-42's price changed (and its URL moved), the rest did not.
	again := upsert(t, s, a.ID,
		skuProduct("B-42", "https://shop.test/boots/42", "Boot 42", "99,90 €"),
		skuProduct("B-43", "https://shop.test/boot", "Boot 43", "119,90 €"),
		skuProduct("", "https://shop.test/sock", "Sock", "5 €"))
	if again != (store.UpsertResult{Updated: 1, Unchanged: 2}) {
		t.Fatalf("second upsert: %+v", again)
	}
	cards = productCards(t, s, a.ID)
	if len(cards) != 4 || cards["Boot 42"].Price != "99,90 €" || cards["Boot 42"].URL != "https://shop.test/boots/42" {
		t.Fatalf("cards after the price change: %+v", cards)
	}
	doc, err := s.GetDocument(ctx(), a.ID, b42)
	if err != nil || doc.Product == nil || doc.Product.Price != "99,90 €" || doc.Product.SKU != "B-42" {
		t.Fatalf("B-42 is still document %d with the new price: %+v %v", b42, doc.Product, err)
	}
	assertCached(t, s, a.ID, map[string]bool{"boot price": false})
	after, err := s.KBState(ctx(), a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if after.Version <= before.Version {
		t.Fatalf("KB version did not move: %d -> %d", before.Version, after.Version)
	}
	hits, err := s.SearchChunks(ctx(), a.ID, store.SearchQuery{Terms: []store.SearchTerm{{Text: "boot"}}, Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(hits, func(h store.ChunkHit) bool { return h.DocID == b42 && strings.Contains(h.Text, "99,90 €") }) {
		t.Fatalf("the new price is not searchable: %+v", hits)
	}

	// Not a product: refused, nothing written.
	if _, err := s.UpsertProducts(ctx(), a.ID, []store.Document{skuProduct("X", "", "X", "1 €"), page("https://shop.test/p", "p", "page")}); err == nil {
		t.Fatal("a page was upserted as a product")
	}
	if got := productCards(t, s, a.ID); len(got) != 4 {
		t.Fatalf("a refused upsert wrote products: %+v", got)
	}
}

// Another account's SKUs and URLs are never matched.
func testUpsertProductsTenants(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "A", 0)
	b, _ := NewAccount(t, s, "B", 0)
	upsert(t, s, a.ID, skuProduct("S1", "https://a.test/p", "Pot", "10 €"))
	importDocs(t, s, b.ID, product(0, "https://a.test/p", "Pot", "", "en", "B's pot.", "pot"))
	if got := upsert(t, s, b.ID, skuProduct("S1", "https://a.test/p", "Pot", "12 €")); got != (store.UpsertResult{Updated: 1}) {
		t.Fatalf("B's upsert: %+v (adopts B's own imported pot)", got)
	}
	if got := productCards(t, s, a.ID); got["Pot"].Price != "10 €" {
		t.Fatalf("A's pot changed by B: %+v", got)
	}
}

// Documents carry their origin: as written, or crawl for a crawled one and import for any
// other; an edit in the dashboard (ReplaceDocument) is the editor's.
func testDocumentOrigin(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "Origins", 0)
	imported := page("https://shop.test/imported", "i", "imported")
	crawled := page("https://shop.test/crawled", "c", "crawled")
	crawled.SourceURL = "https://shop.test/crawled"
	uploaded := page("", "u", "uploaded")
	uploaded.Title, uploaded.Origin = "Returns", store.OriginUpload
	api := faq(0, "Do you ship?", "Yes.", "en", "ship")
	api.Origin = store.OriginAPI
	importDocs(t, s, a.ID, imported, crawled, uploaded, api)
	rows, _ := listDocuments(t, s, a.ID, store.DocQuery{Limit: 100})
	got := map[string]string{}
	for _, r := range rows {
		got[r.Title] = r.Origin
	}
	want := map[string]string{imported.Title: store.OriginImport, crawled.Title: store.OriginCrawl,
		"Returns": store.OriginUpload, "Do you ship?": store.OriginAPI}
	for title, o := range want {
		if got[title] != o {
			t.Errorf("%q: origin %q, want %q (all: %v)", title, got[title], o, got)
		}
	}
	var qaID int64
	for _, r := range rows {
		if r.Title == "Do you ship?" {
			qaID = r.ID
		}
	}
	edited := faq(0, "Do you ship abroad?", "Yes, worldwide.", "en", "ship abroad")
	if err := s.ReplaceDocument(ctx(), a.ID, qaID, &edited); err != nil {
		t.Fatal(err)
	}
	doc, err := s.GetDocument(ctx(), a.ID, edited.ID)
	if err != nil || doc.Origin != store.OriginEditor {
		t.Fatalf("edited Q&A: origin %q, %v", doc.Origin, err)
	}
}
