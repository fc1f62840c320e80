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
	"testing"
	"time"

	"golang.org/x/text/encoding/charmap"
)

// siteFiles is a tiny static site for sitemap tests: path → file, with hit
// counts. Paths ending in ".gz" are served as gzip files; a file may also ask
// for Content-Encoding: gzip or a status.
type siteFile struct {
	body        string
	status      int
	contentType string
	encoding    string // "gzip" for Content-Encoding
}

type site struct {
	*testServer
	mu    sync.Mutex
	files map[string]siteFile
	hits  map[string]int
}

func newSite(t *testing.T, files map[string]siteFile) *site {
	t.Helper()
	s := &site{files: files, hits: map[string]int{}}
	s.testServer = newTestServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.hits[r.URL.Path]++
		f, ok := s.files[r.URL.Path]
		s.mu.Unlock()
		if !ok {
			http.NotFound(w, r)
			return
		}
		body := []byte(strings.ReplaceAll(f.body, "{base}", "http://"+r.Host))
		switch {
		case strings.HasSuffix(r.URL.Path, ".gz"):
			w.Header().Set("Content-Type", "application/x-gzip")
			body = gzipBytes(t, body)
		case f.encoding == "gzip":
			w.Header().Set("Content-Encoding", "gzip")
			body = gzipBytes(t, body)
		}
		if f.contentType != "" {
			w.Header().Set("Content-Type", f.contentType)
		}
		if f.status != 0 {
			w.WriteHeader(f.status)
		}
		_, _ = w.Write(body)
	}))
	return s
}

func (s *site) hitCount(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[path]
}

func urlset(locs ...string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" +
		`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for _, l := range locs {
		b.WriteString("  <url><loc>" + l + "</loc></url>\n")
	}
	b.WriteString("</urlset>\n")
	return b.String()
}

func index(locs ...string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" +
		`<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for _, l := range locs {
		b.WriteString("  <sitemap><loc>" + l + "</loc></sitemap>\n")
	}
	b.WriteString("</sitemapindex>\n")
	return b.String()
}

func locs(urls []SitemapURL) []string {
	out := make([]string, len(urls))
	for i, u := range urls {
		out[i] = u.Loc
	}
	return out
}

func TestSitemapURLSet(t *testing.T) {
	body := `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
        xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <url><loc> {base}/a </loc><lastmod>2024-05-06</lastmod></url>
  <url>
    <loc>{base}/b?x=1&amp;y=2</loc>
    <lastmod>2024-05-06T07:08:09+03:00</lastmod>
    <image:image><image:loc>{base}/img.jpg</image:loc></image:image>
  </url>
  <url><loc>{base}/c?x=1&y=2</loc><lastmod>2024-05-06T07:08Z</lastmod></url>
  <url><loc><![CDATA[{base}/d]]></loc><lastmod>yesterday</lastmod></url>
  <url><loc>/relative</loc></url>
  <url><loc>{base}/a</loc></url>
  <url><loc>javascript:alert(1)</loc></url>
  <url><loc>{base}/frag#section</loc></url>
  <url><lastmod>2024-01-01</lastmod></url>
</urlset>`
	s := newSite(t, map[string]siteFile{"/sitemap.xml": {body: body, contentType: "application/xml"}})
	c := privateClient(t, Options{})
	got, err := c.Sitemap(testContext(t), s.URL+"/sitemap.xml", 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []SitemapURL{
		{Loc: s.URL + "/a", LastMod: time.Date(2024, 5, 6, 0, 0, 0, 0, time.UTC)},
		{Loc: s.URL + "/b?x=1&y=2", LastMod: time.Date(2024, 5, 6, 4, 8, 9, 0, time.UTC)},
		{Loc: s.URL + "/c?x=1&y=2", LastMod: time.Date(2024, 5, 6, 7, 8, 0, 0, time.UTC)},
		{Loc: s.URL + "/d"},
		{Loc: s.URL + "/relative"},
		{Loc: s.URL + "/frag"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %q, want %q", locs(got), locs(want))
	}
	for i := range want {
		if got[i].Loc != want[i].Loc || !got[i].LastMod.Equal(want[i].LastMod) {
			t.Errorf("entry %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestSitemapFormats(t *testing.T) {
	latin1Body, err := charmap.ISO8859_1.NewEncoder().String(
		`<?xml version="1.0" encoding="ISO-8859-1"?><urlset><url><loc>{base}/café</loc></url></urlset>`)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		file siteFile
		path string
		want []string
	}{
		{"no namespace", siteFile{body: `<urlset><url><loc>{base}/x</loc></url></urlset>`}, "/s.xml", []string{"/x"}},
		{"prefixed namespace", siteFile{body: `<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:url><sm:loc>{base}/x</sm:loc></sm:url></sm:urlset>`}, "/s.xml", []string{"/x"}},
		{"old namespace and odd case", siteFile{body: `<URLSET xmlns="http://www.google.com/schemas/sitemap/0.84"><Url><LOC>{base}/x</LOC></Url></URLSET>`}, "/s.xml", []string{"/x"}},
		{"bom and leading space", siteFile{body: "\uFEFF\n  " + urlset("{base}/x")}, "/s.xml", []string{"/x"}},
		{"latin-1 declaration", siteFile{body: latin1Body}, "/s.xml", []string{"/caf%C3%A9"}},
		{"gzip file", siteFile{body: urlset("{base}/x", "{base}/y")}, "/s.xml.gz", []string{"/x", "/y"}},
		{"gzip content-encoding", siteFile{body: urlset("{base}/x"), encoding: "gzip", contentType: "application/xml"}, "/s.xml", []string{"/x"}},
		{"plain text", siteFile{body: "{base}/x\r\n\n  {base}/y  \nnot a url\nftp://example.com/z\n{base}/x\n", contentType: "text/plain"}, "/s.txt", []string{"/x", "/y"}},
		{"plain text gzipped", siteFile{body: "{base}/x\n"}, "/s.txt.gz", []string{"/x"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newSite(t, map[string]siteFile{tc.path: tc.file})
			c := privateClient(t, Options{})
			got, err := c.Sitemap(testContext(t), s.URL+tc.path, 0)
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, p := range tc.want {
				want = append(want, s.URL+p)
			}
			if !slices.Equal(locs(got), want) {
				t.Fatalf("got %q, want %q", locs(got), want)
			}
		})
	}
}

// An index leads to its children; broken, missing, oversized and foreign
// children are skipped without spoiling the rest.
func TestSitemapIndex(t *testing.T) {
	files := map[string]siteFile{
		"/index.xml": {body: index(
			"{base}/plain.xml",
			"{base}/zipped.xml.gz",
			"{base}/encoded.xml",
			"{base}/broken.xml",
			"{base}/missing.xml",
			"{base}/html.xml",
			"{base}/bomb.xml.gz",
			"{base}/text.txt",
			"{base}/index.xml", // itself: must not loop
			"{base}/plain.xml", // listed twice: fetched once
			"http://blocked.example.invalid/s.xml",
		)},
		"/plain.xml":     {body: urlset("{base}/p1", "{base}/p2", "{base}/shared")},
		"/zipped.xml":    {body: "unused"},
		"/zipped.xml.gz": {body: urlset("{base}/z1", "{base}/shared")},
		"/encoded.xml":   {body: urlset("{base}/e1"), encoding: "gzip"},
		"/broken.xml":    {body: `<urlset><url><loc>{base}/broken1</loc></url><url><loc>{base}/broken2`},
		"/html.xml":      {body: "<!DOCTYPE html><html><body>Not found</body></html>", contentType: "text/html"},
		"/bomb.xml.gz":   {body: urlset("{base}/bomb1") + strings.Repeat(" ", 200<<10)},
		"/text.txt":      {body: "{base}/t1\n"},
	}
	s := newSite(t, files)
	c := privateClient(t, Options{InScope: func(u *url.URL) bool { return u.Hostname() == "127.0.0.1" }})
	c.sitemapMaxBytes = 100 << 10
	got, err := c.Sitemap(testContext(t), s.URL+"/index.xml", 0)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, p := range []string{"/p1", "/p2", "/shared", "/z1", "/e1", "/t1"} {
		want = append(want, s.URL+p)
	}
	if !slices.Equal(locs(got), want) {
		t.Fatalf("got %q\nwant %q", locs(got), want)
	}
	if n := s.hitCount("/index.xml"); n != 1 {
		t.Errorf("index fetched %d times", n)
	}
	if n := s.hitCount("/plain.xml"); n != 1 {
		t.Errorf("duplicate child fetched %d times", n)
	}
}

func TestSitemapRootErrors(t *testing.T) {
	s := newSite(t, map[string]siteFile{
		"/html":   {body: "<html><body>hello</body></html>", contentType: "text/html"},
		"/broken": {body: "<urlset><url><loc>{base}/x</loc>"},
		"/big":    {body: urlset("{base}/x") + strings.Repeat(" ", 200<<10)},
		"/500":    {body: "oops", status: 500},
	})
	c := privateClient(t, Options{})
	c.sitemapMaxBytes = 100 << 10
	tests := []struct {
		path string
		want error
	}{
		{"/missing", ErrStatus},
		{"/500", ErrStatus},
		{"/big", ErrTooLarge},
		{"/html", errNotSitemap},
		{"/broken", nil},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			got, err := c.Sitemap(testContext(t), s.URL+tc.path, 0)
			if err == nil || got != nil {
				t.Fatalf("Sitemap = %v, %v; want an error", got, err)
			}
			if tc.want != nil && !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
		})
	}
	if _, err := New(Options{}).Sitemap(testContext(t), "http://127.0.0.1:1/sitemap.xml", 0); !errors.Is(err, ErrBlocked) {
		t.Fatalf("loopback sitemap without AllowPrivate: %v", err)
	}
}

func TestSitemapLimits(t *testing.T) {
	t.Run("maxURLs", func(t *testing.T) {
		var many []string
		for i := range 100 {
			many = append(many, fmt.Sprintf("{base}/u%d", i))
		}
		s := newSite(t, map[string]siteFile{
			"/index.xml": {body: index("{base}/a.xml", "{base}/b.xml")},
			"/a.xml":     {body: urlset(many[:7]...)},
			"/b.xml":     {body: urlset(many[7:]...)},
		})
		c := privateClient(t, Options{})
		got, err := c.Sitemap(testContext(t), s.URL+"/index.xml", 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 10 || got[9].Loc != s.URL+"/u9" {
			t.Fatalf("got %d URLs: %q", len(got), locs(got))
		}
	})

	t.Run("children", func(t *testing.T) {
		files := map[string]siteFile{}
		var children []string
		for i := range 60 {
			p := fmt.Sprintf("/child%d.xml", i)
			children = append(children, "{base}"+p)
			files[p] = siteFile{body: urlset(fmt.Sprintf("{base}/page%d", i))}
		}
		files["/index.xml"] = siteFile{body: index(children...)}
		s := newSite(t, files)
		c := privateClient(t, Options{})
		got, err := c.Sitemap(testContext(t), s.URL+"/index.xml", 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 50 {
			t.Fatalf("got %d URLs from 60 children, want 50", len(got))
		}
		if s.hitCount("/child50.xml") != 0 {
			t.Fatal("51st child fetched")
		}
	})

	t.Run("depth", func(t *testing.T) {
		s := newSite(t, map[string]siteFile{
			"/l1.xml":  {body: index("{base}/l2.xml")},
			"/l2.xml":  {body: index("{base}/l3.xml", "{base}/l3b.xml")},
			"/l3.xml":  {body: urlset("{base}/deep3")},
			"/l3b.xml": {body: index("{base}/l4.xml")},
			"/l4.xml":  {body: urlset("{base}/deep4")},
		})
		c := privateClient(t, Options{})
		got, err := c.Sitemap(testContext(t), s.URL+"/l1.xml", 0)
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{s.URL + "/deep3"}; !slices.Equal(locs(got), want) {
			t.Fatalf("got %q, want %q", locs(got), want)
		}
		if s.hitCount("/l4.xml") != 0 {
			t.Fatal("fourth level fetched")
		}
	})

	t.Run("cancelled", func(t *testing.T) {
		s := newSite(t, map[string]siteFile{"/s.xml": {body: urlset("{base}/x")}})
		c := privateClient(t, Options{})
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := c.Sitemap(ctx, s.URL+"/s.xml", 0); !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
	})
}

func TestParseLastMod(t *testing.T) {
	tests := map[string]time.Time{
		"2024-05-06":                  time.Date(2024, 5, 6, 0, 0, 0, 0, time.UTC),
		" 2024-05-06T07:08:09Z ":      time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC),
		"2024-05-06T07:08:09.5+01:00": time.Date(2024, 5, 6, 6, 8, 9, 5e8, time.UTC),
		"2024-05-06T07:08+02:00":      time.Date(2024, 5, 6, 5, 8, 0, 0, time.UTC),
		"2024-05-06 07:08:09":         time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC),
		"2024-05":                     time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC),
		"2024":                        time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC),
		"":                            {},
		"06/05/2024":                  {},
	}
	for in, want := range tests {
		if got := parseLastMod(in); !got.Equal(want) {
			t.Errorf("parseLastMod(%q) = %v, want %v", in, got, want)
		}
	}
}
