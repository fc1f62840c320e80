package fetch

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/temoto/robotstxt"
)

func mustURL(t *testing.T, s string) *url.URL {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// robotsServer serves body with status at /robots.txt and counts fetches.
func robotsServer(t *testing.T, status int, body string) (*testServer, *atomic.Int64) {
	t.Helper()
	var fetches atomic.Int64
	srv := newTestServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		fetches.Add(1)
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}))
	return srv, &fetches
}

// RFC 9309 §2.3.1 status rules, pinned: 4xx allows everything (except 429),
// 5xx and network failures disallow everything.
func TestRobotsStatusRules(t *testing.T) {
	const rules = "User-agent: *\nDisallow: /private\n"
	tests := []struct {
		status      int
		wantPublic  bool
		wantPrivate bool
	}{
		{200, true, false},
		{400, true, true},
		{401, true, true},
		{403, true, true},
		{404, true, true},
		{410, true, true},
		{429, false, false},
		{500, false, false},
		{502, false, false},
		{503, false, false},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.status), func(t *testing.T) {
			srv, _ := robotsServer(t, tc.status, rules)
			r := NewRobots(privateClient(t, Options{}), "svc-crawler")
			ctx := testContext(t)
			if got := r.Allowed(ctx, mustURL(t, srv.URL+"/public")); got != tc.wantPublic {
				t.Errorf("/public allowed = %v, want %v", got, tc.wantPublic)
			}
			if got := r.Allowed(ctx, mustURL(t, srv.URL+"/private")); got != tc.wantPrivate {
				t.Errorf("/private allowed = %v, want %v", got, tc.wantPrivate)
			}
		})
	}
}

func TestRobotsUnreachable(t *testing.T) {
	srv, _ := robotsServer(t, 200, "")
	base := srv.URL
	srv.Close() // nothing listens there any more
	r := NewRobots(privateClient(t, Options{Timeout: 2 * time.Second}), "svc-crawler")
	if r.Allowed(testContext(t), mustURL(t, base+"/page")) {
		t.Fatal("unreachable robots.txt must mean complete disallow")
	}

	// A host the guard refuses is unreachable too.
	srv2, fetches := robotsServer(t, 200, "")
	r = NewRobots(New(Options{}), "svc-crawler")
	if r.Allowed(testContext(t), mustURL(t, srv2.URL+"/page")) {
		t.Fatal("blocked robots.txt must mean complete disallow")
	}
	if fetches.Load() != 0 {
		t.Fatal("blocked robots.txt was fetched")
	}
}

// Redirects are followed up to five times; a longer chain is "unavailable".
func TestRobotsRedirects(t *testing.T) {
	for _, tc := range []struct {
		hops        int
		wantPrivate bool
	}{
		{1, false}, // followed, rules apply
		{5, false}, // five redirects: still followed
		{6, true},  // six: unavailable, allow all
	} {
		t.Run(fmt.Sprint(tc.hops), func(t *testing.T) {
			hops := tc.hops
			s := newTestServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				var n int
				if r.URL.Path == "/robots.txt" {
					n = hops
				} else {
					_, _ = fmt.Sscanf(r.URL.Path, "/hop/%d", &n)
				}
				if n > 0 {
					http.Redirect(w, r, fmt.Sprintf("/hop/%d", n-1), http.StatusFound)
					return
				}
				_, _ = w.Write([]byte("User-agent: *\nDisallow: /private\n"))
			}))
			// The client's own redirect limit must not matter for robots.txt.
			r := NewRobots(privateClient(t, Options{MaxRedirects: -1, InScope: func(*url.URL) bool { return false }}), "svc-crawler")
			ctx := testContext(t)
			if got := r.Allowed(ctx, mustURL(t, s.URL+"/private")); got != tc.wantPrivate {
				t.Fatalf("/private allowed = %v, want %v", got, tc.wantPrivate)
			}
			if !r.Allowed(ctx, mustURL(t, s.URL+"/public")) {
				t.Fatal("/public must be allowed")
			}
		})
	}
}

func TestRobotsAgentGroups(t *testing.T) {
	tests := []struct {
		name  string
		body  string
		allow map[string]bool
	}{
		{
			name: "own group beats star, prefix groups ignored",
			body: "User-agent: googlebot\nDisallow: /\n\n" +
				"User-agent: svc\nDisallow: /prefix-group\n\n" +
				"User-agent: SVC-Crawler/2.0\nDisallow: /ours\n\n" +
				"User-agent: *\nDisallow: /star\n",
			allow: map[string]bool{"/ours": false, "/star": true, "/prefix-group": true, "/other": true},
		},
		{
			name:  "star when no own group",
			body:  "User-agent: googlebot\nDisallow: /g\n\nUser-agent: *\nDisallow: /star\n",
			allow: map[string]bool{"/star": false, "/g": true},
		},
		{
			name:  "several user-agent lines share one group",
			body:  "User-agent: bingbot\nUser-agent: svc-crawler\nDisallow: /shared\n\nUser-agent: *\nDisallow: /\n",
			allow: map[string]bool{"/shared": false, "/x": true},
		},
		{
			name:  "groups for the same agent merge",
			body:  "User-agent: svc-crawler\nDisallow: /a\n\nUser-agent: *\nDisallow: /b\n\nuser-agent: SVC-CRAWLER\nDisallow: /c\n",
			allow: map[string]bool{"/a": false, "/b": true, "/c": false},
		},
		{
			name:  "own group without rules allows all",
			body:  "User-agent: *\nDisallow: /\n\nUser-agent: svc-crawler\n",
			allow: map[string]bool{"/": true, "/x": true},
		},
		{
			name:  "no groups at all",
			body:  "# just a comment\nSitemap: https://example.com/sitemap.xml\n",
			allow: map[string]bool{"/": true, "/x": true},
		},
		{
			name:  "bad lines are skipped, not fatal",
			body:  "Disallow: /before-any-agent\nUser-agent: *\nCrawl-delay: soon\nDisallow: /kept\nnonsense line\n",
			allow: map[string]bool{"/before-any-agent": true, "/kept": false},
		},
		{
			name:  "CR line endings, BOM and comments",
			body:  "\uFEFFUser-agent: * # everyone\rDisallow: /cr # no\rAllow: /cr/ok\r",
			allow: map[string]bool{"/cr": false, "/cr/ok": true},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv, _ := robotsServer(t, 200, tc.body)
			r := NewRobots(privateClient(t, Options{}), "svc-crawler")
			for path, want := range tc.allow {
				if got := r.Allowed(testContext(t), mustURL(t, srv.URL+path)); got != want {
					t.Errorf("Allowed(%s) = %v, want %v", path, got, want)
				}
			}
		})
	}
}

func TestRobotsRules(t *testing.T) {
	const body = `User-agent: *
Disallow: /*.pdf$
Disallow: /private*/
Allow: /private-ok/
Disallow: /search?q=
Disallow: /şube
Disallow: /fish
Allow: /fish/salmon
Disallow: /page
Allow: /page
Disallow: /end$
Disallow: /%7Etilde
Disallow: /caf%c3%a9
Disallow: /
Allow: /$
Allow: /open
Allow: /50%off
`
	tests := map[string]bool{
		"/":                 true,
		"/robots.txt":       true,
		"/closed":           false,
		"/open/doc":         true,
		"/open/doc.pdf":     false,
		"/open/doc.pdf?x=1": true,
		"/open/doc.PDF":     true,
		"/private-x/":       false,
		"/private-ok/":      true,
		"/search?q=abc":     false,
		"/search":           false, // only via "Disallow: /"
		"/şube/ankara":      false,
		"/%C5%9Fube":        false,
		"/fish/salmon":      true,
		"/fish/cod":         false,
		"/page":             true, // equal-length Allow wins
		"/end":              false,
		"/end/more":         false, // "Disallow: /" still applies
		"/~tilde":           false,
		"/%7etilde":         false,
		"/café":             false,
		"/50%25off":         true, // a "%" that starts no escape is a literal percent sign
	}
	srv, _ := robotsServer(t, 200, body)
	r := NewRobots(privateClient(t, Options{}), "svc-crawler")
	for path, want := range tests {
		u := mustURL(t, srv.URL+path)
		if got := r.Allowed(testContext(t), u); got != want {
			t.Errorf("Allowed(%s) = %v, want %v", path, got, want)
		}
	}
}

func TestRobotsCrawlDelay(t *testing.T) {
	tests := []struct {
		name   string
		status int
		body   string
		want   time.Duration
	}{
		{"own group", 200, "User-agent: *\nCrawl-delay: 9\n\nUser-agent: svc-crawler\nCrawl-delay: 2\n", 2 * time.Second},
		{"star group", 200, "User-agent: other\nCrawl-delay: 9\n\nUser-agent: *\nCrawl-delay: 3\n", 3 * time.Second},
		{"fraction", 200, "User-agent: *\nCrawl-delay: 0.5\n", 500 * time.Millisecond},
		{"capped", 200, "User-agent: *\nCrawl-delay: 86400\n", 30 * time.Second},
		{"invalid ignored", 200, "User-agent: *\nCrawl-delay: -1\nCrawl-delay: ten\nDisallow: /x\n", 0},
		{"none", 200, "User-agent: *\nDisallow: /x\n", 0},
		{"not found", 404, "", 0},
		{"server error", 500, "", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv, _ := robotsServer(t, tc.status, tc.body)
			r := NewRobots(privateClient(t, Options{}), "svc-crawler")
			if got := r.CrawlDelay(testContext(t), mustURL(t, srv.URL+"/")); got != tc.want {
				t.Fatalf("CrawlDelay = %s, want %s", got, tc.want)
			}
		})
	}
}

func TestRobotsSitemaps(t *testing.T) {
	body := "Sitemap: https://example.com/sitemap.xml\n" +
		"User-agent: *\nDisallow: /x\n" +
		"sitemap: /relative-sitemap.xml\n" +
		"SITEMAP: https://example.com/sitemap.xml\n" +
		"Sitemap: ftp://example.com/nope.xml\n" +
		"Sitemap:\n"
	srv, _ := robotsServer(t, 200, body)
	r := NewRobots(privateClient(t, Options{}), "svc-crawler")
	got := r.Sitemaps(testContext(t), mustURL(t, srv.URL+"/anything"))
	want := []string{"https://example.com/sitemap.xml", srv.URL + "/relative-sitemap.xml"}
	if !slices.Equal(got, want) {
		t.Fatalf("Sitemaps = %q, want %q", got, want)
	}

	srv404, _ := robotsServer(t, 404, body)
	if got := r.Sitemaps(testContext(t), mustURL(t, srv404.URL+"/")); got != nil {
		t.Fatalf("Sitemaps of a 404 robots.txt = %q", got)
	}
}

// One fetch per origin, however many goroutines ask at once.
func TestRobotsFetchedOncePerOrigin(t *testing.T) {
	srvA, fetchesA := robotsServer(t, 200, "User-agent: *\nDisallow: /a\nCrawl-delay: 1\nSitemap: https://example.com/s.xml\n")
	srvB, fetchesB := robotsServer(t, 200, "User-agent: *\nDisallow: /b\n")
	r := NewRobots(privateClient(t, Options{}), "svc-crawler")
	var wg sync.WaitGroup
	var wrong atomic.Int64
	for i := range 40 {
		wg.Go(func() {
			ctx := testContext(t)
			base, blocked := srvA.URL, "/a"
			if i%2 == 1 {
				base, blocked = srvB.URL, "/b"
			}
			if r.Allowed(ctx, mustURL(t, base+blocked)) || !r.Allowed(ctx, mustURL(t, base+"/ok")) {
				wrong.Add(1)
			}
			r.CrawlDelay(ctx, mustURL(t, base+"/"))
			r.Sitemaps(ctx, mustURL(t, base+"/"))
		})
	}
	wg.Wait()
	if wrong.Load() != 0 {
		t.Fatalf("%d goroutines got wrong answers", wrong.Load())
	}
	if fetchesA.Load() != 1 || fetchesB.Load() != 1 {
		t.Fatalf("robots.txt fetched %d and %d times, want once each", fetchesA.Load(), fetchesB.Load())
	}
}

// Only the first 500 KiB count.
func TestRobotsSizeLimit(t *testing.T) {
	var b strings.Builder
	b.WriteString("User-agent: *\nDisallow: /early\n")
	for b.Len() < 600<<10 {
		b.WriteString("# padding padding padding padding padding padding padding\n")
	}
	b.WriteString("Disallow: /late\n")
	srv, _ := robotsServer(t, 200, b.String())
	r := NewRobots(privateClient(t, Options{}), "svc-crawler")
	ctx := testContext(t)
	if r.Allowed(ctx, mustURL(t, srv.URL+"/early")) {
		t.Fatal("rule inside the first 500 KiB ignored")
	}
	if !r.Allowed(ctx, mustURL(t, srv.URL+"/late")) {
		t.Fatal("rule after 500 KiB applied")
	}
}

// A fetch abandoned because the caller's context ended is not cached.
func TestRobotsCancelledNotCached(t *testing.T) {
	srv, fetches := robotsServer(t, 200, "User-agent: *\nDisallow: /x\n")
	r := NewRobots(privateClient(t, Options{}), "svc-crawler")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if r.Allowed(ctx, mustURL(t, srv.URL+"/ok")) {
		t.Fatal("cancelled context must answer false")
	}
	if !r.Allowed(testContext(t), mustURL(t, srv.URL+"/ok")) {
		t.Fatal("failure of a cancelled fetch was cached")
	}
	if fetches.Load() != 1 {
		t.Fatalf("fetches = %d, want 1", fetches.Load())
	}
}

func TestRobotsNonHTTP(t *testing.T) {
	r := NewRobots(New(Options{}), "svc-crawler")
	for _, s := range []string{"ftp://example.com/x", "mailto:a@example.com", "/relative"} {
		if r.Allowed(testContext(t), mustURL(t, s)) {
			t.Errorf("Allowed(%s) = true", s)
		}
	}
	if r.Allowed(testContext(t), nil) {
		t.Error("Allowed(nil) = true")
	}
}

// The library's own status handling differs from what we do; we never call
// it. This pins those defaults so a library upgrade that changes them is
// noticed when someone considers using them.
func TestRobotstxtLibraryStatusDefaults(t *testing.T) {
	for _, tc := range []struct {
		status  int
		wantErr bool
		allowed bool
	}{
		{301, true, false}, // library: error on 3xx; we follow redirects
		{404, false, true},
		{429, false, true}, // library: allow; we: disallow (rate limited)
		{503, false, false},
	} {
		data, err := robotstxt.FromStatusAndString(tc.status, "User-agent: *\nDisallow: /\n")
		if (err != nil) != tc.wantErr {
			t.Fatalf("%d: err = %v", tc.status, err)
		}
		if err == nil && data.TestAgent("/x", "svc-crawler") != tc.allowed {
			t.Fatalf("%d: allowed = %v", tc.status, !tc.allowed)
		}
	}
	// And its parser rejects a whole file for one bad crawl-delay, which is
	// why normalizeRobots drops such lines first.
	if _, err := robotstxt.FromString("User-agent: *\nCrawl-delay: soon\nDisallow: /x\n"); err == nil {
		t.Fatal("library now accepts a bad crawl-delay; normalizeRobots may be simplified")
	}
}

// Check tells a refusal by the rules (nil error) from an unreachable
// robots.txt (error saying why).
func TestRobotsCheckReasons(t *testing.T) {
	rulesSrv, _ := robotsServer(t, 200, "User-agent: *\nDisallow: /no\n")
	errSrv, _ := robotsServer(t, 503, "")
	blockedSrv, fetches := robotsServer(t, 200, "")

	private := NewRobots(privateClient(t, Options{}), "svc-crawler")
	public := NewRobots(New(Options{}), "svc-crawler")
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name    string
		r       *Robots
		ctx     context.Context
		url     string
		allowed bool
		wantErr error
	}{
		{"allowed", private, testContext(t), rulesSrv.URL + "/yes", true, nil},
		{"disallowed by rule", private, testContext(t), rulesSrv.URL + "/no", false, nil},
		{"server error", private, testContext(t), errSrv.URL + "/x", false, ErrStatus},
		{"blocked address", public, testContext(t), blockedSrv.URL + "/x", false, ErrBlocked},
		{"not http", private, testContext(t), "ftp://example.com/x", false, ErrBadURL},
		{"cancelled", private, cancelled, "http://example.com/x", false, context.Canceled},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			allowed, err := tc.r.Check(tc.ctx, mustURL(t, tc.url))
			if allowed != tc.allowed {
				t.Fatalf("allowed = %v, want %v (err %v)", allowed, tc.allowed, err)
			}
			if tc.wantErr == nil && err != nil || tc.wantErr != nil && !errors.Is(err, tc.wantErr) {
				t.Fatalf("err = %v, want %v", err, tc.wantErr)
			}
		})
	}
	if fetches.Load() != 0 {
		t.Fatal("blocked robots.txt was fetched")
	}
}
