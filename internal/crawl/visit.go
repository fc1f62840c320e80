package crawl

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"net/url"
	"path"
	"strings"

	"golang.org/x/net/html"

	"svc/internal/fetch"
	"svc/internal/kb"
	"svc/internal/store"
)

// maxStoredLinks bounds the links remembered per page for re-crawls after a 304.
const maxStoredLinks = 500

// visit fetches one URL and stores what it yields.
func (r *run) visit(ctx context.Context, t task) outcome {
	o := outcome{task: t}
	key := t.u.String()
	prev, known := r.states[key]
	if ok, err := r.robots.Check(ctx, t.u); !ok {
		// robots.txt could not be read because the host itself is refused: report the guard,
		// not robots.txt, so the operator sees why.
		if errors.Is(err, fetch.ErrBlocked) {
			o.skip = "blocked"
			r.keepKnown(known, key)
			return o
		}
		o.skip = "robots"
		if known {
			o.gone = key
		}
		return o
	}
	gate := r.gates.gate(t.u.Host, r.robots.CrawlDelay(ctx, t.u))
	if err := gate.acquire(ctx); err != nil {
		o.skip = "cancelled"
		r.keepKnown(known, key)
		return o
	}
	req := fetch.Request{URL: key}
	if known {
		req.ETag, req.LastModified = prev.ETag, prev.LastModified
	}
	resp, err := r.client.Get(ctx, req)
	gate.release()
	if err != nil {
		o.skip, o.err = fetchSkipReason(err), err
		if o.skip == "blocked" || o.skip == "offsite" {
			o.err = nil // the guard and the scope did their job; not a failure of the site
		}
		r.keepKnown(known, key) // a transient failure proves nothing about the page
		return o
	}
	if resp.NotModified {
		prev.ETag, prev.LastModified = resp.ETag, resp.LastModified
		if err := r.c.st.TouchPage(ctx, r.site.AccountID, r.site.ID, prev); err != nil {
			o.err, o.skip = err, "error"
			r.keepKnown(known, key)
			return o
		}
		r.keep(key)
		o.unchanged = true
		for _, l := range prev.Links {
			if u, err := url.Parse(l); err == nil {
				o.links = append(o.links, u)
			}
		}
		return o
	}

	final, err := normalize(resp.URL)
	if err != nil {
		final = t.u
	}
	if final.String() != key {
		// A redirect: the page lives at its target, which may already be (or be about to be)
		// crawled under its own name.
		if !r.claim(final) {
			o.skip = "duplicate"
			return o
		}
	}
	switch {
	case resp.Status == http.StatusNotFound || resp.Status == http.StatusGone:
		o.skip = "gone"
		if known {
			o.gone = key
		}
		return o
	case resp.Status < 200 || resp.Status > 299:
		o.skip = "status"
		r.keepKnown(known, key)
		return o
	case resp.ContentType == "application/pdf":
		return r.pdf(ctx, o, final, resp)
	case resp.ContentType != "text/html" && resp.ContentType != "application/xhtml+xml":
		o.skip = "not_html"
		if known {
			o.gone = key
		}
		return o
	}
	return r.page(ctx, o, final, resp)
}

// page handles a fetched HTML page.
func (r *run) page(ctx context.Context, o outcome, final *url.URL, resp *fetch.Response) outcome {
	doc, err := html.Parse(bytes.NewReader(resp.Body))
	if err != nil {
		o.skip, o.err = "error", err
		return o
	}
	info := readPage(doc, final)
	if !info.nofollow {
		o.links = info.links
	}
	storeURL := final
	if c := info.canonical; c != nil {
		if cu, err := normalize(c); err == nil && cu.String() != final.String() && r.scope.contains(cu) {
			if !r.claim(cu) {
				o.skip, o.links = "duplicate", nil
				return o
			}
			storeURL = cu
		}
	}
	key := storeURL.String()
	if _, known := r.states[key]; info.noindex {
		o.skip = "noindex"
		if known {
			o.gone = key
		}
		return o
	}

	state := store.PageState{URL: key, ETag: resp.ETag, LastModified: resp.LastModified,
		Hash: pageHash(resp.Body), Links: r.scopedLinks(o.links)}
	var elsewhere []*url.URL
	o = r.save(ctx, o, state, func() ([]store.Document, error) {
		built, err := buildPage(string(resp.Body), doc, storeURL, r.scope, info)
		elsewhere = built.elsewhere
		return built.docs, err
	})
	o.links = append(o.links, elsewhere...)
	return o
}

// pdf stores the text of a PDF as a page.
func (r *run) pdf(ctx context.Context, o outcome, final *url.URL, resp *fetch.Response) outcome {
	key := final.String()
	state := store.PageState{URL: key, ETag: resp.ETag, LastModified: resp.LastModified, Hash: pageHash(resp.Body)}
	return r.save(ctx, o, state, func() ([]store.Document, error) {
		d, err := pdfDocument(ctx, resp.Body, key, final.Path)
		if err != nil {
			return nil, err
		}
		return []store.Document{d}, nil
	})
}

// save brings one fetched page's documents up to date: an unchanged content hash only
// touches the page; otherwise build makes the documents, and a page that yields none is
// removed if it was stored before.
func (r *run) save(ctx context.Context, o outcome, state store.PageState, build func() ([]store.Document, error)) outcome {
	key := state.URL
	prev, known := r.states[key]
	if known && prev.Hash == state.Hash {
		if err := r.c.st.TouchPage(ctx, r.site.AccountID, r.site.ID, state); err != nil {
			o.skip, o.err = "error", err
			r.keep(key)
			return o
		}
		r.keep(key)
		o.unchanged = true
		return o
	}
	docs, err := build()
	if err != nil || len(docs) == 0 {
		o.skip = "empty"
		if errors.Is(err, errListing) {
			o.skip = "listing"
		}
		if known {
			o.gone = key
		}
		return o
	}
	saved, err := r.c.st.SavePage(ctx, r.site.AccountID, r.site.ID, state, docs)
	if err != nil {
		o.skip, o.err = "error", err
		r.keepKnown(known, key)
		return o
	}
	r.keep(key)
	if saved.Unchanged == len(docs) {
		o.unchanged = true
	} else {
		o.updated = true
	}
	return o
}

func (r *run) keepKnown(known bool, key string) {
	if known {
		r.keep(key)
	}
}

// scopedLinks are the page's links as the crawl would follow them, for replay after a 304.
func (r *run) scopedLinks(links []*url.URL) []string {
	var out []string
	seen := map[string]bool{}
	for _, l := range links {
		u, ok := r.follow(l)
		if !ok || seen[u.String()] {
			continue
		}
		seen[u.String()] = true
		out = append(out, u.String())
		if len(out) == maxStoredLinks {
			break
		}
	}
	return out
}

// classifyVersion is part of every page hash. Bump it when the page classification changes
// (what becomes an article, a listing, a product), so the next crawl reclassifies pages that
// did not change: a page that becomes an article is stored as one (keyed by its URL, so
// later crawls update that same article) and its page document is removed.
const classifyVersion = "c2"

// pageHash identifies a page's content together with the KB build version and the
// classification version, so a change in cleaning, analysis or classification rebuilds
// pages that did not change.
func pageHash(body []byte) string {
	h := sha256.New()
	h.Write([]byte(kb.BuildVersion))
	h.Write([]byte{0})
	h.Write([]byte(classifyVersion))
	h.Write([]byte{0})
	h.Write(body)
	return hex.EncodeToString(h.Sum(nil))
}

func fetchSkipReason(err error) string {
	switch {
	case errors.Is(err, fetch.ErrBlocked):
		return "blocked"
	case errors.Is(err, fetch.ErrOffScope):
		return "offsite"
	case errors.Is(err, fetch.ErrTooLarge):
		return "too_large"
	case errors.Is(err, fetch.ErrTooManyRedirects):
		return "redirects"
	case errors.Is(err, fetch.ErrTimeout), errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case errors.Is(err, context.Canceled):
		return "cancelled"
	}
	return "error"
}

func extOf(p string) string { return strings.ToLower(path.Ext(p)) }
