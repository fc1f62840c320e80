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
	return SharedDir(t, "monero-site", EnvDir, "faq.en.jsonl")
}

// SharedDir finds the shared data set name: the folder $env names when it is set, else
// shared/eval/<name> beside the repository or beside a folder above it (so that a git
// worktree kept in a subfolder finds the same data as the main checkout). The folder must
// hold the file probe; without it the test is skipped, since the data sets are kept outside
// the repository under their own licences.
func SharedDir(t testing.TB, name, env, probe string) string {
	t.Helper()
	if d := os.Getenv(env); d != "" {
		return d
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatalf("getwd: %v", err)
	}
	root := ""
	for dir := wd; root == ""; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			root = dir
		} else if filepath.Dir(dir) == dir {
			t.Skip("repository root not found")
		}
	}
	for dir := filepath.Dir(root); ; dir = filepath.Dir(dir) {
		data := filepath.Join(dir, "shared", "eval", name)
		if _, err := os.Stat(filepath.Join(data, probe)); err == nil {
			return data
		}
		if filepath.Dir(dir) == dir {
			t.Skip(name + " not found in shared/eval beside " + root + " or a folder above it")
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
