package crawl_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"svc/internal/crawl"
	"svc/internal/crawl/crawltest"
)

// docsArticles is what a crawl of testdata/sites/docs must store as articles: a documentation
// site in three languages with no help-centre markup (no breadcrumbs, no Article types), whose
// categories come from the URL's section and the nav's link text for it.
var docsArticles = []struct{ path, lang, slug, catSlug, catName string }{
	{"/en/docs/getting-started/install.html", "en", "install", "getting-started", "Getting started"},
	{"/en/docs/getting-started/first-note.html", "en", "first-note", "getting-started", "Getting started"},
	{"/en/docs/sync/set-up-sync.html", "en", "set-up-sync", "sync", "Sync & backup"},
	{"/en/docs/sync/resolve-conflicts.html", "en", "resolve-conflicts", "sync", "Sync & backup"},
	{"/en/sharing/permissions.html", "en", "permissions", "sharing", "Sharing & teams"},
	{"/en/faq/", "en", "faq", "faq", "FAQ"},
	{"/en/docs/glossary/notebook.html", "en", "notebook", "glossary", "Glossary"},
	{"/en/docs/glossary/tag.html", "en", "tag", "glossary", "Glossary"},
	{"/en/docs/glossary/account.html", "en", "account", "glossary", "Glossary"},
	{"/de/doku/erste-schritte/installieren.html", "de", "installieren", "erste-schritte", "Erste Schritte"},
	{"/de/doku/erste-schritte/erste-notiz.html", "de", "erste-notiz", "erste-schritte", "Erste Schritte"},
	{"/de/doku/synchronisierung/einrichten.html", "de", "einrichten", "synchronisierung", "Synchronisierung & Sicherung"},
	{"/de/doku/synchronisierung/konflikte.html", "de", "konflikte", "synchronisierung", "Synchronisierung & Sicherung"},
	{"/de/teilen/berechtigungen.html", "de", "berechtigungen", "teilen", "Teilen & Teams"},
	{"/de/faq/", "de", "faq", "faq", "Häufige Fragen"},
	{"/tr/belgeler/baslarken/kurulum.html", "tr", "kurulum", "baslarken", "Başlarken"},
	{"/tr/belgeler/baslarken/ilk-not.html", "tr", "ilk-not", "baslarken", "Başlarken"},
	{"/tr/belgeler/esitleme/esitlemeyi-acma.html", "tr", "esitlemeyi-acma", "esitleme", "Eşitleme ve yedekleme"},
	{"/tr/belgeler/esitleme/cakismalar.html", "tr", "cakismalar", "esitleme", "Eşitleme ve yedekleme"},
	{"/tr/paylasim/izinler.html", "tr", "izinler", "paylasim", "Paylaşım ve ekipler"},
	{"/tr/sss/", "tr", "sss", "sss", "Sıkça sorulan sorular"},
}

// docsNotArticles are pages of the docs site that must not become articles: home pages,
// section indexes (lists of links, and the glossary's index, whose summaries are prose),
// contact and legal pages (the privacy policy is long structured text, but a legal page),
// and the Turkish edition's untranslated copy of an English guide.
var docsNotArticles = []string{
	"/", "/en/", "/de/", "/tr/", "/en/docs/", "/en/docs/sync/", "/de/doku/erste-schritte/", "/tr/belgeler/",
	"/en/contact/", "/de/kontakt/", "/tr/iletisim/", "/en/legal/privacy/", "/de/rechtliches/datenschutz/",
	"/tr/yasal/gizlilik/", "/en/docs/glossary/", "/tr/belgeler/baslarken/komut-satiri.html",
}

func TestDocsSiteArticles(t *testing.T) {
	t.Parallel()
	site := crawltest.Serve(t, filepath.Join("testdata", "sites", "docs"))
	e := newEnv(t, site.URL+"/")
	res := e.crawl(t, crawl.Options{})
	if !res.Complete || res.Errors != 0 {
		t.Fatalf("crawl incomplete or failing: %+v", res)
	}
	first := e.docs(t)
	checkDocsArticles(t, site.URL, first)

	// A re-crawl of the unchanged site keeps every article as it was: one document per page,
	// the same slug and category.
	res = e.crawl(t, crawl.Options{})
	if !res.Complete || res.Errors != 0 {
		t.Fatalf("re-crawl incomplete or failing: %+v", res)
	}
	again := e.docs(t)
	checkDocsArticles(t, site.URL, again)
	if len(again) != len(first) {
		t.Errorf("re-crawl changed the document count: %d then %d", len(first), len(again))
	}
	was := map[string]string{}
	for _, d := range first {
		was[d.URL] = d.Type + " " + d.Slug
	}
	for _, d := range again {
		if w := was[d.URL]; d.Type == "article" && w != d.Type+" "+d.Slug {
			t.Errorf("%s: %q after the re-crawl, %q before", d.URL, d.Type+" "+d.Slug, w)
		}
	}
}

func checkDocsArticles(t *testing.T, base string, ds []doc) {
	t.Helper()
	urls := byURL(ds)
	articles := 0
	for _, d := range ds {
		if d.Type == "article" {
			articles++
		}
	}
	if articles != len(docsArticles) {
		var got []string
		for _, d := range ds {
			if d.Type == "article" {
				got = append(got, strings.TrimPrefix(d.URL, base))
			}
		}
		t.Errorf("%d articles, want %d: %v", articles, len(docsArticles), got)
	}
	for _, w := range docsArticles {
		got := urls[base+w.path]
		i := slices.IndexFunc(got, func(d doc) bool { return d.Type == "article" })
		if i < 0 {
			t.Errorf("%s: not an article: %+v", w.path, got)
			continue
		}
		a := got[i]
		// The slug is the page's own, with the language added when another language's page
		// took it first (crawl order decides which): slugs are unique in the account.
		if a.Lang != w.lang || (a.Slug != w.slug && a.Slug != w.slug+"-"+w.lang) || a.CategorySlug != w.catSlug ||
			a.CategoryName != w.catName {
			t.Errorf("%s: got lang %s slug %q category %q %q, want %s %q %q %q", w.path, a.Lang, a.Slug,
				a.CategorySlug, a.CategoryName, w.lang, w.slug, w.catSlug, w.catName)
		}
	}
	slugs := map[string]string{}
	for _, d := range ds {
		if d.Type == "article" {
			if other, dup := slugs[d.Slug]; dup {
				t.Errorf("slug %q of %s and %s", d.Slug, other, d.URL)
			}
			slugs[d.Slug] = d.URL
		}
	}
	for _, p := range docsNotArticles {
		for _, d := range urls[base+p] {
			if d.Type == "article" {
				t.Errorf("%s became an article (%q)", p, d.Title)
			}
		}
	}
}
