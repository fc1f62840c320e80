package crawl_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"svc/internal/crawl"
	"svc/internal/store"
)

// The scheduler inside serve crawls sites that were never crawled or whose last crawl is
// older than the interval, and leaves alone a site another process is crawling.
func TestSchedulerRecrawlsDueSites(t *testing.T) {
	hits := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/" {
			hits++
		}
		fmt.Fprint(w, page("Home", "Opening hours: Monday to Friday, 9 to 18.", ""))
	}))
	defer srv.Close()
	e := newEnv(t, srv.URL)
	ctx := context.Background()
	c := crawl.New(e.st, crawl.Options{AllowPrivate: true}, quiet())
	s := crawl.NewScheduler(c, e.st, time.Hour, quiet())

	if n := s.RunOnce(ctx); n != 1 || hits != 1 {
		t.Fatalf("never-crawled site: crawled %d, hits %d", n, hits)
	}
	if n := s.RunOnce(ctx); n != 0 || hits != 1 {
		t.Fatalf("fresh site re-crawled: %d, hits %d", n, hits)
	}
	site, _ := e.st.GetSite(ctx, e.acct.ID, e.site.ID)
	if site.LastCrawlAt.IsZero() || site.LastCrawl == "" {
		t.Fatalf("last crawl not recorded: %+v", site)
	}

	// Another process holds the lease: the scheduler skips the site.
	other := store.Site{AccountID: e.acct.ID, URL: srv.URL + "/other/", Host: e.site.Host}
	if err := e.st.CreateSite(ctx, &other); err != nil {
		t.Fatal(err)
	}
	if ok, err := e.st.ClaimSite(ctx, e.acct.ID, other.ID, time.Now().Add(time.Hour)); !ok || err != nil {
		t.Fatal(ok, err)
	}
	if n := s.RunOnce(ctx); n != 0 {
		t.Fatalf("crawled a leased site")
	}
	if _, err := c.Crawl(ctx, other, "", nil); err != crawl.ErrBusy {
		t.Fatalf("crawl of a leased site: %v", err)
	}
}
