package dashboard_test

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"svc/internal/config"
	"svc/internal/store"
)

func TestKBOverviewShowsCountsSitesAndTheSchedule(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, _, email, pw := h.tenant("Shop")
	site := h.kbSite(a.ID, "https://shop.example/")
	b := h.kbOwner(email, pw)
	p := b.get("/dashboard/kb")
	kbMustStatus(t, "overview", p, http.StatusOK)
	c := h.kbCounts(a.ID)
	mustContain(t, p.Body,
		`<a href="/dashboard/kb" aria-current="page">Overview</a>`,
		fmt.Sprintf(`<span class="label">Pages</span> <span class="value">%d</span>`, c[store.DocPage]),
		fmt.Sprintf(`<span class="label">Products</span> <span class="value">%d</span>`, c[store.DocProduct]),
		fmt.Sprintf(`<span class="label">Q&amp;A entries</span> <span class="value">%d</span>`, c[store.DocQA]),
		"69 documents in all.",
		`id="site-`+strconv.FormatInt(site.ID, 10)+`"`, "https://shop.example/", "Never crawled", "Soon (first crawl)",
		"crawled again automatically 24 hours after its last crawl",
		`action="/dashboard/kb/sites/`+strconv.FormatInt(site.ID, 10)+`/crawl"`, `action="/dashboard/kb/sites"`,
		`<a href="/dashboard/kb/import">Import</a>`)

	// A site with a finished crawl shows its figures and its next crawl.
	summary := `{"site_id":1,"pages":12,"products":3,"articles":2,"qa":0,"skipped":4,"complete":false,"stopped":"max_pages"}`
	last := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	if err := h.st.ReleaseSite(t.Context(), a.ID, site.ID, last, summary); err != nil {
		t.Fatal(err)
	}
	p = b.get("/dashboard/kb")
	mustContain(t, p.Body, "2026-03-01 10:00 UTC", "Pages: 12, products: 3, articles: 2, skipped: 4",
		"stopped at the page limit")
	// The next crawl is a day after the last (harness default interval), or due if that passed.
	if time.Now().After(last.Add(h.cfg.CrawlInterval)) {
		mustContain(t, p.Body, "Due now")
	} else {
		mustContain(t, p.Body, "2026-03-02 10:00 UTC")
	}
}

func TestKBDocumentsBrowseByTypeSearchAndPage(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, _, email, pw := h.tenant("Shop")
	b := h.kbOwner(email, pw)

	p := b.get("/dashboard/kb/documents")
	kbMustStatus(t, "documents", p, http.StatusOK)
	c := h.kbCounts(a.ID)
	mustContain(t, p.Body, `aria-current="page">All <span class="badge">69</span>`,
		fmt.Sprintf(`Products <span class="badge">%d</span>`, c[store.DocProduct]),
		"69 documents match.", `<th scope="col">Title</th>`, `aria-label="Page 2"`, `aria-current="page">1</a>`,
		"Page 1 of 3")
	if n := strings.Count(p.Body, `<th scope="row"><a href="/dashboard/kb/documents/`); n != 25 {
		t.Errorf("first page lists %d documents, want 25", n)
	}
	p = b.get("/dashboard/kb/documents?page=3")
	if n := strings.Count(p.Body, `<th scope="row"><a href="/dashboard/kb/documents/`); n != 69-50 {
		t.Errorf("last page lists %d documents, want 19", n)
	}
	mustContain(t, p.Body, `aria-current="page">3</a>`, "Page 3 of 3")

	// Products show name, price and category; the type tab is current.
	p = b.get("/dashboard/kb/documents?type=product&lang=tr")
	mustContain(t, p.Body, `href="/dashboard/kb/documents?lang=tr&amp;type=product" aria-current="page">Products`,
		"Kaçkar Pro Trekking Botu", "<strong>4.290,00 TL</strong> · Ayakkabı", "6 documents match.")
	// Articles show their category.
	p = b.get("/dashboard/kb/documents?type=article&lang=en")
	var article store.DocumentRow
	for _, row := range h.kbDocs(a.ID, store.DocArticle, "") {
		if row.Lang == "en" && row.Article != nil && row.Article.CategoryName != "" {
			mustContain(t, p.Body, row.Article.CategoryName)
			article = row
		}
	}
	if article.ID == 0 {
		t.Fatal("the demo KB has no English article with a category")
	}
	// An article's page shows its category too.
	p = b.get("/dashboard/kb/documents/" + strconv.FormatInt(article.ID, 10))
	mustContain(t, p.Body, "Help-centre article", article.Article.CategoryName, "<code>"+article.Article.Slug+"</code>")
	// Search narrows the list; the filters stay in the form and the type links.
	p = b.get("/dashboard/kb/documents?q=" + url.QueryEscape("Kaçkar Pro") + "&lang=tr")
	mustContain(t, p.Body, "Kaçkar Pro Trekking Botu", `value="Kaçkar Pro"`, `<option value="tr" selected>`)
	if strings.Contains(p.Body, "Aladağ 35") {
		t.Error("search kept a document that does not match")
	}

	// A product's page shows its card; its URL is a link.
	prod := h.kbDocs(a.ID, store.DocProduct, "Kaçkar Pro Trekking Botu")[0]
	p = b.get("/dashboard/kb/documents/" + strconv.FormatInt(prod.ID, 10))
	kbMustStatus(t, "document", p, http.StatusOK)
	mustContain(t, p.Body, "<h2 id=\"doc-title\">Kaçkar Pro Trekking Botu</h2>", "Product card", "4.290,00 TL", "Ayakkabı",
		`<a href="https://yolcu-outdoor.example/tr/urun/kackar-pro-trekking-botu"`, "Türkçe", "Remove document",
		`data-confirm="Remove this document`)
}

func TestKBOwnerRemovesADocument(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, _, email, pw := h.tenant("Shop")
	b := h.kbOwner(email, pw)
	doc := h.kbDocs(a.ID, store.DocPage, "")[0]
	path := "/dashboard/kb/documents/" + strconv.FormatInt(doc.ID, 10)
	p := b.post(path+"/delete", url.Values{})
	mustContain(t, b.kbFollow(p).Body, "Document removed.")
	if p := b.get(path); p.Status != http.StatusNotFound {
		t.Errorf("removed document: %d", p.Status)
	}
	if n := h.kbCounts(a.ID); n[store.DocPage] != 23 {
		t.Errorf("pages after removal: %d", n[store.DocPage])
	}
}

func TestKBAgentBrowsesAndKeepsQAButCannotChangeTheRest(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, _, _, _ := h.tenant("Shop")
	site := h.kbSite(a.ID, "https://shop.example/")
	email, pw := h.user(a.ID, store.UserAgent)
	b := h.browser()
	b.signIn(email, pw)
	doc := h.kbDocs(a.ID, store.DocPage, "")[0]
	docPath := "/dashboard/kb/documents/" + strconv.FormatInt(doc.ID, 10)
	sitePath := "/dashboard/kb/sites/" + strconv.FormatInt(site.ID, 10)

	for _, path := range []string{"/dashboard/kb", "/dashboard/kb/documents", docPath, "/dashboard/kb/qa", "/dashboard/kb/qa/new"} {
		p := b.get(path)
		kbMustStatus(t, path, p, http.StatusOK)
		for _, hidden := range []string{`action="/dashboard/kb/sites"`, "/crawl\"", "Remove document", `href="/dashboard/kb/import"`} {
			if strings.Contains(p.Body, hidden) {
				t.Errorf("agent sees %q on %s", hidden, path)
			}
		}
	}
	if p := b.get("/dashboard/kb/import"); p.Status != http.StatusForbidden {
		t.Errorf("agent GET import: %d", p.Status)
	}
	before := h.kbCounts(a.ID)
	for path, form := range map[string]url.Values{
		"/dashboard/kb/sites":  {"url": {"https://other.example/"}},
		sitePath + "/crawl":    {},
		docPath + "/delete":    {},
		"/dashboard/kb/import": {},
	} {
		if p := b.post(path, form); p.Status != http.StatusForbidden {
			t.Errorf("agent POST %s: %d, want 403", path, p.Status)
		}
	}
	if p := b.kbUpload("/dashboard/kb/import", "file", "kb.jsonl", []byte(`{"type":"qa","question":"Q?","answer":"A.","lang":"en"}`), nil); p.Status != http.StatusForbidden {
		t.Errorf("agent upload: %d", p.Status)
	}
	if after := h.kbCounts(a.ID); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Errorf("the agent changed the KB: %v -> %v", before, after)
	}
	sites, _ := h.st.ListSites(t.Context(), a.ID)
	if len(sites) != 1 {
		t.Errorf("the agent added a site: %d sites", len(sites))
	}

	// Curated Q&A is the agents' too.
	p := b.post("/dashboard/kb/qa", url.Values{"question": {"Do you engrave knives?"}, "answer": {"Yes, for 5 €."}, "lang": {"en"}})
	mustContain(t, b.kbFollow(p).Body, "Q&amp;A entry created.", "Do you engrave knives?")
	qa := h.kbDocs(a.ID, store.DocQA, "Do you engrave knives?")
	if len(qa) != 1 {
		t.Fatalf("created entries: %d", len(qa))
	}
	id := strconv.FormatInt(qa[0].ID, 10)
	kbMustStatus(t, "agent edit page", b.get("/dashboard/kb/qa/"+id+"/edit"), http.StatusOK)
	p = b.post("/dashboard/kb/qa/"+id, url.Values{"question": {"Do you engrave knives?"}, "answer": {"Yes, for 6 €."}, "lang": {"en"}})
	mustContain(t, b.kbFollow(p).Body, "Q&amp;A entry saved.")
	p = b.post("/dashboard/kb/qa/"+id+"/delete", url.Values{})
	mustContain(t, b.kbFollow(p).Body, "Q&amp;A entry deleted.")
	if len(h.kbDocs(a.ID, store.DocQA, "Do you engrave knives?")) != 0 {
		t.Error("the agent's delete did not delete")
	}
}

func TestKBAnotherAccountsIDsAreNotFound(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	_, _, email, pw := h.tenant("Mine")
	other, _, _, _ := h.tenant("Theirs")
	theirSite := h.kbSite(other.ID, "https://theirs.example/")
	theirDoc := h.kbDocs(other.ID, store.DocPage, "")[0]
	theirQA := h.kbDocs(other.ID, store.DocQA, "")[0]
	b := h.kbOwner(email, pw)
	site, doc, qa := strconv.FormatInt(theirSite.ID, 10), strconv.FormatInt(theirDoc.ID, 10), strconv.FormatInt(theirQA.ID, 10)
	qaForm := url.Values{"question": {"Hijack?"}, "answer": {"No."}, "lang": {"en"}}

	gets := []string{
		"/dashboard/kb/documents/" + doc, "/dashboard/kb/documents/" + qa, "/dashboard/kb/qa/" + qa + "/edit",
		"/dashboard/kb/documents?site=" + site, "/dashboard/kb/sites/" + site + "/progress",
		"/dashboard/kb/documents/999999999", "/dashboard/kb/documents/abc",
	}
	for _, path := range gets {
		if p := b.get(path); p.Status != http.StatusNotFound {
			t.Errorf("GET %s: %d", path, p.Status)
		}
	}
	// htmx's own request gets the error as a fragment (renderError's choice of status);
	// either way it tells nothing of the other account's site.
	if p := b.hxGet("/dashboard/kb/sites/" + site + "/progress"); strings.Contains(p.Body, "data-state") {
		t.Errorf("htmx progress of their site: %d %s", p.Status, p.Body)
	}
	posts := map[string]url.Values{
		"/dashboard/kb/documents/" + doc + "/delete": {},
		"/dashboard/kb/documents/" + qa + "/delete":  {},
		"/dashboard/kb/sites/" + site + "/crawl":     {},
		"/dashboard/kb/qa/" + qa:                     qaForm,
		"/dashboard/kb/qa/" + qa + "/delete":         {},
	}
	for path, form := range posts {
		if p := b.post(path, form); p.Status != http.StatusNotFound {
			t.Errorf("POST %s: %d", path, p.Status)
		}
	}
	p := b.kbUpload("/dashboard/kb/import", "file", "kb.jsonl", []byte(`{"type":"qa","question":"Q?","answer":"A.","lang":"en"}`),
		url.Values{"site": {site}})
	if p.Status != http.StatusNotFound {
		t.Errorf("import into their site: %d", p.Status)
	}
	if n := h.kbCounts(other.ID); n[store.DocPage] != 24 || n[store.DocQA] != 18 {
		t.Errorf("their KB changed: %v", n)
	}
	if d, err := h.st.GetDocument(t.Context(), other.ID, theirQA.ID); err != nil || d.Title != theirQA.Title {
		t.Errorf("their entry changed: %v %q", err, d.Title)
	}
}

// Every kb page renders in each language without a missing catalog key.
func TestKBPagesHaveEveryTextInEveryLanguage(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, _, email, pw := h.tenant("Shop")
	h.kbSite(a.ID, "https://shop.example/")
	b := h.kbOwner(email, pw)
	doc := h.kbDocs(a.ID, store.DocProduct, "")[0]
	article := h.kbDocs(a.ID, store.DocArticle, "")[0]
	qa := h.kbDocs(a.ID, store.DocQA, "")[0]
	key := regexp.MustCompile(`\b(kb|flash|lang|pager)\.[a-z_]+`)
	for _, lang := range []string{"en", "tr", "de"} {
		if p := b.post("/dashboard/profile/lang", url.Values{"lang": {lang}, "back": {"/dashboard/kb"}}); p.Status != http.StatusSeeOther {
			t.Fatalf("set lang %s: %d", lang, p.Status)
		}
		for _, path := range []string{"/dashboard/kb", "/dashboard/kb/documents?type=product", "/dashboard/kb/documents?type=article",
			"/dashboard/kb/documents/" + strconv.FormatInt(doc.ID, 10), "/dashboard/kb/documents/" + strconv.FormatInt(article.ID, 10),
			"/dashboard/kb/qa",
			"/dashboard/kb/qa/new", "/dashboard/kb/qa/" + strconv.FormatInt(qa.ID, 10) + "/edit", "/dashboard/kb/import"} {
			p := b.get(path)
			kbMustStatus(t, lang+" "+path, p, http.StatusOK)
			for _, m := range key.FindAllString(p.Body, -1) {
				if m != "kb.css" {
					t.Errorf("%s %s: untranslated %q", lang, path, m)
				}
			}
			if !strings.Contains(p.Body, `<html lang="`+lang+`">`) {
				t.Errorf("%s %s: page not in %s", lang, path, lang)
			}
		}
	}
}

func TestKBAddSiteIsValidatedLikeTheCommandLine(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, _, email, pw := h.tenant("Shop")
	b := h.kbOwner(email, pw)
	for _, bad := range []string{"shop.example", "ftp://shop.example/", "https://user:secret@shop.example/"} {
		p := b.post("/dashboard/kb/sites", url.Values{"url": {bad}, "name": {"Mine"}})
		kbMustStatus(t, bad, p, http.StatusBadRequest)
		mustContain(t, p.Body, "The site&#39;s address", `aria-invalid="true"`, `value="Mine"`)
	}
	p := b.post("/dashboard/kb/sites", url.Values{"url": {"https://shop.example/"}, "name": {strings.Repeat("n", 201)}})
	kbMustStatus(t, "long name", p, http.StatusBadRequest)
	mustContain(t, p.Body, "The site&#39;s name may be at most 200 characters.")
	if sites, _ := h.st.ListSites(t.Context(), a.ID); len(sites) != 0 {
		t.Errorf("refused sites were stored: %+v", sites)
	}
	// Without a name the host names the site.
	b.kbFollow(b.post("/dashboard/kb/sites", url.Values{"url": {"HTTPS://Shop.Example"}}))
	if sites, _ := h.st.ListSites(t.Context(), a.ID); len(sites) != 1 || sites[0].URL != "https://shop.example/" || sites[0].Name != "shop.example" {
		t.Errorf("sites: %+v", sites)
	}
}

// "Add website" refuses an address the crawler would refuse, with the reason and before
// anything is stored, where private addresses are not allowed (as served by default); a
// cloud metadata endpoint is refused even where they are. Before, every one was stored, and
// "Crawl now" then reported "skipped: 1" without a reason. A site stored before keeps its
// reason at "Crawl now".
func TestKBAddSiteRefusesPrivateAddressesBeforeStoring(t *testing.T) {
	t.Parallel()
	h := newHarness(t, withConfig(func(c *config.Config) { c.CrawlAllowPrivate = false }))
	a, _, email, pw := h.tenant("Shop")
	b := h.kbOwner(email, pw)
	b.lang = "en"
	for bad, reason := range map[string]string{
		"http://127.0.0.1:8080/":                              "127.0.0.1 is loopback",
		"http://localhost:8080/":                              "loopback",
		"http://[::1]:8080/":                                  "::1 is loopback",
		"http://0.0.0.0/":                                     "this network",
		"http://169.254.169.254/":                             "cloud metadata",
		"http://[::ffff:127.0.0.1]/":                          "loopback",
		"http://2130706433/":                                  "127.0.0.1 is loopback",
		"http://metadata.google.internal/computeMetadata/v1/": "metadata",
	} {
		p := b.post("/dashboard/kb/sites", url.Values{"url": {bad}, "name": {"Mine"}})
		kbMustStatus(t, bad, p, http.StatusBadRequest)
		mustContain(t, p.Body, "is refused: ", reason, `aria-invalid="true"`, `value="Mine"`)
	}
	if sites, _ := h.st.ListSites(t.Context(), a.ID); len(sites) != 0 {
		t.Errorf("refused sites were stored: %+v", sites)
	}
	// Where private addresses are allowed (an intranet, the tests' own sites), only the
	// metadata endpoint is still refused.
	open := newHarness(t)
	_, _, email, pw = open.tenant("Intranet")
	ob := open.kbOwner(email, pw)
	kbMustStatus(t, "metadata with private allowed", ob.post("/dashboard/kb/sites", url.Values{"url": {"http://169.254.169.254/"}}), http.StatusBadRequest)
	kbMustStatus(t, "loopback with private allowed", ob.post("/dashboard/kb/sites", url.Values{"url": {"http://127.0.0.1:9/"}}), http.StatusSeeOther)

	// A site stored before the check: "Crawl now" says why instead of crawling it.
	old := h.kbSite(a.ID, "http://127.0.0.1:9/")
	p := b.post("/dashboard/kb/sites/"+strconv.FormatInt(old.ID, 10)+"/crawl", nil)
	kbMustStatus(t, "crawl now", p, http.StatusBadRequest)
	mustContain(t, p.Body, "127.0.0.1 is loopback")
}
