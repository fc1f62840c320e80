package crawl_test

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"svc/internal/crawl"
	"svc/internal/store"
	"svc/internal/store/sqlite"
)

// env is a fresh store with one account and one site.
type env struct {
	st   *sqlite.Store
	dir  string
	acct store.Account
	site store.Site
}

func newEnv(t testing.TB, siteURL string) *env {
	t.Helper()
	dir := t.TempDir()
	st, err := sqlite.Open(context.Background(), dir, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	a := store.Account{Name: "Crawled", Plan: store.PlanStarter, Lang: "en", BalanceMicro: 5_000_000, SalesMode: true,
		TonePreset: store.ToneProfessional, SendRatePerMin: 15, DailyAnswers: 200}
	sum := sha256.Sum256([]byte(dir))
	k := store.APIKey{Prefix: "svc_pk_" + fmt.Sprintf("%x", sum[:4]), Hash: sum[:], Status: "active"}
	if err := st.CreateAccount(context.Background(), &a, &k); err != nil {
		t.Fatal(err)
	}
	u, err := crawl.NormalizeURL(siteURL)
	if err != nil {
		t.Fatal(err)
	}
	site := store.Site{AccountID: a.ID, URL: u.String(), Host: crawl.BaseHost(u.Hostname()), Name: "test"}
	if err := st.CreateSite(context.Background(), &site); err != nil {
		t.Fatal(err)
	}
	return &env{st: st, dir: dir, acct: a, site: site}
}

// quiet is a logger for crawls under test.
func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// crawl runs one crawl with test-friendly limits on loopback.
func (e *env) crawl(t *testing.T, opts crawl.Options) crawl.Result {
	t.Helper()
	opts.AllowPrivate = true
	if opts.Timeout == 0 {
		opts.Timeout = 5 * time.Second
	}
	res, err := crawl.New(e.st, opts, quiet()).Crawl(context.Background(), e.site, "", nil)
	if err != nil {
		t.Fatalf("crawl: %v", err)
	}
	return res
}

// doc is a stored document as the tests inspect it.
type doc struct {
	Type, URL, SourceURL, Title, Lang, Body string
	Chunks                                  string
	Slug, CategorySlug, CategoryName        string // articles
	Name, Price, Category, Image            string // products
}

// docs reads the account's documents straight from the database file, so the tests see
// exactly what retrieval will see.
func (e *env) docs(t *testing.T) []doc {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(e.dir, sqlite.FileName)+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT d.type, d.url, d.source_url, d.title, d.lang, d.body,
		COALESCE((SELECT group_concat(c.text, ' ¶ ') FROM chunks c WHERE c.document_id = d.id), ''),
		COALESCE(a.slug, ''), COALESCE(a.category_slug, ''), COALESCE(a.category_name, ''),
		COALESCE(p.name, ''), COALESCE(p.price, ''), COALESCE(p.category, ''), COALESCE(p.image, '')
		FROM documents d LEFT JOIN articles a ON a.document_id = d.id LEFT JOIN products p ON p.document_id = d.id
		WHERE d.account_id = ? ORDER BY d.id`, e.acct.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []doc
	for rows.Next() {
		var d doc
		if err := rows.Scan(&d.Type, &d.URL, &d.SourceURL, &d.Title, &d.Lang, &d.Body, &d.Chunks, &d.Slug,
			&d.CategorySlug, &d.CategoryName, &d.Name, &d.Price, &d.Category, &d.Image); err != nil {
			t.Fatal(err)
		}
		out = append(out, d)
	}
	return out
}

// allText joins every stored chunk, for "never indexed" checks.
func allText(ds []doc) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.Title + "\n" + d.Chunks + "\n")
	}
	return b.String()
}
