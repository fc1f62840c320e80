package dashboard_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"svc/internal/crawl/crawltest"
	"svc/internal/store"
)

// kbTrailSite is a small shop site of three pages; the delivery page quotes markup as text,
// which must reach the dashboard as text.
var kbTrailSite = map[string]string{
	"index.html": `<!doctype html><html lang="en"><head><title>Trail Outfitters</title></head><body>
<main><h1>Trail Outfitters</h1>
<p>Trail Outfitters sells hiking boots, tents and backpacks for every season. Our shop in Bristol is open
from Monday to Saturday, and our team has walked every trail we recommend to our customers.</p>
<p>Read about <a href="/delivery.html">delivery</a> and about <a href="/returns.html">returns</a> before you order.</p>
</main></body></html>`,
	"delivery.html": `<!doctype html><html lang="en"><head><title>Delivery times</title></head><body>
<main><h1>Delivery times</h1>
<p>Labels once read &lt;img src=x onerror=alert(1)&gt; by mistake.</p>
<p>Orders placed before two in the afternoon leave our warehouse the same day. Delivery within the United
Kingdom takes one to three working days, and parcels to the rest of Europe arrive within a week.</p>
<p><a href="/">Home</a> · <a href="/returns.html">Returns</a></p>
</main></body></html>`,
	"returns.html": `<!doctype html><html lang="en"><head><title>Returns policy</title></head><body>
<main><h1>Returns policy</h1>
<p>You can return any unworn item within thirty days of delivery for a full refund. Pack the item in its
original box, print the prepaid label from your account and drop the parcel at any post office.</p>
<p><a href="/">Home</a> · <a href="/delivery.html">Delivery</a></p>
</main></body></html>`,
}

var kbSiteRowRE = regexp.MustCompile(`<tr id="site-(\d+)">`)

func TestKBCrawlNowRunsInTheBackgroundWithProgressAndTheDocumentsAppear(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, _, email, pw := h.tenant("Shop")
	web := crawltest.Serve(t, kbWriteSite(t, kbTrailSite))
	b := h.kbOwner(email, pw)

	// Add the site as `svc site add` would; adding it again is harmless.
	p := b.post("/dashboard/kb/sites", url.Values{"url": {web.URL}, "name": {"Trail <Outfitters>"}})
	overview := b.kbFollow(p)
	mustContain(t, overview.Body, "Website added.", "Trail &lt;Outfitters&gt;")
	mustContain(t, b.kbFollow(b.post("/dashboard/kb/sites", url.Values{"url": {web.URL + "/"}})).Body, "This website is in the list already.")
	m := kbSiteRowRE.FindStringSubmatch(overview.Body)
	if m == nil {
		t.Fatal("the new site is not listed")
	}
	siteID, _ := strconv.ParseInt(m[1], 10, 64)
	sites, _ := h.st.ListSites(t.Context(), a.ID)
	if len(sites) != 1 || sites[0].ID != siteID {
		t.Fatalf("sites: %+v", sites)
	}

	// Crawl now: the answer comes at once, the crawl goes on in the background.
	p = b.post("/dashboard/kb/sites/"+m[1]+"/crawl", url.Values{})
	if p.Status != http.StatusSeeOther || p.Header.Get("Location") != "/dashboard/kb#site-"+m[1] {
		t.Fatalf("crawl now: %d %q", p.Status, p.Header.Get("Location"))
	}
	page := b.kbFollow(p)
	mustContain(t, page.Body, "Crawl started.", `id="crawl-`+m[1]+`"`, `aria-live="polite"`)
	if strings.Contains(page.Body, `data-state="running"`) {
		// Without JavaScript the page shows the state at load and a way to see more.
		mustContain(t, page.Body, `hx-get="/dashboard/kb/sites/`+m[1]+`/progress"`, `hx-trigger="every 1s"`, "<progress",
			"Refresh to see the progress")
	}

	frag := b.kbWaitCrawl(siteID)
	mustContain(t, frag.Body, `data-state="finished"`, "Finished. Pages: 3, products: 0, articles: 0, skipped: 0.")
	if strings.Contains(frag.Body, "hx-trigger") {
		t.Error("a finished crawl's fragment still polls")
	}
	// The progress address opened without htmx leads to the overview.
	if p := b.get("/dashboard/kb/sites/" + m[1] + "/progress"); p.Status != http.StatusSeeOther {
		t.Errorf("progress without htmx: %d", p.Status)
	}

	// The lease is released with the summary, as the scheduler's crawls do.
	site, err := h.st.GetSite(t.Context(), a.ID, siteID)
	if err != nil || site.LastCrawlAt.IsZero() || !strings.Contains(site.LastCrawl, `"pages":3`) {
		t.Fatalf("site after the crawl: %v %+v", err, site)
	}
	page = b.get("/dashboard/kb")
	mustContain(t, page.Body, "Pages: 3, products: 0, articles: 0, skipped: 0", "Crawl now")

	// The documents are there, by site.
	docs := b.get("/dashboard/kb/documents?site=" + m[1])
	mustContain(t, docs.Body, "3 documents match.", "Trail Outfitters", "Delivery times", "Returns policy",
		`<option value="`+m[1]+`" selected>`)

	// Crawled text is shown as text: the quoted markup is escaped, never live.
	var delivery store.DocumentRow
	for _, d := range h.kbDocs(a.ID, store.DocPage, "Delivery times") {
		if d.SiteID == siteID {
			delivery = d
		}
	}
	if delivery.ID == 0 {
		t.Fatal("the delivery page was not stored")
	}
	for _, path := range []string{"/dashboard/kb/documents/" + strconv.FormatInt(delivery.ID, 10), "/dashboard/kb/documents?q=onerror"} {
		p := b.get(path)
		kbMustStatus(t, path, p, http.StatusOK)
		if strings.Contains(p.Body, "<img src=x") || strings.Contains(p.Body, "<img src=\"x\"") {
			t.Errorf("%s: markup from the crawled page is live", path)
		}
		mustContain(t, p.Body, "&lt;img src=x onerror=alert(1)&gt;")
	}
	mustContain(t, b.get("/dashboard/kb/documents/"+strconv.FormatInt(delivery.ID, 10)).Body,
		`<a href="`+web.URL+`/delivery.html"`, "Trail &lt;Outfitters&gt;")
}

func TestKBSecondCrawlNowWhileOneRunsSaysAlreadyCrawling(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	a, _, email, pw := h.tenant("Shop")
	// A site that answers only when the test lets it, so the first crawl is surely running.
	release := make(chan struct{})
	web := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
			return
		}
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		_, _ = w.Write([]byte(`<html lang="en"><head><title>Slow shop</title></head><body><main><h1>Slow shop</h1>
<p>The slow shop sells sturdy wooden furniture made by hand in a small workshop by the river, and it ships
every table and chair carefully wrapped in blankets to customers all over the country.</p></main></body></html>`))
	}))
	t.Cleanup(web.Close)
	released := false
	defer func() {
		if !released {
			close(release)
		}
	}()
	site := h.kbSite(a.ID, web.URL+"/")
	id := strconv.FormatInt(site.ID, 10)
	b := h.kbOwner(email, pw)

	p := b.post("/dashboard/kb/sites/"+id+"/crawl", url.Values{})
	mustContain(t, b.kbFollow(p).Body, "Crawl started.")
	p = b.post("/dashboard/kb/sites/"+id+"/crawl", url.Values{})
	if p.Status != http.StatusSeeOther {
		t.Fatalf("second crawl now: %d", p.Status)
	}
	page := b.kbFollow(p)
	mustContain(t, page.Body, "This site is being crawled already.", `data-state="running"`)
	if strings.Contains(page.Body, `action="/dashboard/kb/sites/`+id+`/crawl"`) {
		t.Error("the crawl button is offered while the crawl runs")
	}
	// A crawl elsewhere (another process) holds the lease: refused the same way.
	other := h.kbSite(a.ID, web.URL+"/other/")
	if won, err := h.st.ClaimSite(t.Context(), a.ID, other.ID, site.CreatedAt.Add(24*3600e9)); err != nil || !won {
		t.Fatalf("claim: %v %v", won, err)
	}
	p = b.post("/dashboard/kb/sites/"+strconv.FormatInt(other.ID, 10)+"/crawl", url.Values{})
	mustContain(t, b.kbFollow(p).Body, "This site is being crawled already.")

	close(release)
	released = true
	frag := b.kbWaitCrawl(site.ID)
	mustContain(t, frag.Body, `data-state="finished"`, "Finished. Pages: 1,")
}
