package fetch

import (
	"bytes"
	"encoding/xml"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/net/html/charset"
)

// The fuzz targets of the parsers that read what a crawled site sends: robots.txt, sitemaps
// and the bytes of a page in whatever encoding it claims. Their seeds run with `go test`;
// `.ci/fuzz` (or `go test -run='^$' -fuzz='^FuzzRobots$' ./internal/fetch`) explores further.

// robotsSeeds are robots.txt files from robots_test.go and the shapes real sites publish.
var robotsSeeds = []string{
	"User-agent: *\nDisallow: /private\n",
	"User-agent: googlebot\nDisallow: /\n\nUser-agent: svc\nDisallow: /prefix-group\n\nUser-agent: SVC-Crawler/2.0\nDisallow: /ours\n\nUser-agent: *\nDisallow: /star\n",
	"User-agent: bingbot\nUser-agent: svc-crawler\nDisallow: /shared\n\nUser-agent: *\nDisallow: /\n",
	"User-agent: *\nDisallow: /\n\nUser-agent: svc-crawler\n",
	"Disallow: /before-any-agent\nUser-agent: *\nCrawl-delay: soon\nDisallow: /kept\nnonsense line\n",
	"\uFEFFUser-agent: * # everyone\rDisallow: /cr # no\rAllow: /cr/ok\r",
	"User-agent: *\nDisallow: /*.pdf$\nDisallow: /private*/\nAllow: /search?q=ok\nDisallow: /search?q=\nDisallow: /şube\nDisallow: /%7Etilde\nDisallow: /caf%c3%a9\nDisallow: /%\nDisallow: /a%4%41\n",
	"User-agent: *\nCrawl-delay: 86400\nCrawl-delay: -1\nCrawl-delay: 1e999\nCrawl-delay: NaN\n",
	"User-agent: *\nDisallow: /x\nSitemap: https://example.com/s.xml\nSitemap: /relative.xml\nSitemap: ftp://x/y\nSite-map: //other.test/m.xml\n",
	"user agent:svc-crawler\nuseragent:*\ndisallow:/a\ncrawldelay:2\n",
	"User-agent:\nAllow:\nDisallow:\n:\n\x00\xff",
}

// FuzzRobots holds robots.txt parsing to RFC 9309's promises for any file: the rewritten
// file is always accepted by the library (parse refuses everything when it is not, which
// would be our bug), the crawl delay stays within [0, 30 s], every Sitemap value comes out
// absolute http(s), a path a file disallows is blocked and one it also allows (equally long)
// is not, and the path normalisation is idempotent, so a rule and a request path normalised
// once compare like with like.
func FuzzRobots(f *testing.F) {
	for _, s := range robotsSeeds {
		f.Add(s, "/private/x?q=1")
	}
	f.Add("User-agent: *\nDisallow: /", "/caf%C3%A9/%7e")
	f.Add("", "/%4%41")
	base, _ := url.Parse("https://shop.test/robots.txt")
	r := &Robots{agent: DefaultAgentToken}
	f.Fuzz(func(t *testing.T, body, path string) {
		rules := r.parse([]byte(body), base)
		if rules.disallowAll || rules.group == nil {
			t.Fatalf("the normalised file was refused:\n%s", normalizeRobots([]byte(body), r.agent).text)
		}
		if rules.delay < 0 || rules.delay > maxCrawlDelay {
			t.Fatalf("crawl delay %v outside [0, %v]", rules.delay, maxCrawlDelay)
		}
		seen := map[string]bool{}
		for _, s := range rules.sitemaps {
			u, err := url.Parse(s)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || seen[s] {
				t.Fatalf("sitemap %q is not a distinct absolute http(s) URL", s)
			}
			seen[s] = true
		}
		rules.group.Test(normalizeRobotsPath(path))

		once := normalizeRobotsPath(path)
		if twice := normalizeRobotsPath(once); twice != once {
			t.Fatalf("normalizeRobotsPath not idempotent: %q → %q → %q", path, once, twice)
		}
		if !utf8.ValidString(once) || strings.IndexFunc(once, func(r rune) bool { return r <= ' ' || r >= 0x7f }) >= 0 {
			t.Fatalf("normalizeRobotsPath(%q) = %q: not printable ASCII", path, once)
		}

		// A request path is blocked by a rule naming it, and let through by an equally long
		// Allow (RFC 9309 §2.2.2: the most specific rule wins, Allow on a tie). "$" and "*"
		// are rule syntax, so a path holding them does not name itself.
		u, err := url.Parse("https://shop.test/" + strings.TrimPrefix(path, "/"))
		if err != nil || u.Host != "shop.test" {
			return
		}
		req := robotsRequestPath(u)
		if strings.ContainsAny(req, "$*#") {
			return
		}
		rule := u.EscapedPath()
		if u.RawQuery != "" || u.ForceQuery {
			rule += "?" + u.RawQuery
		}
		if blocked := r.parse([]byte("User-agent: *\nDisallow: "+rule+"\n"), base); blocked.group.Test(req) {
			t.Fatalf("Disallow: %s does not block %q (request path %q)", rule, u, req)
		}
		if allowed := r.parse([]byte("User-agent: svc-crawler\nDisallow: "+rule+"\nAllow: "+rule+"\n"), base); !allowed.group.Test(req) {
			t.Fatalf("an equally long Allow: %s loses to Disallow for %q", rule, req)
		}
	})
}

// sitemapSeeds are files from sitemap_test.go and the deviations real sites serve.
var sitemapSeeds = []string{
	urlset("https://shop.test/a", "https://shop.test/b?x=1&amp;y=2", "/relative", "ftp://x/y", "https://u:p@shop.test/c", "https://shop.test/a#frag"),
	index("https://shop.test/s1.xml", "https://shop.test/s2.xml.gz", "javascript:alert(1)"),
	`<?xml version="1.0" encoding="ISO-8859-1"?><urlset><url><loc>https://shop.test/caf` + "\xe9" + `</loc><lastmod>2024-01-02</lastmod></url></urlset>`,
	`<ns:urlset xmlns:ns="x"><ns:url><ns:loc> https://shop.test/p </ns:loc><image:image><image:loc>https://cdn.test/i.jpg</image:loc></image:image></ns:url></ns:urlset>`,
	`<URLSET><URL><LOC>https://shop.test/a & b</LOC><LASTMOD>2024-01-02T10:00:00+03:00</LASTMOD></URL>`,
	`<html><body>Not found</body></html>`,
	"https://shop.test/one\nhttps://shop.test/two\r\nnot a url\n\uFEFFhttps://shop.test/three\n",
	"<urlset><url><loc><![CDATA[https://shop.test/cdata]]></loc></url><url><loc>&nbsp;https://shop.test/&eacute;</loc></url></urlset>",
	"\uFEFF   <?xml version='1.0'?><!DOCTYPE urlset><urlset/>",
	"<urlset><url><url><loc>https://shop.test/nested</loc></url></url></urlset>",
}

// FuzzSitemap feeds any file to both sitemap parsers and holds them to what the crawler
// relies on: at most the budget of URLs and the cap of child sitemaps, every location an
// absolute http(s) URL without credentials or fragment, no location twice, and a round trip:
// the locations written back as a clean urlset parse to the same list.
func FuzzSitemap(f *testing.F) {
	for _, s := range sitemapSeeds {
		f.Add(s)
	}
	base, _ := url.Parse("https://shop.test/sitemap.xml")
	const budget, maxChildren = 40, 5
	all := func(string) bool { return true }
	check := func(t *testing.T, urls []SitemapURL, children []string) {
		t.Helper()
		if len(urls) > budget || len(children) > maxChildren {
			t.Fatalf("%d urls and %d children, over %d and %d", len(urls), len(children), budget, maxChildren)
		}
		seen := map[string]bool{}
		for _, u := range urls {
			if seen[u.Loc] {
				t.Fatalf("location %q listed twice", u.Loc)
			}
			seen[u.Loc] = true
			checkAbsolute(t, u.Loc)
		}
		for _, c := range children {
			checkAbsolute(t, c)
		}
	}
	f.Fuzz(func(t *testing.T, body string) {
		if res, err := parseSitemapText(strings.NewReader(body), budget, all); err == nil {
			check(t, res.urls, nil)
		}
		res, err := parseSitemapXML(strings.NewReader(body), base, budget, maxChildren, all)
		if err != nil {
			return
		}
		check(t, res.urls, res.children)

		var b bytes.Buffer
		b.WriteString("<urlset>")
		for _, u := range res.urls {
			b.WriteString("<url><loc>")
			_ = xml.EscapeText(&b, []byte(u.Loc))
			b.WriteString("</loc></url>")
		}
		b.WriteString("</urlset>")
		again, err := parseSitemapXML(&b, base, budget, maxChildren, all)
		if err != nil {
			t.Fatalf("round trip: %v", err)
		}
		if len(again.urls) != len(res.urls) {
			t.Fatalf("round trip: %d urls, want %d", len(again.urls), len(res.urls))
		}
		for i := range res.urls {
			if again.urls[i].Loc != res.urls[i].Loc {
				t.Fatalf("round trip: %q, want %q", again.urls[i].Loc, res.urls[i].Loc)
			}
		}
	})
}

func checkAbsolute(t *testing.T, s string) {
	t.Helper()
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil || u.Fragment != "" {
		t.Fatalf("location %q is not an absolute http(s) URL without credentials and fragment", s)
	}
	if len(s) > 3*maxLocBytes {
		t.Fatalf("location of %d bytes", len(s))
	}
}

// FuzzDecodeText holds charset decoding to its promises for any bytes, media type and
// Content-Type label: the result is always valid UTF-8 under a name the decoder knows; text
// that already is valid UTF-8 comes back unchanged unless a byte order mark or a UTF-16
// header says otherwise (a legacy label is not believed over real UTF-8); and decoding is
// idempotent: the output read again as UTF-8 is the output.
func FuzzDecodeText(f *testing.F) {
	seeds := []struct{ body, mt, label string }{
		{"<p>café Grüße</p>", "text/html", "ISO-8859-1"},
		{"<p>caf\xe9 Gr\xfc\xdfe</p>", "text/html", "utf-8"},
		{`<html><head><meta charset="windows-1254"></head><body>` + "\xfd\xf0\xfe", "text/html", ""},
		{`<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset='iso-8859-9'">` + "\xdd", "text/html", "x-no-such-charset"},
		{"\xef\xbb\xbf<meta charset=\"windows-1252\">ğ", "text/html", "iso-8859-1"},
		{"\xff\xfe<\x00p\x00>\x00", "text/html", ""},
		{"\xfe\xff\x00<", "text/plain", ""},
		{`<?xml version="1.0" encoding="ISO-8859-9"?><html>` + "\xfe", "application/xhtml+xml", ""},
		{`<meta charset="utf-16"><p>ş`, "text/html", ""},
		{"plain \x1b$B text", "text/plain", "iso-2022-jp"},
		{"odd", "text/html", "utf-16"},
		{"<meta charset=replacement>x", "text/html", " charset "},
	}
	for _, s := range seeds {
		f.Add([]byte(s.body), s.mt, s.label)
	}
	f.Fuzz(func(t *testing.T, body []byte, mediaType, label string) {
		in := bytes.Clone(body)
		out, name := decodeText(body, mediaType, label)
		if !bytes.Equal(body, in) {
			t.Fatal("decodeText changed its input")
		}
		if !utf8.Valid(out) {
			t.Fatalf("decodeText(%q, %q, %q) = %q: not UTF-8", body, mediaType, label, out)
		}
		if enc, _ := charset.Lookup(name); enc == nil {
			t.Fatalf("decodeText names %q, which is no encoding", name)
		}
		_, headerName := charset.Lookup(strings.TrimSpace(label))
		if _, _, n := bomEncoding(body); n == 0 && utf8.Valid(body) && !strings.HasPrefix(headerName, "utf-16") &&
			bytes.IndexByte(body, 0x1b) < 0 && !bytes.Equal(out, body) {
			// ESC starts an ISO-2022-JP shift, the one WHATWG encoding that does not map
			// ASCII to itself.
			t.Fatalf("valid UTF-8 %q (label %q) came back as %q (%s)", body, label, out, name)
		}
		if !bytes.HasPrefix(out, []byte{0xEF, 0xBB, 0xBF}) {
			if again, _ := decodeText(out, mediaType, "utf-8"); !bytes.Equal(again, out) {
				t.Fatalf("decoding %q again as UTF-8 gave %q", out, again)
			}
		}
	})
}
