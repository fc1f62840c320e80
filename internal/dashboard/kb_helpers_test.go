package dashboard_test

import (
	"bytes"
	"context"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"svc/internal/store"
)

// kbUpload sends a multipart form with one file, as a same-origin browser page would.
func (b *browser) kbUpload(path, field, filename string, content []byte, fields url.Values) page {
	b.h.t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for k, vs := range fields {
		for _, v := range vs {
			_ = mw.WriteField(k, v)
		}
	}
	if field != "" {
		fw, err := mw.CreateFormFile(field, filename)
		if err != nil {
			b.h.t.Fatal(err)
		}
		_, _ = fw.Write(content)
	}
	_ = mw.Close()
	req, _ := http.NewRequest(http.MethodPost, b.h.srv.URL+path, &buf)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Origin", b.h.srv.URL)
	return b.do(req)
}

// kbOwner signs in a browser as the tenant's owner.
func (h *harness) kbOwner(email, password string) *browser {
	h.t.Helper()
	b := h.browser()
	b.signIn(email, password)
	return b
}

// kbCounts is the account's documents by type, read from the store.
func (h *harness) kbCounts(accountID int64) map[string]int {
	h.t.Helper()
	m, err := h.st.CountDocuments(context.Background(), accountID)
	if err != nil {
		h.t.Fatal(err)
	}
	return m
}

// kbDocs lists the account's documents of a type, straight from the store.
func (h *harness) kbDocs(accountID int64, typ, query string) []store.DocumentRow {
	h.t.Helper()
	rows, _, err := h.st.ListDocuments(context.Background(), accountID, store.DocQuery{Type: typ, Query: query, Limit: 100})
	if err != nil {
		h.t.Fatal(err)
	}
	return rows
}

// kbSite adds a site to the account in the store.
func (h *harness) kbSite(accountID int64, rawURL string) store.Site {
	h.t.Helper()
	u, _ := url.Parse(rawURL)
	s := store.Site{AccountID: accountID, URL: rawURL, Host: u.Hostname(), Name: "site " + u.Host}
	if err := h.st.CreateSite(context.Background(), &s); err != nil {
		h.t.Fatal(err)
	}
	return s
}

// kbMustStatus fails unless p has the status.
func kbMustStatus(t testing.TB, what string, p page, want int) {
	t.Helper()
	if p.Status != want {
		t.Fatalf("%s: status %d, want %d\n%s", what, p.Status, want, kbClip(p.Body))
	}
}

func kbClip(s string) string {
	if len(s) > 3000 {
		return s[:3000] + "…"
	}
	return s
}

// kbFollow fetches where a 303 points.
func (b *browser) kbFollow(p page) page {
	b.h.t.Helper()
	if p.Status != http.StatusSeeOther {
		b.h.t.Fatalf("want a 303, got %d\n%s", p.Status, kbClip(p.Body))
	}
	return b.get(p.Header.Get("Location"))
}

// kbWriteSite writes a small website into a new folder: path -> HTML.
func kbWriteSite(t testing.TB, pages map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, body := range pages {
		f := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

var kbStateRE = regexp.MustCompile(`data-state="([a-z]+)"`)

// kbWaitCrawl polls the progress fragment, as the page does, until the crawl is no longer
// running, and returns the last fragment.
func (b *browser) kbWaitCrawl(siteID int64) page {
	b.h.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		p := b.hxGet("/dashboard/kb/sites/" + strconv.FormatInt(siteID, 10) + "/progress")
		if p.Status != http.StatusOK {
			b.h.t.Fatalf("progress: %d %s", p.Status, p.Body)
		}
		m := kbStateRE.FindStringSubmatch(p.Body)
		if m != nil && m[1] != "running" {
			return p
		}
		if m != nil && !strings.Contains(p.Body, `hx-trigger="every 1s"`) {
			b.h.t.Fatalf("a running crawl's fragment does not poll: %s", p.Body)
		}
		if time.Now().After(deadline) {
			b.h.t.Fatalf("the crawl did not finish in time; last fragment: %s", p.Body)
		}
		<-tick.C
	}
}
