package crawl_test

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	"svc/internal/crawl"
)

// pageCounter records CrawlPage calls.
type pageCounter struct {
	mu sync.Mutex
	n  map[string]int
}

func (p *pageCounter) CrawlPage(result string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n[result]++
}

// Every fetched page is reported once, by result, and the counts agree with the crawl's.
func TestCrawlReportsPagesToMetrics(t *testing.T) {
	t.Parallel()
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(page("Home", "Welcome to the tea house."+about, `<a href="/tea">Tea</a> <a href="/broken">Broken</a>`)))
	})
	mux.HandleFunc("/tea", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(page("Tea", "Green tea costs 120 TL per kilo and ships in two days.", "")))
	})
	mux.HandleFunc("/broken", func(w http.ResponseWriter, r *http.Request) {
		// The connection breaks mid-answer: a fetch error.
		conn, _, err := http.NewResponseController(w).Hijack()
		if err == nil {
			conn.Close()
		}
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	e := newEnv(t, srv.URL)
	pc := &pageCounter{n: map[string]int{}}
	res := e.crawl(t, crawl.Options{Metrics: pc})
	total := 0
	for _, n := range pc.n {
		total += n
	}
	if total != res.Fetched || pc.n["error"] != res.Errors || pc.n["updated"] != res.Updated || res.Errors == 0 || res.Updated < 2 {
		t.Fatalf("reported %v; crawl %+v", pc.n, res)
	}
}
