package crawl_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"svc/internal/crawl"
)

// editableSite is a small site whose pages the test changes between crawls. It answers
// conditional requests like a real server.
type editableSite struct {
	mu    sync.Mutex
	pages map[string]string
	hits  map[string]int
	full  map[string]int // 200 responses
}

func (s *editableSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hits[r.URL.Path]++
	body, ok := s.pages[r.URL.Path]
	if !ok {
		http.NotFound(w, r)
		return
	}
	etag := fmt.Sprintf(`"%x"`, len(body)*31+int(body[len(body)/2]))
	w.Header().Set("ETag", etag)
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	s.full[r.URL.Path]++
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprint(w, body)
}

// about is enough text of its own that a page with a few links is content, not a listing.
const about = " We are a family business in Rize and have grown, picked and dried tea on the same " +
	"slopes above the Black Sea since 1962. Every tea we sell comes from our own gardens or from " +
	"neighbours we have known for decades, and every batch is tasted before it is packed. We ship " +
	"from our warehouse in Rize to all of Turkey and to Europe, and we answer every question about " +
	"brewing, storage and our gardens ourselves."

func (s *editableSite) set(path, body string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if body == "" {
		delete(s.pages, path)
		return
	}
	s.pages[path] = body
}

// Re-crawls use ETags, follow the links of unchanged pages, update changed pages, drop pages
// that are gone, and leave no stale text in the index.
func TestRecrawlKeepsTheIndexInStep(t *testing.T) {
	site := &editableSite{hits: map[string]int{}, full: map[string]int{}, pages: map[string]string{
		"/":          page("Home", "Welcome to the tea house."+about, `<a href="/tea/">Teas</a>`),
		"/tea/":      page("Teas", "Our teas come from Rize."+about, `<a href="/tea/green">Green</a> <a href="/tea/black">Black</a>`),
		"/tea/green": page("Green tea", "Green tea costs 120 TL per kilo and ships in two days.", ""),
		"/tea/black": page("Black tea", "Black tea is picked in May and dried slowly.", ""),
	}}
	srv := httptest.NewServer(site)
	defer srv.Close()
	e := newEnv(t, srv.URL)

	first := e.crawl(t, crawl.Options{})
	if first.Pages != 4 || first.Updated != 4 || !first.Complete {
		t.Fatalf("first crawl: %+v", first)
	}

	// Nothing changed: every page answers 304, and the pages behind the unchanged index page
	// are still reached through its remembered links.
	second := e.crawl(t, crawl.Options{})
	if second.Unchanged != 4 || second.Updated != 0 || second.Removed != 0 || second.Pages != 4 {
		t.Fatalf("second crawl: %+v", second)
	}
	if site.full["/tea/green"] != 1 {
		t.Fatalf("unchanged page fetched in full %d times", site.full["/tea/green"])
	}

	// A price changes, a page disappears.
	site.set("/tea/green", page("Green tea", "Green tea now costs 150 TL per kilo and ships in two days.", ""))
	site.set("/tea/black", "")
	third := e.crawl(t, crawl.Options{})
	if third.Updated != 1 || third.Removed != 1 || third.Pages != 3 {
		t.Fatalf("third crawl: %+v", third)
	}
	text := allText(e.docs(t))
	if strings.Contains(text, "120 TL") || strings.Contains(text, "picked in May") {
		t.Fatalf("stale text still indexed:\n%s", text)
	}
	if !strings.Contains(text, "150 TL") {
		t.Fatalf("new price not indexed:\n%s", text)
	}

	// A page that is no longer linked from anywhere is dropped by a complete crawl.
	site.set("/tea/", page("Teas", "Our teas come from Rize."+about, `<a href="/tea/green">Green</a>`))
	site.set("/", page("Home", "Welcome to the tea house."+about, ""))
	fourth := e.crawl(t, crawl.Options{})
	if fourth.Removed != 2 || fourth.Pages != 1 {
		t.Fatalf("fourth crawl: %+v", fourth)
	}

	// A crawl cut short by its page budget proves nothing is gone: it removes nothing.
	site.set("/", page("Home", "Welcome back."+about, `<a href="/tea/">Teas</a>`))
	fifth := e.crawl(t, crawl.Options{MaxPages: 1})
	if fifth.Complete || fifth.Removed != 0 {
		t.Fatalf("partial crawl: %+v", fifth)
	}
}
