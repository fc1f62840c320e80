package storetest

import (
	"fmt"
	"slices"
	"testing"

	"svc/internal/store"
)

// crawledArticle is an article as the crawler saves it for one page.
func crawledArticle(slug, lang, body string) store.Document {
	return store.Document{Type: store.DocArticle, Title: slug + " " + lang, Body: body, Lang: lang, Hash: slug + lang + body,
		Article: &store.ArticleMeta{Slug: slug, CategorySlug: "guides", CategoryName: "Guides"},
		Chunks:  []store.Chunk{{Text: body, Terms: "x", Heading: "How do I " + slug + "?"}}}
}

// testCrawledArticleSlugs: crawled articles get slugs unique in their account (the same
// guide in two languages, two sections with a page of the same name), and keep them when
// their pages are saved again.
func testCrawledArticleSlugs(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "A", 0)
	b, _ := NewAccount(t, s, "B", 0)
	site := newSite(t, s, a.ID, "https://docs.test/")
	other := newSite(t, s, b.ID, "https://docs.test/")
	save := func(acct, siteID int64, url string, d store.Document) store.Document {
		t.Helper()
		docs := []store.Document{d}
		if _, err := s.SavePage(ctx(), acct, siteID, store.PageState{URL: url, Hash: url + d.Body}, docs); err != nil {
			t.Fatal(err)
		}
		return docs[0]
	}
	if _, err := s.ImportDocuments(ctx(), a.ID, []store.Document{{Type: store.DocArticle, Title: "Sync", Body: "x",
		Lang: "en", Hash: "imp", Article: &store.ArticleMeta{Slug: "sync"}, Chunks: []store.Chunk{{Text: "x", Terms: "x"}}}}); err != nil {
		t.Fatal(err)
	}
	en := save(a.ID, site.ID, "https://docs.test/en/docs/install", crawledArticle("install", "en", "one"))
	de := save(a.ID, site.ID, "https://docs.test/de/docs/install", crawledArticle("install", "de", "zwei"))
	en2 := save(a.ID, site.ID, "https://docs.test/en/node/install", crawledArticle("install", "en", "three"))
	sync := save(a.ID, site.ID, "https://docs.test/en/docs/sync", crawledArticle("sync", "en", "four"))
	inB := save(b.ID, other.ID, "https://docs.test/en/docs/install", crawledArticle("install", "en", "one"))
	if en.Article.Slug != "install" || de.Article.Slug != "install-de" || en2.Article.Slug != "install-en" ||
		sync.Article.Slug != "sync-en" || inB.Article.Slug != "install" {
		t.Fatalf("slugs: %q %q %q %q, other account %q", en.Article.Slug, de.Article.Slug, en2.Article.Slug,
			sync.Article.Slug, inB.Article.Slug)
	}
	arts, err := s.Articles(ctx(), a.ID, "", 10)
	if err != nil || len(arts) != 5 {
		t.Fatalf("articles: %v %+v", err, arts)
	}
	seen := map[string]bool{}
	for _, x := range arts {
		if seen[x.Slug] {
			t.Fatalf("slug %q twice in one account: %+v", x.Slug, arts)
		}
		seen[x.Slug] = true
	}
	// Saved again with new text, every page keeps its article and its slug.
	de2 := save(a.ID, site.ID, "https://docs.test/de/docs/install", crawledArticle("install", "de", "zwei, neu"))
	en3 := save(a.ID, site.ID, "https://docs.test/en/node/install", crawledArticle("install", "en", "three, new"))
	if de2.ID != de.ID || de2.Article.Slug != "install-de" || en3.ID != en2.ID || en3.Article.Slug != en2.Article.Slug {
		t.Fatalf("re-saved: %d %q (was %d %q), %d %q (was %d %q)", de2.ID, de2.Article.Slug, de.ID, de.Article.Slug,
			en3.ID, en3.Article.Slug, en2.ID, en2.Article.Slug)
	}
	after, _ := s.Articles(ctx(), a.ID, "", 10)
	if len(after) != 5 {
		t.Fatalf("articles after re-save: %+v", after)
	}
}

// testHeadings: the headings of pages and articles in one language, those of the pages
// with the most questions first, each once per document with its document; never another language's, another type's or another account's.
func testHeadings(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "A", 0)
	b, _ := NewAccount(t, s, "B", 0)
	page := func(url, lang string, heads ...string) store.Document {
		d := store.Document{Type: store.DocPage, URL: url, Title: url, Body: "x", Lang: lang, Hash: url}
		for i, h := range heads {
			d.Chunks = append(d.Chunks, store.Chunk{Ord: i, Heading: h, Text: "x", Terms: "x"})
		}
		return d
	}
	qa := store.Document{Type: store.DocQA, Title: "Is it free?", Body: "Yes.", Lang: "en", Hash: "qa",
		Chunks: []store.Chunk{{Heading: "Is it free?", Text: "Is it free? Yes.", Terms: "x"}}}
	if _, err := s.ImportDocuments(ctx(), a.ID, []store.Document{
		page("https://a.test/1", "en", "Setup", "How do I install it?"),
		page("https://a.test/2", "de", "Wie installiere ich es?"),
		page("https://a.test/3", "en", "How do I install it?", "", "Why does sync fail?", "Why does sync fail?"),
		qa,
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ImportDocuments(ctx(), b.ID, []store.Document{page("https://b.test/1", "en", "Secret heading")}); err != nil {
		t.Fatal(err)
	}
	texts := func(hs []store.Heading) []string {
		var out []string
		for _, h := range hs {
			out = append(out, h.Text)
		}
		return out
	}
	// The page with more question headings first, then in document order.
	got, err := s.Headings(ctx(), a.ID, "en", 10)
	if err != nil || !slices.Equal(texts(got), []string{"How do I install it?", "Why does sync fail?", "Setup",
		"How do I install it?"}) {
		t.Fatalf("en headings: %v %+v", err, got)
	}
	if got[0].DocID != got[1].DocID || got[2].DocID == got[1].DocID || got[3].DocID != got[2].DocID {
		t.Fatalf("en headings' documents: %+v", got)
	}
	if got, _ := s.Headings(ctx(), a.ID, "en", 2); len(got) != 2 {
		t.Fatalf("limit: %+v", got)
	}
	if got, _ := s.Headings(ctx(), a.ID, "de", 10); !slices.Equal(texts(got), []string{"Wie installiere ich es?"}) {
		t.Fatalf("de headings: %+v", got)
	}
	if got, _ := s.Headings(ctx(), a.ID, "tr", 10); len(got) != 0 {
		t.Fatalf("tr headings: %+v", got)
	}
}

// testSectionChunks: a chunk's section is the run of its document's chunks under its heading,
// its subsections included, within reach, and only the account's own.
func testSectionChunks(t *testing.T, s store.Store) {
	a, _ := NewAccount(t, s, "A", 0)
	b, _ := NewAccount(t, s, "B", 0)
	heads := []string{"Help", "Returns", "Returns", "Returns › Damaged goods",
		"Shipping", "Returns", "Returns"}
	d := store.Document{Type: store.DocPage, URL: "https://a.test/help", Title: "Help", Body: "x", Lang: "en", Hash: "help"}
	for i, h := range heads {
		d.Chunks = append(d.Chunks, store.Chunk{Ord: i, Heading: h, Text: fmt.Sprintf("text %d", i), Terms: "x", Tokens: 2})
	}
	docs := []store.Document{d}
	if _, err := s.ImportDocuments(ctx(), a.ID, docs); err != nil {
		t.Fatal(err)
	}
	full, err := s.GetDocument(ctx(), a.ID, docs[0].ID)
	if err != nil || len(full.Chunks) != len(heads) {
		t.Fatalf("document: %v %+v", err, full)
	}
	id := func(i int) int64 { return full.Chunks[i].ID }
	texts := func(hs []store.ChunkHit) []string {
		out := []string{}
		for _, h := range hs {
			out = append(out, h.Text)
		}
		return out
	}
	for _, c := range []struct {
		chunk, reach int
		want         []string
	}{
		{2, 4, []string{"text 1", "text 2", "text 3"}}, // the run under "Returns", not the later one
		{1, 1, []string{"text 1", "text 2"}},           // no further than reach
		{3, 4, []string{"text 3"}},                     // a subsection is its own section
		{6, 4, []string{"text 5", "text 6"}},
		{0, 4, []string{"text 0"}},
	} {
		got, err := s.SectionChunks(ctx(), a.ID, id(c.chunk), c.reach)
		if err != nil || !slices.Equal(texts(got), c.want) {
			t.Errorf("section of chunk %d within %d: %v %v, want %v", c.chunk, c.reach, err, texts(got), c.want)
		}
	}
	got, err := s.SectionChunks(ctx(), a.ID, id(2), 4)
	if err != nil || len(got) == 0 || got[0].DocID != docs[0].ID || got[0].Title != "Help" || got[0].Lang != "en" ||
		got[0].Heading != "Returns" || got[0].Tokens != 2 || got[0].URL != "https://a.test/help" {
		t.Errorf("section hits: %v %+v", err, got)
	}
	if got, err := s.SectionChunks(ctx(), b.ID, id(2), 4); err != nil || len(got) != 0 {
		t.Errorf("another account's chunk: %v %+v", err, got)
	}
}
