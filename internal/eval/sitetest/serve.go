package sitetest

import (
	"os"
	"path/filepath"
	"testing"

	"svc/internal/crawl/crawltest"
)

// EnvDir names an environment variable that, when set, points at the monero-site folder
// instead of <repo>/../shared/eval/monero-site.
const EnvDir = "SVC_MONERO_SITE"

// Dir finds the shared monero-site folder beside the repository
// (<repo>/../shared/eval/monero-site, or $SVC_MONERO_SITE) or skips the test: the pages are
// BSD-3 material kept outside the repository.
func Dir(t testing.TB) string {
	t.Helper()
	if d := os.Getenv(EnvDir); d != "" {
		return d
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatalf("getwd: %v", err)
	}
	for dir := wd; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			data := filepath.Join(dir, "..", "shared", "eval", "monero-site")
			if _, err := os.Stat(filepath.Join(data, "faq.en.jsonl")); err != nil {
				t.Skip("monero-site not found at " + data)
			}
			return data
		}
		if filepath.Dir(dir) == dir {
			t.Skip("repository root not found")
		}
	}
}

// Site is the running test site and the pages it serves.
type Site struct {
	*crawltest.Site
	Pages []Page
}

// Serve renders the site into a temporary folder and serves it on loopback until the test
// ends; it skips the test when the shared sources are absent.
func Serve(t testing.TB) *Site {
	t.Helper()
	out := t.TempDir()
	pages, err := Render(Dir(t), out)
	if err != nil {
		t.Fatalf("render the monero site: %v", err)
	}
	return &Site{Site: crawltest.Serve(t, out), Pages: pages}
}
