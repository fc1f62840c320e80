package crawl_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"svc/internal/crawl"
)

const article = `<!doctype html><html lang="en"><head><title>%s</title></head><body>
<nav><a href="/">Home</a></nav><main><h1>%s</h1><p>%s</p>%s</main><footer>© Test</footer></body></html>`

func page(title, text, extra string) string { return fmt.Sprintf(article, title, title, text, extra) }

// A site that tries every trick at once: an endless link maze, a redirect loop, a body that
// never ends, a server that drips one byte a second, and redirects to the cloud metadata
// address and to another service on loopback. The crawl must end within its limits, store
// the honest pages and never touch the forbidden targets.
func TestHostileSiteCannotHangOrExhaust(t *testing.T) {
	var secretHits atomic.Int32
	secret := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		secretHits.Add(1)
		fmt.Fprint(w, "<html><body><p>internal admin secrets</p></body></html>")
	}))
	defer secret.Close()

	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprint(w, page("Start", "Our shop sells tents and sleeping bags.",
			`<a href="/maze/1">maze</a> <a href="/loop">loop</a> <a href="/huge">huge</a> <a href="/drip">drip</a>
			 <a href="/meta">meta</a> <a href="/other">other</a> <a href="/ok">ok</a>`))
	})
	mux.HandleFunc("/ok", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, page("Delivery", "Delivery takes three working days within Germany.", ""))
	})
	mux.HandleFunc("/maze/", func(w http.ResponseWriter, r *http.Request) {
		// Every maze page links to two new ones: infinite.
		n := strings.TrimPrefix(r.URL.Path, "/maze/")
		fmt.Fprint(w, page("Maze "+n, "A room of the maze with some words in it.",
			fmt.Sprintf(`<a href="/maze/%sa">a</a> <a href="/maze/%sb">b</a>`, n, n)))
	})
	mux.HandleFunc("/loop", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop2", http.StatusFound) })
	mux.HandleFunc("/loop2", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop", http.StatusFound) })
	mux.HandleFunc("/huge", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Content-Length", fmt.Sprint(int64(2)<<30))
		chunk := []byte(strings.Repeat("<p>spam spam spam</p>", 512))
		for sent := 0; sent < 2<<30; sent += len(chunk) {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	})
	mux.HandleFunc("/drip", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		for range 60 {
			if _, err := w.Write([]byte("<")); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(time.Second):
			}
		}
	})
	mux.HandleFunc("/meta", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/", http.StatusFound)
	})
	mux.HandleFunc("/other", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, secret.URL+"/admin", http.StatusFound)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	e := newEnv(t, srv.URL)
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	began := time.Now()
	res := e.crawl(t, crawl.Options{MaxPages: 40, Timeout: 2 * time.Second, MaxBodyBytes: 1 << 20})
	took := time.Since(began)
	var after runtime.MemStats
	runtime.ReadMemStats(&after)

	if secretHits.Load() != 0 {
		t.Fatalf("a redirect reached another service on loopback %d times", secretHits.Load())
	}
	if res.Fetched > 40 {
		t.Fatalf("fetched %d pages, budget 40", res.Fetched)
	}
	for _, reason := range []string{"too_large", "redirects", "timeout", "blocked", "offsite"} {
		if res.SkippedBy[reason] == 0 {
			t.Errorf("no page skipped as %s: %+v", reason, res.SkippedBy)
		}
	}
	if res.Complete || res.Stopped != "max_pages" {
		t.Errorf("the maze should exhaust the page budget: complete=%v stopped=%q", res.Complete, res.Stopped)
	}
	// Wall time is bounded by the per-request timeout, not by the 60-second drip; allow a wide
	// margin for a loaded CI machine.
	if took > 30*time.Second {
		t.Errorf("crawl took %s", took)
	}
	if grew := int64(after.HeapAlloc) - int64(before.HeapAlloc); grew > 64<<20 {
		t.Errorf("heap grew by %d MiB during the crawl", grew>>20)
	}
	text := allText(e.docs(t))
	if !strings.Contains(text, "three working days") {
		t.Errorf("the honest page was not stored")
	}
	if strings.Contains(text, "spam spam") || strings.Contains(text, "admin secrets") {
		t.Errorf("hostile content stored")
	}
}

// Without --allow-private the crawler refuses a loopback site outright: the server never sees
// a request, not even for robots.txt.
func TestPrivateAddressesRefusedByDefault(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		fmt.Fprint(w, page("Home", "Welcome to the intranet.", ""))
	}))
	defer srv.Close()
	for _, host := range []string{srv.URL, strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)} {
		e := newEnv(t, host)
		res, err := crawl.New(e.st, crawl.Options{}, quiet()).Crawl(context.Background(), e.site, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Pages != 0 || res.SkippedBy["blocked"] == 0 {
			t.Errorf("%s: %+v", host, res)
		}
	}
	if hits.Load() != 0 {
		t.Fatalf("the loopback server got %d requests", hits.Load())
	}
}

// robots.txt's Crawl-delay spaces the requests to a host.
func TestCrawlDelayIsObeyed(t *testing.T) {
	var mu = make(chan struct{}, 1)
	var stamps []time.Time
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			fmt.Fprint(w, "User-agent: *\nCrawl-delay: 1\nDisallow: /private/\n")
			return
		}
		if r.URL.Path != "/sitemap.xml" {
			mu <- struct{}{}
			stamps = append(stamps, time.Now())
			<-mu
		}
		switch r.URL.Path {
		case "/":
			fmt.Fprint(w, page("Home", "Welcome to our shop for tea.", `<a href="/a">a</a><a href="/b">b</a><a href="/private/x">x</a>`))
		case "/a", "/b":
			fmt.Fprint(w, page("Page "+r.URL.Path, "Green tea and black tea from Rize.", ""))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	e := newEnv(t, srv.URL)
	res := e.crawl(t, crawl.Options{})
	if res.SkippedBy["robots"] != 1 {
		t.Errorf("robots.txt Disallow not obeyed: %+v", res)
	}
	mu <- struct{}{}
	defer func() { <-mu }()
	for i := 1; i < len(stamps); i++ {
		if gap := stamps[i].Sub(stamps[i-1]); gap < 900*time.Millisecond {
			t.Errorf("requests %d and %d only %s apart; Crawl-delay is 1s", i-1, i, gap)
		}
	}
	if len(stamps) < 3 {
		t.Errorf("expected 3 page requests, got %d", len(stamps))
	}
}
