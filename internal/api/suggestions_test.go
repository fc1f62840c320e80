package api_test

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"svc/internal/account"
	"svc/internal/crawl"
	"svc/internal/crawl/crawltest"
	"svc/internal/lang"
	"svc/internal/store"
)

// suggestionsBody is the suggestions payload as a client reads it.
type suggestionsBody struct {
	Articles []struct {
		ID           int64  `json:"id"`
		Slug         string `json:"slug"`
		Title        string `json:"title"`
		Excerpt      string `json:"excerpt"`
		CategorySlug string `json:"category_slug"`
		CategoryName string `json:"category_name"`
	} `json:"articles"`
	Seeds []string `json:"seeds"`
}

// crawlInto crawls the test site at siteURL into the account, with the real crawler.
func crawlInto(t *testing.T, st store.Store, accountID int64, siteURL string) {
	t.Helper()
	u, err := crawl.NormalizeURL(siteURL)
	if err != nil {
		t.Fatal(err)
	}
	site := store.Site{AccountID: accountID, URL: u.String(), Host: crawl.BaseHost(u.Hostname()), Name: "docs"}
	if err := st.CreateSite(context.Background(), &site); err != nil {
		t.Fatal(err)
	}
	res, err := crawl.New(st, crawl.Options{AllowPrivate: true, Timeout: 5 * time.Second},
		slog.New(slog.NewTextHandler(io.Discard, nil))).Crawl(context.Background(), site, "", nil)
	if err != nil || !res.Complete || res.Articles == 0 {
		t.Fatalf("crawl: %v %+v", err, res)
	}
}

// TestSuggestionsForADocumentationSite crawls a documentation site without help-centre markup
// (testdata/sites/docs of the crawler) and asks for suggestions in each language: articles
// in the conversation's language grouped by the site's sections, and starter questions from
// its FAQ and its question-shaped headings, never in another language.
func TestSuggestionsForADocumentationSite(t *testing.T) {
	h := newHarness(t)
	site := crawltest.Serve(t, filepath.Join("..", "crawl", "testdata", "sites", "docs"))
	sections := map[string][]string{
		"en": {"Getting started", "Sync & backup", "Sharing & teams", "FAQ", "Glossary"},
		"de": {"Erste Schritte", "Synchronisierung & Sicherung", "Teilen & Teams", "Häufige Fragen"},
		"tr": {"Başlarken", "Eşitleme ve yedekleme", "Paylaşım ve ekipler", "Sıkça sorulan sorular"},
	}
	// The FAQ's first question opens the seeds (FAQPage entries on the German site, plain h3
	// questions on the others), and the guides' question headings follow, "Etiket nasıl
	// eklenir" with its question mark added.
	firstSeed := map[string]string{"en": "Is Pusula Notes free?", "de": "Ist Pusula Notes kostenlos?",
		"tr": "Pusula Notlar ücretsiz mi?"}
	guideSeeds := map[string][]string{
		"en": {"How do I install Pusula on Windows?", "How do I add tags?", "What does sync do?", "Why do conflicts happen?",
			"Who can see a shared notebook?"},
		"de": {"Wie installiere ich Pusula unter Windows?", "Was macht die Synchronisierung?", "Warum entstehen Konflikte?",
			"Wer kann ein geteiltes Notizbuch sehen?"},
		"tr": {"Pusula'yı Windows'a nasıl kurarım?", "Etiket nasıl eklenir?", "Eşitleme ne işe yarar?",
			"Çakışmalar neden olur?", "Paylaşılan bir defteri kimler görebilir?"},
	}
	for _, lg := range []string{"en", "de", "tr"} {
		a, key, err := h.accounts.Create(context.Background(), account.Settings{Name: ptr("Pusula " + lg), Lang: ptr(lg)})
		if err != nil {
			t.Fatal(err)
		}
		crawlInto(t, h.st, a.ID, site.URL+"/")
		var sg suggestionsBody
		h.get("/api/v1/chat/suggestions", key).decode(t, &sg)
		t.Logf("%s: %d articles, seeds %q", lg, len(sg.Articles), sg.Seeds)

		if len(sg.Articles) < 6 {
			t.Errorf("%s: %d articles, want the site's documentation pages", lg, len(sg.Articles))
		}
		var order []string
		for _, art := range sg.Articles {
			if !slices.Contains(sections[lg], art.CategoryName) || art.CategorySlug == "" || art.Slug == "" {
				t.Errorf("%s: article %q in category %q/%q, not one of the site's %s sections", lg, art.Title,
					art.CategorySlug, art.CategoryName, lg)
			}
			if got, _ := lang.Detect(art.Title + ". " + art.Excerpt); got != lg {
				t.Errorf("%s: article %q reads as %s", lg, art.Title, got)
			}
			if n := len(order); n == 0 || order[n-1] != art.CategoryName {
				if slices.Contains(order, art.CategoryName) {
					t.Errorf("%s: articles not grouped by section: %q again after %q", lg, art.CategoryName, order)
				}
				order = append(order, art.CategoryName)
			}
		}
		if len(order) < 3 {
			t.Errorf("%s: sections %q, want the site's sections represented", lg, order)
		}

		if len(sg.Seeds) == 0 || len(sg.Seeds) > 6 {
			t.Errorf("%s: %d seeds", lg, len(sg.Seeds))
		}
		if len(sg.Seeds) > 0 && sg.Seeds[0] != firstSeed[lg] {
			t.Errorf("%s: seeds %q, want the FAQ's %q first", lg, sg.Seeds, firstSeed[lg])
		}
		if !slices.ContainsFunc(sg.Seeds, func(s string) bool { return slices.Contains(guideSeeds[lg], s) }) {
			t.Errorf("%s: no seed from the guides' headings in %q", lg, sg.Seeds)
		}
		for _, s := range sg.Seeds {
			if got, _ := lang.Detect(s); got != lg {
				t.Errorf("%s: seed %q reads as %s", lg, s, got)
			}
			if !strings.HasSuffix(s, "?") {
				t.Errorf("%s: seed %q is no question", lg, s)
			}
		}
	}
}

// TestSuggestionsInTheConversationLanguage: the demo KB has articles in tr, en and de; an
// English conversation lists only English ones, a German one only German ones. A
// conversation in a language the KB has no article in lists the account's language's
// articles and no starter question of another language.
func TestSuggestionsInTheConversationLanguage(t *testing.T) {
	h := newHarness(t)
	for _, lg := range []string{"en", "de", "tr"} {
		_, key := h.tenant(account.Settings{Lang: ptr(lg)})
		var sg suggestionsBody
		h.get("/api/v1/chat/suggestions", key).decode(t, &sg)
		if len(sg.Articles) == 0 || len(sg.Seeds) == 0 {
			t.Fatalf("%s: %+v", lg, sg)
		}
		for _, art := range sg.Articles {
			if got, _ := lang.Detect(art.Title + ". " + art.Excerpt); got != lg {
				t.Errorf("%s conversation lists the %s article %q", lg, got, art.Title)
			}
		}
		for _, s := range sg.Seeds {
			if got, _ := lang.Detect(s); got != lg {
				t.Errorf("%s conversation offers the %s seed %q", lg, got, s)
			}
		}
	}

	// Only English articles; the conversation is German.
	a, key, err := h.accounts.Create(context.Background(), account.Settings{Name: ptr("English only"), Lang: ptr("en")})
	if err != nil {
		t.Fatal(err)
	}
	art := store.Document{Type: store.DocArticle, Title: "Returns", Body: "You can return any item within 30 days.",
		Lang: "en", Hash: "r", Article: &store.ArticleMeta{Slug: "returns", Excerpt: "You can return any item."},
		Chunks: []store.Chunk{{Heading: "How do I return an item?", Text: "You can return any item within 30 days.", Terms: "return"}}}
	if _, err := h.st.ImportDocuments(context.Background(), a.ID, []store.Document{art}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.st.OpenConversation(context.Background(), a.ID, "de"); err != nil {
		t.Fatal(err)
	}
	var sg suggestionsBody
	h.get("/api/v1/chat/suggestions", key).decode(t, &sg)
	if len(sg.Articles) != 1 || sg.Articles[0].Slug != "returns" || len(sg.Seeds) != 0 {
		t.Fatalf("German conversation, English KB: %+v", sg)
	}
}
