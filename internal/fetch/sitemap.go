package fetch

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/net/html/charset"
)

const (
	// sitemapMaxBytes is the sitemaps.org limit for one file, uncompressed.
	sitemapMaxBytes = 50 << 20
	// sitemapMaxChildren bounds how many sitemaps an index tree may make us
	// fetch in total.
	sitemapMaxChildren = 50
	// sitemapMaxDepth counts files along one path: the root is level 1, so
	// an index may point at indexes that point at sitemaps, and no deeper.
	sitemapMaxDepth = 3
	// DefaultSitemapURLs is the maxURLs used when Sitemap is given <= 0:
	// what one sitemap file may hold.
	DefaultSitemapURLs = 50000
	// maxLocBytes bounds one <loc> or <lastmod> value; real URLs stay under
	// 2,048 characters, and this keeps a hostile 50 MiB text node from being
	// buffered.
	maxLocBytes = 8 << 10
)

// errNotSitemap means the document parsed but is not a urlset or
// sitemapindex (often an HTML error page served with status 200).
var errNotSitemap = errors.New("not a sitemap (root element is neither urlset nor sitemapindex)")

// SitemapURL is one page listed in a sitemap.
type SitemapURL struct {
	Loc     string
	LastMod time.Time // zero when absent or unparsable
}

// Sitemap reads the sitemap or sitemap index at sitemapURL and returns up to
// maxURLs distinct page URLs (DefaultSitemapURLs when maxURLs <= 0).
//
// Indexes are followed depth-first in document order, at most three files
// deep and at most 50 child sitemaps in total, each fetched once. A file may
// be XML (any namespace, or none) or plain text with one URL per line, and
// may be gzipped (by Content-Encoding or as a .gz file); each is limited to
// 50 MiB after decompression. A child sitemap that fails — bad XML, non-2xx,
// too large, blocked, out of InScope — is skipped whole; only the root's
// failure is an error. Locations are made absolute against their sitemap,
// limited to http(s), and deduplicated; they are not scope-checked: that is
// the crawler's decision.
//
// When the context ends mid-way, the URLs gathered so far are returned with
// the error.
func (c *Client) Sitemap(ctx context.Context, sitemapURL string, maxURLs int) ([]SitemapURL, error) {
	if maxURLs <= 0 {
		maxURLs = DefaultSitemapURLs
	}
	w := &sitemapWalk{
		c:        c,
		max:      maxURLs,
		seenLocs: map[string]bool{},
		seenMaps: map[string]bool{},
	}
	root := strings.TrimSpace(sitemapURL)
	if u, err := url.Parse(root); err == nil {
		u.Fragment, u.RawFragment = "", ""
		root = u.String()
	}
	w.seenMaps[root] = true
	res, err := w.read(ctx, root)
	if err != nil {
		return nil, fmt.Errorf("sitemap %s: %w", root, err)
	}
	w.commit(res)
	w.descend(ctx, res.children, 2)
	if err := ctx.Err(); err != nil {
		return w.urls, fmt.Errorf("sitemap %s: %w", root, context.Cause(ctx))
	}
	return w.urls, nil
}

// sitemapWalk is the state of one Sitemap call.
type sitemapWalk struct {
	c        *Client
	max      int
	urls     []SitemapURL
	seenLocs map[string]bool
	seenMaps map[string]bool
	fetched  int // child sitemaps fetched (or attempted)
}

// sitemapFile is what one file contributed.
type sitemapFile struct {
	urls     []SitemapURL
	children []string
}

func (w *sitemapWalk) full() bool { return len(w.urls) >= w.max }

// commit adds a file's URLs; files are all-or-nothing, so this runs only
// after a file parsed completely.
func (w *sitemapWalk) commit(f *sitemapFile) {
	for _, u := range f.urls {
		if w.full() {
			return
		}
		if !w.seenLocs[u.Loc] {
			w.seenLocs[u.Loc] = true
			w.urls = append(w.urls, u)
		}
	}
}

func (w *sitemapWalk) descend(ctx context.Context, children []string, level int) {
	if level > w.c.sitemapMaxDepth {
		return
	}
	for _, child := range children {
		if w.full() || ctx.Err() != nil || w.fetched >= w.c.sitemapMaxChildren {
			return
		}
		if w.seenMaps[child] {
			continue
		}
		w.seenMaps[child] = true
		if w.c.inScope != nil {
			if u, err := url.Parse(child); err != nil || !w.c.inScope(u) {
				continue
			}
		}
		w.fetched++
		res, err := w.read(ctx, child)
		if err != nil {
			continue
		}
		w.commit(res)
		w.descend(ctx, res.children, level+1)
	}
}

// read fetches and parses one sitemap file.
func (w *sitemapWalk) read(ctx context.Context, sitemapURL string) (*sitemapFile, error) {
	c := w.c
	pol := policy{
		maxBody:      c.sitemapMaxBytes,
		timeout:      c.sitemapTimeout,
		maxRedirects: c.maxRedirects,
		inScope:      c.inScope,
	}
	o, err := c.open(ctx, Request{URL: sitemapURL}, pol)
	if err != nil {
		return nil, err
	}
	defer func() { _ = o.body.Close() }()
	if o.resp.StatusCode < 200 || o.resp.StatusCode > 299 {
		return nil, fmt.Errorf("%w: %d %s", ErrStatus, o.resp.StatusCode, http.StatusText(o.resp.StatusCode))
	}

	r := bufio.NewReader(o.body)
	if magic, _ := r.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		// A .gz sitemap served as a file rather than with Content-Encoding.
		zr, err := gzip.NewReader(r)
		if err != nil {
			return nil, fmt.Errorf("gzip sitemap: %w", err)
		}
		defer func() { _ = zr.Close() }()
		r = bufio.NewReader(newCapReader(zr, c.sitemapMaxBytes,
			fmt.Errorf("decompressed sitemap over %d bytes: %w", c.sitemapMaxBytes, ErrTooLarge)))
	}

	budget := w.max - len(w.urls)
	isNew := func(loc string) bool { return !w.seenLocs[loc] }
	var res *sitemapFile
	if looksLikeXML(r) {
		res, err = parseSitemapXML(r, o.url, budget, c.sitemapMaxChildren, isNew)
	} else {
		res, err = parseSitemapText(r, budget, isNew)
	}
	if err != nil {
		return nil, deadlineError(o.body.ctx, pol.timeout, err)
	}
	return res, nil
}

// looksLikeXML peeks past a BOM and white space for a "<".
func looksLikeXML(r *bufio.Reader) bool {
	head, _ := r.Peek(512)
	head = bytes.TrimPrefix(head, []byte{0xEF, 0xBB, 0xBF})
	head = bytes.TrimLeft(head, " \t\r\n")
	return len(head) > 0 && head[0] == '<'
}

// parseSitemapXML reads a urlset or sitemapindex. Element names are matched
// by local name, case-insensitively, so any namespace (or none, or a
// prefixed one) works. Only <loc>/<lastmod> directly inside <url>/<sitemap>
// count, so image and video extensions (<image:loc>) do not replace the page
// URL. Parsing is lenient about entities (a bare "&" in a URL is common) but
// a structurally broken file is an error.
func parseSitemapXML(r io.Reader, base *url.URL, budget, maxChildren int, isNew func(string) bool) (*sitemapFile, error) {
	d := xml.NewDecoder(r)
	d.Strict = false
	d.Entity = xml.HTMLEntity
	d.CharsetReader = charset.NewReaderLabel

	res := &sitemapFile{}
	local := map[string]bool{}
	var (
		depth      int
		rootOK     bool
		entryKind  string // "url" or "sitemap" while inside one
		entryDepth int
		field      string // "loc" or "lastmod" while inside one
		loc, mod   strings.Builder
		tooLong    bool
	)
	for {
		tok, err := d.Token()
		if err == io.EOF {
			if !rootOK {
				return nil, errNotSitemap
			}
			return res, nil
		}
		if err != nil {
			return nil, fmt.Errorf("sitemap XML: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			name := strings.ToLower(t.Name.Local)
			switch {
			case depth == 1:
				if name != "urlset" && name != "sitemapindex" {
					return nil, errNotSitemap
				}
				rootOK = true
			case entryKind == "" && (name == "url" || name == "sitemap"):
				entryKind, entryDepth = name, depth
				loc.Reset()
				mod.Reset()
				tooLong = false
			case entryKind != "" && depth == entryDepth+1 && (name == "loc" || name == "lastmod"):
				field = name
			}
		case xml.CharData:
			var b *strings.Builder
			switch field {
			case "loc":
				b = &loc
			case "lastmod":
				b = &mod
			default:
				continue
			}
			if b.Len()+len(t) > maxLocBytes {
				tooLong = true
				continue
			}
			b.Write(t)
		case xml.EndElement:
			if depth == entryDepth+1 {
				field = ""
			}
			if entryKind != "" && depth == entryDepth {
				kind := entryKind
				entryKind = ""
				if target, ok := absoluteHTTP(base, loc.String()); ok && !tooLong {
					switch {
					case kind == "sitemap" && len(res.children) < maxChildren:
						res.children = append(res.children, target)
					case kind == "url" && !local[target] && isNew(target):
						local[target] = true
						res.urls = append(res.urls, SitemapURL{Loc: target, LastMod: parseLastMod(mod.String())})
						if len(res.urls) >= budget {
							return res, nil
						}
					}
				}
			}
			depth--
		}
	}
}

// parseSitemapText reads a plain-text sitemap: one absolute URL per line;
// other lines are ignored.
func parseSitemapText(r io.Reader, budget int, isNew func(string) bool) (*sitemapFile, error) {
	res := &sitemapFile{}
	local := map[string]bool{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxLocBytes)
	first := true
	for sc.Scan() {
		line := sc.Text()
		if first {
			line = strings.TrimPrefix(line, "\uFEFF")
			first = false
		}
		target, ok := absoluteHTTP(nil, line)
		if !ok || local[target] || !isNew(target) {
			continue
		}
		local[target] = true
		res.urls = append(res.urls, SitemapURL{Loc: target})
		if len(res.urls) >= budget {
			return res, nil
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("text sitemap: %w", err)
	}
	return res, nil
}

// absoluteHTTP trims s and resolves it against base (nil: s must be
// absolute). It accepts only http(s) URLs with a host and no credentials,
// and drops the fragment.
func absoluteHTTP(base *url.URL, s string) (string, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", false
	}
	var (
		u   *url.URL
		err error
	)
	if base != nil {
		u, err = base.Parse(s)
	} else {
		u, err = url.Parse(s)
	}
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" || u.User != nil {
		return "", false
	}
	u.Fragment, u.RawFragment = "", ""
	// A reference resolved against the base may give a URL that does not parse again (an
	// empty host with a port of 24 zeros, found by FuzzSitemap): what is kept must.
	out := u.String()
	if v, err := url.Parse(out); err != nil || v.Hostname() == "" {
		return "", false
	}
	return out, true
}

// lastModLayouts are the W3C Datetime forms sitemaps use, plus the common
// deviations (space instead of "T", no zone).
var lastModLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04Z07:00",
	"2006-01-02T15:04:05",
	"2006-01-02 15:04:05Z07:00",
	"2006-01-02 15:04:05",
	"2006-01-02",
	"2006-01",
	"2006",
}

// parseLastMod parses a <lastmod>; zone-less values are taken as UTC.
func parseLastMod(s string) time.Time {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}
	}
	for _, layout := range lastModLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t
		}
	}
	return time.Time{}
}
