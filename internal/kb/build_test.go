package kb

import (
	"strings"
	"testing"
	"unicode/utf8"

	"svc/internal/store"
)

func TestBuildDetectsLanguage(t *testing.T) {
	tests := []struct {
		name string
		rec  Record
		want string
	}{
		{"turkish page", Record{Type: TypePage, Title: "İade ve değişim", Body: "Ayakkabıların iadesi 30 gün içinde ücretsizdir. Ürünü orijinal kutusuyla birlikte kargoya vermeniz yeterlidir."}, "tr"},
		{"german qa", Record{Type: TypeQA, Question: "Wie lange dauert die Lieferung nach Deutschland?", Answer: "Die Lieferung dauert in der Regel fünf bis sieben Werktage."}, "de"},
		{"english product", Record{Type: TypeProduct, Name: "Trail backpack", Description: "A light backpack for day hikes with a rain cover and a hydration sleeve."}, "en"},
		{"explicit lang wins", Record{Type: TypeQA, Question: "Wie lange dauert die Lieferung?", Answer: "Zwei Tage.", Lang: "en"}, "en"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := Build(tt.rec)
			if err != nil {
				t.Fatalf("Build: %v", err)
			}
			if doc.Lang != tt.want {
				t.Errorf("Lang = %q, want %q", doc.Lang, tt.want)
			}
		})
	}
}

func TestBuildPage(t *testing.T) {
	body := `<html><head><title>Lieferung | Shop</title></head><body>
<nav>Start Zelte Rucksäcke</nav>
<h1>Lieferung</h1><p>Wir liefern nach Deutschland in 5&ndash;7 Werktagen.</p>
<h2>Versandkosten</h2><p>Ab 100 € ist die Lieferung kostenlos.</p>
<footer>Impressum</footer></body></html>`
	doc, err := Build(Record{Line: 3, Type: TypePage, URL: "https://x.test/lieferung", Body: body, Lang: "de"})
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	if doc.Type != store.DocPage || doc.URL != "https://x.test/lieferung" {
		t.Errorf("type/url = %q %q", doc.Type, doc.URL)
	}
	if doc.Title != "Lieferung" {
		t.Errorf("Title = %q, want the HTML <title> without the shop's name", doc.Title)
	}
	for _, noise := range []string{"Impressum", "Zelte", "&ndash;"} {
		if strings.Contains(doc.Body, noise) {
			t.Errorf("Body keeps %q: %q", noise, doc.Body)
		}
	}
	if !strings.Contains(doc.Body, "5–7 Werktagen") {
		t.Errorf("Body lost the text: %q", doc.Body)
	}
	if len(doc.Chunks) != 2 {
		t.Fatalf("got %d chunks, want 2: %+v", len(doc.Chunks), doc.Chunks)
	}
	if doc.Chunks[1].Heading != "Versandkosten" || doc.Chunks[1].Ord != 1 {
		t.Errorf("chunk 1 = %+v, want heading Versandkosten, ord 1", doc.Chunks[1])
	}
	for i, c := range doc.Chunks {
		if c.Terms == "" {
			t.Errorf("chunk %d has no terms", i)
		}
	}
	// The page's subject (its title word) is searchable in the chunk about costs too.
	if !strings.Contains(doc.Chunks[1].Terms, strings.Fields(doc.Chunks[0].Terms)[0]) {
		t.Errorf("chunk 1 terms %q miss the title terms", doc.Chunks[1].Terms)
	}
	if len(doc.Hash) != 64 {
		t.Errorf("Hash = %q, want 64 hex characters", doc.Hash)
	}
}

func TestBuildPageWithoutText(t *testing.T) {
	_, err := Build(Record{Line: 9, Type: TypePage, Title: "Empty", Body: "<nav>Menu</nav><script>x()</script>", Lang: "en"})
	if err == nil || !strings.HasPrefix(err.Error(), "line 9: ") {
		t.Fatalf("error = %v, want a line 9 error", err)
	}
}

func TestBuildQA(t *testing.T) {
	doc, err := Build(Record{Type: TypeQA, Question: "Kargo ücreti ne kadar?", Answer: "500 TL üzeri siparişlerde kargo ücretsizdir.", Lang: "tr"})
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	if doc.Title != "Kargo ücreti ne kadar?" || doc.Body != "500 TL üzeri siparişlerde kargo ücretsizdir." {
		t.Errorf("title/body = %q / %q", doc.Title, doc.Body)
	}
	if len(doc.Chunks) != 1 || doc.Chunks[0].Text != "Kargo ücreti ne kadar?\n500 TL üzeri siparişlerde kargo ücretsizdir." {
		t.Fatalf("chunks = %+v, want one chunk of question and answer", doc.Chunks)
	}
	if doc.Chunks[0].Heading != doc.Title {
		t.Errorf("heading = %q, want the question", doc.Chunks[0].Heading)
	}

	long := strings.Repeat("Die Rücksendung ist innerhalb von dreißig Tagen kostenlos möglich. ", 40)
	doc, err = Build(Record{Type: TypeQA, Question: "Rückgabe?", Answer: long, Lang: "de"})
	if err != nil {
		t.Fatalf("Build long: %v", err)
	}
	if len(doc.Chunks) < 2 {
		t.Fatalf("long answer gave %d chunks, want it split", len(doc.Chunks))
	}
	for i, c := range doc.Chunks {
		if !strings.HasPrefix(c.Text, "Rückgabe?\n") || utf8.RuneCountInString(c.Text) > chunkMax+20 {
			t.Errorf("chunk %d does not start with the question or is too long (%d)", i, utf8.RuneCountInString(c.Text))
		}
	}
}

func TestBuildProduct(t *testing.T) {
	rec := Record{Type: TypeProduct, Name: "Kaçkar Trekking Botu", URL: "https://x.test/kackar", Price: "2.029,00 TL",
		Category: "Ayakkabı", Image: "https://x.test/k.jpg", Description: "<p>Su geçirmez, Vibram tabanlı bot.</p>", Lang: "tr"}
	doc, err := Build(rec)
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	want := store.Product{Name: rec.Name, URL: rec.URL, Price: rec.Price, Category: rec.Category, Image: rec.Image}
	if doc.Product == nil || *doc.Product != want {
		t.Errorf("Product = %+v, want %+v", doc.Product, want)
	}
	if doc.Title != rec.Name || doc.Body != "Su geçirmez, Vibram tabanlı bot." || doc.URL != rec.URL {
		t.Errorf("title/body/url = %q / %q / %q", doc.Title, doc.Body, doc.URL)
	}
	if len(doc.Chunks) != 1 {
		t.Fatalf("got %d chunks", len(doc.Chunks))
	}
	text := doc.Chunks[0].Text
	for _, s := range []string{"Kaçkar Trekking Botu", "Fiyat: 2.029,00 TL", "Kategori: Ayakkabı", "Vibram"} {
		if !strings.Contains(text, s) {
			t.Errorf("chunk text %q lacks %q", text, s)
		}
	}
	if !strings.Contains(" "+doc.Chunks[0].Terms+" ", " 2029 ") {
		t.Errorf("terms %q lack the price number", doc.Chunks[0].Terms)
	}

	bare, err := Build(Record{Type: TypeProduct, Name: "Trail Poles", Lang: "en"})
	if err != nil || len(bare.Chunks) != 1 || bare.Chunks[0].Text != "Trail Poles" {
		t.Errorf("bare product = %+v, %v; want one chunk holding the name", bare.Chunks, err)
	}
}

func TestBuildArticle(t *testing.T) {
	body := "<h2>İade adımları</h2><p>" + strings.Repeat("Siparişlerim sayfasından iade talebi oluşturun ve kargo kodunu alın. ", 5) + "</p>"
	doc, err := Build(Record{Type: TypeArticle, Slug: "iade-nasil-yapilir", Title: "İade nasıl yapılır?", Body: body,
		CategorySlug: "iade", CategoryName: "İade ve değişim", Lang: "tr"})
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	a := doc.Article
	if a == nil || a.Slug != "iade-nasil-yapilir" || a.CategorySlug != "iade" || a.CategoryName != "İade ve değişim" {
		t.Fatalf("Article = %+v", a)
	}
	if !strings.HasPrefix(a.Excerpt, "Siparişlerim sayfasından") || !strings.HasSuffix(a.Excerpt, "…") ||
		utf8.RuneCountInString(a.Excerpt) > excerptLen {
		t.Errorf("Excerpt = %q, want the first paragraph cut to %d characters with …", a.Excerpt, excerptLen)
	}
	if doc.URL != "" || doc.Chunks[0].Heading != "İade adımları" {
		t.Errorf("url %q, heading %q", doc.URL, doc.Chunks[0].Heading)
	}
}

func TestBuildHash(t *testing.T) {
	base := Record{Type: TypeQA, Question: "q?", Answer: "a.", Lang: "en"}
	h := func(r Record) string {
		d, err := Build(r)
		if err != nil {
			t.Fatal(err)
		}
		return d.Hash
	}
	if h(base) != h(base) {
		t.Error("hash is not stable")
	}
	moved := base
	moved.Question, moved.Answer = "q?a", "."
	other := base
	other.Lang = "de"
	withLine := base
	withLine.Line = 42
	if h(moved) == h(base) || h(other) == h(base) {
		t.Error("different content gave the same hash")
	}
	if h(withLine) != h(base) {
		t.Error("line number changed the hash")
	}
}

// Text a crawl hands to Build is not validated: its NULs are dropped (nultext), so a page
// holding one is stored alike on every store instead of failing on PostgreSQL.
func TestBuildDropsNULFromCrawledText(t *testing.T) {
	t.Parallel()
	doc, err := Build(Record{Type: TypeProduct, Name: "Tent\x00 Pro", URL: "https://shop.test/p/te\x00nt",
		Price: "99\x00 €", Description: "<p>Light\x00 and dry.</p>"})
	if err != nil {
		t.Fatal(err)
	}
	for what, v := range map[string]string{"title": doc.Title, "body": doc.Body, "url": doc.URL} {
		if strings.ContainsRune(v, 0) {
			t.Errorf("%s keeps a NUL: %q", what, v)
		}
	}
	for _, c := range doc.Chunks {
		if strings.ContainsRune(c.Text, 0) || strings.ContainsRune(c.Terms, 0) {
			t.Errorf("chunk keeps a NUL: %q", c.Text)
		}
	}
	if doc.Product == nil || strings.ContainsRune(doc.Product.Name+doc.Product.Price, 0) {
		t.Errorf("product keeps a NUL: %+v", doc.Product)
	}
}
