package dashboard_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"svc/internal/crawl/crawltest"
	"svc/internal/embedding/embedtest"
)

// TestKBInTheBrowser drives the knowledge-base pages in Chromium, under the real CSP: the
// progress display polls by itself (htmx) until the crawl has finished, and axe-core finds
// nothing serious on the kb pages. It skips where Chromium or axe-core is missing.
func TestKBInTheBrowser(t *testing.T) {
	t.Parallel()
	bctx := uiStart(t)
	src := uiAxeSource(t)
	// With an embedding provider, so that the overview carries the embedding status line
	// and axe checks it too.
	h := newHarness(t, withEmbedding(embedtest.Start(t, embedtest.Options{}), 0))
	a, _, email, pw := h.tenant("Browser Shop")
	web := crawltest.Serve(t, kbWriteSite(t, kbTrailSite))
	u := uiOpen(t, bctx, h.srv.URL)

	u.open("/dashboard/login")
	u.fill("#email", email)
	u.fill("#password", pw)
	u.navigatesBy("sign in", func() { u.click("sign in", `form[action="/dashboard/login"] button[type="submit"]`) })

	if st := u.open("/dashboard/kb"); st != http.StatusOK {
		t.Fatalf("kb page: HTTP %d", st)
	}
	if txt := u.text("#kb-embedding"); !strings.Contains(txt, "passages are embedded with concepts-test") {
		t.Errorf("embedding status line: %q", txt)
	}
	u.fill(`#site-url`, web.URL+"/")
	u.navigatesBy("add the site", func() { u.click("add the site", `form[action="/dashboard/kb/sites"] button[type="submit"]`) })
	u.navigatesBy("crawl now", func() {
		u.click("crawl now", `form[action^="/dashboard/kb/sites/"][action$="/crawl"] button[type="submit"]`)
	})
	// No reload from here on: htmx polls the fragment in place until the crawl is done.
	u.js(`window.__kbSamePage = true`)
	u.wait("the progress display", `document.querySelector('.kb-progress[data-state]')`)
	deadline := time.Now().Add(60 * time.Second)
	for !u.poll(`document.querySelector('.kb-progress[data-state="finished"]')`, 5*time.Second) {
		if time.Now().After(deadline) {
			t.Fatalf("the crawl did not finish in the page: %q", u.text(".kb-live"))
		}
	}
	if !uiMust[bool](u, `window.__kbSamePage === true`) {
		t.Error("the page reloaded instead of polling")
	}
	if txt := u.text(".kb-progress"); !strings.Contains(txt, "Pages: 3") {
		t.Errorf("finished display: %q", txt)
	}

	doc := h.kbDocs(a.ID, "page", "Delivery times")
	pages := []string{"/dashboard/kb", "/dashboard/kb/documents", "/dashboard/kb/documents?type=product",
		"/dashboard/kb/qa", "/dashboard/kb/qa/new", "/dashboard/kb/import"}
	if len(doc) > 0 {
		pages = append(pages, "/dashboard/kb/documents/"+itoa(int(doc[0].ID)))
	}
	for _, p := range pages {
		if st := u.open(p); st != http.StatusOK {
			t.Errorf("%s: HTTP %d", p, st)
			continue
		}
		vs, err := u.axe(src)
		if err != nil {
			t.Errorf("%s: axe: %v", p, err)
			continue
		}
		for _, v := range vs {
			if v.serious() {
				t.Errorf("%s: %s", p, v)
			} else {
				t.Logf("%s: minor: %s", p, v)
			}
		}
	}
}
