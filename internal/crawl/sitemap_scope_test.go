package crawl_test

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"svc/internal/crawl"
)

// otherHost serves h on a loopback host other than the site's: 127.0.0.2 where the system
// routes it (Linux does), else another port of 127.0.0.1, which the scope also treats as
// another site.
func otherHost(t *testing.T, h http.Handler) *httptest.Server {
	t.Helper()
	srv := httptest.NewUnstartedServer(h)
	if ln, err := net.Listen("tcp", "127.0.0.2:0"); err == nil {
		srv.Listener.Close()
		srv.Listener = ln
	}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv
}

// hitLog records the paths a server was asked for.
type hitLog struct {
	mu    sync.Mutex
	paths []string
}

func (h *hitLog) add(p string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.paths = append(h.paths, p)
}

func (h *hitLog) all() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.paths...)
}

// A robots.txt may name sitemaps anywhere, and a sitemap index may point anywhere; the crawler
// stays on the site's host and subdomains (README), so a sitemap on another host (here
// another loopback address, reachable under AllowPrivate) is never fetched, from robots.txt
// or from an index.
func TestSitemapsOnOtherHostsAreNotFetched(t *testing.T) {
	t.Parallel()
	var foreign hitLog
	other := otherHost(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		foreign.add(r.URL.Path)
		w.Header().Set("Content-Type", "application/xml")
		fmt.Fprintf(w, `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>http://%s/foreign-page</loc></url></urlset>`, r.Host)
	}))

	var site *httptest.Server
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "User-agent: *\nAllow: /\nSitemap: %s/robots-sitemap.xml\nSitemap: %s/index.xml\n", other.URL, site.URL)
	})
	mux.HandleFunc("/index.xml", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/xml")
		fmt.Fprintf(w, `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>%s/index-child.xml</loc></sitemap>
<sitemap><loc>%s/own.xml</loc></sitemap></sitemapindex>`, other.URL, site.URL)
	})
	mux.HandleFunc("/own.xml", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/xml")
		fmt.Fprintf(w, `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>%s/hidden</loc></url></urlset>`, site.URL)
	})
	mux.HandleFunc("/hidden", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, page("Returns", "Returns are free within thirty days of delivery.", ""))
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprint(w, page("Start", "Our shop sells tents and sleeping bags.", ""))
	})
	site = httptest.NewServer(mux)
	t.Cleanup(site.Close)
	if crawl.InScope(mustURL(t, site.URL), mustURL(t, other.URL)) {
		t.Fatalf("test setup: %s is in the scope of %s", other.URL, site.URL)
	}

	e := newEnv(t, site.URL)
	res := e.crawl(t, crawl.Options{MaxPages: 20})

	if got := foreign.all(); len(got) > 0 {
		t.Fatalf("the crawler fetched %v from another host %s", got, other.URL)
	}
	// The site's own sitemap, reached through its index, still seeds the crawl.
	if !strings.Contains(allText(e.docs(t)), "thirty days") {
		t.Errorf("the page listed only in the site's own sitemap was not crawled: %+v", res)
	}
}

func mustURL(t *testing.T, raw string) *url.URL {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
