package crawl_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"svc/internal/crawl"
)

// benchWords make pages of plausible help-centre prose, so cleaning, language detection,
// chunking and analysis do the work they do on a real site.
var benchWords = strings.Fields(`delivery order return refund warranty battery charger motor frame wheel
	brake tyre service appointment customer account payment invoice shipping parcel tracking week day
	hour free cost price model size colour stock store warehouse replacement repair guarantee months
	years within after before when your our the a of to and in for on with by from can will must may
	please contact team support email phone weekday morning evening working business standard express`)

// benchSite is a 1,000-page site: a home page, 20 category pages and 979 articles of about
// 1,500 characters, with site chrome on every page and a sitemap.
func benchSite(pages int) http.Handler {
	const categories = 20
	var mu sync.Mutex
	cache := map[string][]byte{}
	render := func(path string) []byte {
		mu.Lock()
		defer mu.Unlock()
		if b, ok := cache[path]; ok {
			return b
		}
		var links strings.Builder
		body := ""
		switch {
		case path == "/":
			for c := range categories {
				fmt.Fprintf(&links, `<li><a href="/c/%d/">Category %d</a></li>`, c, c)
			}
		case strings.HasPrefix(path, "/c/"):
			c, _ := strconv.Atoi(strings.Trim(strings.TrimPrefix(path, "/c/"), "/"))
			for i := 1 + categories + c; i < pages; i += categories {
				fmt.Fprintf(&links, `<li><a href="/a/%d">Article %d</a></li>`, i, i)
			}
		default:
			n, _ := strconv.Atoi(strings.TrimPrefix(path, "/a/"))
			rng := rand.New(rand.NewPCG(uint64(n), 7))
			var text strings.Builder
			for p := range 5 {
				fmt.Fprintf(&text, "<h2>Section %d</h2><p>", p)
				for range 45 {
					text.WriteString(benchWords[rng.IntN(len(benchWords))] + " ")
				}
				text.WriteString("</p>")
			}
			body = text.String()
		}
		b := []byte(fmt.Sprintf(`<!doctype html><html lang="en"><head><title>Page %s | Bench</title></head><body>
<header><nav><a href="/">Home</a> <a href="/c/0/">Help</a></nav></header>
<div class="cookie-banner">We use cookies.</div>
<main><h1>Page %s</h1>%s<ul>%s</ul></main>
<footer>© Bench · <a href="/c/1/">Contact</a></footer></body></html>`, path, path, body, links.String()))
		cache[path] = b
		return b
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		switch {
		case p == "/robots.txt":
			fmt.Fprint(w, "User-agent: *\nAllow: /\n")
		case p == "/sitemap.xml":
			http.NotFound(w, r)
		case p == "/" || strings.HasPrefix(p, "/c/") || strings.HasPrefix(p, "/a/"):
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write(render(p))
		default:
			http.NotFound(w, r)
		}
	})
}

// BenchmarkCrawl1000Pages crawls a local 1,000-page site into a fresh store and reports pages
// a second and the peak Go heap while crawling. Run:
//
//	go test -run '^$' -bench Crawl1000 -benchtime 3x ./internal/crawl
func BenchmarkCrawl1000Pages(b *testing.B) {
	const pages = 1000
	srv := httptest.NewServer(benchSite(pages))
	defer srv.Close()
	var peak uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		var ms runtime.MemStats
		t := time.NewTicker(25 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				runtime.ReadMemStats(&ms)
				peak = max(peak, ms.HeapInuse)
			}
		}
	}()
	var fetched int
	var elapsed time.Duration
	for b.Loop() {
		b.StopTimer()
		e := newEnv(b, srv.URL+"/")
		b.StartTimer()
		began := time.Now()
		res, err := crawl.New(e.st, crawl.Options{MaxPages: pages + 10, AllowPrivate: true}, quiet()).
			Crawl(context.Background(), e.site, "", nil)
		elapsed += time.Since(began)
		if err != nil || res.Pages < pages-21 || !res.Complete {
			b.Fatalf("crawl: %v %+v", err, res)
		}
		fetched += res.Fetched
	}
	close(stop)
	wg.Wait()
	b.ReportMetric(float64(fetched)/elapsed.Seconds(), "pages/s")
	b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
	if hwm := peakRSS(); hwm > 0 {
		b.ReportMetric(hwm, "peak-RSS-MiB")
	}
}

// peakRSS reads the process's high-water resident set size (Linux), in MiB.
func peakRSS() float64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "VmHWM:") {
			f := strings.Fields(line)
			if len(f) >= 2 {
				kb, _ := strconv.ParseFloat(f[1], 64)
				return kb / 1024
			}
		}
	}
	return 0
}
