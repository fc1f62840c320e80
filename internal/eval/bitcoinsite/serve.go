package bitcoinsite

import (
	"testing"

	"svc/internal/crawl/crawltest"
	"svc/internal/eval/sitetest"
)

// EnvDir names an environment variable that, when set, points at the bitcoin-org folder
// instead of shared/eval/bitcoin-org beside the repository.
const EnvDir = "SVC_BITCOIN_ORG"

// Dir finds the shared bitcoin-org folder (see sitetest.SharedDir) or skips the test: the
// pages are the bitcoin.org project's, kept outside the repository.
func Dir(t testing.TB) string {
	t.Helper()
	return sitetest.SharedDir(t, "bitcoin-org", EnvDir, "questions.en.jsonl")
}

// Site is the running test site, the pages it serves and the folder they came from.
type Site struct {
	*crawltest.Site
	Pages []Page
	Src   string // the bitcoin-org folder, for QuestionFile
}

// Serve renders the site into a temporary folder and serves it on loopback until the test
// ends; it skips the test when the shared folder is absent.
func Serve(t testing.TB) *Site {
	t.Helper()
	src := Dir(t)
	out := t.TempDir()
	pages, err := Render(src, out)
	if err != nil {
		t.Fatalf("render the bitcoin-org site: %v", err)
	}
	return &Site{Site: crawltest.Serve(t, out), Pages: pages, Src: src}
}
